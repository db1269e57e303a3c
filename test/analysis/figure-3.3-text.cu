// RUN: %decoupler --analyze %s | FileCheck %s
// The human-readable report of the Figure 3.3 kernel. Loose on purpose: only
// the kernel and the three classes must show up; the JSON report is the
// contract.

__global__ void example_kernel(int A[], int B[], int dim, int num)
{
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < dim; i++)
  {
    int tmp = A[i * num + tid];
    B[i * num + tid] = tmp + 1;
  }
}

// CHECK: example_kernel
// CHECK-DAG: affine
// CHECK-DAG: scalar
// CHECK-DAG: nonaffine
