// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// An array of structs indexed by tid has a stride of sizeof(struct); the
// member adds a scalar offset. The access begins at the array expression.

struct Particle { float x, y, z; int id; };   // 16 bytes
struct Vec3 { float x, y, z; };               // 12 bytes
struct Pair { double a; char tag; };          // 16 bytes (padded)

__global__ void struct_arrays(Particle *p, Vec3 *v, Pair *q, int n) {
  int tid = threadIdx.x;
  p[tid].y = 1.0f;
  p[tid].id = tid;
  v[tid].z = p[tid].x;
  q[tid].tag = 'a';
  p[n].x = 0.0f;
  (p + tid)->z = 2.0f;
  v[2 * tid + 1].y = 3.0f;
}

// CHECK-LABEL: "name": "struct_arrays"
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 12
// CHECK-DAG: {"line": 13, "column": 14, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 16
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 24
