// What nvcc makes of a plain atomic at an address the same in every lane:
// the SASS of these kernels decides which scalar-address atomics the pass
// leaves as written (docs/atomics.md, "Atomics at a uniform address").
// Read it with
//
//   nvcc -arch=sm_90 -cubin -o uniform_probe.cubin bench/atomics/uniform_probe.cu
//   cuobjdump -sass uniform_probe.cubin | grep -E 'Function|VOTEU|REDUX|RED|ATOM'
//
// ptxas combines the lanes (VOTEU.ANY, UFLO, REDUX or POPC, then one RED or
// ATOM) when it proves the address uniform. As read with CUDA 13.0 for
// sm_90 (docs/PERF.md has the table):
//   combined   int/unsigned add, sub, max, or at a kernel parameter, at
//              blockIdx, at an index loaded from global or shared memory
//              (plain, __restrict__, __ldg), at a pointer loaded from a
//              struct, by __shfl_sync from lane 0, in loops, under a
//              divergent branch, through an inlined __device__ function;
//              shared memory too (ATOMS.POPC.INC for +1)
//   per lane   64-bit and float add, atomicInc, threadIdx.x / 32 (uniform
//              per warp, not proved), and inside a __noinline__ function
//              (its parameter is not known uniform)
// Only the kernels matter: nothing here runs.

struct Holder {
  unsigned *count;
  int n;
};

// Combined.
__global__ void param_int(int *c, int v) { atomicAdd(c, v + int(threadIdx.x)); }
__global__ void param_max(int *c) { atomicMax(c, int(threadIdx.x)); }
__global__ void param_or(unsigned *c) { atomicOr(c, 1u << (threadIdx.x & 31)); }
__global__ void param_sub(int *c) { atomicSub(c, 1); }
__global__ void block_index(unsigned *c) { atomicAdd(c + blockIdx.x * 4 + 1, 1u); }
__global__ void loaded_index(const unsigned *keys, unsigned *g) { atomicAdd(&g[keys[0]], 1u); }
__global__ void loaded_restrict(const unsigned *__restrict__ keys, unsigned *g) {
  atomicAdd(&g[keys[0]], 1u);
}
__global__ void loaded_ldg(const unsigned *keys, unsigned *g) { atomicAdd(&g[__ldg(keys)], 1u); }
__global__ void loaded_pointer(Holder *h) { atomicAdd(h->count, 1u); }
__global__ void by_value(Holder h) { atomicAdd(h.count, 1u); }
__global__ void shuffled(unsigned *c) {
  auto *q = reinterpret_cast<unsigned *>(
      __shfl_sync(~0u, reinterpret_cast<unsigned long long>(c + threadIdx.x), 0));
  atomicAdd(q, 1u);
}
__global__ void shared_pointer(unsigned *g) {
  __shared__ unsigned *p;
  if (threadIdx.x == 0)
    p = g + blockIdx.x;
  __syncthreads();
  atomicAdd(p, 1u);
}
__global__ void in_loop(unsigned *c, int n) {
  for (int k = 0; k < n; ++k)
    atomicAdd(&c[k], threadIdx.x);
}
__global__ void divergent(unsigned *c) {
  if (threadIdx.x & 1)
    atomicAdd(c, 1u);
}
__device__ void bump(unsigned *c) { atomicAdd(c, 1u); }
__global__ void inlined(unsigned *c) { bump(c); }
// A block's __shared__ counter: combined for int, per lane for float (below).
template <class T> __global__ void shared_counter(T *c) {
  __shared__ T s;
  if (threadIdx.x == 0)
    s = 0;
  __syncthreads();
  atomicAdd(&s, T(threadIdx.x));
  __syncthreads();
  if (threadIdx.x == 0)
    c[blockIdx.x] = s;
}
template __global__ void shared_counter<int>(int *);
__global__ void shared_loaded_index(const unsigned *keys, unsigned *g) {
  __shared__ unsigned hist[256];
  hist[threadIdx.x & 255] = 0;
  __syncthreads();
  atomicAdd(&hist[keys[0] & 255], 1u);
  __syncthreads();
  g[threadIdx.x] = hist[threadIdx.x & 255];
}

// Per lane.
__global__ void param_u64(unsigned long long *c) {
  atomicAdd(c, static_cast<unsigned long long>(threadIdx.x));
}
__global__ void param_float(float *c, float v) { atomicAdd(c, v * threadIdx.x); }
__global__ void param_inc(unsigned *c) { atomicInc(c, 100u); }
template __global__ void shared_counter<float>(float *);
__global__ void warp_index(unsigned *c) { atomicAdd(&c[threadIdx.x / 32], 1u); }
__device__ __noinline__ void bump_opaque(unsigned *c) { atomicAdd(c, 1u); }
__global__ void not_inlined(unsigned *c) { bump_opaque(c); }
