//===- dd/launch_choice.h - Choose between two equivalent launches -*- C++ -*-===//
//
// A rewritten kernel launch can often run two ways that compute the same
// thing: the rewrite (a delegated client/server pair, a split kernel) and the
// kernel as written. Which is faster depends on the data (a hash table with
// 32 hot buckets against one with 128K), which no compile-time rule sees. So
// the launcher measures: it times each way once, runs the faster, and now and
// then times the other again in case the data changed.
//
//   LaunchPolicy          adaptive (measure), or always one of the two
//   launch_policy(env)    the policy from an environment variable
//   AdaptiveChoice        the measurements and the decision, per launcher
//   LaunchChooser         AdaptiveChoice per launch configuration, with the
//                         policy applied and the probes timed and reported:
//                         what the delegate, split and privatize launchers share
//
// The cost is bounded both ways. Probes: the first launch runs the rewrite,
// the second the original, each timed, and that is all the program pays
// beyond the faster one until the first re-probe (with confirm_first, a
// rewrite that lost this first pair by less than 2x is timed once more).
// Re-probes: the slower way runs again only after enough launches that it
// costs at most `budget` (2 %) of the time the faster way took meanwhile,
// and each re-probe that confirms the choice doubles the wait. So after the probes a program is never slower
// than the faster way by more than the budget, whichever that is. Between
// probes the launcher watches the winner's own times (observe): a winner that
// takes twice as long as the other way last did calls a re-probe of the
// other at once, which takes over on a clear win (half the watched time).
// Neighbouring launches still differ in work, so closer calls change
// nothing: a hand-over on one can stick to the slower way. A hand-over whose
// next launch is four times lighter was called by one heavy launch (a
// spike): the old way's time from before it is its measure again. A
// hand-over on one slow launch of the old way, with the new way's own time
// level, times the old way again after as few launches as the ski-rental
// bound allows (a heavy round the kernel as written alone feels). Watching
// costs each watched launch about 4 us, so short winners are watched at
// most 0.2 % of their time's worth. dd-launch-replay replays measured
// per-launch times through these rules (bench/delegate/launch_replay.h).
//
// Host code only (no CUDA), so that it can be unit-tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef DD_LAUNCH_CHOICE_H
#define DD_LAUNCH_CHOICE_H

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dd {

/// How a launcher that has a rewrite and the original picks one per launch.
enum class LaunchPolicy {
  Adaptive, ///< time both, run the faster (the default)
  Rewrite,  ///< always the rewrite
  Original, ///< always the kernel as written
};

/// The policy named by `value` ("adaptive", "rewrite" or "original"; the
/// rewrite also by its own name, "delegate", "split" or "privatize"), Adaptive when
/// `value` is null or empty; `ok` is false when the name is none of these.
inline LaunchPolicy parse_launch_policy(const char *value, bool &ok) {
  ok = true;
  if (!value || !*value || std::strcmp(value, "adaptive") == 0)
    return LaunchPolicy::Adaptive;
  if (std::strcmp(value, "rewrite") == 0 || std::strcmp(value, "delegate") == 0 ||
      std::strcmp(value, "split") == 0 || std::strcmp(value, "privatize") == 0)
    return LaunchPolicy::Rewrite;
  if (std::strcmp(value, "original") == 0)
    return LaunchPolicy::Original;
  ok = false;
  return LaunchPolicy::Adaptive;
}

/// The policy in environment variable `var` (DD_DELEGATE_POLICY,
/// DD_SPLIT_POLICY, DD_PRIVATIZE_POLICY). A name that is none of the policies ends the program
/// with a message naming `rewrite_name`, the rewrite's own name: a typo must
/// not silently measure something else.
inline LaunchPolicy launch_policy_from_env(const char *var, const char *rewrite_name) {
  bool ok = true;
  const char *value = std::getenv(var);
  const LaunchPolicy policy = parse_launch_policy(value, ok);
  if (!ok) {
    std::fprintf(stderr, "dd: %s must be adaptive, %s or original (is '%s')\n", var, rewrite_name,
                 value);
    std::exit(EXIT_FAILURE);
  }
  return policy;
}

/// Whether environment variable `var` is set to something other than "" or
/// "0" (DD_DELEGATE_VERBOSE, DD_SPLIT_VERBOSE, DD_PRIVATIZE_VERBOSE).
inline bool env_flag(const char *var) {
  const char *value = std::getenv(var);
  return value && *value && *value != '0';
}

/// Milliseconds of host time since `since` (the timed probes).
inline double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

/// Measures two ways of running the same launch and chooses between them.
///
/// Use: `which()` says how to run the next launch and `timed()` whether to
/// time it (the launcher then synchronizes before and after, and calls
/// `record(way, ms)`); untimed launches call `record_untimed(way)`.
class AdaptiveChoice {
public:
  enum Way : unsigned { Rewrite = 0, Original = 1 };

  /// @param budget  share of the faster way's time re-probes may cost
  /// @param min_wait  launches between re-probes, at least
  /// @param confirm_first  when the first pair picks the original by less
  ///        than kConfirm, time the rewrite once more at the next launch and
  ///        decide on that pair: the rewrite's first probe is the program's
  ///        first launch of the kernel, on cold caches (the split launcher;
  ///        docs/PERF.md, "ggml's argmax shape")
  explicit AdaptiveChoice(double budget = 0.02, std::uint64_t min_wait = 16, bool confirm_first = false)
      : budget_(budget), min_wait_(min_wait), confirm_first_(confirm_first) {}

  /// Forgets every measurement (the launch configuration changed).
  void reset() { *this = AdaptiveChoice(budget_, min_wait_, confirm_first_); }

  /// The way to run the next launch.
  Way which() const {
    if (called_)
      return other(watched_);
    if (ms_[Rewrite] < 0)
      return Rewrite;
    if (ms_[Original] < 0)
      return Original;
    if (since_probe_ >= wait_)
      return loser();
    return winner();
  }

  /// Whether the next launch is a probe that must be timed.
  bool timed() const { return called_ || ms_[Rewrite] < 0 || ms_[Original] < 0 || since_probe_ >= wait_; }

  /// A timed launch of `way` took `ms`.
  void record(Way way, double ms) {
    const bool reprobe = ms_[Rewrite] >= 0 && ms_[Original] >= 0;
    // The way that ran before this probe (observe() may already have
    // recorded it slower than the other's old time).
    const Way before = running();
    const double last = ms_[way]; // this way's time before this launch
    ms_[way] = ms > 0 ? ms : 0;
    ++launches_[way];
    ++probes_;
    if (ms_[Rewrite] < 0 || ms_[Original] < 0)
      return; // still probing
    since_probe_ = 0;
    if (called_) {
      // The watched way took at least kHandOver times the other's last
      // time, and the other ran right after it. Neighbouring launches still
      // do different work, so the other takes over only on a clear win (at
      // most 1/kHandOver of the watched time) in a launch that did not
      // clearly shrink: its own time is at least 1/kHandOver of its last.
      // Such a launch is the light one after a phase of heavy ones (the
      // last round of Boruvka, whose components have no edge left, then the
      // program's next run), and the watched way's next launch is as
      // light: handing over on it ran a 240 ms round as written after a
      // 30 ms one delegated (r4-2e17, docs/PERF.md).
      const bool shrank = ms_[way] * kHandOver < last;
      winner_ = ms_[way] * kHandOver <= ms_[before] && !shrank ? way : before;
      // A hand-over remembers the new winner's time then, so that the next
      // observe() can tell a spike that passed (called_from_ keeps the old
      // winner's time before the watched launch until then).
      handed_ms_ = winner_ == way ? ms_[way] : -1;
      // One slow launch of the old way is all that says it slowed for good
      // when it beat the new way's time just before and the new way's own
      // time did not grow with it (last: its time at its probe before).
      // Contention that builds up slows both ways (Boruvka's rounds: the
      // rewrite 15-50x slower at the hand-over than at its probe before);
      // a heavy round of push-relabel slows the kernel as written 20-60x
      // and the delegated one not at all, and the rounds after are light
      // again (docs/PERF.md, "MaxFlow: the launcher replayed"). So the old
      // way is timed again soon (below), not after the budget's wait.
      retest_ = winner_ == way && last > 0 && ms_[way] < kHandOver * last && called_from_ >= 0 &&
                called_from_ < ms_[way];
      // Nor is a shrunk time this way's measure for the next calls: against
      // a light round's time, the watched way's next ordinary launch looks
      // like a clear loss, and its re-probe runs a heavy launch the slow way
      // (a road network's second round, 8.5 ms delegated against 1.6 ms as
      // written, every run: 0.92x of the program as written). The last
      // time from a launch like the others stays the measure.
      if (shrank)
        ms_[way] = last;
      called_ = false;
    } else {
      // The first pair of probes, or a scheduled re-probe against the
      // winner's latest time.
      winner_ = ms_[Original] < ms_[Rewrite] ? Original : Rewrite;
      handed_ms_ = -1;
    }
    // The winner's next launch is watched: the pair just measured says
    // nothing of how its time moves from here.
    watch_gap_ = 1;
    since_watched_ = 0;
    // The wait that keeps a re-probe within budget: the loser's time over the
    // winner's, per budget. A confirmed choice waits twice as long next time.
    const double ratio = ms_[loser()] / std::fmax(ms_[winner()], 1e-6);
    std::uint64_t wait = std::uint64_t(std::ceil(ratio / budget_));
    if (wait < min_wait_)
      wait = min_wait_;
    if (reprobe && winner() == before && 2 * wait_ > wait)
      wait = 2 * wait_;
    if (retest_) {
      // The re-probe loses at most the old way's slow time over the new
      // way's, if the slowdown lasted; each launch of the new way loses
      // its time over the old way's before, if it passed. Waiting until
      // the second adds up to the first costs at most twice the better
      // choice, whichever it was (the ski-rental bound).
      const double loss = ms_[before] - ms_[way], regret = ms_[way] - called_from_;
      const double k = std::ceil(loss / regret);
      if (k < double(wait))
        wait = k < 1 ? 1 : std::uint64_t(k);
      retest_ = false;
    }
    wait_ = wait;
    // The first pair's rewrite probe ran cold; a close loss is re-timed now
    // (a scheduled re-probe, due at once), and that pair decides.
    if (!reprobe && confirm_first_ && winner_ == Original && ms_[Rewrite] < kConfirm * ms_[Original])
      since_probe_ = wait_;
  }

  /// An untimed launch of `way` ran; `watched`: timed by events for
  /// observe() (the launcher asked watch()).
  void record_untimed(Way way, bool watched = false) {
    ++launches_[way];
    ++since_probe_;
    since_watched_ = watched ? 0 : since_watched_ + 1;
  }

  /// An untimed launch of `way` (already counted by record_untimed) took
  /// `ms`, measured without a synchronization of its own (events read at a
  /// later launch, or a launch that waits anyway). Contention is the data's
  /// and can change from one launch to the next (a graph's components grow
  /// round by round), but so can the work (push-relabel's active vertices):
  /// a time is comparable only with one of a neighbouring launch. So when the
  /// faster way takes at least kHandOver times the other's last time, the
  /// other is re-probed at the next launch, not chosen on old evidence, and
  /// record() decides on the pair. A watched time alone never changes the
  /// choice, and a closer one calls no re-probe: it is as likely this
  /// launch's work as the way (MST on a road network: 0.84 ms as written
  /// against 0.66 ms delegated in neighbouring rounds, where the kernel as
  /// written wins the run). Returns whether a re-probe was called.
  bool observe(Way way, double ms) {
    if (ms_[Rewrite] < 0 || ms_[Original] < 0 || way != winner())
      return false; // probing (the probes decide), or a probe's own launch
    // A winner by a hand-over whose next launch took 1/kSpikePassed of its
    // time then or less: the launch that called the hand-over was one heavy
    // launch for both ways (push-relabel's round where many pushes fight
    // for locks: 7 ms as written against 0.05 before and after), and its
    // time is no measure of the way that lost now. That way's time from
    // before it is again, so this time is compared with it below and, on a
    // clear loss, calls it back (a re-probe at the next launch, decided on
    // the pair). Only the next launch: later, a light launch is the end of
    // a phase (Boruvka's last round, then the program's next run, whose
    // rounds as written grow past the winner's again: handing back there
    // ran a 20 s round as written, r4-2e20).
    if (handed_ms_ > 0) {
      if (ms * kSpikePassed <= handed_ms_ && called_from_ >= 0)
        ms_[other(way)] = std::fmin(ms_[other(way)], called_from_);
      handed_ms_ = -1;
    }
    // A time that more than doubled since the winner's last one is a trend
    // (Boruvka's components grow, and every vertex of one queues on its
    // lock): watch every launch until the times settle, then twice as
    // rarely each time they hold (watch()).
    watch_gap_ = ms > 2 * ms_[way] ? 1 : std::min<std::uint64_t>(2 * watch_gap_, max_watch_gap(ms));
    const double before = ms_[way];
    ms_[way] = ms > 0 ? ms : 0;
    if (ms_[way] < kHandOver * ms_[other(way)] || since_probe_ >= wait_)
      return false; // no clear loss, or a scheduled re-probe is due anyway
    called_ = true; // the next launch is the other way's, timed
    watched_ = way;
    called_from_ = before;
    return true;
  }

  /// Whether the next untimed launch should be timed for observe(). In a
  /// program that waits for each launch, the pair of events costs 3.2-3.7 us
  /// of its time and reading them 0.7-1.0 us (H200, bench/delegate/
  /// watch_bench.cu), which a loop of 20 us kernels (push-relabel's rounds)
  /// feels; a launch nobody watches may
  /// cost seconds, once contention grows (Boruvka's later rounds as
  /// written, docs/PERF.md). So: every launch while the winner takes
  /// 0.25 ms or more (events then cost under 2 %); otherwise the first
  /// launch after a probe, then launches further and further apart (1, 2,
  /// 4, ... up to one in 16, or wider where one in 16 would cost more than
  /// 0.2 % of the winner's time: max_watch_gap) while the watched times
  /// hold, and every launch again after one that more than doubled
  /// (observe()).
  bool watch() const { return ms_[winner()] >= kWatchAll || since_watched_ + 1 >= watch_gap_; }

  /// What watching a launch adds to a program that waits for every launch:
  /// its pair of events, 3.2-3.4 us, and reading them at the next launch,
  /// 0.7-1.0 us (H200, bench/delegate/watch_bench.cu).
  static constexpr double kWatchedLaunchMs = 0.0042;

  /// The way that ran before the next launch: the winner, or the way whose
  /// time called the next launch's re-probe.
  Way running() const { return called_ ? watched_ : winner(); }

  /// The way chosen by the last probe (record(); the rewrite while nothing
  /// is known). A watched time alone never changes it.
  Way winner() const {
    if (ms_[Rewrite] < 0 || ms_[Original] < 0)
      return ms_[Original] < 0 ? Rewrite : Original;
    return winner_;
  }
  Way loser() const { return other(winner()); }
  static Way other(Way way) { return way == Rewrite ? Original : Rewrite; }

  /// The last time measured for `way`, in ms; negative if never measured.
  double ms(Way way) const { return ms_[way]; }
  /// Launches of `way` so far, probes included.
  std::uint64_t launches(Way way) const { return launches_[way]; }
  /// Launches of the winner left before the next re-probe (0 while probing).
  std::uint64_t until_probe() const { return called_ || since_probe_ >= wait_ ? 0 : wait_ - since_probe_; }
  std::uint64_t probes() const { return probes_; }

private:
  double budget_;
  std::uint64_t min_wait_;
  double ms_[2] = {-1, -1};
  std::uint64_t launches_[2] = {0, 0};
  std::uint64_t probes_ = 0;
  std::uint64_t since_probe_ = 0;
  std::uint64_t wait_ = 0;
  // The widest gap between watched launches of a winner that takes `ms`
  // (below kWatchAll): one in kWatchGap, or wider where the events would cost
  // more than kWatchShare of its time (one launch in 160 of push-relabel's
  // 13 us rounds: one in 16 cost them 1 %, docs/PERF.md "MaxFlow: the
  // launcher replayed"), up to one in kMaxWatchGap.
  static std::uint64_t max_watch_gap(double ms) {
    const double gap = kWatchedLaunchMs / (kWatchShare * std::fmax(ms, 1e-6));
    return gap >= double(kMaxWatchGap) ? kMaxWatchGap : gap <= kWatchGap ? kWatchGap : std::uint64_t(gap);
  }
  // A winner of this many ms or more is watched at every launch: the
  // events cost under 2 % of it, and a growing Boruvka round missed costs
  // seconds (docs/PERF.md, "MST: watching while times grow").
  static constexpr double kWatchAll = 0.25;
  static constexpr double kWatchShare = 0.002;
  static constexpr std::uint64_t kWatchGap = 16;
  static constexpr std::uint64_t kMaxWatchGap = 256;
  static constexpr double kHandOver = 2; // a clear loss, a clear win
  static constexpr double kConfirm = 2;  // a first loss a cold launch may explain
  static constexpr double kSpikePassed = 4; // a hand-over's winner this much faster: it passed
  bool confirm_first_ = false;
  Way winner_ = Rewrite;
  std::uint64_t watch_gap_ = 1;     // watch() one launch in this many
  std::uint64_t since_watched_ = 0; // untimed launches since the last watched
  bool called_ = false;     // the next launch is a re-probe observe() called
  Way watched_ = Rewrite;   // ... after a launch of this way
  double called_from_ = -1; // ... whose time before that launch was this
  double handed_ms_ = -1;   // the winner's time when a hand-over chose it
  bool retest_ = false;     // that hand-over rests on one slow launch: wait less
};

/// A launch configuration: the choice is measured per device, grid, block
/// and dynamic shared memory (contention, hence the winner, may differ),
/// and per `key`, an argument the winner depends on that the shape does
/// not show (a privatized array's range: a copy of 256 bins wins, a cache
/// over a million may not); 0 where there is none.
struct LaunchShape {
  int device = -1;
  unsigned grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  std::size_t shmem = 0;
  unsigned long long key = 0;

  friend bool operator==(const LaunchShape &a, const LaunchShape &b) {
    for (int i = 0; i < 3; ++i)
      if (a.grid[i] != b.grid[i] || a.block[i] != b.block[i])
        return false;
    return a.device == b.device && a.shmem == b.shmem && a.key == b.key;
  }
  friend bool operator!=(const LaunchShape &a, const LaunchShape &b) { return !(a == b); }
};

/// The part of a launcher that decides and measures, shared by the
/// delegate launcher (<dd/delegate.cuh>), the split launcher
/// (<dd/split_launch.h>) and the privatize launcher
/// (<dd/privatize_launch.h>): an AdaptiveChoice per launch shape, the policy
/// applied, timed probes recorded and, when verbose, reported as
///   dd: k: probe: split took 0.0123 ms (split 0.0123 ms, original 0.0456 ms):
///   runs the split; next probe in 187 launches
class LaunchChooser {
public:
  /// @param rewrite_name  "delegated", "split", "privatized": how messages name the rewrite
  /// @param confirm_first  AdaptiveChoice's: re-time a rewrite that lost
  ///        its first, cold probe by a little
  explicit LaunchChooser(const char *rewrite_name, bool confirm_first = false)
      : rewrite_name_(rewrite_name), choice_(0.02, 16, confirm_first) {}

  /// The next launch has `shape`: a new shape forgets the measurements.
  /// Returns whether it was new.
  bool configure(const LaunchShape &shape) {
    if (configured_ && shape == shape_)
      return false;
    configured_ = true;
    shape_ = shape;
    choice_.reset();
    return true;
  }

  /// The way the next launch runs under `policy`.
  AdaptiveChoice::Way which(LaunchPolicy policy) const {
    if (policy == LaunchPolicy::Rewrite)
      return AdaptiveChoice::Rewrite;
    if (policy == LaunchPolicy::Original)
      return AdaptiveChoice::Original;
    return choice_.which();
  }
  /// Whether the next launch is a probe to time (only when adaptive).
  bool timed(LaunchPolicy policy) const { return policy == LaunchPolicy::Adaptive && choice_.timed(); }

  /// Runs `run()` alone and timed: `sync_before()` and `sync_after()` (the
  /// device, then the launch's stream) return whether they succeeded. A
  /// failed synchronization before runs the launch untimed (the program
  /// then sees its own earlier error); after, the time is not recorded.
  template <class Run, class SyncBefore, class SyncAfter>
  void run_timed(const char *kernel, AdaptiveChoice::Way way, bool verbose, Run &&run,
                 SyncBefore &&sync_before, SyncAfter &&sync_after) {
    if (!sync_before()) {
      run();
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    run();
    if (sync_after())
      record(kernel, way, elapsed_ms(start), verbose);
  }

  /// A timed launch of `way` took `ms`: recorded, and reported when
  /// `verbose`.
  void record(const char *kernel, AdaptiveChoice::Way way, double ms, bool verbose) {
    const bool probing = choice_.ms(AdaptiveChoice::Rewrite) < 0 || choice_.ms(AdaptiveChoice::Original) < 0;
    const AdaptiveChoice::Way before = choice_.running();
    choice_.record(way, ms);
    ++totals_.launches[way];
    ++totals_.timed;
    if (!verbose)
      return;
    const char *names[2] = {rewrite_name_, "original"};
    std::fprintf(stderr, "dd: %s: %s %s took %.4f ms", kernel, probing ? "probe:" : "re-probe:", names[way], ms);
    if (choice_.ms(AdaptiveChoice::Rewrite) >= 0 && choice_.ms(AdaptiveChoice::Original) >= 0)
      std::fprintf(stderr, " (%s %.4f ms, original %.4f ms): runs the %s%s; next probe in %llu launches",
                   rewrite_name_, choice_.ms(AdaptiveChoice::Rewrite), choice_.ms(AdaptiveChoice::Original),
                   names[choice_.winner()], !probing && choice_.winner() != before ? " now" : "",
                   static_cast<unsigned long long>(choice_.until_probe()));
    std::fputc('\n', stderr);
  }
  /// An untimed launch of `way` ran (`watched`: timed by events).
  void record_untimed(AdaptiveChoice::Way way, bool watched = false) {
    choice_.record_untimed(way, watched);
    ++totals_.launches[way];
    totals_.watched += watched;
  }

  /// An untimed launch of `way` took `ms` (AdaptiveChoice::observe); a
  /// re-probe it calls is reported when `verbose`.
  void observe(const char *kernel, AdaptiveChoice::Way way, double ms, bool verbose) {
    if (!choice_.observe(way, ms))
      return;
    ++totals_.called;
    if (!verbose)
      return;
    const char *names[2] = {rewrite_name_, "original"};
    std::fprintf(stderr, "dd: %s: %s took %.4f ms (%s %.4f ms last): re-probes the %s\n", kernel, names[way],
                 ms, names[AdaptiveChoice::other(way)], choice_.ms(AdaptiveChoice::other(way)),
                 names[AdaptiveChoice::other(way)]);
  }

  const AdaptiveChoice &choice() const { return choice_; }

  /// What this chooser did over the process, every launch shape together
  /// (configure() resets the choice, not these).
  struct Totals {
    std::uint64_t launches[2] = {0, 0}; ///< per way, timed ones included
    std::uint64_t timed = 0;            ///< probes and re-probes
    std::uint64_t watched = 0;          ///< untimed launches timed by events
    std::uint64_t called = 0;           ///< re-probes a watched time called
  };
  const Totals &totals() const { return totals_; }

  /// One line of totals on stderr (verbose launchers, at exit), e.g.
  ///   dd: push: 10930 launches: 10925 original (68 watched), 5 delegated;
  ///   7 timed, 1 called by a watched time
  void print_totals(const char *kernel) const {
    const std::uint64_t all = totals_.launches[AdaptiveChoice::Rewrite] + totals_.launches[AdaptiveChoice::Original];
    if (all == 0)
      return;
    std::fprintf(stderr,
                 "dd: %s: %llu launches: %llu original (%llu watched), %llu %s; %llu timed, %llu called by a "
                 "watched time\n",
                 kernel, static_cast<unsigned long long>(all),
                 static_cast<unsigned long long>(totals_.launches[AdaptiveChoice::Original]),
                 static_cast<unsigned long long>(totals_.watched),
                 static_cast<unsigned long long>(totals_.launches[AdaptiveChoice::Rewrite]), rewrite_name_,
                 static_cast<unsigned long long>(totals_.timed), static_cast<unsigned long long>(totals_.called));
  }

private:
  const char *rewrite_name_;
  AdaptiveChoice choice_;
  Totals totals_;
  LaunchShape shape_;
  bool configured_ = false;
};

} // namespace dd

#endif // DD_LAUNCH_CHOICE_H
