// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// A __device__ function whose address is taken anywhere in the file may be
// called through the pointer with arguments that differ per lane: besides the
// context of its visible callers, it is analysed with unknown arguments, and
// its accesses are reported with the join of both. A function only ever
// called directly keeps the class its callers give it (issue 13, class 4).

typedef void (*Op)(int *, int);

// Stored in a table of function pointers.
__device__ void bump(int *p, int i) { atomicAdd(&p[i], 1); }
__device__ Op table[] = {bump};

// Passed as a callback to another function.
__device__ void store(int *p, int i) { p[i] = 7; }
__device__ void apply(Op f, int *p) { f(p, threadIdx.x); }

// Assigned to a pointer in another kernel.
__device__ void clear(int *p, int i) { p[i] = 0; }
__device__ Op chosen;
__global__ void setup() { chosen = &clear; }

// Called only directly: its callers' context is the whole story.
__device__ void direct(int *p, int i) { atomicAdd(&p[i], 1); }

__global__ void calls(int *p) {
  bump(p, 0);
  store(p, 1);
  apply(store, p);
  clear(p, 2);
  direct(p, 3);
}

// CHECK-LABEL: "name": "calls"
// CHECK-DAG: {"line": 12, "column": 39, "kind": "atomic", "space": "unknown", "class": "nonaffine", "stride_bytes": null, "function": "bump"}
// CHECK-DAG: {"line": 16, "column": 40, "kind": "store", "space": "unknown", "class": "nonaffine", "stride_bytes": null, "function": "store"}
// CHECK-DAG: {"line": 20, "column": 40, "kind": "store", "space": "unknown", "class": "nonaffine", "stride_bytes": null, "function": "clear"}
// CHECK-DAG: {"line": 25, "column": 41, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0, "function": "direct"}
// Parameters of an address-taken function are reported unknown too.
// CHECK-DAG: {"name": "i", "line": 12, "class": "nonaffine", "function": "bump"}
// CHECK-DAG: {"name": "i", "line": 25, "class": "scalar", "function": "direct"}
// NEG-NOT: "class": "scalar"{{.*}}"function": "bump"
