// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A load from a scalar address is scalar only when nothing in the kernel (or
// the device functions it calls, atomics included) writes the object; memory
// is per block, so any write makes the loaded value nonaffine. (LLVM's
// uniformity analysis calls every load from a uniform address uniform.)

__device__ int g_ro;
__device__ int g_rw;

__device__ void touch(int *q) { q[1] = 0; }

__global__ void readonly_vs_written(const int *in, int *out, int *buf,
                                    int *viacall, int *viaatomic) {
  int tid = threadIdx.x;
  int k = in[0];
  int w = buf[0];
  buf[1] = 7;
  int c = viacall[0];
  touch(viacall);
  int t = viaatomic[0];
  atomicAdd(&viaatomic[1], 1);
  int r = g_ro;
  int s = g_rw;
  g_rw = 1;
  out[k + tid] = 0;
  out[w + tid] = 1;
  out[r + tid] = 2;
}

// CHECK-LABEL: "name": "readonly_vs_written"
// CHECK-DAG: {"line": 15, "column": 11, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 16, "column": 11, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 22, "column": 11, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 25, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 26, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 27, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"name": "k", "line": 15, "class": "scalar"
// CHECK-DAG: {"name": "w", "line": 16, "class": "nonaffine"
// CHECK-DAG: {"name": "c", "line": 18, "class": "nonaffine"
// CHECK-DAG: {"name": "t", "line": 20, "class": "nonaffine"
// CHECK-DAG: {"name": "r", "line": 22, "class": "scalar"
// CHECK-DAG: {"name": "s", "line": 23, "class": "nonaffine"
