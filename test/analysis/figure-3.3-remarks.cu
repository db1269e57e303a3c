// RUN: %decoupler --analyze -Rdecoupler-affine %s 2>&1 | FileCheck %s
// Figure 3.3 again, classified through remarks: one per access and branch at
// its position. Kept loose on purpose; the JSON report is the contract.

__global__ void example_kernel(int A[], int B[], int dim, int num)
{
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < dim; i++)
  {
    int tmp = A[i * num + tid];
    B[i * num + tid] = tmp + 1;
  }
}

// CHECK-DAG: figure-3.3-remarks.cu:10:15: remark: load from global memory is affine, stride 4 bytes [-Rdecoupler-affine]
// CHECK-DAG: figure-3.3-remarks.cu:11:5: remark: store {{.*}}affine, stride 4 bytes [-Rdecoupler-affine]
// CHECK-DAG: figure-3.3-remarks.cu:8:19: remark: branch condition is scalar [-Rdecoupler-affine]
