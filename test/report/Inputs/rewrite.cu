// Input of the --remarks-output tests: a file the passes rewrite without
// error (a rewrite, a decline with a note, what stays unchanged).
__global__ void counts(unsigned *bins, const unsigned *keys, unsigned long long *count,
                       float *sum, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  atomicAdd(&bins[keys[tid]], 1u);
  atomicAdd(count, 1ull);
  atomicAdd(sum, 1.0f);
}

#pragma dd monotonic
__global__ void relax(int *dist, const int *next, int *flags) {
  atomicMin(&dist[next[threadIdx.x]], 3);
  atomicMax_block(&flags[threadIdx.x % 4], 1);
}

#pragma dd monotonic
__global__ void plain(int *x) { x[threadIdx.x] = 0; }
