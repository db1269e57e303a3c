//===- dd/scatter_remap.h - Sort and scatter (atomicSS), host side -*- C++ -*-===//
//
// The host pre-pass of atomicSS (Egielski et al., Alg. 3): given the key each
// logical warp's atomics hit (a row of y in SpMV, a bin, a vertex), lay the
// warps out so that warps with the same key are as far apart as possible:
//
//   1. group the warps by key (sets, in ascending key order; inside a set,
//      ascending warp id);
//   2. deal them round-robin: one warp from each non-empty set in key order,
//      then again, until every set is empty.
//
// Round r of the deal holds the r-th warp of every set that has more than r
// warps, so two warps with the same key are separated by every other key
// still in play. The result `remap` is a permutation of logical warp ids:
// remap[i] is the logical warp the i-th launched warp runs (the kernel reads
// it with dd::remapped_thread_index, scatter.cuh).
//
// Cost: O(W log W) for W warps (a sort of the warp ids by key), plus
// O(32 log 32) per warp to find its key from per-thread keys, plus the copy
// of the keys to the host and of the remap (4 bytes per warp) back. That is
// far more than the kernel it reorders, so it pays only when one key pattern
// is launched many times: SpMV or PageRank over a fixed matrix, every
// iteration of a solver, a histogram of a fixed image. It changes which
// warps run together, never what each logical thread computes.
//
// Plain C++17, no CUDA: usable from .cpp and .cu files alike.
//
//===----------------------------------------------------------------------===//
#ifndef DD_SCATTER_REMAP_H
#define DD_SCATTER_REMAP_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace dd {

/// The key of each warp from the keys of its threads: the key most threads
/// of the warp hit (the smallest such key on a tie). The last warp may be
/// partial.
///
/// @tparam Key        any type with a strict weak order `<` and `==`
/// @param thread_keys one key per logical thread
/// @param warp_size   threads per logical warp (32 for CUDA warps)
template <class Key>
std::vector<Key> warp_keys_by_mode(const Key *thread_keys, std::size_t num_threads,
                                   unsigned warp_size = 32) {
  std::vector<Key> keys;
  if (warp_size == 0)
    return keys;
  keys.reserve((num_threads + warp_size - 1) / warp_size);
  std::vector<Key> lanes(warp_size);
  for (std::size_t first = 0; first < num_threads; first += warp_size) {
    const std::size_t count = std::min<std::size_t>(warp_size, num_threads - first);
    std::copy(thread_keys + first, thread_keys + first + count, lanes.begin());
    std::sort(lanes.begin(), lanes.begin() + count);
    Key best = lanes[0];
    std::size_t best_run = 0;
    for (std::size_t i = 0; i < count;) {
      std::size_t j = i + 1;
      while (j < count && lanes[j] == lanes[i])
        ++j;
      if (j - i > best_run) { // strictly longer: ties keep the smaller key
        best_run = j - i;
        best = lanes[i];
      }
      i = j;
    }
    keys.push_back(best);
  }
  return keys;
}

/// Alg. 3: the round-robin layout of warps grouped by key.
///
/// @tparam Key       any type with a strict weak order `<` and `==`
/// @param warp_keys  the key of each logical warp (its index is the warp id)
/// @return           remap, a permutation of 0..num_warps-1: launched warp i
///                   runs logical warp remap[i]
template <class Key>
std::vector<std::uint32_t> scatter_remap(const Key *warp_keys, std::size_t num_warps) {
  // 1. Sets of equal keys, ascending; warps ascending inside each set.
  std::vector<std::uint32_t> by_key(num_warps);
  std::iota(by_key.begin(), by_key.end(), std::uint32_t{0});
  std::stable_sort(by_key.begin(), by_key.end(), [&](std::uint32_t a, std::uint32_t b) {
    return warp_keys[a] < warp_keys[b];
  });
  std::vector<std::size_t> next; // per set: its next warp in by_key
  std::vector<std::size_t> end;  // per set: one past its last warp
  for (std::size_t i = 0; i < num_warps;) {
    std::size_t j = i + 1;
    while (j < num_warps && warp_keys[by_key[j]] == warp_keys[by_key[i]])
      ++j;
    next.push_back(i);
    end.push_back(j);
    i = j;
  }

  // 2. Deal: one warp per live set per round, in key order. Sets that run
  // out are dropped from `live`, so each round costs only its live sets and
  // the whole deal is O(W).
  std::vector<std::uint32_t> remap;
  remap.reserve(num_warps);
  std::vector<std::size_t> live(next.size());
  std::iota(live.begin(), live.end(), std::size_t{0});
  while (!live.empty()) {
    std::size_t kept = 0;
    for (std::size_t s : live) {
      remap.push_back(by_key[next[s]++]);
      if (next[s] < end[s])
        live[kept++] = s;
    }
    live.resize(kept);
  }
  return remap;
}

template <class Key>
std::vector<std::uint32_t> scatter_remap(const std::vector<Key> &warp_keys) {
  return scatter_remap(warp_keys.data(), warp_keys.size());
}

/// scatter_remap over warp_keys_by_mode(thread_keys): the remap for a launch
/// of one thread per key, ceil(num_threads / warp_size) warps.
template <class Key>
std::vector<std::uint32_t> scatter_remap_threads(const Key *thread_keys, std::size_t num_threads,
                                                 unsigned warp_size = 32) {
  return scatter_remap(warp_keys_by_mode(thread_keys, num_threads, warp_size));
}

} // namespace dd

#endif // DD_SCATTER_REMAP_H
