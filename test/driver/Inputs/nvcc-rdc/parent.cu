// Dynamic parallelism: a kernel launched from a kernel, which nvcc and
// clang accept only with relocatable device code.
__global__ void child(int *p) { p[threadIdx.x] = 1; }

__global__ void parent(int *p) { child<<<1, 32>>>(p); }
