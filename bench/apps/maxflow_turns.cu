// dd-maxflow-turns: push-relabel as written against the same source through
// the delegate pass, in turns in one process (docs/maxflow.md, "Measuring
// the two ways in one process").
//
// Between processes, one way's MaxFlow time moves 10-20 % (the host's global
// relabels, a serial BFS, are 55-65 % of a run at RLG 512 x 512 and follow
// the host's clock and load; the rounds follow which pushes win their
// locks). Paired processes cannot resolve the 0.3 % the shipped launcher
// costs the push (docs/PERF.md, "MaxFlow: the launcher replayed"). Runs of
// the two ways that alternate in one process share the host's state, so
// their ratios pair what two processes cannot.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "command_line.h"
#include "graph/file.h"
#include "graph/flow_network.h"
#include "graph/max_flow.h"
#include "maxflow/maxflow.h"

namespace {

using dd::graph::Expected;
using dd::graph::FlowNetwork;
using dd::graph::ReadOptions;
using dd::graph::Status;
namespace maxflow = dd::maxflow;

const char kUsage[] = R"(usage: dd-maxflow-turns [options] NETWORK

Push-relabel on NETWORK (a DIMACS max-flow file) as written
(`dd-maxflow --algo=locks`) and through the delegate pass (`--algo=delegate`,
its launcher as DD_DELEGATE_POLICY says: adaptive by default), in turns in
one process on one upload: W warm-up runs of each way, then N turns of one
run of each, the order swapped every turn. Every run's flow is verified (a
feasible flow whose value is the capacity of the cut it leaves, the same
value for both ways); a failure stops the program with status 1.

Options:
  --turns=N    timed turns (default 10, at most 1000)
  --warmup=W   untimed runs of each way first (default 1, at most 10)
  --help       this text

Output: a row per turn, then per measure the geometric mean of the turns'
ratios written/rewrite (> 1: the rewrite is faster) with its 95 % interval
(Student's t over the log ratios), the median and the range:
  program   the run's time_ms (dd-maxflow's: GPU time by CUDA events)
  gpu       time_ms less the host's global relabels (relabel_ms), which are
            the same code both ways and the bulk of the spread
  round     the gpu part over the run's rounds (the rounds themselves
            differ from run to run: which push wins a lock)
The last line: "written/rewrite program P gpu G round R" (the geometric
means).
)";

const std::set<std::string> kValueOptions = {"turns", "warmup"};
const std::set<std::string> kFlagOptions = {"help"};

int fail(const std::string &message) {
  std::fprintf(stderr, "dd-maxflow-turns: error: %s\n", message.c_str());
  return 1;
}

enum class Way { kWritten, kRewrite };

struct Run {
  double ms = 0, gpu_ms = 0, round_us = 0;
  std::uint64_t rounds = 0;
};

/// One run of `way`, verified; `value` is the flow every run must reach
/// (set by the first).
Expected<Run> run_once(Way way, const FlowNetwork &network,
                       const maxflow::DeviceNetwork &device,
                       std::optional<std::int64_t> &value) {
  Expected<maxflow::Result> result =
      way == Way::kWritten ? maxflow::locks::push_relabel(device)
                           : maxflow::delegate::push_relabel(device);
  if (!result.ok())
    return result.status();
  const char *name = way == Way::kWritten ? "as written" : "rewritten";
  if (Status s =
          dd::graph::certify_max_flow(network, result->flows, result->value);
      !s.ok())
    return Status::error(std::string(name) + ": " + s.message());
  if (value && *value != result->value)
    return Status::error(dd::graph::str_cat(name, ": a flow of ", result->value,
                                            " where another run found ",
                                            *value));
  value = result->value;
  Run run;
  run.ms = result->ms;
  run.gpu_ms = result->ms - result->relabel_ms;
  run.rounds = result->rounds;
  run.round_us =
      result->rounds ? 1000 * run.gpu_ms / double(result->rounds) : 0;
  return run;
}

/// Student's t at 97.5 % for `df` degrees of freedom: the table to 30,
/// then the Cornish-Fisher expansion about 1.96 (within 0.001 there).
double t975(std::size_t df) {
  static const double kT[] = {
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df >= 1 && df <= 30)
    return kT[df - 1];
  const double z = 1.959964, n = double(df);
  return z + (z * z * z + z) / (4 * n) +
         (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

/// "geomean 0.998 [0.991, 1.005] median 0.997 range 0.95-1.04" over `ratios`.
double summarize(const char *measure, const std::vector<double> &ratios) {
  double sum = 0;
  for (double r : ratios)
    sum += std::log(r);
  const double n = double(ratios.size()), mean = sum / n;
  double ss = 0;
  for (double r : ratios)
    ss += (std::log(r) - mean) * (std::log(r) - mean);
  const double half =
      ratios.size() > 1 ? t975(ratios.size() - 1) * std::sqrt(ss / (n - 1) / n)
                        : 0;
  const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
  std::printf("%-8s geomean %.4f [%.4f, %.4f] median %.4f range %.4f-%.4f\n",
              measure, std::exp(mean), std::exp(mean - half),
              std::exp(mean + half), dd::tools::median(ratios), *lo, *hi);
  return std::exp(mean);
}

int main_impl(int argc, char **argv) {
  dd::tools::Args args;
  if (std::optional<std::string> problem =
          dd::tools::parse_args(argc, argv, 1, kValueOptions, kFlagOptions,
                                "see dd-maxflow-turns --help", args))
    return fail(*problem);
  if (args.flags.count("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::uint64_t turns = 10, warmup = 1;
  for (auto problem : {dd::tools::get_u64(args, "turns", 1, 1000, turns),
                       dd::tools::get_u64(args, "warmup", 0, 10, warmup)})
    if (problem)
      return fail(*problem);
  if (args.positional.size() != 1)
    return fail(args.positional.empty()
                    ? std::string("no NETWORK given (dd-maxflow-turns --help)")
                    : "expected one NETWORK, got " +
                          std::to_string(args.positional.size()));
  const std::string path = args.positional[0];
  dd::tools::current_file() = path;
  Expected<FlowNetwork> network = dd::graph::read_max_flow(path, ReadOptions{});
  if (!network.ok())
    return fail(network.status().message());
  int devices = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&devices);
      err != cudaSuccess || devices == 0)
    return fail(std::string("no CUDA GPU: ") +
                (err != cudaSuccess ? cudaGetErrorString(err) : "no device"));
  maxflow::DeviceNetwork device;
  if (Status s = device.upload(*network); !s.ok())
    return fail(path + ": " + s.message());

  std::optional<std::int64_t> value;
  for (std::uint64_t i = 0; i < warmup; ++i)
    for (Way way : {Way::kWritten, Way::kRewrite})
      if (Expected<Run> run = run_once(way, *network, device, value); !run.ok())
        return fail(path + ": warm-up: " + run.status().message());

  std::printf("%5s %-9s %11s %11s %8s %9s %9s %8s %8s %8s %9s %9s %8s\n",
              "turn", "first", "written_ms", "rewrite_ms", "ratio", "w_gpu_ms",
              "r_gpu_ms", "ratio", "w_rounds", "r_rounds", "w_us/rnd",
              "r_us/rnd", "ratio");
  std::vector<double> program, gpu, round;
  for (std::uint64_t t = 0; t < turns; ++t) {
    // The first of a turn runs right after the other way's run: swapping
    // the order every turn gives both ways that place equally often.
    const bool written_first = t % 2 == 0;
    Run runs[2];
    const Way order[2] = {written_first ? Way::kWritten : Way::kRewrite,
                          written_first ? Way::kRewrite : Way::kWritten};
    for (Way way : order) {
      Expected<Run> run = run_once(way, *network, device, value);
      if (!run.ok())
        return fail(path + ": turn " + std::to_string(t + 1) + ": " +
                    run.status().message());
      runs[way == Way::kWritten ? 0 : 1] = *run;
    }
    const Run &w = runs[0], &r = runs[1];
    if (r.ms <= 0 || r.gpu_ms <= 0 || r.round_us <= 0 || w.ms <= 0 ||
        w.gpu_ms <= 0 || w.round_us <= 0)
      return fail(path + ": turn " + std::to_string(t + 1) +
                  ": a run took no measurable time (a network without rounds)");
    program.push_back(w.ms / r.ms);
    gpu.push_back(w.gpu_ms / r.gpu_ms);
    round.push_back(w.round_us / r.round_us);
    std::printf("%5llu %-9s %11.3f %11.3f %8.4f %9.3f %9.3f %8.4f %8llu %8llu "
                "%9.3f %9.3f %8.4f\n",
                (unsigned long long)(t + 1),
                written_first ? "written" : "rewrite", w.ms, r.ms,
                program.back(), w.gpu_ms, r.gpu_ms, gpu.back(),
                (unsigned long long)w.rounds, (unsigned long long)r.rounds,
                w.round_us, r.round_us, round.back());
    std::fflush(stdout); // progress: a turn is seconds on the large meshes
  }
  std::printf(
      "flow %lld, every run verified; written/rewrite over %llu turns:\n",
      (long long)*value, (unsigned long long)turns);
  const double p = summarize("program", program);
  const double g = summarize("gpu", gpu);
  const double u = summarize("round", round);
  std::printf("written/rewrite program %.4f gpu %.4f round %.4f\n", p, g, u);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  dd::tools::exit_when_out_of_memory("dd-maxflow-turns");
  return main_impl(argc, argv);
}
