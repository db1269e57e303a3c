//===- launch_replay.h - Replay per-launch times through AdaptiveChoice -*- C++ -*-===//
//
// The adaptive launchers (<dd/launch_choice.h>) are tuned on measured
// per-launch times: a program run once with every launch as written and
// once with every launch rewritten, each launch timed
// (DD_DELEGATE_VERBOSE=2 with DD_DELEGATE_POLICY=original, then =delegate).
// Replaying the two series through an AdaptiveChoice the way the delegate
// launcher drives it gives what the adaptive launcher would have cost on
// that run, without a GPU: the unit tests' replays and dd-launch-replay.
//
// The series are paired by launch index: launch i of the rewrite stands for
// what launch i as written would have cost rewritten. Runs of an iterative
// program differ in their launch counts (which push wins which lock), so a
// pair is cut to the shorter series.
//
//===----------------------------------------------------------------------===//
#ifndef DD_BENCH_LAUNCH_REPLAY_H
#define DD_BENCH_LAUNCH_REPLAY_H

#include "dd/launch_choice.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace dd::bench {

/// One kernel's per-launch times, in ms, each way.
struct LaunchSeries {
  std::vector<double> original, rewrite;
};

/// What a watched launch adds to a program that waits for every launch
/// (docs/PERF.md, "What a watched launch costs").
constexpr double kWatchedLaunchMs = AdaptiveChoice::kWatchedLaunchMs;

/// What a replay cost.
struct ReplayTotals {
  double ms = 0;                 ///< every launch's time, the way it ran, and the watching
  std::uint64_t rewrites = 0;    ///< launches that ran the rewrite
  std::uint64_t probes = 0;      ///< timed launches (AdaptiveChoice::probes)
  std::uint64_t watched = 0;     ///< launches timed by events
};

/// Replays `runs` runs of `series` (cut to its shorter side) through
/// `choice` the way the delegate launcher drives it: the original's watched
/// times are read at the next launch (events, read without waiting), the
/// rewrite's at once (a delegated launch waits, so its time is known), and
/// probes are timed launches. A watched launch adds `watched_ms` (its
/// events). With `warm_later_runs`, runs after the first take each way's
/// second launch time for its first: a trace's first launch is its
/// process's first (module loading, first allocations: 1.7 ms delegated
/// against 0.1-0.3 ms after, dd-maxflow at 512 x 512), which a program's
/// later runs do not pay. `on_launch` sees every launch's way and time.
/// Returns each run's totals; `choice` keeps its state from one run to the
/// next, as a launcher does across a program's runs in one process.
inline std::vector<ReplayTotals>
replay_choice(AdaptiveChoice &choice, const LaunchSeries &series, unsigned runs,
              const std::function<void(AdaptiveChoice::Way, double)> &on_launch = nullptr,
              double watched_ms = kWatchedLaunchMs, bool warm_later_runs = false) {
  const std::size_t n = std::min(series.original.size(), series.rewrite.size());
  bool pending = false;
  double pending_ms = 0;
  std::vector<ReplayTotals> totals;
  for (unsigned run = 0; run < runs; ++run) {
    ReplayTotals t;
    const std::uint64_t probes_before = choice.probes();
    for (std::size_t i = 0; i < n; ++i) {
      if (pending) {
        choice.observe(AdaptiveChoice::Original, pending_ms);
        pending = false;
      }
      const AdaptiveChoice::Way way = choice.which();
      const std::vector<double> &times = way == AdaptiveChoice::Rewrite ? series.rewrite : series.original;
      const double ms = times[i == 0 && run > 0 && warm_later_runs && n > 1 ? 1 : i];
      t.ms += ms;
      t.rewrites += way == AdaptiveChoice::Rewrite;
      if (on_launch)
        on_launch(way, ms);
      if (choice.timed()) {
        choice.record(way, ms);
      } else if (way == AdaptiveChoice::Rewrite) {
        choice.record_untimed(way);
        choice.observe(way, ms);
      } else {
        pending = choice.watch();
        pending_ms = ms;
        choice.record_untimed(way, pending);
        if (pending) {
          t.ms += watched_ms;
          ++t.watched;
        }
      }
    }
    t.probes = choice.probes() - probes_before;
    totals.push_back(t);
  }
  return totals;
}

} // namespace dd::bench

#endif // DD_BENCH_LAUNCH_REPLAY_H
