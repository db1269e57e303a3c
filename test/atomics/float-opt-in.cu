// --atomics-float lets the pass aggregate floating-point additions.
// RUN: %decoupler --atomics-float %s -o %t.cu
// RUN: grep -v '^ *//' %t.cu | FileCheck %s
// The output compiles with nvcc for sm_90.
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
__global__ void k(float *f, double *d, const int *keys) {
  // CHECK: dd::atomic_add_vr(&f[keys[threadIdx.x]], 1.0f);
  atomicAdd(&f[keys[threadIdx.x]], 1.0f);
  // CHECK: dd::atomic_add_uniform(d, 0.5);
  atomicAdd(d, 0.5);
}
