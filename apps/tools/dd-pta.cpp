// dd-pta: Andersen's inclusion-based points-to analysis (flow- and
// context-insensitive) of a program in LLVM IR or bitcode: the constraints
// extracted with LLVM's IR reader, solved on the CPU or on the GPU (the
// atomic baseline and the atomic-free variant, pta/gpu_solver.h); timed,
// and with --verify the GPU's sets compared with the CPU's (docs/pta.md).
//
// Every failure prints one "dd-pta: error: ..." line (IR errors are LLVM's
// diagnostic, naming the file and, for text, the line and column) and exits
// with status 1; the --out file is written whole (graph/file.h), and only
// when everything succeeded.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "graph/file.h"
#include "pta/constraints.h"
#include "pta/solver.h"
#include "command_line.h"
#ifdef DD_PTA_HAVE_GPU
#include "pta/gpu_solver.h"
#endif

namespace {

using dd::graph::check_output_not_input;
using dd::graph::Expected;
using dd::graph::Status;
using dd::graph::write_file;
using dd::tools::Args;
namespace pta = dd::pta;

constexpr const char *kUsage = R"(usage: dd-pta --algo=A [options] FILE

Andersen's inclusion-based points-to analysis (flow- and context-insensitive)
of FILE, LLVM IR (.ll) or bitcode (.bc) as `clang-22 -O0 -emit-llvm -S` or
`-c` writes it: address-of, copy, load and store constraints over the
program's pointer variables and abstract locations (allocas, globals,
functions, heap allocation sites), solved to the least fixed point; timed.
See docs/pta.md.

Algorithms (--algo=A):
  cpu          the CPU reference: a worklist of nodes with difference
               propagation and lazy cycle detection
  gpu-atomic   on the GPU, synchronous rounds over bitsets: facts pushed
               along copy edges with atomicOr, the edges of loads and
               stores placed with an atomicAdd on a counter
  gpu-free     the same rounds with no read-modify-write atomic: each
               node pulls along its copies and through its loads and the
               stores that write it, reading their edges from the pointers'
               sets instead of placing them

Options:
  --algo=A           the algorithm (required)
  --out=FILE         write the points-to sets: a "#" header line, then one
                     line "NODE -> TARGET..." per node with targets, sorted by
                     name, targets sorted ("-": standard output; the result
                     line then goes to standard error). Written only when
                     everything succeeded: a regular file to a temporary
                     name, renamed, a device or FIFO through. It may not be
                     FILE
  --runs=N           time N solves and report the median (default 1; on
                     the GPU after one untimed solve)
  --verify           solve on the CPU too and check that every node's set is
                     the same (a GPU algorithm only); prints "verify: ok"
                     on standard error, or names the first node that
                     differs and exits with status 1
  --stats            one more line on standard error: what the extraction
                     did not model, and the solver's work
  --help             this text

The last line of standard output is the result:
  solved nodes N vars V objects O addr A copy C load L store S facts F time_ms MS
N: the constraint graph's nodes (V variables, O abstract locations, the rest
temporaries of the extraction); A, C, L, S: the constraints of each kind;
F: the points-to facts, the sum of the set sizes of the variables and
locations; MS: the median solve (after reading and extracting; on the GPU,
CUDA events around the rounds, the constraints already on the device). With
--stats, standard error gets "dd-pta: algo=A runs=N functions=F
indirect_calls=I external_calls=X int_to_ptr=P vararg_args=G edges=E
visits=W propagations=U merged=M read_ms=R": external calls and inttoptr
results contribute no targets, arguments past a callee's parameters are
dropped (docs/pta.md, "What is not modelled"); E: copy edges added; M:
nodes merged into others on copy cycles. On the GPU, "rounds=R
locations=P edges=E total_ms=T" stand in for edges= ... merged=: R
synchronous rounds, P the bits of a set (locations whose address is taken),
E copy edges at the end, T the median solve with the copies to and from the
device.
)";

int fail(const std::string &message) {
  std::fprintf(stderr, "dd-pta: error: %s\n", message.c_str());
  return 1;
}

const std::set<std::string> kValueOptions = {"algo", "out", "runs"};
const std::set<std::string> kFlagOptions = {"stats", "verify", "help"};

enum class Algo { kCpu, kGpuAtomic, kGpuFree };

// The values of --algo.
const dd::tools::Choice<Algo> kAlgos[] = {
    {"cpu", Algo::kCpu}, {"gpu-atomic", Algo::kGpuAtomic}, {"gpu-free", Algo::kGpuFree}};

const char *algo_name(Algo algo) {
  for (const auto &choice : kAlgos)
    if (choice.value == algo)
      return choice.name;
  return "?";
}

/// The first node whose sets differ, as "NAME: N targets on the GPU, M on
/// the CPU (first difference: T)"; empty when all agree.
std::string first_difference(const pta::ConstraintSet &set, const pta::Solution &gpu,
                             const pta::Solution &cpu) {
  for (std::uint32_t v = 0; v < set.num_nodes(); ++v) {
    const auto &a = gpu.pts[v], &b = cpu.pts[v];
    if (a == b)
      continue;
    std::string first;
    auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    if (ia != a.end() && (ib == b.end() || *ia < *ib))
      first = set.names[*ia] + " only on the GPU";
    else
      first = set.names[*ib] + " only on the CPU";
    return set.names[v] + ": " + std::to_string(a.size()) + " targets on the GPU, " +
           std::to_string(b.size()) + " on the CPU (first difference: " + first + ")";
  }
  return "";
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

int main_impl(int argc, char **argv) {
  Args args;
  Algo algo{};
  if (std::optional<int> status = dd::tools::open_command("dd-pta", argc, argv, kUsage,
                                                          kValueOptions, kFlagOptions, kAlgos,
                                                          args, algo))
    return *status;
  std::uint64_t runs = 1;
  if (auto problem = dd::tools::get_u64(args, "runs", 1, 1000, runs))
    return fail(*problem);
  const bool verify = args.flags.count("verify") > 0;
  if (verify && algo == Algo::kCpu)
    return fail("--verify compares a GPU algorithm's sets with the CPU's; --algo=cpu has "
                "nothing to compare with");
#ifdef DD_PTA_HAVE_GPU
  if (algo != Algo::kCpu)
    if (std::string why; !pta::gpu::available(&why))
      return fail(std::string("no CUDA GPU for --algo=") + algo_name(algo) + ": " + why +
                  " (--algo=cpu runs on the CPU)");
#else
  if (algo != Algo::kCpu)
    return fail(std::string("--algo=") + algo_name(algo) +
                ": this dd-pta was built without CUDA (--algo=cpu runs on the CPU)");
#endif
  if (args.positional.size() != 1)
    return fail(args.positional.empty()
                    ? std::string("no FILE given (dd-pta --help)")
                    : "expected one FILE, got " + std::to_string(args.positional.size()));
  const std::string path = args.positional[0];
  // Checked before reading: nothing is written over a file being read.
  if (auto it = args.values.find("out"); it != args.values.end() && it->second != "-")
    if (Status s = check_output_not_input(it->second, {path}, "--out"); !s.ok())
      return fail(s.message());

  dd::tools::current_file() = path;
  const auto read_start = std::chrono::steady_clock::now();
  pta::ExtractionStats extraction;
  Expected<pta::ConstraintSet> set = pta::read_constraints(path, &extraction);
  if (!set.ok())
    return fail(set.status().message());
  const double read_ms = ms_since(read_start);

  std::vector<double> times, totals;
  pta::Solution solution;
#ifdef DD_PTA_HAVE_GPU
  pta::gpu::Stats gpu_stats;
#endif
  if (algo == Algo::kCpu) {
    for (std::uint64_t i = 0; i < runs; ++i) {
      const auto start = std::chrono::steady_clock::now();
      solution = pta::solve(*set);
      times.push_back(ms_since(start));
    }
  } else {
#ifdef DD_PTA_HAVE_GPU
    const pta::gpu::Variant variant =
        algo == Algo::kGpuAtomic ? pta::gpu::Variant::kAtomic : pta::gpu::Variant::kFree;
    // One untimed solve first: the context, module loading, first touches.
    for (std::uint64_t i = 0; i <= runs; ++i) {
      Expected<pta::Solution> gpu = pta::gpu::solve(*set, variant, &gpu_stats);
      if (!gpu.ok())
        return fail(path + ": " + gpu.status().message());
      if (i > 0) {
        times.push_back(gpu_stats.solve_ms);
        totals.push_back(gpu_stats.total_ms);
      }
      solution = std::move(*gpu);
    }
#endif
  }
  if (verify) {
    const pta::Solution cpu = pta::solve(*set);
    if (std::string diff = first_difference(*set, solution, cpu); !diff.empty())
      return fail("--verify: the sets differ from the CPU's: " + diff);
    std::fprintf(stderr, "verify: ok (%u nodes, the same sets as --algo=cpu)\n",
                 set->num_nodes());
  }

  std::uint64_t vars = 0, objects = 0;
  for (pta::NodeKind k : set->kinds) {
    vars += k == pta::NodeKind::kVariable;
    objects += k == pta::NodeKind::kObject;
  }
  const std::vector<std::uint64_t> counts = set->count_by_kind();
  if (args.flags.count("stats")) {
    std::fprintf(stderr,
                 "dd-pta: algo=%s runs=%llu functions=%llu indirect_calls=%llu "
                 "external_calls=%llu int_to_ptr=%llu vararg_args=%llu",
                 algo_name(algo), (unsigned long long)runs,
                 (unsigned long long)extraction.functions,
                 (unsigned long long)extraction.indirect_calls,
                 (unsigned long long)extraction.external_calls,
                 (unsigned long long)extraction.int_to_ptr,
                 (unsigned long long)extraction.vararg_args);
    if (algo == Algo::kCpu)
      std::fprintf(stderr, " edges=%llu visits=%llu propagations=%llu merged=%llu",
                   (unsigned long long)solution.edges, (unsigned long long)solution.visits,
                   (unsigned long long)solution.propagations,
                   (unsigned long long)solution.merged);
#ifdef DD_PTA_HAVE_GPU
    else
      std::fprintf(stderr, " rounds=%llu locations=%llu edges=%llu total_ms=%.3f",
                   (unsigned long long)gpu_stats.rounds, (unsigned long long)gpu_stats.locations,
                   (unsigned long long)gpu_stats.edges, median(totals));
#endif
    std::fprintf(stderr, " read_ms=%.3f\n", read_ms);
  }

  bool result_to_stderr = false;
  if (auto it = args.values.find("out"); it != args.values.end()) {
    const std::string text = pta::format_solution(*set, solution);
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
               "solved nodes %llu vars %llu objects %llu addr %llu copy %llu load %llu "
               "store %llu facts %llu time_ms %.3f\n",
               (unsigned long long)set->num_nodes(), (unsigned long long)vars,
               (unsigned long long)objects, (unsigned long long)counts[0],
               (unsigned long long)counts[1], (unsigned long long)counts[2],
               (unsigned long long)counts[3], (unsigned long long)solution.facts(*set),
               median(times));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  dd::tools::exit_when_out_of_memory("dd-pta");
  return main_impl(argc, argv);
}
