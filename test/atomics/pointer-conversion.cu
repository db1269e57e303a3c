// An atomic whose address is an object converted to a pointer is left as
// written, with the reason: the runtime's variants take the element type
// from a pointer argument. Before (found by an adversarial round,
// 2026-11-29), it became dd::atomic_add_auto(c, 1ull), which nvcc rejected.
// RUN: %decoupler --passes=atomics -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s
// RUN: diff %s %t.cu
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
struct DevPtr {
  unsigned long long *p;
  __device__ operator unsigned long long *() const { return p; }
};
// CHECK: pointer-conversion.cu:[[@LINE+1]]:31: remark: atomicAdd left unchanged: its address is an object converted to a pointer ('const DevPtr'), from which the runtime's variants cannot take the type [-Rdecoupler]
__global__ void k(DevPtr c) { atomicAdd(c, 1ull); }
