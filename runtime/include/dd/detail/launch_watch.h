//===- dd/detail/launch_watch.h - Time an untimed launch by events -*- CUDA -*-===//
//
// Part of the launchers that choose at launch (<dd/delegate.cuh>,
// <dd/privatize_launch.h>); include those. Between probes a launcher times
// one of the winner's launches now and then with a pair of events on the
// launch's stream, and reads the time at a later launch, never waiting for
// it (LaunchChooser::observe: a winner that got slower than the other
// way's last time calls a re-probe).
//
//===----------------------------------------------------------------------===//
#ifndef DD_DETAIL_LAUNCH_WATCH_H
#define DD_DETAIL_LAUNCH_WATCH_H

#include <cuda_runtime.h>

#include "dd/launch_choice.h"

namespace dd {
namespace detail {

/// One pair of events and the launch they time, if not yet read.
class LaunchWatch {
public:
  LaunchWatch() = default;
  LaunchWatch(const LaunchWatch &) = delete;
  LaunchWatch &operator=(const LaunchWatch &) = delete;
  ~LaunchWatch() {
    for (cudaEvent_t e : events_)
      if (e)
        cudaEventDestroy(e); // at exit the runtime may be gone: no matter
  }

  /// Whether a watched launch's time is still to be read.
  bool pending() const { return pending_; }
  /// Drops the time of the watched launch (the launch shape changed).
  void forget() { pending_ = false; }

  /// Gives the time of the watched launch, if its events have completed,
  /// to `chooser.observe` (never waits for them).
  void observe(LaunchChooser &chooser, const char *kernel, bool verbose) {
    if (!pending_)
      return;
    const cudaError_t done = cudaEventQuery(events_[1]);
    if (done == cudaErrorNotReady) {
      if (cudaPeekAtLastError() == cudaErrorNotReady)
        (void)cudaGetLastError(); // this query's status, not the program's error
      return;
    }
    pending_ = false;
    float ms = 0;
    if (done == cudaSuccess && cudaEventElapsedTime(&ms, events_[0], events_[1]) == cudaSuccess)
      chooser.observe(kernel, way_, ms, verbose);
  }

  /// Runs `launch` (a launch of `way` on `stream`) between the events,
  /// creating them the first time; just runs it while an earlier time is
  /// unread or the events cannot be recorded. The caller makes sure the
  /// stream is not being captured into a graph.
  template <class Launch> void run(AdaptiveChoice::Way way, cudaStream_t stream, Launch &&launch) {
    bool events = !pending_;
    for (cudaEvent_t &e : events_)
      if (events && !e && cudaEventCreate(&e) != cudaSuccess) {
        (void)cudaGetLastError(); // this call's error is not the program's
        e = nullptr;
        events = false;
      }
    if (events)
      events = cudaEventRecord(events_[0], stream) == cudaSuccess;
    launch();
    if (events) {
      pending_ = cudaEventRecord(events_[1], stream) == cudaSuccess;
      way_ = way;
    }
  }

private:
  cudaEvent_t events_[2] = {nullptr, nullptr};
  bool pending_ = false;
  AdaptiveChoice::Way way_ = AdaptiveChoice::Rewrite;
};

} // namespace detail
} // namespace dd

#endif // DD_DETAIL_LAUNCH_WATCH_H
