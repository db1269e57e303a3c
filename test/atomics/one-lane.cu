// An atomic that at most one lane of a warp reaches stays as written: with one
// lane there is nothing to combine, and the vote or the reduction only adds
// latency (HeCBench's pad, whose thread 0 chains the blocks through a flag,
// ran 0.92-0.97x through dd::atomic_add_vr). One lane: an enclosing `if`
// whose condition, or a conjunct of its `&&`, is `E == u` or `!E` with E
// distinct in the lanes of a warp (affine in threadIdx.x, or such a value of
// odd stride modulo a power of two of at least 32, through locals never
// changed) and u the same in every lane; or an earlier `if (E != u)
// return;` (`if (E) return;`, or a disjunct of its `||`) in an enclosing
// block.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

__global__ void guarded(const int *keys, int *hist, unsigned long long *wide,
                        int *flags, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int v = keys[tid];
  // CHECK: one-lane.cu:[[@LINE+2]]:25: remark: atomicAdd left unchanged: only one lane of a warp reaches it (the condition on line [[@LINE+2]]), so there is nothing to combine [-Rdecoupler]
  // OUT: {{^}}  if (threadIdx.x == 0) atomicAdd(&hist[v], 1);
  if (threadIdx.x == 0) atomicAdd(&hist[v], 1);
  // The lane, through a local; the atomic in a block.
  // CHECK: one-lane.cu:[[@LINE+3]]:5: remark: atomicAdd left unchanged: only one lane of a warp reaches it (the condition on line [[@LINE+1]])
  if (lane == 0) {
    // OUT: {{^}}    atomicAdd(&hist[v & 7], v);
    atomicAdd(&hist[v & 7], v);
  }
  // A conjunct, a 64-bit word at a scalar address (which a reduction would
  // otherwise combine), the mask spelling.
  // CHECK: one-lane.cu:[[@LINE+2]]:41: remark: atomicAdd left unchanged: only one lane
  // OUT: {{^}}  if ((threadIdx.x & 31) == 0 && v > 3) atomicAdd(wide, 1ull);
  if ((threadIdx.x & 31) == 0 && v > 3) atomicAdd(wide, 1ull);
  // CHECK: one-lane.cu:[[@LINE+2]]:21: remark: atomicAdd left unchanged: only one lane
  // OUT: {{^}}  if (!threadIdx.x) atomicAdd(&flags[v + 1], 1);
  if (!threadIdx.x) atomicAdd(&flags[v + 1], 1);
  // The global index against a parameter; a loop inside the branch.
  // CHECK: one-lane.cu:[[@LINE+2]]:17: remark: atomicAdd left unchanged: only one lane
  // OUT: {{^}}  if (tid == n) atomicAdd(&hist[v], 2);
  if (tid == n) atomicAdd(&hist[v], 2);
  if (threadIdx.x == 0) {
    for (int i = 0; i < n; ++i)
      // CHECK: one-lane.cu:[[@LINE+1]]:7: remark: atomicAdd left unchanged: only one lane
      atomicAdd(&flags[keys[i] & 1023], 6);
  }
}

// Conditions that let several lanes of a warp through: combined as before.
__global__ void several(const int *keys, int *hist, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = keys[tid];
  // Two lanes of each warp.
  // CHECK: one-lane.cu:[[@LINE+2]]:30: remark: atomicAdd -> dd::atomic_add_vr
  // OUT: if (threadIdx.x % 16 == 0) dd::atomic_add_vr(&hist[v], 3);
  if (threadIdx.x % 16 == 0) atomicAdd(&hist[v], 3);
  // The whole first warp.
  // CHECK: one-lane.cu:[[@LINE+2]]:30: remark: atomicAdd -> dd::atomic_add_vr
  // OUT: if (threadIdx.x / 32 == 0) dd::atomic_add_vr(&hist[v], 4);
  if (threadIdx.x / 32 == 0) atomicAdd(&hist[v], 4);
  // Data, not the lane.
  // CHECK: one-lane.cu:[[@LINE+2]]:15: remark: atomicAdd -> dd::atomic_add_vr
  // OUT: if (v == 0) dd::atomic_add_vr(&hist[v], 5);
  if (v == 0) atomicAdd(&hist[v], 5);
  // A lane that changes after its initialization is not followed.
  int l = threadIdx.x & 31;
  l += n;
  // CHECK: one-lane.cu:[[@LINE+2]]:15: remark: atomicAdd -> dd::atomic_add_vr
  // OUT: if (l == 1) dd::atomic_add_vr(&hist[v], 7);
  if (l == 1) atomicAdd(&hist[v], 7);
  // Nor one changed through a reference to it.
  int m = threadIdx.x & 31;
  int &mr = m;
  mr += n;
  // CHECK: one-lane.cu:[[@LINE+2]]:15: remark: atomicAdd -> dd::atomic_add_vr
  // OUT: if (m == 1) dd::atomic_add_vr(&hist[v], 9);
  if (m == 1) atomicAdd(&hist[v], 9);
  // The else branch of a one-lane condition: every other lane.
  // CHECK: one-lane.cu:[[@LINE+3]]:5: remark: atomicAdd -> dd::atomic_add_vr
  if (threadIdx.x == 0) {
  } else {
    atomicAdd(&hist[v], 8);
  }
}

// An earlier `if (...) return;` in an enclosing block whose condition only
// one lane of a warp fails (`E != u`, `E`, or a disjunct of an `||`).
__global__ void returns(const int *keys, int *hist, int n) {
  const int v = keys[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x != 0)
    return;
  // CHECK: one-lane.cu:[[@LINE+2]]:3: remark: atomicAdd left unchanged: only one lane of a warp reaches it (the condition on line [[@LINE-2]]), so there is nothing to combine [-Rdecoupler]
  // OUT: {{^}}  atomicAdd(&hist[v], 1);
  atomicAdd(&hist[v], 1);
}

__global__ void returnsOr(const int *keys, int *hist, int n) {
  const int v = keys[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > n || threadIdx.x % 32) {
    return;
  }
  // CHECK: one-lane.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: only one lane of a warp reaches it (the condition on line [[@LINE-3]])
  atomicAdd(&hist[v], 1);
}

// Every lane but one goes on, or the branch does not return: combined.
__global__ void returnsMost(const int *keys, int *hist, int n) {
  const int v = keys[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0)
    return;
  // CHECK: one-lane.cu:[[@LINE+1]]:3: remark: atomicAdd -> dd::atomic_add_vr
  atomicAdd(&hist[v], 1);
  if (threadIdx.x != 1)
    hist[0] = 1;
  // CHECK: one-lane.cu:[[@LINE+1]]:3: remark: atomicAdd -> dd::atomic_add_vr
  atomicAdd(&hist[v], 2);
}
