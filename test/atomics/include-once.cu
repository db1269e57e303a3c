// The runtime header is added once, before the first #include, and not at
// all when the file already includes it (as the preprocessor sees it: an
// #include disabled by #ifndef does not count).
// RUN: %decoupler --no-line-directives %s -o %t.cu
// RUN: FileCheck %s --input-file %t.cu
// RUN: grep -c '^#include <dd/atomics.cuh>' %t.cu | FileCheck %s --check-prefix=ONCE
// ONCE: {{^1$}}
// RUN: %decoupler --no-line-directives %s -o %t.first.cu -- -DFIRST
// RUN: FileCheck %s --input-file %t.first.cu --check-prefix=FIRST
// CHECK: {{^}}// A comment before the includes stays first.
// FIRST: {{^}}// A comment before the includes stays first.
// FIRST-NEXT: {{^}}#include <dd/atomics.cuh>
// FIRST-NEXT: {{^}}#include <cstdio>
// A comment before the includes stays first.
#include <cstdio>
#ifndef FIRST
// CHECK: {{^}}#include <dd/atomics.cuh>
#include <dd/atomics.cuh>
#endif
__global__ void k(unsigned long long *count) { atomicAdd(count, 1ull); }
