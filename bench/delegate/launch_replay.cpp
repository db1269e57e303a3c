//===- launch_replay.cpp - dd-launch-replay: the adaptive launcher, offline -===//
//
//   dd-launch-replay [--kernel=K] [--runs=N] [--budget=B] ORIGINAL REWRITE
//
// ORIGINAL and REWRITE are the standard error of two runs of one program,
// with every launch timed (DD_DELEGATE_VERBOSE=2) and run as written
// (DD_DELEGATE_POLICY=original) and rewritten (=delegate): lines
//   dd: K: launch N: original 0.0412 ms
// Prints what each way cost over the launches both runs made, the best
// way at every launch (a bound no launcher reaches: it cannot know a
// launch's time before running it), and what the adaptive launcher
// (dd::AdaptiveChoice, as shipped, or with another re-probe budget) costs
// replaying them, run after run with its state kept, as in one process,
// with what its watched launches' events add (dd::bench::kWatchedLaunchMs);
// runs after the first do not pay the trace's cold first launch.
//
//===----------------------------------------------------------------------===//

#include "launch_replay.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

const char *const kUsage =
    "usage: dd-launch-replay [--kernel=K] [--runs=N] [--budget=B] ORIGINAL REWRITE\n"
    "\n"
    "Replays per-launch times through the adaptive launcher's choice (dd/launch_choice.h).\n"
    "ORIGINAL and REWRITE: the standard error of a program run with DD_DELEGATE_VERBOSE=2\n"
    "and DD_DELEGATE_POLICY=original, then =delegate (lines `dd: K: launch N: WAY MS ms`).\n"
    "\n"
    "  --kernel=K   the kernel to replay (needed when a trace holds more than one)\n"
    "  --runs=N     runs of the series replayed in a row, the choice's state kept (default 2:\n"
    "               the first pays the first probes, the second is a program's timed run)\n"
    "  --budget=B   the re-probe budget, a share of the winner's time (default 0.02, as shipped)\n";

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "dd-launch-replay: error: %s\n", message.c_str());
  std::exit(EXIT_FAILURE);
}

/// Each kernel's launch times, in file order, from one trace; every launch
/// must have run `expected` ("original" or "delegated").
std::map<std::string, std::vector<double>> read_trace(const std::string &path, const char *expected) {
  std::ifstream in(path);
  if (!in)
    fail(path + ": cannot open: " + std::strerror(errno));
  std::map<std::string, std::vector<double>> kernels;
  std::string line;
  unsigned number = 0;
  while (std::getline(in, line)) {
    ++number;
    // dd: KERNEL: launch N: WAY MS ms
    if (line.rfind("dd: ", 0) != 0)
      continue;
    const std::size_t colon = line.find(": launch ", 4);
    if (colon == std::string::npos)
      continue;
    const std::string kernel = line.substr(4, colon - 4);
    char way[16] = {0};
    unsigned long long launch = 0;
    double ms = -1;
    char unit[4] = {0};
    if (std::sscanf(line.c_str() + colon, ": launch %llu: %15s %lf %3s", &launch, way, &ms, unit) != 4 ||
        std::strcmp(unit, "ms") != 0 || ms < 0)
      fail(path + ":" + std::to_string(number) + ": not a launch line: " + line);
    if (std::strcmp(way, expected) != 0)
      fail(path + ":" + std::to_string(number) + ": launch ran " + way + ", not " + expected +
           " (was the trace run with DD_DELEGATE_POLICY=" +
           (std::strcmp(expected, "original") == 0 ? "original" : "delegate") + "?)");
    kernels[kernel].push_back(ms);
  }
  if (kernels.empty())
    fail(path + ": no launch lines (run the program with DD_DELEGATE_VERBOSE=2)");
  return kernels;
}

const std::vector<double> &pick(const std::map<std::string, std::vector<double>> &kernels,
                                const std::string &kernel, const std::string &path) {
  if (kernel.empty()) {
    if (kernels.size() > 1) {
      std::string names;
      for (const auto &k : kernels)
        names += (names.empty() ? "" : ", ") + k.first;
      fail(path + ": launches of more than one kernel (" + names + "): name one with --kernel");
    }
    return kernels.begin()->second;
  }
  const auto it = kernels.find(kernel);
  if (it == kernels.end())
    fail(path + ": no launch of kernel '" + kernel + "'");
  return it->second;
}

bool parse_number(const char *text, double &value) {
  char *end = nullptr;
  errno = 0;
  value = std::strtod(text, &end);
  return *text && end && *end == '\0' && errno == 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string kernel;
  double runs = 2, budget = 0.02;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg.rfind("--kernel=", 0) == 0) {
      kernel = arg.substr(9);
    } else if (arg.rfind("--runs=", 0) == 0) {
      if (!parse_number(argv[i] + 7, runs) || runs < 1 || runs > 100 || runs != unsigned(runs))
        fail("--runs must be a whole number from 1 to 100 (is '" + arg.substr(7) + "')");
    } else if (arg.rfind("--budget=", 0) == 0) {
      if (!parse_number(argv[i] + 9, budget) || !(budget > 0 && budget <= 1))
        fail("--budget must be a share above 0 and at most 1 (is '" + arg.substr(9) + "')");
    } else if (arg.size() > 1 && arg[0] == '-') {
      fail("unknown option '" + arg + "' (see --help)");
    } else {
      files.push_back(arg);
    }
  }
  if (files.size() != 2)
    fail("expected two traces, ORIGINAL and REWRITE (see --help)");

  dd::bench::LaunchSeries series;
  series.original = pick(read_trace(files[0], "original"), kernel, files[0]);
  series.rewrite = pick(read_trace(files[1], "delegated"), kernel, files[1]);
  const std::size_t n = std::min(series.original.size(), series.rewrite.size());

  double written = 0, rewritten = 0, best = 0;
  long long best_rewrites = 0;
  for (std::size_t i = 0; i < n; ++i) {
    written += series.original[i];
    rewritten += series.rewrite[i];
    best += std::min(series.original[i], series.rewrite[i]);
    best_rewrites += series.rewrite[i] < series.original[i];
  }
  std::printf("launches paired: %zu (original %zu, rewrite %zu)\n", n, series.original.size(),
              series.rewrite.size());
  std::printf("%-14s %12s %10s %8s %8s %14s\n", "way", "ms", "rewrites", "probes", "watched", "written/way");
  const auto row = [&](const char *name, double ms, long long rewrites, long long probes, long long watched) {
    std::printf("%-14s %12.3f %10lld %8lld %8lld %13.4fx\n", name, ms, rewrites, probes, watched,
                ms > 0 ? written / ms : 0.0);
  };
  row("written", written, 0, 0, 0);
  row("rewritten", rewritten, (long long)n, 0, 0);
  row("best each", best, best_rewrites, 0, 0);
  dd::AdaptiveChoice choice(budget, 16);
  // A trace is one process's run: its first launches are cold, which the
  // program's later runs are not.
  const std::vector<dd::bench::ReplayTotals> totals = dd::bench::replay_choice(
      choice, series, unsigned(runs), nullptr, dd::bench::kWatchedLaunchMs, /*warm_later_runs=*/true);
  for (std::size_t r = 0; r < totals.size(); ++r) {
    const std::string name = "adaptive " + std::to_string(r + 1);
    row(name.c_str(), totals[r].ms, (long long)totals[r].rewrites, (long long)totals[r].probes,
        (long long)totals[r].watched);
  }
  return 0;
}
