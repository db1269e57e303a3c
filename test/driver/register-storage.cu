// C++17 removed the `register` storage class; nvcc still accepts it,
// silently, and clang makes it an error (HeCBench's maxFlops, ntt and s3d
// keep it in their kernels). decoupler parses as nvcc compiles: with
// -Wno-register the file is processed, left as written, and compiles.
// RUN: %decoupler --no-line-directives %s -o %t.cu 2>&1 | count 0
// RUN: diff %s %t.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: not %clang -x cuda --cuda-host-only --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: error: ISO C++17 does not allow 'register' storage class specifier

template <class T> __global__ void madd(T *data, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n)
    return;
  register T s = data[gid], s2 = T(10) - s;
  for (int j = 0; j < 8; ++j)
    s = s * s2 + s2;
  data[gid] = s;
}

void run(float *d, int n) { madd<<<(n + 255) / 256, 256>>>(d, n); }
