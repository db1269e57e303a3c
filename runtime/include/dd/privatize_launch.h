//===- dd/privatize_launch.h - Launch a privatized kernel or the original -*- CUDA -*-===//
//
// The host side of privatization where it may not pay (docs/atomics.md,
// "Choosing at launch"). A block-private copy whose range is known only at
// launch (`range(n)`, `% n`) or a cache of hot indices wins where a block's
// updates repeat indices, and loses a few percent where they almost never
// do: uniform keys over a million bins run at 0.92x of the kernel as written
// on an H100 (docs/PERF.md), Zipf keys over the same bins at 9x. Which of the
// two a launch sees is the data's. So for such a kernel `k` with launches in
// its file, the atomics pass keeps a copy of the kernel as written,
// `k_as_written`, and replaces each `k<<<grid, block, shmem, stream>>>(...)`
// there by `k_launch(...)`, which calls privatize_launch(). That chooses
// between `k` (privatized) and `k_as_written` with dd::LaunchChooser
// (<dd/launch_choice.h>), per launch shape and range:
//
//   - the first launch runs the privatized kernel, the second the kernel as
//     written, each timed alone; then the faster, re-probing the slower only
//     as often as costs at most 2% of the faster's time;
//   - one launch of the winner in 16 is timed by events, read at a later
//     launch (never waited for): a winner that got slower than the other
//     way's last time (the keys changed) re-probes the other at once.
//
// Both ways compute the same result, so the choice costs time, never
// correctness. Launches stay asynchronous on their stream, as `<<<>>>` is:
// only the timed probes synchronize (the launch's stream, before and
// after). A launch into a stream being captured into a CUDA graph runs the
// current winner untimed (a capture may not synchronize).
//
// Environment:
//   DD_PRIVATIZE_POLICY=adaptive|privatize|original   how to choose (default
//                                                     adaptive)
//   DD_PRIVATIZE_VERBOSE=1                            every probe and choice
//                                                     on stderr
//
// Host code; include it from a .cu file (it launches through the lambdas
// the generated launcher passes).
//
//===----------------------------------------------------------------------===//
#ifndef DD_PRIVATIZE_LAUNCH_H
#define DD_PRIVATIZE_LAUNCH_H

#include <cstddef>
#include <mutex>

#include <cuda_runtime.h>

#include "dd/detail/launch_watch.h"
#include "dd/launch_choice.h"

namespace dd {

/// The state of one launcher (a function-local static of the generated
/// `k_launch`): the measurements of the current launch shape and range, and
/// the events that time the winner's untimed launches. Guarded by `mutex`.
struct PrivatizeLaunchState {
  std::mutex mutex;
  LaunchChooser chooser{"privatized"};
  /// Whether each way's module is loaded (lazy loading would bill the first
  /// probe of a way for it).
  bool loaded[2] = {false, false};
  /// Times one of the winner's untimed launches now and then.
  detail::LaunchWatch watch;
  /// Untimed launches since the last watched one.
  unsigned unwatched = 0;
};

namespace detail {

/// DD_PRIVATIZE_POLICY (adaptive, privatize or original), read once.
inline LaunchPolicy privatize_policy() {
  static const LaunchPolicy policy = launch_policy_from_env("DD_PRIVATIZE_POLICY", "privatize");
  return policy;
}

/// DD_PRIVATIZE_VERBOSE=1: every probe and choice on stderr.
inline bool privatize_verbose() {
  static const bool verbose = env_flag("DD_PRIVATIZE_VERBOSE");
  return verbose;
}

} // namespace detail

/// One launch through a privatize launcher: the privatized kernel or the
/// kernel as written, as DD_PRIVATIZE_POLICY and the measurements choose.
///
/// @param kernel            the kernel's name, for messages
/// @param privatized        the privatized kernel (for its module)
/// @param original          the kernel as written (likewise)
/// @param key               the argument the choice also depends on (the
///                          range of the privatized array; 0 if none)
/// @param launch_private    `(dim3 grid, dim3 block, size_t shmem, cudaStream_t)`:
///                          launches the privatized kernel
/// @param launch_original   the same for the kernel as written
template <class LaunchPrivate, class LaunchOriginal>
void privatize_launch(PrivatizeLaunchState &state, const char *kernel, const void *privatized,
                      const void *original, dim3 grid, dim3 block, std::size_t shmem, cudaStream_t stream,
                      unsigned long long key, LaunchPrivate &&launch_private,
                      LaunchOriginal &&launch_original) {
  std::lock_guard<std::mutex> lock(state.mutex);
  const LaunchPolicy policy = detail::privatize_policy();
  auto run = [&](AdaptiveChoice::Way way) {
    if (way == AdaptiveChoice::Rewrite)
      launch_private(grid, block, shmem, stream);
    else
      launch_original(grid, block, shmem, stream);
  };
  if (policy != LaunchPolicy::Adaptive) {
    run(policy == LaunchPolicy::Rewrite ? AdaptiveChoice::Rewrite : AdaptiveChoice::Original);
    return;
  }
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    run(AdaptiveChoice::Rewrite); // the launch reports the program's own error
    return;
  }
  const bool verbose = detail::privatize_verbose();
  state.watch.observe(state.chooser, kernel, verbose);
  LaunchShape shape;
  shape.device = device;
  shape.grid[0] = grid.x, shape.grid[1] = grid.y, shape.grid[2] = grid.z;
  shape.block[0] = block.x, shape.block[1] = block.y, shape.block[2] = block.z;
  shape.shmem = shmem;
  shape.key = key;
  if (state.chooser.configure(shape))
    state.watch.forget(); // a time of the old shape says nothing of the new
  const AdaptiveChoice::Way way = state.chooser.which(policy);
  const bool timed = state.chooser.timed(policy);
  // One launch in 16 is watched, however long it takes: events cost the
  // host a few microseconds, which a histogram of 0.3 ms felt as 2-3% when
  // every launch was watched (docs/PERF.md, "Choosing at launch").
  const bool watched = !timed && !state.watch.pending() && ++state.unwatched >= 16;
  if (watched)
    state.unwatched = 0;
  if (!timed && !watched) {
    // The common launch: nothing but the kernel (no query, no event), so
    // that a launch costs the host what `<<<>>>` does.
    run(way);
    state.chooser.record_untimed(way);
    return;
  }
  // Timing synchronizes or records events, which a stream being captured
  // into a graph may not: there the winner runs, unmeasured.
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
    (void)cudaGetLastError();
    capture = cudaStreamCaptureStatusActive;
  }
  if (capture != cudaStreamCaptureStatusNone) {
    run(state.chooser.choice().winner());
    return;
  }
  if (watched) {
    state.watch.run(way, stream, [&] { run(way); });
    state.chooser.record_untimed(way);
    return;
  }
  if (!state.loaded[way]) {
    cudaFuncAttributes attributes;
    state.loaded[way] =
        cudaFuncGetAttributes(&attributes, way == AdaptiveChoice::Rewrite ? privatized : original) == cudaSuccess;
    if (!state.loaded[way])
      (void)cudaGetLastError(); // this query's error is not the program's
  }
  auto sync = [&] { return cudaStreamSynchronize(stream) == cudaSuccess; };
  state.chooser.run_timed(kernel, way, verbose, [&] { run(way); }, sync, sync);
}

} // namespace dd

#endif // DD_PRIVATIZE_LAUNCH_H
