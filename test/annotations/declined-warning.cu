// An annotated construct that a pass leaves as written is a warning by
// default, as clang's -Wpass-failed: -Wno-decoupler-declined silences it
// (-Rdecoupler still explains), -Werror=decoupler-declined makes it an
// error; the last of them wins.
// RUN: %decoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// RUN: %decoupler -Wno-decoupler-declined %s -o %t.quiet.cu 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: cmp %t.cu %t.quiet.cu
// RUN: %decoupler -Wno-decoupler-declined -Rdecoupler %s -o %t.quiet.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not='warning:'
// RUN: rm -f %t.err.cu
// RUN: not %decoupler -Werror=decoupler-declined %s -o %t.err.cu 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not test -e %t.err.cu
// RUN: %decoupler -Werror=decoupler-declined -Wno-error=decoupler-declined %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark
// RUN: %decoupler -Wno-decoupler-declined -Wdecoupler-declined %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark
// RUN: not %decoupler -Wall %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=USAGE
// QUIET-NOT: {{.}}
// USAGE: Unknown command line argument '-Wall'
// RUN: not %decoupler -Werror=pass-failed %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: -Werror=pass-failed: unknown warning group (decoupler's is decoupler-declined; compiler warning flags go after '--')
#include <dd/annotate.h>

#define RELAX(p, v) atomicMin(p, v)

__global__ void gather8(const float *in, float *out, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    // CHECK: declined-warning.cu:[[@LINE+4]]:5: warning: loop not decoupled: already bandwidth-bound: the original keeps 64 KiB in flight per SM (>= 24 KiB); predicted gain 0.90x is below 1.2x [-Wdecoupler-declined]
    // REMARK: declined-warning.cu:[[@LINE+3]]:5: remark: loop not decoupled: already bandwidth-bound: {{.*}} [-Rdecoupler]
    // ERROR: declined-warning.cu:[[@LINE+2]]:5: error: loop not decoupled: already bandwidth-bound: {{.*}} [-Werror,-Wdecoupler-declined]
    DD_PRAGMA(decouple)
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * 8];
}

// A monotonic kernel whose min/max cannot become plain writes.
DD_PRAGMA(monotonic)
__global__ void relax(int *dist, const int *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK: declined-warning.cu:[[@LINE+2]]:3: warning: atomicMin not made monotonic: it is written through a macro [-Wdecoupler-declined]
  // REMARK: declined-warning.cu:[[@LINE+1]]:3: remark: atomicMin not made monotonic: it is written through a macro [-Rdecoupler]
  RELAX(&dist[i], w[i]);
  // CHECK: declined-warning.cu:{{[0-9]+}}:1: note: the kernel is annotated '#pragma dd monotonic' here
  // CHECK: declined-warning.cu:[[@LINE+1]]:3: warning: atomicMax_block not made monotonic: block-scoped atomics are not rewritten [-Wdecoupler-declined]
  atomicMax_block(&dist[0], w[i]);
  // CHECK: declined-warning.cu:{{[0-9]+}}:1: note: the kernel is annotated '#pragma dd monotonic' here
  // A used result is not what monotonic covers: no warning.
  int old = atomicMin(&dist[1], w[i]);
  dist[2] = old;
}

// A monotonic kernel with nothing the annotation could change.
// CHECK: declined-warning.cu:[[@LINE+2]]:12: warning: '#pragma dd monotonic' has no effect: kernel 'fill' has no atomicMin or atomicMax whose result is unused in its body [-Wdecoupler-declined]
// ERROR: declined-warning.cu:[[@LINE+1]]:12: error: '#pragma dd monotonic' has no effect
#pragma dd monotonic
__global__ void fill(int *dist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dist[i] = 0;
}

void launch(const float *in, float *out, int dim, int num, int *dist, const int *w) {
  gather8<<<(num + 255) / 256, 256>>>(in, out, dim, num);
  relax<<<(num + 255) / 256, 256>>>(dist, w, num);
  fill<<<(num + 255) / 256, 256>>>(dist, num);
}
