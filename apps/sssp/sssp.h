// GPU single-source shortest paths and BFS: the baselines ADDS is measured
// against (docs/sssp.md).
//
//   dd::sssp::DeviceGraph g;
//   if (Status s = g.upload(csr, {/*weights=*/true, /*edge_sources=*/false}); !s.ok()) ...
//   Expected<Result> r = dd::sssp::nearfar(g, source);
//   r->values[v]                    // distance, kInfDistance when unreachable
//
// Every algorithm runs on the GPU with 32-bit vertex ids and edge indices and
// non-negative integer weights. Distances are uint32 when no shortest path
// can reach 2^32 - 1 (that is, (|V| - 1) * max weight < 2^32 - 1, since a
// shortest path is simple), else uint64; results are returned as uint64
// either way. Each call allocates its own working memory, so calls are
// independent and may be repeated (warm-up, timing).
//
// Plain C++17 (no CUDA types), so the command and tests can include it.
#ifndef DD_SSSP_SSSP_H
#define DD_SSSP_SSSP_H

#include <cstdint>
#include <string>
#include <vector>

#include "graph/csr.h"
#include "graph/errors.h"

namespace dd::sssp {

using graph::Expected;
using graph::Status;
using graph::VertexId;

/// What an algorithm returns.
struct Result {
  /// One value per vertex: the distance (SSSP) or the level (BFS);
  /// graph::kInfDistance when the source does not reach the vertex.
  std::vector<std::uint64_t> values;
  /// GPU time in milliseconds, by CUDA events, from the first launch (the
  /// distance initialisation) to the end of the last; it includes the host's
  /// reads of worklist sizes between launches, and excludes allocation, the
  /// graph upload and the copy of the result back.
  double ms = 0;
  /// Kernel launches of the main loop (rounds, iterations, levels, splits).
  std::uint64_t launches = 0;
  /// Vertices whose out-edges were scanned, summed over launches: worklist
  /// items for the data-driven algorithms, |V| per round for the
  /// topology-driven ones. Dijkstra scans each reached vertex once.
  std::uint64_t processed = 0;
  /// Near-far's bucket width; ADDS's at the end (0 for the others).
  std::uint64_t delta = 0;
  /// Whether distances were computed in 64 bits.
  bool wide_distances = false;
  /// The load-balancing strategy that ran (load_balance_name; empty for
  /// the algorithms without one).
  std::string lb;
  /// bfs: levels stepped bottom-up (the others top-down).
  std::uint64_t bottom_up_steps = 0;
  /// What ADDS's manager reports (zero for the other algorithms).
  struct Adds {
    std::uint32_t workers = 0;      ///< worker blocks (the grid less the manager)
    std::uint32_t pool_blocks = 0;  ///< data blocks of 64K items in the pool
    std::uint64_t head_switches = 0;
    std::uint64_t delta_changes = 0;
    std::uint32_t max_dequeue_buckets = 0;
    /// Worklist items handed out; `processed` counts those expanded (an
    /// item whose vertex was already expanded with its distance is not).
    std::uint64_t items = 0;
    std::uint64_t assignments = 0; ///< trips of a worker to the manager
    /// Time workers spent waiting for an assignment, in percent of
    /// workers x run time (the run's GPU time, initialization included).
    double wait_percent = 0;
    /// Where `ms` goes: the set-up before the launch (distances, worklist),
    /// the launch to the kernel's end (CUDA events), and within the kernel
    /// the manager's run and its first assignment (from its start; %globaltimer).
    double setup_ms = 0;
    double kernel_ms = 0;
    double run_ms = 0;
    double first_assignment_ms = 0;
  } adds;
};

/// How ADDS runs; zero means "choose" for every field.
/// How a traversal (near-far, bf-worklist, ADDS, BFS) spreads each
/// frontier's edges over threads: the strategies of <dd/load_balance.cuh>
/// (docs/sssp.md, "Load balancing").
struct LoadBalance {
  enum class Strategy {
    kAuto,        ///< kWarpScan on road-like graphs, else kSearch
    kTwc,         ///< dd::lb::ThreadWarpBlock: block, warp, thread stages
    kWarpShuffle, ///< dd::lb::WarpShuffle: groups of `group` lanes per vertex
    kWarpScan,    ///< dd::lb::WarpScan: a warp prefix sum, 32 edges a round
    kSearch,      ///< dd::lb::DeviceSearch: the grid, a search per edge
    kFlatScan,    ///< ADDS only: its own warp scan, 4 edges a lane in flight
  } strategy = Strategy::kAuto;
  /// kWarpShuffle's group: 4, 8, 16 or 32 lanes; 0 picks the smallest
  /// of them at least the mean out-degree.
  unsigned group = 0;
};

struct AddsOptions {
  /// A fixed bucket width (rounded up to a power of 2); 0: start at
  /// near-far's delta and let the manager adjust it (section 5.7).
  std::uint64_t delta = 0;
  /// Data blocks of 64K items in the shared pool (at most 8192).
  std::uint32_t pool_blocks = 0;
  /// At most this many worker blocks (tests of small grids).
  std::uint32_t max_workers = 0;
  /// Whether a relaxation loads the head's distance before its atomic
  /// (auto: by the graph's mean degree).
  enum class Precheck { kAuto, kOn, kOff } precheck = Precheck::kAuto;
  /// How a worker block spreads its vertices' edges. Hubs (512 edges or
  /// more) go to the block with every strategy but kTwc, and the rest:
  /// kAuto, kWarpScan on road-like graphs, else kFlatScan (ADDS's own
  /// warp scan that keeps 4 edges a lane in flight); kFlatScan, kTwc,
  /// kWarpShuffle or kWarpScan. Not kSearch: the workers never wait for each other, so no
  /// prefix sum spans a step.
  LoadBalance lb;
};

/// The graph in device memory (CSR with 32-bit offsets), owned. Move-only.
class DeviceGraph {
public:
  struct Parts {
    bool weights = true;       ///< upload the int32 weights (required for SSSP)
    bool edge_sources = false; ///< upload the source of every edge (COO; bf-topo)
    /// Weight 1 on every edge, whatever the graph's (BFS as shortest paths:
    /// bfs-adds). Excludes `weights`.
    bool unit_weights = false;
    /// The in-edges too, as a second CSR (the transpose: bfs's bottom-up
    /// steps look for a parent among a vertex's in-neighbours).
    bool in_edges = false;
  };

  DeviceGraph() = default;
  DeviceGraph(const DeviceGraph &) = delete;
  DeviceGraph &operator=(const DeviceGraph &) = delete;
  ~DeviceGraph();

  /// Copies `csr` to the device. Errors when the graph has 2^32 edges or
  /// more, when weights are asked for and it has no int32 weights, or on a
  /// CUDA failure (the message names the call); the object then holds no
  /// usable graph.
  Status upload(const graph::Csr &csr, Parts parts);

  std::uint32_t num_vertices() const { return num_vertices_; }
  std::uint32_t num_edges() const { return num_edges_; }
  std::uint32_t max_degree() const { return max_degree_; }
  /// Largest and mean weight (0 when uploaded without weights).
  std::uint32_t max_weight() const { return max_weight_; }
  double mean_weight() const { return mean_weight_; }
  /// Whether shortest distances may not fit in uint32 (see the file comment).
  bool needs_wide_distances() const;

  // Device pointers: num_vertices + 1 row offsets, num_edges destinations,
  // weights and sources (null when not uploaded).
  const std::uint32_t *row_offsets() const { return row_offsets_; }
  const std::uint32_t *col_indices() const { return col_indices_; }
  const std::uint32_t *weights() const { return weights_; }
  const std::uint32_t *edge_sources() const { return edge_sources_; }
  /// The transpose (null when uploaded without in_edges): num_vertices + 1
  /// offsets and num_edges sources, the in-edges of v at
  /// in_offsets()[v] .. in_offsets()[v + 1].
  const std::uint32_t *in_offsets() const { return in_offsets_; }
  const std::uint32_t *in_sources() const { return in_sources_; }

private:
  void release();

  std::uint32_t num_vertices_ = 0;
  std::uint32_t num_edges_ = 0;
  std::uint32_t max_degree_ = 0;
  std::uint32_t max_weight_ = 0;
  double mean_weight_ = 0;
  std::uint32_t *row_offsets_ = nullptr;
  std::uint32_t *col_indices_ = nullptr;
  std::uint32_t *weights_ = nullptr;
  std::uint32_t *edge_sources_ = nullptr;
  std::uint32_t *in_offsets_ = nullptr;
  std::uint32_t *in_sources_ = nullptr;
};

/// Whether `graph` is road-like: a mean out-degree below 8 (road networks,
/// meshes). Such graphs have little work per step, and what limits a
/// traversal is the latency of each step: ADDS, near-far and the load
/// balancing choose differently for them (docs/sssp.md).
bool road_like(const DeviceGraph &graph);

/// Whether `graph` is not road-like and has a vertex of more than 16 times
/// the mean out-degree (Kronecker graphs, wiki-Vote; not the uniform random
/// graphs): ADDS spills and prechecks, and bfs spreads edges, by it.
bool has_hubs(const DeviceGraph &graph);

/// The strategy `lb` resolves to on `graph` (never kAuto; a kWarpShuffle
/// with its group set), and its name as --lb spells it ("twc", "warp8",
/// "scan", "search").
LoadBalance resolve_load_balance(const DeviceGraph &graph, LoadBalance lb);
std::string load_balance_name(const LoadBalance &lb);
/// An error naming `algo` when `lb` is kFlatScan, which only ADDS runs.
Status check_not_flat_scan(const LoadBalance &lb, const char *algo);

/// Topology-driven, atomic-free Bellman-Ford: one thread per edge pushes
/// dist[u] + w to dist[v] with dd::monotonic_min, rounds repeat until one
/// changes nothing. Needs Parts::edge_sources.
Expected<Result> bf_topo(const DeviceGraph &graph, VertexId source);

/// Data-driven Bellman-Ford: a worklist of the vertices improved in the last
/// launch, atomicMin relaxations, edges spread over a warp, a block or the
/// grid by degree.
Expected<Result> bf_worklist(const DeviceGraph &graph, VertexId source,
                             LoadBalance lb = LoadBalance());

/// The constant c of near-far's bucket width delta = c * mean weight / mean
/// degree (Davidson et al.; the value the ADDS evaluation used for
/// LonestarGPU's near-far, dissertation section 5.8.2).
inline constexpr double kNearFarDeltaFactor = 32.0;

/// Near-far's delta for `graph`: kNearFarDeltaFactor * mean weight / mean
/// out-degree, rounded, at least 1 (also ADDS's first delta).
std::uint64_t nearfar_delta(const DeviceGraph &graph);

/// Near-far's own delta on road-like graphs is nearfar_delta times this.
/// Their thousands of steps each cost a grid barrier, and a wider bucket
/// takes fewer: on an H100 (docs/PERF.md, "Near-far's bucket width"),
/// grid1024 31.7 -> 27.6 ms and luxembourg 8.6 -> 7.5 ms at 4x (2.7x and
/// 1.2x the vertices expanded); 8x gained another 1-2%.
inline constexpr std::uint64_t kRoadDeltaScale = 4;

/// How near-far runs its steps.
struct NearFarOptions {
  /// kHost: a launch per relaxation step and per split, the host reading
  /// the piles' sizes in between; kDevice: the whole search in one
  /// cooperative launch, the grid synchronizing itself between steps
  /// (graphs without hubs only); kAuto: kDevice where it can run.
  enum class Steps { kAuto, kHost, kDevice } steps = Steps::kAuto;
  /// How each step's edges are spread (kSearch runs host steps: its prefix
  /// sum is a launch of its own).
  LoadBalance lb;
  /// The bucket width; 0: nearfar_delta(graph), times kRoadDeltaScale on
  /// road-like graphs.
  std::uint64_t delta = 0;
};

/// Near-far (Davidson et al., as in LonestarGPU): a near pile of vertices
/// below the current threshold, processed until empty, and a far pile split
/// at the next threshold, threshold += delta.
Expected<Result> nearfar(const DeviceGraph &graph, VertexId source,
                         NearFarOptions options = NearFarOptions());

/// ADDS (dissertation chapter 5): asynchronous delta-stepping over 32
/// buckets in one persistent launch; a manager block hands out the work,
/// moves the head bucket on and adjusts delta at run time.
Expected<Result> adds(const DeviceGraph &graph, VertexId source,
                      const AddsOptions &options = AddsOptions());

/// How bfs steps from one level to the next.
struct BfsOptions {
  enum class Direction {
    /// Beamer's direction-optimizing switch: top-down while the frontier's
    /// edges are few, bottom-up while they are many; needs the graph
    /// uploaded with in_edges (without them, and on road-like graphs,
    /// every level is top-down).
    kAuto,
    kTopDown, ///< every level top-down
  } direction = Direction::kAuto;
  /// How a top-down level spreads its vertices' edges: kAuto is kWarpScan
  /// on graphs that are neither road-like nor have hubs, else kTwc;
  /// kTwc, kWarpShuffle or kWarpScan. Not kSearch: the levels are
  /// topology-driven, with no frontier list to sum.
  LoadBalance lb;
};

/// Level-synchronous, topology-driven BFS. Top-down (Nasre et al.): each
/// level, every vertex of the current level writes level + 1 to its
/// unvisited neighbours with plain stores (a benign race: every writer
/// writes the same value). Bottom-up (Beamer et al.): every unvisited vertex
/// looks among its in-neighbours for one of the current level and stops at
/// the first. Weights are not needed.
Expected<Result> bfs(const DeviceGraph &graph, VertexId source,
                     BfsOptions options = BfsOptions());

} // namespace dd::sssp

#endif // DD_SSSP_SSSP_H
