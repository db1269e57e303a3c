// dd-mst: minimum spanning forest on the GPU by Boruvka's algorithm with
// component locks (the dissertation's MST benchmark), as written or through
// the delegate pass, timed, and optionally verified against Kruskal's.
//
// Every failure prints one "dd-mst: error: ..." line (graph errors name the
// file and the line or byte offset) and exits with status 1; the --out file
// is written whole (support/output_file.h), and only when everything
// succeeded (verification included).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <cuda_runtime.h>

#include "graph/file.h"
#include "graph/format.h"
#include "graph/graph_io.h"
#include "graph/mst.h"
#include "graph/weights.h"
#include "mst/mst.h"
#include "command_line.h"
#include "graph_argument.h"

namespace {

using namespace dd::graph;
using dd::tools::Args;
using dd::tools::get_u64;
namespace mst = dd::mst;

constexpr const char *kUsage = R"(usage: dd-mst --algo=A [options] GRAPH

Minimum spanning forest of GRAPH, read as undirected, on the GPU, timed,
optionally verified.

Algorithms (--algo=A; see docs/mst.md):
  locks      Boruvka (LonestarGPU 3.0's, the dissertation's MST): a thread
             per vertex finds its lightest edge to another component and
             updates its component's best edge under the component's lock
             (a global try-lock loop), a thread per component hooks, pointer
             jumping relabels; rounds until no component has an edge out
  delegate   the same source rewritten at build time by
             `decoupler --passes=delegate`: the critical section runs on
             server blocks that own the component locks in shared memory.
             The launcher's policy is DD_DELEGATE_POLICY (environment):
             adaptive (default: measures both ways, runs the faster),
             delegate (always delegated), original (the kernel as written)
  cpu        the CPU reference, Kruskal's algorithm (needs no GPU)

Options:
  --algo=A           the algorithm (required)
  --out=FILE         write one line "u v w" per forest edge (0-based ids,
                     u < v, sorted by u then v), nothing else ("-": standard
                     output; the result line then goes to standard error).
                     Written only when everything (--verify too) succeeded: a
                     regular file to a temporary name, renamed (keeping its
                     mode, owner and links), a device or FIFO through. It may
                     not be the GRAPH
  --verify           check that the forest spans every connected component
                     (edges of the graph, no cycle) and that its weight equals
                     Kruskal's exactly; a failure is an error (status 1)
  --runs=N           time N runs and report the median (default 1)
  --warmup=N         untimed GPU runs before the timed ones (default 1: module
                     loading, first-touch costs, the delegate launcher's
                     first probe; 0 where one run takes minutes)
  --time-limit=MS    stop a GPU run (warm-up or timed) once it has taken MS
                     milliseconds of GPU time, inside a Boruvka round too;
                     the result line is then "unfinished time_ms T rounds R"
                     (T >= MS: a lower bound of the run's time; R: rounds
                     done) and the exit status 3. For benchmarks of the
                     kernel as written on graphs where one run, or one round,
                     takes minutes (0: no limit, default)
  --format=F         auto (default), gr, dimacs, mtx, snap, edgelist
  --base=0|1         id of the first vertex in edge lists and SNAP files
                     (default 0; DIMACS and Matrix Market are 1-based)
  --max-input-bytes=N
                     the most bytes read from a GRAPH that is not a regular
                     file (a pipe, a FIFO, a device; default 4 GiB)
  --symmetrize       add the reverse of every edge (changes nothing: the
                     graph is read as undirected either way)
  --weights=W        auto (default): the file's weights; a graph without
                     weights gets random ones, as dd-sssp does
                     random: int32 uniform in [1, 255] from --weight-seed, as
                     `dd-graph ... --weights=random` makes them (a function
                     of the pair {u, v}), replacing the file's
                     unit: every edge weighs 1 (all ties)
  --weight-seed=S    seed of the random weights (default 1)
  --help             this text

The graph is undirected: u -> v and v -> u are the edge {u, v}, parallel
edges count once with their lightest weight, self loops are ignored (as
`dd-graph mst-ref` reads it). Weights must be integers: float weights are an
error (the total is exact). The GPU algorithms need fewer than 2^31
undirected edges.

The last line of standard output is the result:
  weight W trees T edges E time_ms MS
W: total weight (uint64); T: trees (connected components, isolated vertices
included); E: forest edges (vertices - trees); MS: the median run, GPU time
by CUDA events from the first launch to the end of the last (including the
host's reads of per-round counters, excluding reading the graph, building
its undirected form, the upload and the copy back); cpu: Kruskal's time.
Standard error gets one line "dd-mst: algo=A runs=N vertices=V csr_edges=E
undirected_edges=U rounds=R launches=L": E the graph's directed entries, U
its undirected edges (parallel copies merged; GPU algorithms only), R the
Boruvka rounds that hooked a component, L the kernel launches of the last
run (0 for cpu).
)";

int fail(const std::string &message) {
  std::fprintf(stderr, "dd-mst: error: %s\n", message.c_str());
  return 1;
}

const std::set<std::string> kValueOptions = {
    "algo",    "out",         "runs",           "warmup",    "time-limit",
    "format",  "base",        "weights",        "weight-seed", "max-input-bytes"};
const std::set<std::string> kFlagOptions = {"verify", "symmetrize", "help"};

enum class Algo { kLocks, kDelegate, kCpu };

// The values of --algo.
const dd::tools::Choice<Algo> kAlgos[] = {
    {"locks", Algo::kLocks}, {"delegate", Algo::kDelegate}, {"cpu", Algo::kCpu}};

// One run of `algo` (the graph is on the device unless algo is cpu).
Expected<mst::Result> run_once(Algo algo, const Csr &csr, const mst::DeviceGraph &device,
                               double time_limit_ms) {
  switch (algo) {
  case Algo::kLocks:
    return mst::locks::boruvka(device, time_limit_ms);
  case Algo::kDelegate:
    return mst::delegate::boruvka(device, time_limit_ms);
  case Algo::kCpu:
    break;
  }
  const auto start = std::chrono::steady_clock::now();
  Expected<SpanningForest> forest = kruskal_mst(csr);
  const auto stop = std::chrono::steady_clock::now();
  if (!forest.ok())
    return forest.status();
  mst::Result result;
  result.edges = std::move(forest->edges);
  result.weight = forest->weight;
  result.num_trees = forest->num_trees;
  result.ms = std::chrono::duration<double, std::milli>(stop - start).count();
  return result;
}

// Checks the forest against the graph and Kruskal's weight; a message when
// it fails.
std::optional<std::string> verify(const Csr &csr, const mst::Result &result) {
  Expected<std::uint64_t> weight = verify_spanning_forest(csr, result.edges);
  if (!weight.ok())
    return "verification failed: " + weight.status().message();
  if (*weight != result.weight)
    return str_cat("verification failed: the forest's edges weigh ", *weight, ", not the ",
                   result.weight, " reported");
  Expected<SpanningForest> reference = kruskal_mst(csr);
  if (!reference.ok())
    return reference.status().message();
  if (reference->weight != *weight)
    return str_cat("verification failed: the forest weighs ", *weight, ", Kruskal's ",
                   reference->weight, " (a spanning forest, not a minimum one)");
  return std::nullopt;
}

std::string format_edges(std::vector<MstEdge> edges) {
  std::sort(edges.begin(), edges.end(), [](const MstEdge &a, const MstEdge &b) {
    return std::tie(a.u, a.v, a.weight) < std::tie(b.u, b.v, b.weight);
  });
  std::string out;
  out.reserve(edges.size() * 24);
  char buf[48];
  for (const MstEdge &e : edges) {
    char *p = std::to_chars(buf, buf + 12, e.u).ptr;
    *p++ = ' ';
    p = std::to_chars(p, p + 12, e.v).ptr;
    *p++ = ' ';
    p = std::to_chars(p, p + 12, e.weight).ptr;
    *p++ = '\n';
    out.append(buf, std::size_t(p - buf));
  }
  return out;
}

int main_impl(int argc, char **argv) {
  Args args;
  Algo algo{};
  if (std::optional<int> status = dd::tools::open_command("dd-mst", argc, argv, kUsage,
                                                          kValueOptions, kFlagOptions, kAlgos,
                                                          args, algo))
    return *status;
  const std::string &algo_name = args.values.at("algo");
  std::uint64_t runs = 1, warmup = 1, time_limit_ms = 0, base = 0, weight_seed = 1;
  std::uint64_t max_input_bytes = kDefaultMaxStreamBytes;
  for (auto problem : {get_u64(args, "runs", 1, 1000, runs), get_u64(args, "warmup", 0, 10, warmup),
                       get_u64(args, "time-limit", 0, std::uint64_t{1} << 40, time_limit_ms),
                       get_u64(args, "base", 0, 1, base),
                       get_u64(args, "weight-seed", 0, ~std::uint64_t{0}, weight_seed),
                       get_u64(args, "max-input-bytes", 0, ~std::uint64_t{0}, max_input_bytes)})
    if (problem)
      return fail(*problem);
  std::string weights = "auto";
  if (auto it = args.values.find("weights"); it != args.values.end()) {
    weights = it->second;
    if (weights != "auto" && weights != "random" && weights != "unit")
      return fail("--weights=" + weights + " is not one of auto, random, unit");
  }
  std::string path;
  Csr csr;
  if (auto problem = dd::tools::read_graph_argument(args, "dd-mst", base, max_input_bytes, path, csr))
    return fail(*problem);
  if (weights == "unit") {
    assign_unit_weights(csr);
  } else if (weights == "random" || csr.weight_type == WeightType::kNone) {
    WeightOptions w; // [1, 255], as dd-graph's random weights
    w.seed = weight_seed;
    w.symmetric = true;
    if (Status s = assign_uniform_weights(csr, w); !s.ok())
      return fail(s.message());
  }
  if (csr.weight_type == WeightType::kFloat32)
    return fail(path + ": the graph has float weights; a minimum spanning forest needs integer "
                       "weights (--weights=random or --weights=unit replaces them)");

  mst::DeviceGraph device;
  if (algo != Algo::kCpu) {
    int devices = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&devices); err != cudaSuccess || devices == 0)
      return fail(str_cat("no CUDA GPU for --algo=", algo_name, ": ",
                          err != cudaSuccess ? cudaGetErrorString(err) : "no device",
                          " (--algo=cpu runs on the CPU)"));
    if (Status s = device.upload(csr); !s.ok())
      return fail(path + ": " + s.message());
  }

  // Warm-up (GPU only: module loading, first-touch costs and the delegate
  // launcher's first probe), then the runs.
  std::vector<double> times;
  Expected<mst::Result> result = Status::error("no run");
  const std::uint64_t untimed = algo == Algo::kCpu ? 0 : warmup;
  for (std::uint64_t i = 0; i < untimed + runs; ++i) {
    result = run_once(algo, csr, device, static_cast<double>(time_limit_ms));
    if (!result.ok())
      return fail(path + ": " + result.status().message());
    if (result->unfinished) {
      // A lower bound, not a result: nothing to verify or write.
      std::fprintf(stderr, "dd-mst: %s run %llu stopped at --time-limit=%llu after %llu rounds\n",
                   i < untimed ? "warm-up" : "timed",
                   (unsigned long long)(i < untimed ? i + 1 : i - untimed + 1),
                   (unsigned long long)time_limit_ms, (unsigned long long)result->rounds);
      std::printf("unfinished time_ms %.3f rounds %llu\n", result->ms,
                  (unsigned long long)result->rounds);
      // The stopped round's kernel may still run: freeing the graph, or the
      // runtime's teardown at exit, would wait for it. Ending the process
      // ends it.
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(3);
    }
    if (i >= untimed)
      times.push_back(result->ms);
  }
  const double ms = dd::tools::median(times);

  std::string undirected;
  if (algo != Algo::kCpu)
    undirected = str_cat(" undirected_edges=", device.num_edges());
  std::fprintf(stderr, "dd-mst: algo=%s runs=%llu vertices=%llu csr_edges=%llu%s rounds=%llu "
                       "launches=%llu\n",
               algo_name.c_str(), (unsigned long long)runs,
               (unsigned long long)csr.num_vertices(), (unsigned long long)csr.num_edges(),
               undirected.c_str(), (unsigned long long)result->rounds,
               (unsigned long long)result->launches);

  if (args.flags.count("verify")) {
    if (auto problem = verify(csr, *result))
      return fail(path + ": " + *problem);
    std::fprintf(stderr,
                 "dd-mst: verified: a spanning forest of %llu trees, weight %llu = Kruskal's\n",
                 (unsigned long long)result->num_trees, (unsigned long long)result->weight);
  }

  bool result_to_stderr = false;
  if (auto it = args.values.find("out"); it != args.values.end()) {
    const std::string text = format_edges(result->edges);
    if (it->second == "-") {
      result_to_stderr = true;
      if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
          std::fflush(stdout) != 0)
        return fail("cannot write to standard output");
    } else if (Status s = write_file(it->second, text); !s.ok()) {
      return fail(s.message());
    }
  }
  std::fprintf(result_to_stderr ? stderr : stdout, "weight %llu trees %llu edges %llu time_ms %.3f\n",
               (unsigned long long)result->weight, (unsigned long long)result->num_trees,
               (unsigned long long)result->edges.size(), ms);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  dd::tools::exit_when_out_of_memory("dd-mst");
  return main_impl(argc, argv);
}
