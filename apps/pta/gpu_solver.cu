// Andersen's analysis on the GPU (gpu_solver.h, docs/pta.md "On the GPU").
//
// State, on the device: for every node v a bitset pts[v] of W words over
// the P locations whose address is taken (bit c is location loc[c]; columns
// follow node ids, so a set read out in bit order is sorted), prop[v] (the
// part of pts[v] already passed on along v's edges) and delta[v].
//
// A round:
//   1. delta = pts & ~prop, prop |= delta, per node; nothing new anywhere:
//      the fixed point, stop.
//   2. The edges of loads and stores: for each load p = *(q+k) and each
//      location o in prop(q) with k < size(o), o+k -> p; for each store
//      *(q+k) = r, r -> o+k. Those with o new in delta(q) are this round's.
//   3. Along every edge whose source has a delta: dst |= delta(src); along
//      this round's edges: dst |= pts(src), all of it.
// kAtomic makes step 2's edges (each once: a location enters delta(q) once)
// and appends them to the copy edges; kFree makes none: it reads them from
// prop(q) and delta(q) in step 3 (pull_through).
// Why it is the least solution: prop(v) only ever holds what pts(v) held at
// a step 1, and everything in it was sent along every edge v had then (as a
// delta) or gets (whole, when the edge is made). A set read in step 3 while
// another warp adds to it is a superset of what step 1 saw (the sets only
// grow: the papers' monotonicity), and what was added after step 1 is in
// the next round's delta.
//
// Sets are read and written through cuda::atomic_ref with relaxed order
// wherever another thread may touch the same word in the same kernel.
#include "pta/gpu_solver.h"

#include "common/cuda_host.cuh"

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <utility>
#include <vector>

namespace dd::pta::gpu {

using dd::apps::DeviceArray;
using dd::apps::EventPair;
using dd::graph::str_cat;

namespace {

constexpr unsigned kBlock = 256;
constexpr unsigned kNone = 0xffffffffu;

using Word = unsigned;
using WordRef = cuda::atomic_ref<Word, cuda::thread_scope_device>;

/// The loads and stores, as one list: constraint i reads pts(ptr[i]) and
/// makes, for each new location o with k < size(o), the edge other -> o+k
/// (a store) or o+k -> other (a load).
struct Complex {
  const unsigned *ptr;
  const unsigned *other;
  const unsigned *offset;
  const unsigned char *is_store;
  unsigned count;
};

struct Sets {
  Word *pts;
  Word *prop;
  Word *delta;
  unsigned *changed; // per node: 1 when its delta is not empty
  unsigned words;    // W
  unsigned nodes;
};

__device__ __forceinline__ Word load_word(Word *w) {
  return WordRef(*w).load(cuda::std::memory_order_relaxed);
}

// Step 1: delta = pts & ~prop, prop |= delta; `any` is set (an idempotent
// store: every writer stores 1) when some node has a delta.
__global__ void take_delta(Sets s, unsigned *any) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= std::size_t(s.nodes) * s.words)
    return;
  const Word fresh = s.pts[i] & ~s.prop[i];
  s.delta[i] = fresh;
  if (fresh != 0) {
    s.prop[i] |= fresh;
    const unsigned v = unsigned(i / s.words);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(s.changed[v]).store(
        1u, cuda::std::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*any).store(
        1u, cuda::std::memory_order_relaxed);
  }
}

// The locations of word w of delta(ptr) whose block reaches offset k.
__device__ __forceinline__ Word reachable(Word bits, unsigned w, unsigned k, const unsigned *loc,
                                          const unsigned *size) {
  if (k == 0)
    return bits;
  Word keep = 0;
  for (Word b = bits; b != 0; b &= b - 1) {
    const unsigned bit = __ffs(b) - 1;
    if (k < size[loc[w * 32 + bit]])
      keep |= 1u << bit;
  }
  return keep;
}

__device__ __forceinline__ void write_edges(const Complex &c, unsigned i, Word bits, unsigned w,
                                            const unsigned *loc, unsigned *src, unsigned *dst,
                                            unsigned slot) {
  const unsigned k = c.offset[i];
  for (Word b = bits; b != 0; b &= b - 1) {
    const unsigned target = loc[w * 32 + __ffs(b) - 1] + k;
    if (c.is_store[i]) {
      src[slot] = c.other[i];
      dst[slot] = target;
    } else {
      src[slot] = target;
      dst[slot] = c.other[i];
    }
    ++slot;
  }
}

// Step 2: the edges thread t makes, a thread per (constraint i, word w of
// delta(ptr[i])): the locations of the word whose block reaches the offset;
// 0 past the end or where the pointer gained nothing.
__device__ __forceinline__ Word new_edges(const Complex &c, const Sets &s, const unsigned *loc,
                                          const unsigned *size, std::size_t t, unsigned &i,
                                          unsigned &w) {
  if (t >= std::size_t(c.count) * s.words)
    return 0;
  i = unsigned(t / s.words);
  w = unsigned(t % s.words);
  const unsigned q = c.ptr[i];
  if (!s.changed[q])
    return 0;
  return reachable(s.delta[std::size_t(q) * s.words + w], w, c.offset[i], loc, size);
}

// Step 2, kAtomic: slots from an atomicAdd on the edge count; past
// `capacity` a thread only counts (the host grows the arrays and runs the
// step again from the same delta).
__global__ void add_edges_atomic(Complex c, Sets s, const unsigned *loc, const unsigned *size,
                                 unsigned *count, unsigned capacity, unsigned *src,
                                 unsigned *dst) {
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  unsigned i = 0, w = 0;
  const Word bits = new_edges(c, s, loc, size, t, i, w);
  if (bits == 0)
    return;
  const unsigned n = __popc(bits);
  const unsigned slot = atomicAdd(count, n);
  if (slot + n <= capacity)
    write_edges(c, i, bits, w, loc, src, dst, slot);
}

// Step 3, kAtomic: a warp per 32 consecutive edges. The lanes look at one
// edge each and keep those whose source has a delta or that were made this
// round (at `fresh` and after: they carry the whole source set), then OR
// each kept source's words into its destination with atomicOr, a lane per
// word (as pull() does, so that the variants differ only in the atomics).
__global__ void push(Sets s, const unsigned *src, const unsigned *dst, unsigned edges,
                     unsigned fresh) {
  const std::size_t warp = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t e = warp * 32 + lane;
  if (warp * 32 >= edges)
    return;
  unsigned from = 0, to = 0;
  bool whole = false, active = false;
  if (e < edges) {
    from = src[e];
    to = dst[e];
    whole = e >= fresh;
    active = whole || s.changed[from] != 0;
  }
  for (unsigned kept = __ballot_sync(~0u, active); kept != 0; kept &= kept - 1) {
    const unsigned j = __ffs(kept) - 1;
    const unsigned f = __shfl_sync(~0u, from, j), t = __shfl_sync(~0u, to, j);
    const bool all = __shfl_sync(~0u, whole, j);
    for (unsigned w = lane; w < s.words; w += 32) {
      const std::size_t at = std::size_t(f) * s.words + w;
      const Word bits = all ? load_word(s.pts + at) : s.delta[at];
      if (bits != 0)
        WordRef(s.pts[std::size_t(t) * s.words + w]).fetch_or(bits, cuda::std::memory_order_relaxed);
    }
  }
}

// kFree, before step 3: the stores' pointer sets transposed, so that a
// target can find the stores that write it. Stores are grouped by offset,
// each group starting at a multiple of 32 slots (padding: ptr kNone); for
// column c (location loc[c]) and store word sw, word c * store_words + sw
// of `all` has bit i set when store sw*32+i's pointer holds location c
// (prop), and of `fresh` when it gained it this round (delta). A warp per
// (store word, set word): a lane per store reads its pointer's word, 32
// ballots give the 32 columns' words, and lane b writes column b's: one
// writer per word, no atomic. Columns whose stores gained nothing keep
// `all` (prop only grows by delta) and get `fresh` = 0. The warps of set
// word 0 also write which stores' values have a delta (changed_values).
struct Stores {
  const unsigned *ptr;   // per slot: q, or kNone (padding)
  const unsigned *value; // per slot: r
  unsigned words;        // slots / 32
  Word *all;             // P x words
  Word *fresh;           // P x words
  Word *changed_values;  // per store word: bit i when slot i's r has a delta
};

__global__ void transpose_stores(Sets s, Stores st, unsigned columns) {
  const std::size_t warp = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (warp >= std::size_t(st.words) * s.words)
    return;
  const unsigned sw = unsigned(warp % st.words), cw = unsigned(warp / st.words);
  const unsigned q = st.ptr[sw * 32 + lane];
  Word gained = 0, held = 0;
  if (q != kNone) {
    held = s.prop[std::size_t(q) * s.words + cw];
    if (s.changed[q])
      gained = s.delta[std::size_t(q) * s.words + cw];
  }
  if (cw == 0) {
    const Word values = __ballot_sync(~0u, q != kNone && s.changed[st.value[sw * 32 + lane]]);
    if (lane == 0)
      st.changed_values[sw] = values;
  }
  const unsigned column = cw * 32 + lane;
  const std::size_t at = std::size_t(column) * st.words + sw;
  if (__ballot_sync(~0u, gained != 0) == 0) {
    if (column < columns)
      st.fresh[at] = 0;
    return;
  }
  Word my_all = 0, my_fresh = 0;
  for (unsigned b = 0; b < 32; ++b) {
    const Word a = __ballot_sync(~0u, (held >> b) & 1u);
    const Word f = __ballot_sync(~0u, (gained >> b) & 1u);
    if (lane == b) {
      my_all = a;
      my_fresh = f;
    }
  }
  if (column < columns) {
    st.all[at] = my_all;
    st.fresh[at] = my_fresh;
  }
}

// kFree, before step 3: per load offset k (group g), the columns c whose
// location's field loc[c]+k exists (k < size, `valid`, built once) and has
// a delta now, as W words; a load reads them word by word against its
// pointer's set instead of looking at each location's node. A warp per 32
// columns of one group: a ballot, one writer per word.
struct LoadOffsets {
  const unsigned *offset; // per group
  unsigned groups;
  const Word *valid;      // groups x W
  Word *changed;          // groups x W
};

__global__ void changed_columns(Sets s, LoadOffsets lo, const unsigned *loc) {
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (t >= std::size_t(lo.groups) * s.words * 32)
    return;
  const unsigned g = unsigned(t / (std::size_t(s.words) * 32));
  const unsigned c = unsigned(t % (std::size_t(s.words) * 32));
  const std::size_t at = std::size_t(g) * s.words + c / 32;
  const bool fits = (lo.valid[at] >> (c % 32)) & 1u;
  const Word bits = __ballot_sync(~0u, fits && s.changed[loc[c] + lo.offset[g]]);
  if (threadIdx.x % 32 == 0)
    lo.changed[at] = bits;
}

// kFree: what node v takes in by each kind of constraint.
struct Incoming {
  const unsigned *order;      // the nodes that take anything in, heaviest first
  unsigned count;             // how many
  const unsigned *copy_start; // per node + 1: its copies' sources in copy_src
  const unsigned *copy_src;
  const unsigned *load_start; // per node + 1: its loads p = *(q+k), (q, k) in load_ptr/offset
  const unsigned *load_ptr;
  const unsigned *load_group;   // index into LoadOffsets
  const unsigned *target_start; // per node + 1: the (column, store words) pairs for which
  const unsigned *target_column; // node = loc[column] + k, k < size, and a store group of
  const unsigned *target_first;  // offset k occupies store words [first, last)
  const unsigned *target_last;
};

// kFree's step 3 gathers in two steps per node: the scans of its copies,
// loads and stores queue the sources that have something for it (collect),
// a warp's list in shared memory; every 64 of them are ORed into its set
// (flush). A list entry is a source's id, with kWhole set when its whole
// set goes (the edge is new this round), else its delta.
constexpr unsigned kPending = 64;
constexpr unsigned kWhole = 1u << 31;

// ORs the `count` listed sources into node v's set, the words of which
// only this warp writes. Lane l keeps words w0 + l and w0 + 32 + l in
// registers over all the sources, eight sources' loads issued before any
// is used: a node that gains hundreds of sets in a round would otherwise
// wait one memory latency per set.
__device__ __forceinline__ void flush(const Sets &s, unsigned v, const unsigned *list,
                                      unsigned count) {
  constexpr unsigned kBatch = 8;
  const unsigned lane = threadIdx.x % 32;
  for (unsigned w0 = 0; w0 < s.words; w0 += 64) {
    const unsigned w[2] = {w0 + lane, w0 + 32 + lane};
    Word acc[2] = {0, 0};
    for (unsigned i = 0; i < count; i += kBatch) {
      Word got[kBatch][2];
#pragma unroll
      for (unsigned b = 0; b < kBatch; ++b) {
        const unsigned entry = i + b < count ? list[i + b] : 0;
        const std::size_t row = std::size_t(entry & ~kWhole) * s.words;
#pragma unroll
        for (unsigned c = 0; c < 2; ++c) {
          got[b][c] = 0;
          if (i + b < count && w[c] < s.words)
            got[b][c] = (entry & kWhole) ? load_word(s.pts + row + w[c]) : s.delta[row + w[c]];
        }
      }
#pragma unroll
      for (unsigned b = 0; b < kBatch; ++b)
        acc[0] |= got[b][0], acc[1] |= got[b][1];
    }
#pragma unroll
    for (unsigned c = 0; c < 2; ++c)
      if (w[c] < s.words && acc[c] != 0) {
        WordRef mine(s.pts[std::size_t(v) * s.words + w[c]]);
        const Word old = mine.load(cuda::std::memory_order_relaxed);
        if ((old | acc[c]) != old)
          mine.store(old | acc[c], cuda::std::memory_order_relaxed);
      }
  }
}

// Queues the sources of the ballot `kept` (lane j's `from`, its whole set
// when lane j's `whole`) on the warp's list, flushing it first when they
// would not fit. `count` is the list's length, the same in every lane.
__device__ __forceinline__ void collect(const Sets &s, unsigned v, unsigned *list,
                                        unsigned &count, unsigned kept, unsigned from,
                                        bool whole) {
  if (kept == 0)
    return;
  if (count + __popc(kept) > kPending) {
    flush(s, v, list, count);
    __syncwarp(); // the list is read before it is written again
    count = 0;
  }
  const unsigned lane = threadIdx.x % 32;
  if ((kept >> lane) & 1u)
    list[count + __popc(kept & ((1u << lane) - 1))] = from | (whole ? kWhole : 0);
  count += __popc(kept);
  __syncwarp(); // the entries are written before flush reads them
}

// Queues the sources that 32 words of candidates name, a word per lane
// (`act`: the bits to take; `gained`: those whose edge is new this round,
// so the source's whole set goes): the set bits of each non-zero word, a
// lane per bit; bit i of word jw is source(32 * jw + i).
template <class Source>
__device__ __forceinline__ void collect_bits(const Sets &s, unsigned v, unsigned *list,
                                             unsigned &pending, Word act, Word gained,
                                             Source source) {
  const unsigned lane = threadIdx.x % 32;
  for (unsigned nz = __ballot_sync(~0u, act != 0); nz != 0; nz &= nz - 1) {
    const unsigned jw = __ffs(nz) - 1;
    const Word bits = __shfl_sync(~0u, act, jw), fresh = __shfl_sync(~0u, gained, jw);
    const bool active = (bits >> lane) & 1u;
    const unsigned from = active ? source(32 * jw + lane) : 0;
    collect(s, v, list, pending, __ballot_sync(~0u, active), from, (fresh >> lane) & 1u);
  }
}

// Step 3, kFree: a warp per node v, the only writer of v's words, pulls
//   - along its copies: delta(src), where src has one;
//   - through each load v = *(q+k): for each location o in prop(q) with
//     k < size(o), from o+k: pts(o+k) whole if o is new in delta(q) (the
//     edge o+k -> v is made this round), else delta(o+k);
//   - through the stores that write v, found in the transposed sets: for
//     each store *(q+k) = r whose q holds the location o with v = o+k,
//     pts(r) whole if q gained o this round, else delta(r).
// Warps take the nodes heaviest first (Incoming::order: a node's
// constraints weighed by the words they scan), so that the round does not
// wait on a heavy node started last; nodes that take nothing in get none.
// No edge is stored: prop(q) is the loads' and stores' edges, so a round
// costs no allocation, prefix sum or sort, and the sets grow only here.
// Words set by the whole sets the warp reads while other warps add to them
// are a superset of what step 1 saw (monotonicity); the rest comes as the
// next round's delta.
__global__ void pull_through(Sets s, Incoming in, Stores st, LoadOffsets lo,
                             const unsigned *loc) {
  const std::size_t warp = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (warp >= in.count)
    return;
  const unsigned v = in.order[warp];
  const unsigned copies_begin = in.copy_start[v], copies_end = in.copy_start[v + 1];
  const unsigned loads_begin = in.load_start[v], loads_end = in.load_start[v + 1];
  const unsigned targets_begin = in.target_start[v], targets_end = in.target_start[v + 1];
  __shared__ unsigned lists[kBlock / 32][kPending];
  unsigned *const list = lists[threadIdx.x / 32];
  unsigned pending = 0;
  // Copies: 32 sources at a time, those with a delta kept by a ballot.
  for (unsigned base = copies_begin; base < copies_end; base += 32) {
    const unsigned e = base + lane;
    const unsigned from = e < copies_end ? in.copy_src[e] : 0;
    const bool active = e < copies_end && s.changed[from] != 0;
    collect(s, v, list, pending, __ballot_sync(~0u, active), from, false);
  }
  // Loads: the locations o of prop(q) whose o+k is new to v (o in
  // delta(q)) or has a delta, 32 words at a time, found word by word.
  for (unsigned j = loads_begin; j < loads_end; ++j) {
    const unsigned q = in.load_ptr[j], g = in.load_group[j], k = lo.offset[g];
    const std::size_t row = std::size_t(q) * s.words, masks = std::size_t(g) * s.words;
    for (unsigned p0 = 0; p0 < s.words; p0 += 32) {
      const unsigned pw = p0 + lane;
      Word act = 0, gained = 0;
      if (pw < s.words) {
        gained = s.delta[row + pw];
        act = s.prop[row + pw] & lo.valid[masks + pw] & (gained | lo.changed[masks + pw]);
      }
      collect_bits(s, v, list, pending, act, gained,
                   [&](unsigned i) { return loc[32 * p0 + i] + k; });
    }
  }
  // Stores into v: per (column, store group) pair, the stores of the
  // group whose pointer gained the column or whose value has a delta,
  // word by word.
  for (unsigned t = targets_begin; t < targets_end; ++t) {
    const std::size_t row = std::size_t(in.target_column[t]) * st.words;
    const unsigned first = in.target_first[t], last = in.target_last[t];
    for (unsigned sw0 = first; sw0 < last; sw0 += 32) {
      const unsigned sw = sw0 + lane;
      Word act = 0, gained = 0;
      if (sw < last) {
        gained = st.fresh[row + sw];
        act = st.all[row + sw] & (gained | st.changed_values[sw]);
      }
      collect_bits(s, v, list, pending, act, gained,
                   [&](unsigned i) { return st.value[32 * sw0 + i]; });
    }
  }
  if (pending > 0)
    flush(s, v, list, pending);
}

unsigned blocks_for(std::size_t threads) { return unsigned((threads + kBlock - 1) / kBlock); }

Status cuda_status(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return Status();
  return Status::error(str_cat("GPU points-to analysis: ", what, ": ", cudaGetErrorString(err)));
}

} // namespace

bool available(std::string *why) {
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  if (err == cudaSuccess && devices > 0)
    return true;
  if (why)
    *why = err != cudaSuccess ? cudaGetErrorString(err) : "no CUDA device";
  return false;
}

namespace {

/// kFree's constraint tables, built once on the host (Incoming, Stores,
/// LoadOffsets).
struct PullTables {
  std::vector<unsigned> order; // Incoming::order
  std::vector<unsigned> copy_start, copy_src, load_start, load_ptr, load_group;
  std::vector<unsigned> load_offsets; // per group: its offset k
  std::vector<Word> load_valid;       // per group, W words: k < size(loc[c])
  std::vector<unsigned> target_start, target_column, target_first, target_last;
  std::vector<unsigned> store_ptr, store_value; // slots, 32-aligned groups per offset
};

/// `start` (one per node and one past) and the order of `items` grouped by
/// `key(item)`, stable: a counting sort.
template <class Key>
std::vector<std::size_t> group_by_node(std::size_t items, unsigned nodes, Key key,
                                       std::vector<unsigned> &start) {
  start.assign(std::size_t(nodes) + 1, 0);
  for (std::size_t i = 0; i < items; ++i)
    ++start[key(i) + 1];
  for (unsigned v = 0; v < nodes; ++v)
    start[v + 1] += start[v];
  std::vector<unsigned> next(start.begin(), start.end() - 1);
  std::vector<std::size_t> order(items);
  for (std::size_t i = 0; i < items; ++i)
    order[next[key(i)]++] = i;
  return order;
}

PullTables pull_tables(const ConstraintSet &set, const std::vector<unsigned> &loc, unsigned words) {
  const unsigned nodes = set.num_nodes();
  PullTables t;
  std::vector<const Constraint *> copies, loads, stores;
  for (const Constraint &c : set.constraints) {
    if (c.kind == Kind::kCopy && c.src != c.dst)
      copies.push_back(&c);
    else if (c.kind == Kind::kLoad)
      loads.push_back(&c);
    else if (c.kind == Kind::kStore)
      stores.push_back(&c);
  }
  for (std::size_t i : group_by_node(copies.size(), nodes, [&](std::size_t i) { return copies[i]->dst; },
                                     t.copy_start))
    t.copy_src.push_back(copies[i]->src);
  for (std::size_t i : group_by_node(loads.size(), nodes, [&](std::size_t i) { return loads[i]->dst; },
                                     t.load_start)) {
    t.load_ptr.push_back(loads[i]->src);
    const unsigned k = loads[i]->offset;
    const auto known = std::find(t.load_offsets.begin(), t.load_offsets.end(), k);
    t.load_group.push_back(unsigned(known - t.load_offsets.begin()));
    if (known == t.load_offsets.end())
      t.load_offsets.push_back(k);
  }
  t.load_valid.assign(t.load_offsets.size() * words, 0);
  for (std::size_t g = 0; g < t.load_offsets.size(); ++g)
    for (unsigned c = 0; c < loc.size(); ++c)
      if (t.load_offsets[g] == 0 || t.load_offsets[g] < set.sizes[loc[c]])
        t.load_valid[g * words + c / 32] |= 1u << (c % 32);
  // Stores by offset, each offset's group padded to whole words of slots.
  std::stable_sort(stores.begin(), stores.end(),
                   [](const Constraint *a, const Constraint *b) { return a->offset < b->offset; });
  std::vector<std::pair<unsigned, std::pair<unsigned, unsigned>>> groups; // offset, words
  for (std::size_t i = 0; i < stores.size();) {
    const unsigned k = stores[i]->offset;
    const unsigned first = unsigned(t.store_ptr.size() / 32);
    for (; i < stores.size() && stores[i]->offset == k; ++i) {
      t.store_ptr.push_back(stores[i]->dst);
      t.store_value.push_back(stores[i]->src);
    }
    while (t.store_ptr.size() % 32 != 0) {
      t.store_ptr.push_back(kNone);
      t.store_value.push_back(0);
    }
    groups.push_back({k, {first, unsigned(t.store_ptr.size() / 32)}});
  }
  // The nodes stores may write: loc[c] + k for each group's k < size.
  struct Target {
    unsigned node, column, first, last;
  };
  std::vector<Target> targets;
  for (unsigned c = 0; c < loc.size(); ++c)
    for (const auto &[k, words] : groups)
      if (k == 0 || k < set.sizes[loc[c]])
        targets.push_back({loc[c] + k, c, words.first, words.second});
  for (std::size_t i : group_by_node(targets.size(), nodes,
                                     [&](std::size_t i) { return targets[i].node; }, t.target_start)) {
    t.target_column.push_back(targets[i].column);
    t.target_first.push_back(targets[i].first);
    t.target_last.push_back(targets[i].last);
  }
  // A node's weight: the words its warp scans each round (a load's whole
  // pointer set, a store group's words, a copy each), heaviest first.
  std::vector<std::pair<std::uint64_t, unsigned>> weighed;
  for (unsigned v = 0; v < nodes; ++v) {
    std::uint64_t weight = t.copy_start[v + 1] - t.copy_start[v];
    weight += std::uint64_t(t.load_start[v + 1] - t.load_start[v]) * words;
    for (unsigned i = t.target_start[v]; i < t.target_start[v + 1]; ++i)
      weight += t.target_last[i] - t.target_first[i];
    if (weight > 0)
      weighed.push_back({weight, v});
  }
  std::stable_sort(weighed.begin(), weighed.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  for (const auto &[weight, v] : weighed)
    t.order.push_back(v);
  return t;
}

} // namespace

Expected<Solution> solve(const ConstraintSet &set, Variant variant, Stats *stats) {
  const auto wall_start = std::chrono::steady_clock::now();
  const unsigned nodes = set.num_nodes();
  // The columns: every node whose address is taken, in id order.
  std::vector<unsigned> column(nodes, kNone), loc;
  for (const Constraint &c : set.constraints)
    if (c.kind == Kind::kAddressOf)
      column[c.src] = 0;
  for (unsigned v = 0; v < nodes; ++v)
    if (column[v] != kNone) {
      column[v] = unsigned(loc.size());
      loc.push_back(v);
    }
  const unsigned words = std::max<unsigned>(1, unsigned((loc.size() + 31) / 32));
  const std::size_t cells = std::size_t(nodes) * words;

  std::vector<Word> pts(cells, 0);
  std::vector<unsigned> src, dst, ptr, other, offset;
  std::vector<unsigned char> is_store;
  for (const Constraint &c : set.constraints) {
    switch (c.kind) {
    case Kind::kAddressOf: {
      const unsigned col = column[c.src];
      pts[std::size_t(c.dst) * words + col / 32] |= 1u << (col % 32);
      break;
    }
    case Kind::kCopy:
      if (c.src != c.dst) {
        src.push_back(c.src);
        dst.push_back(c.dst);
      }
      break;
    case Kind::kLoad:
    case Kind::kStore: {
      const bool store = c.kind == Kind::kStore;
      ptr.push_back(store ? c.dst : c.src);
      other.push_back(store ? c.src : c.dst);
      offset.push_back(c.offset);
      is_store.push_back(store);
      break;
    }
    }
  }
  const std::vector<unsigned> sizes(set.sizes.begin(), set.sizes.end());

  DeviceArray<Word> d_pts, d_prop, d_delta;
  DeviceArray<unsigned> d_changed, d_any, d_loc;
  for (auto step : {d_pts.allocate(cells), d_prop.allocate(cells), d_delta.allocate(cells),
                    d_changed.allocate(nodes), d_any.allocate(1), d_loc.allocate(loc.size())})
    if (step != cudaSuccess)
      return cuda_status(step, "allocating the sets");
  for (auto step : {d_pts.put(pts), d_prop.zero(), d_loc.put(loc)})
    if (step != cudaSuccess)
      return cuda_status(step, "copying the constraints");
  const Sets sets{d_pts.ptr, d_prop.ptr, d_delta.ptr, d_changed.ptr, words, nodes};

  // kAtomic: the loads and stores as one list, the blocks' sizes, and the
  // copy edges, those of loads and stores appended as they are made.
  DeviceArray<unsigned> d_ptr, d_other, d_offset, d_size, d_count, d_src, d_dst;
  DeviceArray<unsigned char> d_is_store;
  std::size_t capacity = std::max<std::size_t>(src.size() * 2, 1 << 16);
  // kFree: the constraints grouped by the node they write (Incoming), the
  // stores' slots and their transposed sets (Stores), the loads' offsets
  // and their columns' masks (LoadOffsets).
  DeviceArray<unsigned> d_order, d_copy_start, d_copy_src, d_load_start, d_load_ptr, d_load_group,
      d_load_offsets, d_target_start, d_target_column, d_target_first, d_target_last, d_store_ptr,
      d_store_value;
  DeviceArray<Word> d_store_all, d_store_fresh, d_store_changed, d_load_valid, d_load_changed;
  Incoming incoming{};
  Stores stores{};
  LoadOffsets load_offsets{};
  if (variant == Variant::kAtomic) {
    for (auto step : {d_ptr.allocate(ptr.size()), d_other.allocate(other.size()),
                      d_offset.allocate(offset.size()), d_size.allocate(sizes.size()),
                      d_is_store.allocate(is_store.size()),
                      d_count.allocate(1), d_src.allocate(capacity), d_dst.allocate(capacity)})
      if (step != cudaSuccess)
        return cuda_status(step, "allocating the constraints");
    for (auto step : {d_ptr.put(ptr), d_other.put(other), d_offset.put(offset),
                      d_size.put(sizes), d_is_store.put(is_store), d_src.put(src),
                      d_dst.put(dst)})
      if (step != cudaSuccess)
        return cuda_status(step, "copying the constraints");
  } else {
    if (nodes >= kWhole) // a list entry's high bit is kWhole (collect)
      return Status::error("GPU points-to analysis: more than 2^31 nodes for gpu-free");
    const PullTables t = pull_tables(set, loc, words);
    const std::size_t store_words = t.store_ptr.size() / 32;
    const std::size_t store_cells = loc.size() * store_words;
    for (auto step :
         {d_order.allocate(t.order.size()), d_copy_start.allocate(t.copy_start.size()),
          d_copy_src.allocate(t.copy_src.size()),
          d_load_start.allocate(t.load_start.size()), d_load_ptr.allocate(t.load_ptr.size()),
          d_load_group.allocate(t.load_group.size()), d_load_offsets.allocate(t.load_offsets.size()),
          d_load_valid.allocate(t.load_valid.size()), d_load_changed.allocate(t.load_valid.size()),
          d_target_start.allocate(t.target_start.size()),
          d_target_column.allocate(t.target_column.size()),
          d_target_first.allocate(t.target_first.size()), d_target_last.allocate(t.target_last.size()),
          d_store_ptr.allocate(t.store_ptr.size()), d_store_value.allocate(t.store_value.size()),
          d_store_all.allocate(store_cells), d_store_fresh.allocate(store_cells),
          d_store_changed.allocate(store_words)})
      if (step != cudaSuccess)
        return cuda_status(step, "allocating the constraints");
    for (auto step : {d_order.put(t.order), d_copy_start.put(t.copy_start),
                      d_copy_src.put(t.copy_src),
                      d_load_start.put(t.load_start), d_load_ptr.put(t.load_ptr),
                      d_load_group.put(t.load_group), d_load_offsets.put(t.load_offsets),
                      d_load_valid.put(t.load_valid), d_target_start.put(t.target_start),
                      d_target_column.put(t.target_column), d_target_first.put(t.target_first),
                      d_target_last.put(t.target_last), d_store_ptr.put(t.store_ptr),
                      d_store_value.put(t.store_value), d_store_all.zero()})
      if (step != cudaSuccess)
        return cuda_status(step, "copying the constraints");
    incoming = {d_order.ptr,         unsigned(t.order.size()),
                d_copy_start.ptr,    d_copy_src.ptr,     d_load_start.ptr,
                d_load_ptr.ptr,      d_load_group.ptr,   d_target_start.ptr,
                d_target_column.ptr, d_target_first.ptr, d_target_last.ptr};
    stores = {d_store_ptr.ptr,   d_store_value.ptr,   unsigned(store_words),
              d_store_all.ptr,   d_store_fresh.ptr,   d_store_changed.ptr};
    load_offsets = {d_load_offsets.ptr, unsigned(t.load_offsets.size()), d_load_valid.ptr,
                    d_load_changed.ptr};
  }
  const Complex complex{d_ptr.ptr, d_other.ptr, d_offset.ptr, d_is_store.ptr,
                        unsigned(ptr.size())};
  const std::size_t complex_cells = std::size_t(complex.count) * words;

  EventPair events;
  if (cudaError_t err = events.create(); err != cudaSuccess)
    return cuda_status(err, "creating events");
  cudaEventRecord(events.start);

  std::size_t edges = src.size(); // kAtomic: edges made so far; all but this round's are "old"
  // Grows the edge arrays to hold at least `need`, keeping the edges made.
  auto grow_edges = [&](std::size_t need) -> Status {
    const std::size_t bigger = std::max<std::size_t>(need, capacity * 2);
    if (bigger > std::numeric_limits<unsigned>::max())
      return Status::error("GPU points-to analysis: more than 2^32 copy edges");
    for (auto step : {d_src.grow(bigger, edges), d_dst.grow(bigger, edges)})
      if (step != cudaSuccess)
        return cuda_status(step, "growing the edges");
    capacity = bigger;
    return Status();
  };
  unsigned round = 1; // the last one finds no delta: the fixed point
  for (;; ++round) {
    // 1. The deltas.
    cudaMemsetAsync(d_changed.ptr, 0, nodes * sizeof(unsigned));
    cudaMemsetAsync(d_any.ptr, 0, sizeof(unsigned));
    take_delta<<<blocks_for(cells), kBlock>>>(sets, d_any.ptr);
    unsigned any = 0;
    if (cudaError_t err = cudaMemcpy(&any, d_any.ptr, sizeof any, cudaMemcpyDeviceToHost);
        err != cudaSuccess)
      return cuda_status(err, "round");
    if (!any)
      break;
    if (variant == Variant::kFree) {
      // 2 and 3 at once: the loads' and stores' edges are read from the
      // pointers' sets, not made.
      if (stores.words > 0)
        transpose_stores<<<blocks_for(std::size_t(stores.words) * words * 32), kBlock>>>(
            sets, stores, unsigned(loc.size()));
      if (load_offsets.groups > 0)
        changed_columns<<<blocks_for(std::size_t(load_offsets.groups) * words * 32), kBlock>>>(
            sets, load_offsets, d_loc.ptr);
      if (incoming.count > 0)
        pull_through<<<blocks_for(std::size_t(incoming.count) * 32), kBlock>>>(
            sets, incoming, stores, load_offsets, d_loc.ptr);
    } else {
      // 2. The edges of loads and stores.
      const std::size_t before = edges;
      if (complex.count > 0) {
        for (;;) {
          const unsigned start_count = unsigned(edges);
          if (cudaError_t err = cudaMemcpy(d_count.ptr, &start_count, sizeof start_count,
                                           cudaMemcpyHostToDevice);
              err != cudaSuccess)
            return cuda_status(err, "adding edges");
          add_edges_atomic<<<blocks_for(complex_cells), kBlock>>>(
              complex, sets, d_loc.ptr, d_size.ptr, d_count.ptr, unsigned(capacity),
              d_src.ptr, d_dst.ptr);
          unsigned total = 0;
          if (cudaError_t err =
                  cudaMemcpy(&total, d_count.ptr, sizeof total, cudaMemcpyDeviceToHost);
              err != cudaSuccess)
            return cuda_status(err, "adding edges");
          if (total <= capacity) {
            edges = total;
            break;
          }
          // Too many for the arrays: grow them and make this round's edges
          // again (the delta is unchanged).
          if (Status grown = grow_edges(total); !grown.ok())
            return grown;
        }
      }
      // 3. Along the edges.
      if (edges > 0)
        push<<<blocks_for((edges + 31) / 32 * 32), kBlock>>>(sets, d_src.ptr, d_dst.ptr,
                                                             unsigned(edges), unsigned(before));
    }
    if (cudaError_t err = cudaGetLastError(); err != cudaSuccess)
      return cuda_status(err, "round");
  }
  cudaEventRecord(events.stop);
  if (cudaError_t err = cudaEventSynchronize(events.stop); err != cudaSuccess)
    return cuda_status(err, "the rounds");
  float solve_ms = 0;
  cudaEventElapsedTime(&solve_ms, events.start, events.stop);

  if (cudaError_t err = d_pts.get(pts, cells); err != cudaSuccess)
    return cuda_status(err, "copying the sets back");
  Solution solution;
  solution.pts.resize(nodes);
  for (unsigned v = 0; v < nodes; ++v) {
    std::vector<std::uint32_t> &out = solution.pts[v];
    for (unsigned w = 0; w < words; ++w)
      for (Word b = pts[std::size_t(v) * words + w]; b != 0; b &= b - 1)
        out.push_back(loc[w * 32 + __builtin_ctz(b)]);
  }
  if (variant == Variant::kFree) {
    // The edges kAtomic would have made: one per load or store and location
    // of its pointer's final set that the offset fits.
    for (std::size_t i = 0; i < ptr.size(); ++i)
      for (std::uint32_t o : solution.pts[ptr[i]])
        edges += offset[i] == 0 || offset[i] < sizes[o];
  }
  solution.edges = edges;
  if (stats) {
    stats->rounds = round;
    stats->locations = loc.size();
    stats->edges = edges;
    stats->solve_ms = solve_ms;
    stats->total_ms = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - wall_start)
                          .count();
  }
  return solution;
}

} // namespace dd::pta::gpu
