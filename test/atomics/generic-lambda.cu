// An atomic in a generic lambda is left as written, with a remark: the
// lambda's text depends on its `auto` parameter, and the pass does not
// follow the call operator's instantiations (they live in the lambda's
// class). Before (found by an adversarial round, 2026-11-29), nothing
// said so. The same atomic in a lambda with a typed parameter is decided
// as any other.
// RUN: %decoupler --passes=atomics -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

__global__ void generic(unsigned *bins, const int *keys, int n) {
  // REMARK-DAG: generic-lambda.cu:[[@LINE+2]]:28: remark: atomicAdd left unchanged: it is in a generic lambda, whose instantiations the pass does not follow
  // CHECK: auto add = [&](auto i) { atomicAdd(&bins[keys[i] & 255], 1u); };
  auto add = [&](auto i) { atomicAdd(&bins[keys[i] & 255], 1u); };
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    add(i);
}

__global__ void typed(unsigned *bins, const int *keys, int n) {
  // REMARK-DAG: generic-lambda.cu:[[@LINE+2]]:27: remark: atomicAdd -> dd::atomic_add_
  // CHECK: auto add = [&](int i) { dd::atomic_add_
  auto add = [&](int i) { atomicAdd(&bins[keys[i] & 255], 1u); };
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    add(i);
}
