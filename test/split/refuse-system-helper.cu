// A helper that reads blockDim or runs __syncthreads() keeps the loop as
// written wherever the helper is declared: a system header's (-isystem, as
// vendored code and CUB are) is checked as the user's own. A system helper
// that does neither is split as before.
// RUN: %decoupler --passes=split %s -o %t.cu -- -isystem %S/Inputs/sys 2>&1 | FileCheck %s
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s --check-prefix=OUT
#include <vendored.h>

__global__ void share(const float *a, float *out, int n) {
  float s = 0;
  // CHECK: refuse-system-helper.cu:[[@LINE+3]]:3: warning: loop not decoupled: {{.*}}not rewritten: 'per_thread_share' uses blockDim.x (the split block has one more warp, which leaves after the loop)
  // CHECK: refuse-system-helper.cu:[[@LINE+3]]:10: note: here
#pragma dd decouple
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += per_thread_share(a[blockIdx.x * n + j]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void barrier(const float *a, float *out, int n) {
  float s = 0;
  // CHECK: refuse-system-helper.cu:[[@LINE+3]]:3: warning: loop not decoupled: {{.*}}not rewritten: 'block_barrier' uses __syncthreads() (the split block has one more warp
  // CHECK: refuse-system-helper.cu:[[@LINE+4]]:5: note: here
#pragma dd decouple
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    s += a[blockIdx.x * n + j];
    block_barrier();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// CHECK-NOT: refuse-system-helper.cu:[[@LINE+4]]:3: warning
// OUT-NOT: share_split
// OUT-NOT: barrier_split
// OUT: kept_split(
__global__ void kept(const float *a, float *out, int n) {
  float s = 0;
#pragma dd decouple
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += scaled(a[blockIdx.x * n + j]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// OUT-LABEL: void launch(
// OUT-NEXT: share<<<blocks, 256>>>(a, out, n);
// OUT-NEXT: barrier<<<blocks, 256>>>(a, out, n);
// OUT-NEXT: kept_launch(blocks, 256, 0, 0, a, out, n);
void launch(const float *a, float *out, int n, int blocks) {
  share<<<blocks, 256>>>(a, out, n);
  barrier<<<blocks, 256>>>(a, out, n);
  kept<<<blocks, 256>>>(a, out, n);
}
