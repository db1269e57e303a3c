// Andersen's analysis on the GPU (gpu_solver.h, docs/pta.md "On the GPU").
//
// State, on the device: for every node v a bitset pts[v] of W words over
// the P locations whose address is taken (bit c is location loc[c]; columns
// follow node ids, so a set read out in bit order is sorted), prop[v] (the
// part of pts[v] already passed on along v's edges) and delta[v]; the copy
// edges, the program's and those loads and stores add, as (src, dst) pairs.
//
// A round:
//   1. delta = pts & ~prop, prop |= delta, per node; nothing new anywhere:
//      the fixed point, stop.
//   2. For each load p = *(q+k) and each location o new in pts(q): the edge
//      o+k -> p; for each store *(q+k) = r and o new in pts(q): r -> o+k
//      (only while k < o's block size). A location enters delta(q) once, so
//      no edge is made twice by one constraint.
//   3. Along every edge whose source has a delta: dst |= delta(src); along
//      the edges made in step 2: dst |= pts(src), all of it.
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
#include <cub/device/device_merge.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

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

// Step 2, kFree: the counts, one per (constraint, word) ...
__global__ void count_edges(Complex c, Sets s, const unsigned *loc, const unsigned *size,
                            unsigned *counts) {
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  unsigned i = 0, w = 0;
  if (t < std::size_t(c.count) * s.words)
    counts[t] = __popc(new_edges(c, s, loc, size, t, i, w));
}

// ... and, after an exclusive prefix sum of them, the edges at their offsets.
__global__ void place_edges(Complex c, Sets s, const unsigned *loc, const unsigned *size,
                            const unsigned *offsets, unsigned base, unsigned *src,
                            unsigned *dst) {
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  unsigned i = 0, w = 0;
  if (const Word bits = new_edges(c, s, loc, size, t, i, w); bits != 0)
    write_edges(c, i, bits, w, loc, src, dst, base + offsets[t]);
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

// Step 3, kFree: a warp per destination pulling from its incoming edges
// (sorted by destination: in_start, and in_edge = round << 32 | source);
// only this warp
// writes the destination's words. The lanes first look at 32 edges at once
// and keep those whose source has a delta or that were made this round
// (a ballot), then OR the kept sources' words, a lane per word.
__global__ void pull(Sets s, const unsigned *in_start, const unsigned long long *in_edge,
                     unsigned round) {
  const std::size_t warp = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (warp >= s.nodes)
    return;
  const unsigned to = unsigned(warp);
  const unsigned begin = in_start[to], end = in_start[to + 1];
  for (unsigned w0 = 0; w0 < s.words; w0 += 32) {
    const unsigned w = w0 + lane;
    Word acc = 0;
    for (unsigned base = begin; base < end; base += 32) {
      const unsigned e = base + lane;
      unsigned from = 0;
      bool whole = false, active = false;
      if (e < end) {
        const unsigned long long edge = in_edge[e];
        from = unsigned(edge);
        whole = unsigned(edge >> 32) == round;
        active = whole || s.changed[from] != 0;
      }
      for (unsigned kept = __ballot_sync(~0u, active); kept != 0; kept &= kept - 1) {
        const unsigned j = __ffs(kept) - 1;
        const unsigned f = __shfl_sync(~0u, from, j);
        const bool all = __shfl_sync(~0u, whole, j);
        if (w < s.words) {
          const std::size_t at = std::size_t(f) * s.words + w;
          acc |= all ? load_word(s.pts + at) : s.delta[at];
        }
      }
    }
    if (w < s.words && acc != 0) {
      WordRef mine(s.pts[std::size_t(to) * s.words + w]);
      const Word old = mine.load(cuda::std::memory_order_relaxed);
      if ((old | acc) != old)
        mine.store(old | acc, cuda::std::memory_order_relaxed);
    }
  }
}

// kFree: this round's edges (from `first` on) as sort keys (destinations)
// and values (round << 32 | source).
__global__ void pack_new_edges(const unsigned *src, const unsigned *dst, unsigned first,
                               unsigned count, unsigned round, unsigned *keys,
                               unsigned long long *values) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  keys[i] = dst[first + i];
  values[i] = (static_cast<unsigned long long>(round) << 32) | src[first + i];
}

// kFree: where each destination's run of the sorted edges starts (a thread
// per edge and one past the end: it fills the starts of the nodes between
// its edge's destination and the one before).
__global__ void run_starts(const unsigned *sorted_dst, unsigned edges, unsigned nodes,
                           unsigned *start) {
  const unsigned e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e > edges)
    return;
  const unsigned first = e == 0 ? 0 : sorted_dst[e - 1] + 1;
  const unsigned last = e == edges ? nodes : sorted_dst[e];
  for (unsigned v = first; v <= last; ++v)
    start[v] = e;
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
  DeviceArray<unsigned> d_changed, d_any, d_loc, d_size, d_ptr, d_other, d_offset, d_count;
  DeviceArray<unsigned char> d_is_store;
  DeviceArray<unsigned> d_src, d_dst, d_counts;
  // kFree: the edges sorted by destination (in_dst, in_edge), a spare pair
  // to merge into, this round's edges before and after sorting (new_*), the
  // start of each destination's run (in_start), the edge counts' prefix sum
  // (offsets).
  DeviceArray<unsigned> d_in_dst, d_spare_dst, d_new_dst, d_new_dst_sorted, d_in_start, d_offsets;
  DeviceArray<unsigned long long> d_in_edge, d_spare_edge, d_new_edge, d_new_edge_sorted;
  DeviceArray<char> d_temp; // CUB's scratch, grown as calls ask
  std::size_t capacity = std::max<std::size_t>(src.size() * 2, 1 << 16);
  for (auto step : {d_pts.allocate(cells), d_prop.allocate(cells), d_delta.allocate(cells),
                    d_changed.allocate(nodes), d_any.allocate(1), d_loc.allocate(loc.size()),
                    d_size.allocate(sizes.size()), d_ptr.allocate(ptr.size()),
                    d_other.allocate(other.size()), d_offset.allocate(offset.size()),
                    d_is_store.allocate(is_store.size()), d_count.allocate(1),
                    d_src.allocate(capacity), d_dst.allocate(capacity)})
    if (step != cudaSuccess)
      return cuda_status(step, "allocating the sets and constraints");
  for (auto step : {d_pts.put(pts), d_prop.zero(), d_loc.put(loc), d_size.put(sizes),
                    d_ptr.put(ptr), d_other.put(other), d_offset.put(offset),
                    d_is_store.put(is_store), d_src.put(src), d_dst.put(dst)})
    if (step != cudaSuccess)
      return cuda_status(step, "copying the constraints");
  const Complex complex{d_ptr.ptr, d_other.ptr, d_offset.ptr, d_is_store.ptr,
                        unsigned(ptr.size())};
  const std::size_t complex_cells = std::size_t(complex.count) * words;
  if (variant == Variant::kFree)
    for (auto step : {d_counts.allocate(complex_cells + 1), d_offsets.allocate(complex_cells + 1),
                      d_in_start.allocate(std::size_t(nodes) + 1)})
      if (step != cudaSuccess)
        return cuda_status(step, "allocating the edge counts");
  // Runs CUB call `run(temp, bytes)` twice, as CUB asks: for the scratch
  // size, then with the (grown) scratch.
  auto with_scratch = [&](auto run) -> cudaError_t {
    std::size_t bytes = 0;
    if (cudaError_t err = run(static_cast<void *>(nullptr), bytes); err != cudaSuccess)
      return err;
    if (cudaError_t err = d_temp.grow(std::max<std::size_t>(bytes, 1), 0); err != cudaSuccess)
      return err;
    return run(static_cast<void *>(d_temp.ptr), bytes);
  };

  EventPair events;
  if (cudaError_t err = events.create(); err != cudaSuccess)
    return cuda_status(err, "creating events");
  cudaEventRecord(events.start);

  std::size_t edges = src.size(); // edges made so far; all but this round's are "old"
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
  std::size_t sorted = 0;         // kFree: edges in the destination-sorted arrays
  // kFree: the bits of a node id, all the radix sort of the edges looks at.
  int key_bits = 1;
  while (key_bits < 32 && (1ull << key_bits) < nodes)
    ++key_bits;
  const Sets sets{d_pts.ptr, d_prop.ptr, d_delta.ptr, d_changed.ptr, words, nodes};
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
    // 2. The edges of loads and stores.
    const std::size_t before = edges;
    if (complex.count > 0) {
      if (variant == Variant::kAtomic) {
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
      } else {
        count_edges<<<blocks_for(complex_cells), kBlock>>>(complex, sets, d_loc.ptr,
                                                            d_size.ptr, d_counts.ptr);
        if (cudaError_t err = with_scratch([&](void *temp, std::size_t &bytes) {
              return cub::DeviceScan::ExclusiveSum(temp, bytes, d_counts.ptr, d_offsets.ptr,
                                                   complex_cells + 1);
            });
            err != cudaSuccess)
          return cuda_status(err, "counting edges");
        unsigned added = 0;
        if (cudaError_t err = cudaMemcpy(&added, d_offsets.ptr + complex_cells, sizeof added,
                                         cudaMemcpyDeviceToHost);
            err != cudaSuccess)
          return cuda_status(err, "counting edges");
        if (edges + added > capacity)
          if (Status grown = grow_edges(edges + added); !grown.ok())
            return grown;
        place_edges<<<blocks_for(complex_cells), kBlock>>>(complex, sets, d_loc.ptr,
                                                            d_size.ptr, d_offsets.ptr,
                                                            unsigned(edges), d_src.ptr,
                                                            d_dst.ptr);
        edges += added;
      }
    }
    // 3. Along the edges.
    if (variant == Variant::kAtomic) {
      if (edges > 0)
        push<<<blocks_for((edges + 31) / 32 * 32), kBlock>>>(sets, d_src.ptr, d_dst.ptr, unsigned(edges),
                                                 unsigned(before));
    } else {
      if (edges > sorted) {
        // This round's edges (in round 1 also the program's copies), sorted
        // by destination and merged with those sorted before.
        const std::size_t added = edges - sorted;
        for (auto step : {d_new_dst.grow(added, 0), d_new_edge.grow(added, 0),
                          d_new_dst_sorted.grow(added, 0), d_new_edge_sorted.grow(added, 0),
                          d_spare_dst.grow(edges, 0), d_spare_edge.grow(edges, 0)})
          if (step != cudaSuccess)
            return cuda_status(step, "sorting the edges");
        pack_new_edges<<<blocks_for(added), kBlock>>>(d_src.ptr, d_dst.ptr, unsigned(sorted),
                                                      unsigned(added), round, d_new_dst.ptr,
                                                      d_new_edge.ptr);
        if (cudaError_t err = with_scratch([&](void *temp, std::size_t &bytes) {
              return cub::DeviceRadixSort::SortPairs(
                  temp, bytes, d_new_dst.ptr, d_new_dst_sorted.ptr, d_new_edge.ptr,
                  d_new_edge_sorted.ptr, added, 0, key_bits);
            });
            err != cudaSuccess)
          return cuda_status(err, "sorting the edges");
        if (cudaError_t err = with_scratch([&](void *temp, std::size_t &bytes) {
              return cub::DeviceMerge::MergePairs(
                  temp, bytes, d_in_dst.ptr, d_in_edge.ptr, std::int64_t(sorted),
                  d_new_dst_sorted.ptr, d_new_edge_sorted.ptr, std::int64_t(added),
                  d_spare_dst.ptr, d_spare_edge.ptr);
            });
            err != cudaSuccess)
          return cuda_status(err, "merging the edges");
        std::swap(d_in_dst.ptr, d_spare_dst.ptr);
        std::swap(d_in_dst.size, d_spare_dst.size);
        std::swap(d_in_edge.ptr, d_spare_edge.ptr);
        std::swap(d_in_edge.size, d_spare_edge.size);
        sorted = edges;
        run_starts<<<blocks_for(sorted + 1), kBlock>>>(d_in_dst.ptr, unsigned(sorted), nodes,
                                                       d_in_start.ptr);
      }
      if (sorted > 0)
        pull<<<blocks_for(std::size_t(nodes) * 32), kBlock>>>(sets, d_in_start.ptr,
                                                             d_in_edge.ptr, round);
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
