// A privatized update that is its loop's whole body (after declarations of
// variables with pure initializers) gets its loop run by
// dd::pipelined_updates, which loads several iterations' operands before
// their updates. Everything else keeps the loop as written: other statements
// in the body, a loop variable read through a pointer, a condition,
// index or value with side effects or calls, volatile reads, a loop pragma,
// macros, a cache of hot indices instead of a copy.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -diag-suppress 20199 -c %t.cu -o %t.o

// REMARK-COUNT-10: iterations ahead of their updates (dd::pipelined_updates)
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

// The index is a local set once from `% param` (its bound: the parameter),
// and the narrower local of the second kernel keeps its type's bound.
// CHECK-LABEL: void local_mod(
// CHECK: {{^}}  dd::block_private<dd::ops::add, unsigned int> dd_private_bins(dd_private_storage_bins, 4096, bins, nbins, 16);
// CHECK: {{^}}      [&](unsigned int i) { const unsigned bin = keys[i] % nbins; return bin; },
__global__ void local_mod(const unsigned *keys, unsigned n, unsigned *bins,
                          unsigned nbins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
    const unsigned bin = keys[i] % nbins;
    atomicAdd(&bins[bin], 1u);
  }
}
// CHECK-LABEL: void local_narrow(
// CHECK: {{^}}  dd::block_private<dd::ops::add, unsigned int> dd_private_bins(dd_private_storage_bins, 256, bins, 256, 16);
__global__ void local_narrow(const unsigned *keys, unsigned n, unsigned *bins,
                             unsigned nbins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
    const unsigned char bin = keys[i] % nbins;
    atomicAdd(&bins[bin], 1u);
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

// A loop variable declared before the loop gets the value the loop leaves
// in it: `for (; ...)`, `for (v = first; ...)`, and the while loop of CUDA
// by Example's histogram (the step the body's last statement).
// CHECK-LABEL: void declared_outside(
// CHECK: {{^}}  unsigned i = threadIdx.x;
// CHECK-NEXT: {{^}}  // decoupler: the loop as written, each 4 iterations' loads issued before their updates (dd/pipelined_updates.cuh)
// CHECK-NEXT: {{^}}  i = dd::pipelined_updates<DD_PIPELINE_DEPTH, unsigned int>(
// CHECK-NEXT: {{^}}      dd_private_bins, i,
// CHECK-NEXT: {{^}}      [&](unsigned int i) { return i < n; },
// CHECK-NEXT: {{^}}      [&](unsigned int &i) { i += blockDim.x; },
// CHECK-NEXT: {{^}}      [&](unsigned int i) { return keys[i] & 63; },
// CHECK-NEXT: {{^}}      [&](unsigned int) { return 1u; });
// CHECK-NEXT: {{^}}  last[threadIdx.x] = i;
// CHECK: {{^}}  i = dd::pipelined_updates<DD_PIPELINE_DEPTH, unsigned int>(
// CHECK-NEXT: {{^}}      dd_private_bins, threadIdx.x + n / 2,
__global__ void declared_outside(const unsigned *keys, unsigned n,
                                 unsigned *bins, unsigned *last) {
  unsigned i = threadIdx.x;
  for (; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[i] & 63], 1u);
  last[threadIdx.x] = i;
  for (i = threadIdx.x + n / 2; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[i] & 63], 2u);
  last[threadIdx.x] += i;
}

// CHECK-LABEL: void histo_while(
// CHECK: {{^}}  int i = threadIdx.x + blockIdx.x * blockDim.x;
// CHECK-NEXT: {{^}}  int offset = blockDim.x * gridDim.x;
// (A grid-stride walk over bytes: vector loads first, privatize-vector.cu.)
// CHECK-NEXT: {{^}}  // decoupler: each thread loads 16-byte vectors of 'buffer' (dd/grid_stride_updates.cuh); where that cannot run, the loop as written, each 4 iterations' loads issued before their updates (dd/pipelined_updates.cuh)
// CHECK-NEXT: {{^}}  if (!dd::grid_stride_updates<int, long>(
// CHECK-NEXT: {{^}}          dd_private_histo, buffer, size,
// CHECK-NEXT: {{^}}          [&](unsigned char dd_elem) { return dd_elem; },
// CHECK-NEXT: {{^}}          [&](unsigned char) { return 1; }, &i))
// CHECK-NEXT: {{^}}    i = dd::pipelined_updates<DD_PIPELINE_DEPTH, int>(
// CHECK-NEXT: {{^}}        dd_private_histo, i,
// CHECK-NEXT: {{^}}        [&](int i) { return i < size; },
// CHECK-NEXT: {{^}}        [&](int &i) { i += offset; },
// CHECK-NEXT: {{^}}        [&](int i) { return buffer[i]; },
// CHECK-NEXT: {{^}}        [&](int) { return 1; });
// CHECK-NEXT: {{^}}  dd_private_histo.flush();
__global__ void histo_while(const unsigned char *buffer, long size,
                            unsigned int *histo) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int offset = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&(histo[buffer[i]]), 1);
    i += offset;
  }
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

// The loop variable is read through a pointer; a while loop whose step is
// not its last statement; a for loop whose first part is not `v = first`.
// CHECK-LABEL: void variable_escapes(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}    dd_private_bins.update(keys[*at] & 63, 1u);
// CHECK: {{^}}    dd_private_bins.update(keys[j - blockDim.x] & 63, 1u);
// CHECK: {{^}}    dd_private_bins.update(keys[i] & 63, 1u);
__global__ void variable_escapes(const unsigned *keys, unsigned n,
                                 unsigned *bins, unsigned *last) {
  unsigned i = threadIdx.x;
  const unsigned *at = &i;
  for (; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[*at] & 63], 1u);
  unsigned j = threadIdx.x;
  while (j < n) {
    j += blockDim.x;
    atomicAdd(&bins[keys[j - blockDim.x] & 63], 1u);
  }
  for (i = 0, j = 1; i < n; i += j)
    atomicAdd(&bins[keys[i] & 63], 1u);
  last[threadIdx.x] = i + j;
}

// No bound: a cache of hot indices, whose misses go to the global array.
// CHECK-LABEL: void no_bound(
// CHECK-NOT: pipelined_updates
// CHECK: {{^}}    dd_private_bins.update(keys[i], 1u);
__global__ void no_bound(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}
