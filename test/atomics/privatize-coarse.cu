// A kernel of one privatized update per thread merges its copy after a
// block's worth of updates: the pass lets one block run the threads of
// several consecutive blocks (dd::coarse_blocks), the body in a loop whose
// variable shadows blockIdx, each early return a `continue`. Only where no
// thread waits for another or shares memory with it, nothing the body calls
// reads blockIdx, and no parameter changes; otherwise the block merges
// after its own threads, and the remark says why.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

// CHECK: {{^}}#include <dd/coarse_blocks.cuh>

// One key per thread, a bound from `& 255`, an early return: the whole body
// moves into the loop, one level deeper.
// REMARK: privatize-coarse.cu:[[@LINE+21]]:3: remark: atomicAdd -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, 256) (from '& 255'); one block runs the threads of several consecutive blocks (dd::coarse_blocks), so it is merged once for them all
// CHECK-LABEL: void ranged(
// CHECK-NEXT: {{^}}  // decoupler: one block runs the threads of several consecutive blocks, so that 'bins' is merged once for them all (dd/coarse_blocks.cuh)
// CHECK-NEXT: {{^}}  const dd::coarse_blocks dd_blocks;
// CHECK-NEXT: {{^}}  if (dd_blocks.empty())
// CHECK-NEXT: {{^}}    return; // another block runs this block's threads
// CHECK-NEXT: {{^}}  // decoupler: 'bins' is updated through a block-private copy
// CHECK-NEXT: {{^}}  __shared__ unsigned int dd_private_storage_bins[256];
// CHECK-NEXT: {{^}}  dd::block_private<dd::ops::add, unsigned int> dd_private_bins(dd_private_storage_bins, 256, bins, 256, 16, dd_blocks.count());
// CHECK-NEXT: {{^}}  for (const uint3 blockIdx : dd_blocks) {
// CHECK-NEXT: {{^}}    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT: {{^}}    if (i >= n)
// CHECK-NEXT: {{^}}      continue;
// CHECK-NEXT: {{^}}    dd_private_bins.update(keys[i] & 255, 1u);
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  dd_private_bins.flush();
// CHECK-NEXT: {{^}}}
__global__ void ranged(const unsigned *keys, unsigned n, unsigned *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&bins[keys[i] & 255], 1u);
}

// A range known at launch: where the copy does not fit, the block keeps a
// cache of hot indices, also cleared and merged once for the blocks it runs.
// REMARK: privatize-coarse.cu:[[@LINE+5]]:3: remark: atomicAdd -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, nbins) (from '% nbins'); one block runs the threads of several consecutive blocks (dd::coarse_blocks), so it is merged once for them all
// CHECK-LABEL: void launch_range(
// CHECK: {{^}}  const dd::coarse_blocks dd_blocks;
// CHECK: {{^}}  dd::block_private<dd::ops::add, unsigned int> dd_private_bins(dd_private_storage_bins, 4096, bins, nbins, 16, dd_blocks.count());
__global__ void launch_range(const unsigned *keys, unsigned nbins, unsigned *bins) {
  atomicAdd(&bins[keys[blockIdx.x * blockDim.x + threadIdx.x] % nbins], 1u);
}

// No bound of the index: one update per thread does not pay for a cache of
// hot indices, one block for several or not (measured: docs/PERF.md).
// REMARK: privatize-coarse.cu:[[@LINE+3]]:5: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: no bound of the index is known but the type 'unsigned int', and the atomic is not in a loop
__global__ void unbounded(const unsigned *keys, unsigned n, unsigned *bins) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n)
    atomicAdd(&bins[keys[blockIdx.x * blockDim.x + threadIdx.x]], 1u);
}

// blockIdx.y and gridDim, a struct parameter read through '.', a helper
// function, a fence, a store of the thread's own, the index in a macro: all
// read the loop's blockIdx or are the same in every block.
struct Span {
  const unsigned *keys;
  unsigned n;
};
__device__ unsigned weight(unsigned key, unsigned pass) { return (key & 3) + pass; }
#define INDEX (blockIdx.x * blockDim.x + threadIdx.x)
// REMARK: privatize-coarse.cu:[[@LINE+11]]:3: remark: atomicAdd -> dd_private_counts.update: a block-private copy of 'counts' in shared memory, indices [0, 512) (from '% 512'); one block runs the threads of several consecutive blocks
// CHECK-LABEL: void two_rows(
// CHECK: {{^}}  for (const uint3 blockIdx : dd_blocks) {
// CHECK-NEXT: {{^}}    if (INDEX >= span.n || gridDim.x == 0)
// CHECK-NEXT: {{^}}      continue;
__global__ void two_rows(Span span, unsigned *counts, unsigned *seen) {
  if (INDEX >= span.n || gridDim.x == 0)
    return;
  const unsigned key = span.keys[INDEX];
  seen[blockIdx.y * span.n + INDEX] = key ^ blockIdx.y;
  __threadfence();
  atomicAdd(&counts[(key * 2 + blockIdx.y) % 512], weight(key, blockIdx.y));
}

// A loop anywhere in the kernel: its threads could wait for one another.
// REMARK: privatize-coarse.cu:[[@LINE+6]]:3: remark: atomicAdd -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, 256) (from '& 255'); each block merges it after one update per thread (one block may not run the threads of several: it has a loop, whose threads could wait for one another (line [[@LINE+4]]))
__global__ void with_loop(const unsigned *keys, unsigned n, unsigned *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned sum = 0;
  for (unsigned k = 0; k < 4 && i + k < n; ++k)
    sum += keys[i + k];
  atomicAdd(&bins[sum & 255], 1u);
}

// A barrier.
// REMARK: privatize-coarse.cu:[[@LINE+5]]:3: remark: {{.*}}(one block may not run the threads of several: it synchronizes its threads (line [[@LINE+4]]))
__global__ void with_barrier(const unsigned *keys, unsigned n, unsigned *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned key = i < n ? keys[i] : 0;
  __syncthreads();
  atomicAdd(&bins[key & 255], i < n);
}

// A shuffle: its result depends on the warp.
// REMARK: privatize-coarse.cu:[[@LINE+4]]:3: remark: {{.*}}(one block may not run the threads of several: it calls '__shfl_xor_sync', whose result depends on the thread's warp (line [[@LINE+3]]))
__global__ void with_shuffle(const unsigned *keys, unsigned *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned key = keys[i] ^ __shfl_xor_sync(0xffffffffu, keys[i], 1);
  atomicAdd(&bins[key & 255], 1u);
}

// Shared memory of the kernel's own.
// REMARK: privatize-coarse.cu:[[@LINE+4]]:3: remark: {{.*}}(one block may not run the threads of several: it declares the __shared__ variable 'first' (line [[@LINE+2]]))
__global__ void with_shared(const unsigned *keys, unsigned *bins) {
  __shared__ unsigned first;
  first = keys[blockIdx.x];
  atomicAdd(&bins[(keys[blockIdx.x * blockDim.x + threadIdx.x] + first) & 255], 1u);
}

// A function that reads blockIdx would see the block as launched.
__device__ unsigned block_key(const unsigned *keys) { return keys[blockIdx.x]; }
// REMARK: privatize-coarse.cu:[[@LINE+2]]:3: remark: {{.*}}(one block may not run the threads of several: a function it calls reads blockIdx (line [[@LINE-1]], in function 'block_key'))
__global__ void callee_reads_block(const unsigned *keys, unsigned *bins) {
  atomicAdd(&bins[(block_key(keys) + threadIdx.x) & 255], 1u);
}

// Nor does a default argument, written outside the kernel (before
// 2026-11-29 this kernel was coarsened: each block read its own keys once
// per block it ran).
__device__ unsigned key_at(const unsigned *keys, unsigned b = blockIdx.x) {
  return keys[b * blockDim.x + threadIdx.x];
}
// REMARK: privatize-coarse.cu:[[@LINE+2]]:3: remark: {{.*}}(one block may not run the threads of several: a default argument or member initializer it uses reads blockIdx (line [[@LINE-3]]))
__global__ void default_reads_block(const unsigned *keys, unsigned *bins) {
  atomicAdd(&bins[key_at(keys) & 255], 1u);
}

// `::blockIdx` bypasses the loop's variable.
// REMARK: privatize-coarse.cu:[[@LINE+2]]:3: remark: {{.*}}(one block may not run the threads of several: it names '::blockIdx' (line [[@LINE+2]]))
__global__ void qualified(const unsigned *keys, unsigned *bins) {
  atomicAdd(&bins[keys[::blockIdx.x * blockDim.x + threadIdx.x] & 255],
            1u);
}

// A parameter the kernel moves would move again in every block it runs.
// REMARK: privatize-coarse.cu:[[@LINE+3]]:3: remark: {{.*}}(one block may not run the threads of several: it changes, or takes the address of, parameter 'keys' (line [[@LINE+2]]))
__global__ void moves_param(const unsigned *keys, unsigned *bins) {
  keys += blockIdx.x * blockDim.x;
  atomicAdd(&bins[keys[threadIdx.x] & 255], 1u);
}

// Inline assembly and a lambda are not looked into.
// REMARK: privatize-coarse.cu:[[@LINE+4]]:3: remark: {{.*}}(one block may not run the threads of several: it has inline assembly (line [[@LINE+3]]))
__global__ void with_asm(const unsigned *keys, unsigned *bins) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  atomicAdd(&bins[(keys[blockIdx.x * blockDim.x + threadIdx.x] + lane) & 255], 1u);
}
// REMARK: privatize-coarse.cu:[[@LINE+3]]:3: remark: {{.*}}(one block may not run the threads of several: it has a lambda, new, delete or exceptions (line [[@LINE+2]]))
__global__ void with_lambda(const unsigned *keys, unsigned *bins) {
  auto key = [&] { return keys[blockIdx.x * blockDim.x + threadIdx.x]; };
  atomicAdd(&bins[key() & 255], 1u);
}

// A raw string that spans lines: the body is not indented (blanks added at
// a line's start would change the string), and it still compiles.
// CHECK-LABEL: void raw_string(
// CHECK: {{^}}  for (const uint3 blockIdx : dd_blocks) {
// CHECK-NEXT: {{^}}  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT: {{^}}  if (i == 7)
// CHECK-NEXT: {{^}}    printf(R"(raw
// CHECK-NEXT: {{^}}string %u)", i);
__global__ void raw_string(const unsigned *keys, unsigned n, unsigned *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 7)
    printf(R"(raw
string %u)", i);
  if (i < n)
    atomicAdd(&bins[keys[i] & 7], 1u);
}

// A kernel on one line: the body stays on the loop's line.
// CHECK-LABEL: void one_line(
// CHECK: {{^}}  for (const uint3 blockIdx : dd_blocks) { const unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) dd_private_bins.update(keys[i] & 63, 1u);{{ ?$}}
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  dd_private_bins.flush();
__global__ void one_line(const unsigned *keys, unsigned n, unsigned *bins) { const unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(&bins[keys[i] & 63], 1u); }
