// A privatized grid-stride walk over an array of 1-, 2- or 4-byte elements
// (`for (i = <thread index>; i < n; i += <grid size>) update(f(elems[i]))`)
// gets dd::grid_stride_updates first, which loads 16-byte vectors per
// thread, and the pipelined loop where that cannot run. Only where the walk
// visits each index once over the grid and nothing but the element depends
// on the thread: the start, the step, the bound and the array are checked,
// and the index and value may read nothing else that differs by thread.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -diag-suppress 20199 -c %t.cu -o %t.o

// REMARK-COUNT-6: its grid-stride loop loads 16-byte vectors of
// REMARK-NOT: its grid-stride loop loads 16-byte vectors of
// REMARK-COUNT-17: its loop loads 4 iterations ahead of their updates (dd::pipelined_updates)

// CHECK: {{^}}#include <dd/grid_stride_updates.cuh>

#include <cstdint>

// 2-byte elements, an int variable, the builtins in another order, `v = v +
// step`; the comparison converts to unsigned.
// CHECK-LABEL: void shorts(
// CHECK: {{^}}  if (!dd::grid_stride_updates<int, unsigned int>(
// CHECK-NEXT: {{^}}          dd_private_bins, samples, n,
// CHECK-NEXT: {{^}}          [&](unsigned short dd_elem) { return dd_elem & 1023; },
// CHECK-NEXT: {{^}}          [&](unsigned short) { return 1u; }))
// CHECK-NEXT: {{^}}    dd::pipelined_updates<DD_PIPELINE_DEPTH, int>(
__global__ void shorts(const unsigned short *samples, unsigned n,
                       unsigned *bins) {
  for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < n;
       i = i + blockDim.x * gridDim.x)
    atomicAdd(&bins[samples[i] & 1023], 1u);
}

// Declarations that read the element: every read becomes the parameter.
// CHECK-LABEL: void decls(
// CHECK: {{^}}          [&](unsigned char dd_elem) { const unsigned char b = dd_elem; const unsigned bin = b >> 2; return bin; },
// CHECK-NEXT: {{^}}          [&](unsigned char dd_elem) { const unsigned char b = dd_elem; return (unsigned)b + dd_elem; }))
__global__ void decls(const unsigned char *bytes, size_t n, unsigned *bins) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    const unsigned char b = bytes[i];
    const unsigned bin = b >> 2;
    atomicAdd(&bins[bin], (unsigned)b + bytes[i]);
  }
}

// The start and the step held in locals set once; a bound computed from
// parameters; uint8_t elements; a CUDA math function.
// CHECK-LABEL: void locals(
// CHECK: {{^}}  if (!dd::grid_stride_updates<size_t, size_t>(
// CHECK-NEXT: {{^}}          dd_private_bins, data, n / 2 + skip,
// CHECK-NEXT: {{^}}          [&](uint8_t dd_elem) { return min((unsigned)dd_elem, 200u); },
__global__ void locals(const uint8_t *data, size_t n, size_t skip,
                       unsigned *bins) {
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = (size_t)blockDim.x * gridDim.x;
  for (size_t i = tid; i < n / 2 + skip; i += stride)
    atomicAdd(&bins[min((unsigned)data[i], 200u)], 1u);
}

// 4-byte elements: float samples binned by value.
// CHECK-LABEL: void floats(
// CHECK: {{^}}          [&](float dd_elem) { return (unsigned)(dd_elem * 64.f) & 63; },
__global__ void floats(const float *x, int n, unsigned *bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[(unsigned)(x[i] * 64.f) & 63], 1u);
}

// Signed bytes, an int histogram.
// CHECK-LABEL: void signed_bytes(
// CHECK: {{^}}          [&](signed char dd_elem) { return dd_elem & 127; },
// CHECK-NEXT: {{^}}          [&](signed char dd_elem) { return (int)dd_elem; }))
__global__ void signed_bytes(const signed char *s, unsigned n, int *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&bins[s[i] & 127], (int)s[i]);
}

// A variable declared before the loop, `for (v = start; ...)`, gets the
// loop's final value (&i); CUDA by Example's while loop is in
// privatize-pipelined.cu.
// CHECK-LABEL: void outside(
// CHECK: {{^}}          [&](unsigned char) { return 1u; }, &i))
// CHECK-NEXT: {{^}}    i = dd::pipelined_updates<DD_PIPELINE_DEPTH, unsigned int>(
// CHECK-NEXT: {{^}}        dd_private_bins, blockIdx.x * blockDim.x + threadIdx.x,
// CHECK: {{^}}  last[blockIdx.x * blockDim.x + threadIdx.x] = i;
__global__ void outside(const unsigned char *bytes, unsigned n, unsigned *bins,
                        unsigned *last) {
  unsigned i;
  for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
  last[blockIdx.x * blockDim.x + threadIdx.x] = i;
}
//===-- The pipelined loop only -------------------------------------------===//

// 8-byte elements: not measured.
// CHECK-LABEL: void wide(
// CHECK-NOT: grid_stride_updates
// CHECK: pipelined_updates
__global__ void wide(const unsigned long long *keys, unsigned n,
                     unsigned *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[keys[i] & 255], 1u);
}

// A block-stride loop, a start one past the thread's index, a step of the
// grid's block count: not a walk that visits each index once over the grid.
// CHECK-LABEL: void other_walks(
// CHECK-NOT: grid_stride_updates
// CHECK: pipelined_updates
// CHECK-NOT: grid_stride_updates
// CHECK: pipelined_updates
// CHECK-NOT: grid_stride_updates
// CHECK: pipelined_updates
// CHECK-NOT: grid_stride_updates
// CHECK: dd_private_bins.flush();
__global__ void other_walks(const unsigned char *bytes, unsigned n,
                            unsigned *bins) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x + 1; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
}

// What depends on the thread: the index, the bound, the array (a local
// pointer set from blockIdx), a parameter the kernel changes.
// CHECK-LABEL: void per_thread(
// CHECK-NOT: grid_stride_updates
// CHECK: dd_private_bins.flush();
__global__ void per_thread(const unsigned char *bytes, unsigned n,
                           unsigned *bins, const unsigned char *moved) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[(bytes[i] + threadIdx.x) & 255], 1u);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n - threadIdx.x;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
  const unsigned char *row = bytes + blockIdx.x * 64;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[row[i]], 1u);
  moved += n;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[moved[i]], 1u);
}

// The variable outside a subscript, two arrays, another read of memory,
// `<=`.
// CHECK-LABEL: void other_uses(
// CHECK-NOT: grid_stride_updates
// CHECK: dd_private_bins.flush();
__global__ void other_uses(const unsigned char *bytes, const unsigned char *w,
                           const unsigned char *lut, unsigned n,
                           unsigned *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[(bytes[i] ^ i) & 255], 1u);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bytes[i]], (unsigned)w[i]);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[lut[bytes[i]]], 1u);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i <= n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
}

// A walk not every thread runs: under a condition, after an early return.
// CHECK-LABEL: void some_threads(
// CHECK-NOT: grid_stride_updates
// CHECK: dd_private_bins.flush();
__global__ void some_threads(const unsigned char *bytes, unsigned n,
                             unsigned *bins, int flag) {
  if (blockIdx.x % 2 == 0 || flag)
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
      atomicAdd(&bins[bytes[i]], 1u);
  if (threadIdx.x >= 200)
    return;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
}

// Memory written before the walk: the thread's own store to bytes[i] is
// not ordered before another thread's read of it (a call may write too).
// CHECK-LABEL: void written_before(
// CHECK-NOT: grid_stride_updates
// CHECK: dd_private_bins.flush();
__device__ void touch(unsigned char *p) { *p = 1; }
__global__ void written_before(unsigned char *bytes, unsigned n,
                               unsigned *bins) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n)
    bytes[tid] = (unsigned char)(tid * 7);
  for (unsigned i = tid; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
}
// CHECK-LABEL: void called_before(
// CHECK-NOT: grid_stride_updates
// CHECK: dd_private_bins.flush();
__global__ void called_before(unsigned char *bytes, unsigned n,
                              unsigned *bins) {
  touch(bytes + threadIdx.x);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
}

// The variable changed between its declaration and the while loop.
// CHECK-LABEL: void changed_before(
// CHECK-NOT: grid_stride_updates
// CHECK: dd_private_histo.flush();
__global__ void changed_before(const unsigned char *buffer, int size,
                               unsigned *histo, int skip) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int offset = blockDim.x * gridDim.x;
  if (skip)
    i += offset;
  while (i < size) {
    atomicAdd(&histo[buffer[i]], 1u);
    i += offset;
  }
}
