// An atomic in a device function is one text for every call. Where one
// call gives the lanes of a warp distinct words (an affine address) and
// another does not, the pass cannot rewrite one and not the other, and the
// vote would cost the distinct-word calls: it stays as written. The shape is
// HeCBench's bincount, whose shared-memory variant merges its block's bins
// through the same helper as its per-element updates, and ran 2x slower
// rewritten (docs/corpus.md, "Running real programs").
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o

// DIAG: mixed-contexts.cu:[[@LINE+2]]:{{[0-9]+}}: remark: atomicAdd left unchanged: in one of the contexts it is reached in, its address is affine (stride 4 bytes) and the lanes of a warp update distinct words; one rewrite for every call would make them pay the vote (atomic(vr) forces it)
// OUT: atomicAdd(address, val);
__device__ void addNoReturn(int *address, int val) { atomicAdd(address, val); }

// Every call data-dependent: the vote.
// DIAG: mixed-contexts.cu:[[@LINE+2]]:{{[0-9]+}}: remark: atomicAdd -> dd::atomic_add_vr
// OUT: dd::atomic_add_vr(address, val);
__device__ void addBin(int *address, int val) { atomicAdd(address, val); }

// Every call affine: unchanged, as an affine atomic in a kernel is.
// DIAG: mixed-contexts.cu:[[@LINE+2]]:{{[0-9]+}}: remark: atomicAdd left unchanged: affine address (stride 4 bytes)
// OUT: atomicAdd(address, val);
__device__ void addOwn(int *address, int val) { atomicAdd(address, val); }

template <bool Shared>
__global__ void bincount(int *output, const int *input, int nbins, int n) {
  extern __shared__ int smem[];
  if (Shared) {
    for (int i = threadIdx.x; i < nbins; i += blockDim.x)
      smem[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
      addNoReturn(&smem[input[i] % nbins], 1);
    __syncthreads();
    for (int i = threadIdx.x; i < nbins; i += blockDim.x)
      addNoReturn(&output[i], smem[i]);
  } else {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
      addNoReturn(&output[input[i] % nbins], 1);
  }
}
template __global__ void bincount<true>(int *, const int *, int, int);
template __global__ void bincount<false>(int *, const int *, int, int);

// Two kernels, one helper: the contexts of all kernels count.
__global__ void histo(int *output, const int *input, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    addBin(&output[input[i]], 1);
    addBin(&output[input[n - 1 - i]], 1);
    addOwn(&output[n + i], 1);
  }
}
__global__ void merge(int *output, const int *partial) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  addOwn(&output[i], partial[i]);
}
