// dd-sp: survey propagation (Braunstein, Mezard, Zecchina) on a CNF formula,
// its rounds on the GPU with atomic products (LonestarGPU's baseline) or
// products gathered by a thread per variable (atomic-free), or on the CPU;
// decimation and WalkSAT on the host; timed, and optionally verified
// against the CPU reference.
//
// Every failure prints one "dd-sp: error: ..." line (formula errors name the
// file and the line) and exits with status 1; the --out file is written
// whole (graph/file.h), and only when everything succeeded (verification
// included).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "graph/file.h"
#include "sat/cnf.h"
#include "sat/sp.h"
#include "sat/sp_gpu.h"
#include "command_line.h"

namespace {

using dd::graph::check_output_not_input;
using dd::graph::Expected;
using dd::graph::Status;
using dd::graph::str_cat;
using dd::graph::write_file;
using dd::tools::Args;
using dd::tools::format_real;
using dd::tools::get_real;
using dd::tools::get_u64;
using dd::tools::median;
namespace sat = dd::sat;

constexpr const char *kUsage = R"(usage: dd-sp --algo=A [options] FORMULA

Survey propagation (Braunstein, Mezard, Zecchina 2005) with decimation on
FORMULA, a DIMACS CNF file (`dd-graph generate 3sat` writes random 3-SAT),
WalkSAT for what is left once the surveys are trivial; timed, optionally
verified. See docs/sp.md.

Algorithms (--algo=A): the survey rounds, all on one synchronous schedule
(every survey of round t+1 from round t's), a thread per clause on the GPU
  atomic       a clause's factors (1 - survey) are multiplied into its
               variables' products with an atomic multiply (an atomicCAS
               loop on the double's bits), as LonestarGPU's baseline does
  gather       no scatter: after the clauses' launch, a thread per variable
               gathers its products (atomic-free by synchronous
               processing; bit-identical to the CPU reference)
  cpu          the CPU reference (needs no GPU)
Decimation, unit propagation and WalkSAT run on the host for every algo,
from products the host gathers from the converged surveys.

Options:
  --algo=A           the algorithm (required)
  --epsilon=E        a round converges when no survey moves by E or more
                     (default 0.001)
  --max-rounds=N     rounds per convergence before giving up (default 1000)
  --fraction=F       the share of the unfixed variables fixed per decimation,
                     the most biased first, at least one (default 0.01)
  --damping=D        each new survey is D * old + (1 - D) * computed, D in
                     [0, 0.99] (default 0: the plain update; more damping
                     helps the synchronous rounds converge)
  --paramagnetic=B   hand the rest to WalkSAT once no bias |W+ - W-| reaches
                     B (default 0.01)
  --seed=S           the initial surveys and WalkSAT's choices (default 1)
  --max-flips=N      WalkSAT's flips (default 100000 + 1000 per variable)
  --round-loop=L     who drives a convergence's rounds on the GPU: host
                     (default: a launch per phase, the flag copied to the
                     host after every round) or device (one cooperative
                     launch runs them all, the grid syncing between phases
                     and reading the flag itself; the host loop where the GPU
                     cannot launch cooperatively). The rounds and results are
                     the same; which is faster depends on the algo and the
                     formula (docs/sp.md)
  --out=FILE         write the result in the SAT competition's style:
                     "s SATISFIABLE" and "v" lines of literals ending in 0,
                     or "s UNKNOWN" ("-": standard output; the result line
                     then goes to standard error). Written only when
                     everything (--verify too) succeeded: a regular file to a
                     temporary name, renamed, a device or FIFO through. It
                     may not be the FORMULA
  --verify           check that the first convergence (before decimation)
                     matches the CPU reference's: the same convergence, every
                     survey and bias within --tolerance; that every clause
                     decimation or unit propagation decided holds the literal
                     that decided it; and, when sat, that the assignment
                     satisfies every clause. A failure is an error (status 1)
  --tolerance=T      --verify's bound on survey and bias differences (default
                     0.01)
  --runs=N           time N runs and report the median (default 1); GPU
                     algorithms run once more before, untimed (warm-up)
  --max-input-bytes=N
                     the most bytes read from a FORMULA that is not a regular
                     file (a pipe, a FIFO, a device; default 4 GiB)
  --help             this text

The last line of standard output is the result:
  sat fixed F rounds R sp_ms S time_ms MS
  unsolved REASON fixed F rounds R sp_ms S time_ms MS
REASON: contradiction (a decimation left a clause without literals),
not-converged (a convergence ran --max-rounds rounds), walksat (WalkSAT ran
out of flips). F: variables fixed by decimation; R: survey rounds, all
convergences; S: the median run's time in survey rounds (GPU: CUDA events
around the rounds, including the per-round convergence flag's read,
excluding the host's decimation and the transfers around it); MS: the
median run, the whole solve (after reading the formula and, for the GPU,
uploading it). Standard error gets one line "dd-sp: algo=A runs=N vars=V
clauses=C literals=L tautologies=T decimations=D units=U walksat_vars=W
walksat_clauses=K flips=X first_rounds=R1 inexact_products=P launches=N"
of the last run; P counts the products the GPU's last round of each
convergence left that differ beyond rounding from those gathered on the host
from its surveys (0 for every algo: a product that lost a factor would
show here).
)";

int fail(const std::string &message) {
  std::fprintf(stderr, "dd-sp: error: %s\n", message.c_str());
  return 1;
}

const std::set<std::string> kValueOptions = {
    "algo",      "out",  "runs",      "max-input-bytes", "epsilon",  "max-rounds",
    "fraction",  "seed", "max-flips", "paramagnetic",    "tolerance", "damping",
    "round-loop"};
const std::set<std::string> kFlagOptions = {"verify", "help"};

enum class Algo { kAtomic, kGather, kCpu };

// The values of --algo.
const dd::tools::Choice<Algo> kAlgos[] = {
    {"atomic", Algo::kAtomic}, {"gather", Algo::kGather}, {"cpu", Algo::kCpu}};

// The --out text: the SAT competition's solution lines.
std::string format_solution(const sat::Cnf &cnf, const sat::Outcome &outcome) {
  if (outcome.kind != sat::Outcome::Kind::kSat)
    return "s UNKNOWN\n";
  std::string out = "s SATISFIABLE\n";
  std::string line = "v";
  for (std::uint32_t v = 0; v < cnf.num_vars; ++v) {
    const std::string lit =
        (outcome.assignment[v] ? "" : "-") + std::to_string(std::uint64_t{v} + 1);
    if (line.size() + 1 + lit.size() > 78) {
      out += line + "\n";
      line = "v";
    }
    line += " " + lit;
  }
  out += line + " 0\n";
  return out;
}

int main_impl(int argc, char **argv) {
  Args args;
  Algo algo{};
  if (std::optional<int> status = dd::tools::open_command("dd-sp", argc, argv, kUsage,
                                                          kValueOptions, kFlagOptions, kAlgos,
                                                          args, algo))
    return *status;
  const std::string &algo_name = args.values.at("algo");
  std::uint64_t runs = 1;
  sat::CnfReadOptions read;
  sat::SpOptions options;
  double tolerance = 0.01;
  for (auto problem :
       {get_u64(args, "runs", 1, 1000, runs),
        get_u64(args, "max-input-bytes", 0, ~std::uint64_t{0}, read.max_stream_bytes),
        get_u64(args, "max-rounds", 1, 1000000000, options.max_rounds),
        get_u64(args, "seed", 0, ~std::uint64_t{0}, options.seed),
        get_u64(args, "max-flips", 1, ~std::uint64_t{0}, options.max_flips),
        get_real(args, "epsilon", 0.0, false, 1.0, options.epsilon),
        get_real(args, "fraction", 0.0, false, 1.0, options.fraction),
        get_real(args, "damping", 0.0, true, 0.99, options.damping),
        get_real(args, "paramagnetic", 0.0, true, 1.0, options.paramagnetic),
        get_real(args, "tolerance", 0.0, true, 1.0, tolerance)})
    if (problem)
      return fail(*problem);
  sat::gpu::RoundLoop round_loop = sat::gpu::RoundLoop::kHost;
  if (auto it = args.values.find("round-loop"); it != args.values.end()) {
    if (it->second == "device")
      round_loop = sat::gpu::RoundLoop::kDevice;
    else if (it->second != "host")
      return fail("--round-loop must be device or host (is '" + it->second + "')");
  }
  if (args.positional.size() != 1)
    return fail(args.positional.empty()
                    ? std::string("no FORMULA given (dd-sp --help)")
                    : "expected one FORMULA, got " + std::to_string(args.positional.size()));
  const std::string path = args.positional[0];
  // Checked before reading: nothing is written over a file being read.
  if (auto it = args.values.find("out"); it != args.values.end() && it->second != "-")
    if (Status s = check_output_not_input(it->second, {path}, "--out"); !s.ok())
      return fail(s.message());
  dd::tools::current_file() = path;
  Expected<sat::Cnf> cnf = sat::read_cnf(path, read);
  if (!cnf.ok())
    return fail(cnf.status().message());
  const sat::FactorGraph graph = sat::build_factor_graph(*cnf);

  std::unique_ptr<sat::Engine> engine;
  if (algo == Algo::kCpu) {
    engine = std::make_unique<sat::CpuEngine>();
  } else {
    int devices = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&devices); err != cudaSuccess || devices == 0)
      return fail(str_cat("no CUDA GPU for --algo=", algo_name, ": ",
                          err != cudaSuccess ? cudaGetErrorString(err) : "no device",
                          " (--algo=cpu runs on the CPU)"));
    auto gpu = std::make_unique<sat::gpu::GpuEngine>(
        algo == Algo::kAtomic ? sat::gpu::Variant::kAtomic : sat::gpu::Variant::kGather,
        round_loop);
    if (Status s = gpu->upload(graph); !s.ok())
      return fail(path + ": " + s.message());
    engine = std::move(gpu);
  }

  // Warm-up (GPU only: module loading, first-touch costs), then the runs.
  std::vector<double> times, sp_times;
  Expected<sat::Outcome> outcome = Status::error("no run");
  for (std::uint64_t i = (algo == Algo::kCpu ? 1 : 0); i <= runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    outcome = sat::solve(graph, *engine, options);
    const auto stop = std::chrono::steady_clock::now();
    if (!outcome.ok())
      return fail(path + ": " + outcome.status().message());
    if (i > 0) {
      times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
      sp_times.push_back(outcome->sp_ms);
    }
  }
  const sat::Outcome &result = *outcome;

  std::fprintf(stderr,
               "dd-sp: algo=%s runs=%llu vars=%llu clauses=%llu literals=%llu tautologies=%llu "
               "decimations=%llu units=%llu walksat_vars=%llu walksat_clauses=%llu flips=%llu "
               "first_rounds=%llu inexact_products=%llu launches=%llu\n",
               algo_name.c_str(), (unsigned long long)runs,
               (unsigned long long)cnf->num_vars, (unsigned long long)cnf->num_clauses(),
               (unsigned long long)cnf->num_literals(), (unsigned long long)graph.tautologies,
               (unsigned long long)result.decimations, (unsigned long long)result.fixed_by_units,
               (unsigned long long)result.walksat_vars,
               (unsigned long long)result.walksat_clauses, (unsigned long long)result.flips,
               (unsigned long long)result.first.convergence.rounds,
               (unsigned long long)result.inexact_products,
               (unsigned long long)engine->launches());

  if (args.flags.count("verify")) {
    Expected<sat::FirstConvergence> reference = sat::cpu_first_convergence(graph, options);
    if (!reference.ok())
      return fail(path + ": " + reference.status().message());
    Expected<sat::Difference> diff = sat::compare_first(result.first, *reference);
    if (!diff.ok())
      return fail(path + ": verification failed: " + diff.status().message());
    if (!(diff->eta <= tolerance) || !(diff->bias <= tolerance))
      return fail(path + ": verification failed: " +
                  str_cat("the first convergence differs from the CPU's by up to ",
                          std::to_string(diff->eta), " in a survey and ",
                          std::to_string(diff->bias), " in a bias (--tolerance=",
                          std::to_string(tolerance), ")"));
    if (auto problem = sat::check_outcome(*cnf, graph, result))
      return fail(path + ": verification failed: " + *problem);
    const std::string first =
        result.first.ran
            ? str_cat("first convergence as the CPU's (", result.first.convergence.rounds,
                      " rounds; largest differences: survey ", format_real(diff->eta),
                      ", bias ", format_real(diff->bias), ")")
            : std::string("no survey round ran (unit propagation decided the formula)");
    std::fprintf(stderr, "dd-sp: verified: %s; decided clauses hold their literals%s\n",
                 first.c_str(),
                 result.kind == sat::Outcome::Kind::kSat ? "; the assignment satisfies every clause"
                                                         : "");
  }

  bool result_to_stderr = false;
  if (auto it = args.values.find("out"); it != args.values.end()) {
    const std::string text = format_solution(*cnf, result);
    if (it->second == "-") {
      result_to_stderr = true;
      if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
          std::fflush(stdout) != 0)
        return fail("cannot write to standard output");
    } else if (Status s = write_file(it->second, text); !s.ok()) {
      return fail(s.message());
    }
  }
  std::fprintf(result_to_stderr ? stderr : stdout,
               "%s fixed %llu rounds %llu sp_ms %.3f time_ms %.3f\n", sat::kind_name(result.kind),
               (unsigned long long)result.fixed_by_sp, (unsigned long long)result.rounds,
               median(sp_times), median(times));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  dd::tools::exit_when_out_of_memory("dd-sp");
  return main_impl(argc, argv);
}
