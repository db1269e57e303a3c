//===- dd/split_launch.h - Launch a split kernel or the original -*- CUDA -*-===//
//
// The host side of the affine-stream split (docs/split-pass.md). The split
// pass emits, for a kernel `k` with a split loop, `k_split` (the block as
// written plus one producer warp feeding a <dd/affine_queue.cuh> ring) and a
// launcher `k_launch` in place of every `k<<<grid, block, shmem, stream>>>`.
// The launcher calls split_launch(), which
//
//   1. checks that the split can run this launch (split_check): a 1-D block
//      of whole warps, no larger than the ring's tiles hold, with room for
//      the extra warp (block + 32 threads within the split kernel's limit),
//      the shared memory (the ring, static, plus the launch's dynamic
//      shared memory) within the device's opt-in limit, and enough
//      iterations per block for the ring to fill (when the pass could
//      express the trip count; checked per launch, the others once per
//      grid/block configuration); if any check fails it launches `k` as
//      written, which is always correct;
//   2. otherwise chooses between `k_split` and `k` per launch with
//      dd::LaunchChooser (<dd/launch_choice.h>): the first launch of a
//      grid/block configuration runs the split, the second the original,
//      each timed; then the faster, re-probing the slower now and then.
//
// Launches stay asynchronous on their stream, as the original's: only the
// timed probes synchronize (the device before, the stream after).
//
// Environment:
//   DD_SPLIT_POLICY=adaptive|split|original   how to choose (default
//                                             adaptive); `split` still falls
//                                             back to the original where a
//                                             check fails
//   DD_SPLIT_VERBOSE=1                        every probe, choice and failed
//                                             check on stderr
//
// Host code; include it from a .cu file (it launches through the lambdas the
// generated launcher passes).
//
//===----------------------------------------------------------------------===//
#ifndef DD_SPLIT_LAUNCH_H
#define DD_SPLIT_LAUNCH_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <cuda_runtime.h>

#include "dd/affine_queue.cuh"
#include "dd/launch_choice.h"

namespace dd {

/// What the generated launcher knows about its split kernel at compile time.
struct SplitKernelInfo {
  /// The kernel as written, for messages.
  const char *name;
  /// The most consumer threads (the original block) the ring's tiles hold.
  unsigned max_consumers;
  /// Iterations per block below which the ring cannot fill (the plan's
  /// minimum trip count); checked only when the launcher knows the trip
  /// count.
  unsigned long long min_trips;
};

/// The state of one launcher (a function-local static of the generated
/// `k_launch`): the measurements of the current launch shape and the
/// verdict of the checks for it. Guarded by `mutex`.
struct SplitLaunchState {
  std::mutex mutex;
  // The split and the original are often within 2x, where the first,
  // cold probe of the split can decide wrongly: it is re-timed once.
  LaunchChooser chooser{"split", true};
  /// Null when the split can run the current shape, else why not.
  const char *why_not = nullptr;
  bool original_loaded = false;
  /// The trip count last reported as too short (DD_SPLIT_VERBOSE), so that
  /// a loop of identical launches says it once, not once a launch.
  long long short_trips_reported = -1;
};

namespace detail {

/// DD_SPLIT_POLICY (adaptive, split or original), read once.
inline LaunchPolicy split_policy() {
  static const LaunchPolicy policy = launch_policy_from_env("DD_SPLIT_POLICY", "split");
  return policy;
}

/// DD_SPLIT_VERBOSE=1: every probe, choice and failed check on stderr.
inline bool split_verbose() {
  static const bool verbose = env_flag("DD_SPLIT_VERBOSE");
  return verbose;
}

inline LaunchShape launch_shape(int device, dim3 grid, dim3 block, std::size_t shmem) {
  LaunchShape shape;
  shape.device = device;
  shape.grid[0] = grid.x, shape.grid[1] = grid.y, shape.grid[2] = grid.z;
  shape.block[0] = block.x, shape.block[1] = block.y, shape.block[2] = block.z;
  shape.shmem = shmem;
  return shape;
}

} // namespace detail

/// The launch-time checks: null when `split_kernel` (launched with
/// block.x + 32 threads and `shmem` bytes of dynamic shared memory) can
/// stand in for the original launch, else the reason it cannot. Sets the
/// split kernel's MaxDynamicSharedMemorySize when its static shared memory
/// (the ring) plus `shmem` exceeds the default 48 KB. The trip count is
/// checked per launch by split_launch (it changes with the arguments).
inline const char *split_check(const void *split_kernel, const SplitKernelInfo &info, int device,
                               dim3 block, std::size_t shmem) {
  if (block.y != 1 || block.z != 1)
    return "the block is not 1-D";
  if (block.x == 0 || block.x % 32 != 0)
    return "the block is not a whole number of warps";
  if (block.x > info.max_consumers)
    return "the block is larger than the ring's tiles hold";
  cudaFuncAttributes attributes;
  if (cudaFuncGetAttributes(&attributes, split_kernel) != cudaSuccess) {
    (void)cudaGetLastError(); // this query's error is not the program's
    return "the split kernel cannot run on this device";
  }
  if (block.x + 32 > static_cast<unsigned>(attributes.maxThreadsPerBlock))
    return "the block plus the producer warp exceeds the split kernel's thread limit";
  int optin = 0, deflt = 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&deflt, cudaDevAttrMaxSharedMemoryPerBlock, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return "cannot query the device's shared memory";
  }
  const std::size_t total = attributes.sharedSizeBytes + shmem;
  if (total > static_cast<std::size_t>(optin))
    return "the ring and the launch's shared memory do not fit a block";
  if (total > static_cast<std::size_t>(deflt) &&
      static_cast<std::size_t>(attributes.maxDynamicSharedSizeBytes) < shmem &&
      cudaFuncSetAttribute(split_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           static_cast<int>(shmem)) != cudaSuccess) {
    (void)cudaGetLastError();
    return "cannot raise the split kernel's dynamic shared memory limit";
  }
  return nullptr;
}

/// One launch through a split launcher: the original where split_check
/// fails or DD_SPLIT_POLICY=original, else the split or the original as
/// the policy and the measurements choose.
///
/// @param launch_split     `(dim3 grid, dim3 block, size_t shmem, cudaStream_t)`:
///                         launches the split kernel (block already + 32)
/// @param launch_original  the same for the kernel as written
template <class LaunchSplit, class LaunchOriginal>
void split_launch(SplitLaunchState &state, const SplitKernelInfo &info, const void *split_kernel,
                  const void *original, dim3 grid, dim3 block, std::size_t shmem,
                  cudaStream_t stream, long long trips, LaunchSplit &&launch_split,
                  LaunchOriginal &&launch_original) {
  std::lock_guard<std::mutex> lock(state.mutex);
  const LaunchPolicy policy = detail::split_policy();
  if (policy == LaunchPolicy::Original) {
    launch_original(grid, block, shmem, stream);
    return;
  }
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    launch_original(grid, block, shmem, stream); // the program sees its own errors
    return;
  }
  // A new shape: check it (the chooser forgot its measurements).
  if (state.chooser.configure(detail::launch_shape(device, grid, block, shmem))) {
    state.short_trips_reported = -1;
    state.why_not = split_check(split_kernel, info, device, block, shmem);
    if (state.why_not && detail::split_verbose())
      std::fprintf(stderr, "dd: %s: runs as written for grid (%u,%u,%u) block (%u,%u,%u): %s\n",
                   info.name, grid.x, grid.y, grid.z, block.x, block.y, block.z, state.why_not);
  }
  if (state.why_not) {
    launch_original(grid, block, shmem, stream);
    return;
  }
  // Too few iterations per block for the ring to fill: the original, this
  // launch only (the measurements stay).
  if (trips >= 0 && static_cast<unsigned long long>(trips) < info.min_trips) {
    if (detail::split_verbose() && trips != state.short_trips_reported) {
      state.short_trips_reported = trips;
      std::fprintf(stderr, "dd: %s: runs as written: %lld iterations per block, fewer than %llu\n",
                   info.name, trips, info.min_trips);
    }
    launch_original(grid, block, shmem, stream);
    return;
  }
  const dim3 split_block(block.x + 32, 1, 1);
  const AdaptiveChoice::Way way = state.chooser.which(policy);
  auto run = [&] {
    if (way == AdaptiveChoice::Rewrite)
      launch_split(grid, split_block, shmem, stream);
    else
      launch_original(grid, block, shmem, stream);
  };
  if (!state.chooser.timed(policy)) {
    run();
    state.chooser.record_untimed(way);
    return;
  }
  // A probe: load the original's module first (lazy loading would bill the
  // probe for it; split_check loaded the split's), then time the launch
  // alone.
  if (way == AdaptiveChoice::Original && !state.original_loaded) {
    cudaFuncAttributes attributes;
    state.original_loaded = cudaFuncGetAttributes(&attributes, original) == cudaSuccess;
    if (!state.original_loaded)
      (void)cudaGetLastError();
  }
  state.chooser.run_timed(
      info.name, way, detail::split_verbose(), run, [] { return cudaDeviceSynchronize() == cudaSuccess; },
      [&] { return cudaStreamSynchronize(stream) == cudaSuccess; });
}

} // namespace dd

#endif // DD_SPLIT_LAUNCH_H
