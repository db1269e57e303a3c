// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/non-header-join.ll: a
// cycle (for_cond, for_body, if_end) entered at two blocks that are not its
// header, by a divergent branch (b comes from threadIdx here; in the original
// it is an argument of a non-kernel function). for_cond is a join of that
// branch: x (1 or 2) is a divergent affine tuple, the loop-carried y is not
// scalar either. The cycle never exits.

__device__ void foo(int *out, int b) {
  int x = 0, y = 0;
  if (b)
    goto if_then;
  goto if_end;
if_then:
  x = 1;
for_cond:
  out[x] = 0;
  out[y + 64] = 1;
  if (false)
    goto for_body;
  goto if_end;
for_body:
  goto for_cond;
if_end:
  x = 2;
  y = y + 1;
  goto for_cond;
}

__global__ void non_header_join(int *out) {
  foo(out, (int)threadIdx.x < 16);
}

// CHECK-LABEL: "name": "non_header_join"
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}11, 7]]{{.*}}"function": "foo"
// CHECK-DAG: {"line": 18, "column": 3, "kind": "store", "space": "global", "class": "{{affine|nonaffine}}"{{.*}}"function": "foo"
// CHECK-DAG: {"line": 11, "column": 7, "class": "affine"{{.*}}"function": "foo"
// CHECK-DAG: {"line": 19, "column": 7, "class": "scalar"{{.*}}"function": "foo"
// CHECK-DAG: {"name": "x", "line": 10, "class": "affine"{{.*}}"function": "foo"
