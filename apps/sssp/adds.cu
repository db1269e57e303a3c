// ADDS (Wang, dissertation chapter 5): delta-stepping over the decoupled
// bucketed worklist of <dd/bucket_worklist.cuh>, in one persistent launch.
//
// Block 0 is the manager; every other block is a worker that takes an
// assignment of up to kAddsThreads vertices, relaxes their out-edges
// cooperatively (a hub is spread over the block by dd::lb::ThreadWarpBlock,
// the other vertices' edges over their warp by a warp scan: AddsOptions::lb)
// and pushes each vertex it improves
// with its new distance as the priority. No launch boundary or grid barrier
// separates the steps of the algorithm, which is what near-far pays for on
// high-diameter graphs (one launch and a host round trip per step).
//
// Duplicate entries. The dissertation pushes a vertex every time its
// distance falls and re-scans every entry. Here (VertexState) an
// improvement that finds an entry of the vertex already queued at the same
// or a higher priority pushes nothing, since that entry will expand the
// vertex with whatever its distance is when taken; and an entry whose vertex
// did not improve since it was last taken is skipped. Both are exact.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "dd/bucket_worklist.cuh"
#include "dd/load_balance/thread_warp_block.cuh"
#include "dd/load_balance/warp_scan.cuh"
#include "dd/load_balance/warp_shuffle.cuh"
#include "dd/warp_reduce.cuh"
#include "sssp/common.cuh"

namespace dd::sssp {
namespace {

/// Threads per block of the ADDS grid: 16 warps, enough for the manager's
/// roles (8 probe warps, assign, memory), and 512 items per assignment.
constexpr unsigned kAddsThreads = 512;
/// How much wider than near-far's the first bucket is on road-like graphs
/// of up to kRoadDeltaMaxVertices vertices (run()).
constexpr std::uint64_t kRoadDeltaScale = 4;
constexpr std::uint32_t kRoadDeltaMaxVertices = 1u << 22;

/// Blocks per SM the kernel is compiled for (64 registers a thread). 3 or
/// 4 (40 or 32 registers, with spills) were 5-25% slower on the H200 on
/// every graph tried (docs/PERF.md).
constexpr unsigned kAddsBlocksPerSm = 2;

/// The manager gives up after this long (a bug must not hang the GPU).
constexpr unsigned long long kDeadlineNs = 120ull * 1000 * 1000 * 1000;

/// Per-vertex state with 32-bit distances: one 64-bit word per vertex, the
/// distance in the high half and, in the low half, 1 + the distance with
/// which the vertex's newest entry was queued, or 0 when no entry is
/// pending. One atomic both improves a distance and tells whether an entry
/// is pending; one atomic both takes an entry (clears the pending half) and
/// reads the distance to expand with, so no improvement can fall between
/// the two.
struct PackedState {
  using Dist = unsigned;
  static constexpr unsigned long long kDistanceMask = 0xffffffff00000000ull;
  unsigned long long *word;

  __device__ __forceinline__ Dist distance(VertexId v) const {
    return Dist(load_relaxed(word[v]) >> 32);
  }
  /// Takes an entry of u: false when u did not improve since its last take
  /// (nothing to expand), else du is the distance to expand with.
  __device__ __forceinline__ bool take(VertexId u, Dist &du) const {
    const unsigned long long old = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(
                                       word[u]).fetch_and(kDistanceMask, cuda::memory_order_relaxed);
    du = Dist(old >> 32);
    return (old & ~kDistanceMask) != 0;
  }
  /// Offers c (< kInf) to v; true when v improved and needs a new entry:
  /// none is pending, or the pending one sits in a later bucket than c.
  /// The word's pending half becomes c + 1 either way, a priority no
  /// higher than the pending entry's, so later decisions stay safe. With
  /// `local` the caller keeps v in its block's queue whatever this returns
  /// (true: improved): the pending half then says "lowest priority", so
  /// that no other block waits for a block that may be busy with a hub.
  template <class Rank>
  __device__ __forceinline__ bool improve(VertexId v, Dist c, const Rank &rank,
                                          bool local = false) const {
    const unsigned long long desired =
        (static_cast<unsigned long long>(c) << 32) |
        (local ? ~kDistanceMask : static_cast<unsigned long long>(c) + 1);
    const unsigned long long old = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(
                                       word[v]).fetch_min(desired, cuda::memory_order_relaxed);
    if (c >= Dist(old >> 32))
      return false;
    const unsigned pending = unsigned(old);
    return local || pending == 0 || rank(pending - 1) > rank(c);
  }
};

/// Per-vertex state with 64-bit distances (no room to pack): the distance,
/// and the smallest distance the vertex was expanded with; every
/// improvement queues an entry, and an entry whose vertex was already
/// expanded with its current distance is skipped.
template <class D> struct PlainState {
  using Dist = D;
  Dist *dist;
  Dist *expanded;

  __device__ __forceinline__ Dist distance(VertexId v) const { return load_relaxed(dist[v]); }
  __device__ __forceinline__ bool take(VertexId u, Dist &du) const {
    du = load_relaxed(dist[u]);
    return du < cuda::atomic_ref<Dist, cuda::thread_scope_device>(expanded[u]).fetch_min(
                    du, cuda::memory_order_relaxed);
  }
  template <class Rank>
  __device__ __forceinline__ bool improve(VertexId v, Dist c, const Rank &,
                                          bool = false) const {
    return c < cuda::atomic_ref<Dist, cuda::thread_scope_device>(dist[v]).fetch_min(
                   c, cuda::memory_order_relaxed);
  }
};

/// Where an improved vertex goes: the block's own queue when its distance
/// falls no later than bucket offset `keep_through` and the queue has room
/// (see adds_kernel), else the worklist. In three steps, so that relax_flat
/// can overlap the atomics of several edges: place() picks a local slot (or
/// kGlobal), improve() offers the distance, finish() fills the slot (with
/// kNoVertex when nothing improved) or pushes.
template <class State, class Worker> struct KeepOrPush {
  using Dist = typename State::Dist;
  static constexpr unsigned kGlobal = ~0u;
  static constexpr VertexId kNoVertex = ~VertexId{0};
  const State &state;
  Worker &worker;
  VertexId *local;       // this round's output queue
  unsigned *local_count; // its fill count (may run past kAddsThreads)
  unsigned keep_through = 0; // bucket offset from the head, set each round

  __device__ __forceinline__ unsigned place(Dist c) const {
    if (worker.bucket_offset(c) > keep_through)
      return kGlobal;
    const unsigned slot = cuda::atomic_ref<unsigned, cuda::thread_scope_block>(*local_count)
                              .fetch_add(1, cuda::memory_order_relaxed);
    return slot < kAddsThreads ? slot : kGlobal;
  }
  __device__ __forceinline__ bool improve(VertexId v, Dist c, unsigned slot) const {
    return state.improve(v, c, [this](Dist d) { return worker.bucket_offset(d); },
                         slot != kGlobal);
  }
  __device__ __forceinline__ void finish(VertexId v, Dist c, unsigned slot, bool improved) const {
    if (slot != kGlobal)
      local[slot] = improved ? v : kNoVertex;
    else if (improved)
      worker.push(v, c);
  }
};

/// A warp's shared memory for relax_flat: its lanes' ranges as inclusive
/// prefix sums of their lengths, edge offsets and distances.
template <class Dist> struct FlatStorage {
  std::uint32_t inclusive[warp_size];
  std::uint32_t offset[warp_size]; // begin - exclusive prefix (mod 2^32)
  Dist du[warp_size];
};

/// Warp-collective (all 32 lanes): relaxes every lane's edges [begin, end)
/// (from its vertex at distance du) as one list spread over the warp, each
/// lane kBatch edges per step — the step's loads, then its atomics, then
/// its sinks — so a lane waits for a few memory round trips per step
/// instead of one chain per edge and vertex. Each improved head goes to
/// `sink(v, distance)` when it needs an entry (State::improve, ordered by
/// `rank`). With `precheck` a candidate no shorter than the head's distance
/// (a plain load) is dropped before its atomic.
template <class State, class Offer, class Dist = typename State::Dist>
__device__ __forceinline__ void relax_flat(const GraphView &g, const State &state, Dist du,
                                           std::uint32_t begin, std::uint32_t end,
                                           FlatStorage<Dist> &flat, Offer &offer_to,
                                           bool precheck) {
  constexpr unsigned kBatch = 4;
  const unsigned lane = lane_id();
  const std::uint32_t length = end - begin;
  const std::uint32_t inclusive = warp_inclusive_sum(length);
  const std::uint32_t total = __shfl_sync(full_warp_mask, inclusive, warp_size - 1);
  if (total == 0)
    return;
  __syncwarp(); // the previous call's reads of `flat` are over
  flat.inclusive[lane] = inclusive;
  flat.offset[lane] = begin - (inclusive - length);
  flat.du[lane] = du;
  __syncwarp();
  for (std::uint32_t base = 0; base < total; base += warp_size * kBatch) {
    VertexId v[kBatch];
    Dist candidate[kBatch];
    bool offer[kBatch];
#pragma unroll
    for (unsigned j = 0; j < kBatch; ++j) {
      const std::uint32_t i = base + j * warp_size + lane;
      offer[j] = i < total;
      if (!offer[j])
        continue;
      // The owner: how many lanes' ranges end at or before i.
      unsigned owner = 0;
#pragma unroll
      for (unsigned step = warp_size / 2; step > 0; step /= 2)
        if (flat.inclusive[owner + step - 1] <= i)
          owner += step;
      const std::uint32_t e = flat.offset[owner] + i;
      v[j] = __ldg(&g.col_indices[e]);
      offer[j] = add_distance(flat.du[owner], __ldg(&g.weights[e]), candidate[j]);
    }
    if (precheck) {
#pragma unroll
      for (unsigned j = 0; j < kBatch; ++j)
        if (offer[j])
          offer[j] = candidate[j] < state.distance(v[j]);
    }
    unsigned slot[kBatch];
#pragma unroll
    for (unsigned j = 0; j < kBatch; ++j)
      slot[j] = offer[j] ? offer_to.place(candidate[j]) : Offer::kGlobal;
#pragma unroll
    for (unsigned j = 0; j < kBatch; ++j)
      if (offer[j])
        offer[j] = offer_to.improve(v[j], candidate[j], slot[j]);
#pragma unroll
    for (unsigned j = 0; j < kBatch; ++j)
      if (offer[j] || slot[j] != Offer::kGlobal)
        offer_to.finish(v[j], candidate[j], slot[j], offer[j]);
  }
}

/// The expansion ADDS runs by default (--lb=auto) on graphs that are not
/// road-like: hubs by the block (Expand's block stage), every other range
/// by relax_flat, a warp scan that keeps kBatch edges a lane in flight
/// (reported as lb=flat-scan). As the `Small` argument of adds_kernel; the
/// others are the strategies of <dd/load_balance.cuh>.
struct FlatScan {
  struct TempStorage {};
};

template <class State, class Small>
__global__ void __launch_bounds__(kAddsThreads, kAddsBlocksPerSm)
    adds_kernel(GraphView g, State state, unsigned long long *expansions,
                buckets::Storage storage, buckets::Params params, bool precheck,
                bool keep_assigned, unsigned spill_at) {
  using Dist = typename State::Dist;
  using Expand = lb::ThreadWarpBlock<kAddsThreads, Dist>;
  // twc: Expand takes every range (its block, warp and thread stages);
  // otherwise hubs go to Expand's block stage and the rest to Small.
  constexpr bool kTwcOnly = std::is_same_v<Small, Expand>;
  using Manager = buckets::Manager<kAddsThreads>;
  using Worker = buckets::Worker<kAddsThreads>;
  __shared__ union {
    typename Manager::TempStorage manager;
    struct {
      typename Worker::TempStorage worklist;
      typename Expand::TempStorage expand;
      typename Small::TempStorage small;
      VertexId local[2][kAddsThreads]; // this block's head-bucket queue, in and out
      unsigned local_count[2];
      FlatStorage<Dist> flat[kAddsThreads / warp_size];
    } worker;
  } temp;
  if (blockIdx.x == 0) {
    Manager(storage, temp.manager, params).run();
    return;
  }
  Worker worker(storage, temp.worker.worklist, blockIdx.x - 1);
  // An improved vertex that falls in the head bucket goes to this block's
  // own queue (up to kAddsThreads a round) and is expanded in another round
  // of the same assignment, without the trip through the worklist and the
  // manager that every other push takes: on a road network that trip is
  // most of a hop's latency. With `keep_assigned` the block keeps every
  // vertex up to its assignment's bucket, which may be the second dequeue
  // bucket: otherwise each hop of that bucket's search takes the trip until
  // the head moves on. The assignment is counted done only after its last
  // round, so termination and head switches still see these items.
  using Offer = KeepOrPush<State, Worker>;
  // Items spread over the warps: an assignment is min_grain items a warp,
  // a local round often a few dozen. Given to threads 0..count-1, on
  // wiki-Vote assignments of 64 items filled 2 of the 16 warps, and local
  // rounds of 20 vertices of a few hundred edges each took 5-25 us on one.
  const unsigned item_index = spread_item_index<kAddsThreads>();
  buckets::Assignment a;
  unsigned long long scanned = 0; // thread 0: edge lists this block scanned
  while (worker.next(a)) {
    worker.load_placement(); // published by the barrier below
    unsigned count = a.count, in = 0;
    for (bool from_pool = true;; from_pool = false) {
      const unsigned out = in ^ 1;
      if (threadIdx.x == 0)
        temp.worker.local_count[out] = 0; // published by the barrier below
      std::uint32_t begin = 0, end = 0;
      Dist du = 0;
      bool expand = false;
      Offer offer{state, worker, temp.worker.local[out], &temp.worker.local_count[out]};
      // A local slot holds kNoVertex when its offer improved nothing.
      const VertexId u =
          item_index >= count ? Offer::kNoVertex
          : from_pool         ? worker.item(a, item_index)
                              : temp.worker.local[in][item_index];
      if (u != Offer::kNoVertex) {
        // The edge range is loaded alongside the take, not after it: on a
        // road network every hop of the search waits for this.
        begin = __ldg(&g.row_offsets[u]);
        end = __ldg(&g.row_offsets[u + 1]);
        expand = state.take(u, du);
        if (!expand)
          end = begin;
      }
      const unsigned expanding = __syncthreads_count(expand);
      if (threadIdx.x == 0)
        scanned += expanding;
      if (keep_assigned) // the placement is published by the barrier
        offer.keep_through = worker.offset_of(a.bucket);
      auto relax_edge = [&](Dist from, std::uint32_t e) {
        Dist candidate;
        if (!add_distance(from, __ldg(&g.weights[e]), candidate))
          return;
        const VertexId v = __ldg(&g.col_indices[e]);
        if (precheck && candidate >= state.distance(v))
          return;
        const unsigned slot = offer.place(candidate);
        offer.finish(v, candidate, slot, offer.improve(v, candidate, slot));
      };
      if constexpr (kTwcOnly) {
        Expand(temp.worker.expand).run(begin, end, du, relax_edge);
      } else {
        // Hubs (a block's worth of edges or more) are expanded by the
        // block, one after another; every other range by its warp.
        const bool hub = end - begin >= kAddsThreads;
        const std::uint32_t small_begin = begin, small_end = hub ? begin : end;
        if (!hub)
          end = begin;
        Expand(temp.worker.expand).run(begin, end, du, relax_edge);
        if constexpr (std::is_same_v<Small, FlatScan>)
          relax_flat(g, state, du, small_begin, small_end,
                     temp.worker.flat[threadIdx.x / warp_size], offer, precheck);
        else
          Small(temp.worker.small).run(small_begin, small_end, du, relax_edge);
      }
      __syncthreads();
      count = min(temp.worker.local_count[out], kAddsThreads);
      if (count == 0)
        break;
      // A queue of spill_at or more goes back to the worklist, for the
      // manager to spread over idle workers: on graphs with hubs one block
      // otherwise chains round after round of hub expansions while the
      // others wait (wiki-Vote's source block ran 10 rounds, 1288 items,
      // 200 of the run's 335 us, with 85% of the workers waiting). The
      // kept vertices' pending halves say "lowest priority" (PackedState),
      // so these entries are taken like any other.
      if (spill_at != 0 && count >= spill_at) {
        const VertexId v = threadIdx.x < count ? temp.worker.local[out][threadIdx.x]
                                               : Offer::kNoVertex;
        if (v != Offer::kNoVertex)
          worker.push(v, state.distance(v));
        break;
      }
      in = out;
    }
    worker.complete(a);
  }
  if (threadIdx.x == 0)
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*expansions)
        .fetch_add(scanned, cuda::memory_order_relaxed);
}

/// PackedState: every word (kInf, none pending), the source's (0, its seed
/// entry pending).
__global__ void init_packed(unsigned long long *word, std::uint32_t n, VertexId source) {
  for (std::uint64_t v = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; v < n;
       v += std::uint64_t(gridDim.x) * blockDim.x)
    word[v] = v == source ? 1ull : PackedState::kDistanceMask;
}
/// The distances of a PackedState.
__global__ void unpack_distances(const unsigned long long *word, unsigned *dist,
                                 std::uint32_t n) {
  for (std::uint64_t v = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; v < n;
       v += std::uint64_t(gridDim.x) * blockDim.x)
    dist[v] = unsigned(word[v] >> 32);
}

/// Whether a relaxation should load the target's distance before its
/// atomic (and skip the atomic when the candidate is no shorter). The load
/// is one more memory round trip on the path of every hop, which road-like
/// graphs wait for. Most relaxations of a high-degree graph improve
/// nothing, and the load saves their atomics where atomics are dear: when
/// hubs aim many edges at the same targets (atomics on one word
/// serialize, loads do not) or when the per-vertex words do not fit in L2.
/// Each case measured on the H200 (docs/PERF.md).
bool precheck_pays(const DeviceGraph &graph, std::uint64_t l2_bytes) {
  const std::uint64_t n = graph.num_vertices();
  if (n == 0 || road_like(graph))
    return false;
  const bool words_in_l2 = n * sizeof(unsigned long long) <= l2_bytes / 4;
  return has_hubs(graph) || !words_in_l2;
}

/// floor(log2(x)) for x >= 1.
unsigned log2_floor(std::uint64_t x) {
  unsigned r = 0;
  while (x >>= 1)
    ++r;
  return r;
}

template <class State>
using AddsKernel = void (*)(GraphView, State, unsigned long long *, buckets::Storage, buckets::Params,
                            bool, bool, unsigned);

/// The kernel that spreads edges as `balance` says (AddsOptions::lb; the
/// caller refused kSearch).
template <class State> AddsKernel<State> kernel_for(const LoadBalance &balance) {
  using Dist = typename State::Dist;
  using S = LoadBalance::Strategy;
  switch (balance.strategy) {
  case S::kTwc:
    return adds_kernel<State, lb::ThreadWarpBlock<kAddsThreads, Dist>>;
  case S::kWarpShuffle:
    switch (balance.group) {
    case 4:
      return adds_kernel<State, lb::WarpShuffle<4, Dist>>;
    case 8:
      return adds_kernel<State, lb::WarpShuffle<8, Dist>>;
    case 16:
      return adds_kernel<State, lb::WarpShuffle<16, Dist>>;
    default:
      return adds_kernel<State, lb::WarpShuffle<32, Dist>>;
    }
  case S::kWarpScan:
    return adds_kernel<State, lb::WarpScan<Dist>>;
  default:
    return adds_kernel<State, FlatScan>;
  }
}

template <class Dist>
Expected<Result> run(const DeviceGraph &graph, VertexId source, const AddsOptions &options) {
  using State = std::conditional_t<sizeof(Dist) == 4, PackedState, PlainState<Dist>>;
  if (options.lb.strategy == LoadBalance::Strategy::kSearch)
    return Status::error("ADDS cannot spread edges by the device-wide search: its workers never "
                         "wait for each other, so no prefix sum spans a step (--lb: auto, twc, "
                         "warp or scan)");
  // auto: the plain warp scan on road-like graphs (a vertex's two or three
  // edges gain nothing from relax_flat's batches, and its phases and shared
  // memory lengthen each hop), relax_flat elsewhere. Measured on an H100
  // (docs/PERF.md, "ADDS and bfs with each load-balancing strategy"): scan
  // against flat, luxembourg 3.08 / 3.54 ms, road20 10.88 / 11.75, grid1024
  // 10.56 / 10.69; flat against scan, urand20 3.06 / 3.32, urand18 1.57 /
  // 1.94, wiki-Vote 0.24 / 0.33; twc and warp slower than both everywhere.
  LoadBalance balance = options.lb;
  if (balance.strategy == LoadBalance::Strategy::kAuto)
    balance.strategy =
        road_like(graph) ? LoadBalance::Strategy::kWarpScan : LoadBalance::Strategy::kFlatScan;
  balance = resolve_load_balance(graph, balance); // sets a kWarpShuffle's group
  const AddsKernel<State> kernel = kernel_for<State>(balance);
  const std::uint32_t n = graph.num_vertices();
  int device = 0, sms = 0, per_sm = 0;
  DD_SSSP_CUDA(cudaGetDevice(&device));
  DD_SSSP_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int l2_bytes = 0;
  DD_SSSP_CUDA(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  DD_SSSP_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                             kAddsThreads, 0));
  // Every block must be resident (the manager and the workers wait on each
  // other): the grid is what fits, and the cooperative launch below fails
  // rather than deadlocks if that changed.
  unsigned grid = unsigned(sms) * unsigned(per_sm);
  if (options.max_workers > 0)
    grid = std::min(grid, options.max_workers + 1);
  grid = std::min(grid, buckets::kMaxWorkers + 1);
  if (per_sm < 1 || grid < 2)
    return Status::error("ADDS needs at least two resident blocks of " +
                         std::to_string(kAddsThreads) + " threads");
  const unsigned workers = grid - 1;

  // In flight at once: at most one entry per successful relaxation that is
  // not yet read, which stays well below |E| + |V| in practice.
  const unsigned pool_blocks =
      options.pool_blocks > 0
          ? options.pool_blocks
          : buckets::BucketWorklist::pool_blocks_for(std::uint64_t(graph.num_edges()) + n);
  DeviceArray<Dist> dist, expanded;     // PlainState; dist also unpacked into
  DeviceArray<unsigned long long> words; // PackedState
  DeviceArray<unsigned long long> expansions;
  buckets::BucketWorklist worklist;
  GpuTimer timer, launched;
  DD_SSSP_CUDA(dist.allocate(n));
  if constexpr (std::is_same_v<State, PackedState>)
    DD_SSSP_CUDA(words.allocate(n));
  else
    DD_SSSP_CUDA(expanded.allocate(n));
  DD_SSSP_CUDA(expansions.allocate(1));
  DD_SSSP_CUDA(worklist.allocate(pool_blocks, workers));
  DD_SSSP_CUDA(timer.create());
  DD_SSSP_CUDA(launched.create());
  unsigned init_blocks = 0;
  DD_SSSP_CUDA(resident_blocks(init_distances<Dist>, init_blocks));

  // Delta starts at near-far's c * w / d rounded to a power of 2 (section
  // 5.7) unless fixed; the manager moves it from there.
  buckets::Params params;
  // Road-like graphs of up to kRoadDeltaMaxVertices start from a bucket
  // kRoadDeltaScale times wider. Measured on an H100 (docs/PERF.md, "ADDS: a
  // wider first bucket on road-like graphs"): luxembourg 1.22x faster, the
  // 1024 grid 1.07-1.10x, bfs-adds 1.1-1.4x on both and on the 2048 grid;
  // adds on the 2048 grid the same, on the 4096 grid 4-11% slower.
  std::uint64_t delta =
      options.delta > 0 ? options.delta : std::max<std::uint64_t>(nearfar_delta(graph), 1);
  if (options.delta == 0 && road_like(graph) && n <= kRoadDeltaMaxVertices)
    delta *= kRoadDeltaScale;
  params.initial_shift = std::min(log2_floor(delta) + (delta & (delta - 1) ? 1 : 0), 62u);
  params.dynamic_delta = options.delta == 0;
  const double mean_degree = n > 0 ? double(graph.num_edges()) / n : 1;
  params.mean_degree = float(std::max(mean_degree, 1.0));
  // At least one edge per thread of a warp's items (section 5.4).
  unsigned grain = 1;
  while (grain < buckets::kMaxItemsPerWarp && grain * mean_degree < 32)
    grain *= 2;
  params.min_grain = grain;
  params.deadline_ns = kDeadlineNs;
  // Concurrent dequeue buckets made road-like graphs 15-25% slower (more
  // work redone, no more parallelism): one step at a time there.
  if (road_like(graph))
    params.max_dequeue = buckets::kMinDequeueBuckets;

  Result result;
  result.wide_distances = sizeof(Dist) > 4;
  result.launches = 1;
  result.lb = load_balance_name(balance);
  DD_SSSP_CUDA(timer.start());
  State state;
  if constexpr (std::is_same_v<State, PackedState>) {
    init_packed<<<blocks_for(n, init_blocks), kBlockThreads>>>(words.data(), n, source);
    state.word = words.data();
  } else {
    init_distances<Dist><<<blocks_for(n, init_blocks), kBlockThreads>>>(dist.data(), n, source);
    DD_SSSP_CUDA(cudaGetLastError());
    DD_SSSP_CUDA(cudaMemsetAsync(expanded.data(), 0xff, n * sizeof(Dist))); // kInf
    state.dist = dist.data();
    state.expanded = expanded.data();
  }
  DD_SSSP_CUDA(cudaGetLastError());
  DD_SSSP_CUDA(cudaMemsetAsync(expansions.data(), 0, sizeof(unsigned long long)));
  const unsigned seed = source;
  DD_SSSP_CUDA(worklist.seed(&seed, 1));
  GraphView g = view(graph);
  unsigned long long *expansions_ptr = expansions.data();
  buckets::Storage storage = worklist.storage();
  bool precheck = options.precheck == AddsOptions::Precheck::kOn ||
                  (options.precheck == AddsOptions::Precheck::kAuto &&
                   precheck_pays(graph, std::uint64_t(l2_bytes)));
  // Keeping vertices of the second dequeue bucket made the road-like
  // graphs 1.4-1.6x faster and urand20/22 1.6-2.9x slower (they dequeue up
  // to 4 buckets, and vertices expanded that early are expanded again:
  // 3.3x the work on urand22; docs/PERF.md).
  bool keep_assigned = road_like(graph);
  // Spilling half a block's queue made the graphs with hubs 1.2-1.6x
  // faster (kron20 5.5 -> 3.5 ms, wiki-Vote 0.45 -> 0.30), urand18/20
  // 1.1-1.5x slower and the road-like graphs 2.3-3.7x slower (each hop then
  // waits for the manager; docs/PERF.md): only where there are hubs.
  unsigned spill_at = has_hubs(graph) ? kAddsThreads / 2 : 0;
  void *args[] = {&g, &state, &expansions_ptr, &storage, &params, &precheck, &keep_assigned, &spill_at};
  DD_SSSP_CUDA(launched.start());
  DD_SSSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(kernel), grid, kAddsThreads, args, 0, 0));
  DD_SSSP_CUDA(timer.stop());
  DD_SSSP_CUDA(launched.stop());
  DD_SSSP_CUDA(timer.elapsed_ms(result.ms));
  DD_SSSP_CUDA(launched.elapsed_ms(result.adds.kernel_ms));
  result.adds.setup_ms = result.ms - result.adds.kernel_ms;

  unsigned status = 0;
  buckets::Stats stats{};
  DD_SSSP_CUDA(worklist.read(status, stats));
  switch (status) {
  case buckets::kFinished:
    break;
  case buckets::kPoolExhausted:
    return Status::error(graph::str_cat("ADDS: the worklist pool (", pool_blocks,
                                        " blocks of 64K items) ran out; rerun with a larger "
                                        "--adds-pool"));
  case buckets::kTimedOut:
    return Status::error("ADDS: no result after 120 s (internal error: the run was stopped)");
  default:
    return Status::error(graph::str_cat("ADDS: internal error: run ended in state ", status));
  }
  unsigned long long scanned = 0;
  DD_SSSP_CUDA(cudaMemcpy(&scanned, expansions.data(), sizeof scanned, cudaMemcpyDeviceToHost));
  result.processed = scanned;
  result.adds.items = stats.assigned;
  result.adds.assignments = stats.assignments;
  result.adds.wait_percent =
      result.ms > 0 ? 100.0 * double(stats.wait_ns) / (double(workers) * result.ms * 1e6) : 0;
  result.delta = std::uint64_t(1) << stats.final_shift;
  result.adds.workers = workers;
  result.adds.pool_blocks = pool_blocks;
  result.adds.head_switches = stats.head_switches;
  result.adds.delta_changes = stats.delta_changes;
  result.adds.max_dequeue_buckets = unsigned(stats.max_dequeue);
  result.adds.run_ms = double(stats.run_ns) * 1e-6;
  result.adds.first_assignment_ms = double(stats.first_assignment_ns) * 1e-6;
  if constexpr (std::is_same_v<State, PackedState>) {
    unpack_distances<<<blocks_for(n, init_blocks), kBlockThreads>>>(words.data(), dist.data(), n);
    DD_SSSP_CUDA(cudaGetLastError());
  }
  if (Status s = copy_distances(dist, result.values); !s.ok())
    return s;
  return result;
}

} // namespace

Expected<Result> adds(const DeviceGraph &graph, VertexId source, const AddsOptions &options) {
  return graph.needs_wide_distances() ? run<unsigned long long>(graph, source, options)
                                      : run<unsigned>(graph, source, options);
}

} // namespace dd::sssp
