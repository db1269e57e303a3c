// Kernels annotated in a header: the tool rewrites only the file it is
// given, so each annotation here has no effect when a .cu includes this.
#pragma once

__global__ void rows(const float *__restrict__ A, float *__restrict__ B,
                     int dim, int num, int step) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
#pragma dd decouple
  for (int i = 0; i < dim; i += step)
    B[i * num + tid] = A[i * num + tid] + 1;
}

#pragma dd monotonic
__global__ void relax(int *d, const int *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#pragma dd atomic(vr)
    atomicAdd(&d[w[i] & 255], 1);
    atomicMin(&d[i], w[i]);
  }
}

__global__ void inc(int *locks, int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (atomicCAS(&locks[i % 16], 0, 1) == 0) {
      v[i % 16] += 1;
      __threadfence();
      atomicExch(&locks[i % 16], 0);
      done = true;
    }
  }
}
