// A kernel the atomics pass rewrites: --in-place changes this file.
__global__ void k(int *count) { atomicAdd(count, 1); }
