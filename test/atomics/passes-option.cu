// --passes chooses passes: without atomics the file is unchanged; a pass of
// the design that is not implemented yet is a usage error.
// RUN: %decoupler --passes=atomics %s -o %t.on.cu
// RUN: grep -v '^ *//' %t.on.cu | FileCheck %s
// RUN: not %decoupler --passes=split %s -o %t.off.cu 2>&1 | FileCheck %s --check-prefix=SPLIT
// CHECK: dd::atomic_add_uniform(count, 1);
// SPLIT: error: --passes: pass 'split' is not implemented in this version of decoupler
__global__ void k(int *count) { atomicAdd(count, 1); }
