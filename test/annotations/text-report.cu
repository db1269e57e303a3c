// The text report lists annotations after the kernels.
// RUN: %decoupler --analyze %s | FileCheck %s
__global__ void k(int *a, int n) {
  // CHECK: annotations:
  // CHECK-NEXT: [[@LINE+1]]:14 #pragma dd decouple depth(2) -> loop at [[@LINE+2]]:3 in 'k'
  #pragma dd decouple depth(2)
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    a[i] = 0;
}
