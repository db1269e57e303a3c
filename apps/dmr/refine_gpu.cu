// Delaunay mesh refinement on the GPU (refine_gpu.h, docs/dmr.md "On the
// GPU"): the host loop of rounds, the mesh's growth on the host, and the
// kernels of the ways a worker gets exclusive access to its cavity: locks
// (kLocks), atomic marks (kAtomic, and kPass with its race rewritten by the
// atomics pass; the race kernel is atomic_race.cu) and the atomic-free
// 3-phase marks (kFree: a kernel a phase; kBarrier: one cooperative launch
// a round, grid barriers between the phases).
//
// All variants share everything but that: the worklist of a round (the live
// bad triangles not refused, by cub::DeviceSelect in slot order over a byte
// of flags a slot, set where a triangle is written; worker w takes the
// w-th), the step (cavity.h's build_cavity and retriangulate), the
// growth (before a round of W workers the arrays hold T + 2W slots and P + W
// points: the morph paper's "host-only" subgraph addition), the serial round
// after a round that made no progress, and the bookkeeping. A refused step
// (a cavity above kMaxCavity, or kDegenerate) flags its triangle so that it
// leaves the worklist, as the CPU reference drops it from its queue; the
// flag goes when the slot is rewritten.
//
// No slot is ever freed: a cavity of k triangles becomes k + 2 (k + 1 for a
// split boundary edge) reusing its k slots, and every variant hands out
// exactly the fresh slots used, so the T slots are the T live triangles.
#include "dmr/refine_gpu.h"

#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "common/cuda_host.cuh"
#include "dmr/cavity.h"
#include "dmr/race.h"

namespace dd::dmr {
namespace {

using apps::DeviceArray;
using graph::Expected;
using graph::Status;
using graph::str_cat;

using race::kMaxOwned;
using race::mark_of;

/// Rounds when GpuOptions::max_rounds is 0.
constexpr std::int64_t kDefaultMaxRounds = 100000;

/// What a worker's step came to in a round.
enum Outcome : std::uint8_t {
  kInserted,    ///< a circumcenter inserted
  kSplit,       ///< a boundary edge split at its midpoint
  kConflicted,  ///< another worker owned part of the cavity: try again
  kOverflowed,  ///< more than kMaxOwned triangles: left to a serial round
  kRefusedBig,  ///< kTooBig: the triangle is flagged refused
  kRefusedDegenerate, ///< kDegenerate: likewise
  kWasGone,     ///< the triangle was no longer bad (or no longer there)
  kMismatch,    ///< (free) the apply phase found another cavity than the race
  kNumOutcomes
};

/// A round's outcomes, summed.
struct Outcomes {
  int count[kNumOutcomes];
};

struct ToOutcomes {
  __host__ __device__ Outcomes operator()(std::uint8_t code) const {
    Outcomes o{};
    if (code < kNumOutcomes)
      o.count[code] = 1;
    return o;
  }
};

struct AddOutcomes {
  __host__ __device__ Outcomes operator()(const Outcomes &a, const Outcomes &b) const {
    Outcomes o;
    for (int i = 0; i < kNumOutcomes; ++i)
      o.count[i] = a.count[i] + b.count[i];
    return o;
  }
};

/// The one device word block the host reads back per round (one copy): the
/// worklist's size, the next free slot (low word) and point (high word), the
/// round's outcomes.
struct Counters {
  int bad;
  int pad;
  unsigned long long next;
  Outcomes round;
};

/// A packed (slots, points) pair as in Counters::next.
__host__ __device__ inline unsigned long long pack(unsigned slots, unsigned points) {
  return (static_cast<unsigned long long>(points) << 32) | slots;
}

/// A slot's flags (one byte a slot, every variant). A triangle never
/// changes once written (a step replaces it whole), so whether it is bad is
/// decided once, where it is written, and the worklist reads one byte a slot
/// instead of every live triangle's corners.
enum SlotFlag : std::uint8_t {
  kSlotBad = 1,     ///< a live triangle with an angle below the bound
  kSlotRefused = 2, ///< a bad triangle whose step was refused (too big, degenerate)
};

/// The flags of slots [0, slots) from the mesh as it is (free slots: 0).
__global__ void flag_bad(MeshView m, int slots, double cos2_min, std::uint8_t *flags) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < slots; t += gridDim.x * blockDim.x)
    flags[t] = m.v[3 * t] >= 0 && triangle_is_bad(m, t, cos2_min) ? kSlotBad : 0;
}

/// The worklist's predicate: a live bad triangle not refused.
struct IsWork {
  const std::uint8_t *flags;
  bool skip_refused;
  __device__ bool operator()(int t) const {
    const std::uint8_t f = flags[t];
    return (f & kSlotBad) != 0 && !(skip_refused && (f & kSlotRefused) != 0);
  }
};

/// Retriangulates `cavity` with its fresh slots and point at the packed
/// (slot, point) pair `at` (Counters::next's layout), and sets the flags of
/// every slot it writes (bad or not; not refused).
__device__ inline void apply_cavity(const MeshView &m, const Cavity &cavity,
                                    unsigned long long at, double cos2_min,
                                    std::uint8_t *flags) {
  const int base = static_cast<int>(at & 0xffffffffu);
  const int fresh[2] = {base, base + 1};
  const int point = static_cast<int>(at >> 32);
  int out[kMaxCavityEdges];
  retriangulate(m, cavity, point, fresh, out);
  for (int e = 0; e < cavity.nedges; ++e)
    flags[out[e]] = triangle_is_bad(m, out[e], cos2_min) ? kSlotBad : 0;
}

// ---------------------------------------------------------------------------
// The serial round (every variant): one thread, one step, no bound on what
// it reads (no other worker runs). No atomics.

__global__ void serial_step(MeshView m, const int *work, double cos2_min, std::uint8_t *flags,
                            Counters *counters) {
  if (blockIdx.x != 0 || threadIdx.x != 0)
    return;
  const int t = work[0];
  VisitAll visit;
  Cavity cavity;
  const CavityStatus s = build_cavity(m, t, cos2_min, visit, cavity);
  if (s == CavityStatus::kOk) {
    const unsigned long long next = counters->next;
    apply_cavity(m, cavity, next, cos2_min, flags);
    counters->next = next + pack(extra_slots(cavity), 1);
    ++counters->round.count[cavity.split_tri >= 0 ? kSplit : kInserted];
  } else if (s == CavityStatus::kTooBig || s == CavityStatus::kDegenerate) {
    flags[t] = kSlotBad | kSlotRefused;
    ++counters->round.count[s == CavityStatus::kTooBig ? kRefusedBig : kRefusedDegenerate];
  } else {
    ++counters->round.count[kWasGone];
  }
}

// ---------------------------------------------------------------------------
// kLocks: a try-lock per slot (0: free, else the holder's worker id + 1).

struct LockVisitor {
  int *locks;
  int id;
  int n = 0;
  bool overflow = false;
  int held[kMaxOwned]; // left uninitialized (a constructor, not aggregate init)

  __device__ LockVisitor(int *locks_, int id_) : locks(locks_), id(id_) {}

  __device__ bool operator()(std::int32_t t) {
    cuda::atomic_ref<int, cuda::thread_scope_device> lock(locks[t]);
    if (n == kMaxOwned) {
      // Full: only a triangle already held can still be visited.
      if (lock.load(cuda::memory_order_relaxed) == id)
        return true;
      overflow = true;
      return false;
    }
    int expected = 0;
    if (lock.compare_exchange_strong(expected, id, cuda::memory_order_acquire,
                                     cuda::memory_order_relaxed)) {
      held[n++] = t;
      return true;
    }
    // build_cavity visits a triangle several times: held by me is a success.
    return expected == id;
  }

  /// Gives every lock back. After writes, one release fence orders them
  /// before all the stores (a fence-release then relaxed stores synchronize
  /// with the next holder's acquiring compare-and-swap); after reads only,
  /// nothing needs ordering.
  __device__ void release(bool wrote) {
    if (wrote)
      cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    for (int i = 0; i < n; ++i)
      cuda::atomic_ref<int, cuda::thread_scope_device>(locks[held[i]])
          .store(0, cuda::memory_order_relaxed);
  }
};

/// A round of kLocks. The new triangles and point come from one 64-bit
/// atomicAdd on Counters::next; the outcome goes to outcome[w] and is summed
/// as kFree's is (the statistics cost neither variant an atomic).
__global__ void locks_round(MeshView m, const int *work, int workers, double cos2_min,
                             int *locks, std::uint8_t *flags, Counters *counters,
                             std::uint8_t *outcome_of) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= workers)
    return;
  const int t = work[w];
  LockVisitor visit(locks, w + 1);
  Cavity cavity;
  const CavityStatus s = build_cavity(m, t, cos2_min, visit, cavity);
  Outcome outcome;
  bool wrote = false;
  switch (s) {
  case CavityStatus::kOk: {
    apply_cavity(m, cavity, atomicAdd(&counters->next, pack(extra_slots(cavity), 1)), cos2_min,
                 flags);
    outcome = cavity.split_tri >= 0 ? kSplit : kInserted;
    wrote = true;
    break;
  }
  case CavityStatus::kConflict:
    outcome = visit.overflow ? kOverflowed : kConflicted;
    break;
  case CavityStatus::kGone:
    outcome = kWasGone;
    break;
  case CavityStatus::kTooBig:
  case CavityStatus::kDegenerate:
  default:
    flags[t] = kSlotBad | kSlotRefused; // t is held (visited first)
    outcome = s == CavityStatus::kTooBig ? kRefusedBig : kRefusedDegenerate;
    wrote = true;
    break;
  }
  visit.release(wrote);
  outcome_of[w] = outcome;
}

// ---------------------------------------------------------------------------
// kFree: the morph paper's race / priority check / check (section 7.3), one
// kernel each (the kernel boundaries are the global barriers), then a scan
// of the winners' needs and the apply kernel. No atomic instruction in any
// of them: marks are plain (volatile) 64-bit stores, a lost mark is how a
// worker learns it lost; fresh slots and points come from the scan.
//
// mark[slot] = (round << 32) | priority: every mark of an earlier round is
// below every mark of this one, and priority is a bijection of the worker
// index that changes from round to round (so the same workers do not always
// lose), so two workers of a round never share a mark.


/// The race phase's visitor: records each triangle in the worker's owned
/// list (interleaved: entry i of worker w at owned[i * stride + w]) and marks
/// it. A triangle already marked with my mark is already listed; one whose
/// mark another worker overwrote since is listed again (harmless: the later
/// phases are idempotent over repeats).
struct RaceVisitor {
  volatile unsigned long long *mark;
  int *owned;
  int stride;
  unsigned long long mine;
  int n = 0;
  bool overflow = false;

  __device__ bool operator()(std::int32_t t) {
    if (mark[t] == mine)
      return true;
    if (n == kMaxOwned) {
      overflow = true;
      return false;
    }
    owned[n * stride] = t;
    ++n;
    mark[t] = mine;
    return true;
  }
};

/// kFree's race: marks with plain stores as it reads (kAtomic's race, with
/// atomicMax, is in atomic_race.cu).
__global__ void free_race(MeshView m, const int *work, int workers, double cos2_min,
                          std::uint32_t round, volatile unsigned long long *mark, int *owned,
                          int *owned_count, std::uint8_t *state) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= workers)
    return;
  RaceVisitor visit{mark, owned + w, workers, mark_of(w, round)};
  Cavity cavity;
  const CavityStatus s = build_cavity(m, work[w], cos2_min, visit, cavity);
  owned_count[w] = visit.n;
  state[w] = race::state_of(s, cavity);
}

/// Whether a worker in this state competes for its triangles.
__device__ inline bool competes(std::uint8_t st) {
  return st != race::kOverflow && st != race::kGone;
}

/// Priority check: a higher mark than mine makes me back off; a lower one
/// is overwritten with mine. The reads and writes race with other workers'
/// (the race the check phase exists for).
__global__ void free_priority(int workers, std::uint32_t round,
                              volatile unsigned long long *mark, const int *owned,
                              const int *owned_count, const std::uint8_t *state,
                              std::uint8_t *backed_off) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= workers)
    return;
  bool back_off = !competes(state[w]);
  if (!back_off) {
    const unsigned long long mine = mark_of(w, round);
    const int n = owned_count[w];
    for (int i = 0; i < n; ++i) {
      const int t = owned[i * workers + w];
      const unsigned long long seen = mark[t];
      if (seen > mine) {
        back_off = true;
        break;
      }
      if (seen < mine)
        mark[t] = mine;
    }
  }
  backed_off[w] = back_off;
}

/// What a worker's round comes to once the check has decided whether it
/// owns its triangles (`owns`: false for a worker that does not compete),
/// for kFree and kBarrier alike: its outcome, and in `need` what an owner of
/// a cavity asks for (slots in the low word, 1 point in the high one; 0
/// otherwise). An owner of a refused step flags its triangle, `*t`.
__device__ inline Outcome settle(std::uint8_t st, bool owns, const int *t, std::uint8_t *flags,
                                 unsigned long long &need) {
  need = 0;
  if (st == race::kOverflow)
    return kOverflowed;
  if (st == race::kGone)
    return kWasGone;
  if (!owns)
    return kConflicted;
  switch (st) {
  case race::kCircumcenter:
    need = (1ull << 32) | 2u;
    return kInserted;
  case race::kSplit:
    need = (1ull << 32) | 1u;
    return kSplit;
  case race::kTooBig:
    flags[*t] = kSlotBad | kSlotRefused;
    return kRefusedBig;
  default:
    flags[*t] = kSlotBad | kSlotRefused;
    return kRefusedDegenerate;
  }
}

/// Check (read-only on the marks): a worker that did not back off and finds
/// every mark its own owns its triangles for the rest of the round. An owner
/// of a refused step flags its triangle; an owner of a cavity asks for its
/// fresh slots and point (need: slots in the low word, 1 point in the high).
__global__ void free_check(const int *work, int workers, std::uint32_t round,
                           const unsigned long long *mark, const int *owned,
                           const int *owned_count, const std::uint8_t *state,
                           const std::uint8_t *backed_off, std::uint8_t *flags,
                           unsigned long long *need, std::uint8_t *outcome) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= workers)
    return;
  const std::uint8_t st = state[w];
  bool owns = competes(st) && !backed_off[w];
  if (owns) {
    const unsigned long long mine = mark_of(w, round);
    const int n = owned_count[w];
    for (int i = 0; i < n && owns; ++i)
      owns = mark[owned[i * workers + w]] == mine;
  }
  unsigned long long asks;
  outcome[w] = settle(st, owns, &work[w], flags, asks);
  need[w] = asks;
}

/// The apply phase's visitor: a triangle is readable when it carries my mark
/// (only I write my mark, and nobody writes marks in this phase), i.e. when
/// I own it. The race read only these triangles, nobody has written them
/// since, so build_cavity finds the race's cavity again; should it stray
/// (it cannot, short of a compiler evaluating the same predicate
/// differently in two kernels) it stops with kConflict instead of reading a
/// triangle another worker is writing.
struct OwnedVisitor {
  const unsigned long long *mark;
  unsigned long long mine;
  __device__ bool operator()(std::int32_t t) const { return mark[t] == mine; }
};

/// The apply phase (every marking variant): kFree takes its fresh slots
/// and point from the prefix sum (offset), kAtomic and kPass from an atomicAdd on
/// Counters::next (offset null).
__global__ void free_apply(MeshView m, const int *work, int workers, double cos2_min,
                           std::uint32_t round, const unsigned long long *mark,
                           const unsigned long long *need, const unsigned long long *offset,
                           int first_slot, int first_point, std::uint8_t *flags,
                           std::uint8_t *outcome, Counters *counters) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= workers || need[w] == 0)
    return;
  OwnedVisitor visit{mark, mark_of(w, round)};
  Cavity cavity;
  const CavityStatus s = build_cavity(m, work[w], cos2_min, visit, cavity);
  const unsigned want_slots = static_cast<unsigned>(need[w] & 0xffffffffu);
  if (s != CavityStatus::kOk || static_cast<unsigned>(extra_slots(cavity)) != want_slots) {
    // The reserved slots stay free (v = -1) and the point unused (0, 0).
    outcome[w] = kMismatch;
    return;
  }
  apply_cavity(m, cavity,
               offset ? offset[w] + pack(first_slot, first_point)
                      : atomicAdd(&counters->next, need[w]),
               cos2_min, flags);
}

/// The round's totals of fresh slots and points into the counters (one
/// thread; a plain store).
__global__ void free_advance(int workers, const unsigned long long *need,
                             const unsigned long long *offset, Counters *counters) {
  if (blockIdx.x != 0 || threadIdx.x != 0 || workers == 0)
    return;
  counters->next += offset[workers - 1] + need[workers - 1];
}

// ---------------------------------------------------------------------------
// kBarrier: the same race / priority check / check as kFree, with the
// barriers inside one cooperative launch a round (the atomic-free paper's
// persistent-thread form, its section 3.2 and 6.1): every block is resident,
// a thread takes workers tid, tid + T, tid + 2T, ... (T: the grid's
// threads) in passes, and a grid barrier separates the phases of a pass.
// What the barrier buys over kernel boundaries is that a worker keeps its
// cavity and its list of marked triangles in its own (local) memory from
// the race to the apply phase: the apply does not walk the mesh again (31 %
// of kFree's kernel time) and the lists never go through global memory.
//
// A pass is a sub-round with marks of its own (first_gen + pass, above every
// mark of the passes and rounds before), so a pass's workers read the mesh
// the passes before left; a worker whose triangle an earlier pass replaced
// by a good one finds nothing to do (kWasGone). No atomic instruction in
// this code: marks are plain stores, fresh slots and points come from a
// prefix sum (a block scan, then the blocks' totals after a barrier). The
// grid barrier is cooperative groups' grid.sync().

namespace cg = cooperative_groups;

/// The exclusive prefix of `v` over the block (blockDim.x a multiple of 32)
/// and, in *total, the block's sum. `scratch` is shared memory for 32
/// values; every thread of the block must call it.
__device__ unsigned long long block_exclusive_sum(unsigned long long v,
                                                  unsigned long long *scratch,
                                                  unsigned long long *total) {
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  const unsigned warps = blockDim.x >> 5;
  unsigned long long x = v;
  for (unsigned d = 1; d < 32; d <<= 1) {
    const unsigned long long y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d)
      x += y;
  }
  if (lane == 31)
    scratch[warp] = x;
  __syncthreads();
  if (warp == 0) {
    unsigned long long y = lane < warps ? scratch[lane] : 0;
    for (unsigned d = 1; d < 32; d <<= 1) {
      const unsigned long long z = __shfl_up_sync(0xffffffffu, y, d);
      if (lane >= d)
        y += z;
    }
    scratch[lane] = y;
  }
  __syncthreads();
  const unsigned long long before = (warp > 0 ? scratch[warp - 1] : 0) + x - v;
  *total = scratch[warps - 1];
  __syncthreads(); // scratch is reused by the next call
  return before;
}

struct BarrierArgs {
  MeshView m;
  const int *work;
  int workers;
  double cos2_min;
  std::uint32_t first_gen; ///< the marks' round of the first pass
  volatile unsigned long long *mark;
  int first_slot, first_point;
  std::uint8_t *flags;
  std::uint8_t *outcome;
  unsigned long long *block_total; ///< one per block
  Counters *counters;
};

__global__ void barrier_kernel(BarrierArgs a) {
  cg::grid_group grid = cg::this_grid();
  __shared__ unsigned long long scratch[32];
  const int threads = static_cast<int>(gridDim.x * blockDim.x);
  const int tid = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int passes = (a.workers + threads - 1) / threads;
  unsigned long long base = pack(static_cast<unsigned>(a.first_slot),
                                 static_cast<unsigned>(a.first_point));
  int owned[kMaxOwned];
  for (int p = 0; p < passes; ++p) {
    const int w = p * threads + tid;
    const bool active = w < a.workers;
    const unsigned long long mine = mark_of(w, a.first_gen + static_cast<std::uint32_t>(p));

    // Race: plain stores of my mark on every triangle the step reads.
    RaceVisitor visit{a.mark, owned, 1, mine};
    Cavity cavity;
    std::uint8_t st = race::kGone;
    if (active)
      st = race::state_of(build_cavity(a.m, a.work[w], a.cos2_min, visit, cavity), cavity);
    grid.sync();

    // Priority check: back off before a higher mark, overwrite a lower one.
    bool owns = active && competes(st);
    for (int i = 0; owns && i < visit.n; ++i) {
      const unsigned long long seen = a.mark[owned[i]];
      if (seen > mine)
        owns = false;
      else if (seen < mine)
        a.mark[owned[i]] = mine;
    }
    grid.sync();

    // Check (the marks are only read from here to the pass's end).
    for (int i = 0; owns && i < visit.n; ++i)
      owns = a.mark[owned[i]] == mine;
    unsigned long long need = 0;
    if (active)
      a.outcome[w] = settle(st, owns, &a.work[w], a.flags, need);

    // Where the owners' fresh slots and points go: a prefix sum over the
    // block, then over the blocks' totals.
    unsigned long long block_sum = 0;
    const unsigned long long in_block = block_exclusive_sum(need, scratch, &block_sum);
    if (threadIdx.x == 0)
      a.block_total[blockIdx.x] = block_sum;
    grid.sync();
    unsigned long long before = 0, all = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
      const unsigned long long t = a.block_total[b];
      all += t;
      if (b < blockIdx.x)
        before += t;
    }
    unsigned long long sum = 0;
    block_exclusive_sum(before, scratch, &sum);
    before = sum;
    block_exclusive_sum(all, scratch, &sum);
    all = sum;

    // Apply the race's cavity: its triangles carry my mark, nobody has
    // written them since the race, and nobody else writes them now.
    if (need != 0)
      apply_cavity(a.m, cavity, base + before + in_block, a.cos2_min, a.flags);
    base += all;
    if (p + 1 < passes)
      grid.sync(); // the next race reads what this pass wrote
  }
  if (tid == 0)
    a.counters->next = base;
}

// ---------------------------------------------------------------------------
// The host side.

const char *algo_name(GpuAlgo algo) {
  switch (algo) {
  case GpuAlgo::kLocks:
    return "locks";
  case GpuAlgo::kAtomic:
    return "atomic";
  case GpuAlgo::kPass:
    return "pass";
  case GpuAlgo::kBarrier:
    return "barrier";
  default:
    return "free";
  }
}

/// Device memory of one refinement.
struct Device {
  // The mesh; slots [T, slot_capacity) are free (v = n = -1, lock = mark =
  // flags = 0), points [P, point_capacity) are (0, 0).
  DeviceArray<double> x, y;
  DeviceArray<std::int32_t> v, n;
  DeviceArray<std::uint8_t> flags;
  DeviceArray<int> locks;                     // kLocks
  DeviceArray<unsigned long long> marks;      // kAtomic, kFree
  DeviceArray<int> worklist;                  // one per slot
  std::size_t slot_capacity = 0, point_capacity = 0;
  // Per worker, sized for the most workers of a round so far: the outcome
  // (every variant), the rest the marking variants'.
  DeviceArray<std::uint8_t> outcome;
  DeviceArray<int> owned, owned_count;
  DeviceArray<std::uint8_t> state, backed_off;
  DeviceArray<unsigned long long> need, offset;
  std::size_t worker_capacity = 0;
  DeviceArray<unsigned long long> block_total; // kBarrier: one per block
  DeviceArray<Counters> counters;
  DeviceArray<unsigned char> temp; // CUB's scratch
  apps::EventPair events;

  MeshView view() const { return MeshView{x.ptr, y.ptr, v.ptr, n.ptr}; }
};

class Refiner {
public:
  Refiner(Mesh &m, GpuAlgo algo, const GpuOptions &options)
      : mesh_(m), algo_(algo), options_(options) {}

  Expected<RefineStats> run();

private:
  Status cuda(cudaError_t err, const std::string &what) const {
    if (err == cudaSuccess)
      return Status();
    return Status::error(
        str_cat("GPU refinement (", algo_name(algo_), "): ", what, ": ", cudaGetErrorString(err)));
  }
  Status upload();
  /// Room for `slots` slots and `points` points, keeping the mesh and the
  /// first `worklist` entries of the worklist.
  Status ensure_capacity(std::size_t slots, std::size_t points, std::size_t worklist);
  Status ensure_workers(std::size_t workers);
  /// Runs CUB's two-call protocol with the shared scratch.
  template <class Run> cudaError_t with_temp(Run run) {
    std::size_t bytes = 0;
    if (cudaError_t err = run(static_cast<void *>(nullptr), bytes); err != cudaSuccess)
      return err;
    if (cudaError_t err = d_.temp.grow(std::max<std::size_t>(bytes, 1), 0); err != cudaSuccess)
      return err;
    return run(static_cast<void *>(d_.temp.ptr), bytes);
  }
  /// The worklist (or, with skip_refused false, only the count of every
  /// live bad triangle) into counters->bad.
  cudaError_t select(bool skip_refused);
  /// The flags of the input's slots (flag_bad).
  cudaError_t flag_input();
  Status parallel_round(int workers, std::uint32_t round, RefineStats &stats);
  /// kBarrier's round: one cooperative launch.
  Status barrier_round(int workers, std::uint32_t round, RefineStats &stats);
  /// The round's outcomes (outcome[0..workers)) into counters->round.
  Status sum_outcomes(int workers, std::uint32_t round);

  Mesh &mesh_;
  GpuAlgo algo_;
  GpuOptions options_;
  Device d_;
  std::int64_t slots_ = 0, points_ = 0; // T and P
  // kBarrier: the resident blocks (0 until the first round asks), and the
  // marks' round of the next pass (every pass has its own).
  unsigned resident_blocks_ = 0;
  std::uint32_t next_gen_ = 1;
};

Status Refiner::upload() {
  const std::size_t t = static_cast<std::size_t>(slots_), p = static_cast<std::size_t>(points_);
  cudaError_t err = cudaSuccess;
  for (auto step : {d_.x.allocate(p), d_.y.allocate(p), d_.v.allocate(3 * t), d_.n.allocate(3 * t),
                    d_.flags.allocate(t), d_.worklist.allocate(t), d_.counters.allocate(1),
                    algo_ == GpuAlgo::kLocks ? d_.locks.allocate(t) : d_.marks.allocate(t)})
    if (err == cudaSuccess)
      err = step;
  if (err != cudaSuccess)
    return cuda(err, "allocating the mesh");
  for (auto step : {d_.x.put(mesh_.x), d_.y.put(mesh_.y), d_.v.put(mesh_.v), d_.n.put(mesh_.n),
                    d_.flags.zero(),
                    algo_ == GpuAlgo::kLocks ? d_.locks.zero() : d_.marks.zero(),
                    d_.events.create()})
    if (err == cudaSuccess)
      err = step;
  d_.slot_capacity = t;
  d_.point_capacity = p;
  return cuda(err, "uploading the mesh");
}

Status Refiner::ensure_capacity(std::size_t slots, std::size_t points, std::size_t worklist) {
  const std::size_t t = static_cast<std::size_t>(slots_), p = static_cast<std::size_t>(points_);
  cudaError_t err = cudaSuccess;
  if (slots > d_.slot_capacity) {
    // Geometric growth: an array grown every round is not copied every round.
    const std::size_t cap = std::max(slots, d_.slot_capacity + d_.slot_capacity / 2);
    for (auto step : {d_.v.grow(3 * cap, 3 * t), d_.n.grow(3 * cap, 3 * t),
                      d_.flags.grow(cap, t), d_.worklist.grow(cap, worklist),
                      algo_ == GpuAlgo::kLocks ? d_.locks.grow(cap, t) : d_.marks.grow(cap, t)})
      if (err == cudaSuccess)
        err = step;
    // The new slots: free (v = n = -1), unlocked / unmarked, no flags.
    if (err == cudaSuccess)
      err = cudaMemsetAsync(d_.v.ptr + 3 * t, 0xff, 3 * (cap - t) * sizeof(std::int32_t));
    if (err == cudaSuccess)
      err = cudaMemsetAsync(d_.n.ptr + 3 * t, 0xff, 3 * (cap - t) * sizeof(std::int32_t));
    if (err == cudaSuccess)
      err = cudaMemsetAsync(d_.flags.ptr + t, 0, cap - t);
    if (err == cudaSuccess)
      err = algo_ == GpuAlgo::kLocks
                ? cudaMemsetAsync(d_.locks.ptr + t, 0, (cap - t) * sizeof(int))
                : cudaMemsetAsync(d_.marks.ptr + t, 0, (cap - t) * sizeof(unsigned long long));
    if (err != cudaSuccess)
      return cuda(err, str_cat("growing the mesh to ", cap, " triangle slots"));
    d_.slot_capacity = cap;
  }
  if (points > d_.point_capacity) {
    const std::size_t cap = std::max(points, d_.point_capacity + d_.point_capacity / 2);
    for (auto step : {d_.x.grow(cap, p), d_.y.grow(cap, p)})
      if (err == cudaSuccess)
        err = step;
    // Finite coordinates for points reserved and left unused (compact()
    // drops them; no triangle refers to them).
    if (err == cudaSuccess)
      err = cudaMemsetAsync(d_.x.ptr + p, 0, (cap - p) * sizeof(double));
    if (err == cudaSuccess)
      err = cudaMemsetAsync(d_.y.ptr + p, 0, (cap - p) * sizeof(double));
    if (err != cudaSuccess)
      return cuda(err, str_cat("growing the mesh to ", cap, " points"));
    d_.point_capacity = cap;
  }
  return Status();
}

Status Refiner::ensure_workers(std::size_t workers) {
  if (workers <= d_.worker_capacity)
    return Status();
  const std::size_t cap = std::max(workers, d_.worker_capacity + d_.worker_capacity / 2);
  cudaError_t err = d_.outcome.allocate(cap);
  // kBarrier keeps a worker's list in its own memory.
  if (algo_ != GpuAlgo::kLocks && algo_ != GpuAlgo::kBarrier)
    for (auto step : {d_.owned.allocate(cap * kMaxOwned), d_.owned_count.allocate(cap),
                      d_.state.allocate(cap), d_.backed_off.allocate(cap),
                      d_.need.allocate(cap), d_.offset.allocate(cap)})
      if (err == cudaSuccess)
        err = step;
  if (err != cudaSuccess)
    return cuda(err, str_cat("allocating the lists of ", cap, " workers"));
  d_.worker_capacity = cap;
  return Status();
}

cudaError_t Refiner::select(bool skip_refused) {
  // Every slot of the capacity: slots_ is the count before the last round,
  // whose fresh slots lie beyond it (free slots have v = -1 and are skipped).
  const int t = static_cast<int>(d_.slot_capacity);
  if (t == 0)
    return cudaMemsetAsync(&d_.counters.ptr->bad, 0, sizeof(int));
  const IsWork pred{d_.flags.ptr, skip_refused};
  int *count = &d_.counters.ptr->bad;
  return with_temp([&](void *temp, std::size_t &bytes) {
    return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<int>(0), d_.worklist.ptr,
                                 count, t, pred);
  });
}

cudaError_t Refiner::flag_input() {
  const int t = static_cast<int>(slots_);
  if (t == 0)
    return cudaSuccess;
  flag_bad<<<(t + 255) / 256, 256>>>(d_.view(), t, options_.cos2_min, d_.flags.ptr);
  return cudaGetLastError();
}

Status Refiner::parallel_round(int workers, std::uint32_t round, RefineStats &stats) {
  const int block = options_.block_size;
  const unsigned blocks = static_cast<unsigned>((workers + block - 1) / block);
  const MeshView view = d_.view();
  if (Status s = ensure_workers(static_cast<std::size_t>(workers)); !s.ok())
    return s;
  if (algo_ == GpuAlgo::kBarrier)
    return barrier_round(workers, round, stats);
  if (algo_ == GpuAlgo::kLocks) {
    locks_round<<<blocks, block>>>(view, d_.worklist.ptr, workers, options_.cos2_min,
                                    d_.locks.ptr, d_.flags.ptr, d_.counters.ptr,
                                    d_.outcome.ptr);
    if (cudaError_t err = cudaGetLastError(); err != cudaSuccess)
      return cuda(err, str_cat("round ", round));
    return sum_outcomes(workers, round);
  }
  if (algo_ == GpuAlgo::kAtomic || algo_ == GpuAlgo::kPass) {
    // Atomic marks: after the race every triangle carries the highest mark
    // of the workers that want it, so no priority phase; nobody backs off
    // before the check.
    const auto launch_race = algo_ == GpuAlgo::kPass ? race::pass::launch_atomic_race
                                                     : race::written::launch_atomic_race;
    if (cudaError_t err = launch_race(blocks, block, view, d_.worklist.ptr, workers,
                                      options_.cos2_min, round, d_.marks.ptr, d_.owned.ptr,
                                      d_.owned_count.ptr, d_.state.ptr);
        err != cudaSuccess)
      return cuda(err, str_cat("round ", round, ": the race"));
    if (cudaError_t err = cudaMemsetAsync(d_.backed_off.ptr, 0, static_cast<std::size_t>(workers));
        err != cudaSuccess)
      return cuda(err, str_cat("round ", round));
    free_check<<<blocks, block>>>(d_.worklist.ptr, workers, round, d_.marks.ptr, d_.owned.ptr,
                                  d_.owned_count.ptr, d_.state.ptr, d_.backed_off.ptr,
                                  d_.flags.ptr, d_.need.ptr, d_.outcome.ptr);
    free_apply<<<blocks, block>>>(view, d_.worklist.ptr, workers, options_.cos2_min, round,
                                  d_.marks.ptr, d_.need.ptr, nullptr, 0, 0, d_.flags.ptr,
                                  d_.outcome.ptr, d_.counters.ptr);
    if (cudaError_t err = cudaGetLastError(); err != cudaSuccess)
      return cuda(err, str_cat("round ", round));
    return sum_outcomes(workers, round);
  }
  free_race<<<blocks, block>>>(view, d_.worklist.ptr, workers, options_.cos2_min, round,
                                      d_.marks.ptr, d_.owned.ptr, d_.owned_count.ptr,
                                      d_.state.ptr);
  free_priority<<<blocks, block>>>(workers, round, d_.marks.ptr, d_.owned.ptr,
                                   d_.owned_count.ptr, d_.state.ptr, d_.backed_off.ptr);
  free_check<<<blocks, block>>>(d_.worklist.ptr, workers, round, d_.marks.ptr, d_.owned.ptr,
                                d_.owned_count.ptr, d_.state.ptr, d_.backed_off.ptr,
                                d_.flags.ptr, d_.need.ptr, d_.outcome.ptr);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess)
    return cuda(err, str_cat("round ", round));
  // Where each owner's fresh slots and point go: an exclusive prefix sum of
  // the needs (slots in the low word, points in the high one).
  if (cudaError_t err = with_temp([&](void *temp, std::size_t &bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, d_.need.ptr, d_.offset.ptr, workers);
      });
      err != cudaSuccess)
    return cuda(err, str_cat("round ", round, ": the prefix sum of the fresh slots"));
  free_apply<<<blocks, block>>>(view, d_.worklist.ptr, workers, options_.cos2_min, round,
                                d_.marks.ptr, d_.need.ptr, d_.offset.ptr,
                                static_cast<int>(slots_), static_cast<int>(points_),
                                d_.flags.ptr, d_.outcome.ptr, d_.counters.ptr);
  free_advance<<<1, 1>>>(workers, d_.need.ptr, d_.offset.ptr, d_.counters.ptr);
  if (cudaError_t err = cudaGetLastError(); err != cudaSuccess)
    return cuda(err, str_cat("round ", round));
  return sum_outcomes(workers, round);
}

Status Refiner::barrier_round(int workers, std::uint32_t round, RefineStats &stats) {
  const int block = options_.block_size;
  if (resident_blocks_ == 0) {
    // Every block must be resident for the grid barrier: the grid is what
    // the occupancy calculator says fits, and no more, so a smaller GPU
    // gets more passes, never a hang.
    bool cooperative = false;
    if (cudaError_t err = apps::cooperative_grid(barrier_kernel, block, resident_blocks_,
                                                 cooperative);
        err != cudaSuccess)
      return cuda(err, "sizing the cooperative grid");
    if (!cooperative)
      return Status::error("GPU refinement (barrier): this GPU has no cooperative launch, "
                           "which the grid barrier needs (--algo=free uses kernel boundaries)");
    if (resident_blocks_ == 0)
      return Status::error(str_cat("GPU refinement (barrier): no block of ", block,
                                   " threads fits on a multiprocessor (try a smaller "
                                   "--block-size)"));
    if (options_.max_blocks > 0)
      resident_blocks_ = std::min(resident_blocks_, static_cast<unsigned>(options_.max_blocks));
    if (cudaError_t e = d_.block_total.allocate(resident_blocks_); e != cudaSuccess)
      return cuda(e, "allocating the blocks' totals");
  }
  const unsigned wanted = static_cast<unsigned>((workers + block - 1) / block);
  const unsigned blocks = std::min(wanted, resident_blocks_);
  const std::int64_t threads = std::int64_t{blocks} * block;
  const std::int64_t passes = (workers + threads - 1) / threads;
  BarrierArgs args{d_.view(),          d_.worklist.ptr,   workers,
                   options_.cos2_min,  next_gen_,         d_.marks.ptr,
                   static_cast<int>(slots_), static_cast<int>(points_), d_.flags.ptr,
                   d_.outcome.ptr,     d_.block_total.ptr, d_.counters.ptr};
  next_gen_ += static_cast<std::uint32_t>(passes);
  stats.grid_threads = std::max<std::int64_t>(stats.grid_threads, threads);
  stats.passes += passes;
  void *params[] = {&args};
  if (cudaError_t err = cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(
                                                        &barrier_kernel),
                                                    dim3(blocks), dim3(block), params, 0,
                                                    nullptr);
      err != cudaSuccess)
    return cuda(err, str_cat("round ", round));
  return sum_outcomes(workers, round);
}

Status Refiner::sum_outcomes(int workers, std::uint32_t round) {
  // The statistics without atomics: each worker wrote its outcome; sum them.
  Outcomes *sum = &d_.counters.ptr->round;
  if (cudaError_t err = with_temp([&](void *temp, std::size_t &bytes) {
        return cub::DeviceReduce::Reduce(
            temp, bytes, thrust::make_transform_iterator(d_.outcome.ptr, ToOutcomes()), sum,
            workers, AddOutcomes(), Outcomes{});
      });
      err != cudaSuccess)
    return cuda(err, str_cat("round ", round, ": summing the outcomes"));
  return Status();
}

Expected<RefineStats> Refiner::run() {
  if (options_.block_size < 32 || options_.block_size > 1024 || options_.block_size % 32 != 0)
    return Status::error(str_cat("GPU refinement: block size ", options_.block_size,
                                 " is not a multiple of 32 in [32, 1024]"));
  if (options_.max_workers < 1)
    return Status::error(str_cat("GPU refinement: max_workers ", options_.max_workers,
                                 " is below 1"));
  constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
  slots_ = mesh_.num_slots();
  points_ = mesh_.num_points();
  if (slots_ > kIntMax / 2 || points_ > kIntMax / 2)
    return Status::error(str_cat("GPU refinement: ", slots_, " triangle slots and ", points_,
                                 " points are too many for 32-bit indices"));
  if (Status s = upload(); !s.ok())
    return s;
  const std::int64_t max_rounds =
      options_.max_rounds > 0 ? options_.max_rounds : kDefaultMaxRounds;
  const std::int64_t max_workers = std::min<std::int64_t>(options_.max_workers, kIntMax / 4);

  RefineStats stats;
  Counters host{};
  host.next = pack(static_cast<unsigned>(slots_), static_cast<unsigned>(points_));
  if (cudaError_t err =
          cudaMemcpy(d_.counters.ptr, &host, sizeof host, cudaMemcpyHostToDevice);
      err != cudaSuccess)
    return cuda(err, "initializing the counters");
  // The first round's room and worker lists before the clock starts (the
  // mesh's upload is not timed either); later growth is.
  if (cudaError_t err = flag_input(); err != cudaSuccess)
    return cuda(err, "the first worklist");
  if (cudaError_t err = select(true); err != cudaSuccess)
    return cuda(err, "the first worklist");
  if (cudaError_t err = cudaMemcpy(&host, d_.counters.ptr, sizeof host, cudaMemcpyDeviceToHost);
      err != cudaSuccess)
    return cuda(err, "the first worklist");
  if (host.bad > 0) {
    const std::int64_t first = std::min<std::int64_t>(host.bad, max_workers);
    if (Status s = ensure_capacity(static_cast<std::size_t>(slots_ + 2 * first),
                                   static_cast<std::size_t>(points_ + first), 0);
        !s.ok())
      return s;
    if (Status s = ensure_workers(static_cast<std::size_t>(first)); !s.ok())
      return s;
  }
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    return cuda(err, "preparing the first round");
  cudaEventRecord(d_.events.start);
  // The input's bad triangles again, timed: the variants before the flags
  // paid for them in their first round's worklist.
  if (cudaError_t err = flag_input(); err != cudaSuccess)
    return cuda(err, "the first worklist");

  bool serial_next = false;
  bool last_serial = false;
  int last_workers = 0;
  for (std::int64_t round = 0;; ++round) {
    // The worklist of the mesh the last round left, and (one copy) its size
    // with the last round's outcomes and the next free slot and point.
    if (cudaError_t err = select(true); err != cudaSuccess)
      return cuda(err, str_cat("round ", round + 1, ": the worklist"));
    if (cudaError_t err = cudaMemcpy(&host, d_.counters.ptr, sizeof host, cudaMemcpyDeviceToHost);
        err != cudaSuccess)
      return cuda(err, round == 0 ? std::string("the first worklist")
                                  : str_cat("round ", round));
    if (round > 0) {
      const int *c = host.round.count;
      if (c[kMismatch] > 0)
        return Status::error(str_cat(
            "GPU refinement (free): internal error: in round ", round, ", ", c[kMismatch],
            " workers found another cavity in the apply phase than in the race phase"));
      const std::int64_t inserted = c[kInserted] + c[kSplit];
      stats.inserted += inserted;
      stats.split_edges += c[kSplit];
      stats.conflicts += c[kConflicted];
      stats.overflows += c[kOverflowed];
      stats.too_big += c[kRefusedBig];
      stats.degenerate += c[kRefusedDegenerate];
      const std::int64_t progress = inserted + c[kRefusedBig] + c[kRefusedDegenerate];
      // Livelock (every worker backed off): the next round runs one worker.
      serial_next = !last_serial && progress == 0;
      if (options_.verbose)
        std::fprintf(stderr,
                     "dmr gpu (%s): round %lld%s workers %d inserted %lld conflicts %d "
                     "overflows %d refused %d triangles %d points %d bad %d\n",
                     algo_name(algo_), static_cast<long long>(round),
                     last_serial ? " (serial)" : "", last_workers,
                     static_cast<long long>(inserted), c[kConflicted], c[kOverflowed],
                     c[kRefusedBig] + c[kRefusedDegenerate],
                     static_cast<int>(host.next & 0xffffffffu), static_cast<int>(host.next >> 32),
                     host.bad);
    }
    slots_ = static_cast<std::int64_t>(host.next & 0xffffffffu);
    points_ = static_cast<std::int64_t>(host.next >> 32);
    if (host.bad == 0)
      break;
    if (round == max_rounds)
      return Status::error(str_cat("GPU refinement (", algo_name(algo_), "): ", round,
                                   " rounds (the limit) left ", host.bad, " bad triangles"));
    const bool serial = serial_next;
    const int workers = serial ? 1 : static_cast<int>(std::min<std::int64_t>(host.bad, max_workers));
    if (slots_ + 2 * std::int64_t{workers} > kIntMax ||
        points_ + std::int64_t{workers} > kIntMax)
      return Status::error(str_cat("GPU refinement (", algo_name(algo_), "): the mesh outgrew "
                                   "32-bit indices in round ", round + 1));
    if (Status s = ensure_capacity(static_cast<std::size_t>(slots_ + 2 * std::int64_t{workers}),
                                   static_cast<std::size_t>(points_ + workers),
                                   static_cast<std::size_t>(workers));
        !s.ok())
      return s;
    host.round = Outcomes{};
    if (cudaError_t err = cudaMemcpyAsync(&d_.counters.ptr->round, &host.round,
                                          sizeof host.round, cudaMemcpyHostToDevice);
        err != cudaSuccess)
      return cuda(err, str_cat("round ", round + 1));
    const std::uint32_t number = static_cast<std::uint32_t>(round + 1);
    if (serial) {
      serial_step<<<1, 1>>>(d_.view(), d_.worklist.ptr, options_.cos2_min, d_.flags.ptr,
                            d_.counters.ptr);
      if (Status s = cuda(cudaGetLastError(), str_cat("round ", number)); !s.ok())
        return s;
      ++stats.serial_rounds;
    } else if (Status s = parallel_round(workers, number, stats); !s.ok()) {
      return s;
    }
    ++stats.rounds;
    last_serial = serial;
    last_workers = workers;
  }
  cudaEventRecord(d_.events.stop);
  if (cudaError_t err = cudaEventSynchronize(d_.events.stop); err != cudaSuccess)
    return cuda(err, "the last round");
  float ms = 0;
  cudaEventElapsedTime(&ms, d_.events.start, d_.events.stop);
  stats.refine_ms = ms;

  // Bad triangles left: the refused ones (the worklist is empty).
  if (cudaError_t err = select(false); err != cudaSuccess)
    return cuda(err, "counting the bad triangles left");
  if (cudaError_t err = cudaMemcpy(&host, d_.counters.ptr, sizeof host, cudaMemcpyDeviceToHost);
      err != cudaSuccess)
    return cuda(err, "counting the bad triangles left");
  stats.bad_left = host.bad;

  const std::size_t t = static_cast<std::size_t>(slots_), p = static_cast<std::size_t>(points_);
  cudaError_t err = cudaSuccess;
  for (auto step : {d_.x.get(mesh_.x, p), d_.y.get(mesh_.y, p), d_.v.get(mesh_.v, 3 * t),
                    d_.n.get(mesh_.n, 3 * t)})
    if (err == cudaSuccess)
      err = step;
  if (err != cudaSuccess)
    return cuda(err, "copying the mesh back");
  return stats;
}

} // namespace

Expected<RefineStats> refine_gpu(Mesh &m, GpuAlgo algo, const GpuOptions &options) {
  Refiner refiner(m, algo, options);
  return refiner.run();
}

} // namespace dd::dmr
