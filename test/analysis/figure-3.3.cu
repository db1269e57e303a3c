// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// The example kernel of Figure 3.3 of the dissertation (§3.1): addrA and addrB
// (the addresses of A[i*num+tid] and B[i*num+tid]) are affine with a stride of
// 4 bytes, the loop predicate p0 (i < dim) is scalar, tid is affine and the
// loaded value tmp is not affine.

__global__ void example_kernel(int A[], int B[],
    int dim, int num)
{
    int tid = blockIdx.x * blockDim.x +
        threadIdx.x;
    for (int i = 0; i < dim; i++)
    {
        int tmp = A[i * num + tid];
        B[i * num + tid] = tmp + 1;
    }
}

// CHECK-LABEL: "name": "example_kernel"
// CHECK-DAG: {"line": 14, "column": 19, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"line": 15, "column": 9, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"line": 12, "column": 21, "class": "scalar"
// CHECK-DAG: {"name": "A", "line": 7, "class": "scalar"
// CHECK-DAG: {"name": "B", "line": 7, "class": "scalar"
// CHECK-DAG: {"name": "dim", "line": 8, "class": "scalar"
// CHECK-DAG: {"name": "num", "line": 8, "class": "scalar"
// CHECK-DAG: {"name": "tid", "line": 10, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-DAG: {"name": "i", "line": 12, "class": "scalar"
// CHECK-DAG: {"name": "tmp", "line": 14, "class": "nonaffine"
