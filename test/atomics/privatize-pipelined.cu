// A privatized update that is its loop's whole body (after declarations of
// variables with pure initializers) gets its loop run by
// dd::pipelined_updates, which loads several iterations' operands before
// their updates. Everything else keeps the loop as written: other statements
// in the body, a loop variable declared outside the loop, a condition,
// index or value with side effects or calls, volatile reads, a loop pragma,
// macros, a cache of hot indices instead of a copy.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -diag-suppress 20199 -c %t.cu -o %t.o

// REMARK-COUNT-5: iterations ahead of their updates (dd::pipelined_updates)
// REMARK-NOT: iterations ahead

// CHECK: {{^}}#include <dd/pipelined_updates.cuh>

#define STEP(i) i += blockDim.x

__device__ unsigned limit_of(unsigned n) { return n; }

// A signed loop variable, an unsigned stride, ++ on an unbraced body.
// CHECK-LABEL: void int_var(
// CHECK: {{^}}  dd::pipelined_updates<DD_PIPELINE_DEPTH, int>(
// CHECK-NEXT: {{^}}      dd_private_bins, blockIdx.x * blockDim.x + threadIdx.x,
// CHECK-NEXT: {{^}}      [&](int i) { return i < n; },
// CHECK-NEXT: {{^}}      [&](int &i) { i += blockDim.x * gridDim.x; },
// CHECK-NEXT: {{^}}      [&](int i) { return keys[i] & 255; },
// CHECK-NEXT: {{^}}      [&](int i) { return w[i]; });
// CHECK-NEXT: {{^}}  dd_private_bins.flush();
__global__ void int_var(const int *keys, const int *w, int n, int *bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[keys[i] & 255], w[i]);
}

// Declarations before the update: each lambda repeats those it needs.
// CHECK-LABEL: void with_decls(
// CHECK: {{^}}      [&](unsigned int &i) { ++i; },
// CHECK-NEXT: {{^}}      [&](unsigned int i) { const unsigned k = keys[i]; return k & 63; },
// CHECK-NEXT: {{^}}      [&](unsigned int i) { const unsigned k = keys[i]; const int weight = int(k & 7) - 3; return weight; });
__global__ void with_decls(const unsigned *keys, unsigned n, int *bins) {
  for (unsigned i = threadIdx.x; i < n; ++i) {
    const unsigned k = keys[i];
    const int weight = int(k & 7) - 3;
    atomicAdd(&bins[k & 63], weight);
  }
}

// auto, `v = v + e`, a CUDA math function in the index, a constant value:
// the lambdas that do not use the variable leave it unnamed.
// CHECK-LABEL: void auto_var(
// CHECK: {{^}}  dd::pipelined_updates<DD_PIPELINE_DEPTH, unsigned int>(
// CHECK-NEXT: {{^}}      dd_private_bins, threadIdx.x + blockIdx.x * blockDim.x,
// CHECK-NEXT: {{^}}      [&](unsigned int i) { return i < n; },
// CHECK-NEXT: {{^}}      [&](unsigned int &i) { i = i + gridDim.x * blockDim.x; },
// CHECK-NEXT: {{^}}      [&](unsigned int i) { return min(keys[i], 99u); },
// CHECK-NEXT: {{^}}      [&](unsigned int) { return 1u; });
__global__ void auto_var(const unsigned *keys, unsigned n, unsigned *bins) {
  for (auto i = threadIdx.x + blockIdx.x * blockDim.x; i < n;
       i = i + gridDim.x * blockDim.x) {
    atomicAdd(&bins[min(keys[i], 99u)], 1u);
  }
}

// A downward loop, a 64-bit min, the annotation's range.
// CHECK-LABEL: void downward(
// CHECK: {{^}}      dd_private_lows, n - 1,
// CHECK-NEXT: {{^}}      [&](long long i) { return i >= 0; },
// CHECK-NEXT: {{^}}      [&](long long &i) { i--; },
__global__ void downward(const unsigned *keys, long long n,
                         unsigned long long *lows, unsigned nbins) {
  for (long long i = n - 1; i >= 0; i--) {
#pragma dd atomic(privatize) range(nbins)
    atomicMin(&lows[keys[i]], (unsigned long long)i);
  }
}

// A __device__ array's extent, atomicXor.
__device__ unsigned g_parity[32];
// CHECK-LABEL: void device_array(
// CHECK: {{^}}  dd::pipelined_updates<DD_PIPELINE_DEPTH, unsigned int>(
__global__ void device_array(const unsigned *keys, unsigned n) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    atomicXor(&g_parity[keys[i] & 31], keys[i]);
}

//===-- The loop as written -----------------------------------------------===//

// Another statement in the body.
// CHECK-LABEL: void other_statement(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}    dd_private_bins.update(keys[i] & 63, 1u);
__global__ void other_statement(const unsigned *keys, unsigned n,
                                unsigned *bins, unsigned *seen) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
    seen[i] = 1;
    atomicAdd(&bins[keys[i] & 63], 1u);
  }
}

// The loop variable outlives the loop.
// CHECK-LABEL: void declared_outside(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}    dd_private_bins.update(keys[i] & 63, 1u);
__global__ void declared_outside(const unsigned *keys, unsigned n,
                                 unsigned *bins, unsigned *last) {
  unsigned i = threadIdx.x;
  for (; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[i] & 63], 1u);
  last[threadIdx.x] = i;
}

// A while loop.
// CHECK-LABEL: void while_loop(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}    dd_private_bins.update(keys[i] & 63, 1u);
__global__ void while_loop(const unsigned *keys, unsigned n, unsigned *bins) {
  unsigned i = threadIdx.x;
  while (i < n) {
    atomicAdd(&bins[keys[i] & 63], 1u);
    i += blockDim.x;
  }
}

// A call in the condition (only CUDA's math functions are known pure).
// CHECK-LABEL: void call_in_condition(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}    dd_private_bins.update(keys[i] & 63, 1u);
__global__ void call_in_condition(const unsigned *keys, unsigned n,
                                  unsigned *bins) {
  for (unsigned i = threadIdx.x; i < limit_of(n); i += blockDim.x)
    atomicAdd(&bins[keys[i] & 63], 1u);
}

// A volatile read, a side effect in the value.
// CHECK-LABEL: void impure_operands(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}    dd_private_bins.update(keys[i] & 63, 1u);
// CHECK: {{^}}    dd_private_bins.update(keys[i] & 63, (unsigned)(seen[i]++));
__global__ void impure_operands(const volatile unsigned *keys, unsigned n,
                                unsigned *bins, unsigned *seen) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[i] & 63], 1u);
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[i] & 63], (unsigned)(seen[i]++));
}

// A loop pragma stays with its loop; a step written through a macro.
// CHECK-LABEL: void pragma_and_macro(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}#pragma unroll 2
// CHECK-NEXT: {{^}}  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
// CHECK: {{^}}  for (unsigned i = threadIdx.x; i < n; STEP(i))
__global__ void pragma_and_macro(const unsigned *keys, unsigned n,
                                 unsigned *bins) {
#pragma unroll 2
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[i] & 63], 1u);
  for (unsigned i = threadIdx.x; i < n; STEP(i))
    atomicAdd(&bins[keys[i] & 63], 1u);
}

// No bound: a cache of hot indices, whose misses go to the global array.
// CHECK-LABEL: void no_bound(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}    dd_private_bins.update(keys[i], 1u);
__global__ void no_bound(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}
