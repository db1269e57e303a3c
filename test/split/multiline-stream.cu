// A streamed subscript written over two lines, with a comment inside: the
// comments that name the stream put it on one line. Before (found by an
// adversarial round, 2026-11-29), its second line fell outside the `//`
// comment, and nvcc rejected the output.
// RUN: %decoupler --passes=split %s -o %t.cu
// RUN: grep -v 'OUT:' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

// OUT: {{^}}// A[(long long)row * n // the row + j] through a ring of
// OUT: dd::TileSlot<float, 1024> s0; // A[(long long)row * n // the row + j]{{$}}
__global__ void mv(const float *A, const float *x, float *y, int n) {
  __shared__ float partial[256];
  const int row = blockIdx.x;
  float sum = 0.0f;
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)row * n // the row
             + j] * x[j];
  partial[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int k = 0; k < (int)blockDim.x; ++k)
      t += partial[k];
    y[row] = t;
  }
}
void launch(const float *A, const float *x, float *y, int rows, int n) {
  mv<<<rows, 256>>>(A, x, y, n);
}
