// A narrowing conversion in braces (`int y[10] = {0.0, ...}`, SHOC's
// neuralnet) is an error in clang and a warning in nvcc. decoupler parses as
// nvcc compiles: with -Wno-c++11-narrowing the file is processed, its atomic
// rewritten, and the output compiles.
// RUN: %decoupler --no-line-directives %s -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: not %clang -x cuda --cuda-host-only --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG: error: type 'double' cannot be narrowed to 'int' in initializer list

// CHECK-LABEL: void backprop(
// CHECK: dd::atomic_add_vr(&hits[label], 1u);
__global__ void backprop(float *delta, const float *act, float y, unsigned *hits) {
  int y_[10] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  int label = (int)(y + 0.1) % 10;
  y_[label] = 1.0;
  delta[threadIdx.x] = act[threadIdx.x] - y_[threadIdx.x % 10];
  atomicAdd(&hits[label], 1u);
}
