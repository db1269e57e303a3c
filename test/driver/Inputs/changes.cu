// A kernel the atomics pass rewrites: --in-place changes this file.
__global__ void k(unsigned long long *count) { atomicAdd(count, 1ull); }
