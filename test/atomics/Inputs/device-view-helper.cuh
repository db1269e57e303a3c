// A helper whose device compilation adds 2 where the host view adds 1.
__device__ inline void bump(unsigned *h, int b) {
#ifdef __CUDA_ARCH__
  atomicAdd(&h[b], 2u);
#else
  atomicAdd(&h[b], 1u);
#endif
}
