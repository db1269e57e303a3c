// An annotation that asks for what cannot be done is an error: exit status 1
// and no output file.
// RUN: rm -f %t.cu
// RUN: not %decoupler %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
__global__ void k(int *a, const int *keys, int *out) {
  // CHECK: annotation-errors.cu:[[@LINE+1]]:14: error: cannot apply '#pragma dd atomic(sr)' to atomicAdd: its result is used
  #pragma dd atomic(sr)
  out[0] = atomicAdd(&a[keys[threadIdx.x]], 1);
  // CHECK: annotation-errors.cu:[[@LINE-1]]:12: note: the atomic is here
  // CHECK: annotation-errors.cu:[[@LINE+1]]:14: error: cannot apply '#pragma dd atomic(vr)' to atomicCAS: not an update that can be combined across lanes
  #pragma dd atomic(vr)
  atomicCAS(&a[0], 0, 1);
  // CHECK: annotation-errors.cu:[[@LINE+1]]:14: error: '#pragma dd atomic(ss)' cannot be applied by the pass: sort-and-scatter reorders whole warps through a host-side remap (dd::scatter_remap in <dd/scatter_remap.h>); use it in the program
  #pragma dd atomic(ss)
  atomicAdd(&a[keys[threadIdx.x]], 1);
}
