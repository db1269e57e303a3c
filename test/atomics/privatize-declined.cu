// What keeps an atomic from being privatized, each said in its remark; the
// atomic then takes the path it would take without privatization.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// The array is also read and written otherwise.
__global__ void also_read(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
  // CHECK: privatize-declined.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: kernel 'also_read' also uses 'bins' otherwise (line {{[0-9]+}}), which would not see the block's updates until its end) [-Rdecoupler]
    atomicAdd(&bins[keys[i] & 255], 1u);
  if (threadIdx.x == 0)
    bins[0] += 1;
}

// Two operations on one array.
__global__ void two_ops(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
  // CHECK: privatize-declined.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: kernel 'two_ops' updates 'bins' with more than one operation or type) [-Rdecoupler]
    atomicAdd(&bins[keys[i] & 255], 1u);
  // CHECK: privatize-declined.cu:[[@LINE+1]]:5: remark: atomicMax -> dd::atomic_max_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: kernel 'two_ops' updates 'bins' with more than one operation or type) [-Rdecoupler]
    atomicMax(&bins[keys[i] & 255], i);
  }
}

// An early return and a barrier: the merge's barrier would pair wrongly.
__global__ void returns_and_syncs(const unsigned *keys, unsigned n, unsigned *bins) {
  __shared__ unsigned staged[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  staged[threadIdx.x % 256] = keys[i];
  __syncthreads();
  // CHECK: privatize-declined.cu:[[@LINE+1]]:3: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: kernel 'returns_and_syncs' returns early and synchronizes its block ('__syncthreads'): the merge's barrier would pair with it) [-Rdecoupler]
  atomicAdd(&bins[staged[(threadIdx.x + 1) % 256] & 255], 1u);
}

extern __shared__ unsigned dynamic_smem[];
// Dynamic shared memory: the launch sizes it, the private copy adds to it.
__global__ void dynamic_shared(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
    dynamic_smem[threadIdx.x] = keys[i];
  // CHECK: privatize-declined.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: kernel 'dynamic_shared' uses dynamic shared memory, which the launch sizes: a private copy could make the launch fail) [-Rdecoupler]
    atomicAdd(&bins[keys[i] & 255], 1u);
  }
}

// 8192 words do not fit the 16 KiB a copy may take, and one update per
// thread gives a cache of hot indices nothing to gather.
__global__ void too_large(const unsigned *keys, unsigned n, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
  // CHECK: privatize-declined.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: its range (8192 words, from '& 8191') does not fit the 16 KiB of shared memory a private copy may take, and the atomic is not in a loop (only there does a cache of its hot indices pay; write '#pragma dd atomic(privatize) range(N)' to give a bound)) [-Rdecoupler]
    atomicAdd(&bins[keys[i] & 8191], 1u);
}

// In a device function (the kernel's body does not hold it).
  // CHECK: privatize-declined.cu:[[@LINE+1]]:52: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: privatization needs the atomic in the kernel's own body (it is in a device function or a lambda)) [-Rdecoupler]
__device__ void bump(unsigned *bins, unsigned k) { atomicAdd(&bins[k & 255], 1u); }
__global__ void through_helper(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    bump(bins, keys[i]);
}

// The pointer moves: the array would not be the one the copy merges into.
__global__ void moved_pointer(const unsigned *keys, unsigned n, unsigned *bins) {
  bins += blockIdx.y * 256;
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
  // CHECK: privatize-declined.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: kernel 'moved_pointer' also uses 'bins' otherwise (line {{[0-9]+}}), which would not see the block's updates until its end) [-Rdecoupler]
    atomicAdd(&bins[keys[i] & 255], 1u);
}

// One result is used: that atomic stays, the other cannot be privatized.
__global__ void result_used(const unsigned *keys, unsigned n, unsigned *bins, unsigned *old) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
  // CHECK: privatize-declined.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: kernel 'result_used' also uses 'bins' otherwise (line {{[0-9]+}}), which would not see the block's updates until its end) [-Rdecoupler]
    atomicAdd(&bins[keys[i] & 255], 1u);
  // CHECK: privatize-declined.cu:[[@LINE+1]]:14: remark: atomicAdd left unchanged: its result is used [-Rdecoupler]
    old[i] = atomicAdd(&bins[keys[i] & 255], 1u);
  }
}
