// A privatized array whose range is known only at launch, or a cache of hot
// indices, may lose a few percent to the atomics as written where a block's
// indices seldom repeat. Where the kernel's launches are in the file, the
// pass keeps a static copy of the kernel as written (`k_as_written`, its
// `#pragma dd` lines dropped) and sends each launch through `k_launch`,
// which measures both and runs the faster (<dd/privatize_launch.h>), per
// launch shape and range. A constant range keeps the launch as written;
// where the launches cannot be rewritten the remark says why.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

// CHECK: {{^}}#include <dd/privatize_launch.h>

// The launch comes before the definition: the launcher is declared there.
// CHECK: {{^}}static void ranged_launch(dim3, dim3, size_t, cudaStream_t, const unsigned int *, unsigned int, unsigned int *, unsigned int);
// CHECK: {{^}}void early(
// CHECK-NEXT: {{^}}  ranged_launch(64, 256, 0, 0, keys, n, bins, nbins);
__global__ void ranged(const unsigned *keys, unsigned n, unsigned *bins, unsigned nbins);
void early(const unsigned *keys, unsigned n, unsigned *bins, unsigned nbins) {
  ranged<<<64, 256>>>(keys, n, bins, nbins);
}

// A range given at launch: the kernel is privatized in place, its copy as
// written follows it, then the launcher keyed by the range.
// REMARK: privatize-launch.cu:[[@LINE+29]]:5: remark: atomicAdd -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, nbins) (from 'range(nbins)'); its grid-stride loop loads {{.*}}; where a block's indices seldom repeat that may be slower than the atomics as written, so the 2 launches of 'ranged' go through ranged_launch, which runs it or ranged_as_written (the kernel as written), whichever measures faster (dd/privatize_launch.h)
// CHECK-LABEL: {{^}}__global__ void ranged(const unsigned *keys, unsigned n, unsigned *bins, unsigned nbins) {
// CHECK: dd::pipelined_updates
// CHECK: {{^}}// decoupler: 'ranged' as written, for the launches where it measures faster than the privatized one (ranged_launch).
// CHECK-NEXT: {{^}}static __global__ void ranged_as_written(const unsigned *keys, unsigned n, unsigned *bins, unsigned nbins) {
// CHECK-NEXT: {{^}}  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
// CHECK-NEXT: {{^}}       i += gridDim.x * blockDim.x) {
// CHECK-NEXT: {{^}}    atomicAdd(&bins[keys[i]], 1u);
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}/// decoupler: in place of ranged<<<grid, block, shmem, stream>>>(...): runs ranged (privatized) or ranged_as_written,
// CHECK-NEXT: {{^}}/// whichever measured faster for the launch's shape and range (<dd/privatize_launch.h>).
// CHECK-NEXT: {{^}}static void ranged_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, const unsigned *keys, unsigned n, unsigned *bins, unsigned nbins) {
// CHECK-NEXT: {{^}}  static dd::PrivatizeLaunchState dd_state;
// CHECK-NEXT: {{^}}  dd::privatize_launch(
// CHECK-NEXT: {{^}}      dd_state, "ranged", (const void *)ranged, (const void *)ranged_as_written,
// CHECK-NEXT: {{^}}      dd_grid, dd_block, dd_shmem, dd_stream, (unsigned long long)(nbins),
// CHECK-NEXT: {{^}}      [&](dim3 dd_g, dim3 dd_b, size_t dd_s, cudaStream_t dd_st) {
// CHECK-NEXT: {{^}}        ranged<<<dd_g, dd_b, dd_s, dd_st>>>(keys, n, bins, nbins);
// CHECK-NEXT: {{^}}      },
// CHECK-NEXT: {{^}}      [&](dim3 dd_g, dim3 dd_b, size_t dd_s, cudaStream_t dd_st) {
// CHECK-NEXT: {{^}}        ranged_as_written<<<dd_g, dd_b, dd_s, dd_st>>>(keys, n, bins, nbins);
// CHECK-NEXT: {{^}}      });
// CHECK-NEXT: {{^}}}
__global__ void ranged(const unsigned *keys, unsigned n, unsigned *bins, unsigned nbins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
#pragma dd atomic(privatize) range(nbins)
    atomicAdd(&bins[keys[i]], 1u);
  }
}

// CHECK-LABEL: void late(
// CHECK-NEXT: {{^}}  ranged_launch(dim3(8), dim3(128), 0, s, keys, n, bins, nbins);
void late(const unsigned *keys, unsigned n, unsigned *bins, unsigned nbins, cudaStream_t s) {
  ranged<<<dim3(8), dim3(128), 0, s>>>(keys, n, bins, nbins);
}

// A cache (no bound), static, with __launch_bounds__ and an unnamed
// parameter, in a namespace: the copy keeps the head as written; the key
// is 0.
// REMARK: privatize-launch.cu:[[@LINE+13]]:5: remark: atomicAdd -> dd_private_bins.update: a cache of the hot indices of 'bins' in shared memory (no bound of the index is known but the type 'unsigned int'); where a block's indices seldom repeat that may be slower than the atomics as written, so the launch of 'cached' goes through cached_launch, which runs it or cached_as_written (the kernel as written), whichever measures faster (dd/privatize_launch.h)
// CHECK-LABEL: namespace lib {
// CHECK: {{^}}static __global__ void __launch_bounds__(256) cached_as_written(const unsigned *keys, int, unsigned n, unsigned *bins) {
// CHECK-NEXT: {{^}}  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
// CHECK-NEXT: {{^}}    atomicAdd(&bins[keys[i]], 1u);
// CHECK-NEXT: {{^}}}
// CHECK: {{^}}static void cached_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, const unsigned *keys, int dd_arg1, unsigned n, unsigned *bins) {
// CHECK: {{^}}      dd_grid, dd_block, dd_shmem, dd_stream, 0ull,
// CHECK: {{^}}        cached<<<dd_g, dd_b, dd_s, dd_st>>>(keys, dd_arg1, n, bins);
// CHECK: {{^}}  lib::cached_launch(4, 256, 0, 0, keys, 0, n, bins);
namespace lib {
static __global__ void __launch_bounds__(256) cached(const unsigned *keys, int, unsigned n, unsigned *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}
} // namespace lib
void run_cached(const unsigned *keys, unsigned n, unsigned *bins) {
  lib::cached<<<4, 256>>>(keys, 0, n, bins);
}

// A constant range: the copy always pays; the launch stays as written.
// REMARK: privatize-launch.cu:[[@LINE+6]]:5: remark: atomicAdd -> dd_private_bins.update: a block-private copy of 'bins' in shared memory, indices [0, 256) (from the type 'unsigned char'); its grid-stride loop loads 16-byte vectors of 'b' (dd::grid_stride_updates), or where that cannot run, 4 iterations ahead of their updates (dd::pipelined_updates) [-Rdecoupler]
// CHECK-NOT: bytes_as_written
// CHECK: {{^}}  bytes<<<4, 256>>>(b, n, bins);
__global__ void bytes(const unsigned char *b, unsigned n, unsigned *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    atomicAdd(&bins[b[i]], 1u);
  }
}
void run_bytes(const unsigned char *b, unsigned n, unsigned *bins) {
  bytes<<<4, 256>>>(b, n, bins);
}

// Not launched in this file: privatized, no choice, and the remark says so.
// REMARK: privatize-launch.cu:[[@LINE+4]]:5: remark: atomicAdd -> dd_private_bins.update: a cache of the hot indices of 'bins'{{.*}}; where a block's indices seldom repeat that may be slower than the atomics as written, and its launches cannot choose (it is not launched in this file)
// CHECK-NOT: elsewhere_as_written
__global__ void elsewhere(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}

// The name of the copy is taken: no choice, and the remark says so.
// REMARK: privatize-launch.cu:[[@LINE+5]]:5: remark: atomicAdd -> {{.*}}its launches cannot choose (the file already declares 'taken_as_written', the name of the copy as written)
// CHECK-NOT: static __global__ void taken_as_written
void taken_as_written();
__global__ void taken(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}
void run_taken(const unsigned *keys, unsigned n, unsigned *bins) {
  taken<<<4, 256>>>(keys, n, bins);
}

// A launch through a macro keeps calling the kernel by its name, which is
// now the privatized one; the remark names it.
// REMARK: privatize-launch.cu:[[@LINE+6]]:5: remark: atomicAdd -> {{.*}}so the launch of 'viamacro' goes through viamacro_launch, {{.*}}; the launch at line [[@LINE+11]] is written through a macro and always runs it privatized
// CHECK-LABEL: {{^}}static __global__ void viamacro_as_written(
// CHECK: {{^}}  viamacro_launch(4, 256, 0, 0, keys, n, bins);
// CHECK-NEXT: {{^}}  LAUNCH(viamacro, 4, 256, keys, n, bins);
__global__ void viamacro(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}
#define LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)
void run_viamacro(const unsigned *keys, unsigned n, unsigned *bins) {
  viamacro<<<4, 256>>>(keys, n, bins);
  LAUNCH(viamacro, 4, 256, keys, n, bins);
}

// Launched only through a macro: no launcher, and the remark says why.
// REMARK: privatize-launch.cu:[[@LINE+4]]:5: remark: atomicAdd -> {{.*}}its launches cannot choose (none of its launches can go through a launcher: the launch at line [[@LINE+7]] is written through a macro)
// CHECK-NOT: onlymacro_as_written
__global__ void onlymacro(const unsigned *keys, unsigned n, unsigned *bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}
void run_onlymacro(const unsigned *keys, unsigned n, unsigned *bins) {
  LAUNCH(onlymacro, 4, 256, keys, n, bins);
}

// An annotation continued over two lines: the copy as written has neither
// line (nvcc would warn of an unknown pragma, an error under -Werror).
// CHECK-LABEL: {{^}}static __global__ void continued_as_written(
// CHECK-NEXT: {{^}}  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
// CHECK-NEXT: {{^}}    atomicAdd(&bins[keys[i]], 1u);
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}}
__global__ void continued(const unsigned *keys, unsigned n, unsigned *bins, unsigned nb) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
#pragma dd atomic(privatize) \
    range(nb)
    atomicAdd(&bins[keys[i]], 1u);
  }
}
void run_continued(const unsigned *keys, unsigned n, unsigned *bins, unsigned nb) {
  continued<<<4, 256>>>(keys, n, bins, nb);
}
