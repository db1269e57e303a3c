// dd-sssp: single-source shortest paths (and BFS) on the GPU with the
// baseline algorithms of docs/sssp.md, timed, and optionally verified
// against the CPU references of the graph library.
//
// Every failure prints one "dd-sssp: error: ..." line (graph errors name the
// file and the line or byte offset) and exits with status 1; the --out file
// is written whole (support/output_file.h), and only when everything
// succeeded (verification included).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "graph/file.h"
#include "graph/format.h"
#include "graph/graph_io.h"
#include "graph/reference.h"
#include "graph/weights.h"
#include "sssp/sssp.h"
#include "command_line.h"
#include "graph_argument.h"

namespace {

using namespace dd::graph;
using dd::tools::Args;
using dd::tools::get_u64;
namespace sssp = dd::sssp;

constexpr const char *kUsage = R"(usage: dd-sssp --algo=A --src=S [options] GRAPH

Single-source shortest paths from S on the GPU, timed, optionally verified.

Algorithms (--algo=A; see docs/sssp.md):
  adds         ADDS (dissertation chapter 5): asynchronous delta-stepping over
               32 buckets in one persistent launch, a manager block handing
               out work and setting delta at run time
  nearfar      near-far (LonestarGPU's GPU SSSP): near and far piles,
               delta = 32 * mean weight / mean degree
  bf-worklist  data-driven Bellman-Ford: a worklist of the vertices improved
               in the last launch, atomicMin, cooperative edge scans
  bf-topo      topology-driven atomic-free Bellman-Ford: one thread per edge,
               monotonic writes, rounds until nothing changes
  bfs          level-synchronous atomic-free BFS: prints levels (hop counts),
               ignores weights
  bfs-adds     asynchronous BFS: adds with weight 1 on every edge (levels,
               weights ignored); no launch per level, which is what bfs pays
               on graphs of large diameter (road networks, grids)
  dijkstra     the CPU reference (binary-heap Dijkstra), for comparison

Options:
  --algo=A           the algorithm (required)
  --src=S            the source vertex, a 0-based id (required)
  --out=FILE         write one line "id distance" per vertex, ids 0-based,
                     INF when unreachable ("-": standard output). Written
                     only when everything (--verify too) succeeded: a regular
                     file to a temporary name, renamed (keeping its mode,
                     owner and links), a device or FIFO through. It may not
                     be the GRAPH
  --verify           compare every distance with CPU Dijkstra (bfs, bfs-adds:
                     CPU BFS);
                     any difference is an error (status 1)
  --runs=N           time N runs and report the median (default 1); GPU
                     algorithms run once more before, untimed (warm-up)
  --format=F         auto (default), gr, dimacs, mtx, snap, edgelist
  --base=0|1         id of the first vertex in edge lists and SNAP files
                     (default 0; DIMACS and Matrix Market are 1-based)
  --max-input-bytes=N
                     the most bytes read from a GRAPH that is not a regular
                     file (a pipe, a FIFO, a device; default 4 GiB)
  --symmetrize       add the reverse of every edge (undirected edge lists)
  --weight-seed=S    graphs without weights get int32 weights uniform in
                     [1, 255] from this seed (default 1), as
                     `dd-graph ... --weights=random` makes them: the weight
                     is a function of the pair {u, v}
  --adds-delta=D     adds, bfs-adds: a fixed bucket width (rounded up to a
                     power of 2) instead of the run-time choice
  --adds-pool=B      adds, bfs-adds: data blocks of 64K items in the worklist
                     pool (default: enough for |E| + |V| items in flight;
                     <= 8192)
  --adds-workers=W   adds, bfs-adds: at most W worker blocks (default: all
                     that fit)
  --adds-precheck=P  adds, bfs-adds: auto, on or off: whether a relaxation loads the
                     target's distance before its atomic (auto: by degree,
                     hubs and L2 size, as docs/sssp.md says)
  --nearfar-steps=S  nearfar: auto, host or device: a launch per step with the
                     host reading the piles' sizes in between (host), or the
                     whole search in one cooperative launch whose grid waits
                     for itself between steps, sized to what fits the GPU at
                     once (device: graphs with every out-degree below 4096);
                     auto (default): device where it can run
  --nearfar-delta=D  nearfar: this bucket width instead of
                     32 * mean weight / mean out-degree (4 times that on
                     road-like graphs: mean out-degree below 8)
  --lb=S             nearfar, bf-worklist, adds, bfs-adds, bfs: how each
                     frontier's edges are spread over threads (docs/sssp.md,
                     "Load balancing"):
                       twc     a vertex's edges to the block, a warp or its
                               own thread by degree (Merrill et al.)
                       warp    groups of lanes take their lanes' vertices in
                               turn, the group the mean degree rounded up to
                               4, 8, 16 or 32 lanes (warp4 ... warp32: that
                               group)
                       scan    a warp prefix sum of the degrees, 32 edges a
                               round
                       search  the whole grid in equal shares, a binary
                               search per edge (nearfar with host steps and
                               bf-worklist only)
                       flat-scan  adds, bfs-adds: ADDS's own warp scan,
                               4 edges a lane in flight
                       auto    (default) chosen from the degrees:
                               nearfar: scan where its steps run in one
                               launch (no vertex of 4096 edges or more),
                               else search; bf-worklist: scan on road-like
                               graphs, else search; adds, bfs-adds: scan on
                               road-like graphs, else ADDS's own warp scan
                               with 4 edges a lane in flight (flat-scan);
                               bfs: scan on graphs with neither hubs nor
                               road-like degrees, else twc. In adds and
                               bfs-adds, hubs (512 edges or more) go to the
                               block with every strategy but twc
  --bfs-direction=D  bfs: auto (default) or top-down. auto: Beamer's
                     direction-optimizing switch on graphs of mean
                     out-degree 8 or more (bottom-up steps, each unvisited
                     vertex looking for a parent among its in-neighbours,
                     while the frontier's edges exceed the unexplored ones
                     / 14; the in-edges are uploaded too); every level
                     top-down on the others
  --help             this text

Weights must be integers: a graph with float weights is an error (except for
bfs and bfs-adds, which ignore weights). Distances are computed in uint32 when
(|V| - 1) * max weight < 2^32 - 1, else in uint64.

Standard error gets one line of key=value results:
  ms          GPU time of one run (the median), by CUDA events, from the
              first launch to the end of the last, including the reads of
              worklist sizes between launches, excluding the graph's upload
              (dijkstra: CPU time)
  mteps       traversed / ms / 1000 (Graph500's TEPS: each edge of the
              searched component counted once)
  vertices    |V|; edges: |E|
  reached     vertices the source reaches; traversed: their out-edges
  launches    kernel launches of the main loop (nearfar with device steps:
              its steps and splits, all in one launch)
  processed   vertices whose out-edges were scanned, summed over launches
              (|V| per launch for bf-topo and bfs; reached for dijkstra)
  delta       near-far's bucket width; adds: the width at the end (0 for
              the others)
  bottom_up   bfs: levels stepped bottom-up
--algo=adds and bfs-adds add a second line, "dd-sssp: adds: ...": workers (worker
blocks), pool (data blocks), items (worklist entries handed out; processed
counts the expanded ones), switches (head bucket moves), delta_changes,
dequeue (most concurrent dequeue buckets used).
  distances   uint32 or uint64
)";

int fail(const std::string &message) {
  std::fprintf(stderr, "dd-sssp: error: %s\n", message.c_str());
  return 1;
}

// ---- command line --------------------------------------------------------

const std::set<std::string> kValueOptions = {
    "algo", "src", "out", "runs", "format", "base", "weight-seed", "max-input-bytes",
    "adds-delta", "adds-pool", "adds-workers",
                                 "adds-precheck", "nearfar-steps", "nearfar-delta", "lb",
                                 "bfs-direction"};
const std::set<std::string> kFlagOptions = {"verify", "symmetrize", "help"};


// ---- running -------------------------------------------------------------

enum class Algo { kAdds, kNearFar, kBfWorklist, kBfTopo, kBfs, kBfsAdds, kDijkstra };

// Levels (hop counts), checked against CPU BFS, weights ignored.
bool is_bfs(Algo algo) { return algo == Algo::kBfs || algo == Algo::kBfsAdds; }
// Runs the ADDS worklist (and takes its options).
bool is_adds(Algo algo) { return algo == Algo::kAdds || algo == Algo::kBfsAdds; }

// The values of --algo.
const dd::tools::Choice<Algo> kAlgos[] = {
    {"adds", Algo::kAdds}, {"nearfar", Algo::kNearFar}, {"bf-worklist", Algo::kBfWorklist},
    {"bf-topo", Algo::kBfTopo}, {"bfs", Algo::kBfs}, {"bfs-adds", Algo::kBfsAdds},
    {"dijkstra", Algo::kDijkstra}};

// One run of `algo` (the graph is on the device unless algo is dijkstra).
Expected<sssp::Result> run_once(Algo algo, const Csr &csr, const sssp::DeviceGraph &device,
                                VertexId source, const sssp::AddsOptions &adds,
                                const sssp::NearFarOptions &nearfar,
                                const sssp::BfsOptions &bfs_options) {
  // bf-worklist spreads its frontiers' edges as near-far does (--lb).
  switch (algo) {
  case Algo::kAdds:
  case Algo::kBfsAdds: // the device graph has unit weights
    return sssp::adds(device, source, adds);
  case Algo::kNearFar:
    return sssp::nearfar(device, source, nearfar);
  case Algo::kBfWorklist:
    return sssp::bf_worklist(device, source, nearfar.lb);
  case Algo::kBfTopo:
    return sssp::bf_topo(device, source);
  case Algo::kBfs:
    return sssp::bfs(device, source, bfs_options);
  case Algo::kDijkstra:
    break;
  }
  const auto start = std::chrono::steady_clock::now();
  Expected<std::vector<std::uint64_t>> distances = dijkstra(csr, source);
  const auto stop = std::chrono::steady_clock::now();
  if (!distances.ok())
    return distances.status();
  sssp::Result result;
  result.values = std::move(*distances);
  result.ms = std::chrono::duration<double, std::milli>(stop - start).count();
  result.wide_distances = true;
  for (const std::uint64_t d : result.values)
    result.processed += d != kInfDistance;
  return result;
}

// The CPU reference for `algo`, widened to uint64 with kInfDistance.
Expected<std::vector<std::uint64_t>> reference(Algo algo, const Csr &csr, VertexId source) {
  if (!is_bfs(algo))
    return dijkstra(csr, source);
  Expected<std::vector<std::uint32_t>> levels = bfs(csr, source);
  if (!levels.ok())
    return levels.status();
  std::vector<std::uint64_t> wide(levels->size());
  for (std::size_t v = 0; v < wide.size(); ++v)
    wide[v] = (*levels)[v] == kUnreachedLevel ? kInfDistance : (*levels)[v];
  return wide;
}

// Compares with the reference; a message naming the first differences.
std::optional<std::string> verify(Algo algo, const Csr &csr, VertexId source,
                                  const std::vector<std::uint64_t> &got) {
  Expected<std::vector<std::uint64_t>> want = reference(algo, csr, source);
  if (!want.ok())
    return want.status().message();
  const auto show = [](std::uint64_t d) {
    return d == kInfDistance ? std::string("INF") : std::to_string(d);
  };
  std::uint64_t wrong = 0;
  std::string examples;
  for (std::size_t v = 0; v < got.size(); ++v) {
    if (got[v] == (*want)[v])
      continue;
    if (++wrong <= 3)
      examples += str_cat(wrong > 1 ? "; " : "", "vertex ", v, " has ", show(got[v]),
                          ", expected ", show((*want)[v]));
  }
  if (wrong == 0)
    return std::nullopt;
  return str_cat("verification failed: ", wrong, " of ", got.size(), " values differ from CPU ",
                 is_bfs(algo) ? "BFS" : "Dijkstra", " (", examples, ")");
}

std::string format_values(const std::vector<std::uint64_t> &values) {
  std::string out;
  out.reserve(values.size() * 12);
  char buf[48];
  for (std::size_t v = 0; v < values.size(); ++v) {
    char *p = std::to_chars(buf, buf + 20, std::uint64_t(v)).ptr;
    *p++ = ' ';
    if (values[v] == kInfDistance) {
      *p++ = 'I';
      *p++ = 'N';
      *p++ = 'F';
    } else {
      p = std::to_chars(p, buf + sizeof buf - 1, values[v]).ptr;
    }
    *p++ = '\n';
    out.append(buf, std::size_t(p - buf));
  }
  return out;
}

int main_impl(int argc, char **argv) {
  Args args;
  Algo algo{};
  if (std::optional<int> status = dd::tools::open_command("dd-sssp", argc, argv, kUsage,
                                                          kValueOptions, kFlagOptions, kAlgos,
                                                          args, algo))
    return *status;
  const std::string &algo_name = args.values.at("algo");
  if (args.values.count("src") == 0)
    return fail("--src is required");
  std::uint64_t source = 0, runs = 1, base = 0, weight_seed = 1;
  std::uint64_t max_input_bytes = kDefaultMaxStreamBytes;
  std::uint64_t adds_delta = 0, adds_pool = 0, adds_workers = 0, nearfar_delta = 0;
  for (auto problem : {get_u64(args, "adds-delta", 1, std::uint64_t(1) << 62, adds_delta),
                       get_u64(args, "nearfar-delta", 1, std::uint64_t(1) << 62, nearfar_delta),
                       get_u64(args, "adds-pool", 128, 8192, adds_pool),
                       get_u64(args, "adds-workers", 1, 1024, adds_workers),
                       get_u64(args, "src", 0, kMaxVertices - 1, source),
                       get_u64(args, "runs", 1, 1000, runs), get_u64(args, "base", 0, 1, base),
                       get_u64(args, "weight-seed", 0, ~std::uint64_t{0}, weight_seed),
                       get_u64(args, "max-input-bytes", 0, ~std::uint64_t{0}, max_input_bytes)})
    if (problem)
      return fail(*problem);
  sssp::AddsOptions adds;
  constexpr dd::tools::Choice<sssp::AddsOptions::Precheck> kPrechecks[] = {
      {"auto", sssp::AddsOptions::Precheck::kAuto},
      {"on", sssp::AddsOptions::Precheck::kOn},
      {"off", sssp::AddsOptions::Precheck::kOff}};
  if (args.values.count("adds-precheck"))
    if (auto problem = dd::tools::choose(args, "adds-precheck", kPrechecks, adds.precheck))
      return fail(*problem);
  sssp::NearFarOptions nearfar;
  constexpr dd::tools::Choice<sssp::NearFarOptions::Steps> kSteps[] = {
      {"auto", sssp::NearFarOptions::Steps::kAuto},
      {"host", sssp::NearFarOptions::Steps::kHost},
      {"device", sssp::NearFarOptions::Steps::kDevice}};
  nearfar.delta = nearfar_delta;
  if (args.values.count("nearfar-delta") && algo != Algo::kNearFar)
    return fail("--nearfar-delta applies to --algo=nearfar only");
  if (args.values.count("nearfar-steps")) {
    if (algo != Algo::kNearFar)
      return fail("--nearfar-steps applies to --algo=nearfar only");
    if (auto problem = dd::tools::choose(args, "nearfar-steps", kSteps, nearfar.steps))
      return fail(*problem);
  }
  constexpr dd::tools::Choice<sssp::LoadBalance> kBalances[] = {
      {"auto", {sssp::LoadBalance::Strategy::kAuto, 0}},
      {"twc", {sssp::LoadBalance::Strategy::kTwc, 0}},
      {"warp", {sssp::LoadBalance::Strategy::kWarpShuffle, 0}},
      {"warp4", {sssp::LoadBalance::Strategy::kWarpShuffle, 4}},
      {"warp8", {sssp::LoadBalance::Strategy::kWarpShuffle, 8}},
      {"warp16", {sssp::LoadBalance::Strategy::kWarpShuffle, 16}},
      {"warp32", {sssp::LoadBalance::Strategy::kWarpShuffle, 32}},
      {"scan", {sssp::LoadBalance::Strategy::kWarpScan, 0}},
      {"search", {sssp::LoadBalance::Strategy::kSearch, 0}},
      {"flat-scan", {sssp::LoadBalance::Strategy::kFlatScan, 0}}};
  if (args.values.count("lb")) {
    if (algo == Algo::kBfTopo || algo == Algo::kDijkstra)
      return fail("--lb applies to --algo=nearfar, bf-worklist, adds, bfs-adds and bfs only");
    if (auto problem = dd::tools::choose(args, "lb", kBalances, nearfar.lb))
      return fail(*problem);
    if (nearfar.lb.strategy == sssp::LoadBalance::Strategy::kSearch &&
        nearfar.steps == sssp::NearFarOptions::Steps::kDevice)
      return fail("--lb=search needs host steps (its prefix sum is a launch of its own), not "
                  "--nearfar-steps=device");
    if (nearfar.lb.strategy == sssp::LoadBalance::Strategy::kSearch &&
        (algo == Algo::kAdds || algo == Algo::kBfsAdds || algo == Algo::kBfs))
      return fail(str_cat("--lb=search needs a frontier's prefix sum between steps, which ",
                          algo == Algo::kBfs ? "bfs (topology-driven levels)" : "ADDS (asynchronous workers)",
                          " has not (--lb: auto, ", algo == Algo::kBfs ? "" : "flat-scan, ",
                          "twc, warp, warp4 ... warp32 or scan)"));
    if (nearfar.lb.strategy == sssp::LoadBalance::Strategy::kFlatScan && algo != Algo::kAdds &&
        algo != Algo::kBfsAdds)
      return fail("--lb=flat-scan is ADDS's own expansion: --algo=adds and bfs-adds only");
    adds.lb = nearfar.lb;
  }
  sssp::BfsOptions bfs_options;
  bfs_options.lb = nearfar.lb; // --lb, or auto
  constexpr dd::tools::Choice<sssp::BfsOptions::Direction> kDirections[] = {
      {"auto", sssp::BfsOptions::Direction::kAuto},
      {"top-down", sssp::BfsOptions::Direction::kTopDown}};
  if (args.values.count("bfs-direction")) {
    if (algo != Algo::kBfs)
      return fail("--bfs-direction applies to --algo=bfs only");
    if (auto problem = dd::tools::choose(args, "bfs-direction", kDirections, bfs_options.direction))
      return fail(*problem);
  }
  for (const char *option : {"adds-delta", "adds-pool", "adds-workers", "adds-precheck"})
    if (!is_adds(algo) && args.values.count(option))
      return fail(str_cat("--", option, " applies to --algo=adds and bfs-adds only"));
  std::string path;
  Csr csr;
  if (auto problem = dd::tools::read_graph_argument(args, "dd-sssp", base, max_input_bytes, path, csr))
    return fail(*problem);
  if (source >= csr.num_vertices())
    return fail(str_cat(path, ": source vertex ", source, " is out of range (",
                        csr.num_vertices(), " vertices)"));
  const bool weighted = !is_bfs(algo);
  if (weighted && csr.weight_type == WeightType::kFloat32)
    return fail(path + ": the graph has float weights; dd-sssp computes with integer weights "
                       "only (bfs and bfs-adds ignore weights)");
  if (weighted && csr.weight_type == WeightType::kNone) {
    WeightOptions w; // [1, 255], as dd-graph's random weights
    w.seed = weight_seed;
    w.symmetric = true;
    if (Status s = assign_uniform_weights(csr, w); !s.ok())
      return fail(s.message());
  }

  sssp::DeviceGraph device;
  if (algo != Algo::kDijkstra) {
    int devices = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&devices); err != cudaSuccess || devices == 0)
      return fail(str_cat("no CUDA GPU for --algo=", algo_name, ": ",
                          err != cudaSuccess ? cudaGetErrorString(err) : "no device",
                          " (--algo=dijkstra runs on the CPU)"));
    sssp::DeviceGraph::Parts parts;
    parts.weights = weighted;
    parts.edge_sources = algo == Algo::kBfTopo;
    parts.unit_weights = algo == Algo::kBfsAdds;
    // Bottom-up steps need the in-edges; road-like graphs never take them.
    parts.in_edges = algo == Algo::kBfs &&
                     bfs_options.direction == sssp::BfsOptions::Direction::kAuto &&
                     csr.num_edges() >= 8 * csr.num_vertices();
    if (Status s = device.upload(csr, parts); !s.ok())
      return fail(path + ": " + s.message());
  }

  adds.delta = adds_delta;
  adds.pool_blocks = std::uint32_t(adds_pool);
  adds.max_workers = std::uint32_t(adds_workers);

  // Warm-up (GPU only: module loading and first-touch costs), then the runs.
  std::vector<double> times;
  Expected<sssp::Result> result = Status::error("no run");
  for (std::uint64_t i = (algo == Algo::kDijkstra ? 1 : 0); i <= runs; ++i) {
    result = run_once(algo, csr, device, VertexId(source), adds, nearfar, bfs_options);
    if (!result.ok())
      return fail(result.status().message());
    if (i > 0)
      times.push_back(result->ms);
  }
  const double ms = dd::tools::median(times);
  const std::vector<std::uint64_t> &values = result->values;

  std::uint64_t reached = 0, traversed = 0;
  for (std::size_t v = 0; v < values.size(); ++v)
    if (values[v] != kInfDistance) {
      ++reached;
      traversed += csr.degree(VertexId(v));
    }
  char mteps[32] = "n/a";
  if (ms > 0)
    std::snprintf(mteps, sizeof mteps, "%.1f", double(traversed) / ms / 1000.0);
  std::fprintf(stderr,
               "dd-sssp: algo=%s src=%llu ms=%.3f runs=%llu mteps=%s vertices=%llu edges=%llu "
               "reached=%llu traversed=%llu launches=%llu processed=%llu delta=%llu "
               "distances=%s%s%s%s\n",
               algo_name.c_str(), (unsigned long long)source, ms,
               (unsigned long long)runs, mteps, (unsigned long long)csr.num_vertices(),
               (unsigned long long)csr.num_edges(), (unsigned long long)reached,
               (unsigned long long)traversed,
               (unsigned long long)result->launches, (unsigned long long)result->processed,
               (unsigned long long)result->delta, result->wide_distances ? "uint64" : "uint32",
               result->lb.empty() ? "" : " lb=", result->lb.c_str(),
               algo == Algo::kBfs ? str_cat(" bottom_up=", result->bottom_up_steps).c_str() : "");
  if (is_adds(algo))
    std::fprintf(stderr, "dd-sssp: adds: workers=%u pool=%u items=%llu assignments=%llu "
                         "wait=%.1f%% switches=%llu delta_changes=%llu dequeue=%u setup_ms=%.3f "
                         "kernel_ms=%.3f run_ms=%.3f first_assignment_ms=%.3f\n",
                 result->adds.workers, result->adds.pool_blocks,
                 (unsigned long long)result->adds.items,
                 (unsigned long long)result->adds.assignments, result->adds.wait_percent,
                 (unsigned long long)result->adds.head_switches,
                 (unsigned long long)result->adds.delta_changes,
                 result->adds.max_dequeue_buckets, result->adds.setup_ms, result->adds.kernel_ms,
                 result->adds.run_ms, result->adds.first_assignment_ms);

  if (args.flags.count("verify")) {
    if (auto problem = verify(algo, csr, VertexId(source), values))
      return fail(*problem);
    std::fprintf(stderr, "dd-sssp: verified: %zu values equal CPU %s\n", values.size(),
                 is_bfs(algo) ? "BFS" : "Dijkstra");
  }

  if (auto it = args.values.find("out"); it != args.values.end()) {
    const std::string text = format_values(values);
    if (it->second == "-") {
      if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
          std::fflush(stdout) != 0)
        return fail("cannot write to standard output");
    } else if (Status s = write_file(it->second, text); !s.ok()) {
      return fail(s.message());
    }
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  dd::tools::exit_when_out_of_memory("dd-sssp");
  return main_impl(argc, argv);
}
