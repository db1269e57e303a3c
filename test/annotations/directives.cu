// Every directive with its clauses, attached to what follows it, as the
// analysis report shows them.
// RUN: %decoupler --analyze --report=json %s | FileCheck %s
#include <dd/annotate.h>

// CHECK: "annotations": [
// CHECK-NEXT: {"directive": "monotonic", "line": [[@LINE+1]], "column": 12, "function": "", "target": "kernel", "target_line": [[@LINE+2]], "target_column": 17, "clauses": {}}
#pragma dd monotonic
__global__ void relax(int *dist, const int *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMin(&dist[i], dist[i] + w[i]);
}

// CHECK-NEXT: {"directive": "decouple", "line": [[@LINE+1]], "column": 12, "function": "", "target": "kernel", "target_line": [[@LINE+2]], "target_column": 17, "clauses": {"depth": 3}}
#pragma dd decouple depth(3)
__global__ void copy(float *out, const float *in, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-NEXT: {"directive": "decouple", "line": [[@LINE+1]], "column": 14, "function": "copy", "target": "loop", "target_line": [[@LINE+2]], "target_column": 3, "clauses": {}}
  #pragma dd decouple
  for (int i = tid; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

__global__ void locked(int *locks, int *table, const int *keys, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  int k = keys[tid];
  bool done = false;
  // CHECK-NEXT: {"directive": "delegate", "line": [[@LINE+1]], "column": 3, "function": "locked", "target": "loop", "target_line": [[@LINE+2]], "target_column": 3, "clauses": {"servers": 4, "locks": 1024}}
  DD_PRAGMA(delegate servers(4), locks(1024))
  while (!done) {
    if (atomicCAS(&locks[k], 0, 1) == 0) {
      table[k] += 1;
      __threadfence();
      atomicExch(&locks[k], 0);
      done = true;
    }
  }
  // CHECK-NEXT: {"directive": "atomic", "line": [[@LINE+1]], "column": 14, "function": "locked", "target": "statement", "target_line": [[@LINE+2]], "target_column": 3, "clauses": {"variant": "vr"}}
  #pragma dd atomic(vr)
  atomicAdd(&table[0], 1);
  // CHECK-NEXT: {"directive": "atomic", "line": [[@LINE+1]], "column": 3, "function": "locked", "target": "statement", "target_line": [[@LINE+2]], "target_column": 3, "clauses": {"variant": "none"}}
  DD_PRAGMA(atomic(none))
  if (k > 0) atomicAdd(&table[1], k);
}
// CHECK-NEXT: ]
