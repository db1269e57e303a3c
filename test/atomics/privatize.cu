// Privatization: a small global array that a kernel updates only through
// atomics at bounded indices gets a block-private copy in shared memory
// (dd::block_private, <dd/privatize.cuh>), merged once per block. The bound
// comes from the key type, `% param`, `& mask`, min(), `>>`, an annotation
// (a constant or a parameter) or a __device__ array's extent; an early return
// jumps to the merge. Where no bound fits (or none is known) and the atomic
// runs in a loop, the storage becomes a cache of the hot indices instead.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -diag-suppress 20199 -c %t.cu -o %t.o

// Only the privatization header: no call names <dd/atomics.cuh>.
// CHECK-NOT: #include <dd/atomics.cuh>
// CHECK: {{^}}#include <dd/privatize.cuh>

__device__ unsigned g_counts[128];

// CHECK-LABEL: void byte_hist(
// CHECK-NEXT: // decoupler: 'bins' is updated through a block-private copy in shared memory, merged at the end (dd/privatize.cuh)
// CHECK-NEXT: {{^}}  __shared__ unsigned int dd_private_storage_bins[256];
// CHECK-NEXT: {{^}}  dd::block_private<dd::ops::add, unsigned int> dd_private_bins(dd_private_storage_bins, 256, bins, 256, 16);
// CHECK: {{^}}  // decoupler: each thread loads 16-byte vectors of 'bytes' (dd/grid_stride_updates.cuh); where that cannot run, the loop as written, each 4 iterations' loads issued before their updates (dd/pipelined_updates.cuh)
// CHECK-NEXT: {{^}}  if (!dd::grid_stride_updates<size_t, size_t>(
// CHECK-NEXT: {{^}}          dd_private_bins, bytes, n,
// CHECK-NEXT: {{^}}          [&](unsigned char dd_elem) { return dd_elem; },
// CHECK-NEXT: {{^}}          [&](unsigned char) { return 1u; }))
// CHECK-NEXT: {{^}}    dd::pipelined_updates<DD_PIPELINE_DEPTH, size_t>(
// CHECK-NEXT: {{^}}        dd_private_bins, blockIdx.x * (size_t)blockDim.x + threadIdx.x,
// CHECK-NEXT: {{^}}        [&](size_t i) { return i < n; },
// CHECK-NEXT: {{^}}        [&](size_t &i) { i += (size_t)gridDim.x * blockDim.x; },
// CHECK-NEXT: {{^}}        [&](size_t i) { return bytes[i]; },
// CHECK-NEXT: {{^}}        [&](size_t) { return 1u; });
// CHECK-NEXT: {{^}}  dd_private_bins.flush();
// CHECK-NEXT: {{^}}}
__global__ void byte_hist(const unsigned char *bytes, size_t n, unsigned *bins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, 256) (from the type 'unsigned char'); its grid-stride loop loads 16-byte vectors of 'bytes' (dd::grid_stride_updates), or where that cannot run, 4 iterations ahead of their updates (dd::pipelined_updates) [-Rdecoupler]
    atomicAdd(&bins[bytes[i]], 1u);
}

// A range known at launch: the capacity is DD_PRIVATE_BYTES (16 KiB).
// CHECK-LABEL: void mod_hist(
// CHECK: {{^}}  __shared__ unsigned int dd_private_storage_bins[4096];
// CHECK-NEXT: {{^}}  dd::block_private<dd::ops::add, unsigned int> dd_private_bins(dd_private_storage_bins, 4096, bins, nbins, 16);
// CHECK: {{^}}          [&](unsigned int dd_elem) { return dd_elem % nbins; },
// CHECK: {{^}}        [&](size_t i) { return keys[i] % nbins; },
__global__ void mod_hist(const unsigned *keys, size_t n, unsigned *bins,
                         unsigned nbins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, nbins) (from '% nbins'); its grid-stride loop loads 16-byte vectors of 'keys' (dd::grid_stride_updates), or where that cannot run, 4 iterations ahead of their updates (dd::pipelined_updates); where a block's indices seldom repeat that may be slower than the atomics as written, and its launches cannot choose (it is not launched in this file) [-Rdecoupler]
    atomicAdd(bins + keys[i] % nbins, 1u);
}

// The atomic in no loop (one key per thread): the same budget of 16 words
// per thread to clear and merge (the last argument); the early return jumps
// to the merge, out of the body's scope. (Without the loop before it, one
// block would run the threads of several: privatize-coarse.cu.)
// CHECK-LABEL: void early_return(
// CHECK: {{^}}  dd::block_private<dd::ops::sub, int> dd_private_bins(dd_private_storage_bins, 64, bins, 64, 16);
// CHECK-NEXT: {{^}}  {
// CHECK: {{^}}    goto dd_private_merge;
// CHECK: {{^}}  dd_private_bins.update(k, 2);
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}dd_private_merge:
// CHECK-NEXT: {{^}}  dd_private_bins.flush();
// CHECK-NEXT: {{^}}}
__global__ void early_return(const unsigned *keys, unsigned n, int *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned mix = 0;
  for (unsigned shift = 0; shift < 12; shift += 6)
    mix += keys[i] >> shift;
  const int k = mix & 63;
  // REMARK: privatize.cu:[[@LINE+1]]:3: remark: atomicSub -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, 64) (from '& 63'); each block merges it after one update per thread (one block may not run the threads of several: it has a loop, whose threads could wait for one another (line [[@LINE-3]])) [-Rdecoupler]
  atomicSub(&bins[k], 2);
}

// CHECK-LABEL: void annotated(
// CHECK: {{^}}  __shared__ unsigned long long dd_private_storage_bins[2048];
// CHECK-NEXT: {{^}}  dd::block_private<dd::ops::add, unsigned long long> dd_private_bins(dd_private_storage_bins, 2048, bins, nbins, 16);
// CHECK: {{^}}          [&](unsigned int dd_elem) { return dd_elem; },
// CHECK-NEXT: {{^}}          [&](unsigned int) { return 1ull; }))
// CHECK: {{^}}        [&](size_t i) { return keys[i]; },
// CHECK-NEXT: {{^}}        [&](size_t) { return 1ull; });{{$}}
__global__ void annotated(const unsigned *keys, size_t n,
                          unsigned long long *bins, unsigned nbins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
#pragma dd atomic(privatize) range(nbins)
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, nbins) (from 'range(nbins)'); its grid-stride loop loads 16-byte vectors of 'keys' (dd::grid_stride_updates), or where that cannot run, 4 iterations ahead of their updates (dd::pipelined_updates); where a block's indices seldom repeat that may be slower than the atomics as written, and its launches cannot choose (it is not launched in this file) [-Rdecoupler]
    atomicAdd(&bins[keys[i]], 1ull);
  }
}

// CHECK-LABEL: void constant_range(
// CHECK: {{^}}  dd::block_private<dd::ops::bit_or, unsigned int> dd_private_bins(dd_private_storage_bins, 1000, bins, 1000, 16);
// CHECK: {{^}}      dd_private_bins, threadIdx.x,
// CHECK-NEXT: {{^}}      [&](size_t i) { return i < n; },
// CHECK-NEXT: {{^}}      [&](size_t &i) { i += blockDim.x; },
// CHECK-NEXT: {{^}}      [&](size_t i) { return keys[i]; },
// CHECK-NEXT: {{^}}      [&](size_t i) { return 1u << (keys[i] & 31); });
__global__ void constant_range(const unsigned *keys, size_t n, unsigned *bins) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
#pragma dd atomic(privatize) range(1000)
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicOr -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, 1000) (from 'range(1000)'); its loop loads 4 iterations ahead of their updates (dd::pipelined_updates) [-Rdecoupler]
    atomicOr(&bins[keys[i]], 1u << (keys[i] & 31));
  }
}

// CHECK-LABEL: void device_array(
// CHECK: {{^}}  dd::block_private<dd::ops::max, unsigned int> dd_private_g_counts(dd_private_storage_g_counts, 128, g_counts, 128, 16);
// CHECK: {{^}}  dd::pipelined_updates<DD_PIPELINE_DEPTH, unsigned int>(
// CHECK-NEXT: {{^}}      dd_private_g_counts, blockIdx.x * blockDim.x + threadIdx.x,
// CHECK-NEXT: {{^}}      [&](unsigned int i) { return i < n; },
// CHECK-NEXT: {{^}}      [&](unsigned int &i) { i += gridDim.x * blockDim.x; },
// CHECK-NEXT: {{^}}      [&](unsigned int i) { return keys[i]; },
// CHECK-NEXT: {{^}}      [&](unsigned int i) { return i; });
__global__ void device_array(const unsigned *keys, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicMax -> dd_private_g_counts.update: a block-private copy of 'g_counts' in shared memory, indices [0, 128) (from the extent of 'g_counts'); its loop loads 4 iterations ahead of their updates (dd::pipelined_updates) [-Rdecoupler]
    atomicMax(&g_counts[keys[i]], i);
}

// CHECK-LABEL: void two_arrays(
// CHECK: {{^}}  dd::block_private<dd::ops::min, int> dd_private_lo(dd_private_storage_lo, 16, lo, 16, 16);
// CHECK: {{^}}  dd::block_private<dd::ops::bit_xor, int> dd_private_hi(dd_private_storage_hi, 17, hi, 17, 16);
// CHECK: {{^}}    dd_private_lo.update(min(keys[i], 15u), int(keys[i]));
// CHECK-NEXT: {{^}}    dd_private_hi.update((keys[i] >> 28) + 1, 1);
// CHECK: {{^}}  dd_private_lo.flush();
// CHECK-NEXT: {{^}}  dd_private_hi.flush();
__global__ void two_arrays(const unsigned *keys, unsigned n, int *lo, int *hi) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicMin -> dd_private_lo.update: a block-private copy of 'lo' in shared memory, indices [0, 16) (from 'min' with the constant 15) [-Rdecoupler]
    atomicMin(&lo[min(keys[i], 15u)], int(keys[i]));
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicXor -> dd_private_hi.update: a block-private copy of 'hi' in shared memory, indices [0, 17) (from arithmetic on '>> 28' of the type 'unsigned int' and the constant 1) [-Rdecoupler]
    atomicXor(&hi[(keys[i] >> 28) + 1], 1);
  }
}

// No bound of a key of 32 bits, in a grid-stride loop: a cache of the hot
// indices (dd::unknown_range), in DD_PRIVATE_BYTES (16 KiB).
// CHECK-LABEL: void unbounded(
// CHECK-NEXT: // decoupler: 'bins' is updated through a cache of its hot indices in shared memory, merged at the end (dd/privatize.cuh)
// CHECK-NEXT: {{^}}  __shared__ unsigned int dd_private_storage_bins[4096];
// CHECK-NEXT: {{^}}  dd::block_private<dd::ops::add, unsigned int> dd_private_bins(dd_private_storage_bins, 4096, bins, dd::unknown_range, 16);
// CHECK: {{^}}    dd_private_bins.update(keys[i], 1u);
// CHECK-NEXT: {{^}}  dd_private_bins.flush();
__global__ void unbounded(const unsigned *keys, size_t n, unsigned *bins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd_private_bins.update: a cache of the hot indices of 'bins' in shared memory (no bound of the index is known but the type 'unsigned int'); where a block's indices seldom repeat that may be slower than the atomics as written, and its launches cannot choose (it is not launched in this file) [-Rdecoupler]
    atomicAdd(&bins[keys[i]], 1u);
}

// A constant range too large for a copy (16 KiB), 64-bit words, in a while
// loop: the cache takes the same 16 KiB; the other atomic on the array,
// bounded, shares it.
// CHECK-LABEL: void too_large(
// CHECK: {{^}}  __shared__ unsigned long long dd_private_storage_bins[2048];
// CHECK-NEXT: {{^}}  dd::block_private<dd::ops::max, unsigned long long> dd_private_bins(dd_private_storage_bins, 2048, bins, dd::unknown_range, 16);
// CHECK: {{^}}    dd_private_bins.update(keys[i] & 8191, (unsigned long long)i);
// CHECK-NEXT: {{^}}    dd_private_bins.update(keys[i] & 7, 1ull);
__global__ void too_large(const unsigned *keys, unsigned n, unsigned long long *bins) {
  unsigned i = threadIdx.x;
  while (i < n) {
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicMax -> dd_private_bins.update: a cache of the hot indices of 'bins' in shared memory (its range (8192 words, from '& 8191') does not fit the 16 KiB of shared memory a private copy may take); where a block's indices seldom repeat that may be slower than the atomics as written, and its launches cannot choose (it is not launched in this file) [-Rdecoupler]
    atomicMax(&bins[keys[i] & 8191], (unsigned long long)i);
    // REMARK: privatize.cu:[[@LINE+1]]:5: remark: atomicMax -> dd_private_bins.update: a cache of the hot indices of 'bins' in shared memory (another atomic on it has no usable bound); where a block's indices seldom repeat that may be slower than the atomics as written, and its launches cannot choose (it is not launched in this file) [-Rdecoupler]
    atomicMax(&bins[keys[i] & 7], 1ull);
    i += blockDim.x;
  }
}
