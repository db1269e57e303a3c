// --passes chooses passes: without atomics the file is unchanged (the split
// pass only plans and never changes a file: docs/split-pass.md).
// RUN: %decoupler --passes=atomics %s -o %t.on.cu
// RUN: grep -v '^ *//' %t.on.cu | FileCheck %s
// RUN: %decoupler --passes=split %s -o %t.off.cu 2>&1 | count 0
// RUN: diff %s %t.off.cu
// CHECK: dd::atomic_add_uniform(count, 1ull);
__global__ void k(unsigned long long *count) { atomicAdd(count, 1ull); }
