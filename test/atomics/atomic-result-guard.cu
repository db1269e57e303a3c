// An atomic that runs only where another atomic returned one particular
// value stays as written: a counter reaching its end, a packed bin
// overflowing. Each value a word passes through comes back to one lane, so
// the lanes there are seldom several of a warp, fewer still at one word:
// the vote has nothing to combine (Parboil's histo shape, in
// bench/atomics/threshold_bench.cu: 0.99-1.00x of as written through
// dd::atomic_add_vr on an H200), so the code is left as it is. The condition, or a
// conjunct of its `&&`, is `E == c`, `c == E` or `!E` with E computed from an
// atomic's result (through locals, their initializers and assignments) and c
// not. Other conditions on an atomic's result (`pos < cap`) let many lanes
// through and are combined as before; `atomic(vr)` forces the vote.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <dd/annotate.h>

// Parboil's shape: bytes packed in shared words, an overflow to global.
__global__ void packed(const unsigned *keys, unsigned *overflow, int n) {
  __shared__ unsigned bins[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    bins[i] = 0;
  __syncthreads();
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    const unsigned k = keys[tid] & 4095;
    const unsigned offset = (k % 4) * 8;
    // CHECK: atomic-result-guard.cu:[[@LINE+1]]:21: remark: atomicAdd left unchanged: its result is used
    unsigned prev = atomicAdd(&bins[k / 4], 1u << offset);
    unsigned byte = (prev >> offset) & 0xFF;
    if (byte == 0xFF) {
      // CHECK: atomic-result-guard.cu:[[@LINE+2]]:7: remark: atomicAdd left unchanged: it runs where an atomic returned one value (the condition on line [[@LINE-1]]), which seldom brings several lanes of a warp together (atomic(vr) forces the vote) [-Rdecoupler]
      // OUT: {{^}}      atomicAdd(&overflow[k], 256u);
      atomicAdd(&overflow[k], 256u);
      if (offset < 24)
        // CHECK: atomic-result-guard.cu:[[@LINE+1]]:9: remark: atomicAdd left unchanged: it runs where an atomic returned one value
        atomicAdd(&overflow[k + 1], 1u);
    }
  }
}

// The last block to finish, through an assignment and a `!`; a conjunct.
__global__ void last_block(const int *keys, int *totals, unsigned *done,
                           int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = tid < n ? keys[tid] : 0;
  unsigned left;
  // CHECK: atomic-result-guard.cu:[[@LINE+1]]:10: remark: atomicSub left unchanged: its result is used
  left = atomicSub(&done[v & 7], 1u) - 1u;
  // CHECK: atomic-result-guard.cu:[[@LINE+3]]:5: remark: atomicAdd left unchanged: it runs where an atomic returned one value (the condition on line [[@LINE+2]])
  // OUT: {{^}}    atomicAdd(&totals[v], 1);
  if (!left)
    atomicAdd(&totals[v], 1);
  // CHECK: atomic-result-guard.cu:[[@LINE+2]]:5: remark: atomicAdd left unchanged: it runs where an atomic returned one value (the condition on line [[@LINE+1]])
  if (v > 2 && 5u == left)
    atomicAdd(&totals[v + 1], 2);
}

// Conditions that let many lanes through: combined as before.
__global__ void queue(const int *keys, int *hist, int *slots, int *count,
                      int cap, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = tid < n ? keys[tid] : 0;
  // CHECK: atomic-result-guard.cu:[[@LINE+1]]:19: remark: atomicAdd left unchanged: its result is used
  const int pos = atomicAdd(count, 1);
  // A slot below the capacity: every lane until the queue fills.
  // CHECK: atomic-result-guard.cu:[[@LINE+3]]:5: remark: atomicAdd -> dd::atomic_add_vr
  // OUT: dd::atomic_add_vr(&hist[v & 15], 1);
  if (pos < cap)
    atomicAdd(&hist[v & 15], 1);
  // Both sides from an atomic's result.
  // CHECK: atomic-result-guard.cu:[[@LINE+2]]:5: remark: atomicAdd -> dd::atomic_add_vr
  if (pos == slots[pos & 3] + pos)
    atomicAdd(&hist[v & 15], 2);
  // Data, not an atomic's result.
  // CHECK: atomic-result-guard.cu:[[@LINE+2]]:5: remark: atomicAdd -> dd::atomic_add_vr
  if (v == 3)
    atomicAdd(&hist[v & 15], 3);
  // Forced.
  // CHECK: atomic-result-guard.cu:[[@LINE+3]]:5: remark: atomicAdd -> dd::atomic_add_vr: annotated atomic(vr)
  if (pos == 0) {
    DD_PRAGMA(atomic(vr))
    atomicAdd(&hist[v & 15], 4);
  }
}
