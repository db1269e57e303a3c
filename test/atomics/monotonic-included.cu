// '#pragma dd monotonic' on a kernel in an included file has no effect, and
// the warning says why: only the main file is rewritten (the kernel does
// hold an atomicMin; cuda-samples' simpleAtomicIntrinsics keeps its kernel
// in a .cuh like this).
// RUN: %decoupler -Rdecoupler %s -o %t.cu -- -I%S/Inputs 2>&1 | FileCheck %s
// RUN: diff %s %t.cu
// CHECK: monotonic-included.cuh:2:12: warning: '#pragma dd monotonic' has no effect: kernel 'relax_in_header' is in an included file (monotonic-included.cuh), and only the main file is rewritten [-Wdecoupler-declined]
// CHECK-NOT: has no atomicMin or atomicMax
#include "monotonic-included.cuh"

int main() { return 0; }
