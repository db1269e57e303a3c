// An atomics input: the pass inserts <dd/atomics.cuh> and renames calls.
#include <cstdio>

__global__ void count(unsigned long long *total, int *bins, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(total, 1ull);
  atomicAdd(&bins[keys[i] & 255], 1); // BARE-LF: this line keeps its ending
}
