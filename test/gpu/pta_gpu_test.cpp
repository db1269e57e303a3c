// GPU test of Andersen's analysis (apps/pta/gpu_solver.h): both variants
// (gpu-atomic, gpu-free) against the CPU solver on random constraint sets,
// node for node. The sets are shaped to reach the solver's corners: more
// locations than one word of a bitset holds (more than 64 words, so
// gpu-free's pull ORs a node's sources in several passes, and several
// hundred), function blocks reached
// through offsets (loads and stores of several offsets), copy cycles, long
// copy chains (many rounds), loads and stores that add edges late, edges
// that overflow the first edge arrays (the atomic variant's retry). Run on the GPU machine
// (test/gpu/run.sh); prints FAIL lines and "N passed, N failed".
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "pta/gpu_solver.h"
#include "pta/solver.h"

namespace {

using namespace dd::pta;

int passed = 0, failed = 0;

void check(const ConstraintSet &set, const std::string &name) {
  if (Status s = validate(set); !s.ok()) {
    std::printf("FAIL %s: the test made an invalid set: %s\n", name.c_str(), s.message().c_str());
    ++failed;
    return;
  }
  const Solution cpu = solve(set);
  for (gpu::Variant v : {gpu::Variant::kAtomic, gpu::Variant::kFree}) {
    const char *variant = v == gpu::Variant::kAtomic ? "gpu-atomic" : "gpu-free";
    gpu::Stats stats;
    auto got = gpu::solve(set, v, &stats);
    if (!got.ok()) {
      std::printf("FAIL %s %s: %s\n", name.c_str(), variant, got.status().message().c_str());
      ++failed;
      continue;
    }
    if (got->pts != cpu.pts) {
      std::uint32_t node = 0;
      while (got->pts[node] == cpu.pts[node])
        ++node;
      std::printf("FAIL %s %s: node %s has %zu targets, the CPU %zu\n", name.c_str(), variant,
                  set.names[node].c_str(), got->pts[node].size(), cpu.pts[node].size());
      ++failed;
      continue;
    }
    ++passed;
  }
}

/// n nodes, the first `locations` of them address-taken somewhere, blocks
/// of 2-4 nodes every few nodes, m constraints drawn with the given mix
/// (out of 10: copies, address-of, loads; the rest stores).
ConstraintSet random_set(std::mt19937 &rng, std::uint32_t n, std::uint32_t locations,
                         std::uint32_t m, unsigned copies, unsigned addrs, unsigned loads) {
  ConstraintSet set;
  for (std::uint32_t i = 0; i < n; ++i)
    set.add_node("n" + std::to_string(i), NodeKind::kVariable);
  for (std::uint32_t i = 0; i + 4 < n; i += 5 + rng() % 9)
    set.sizes[i] = 2 + rng() % 3;
  for (std::uint32_t i = 0; i < m; ++i) {
    const unsigned r = rng() % 10;
    const Kind kind = r < copies                  ? Kind::kCopy
                      : r < copies + addrs         ? Kind::kAddressOf
                      : r < copies + addrs + loads ? Kind::kLoad
                                                   : Kind::kStore;
    const std::uint32_t offset =
        (kind == Kind::kLoad || kind == Kind::kStore) && rng() % 4 == 0 ? 1 + rng() % 3 : 0;
    const std::uint32_t src = kind == Kind::kAddressOf ? rng() % locations : rng() % n;
    set.add(kind, rng() % n, src, offset);
  }
  return set;
}

} // namespace

int main() {
  // Line-buffered: a crash must not lose the lines before it.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string why;
  if (!gpu::available(&why)) {
    std::printf("FAIL no CUDA device: %s\n0 passed, 1 failed\n", why.c_str());
    return 1;
  }
  std::mt19937 rng(2026);
  // Small sets of every mix.
  for (int i = 0; i < 300; ++i) {
    const std::uint32_t n = 2 + rng() % 60;
    check(random_set(rng, n, n, rng() % (4 * n), 4, 2, 2), "small#" + std::to_string(i));
  }
  std::printf("small sets: %d passed, %d failed so far\n", passed, failed);
  // Copy-heavy: cycles and long chains.
  for (int i = 0; i < 100; ++i) {
    const std::uint32_t n = 10 + rng() % 300;
    check(random_set(rng, n, n, n + rng() % (3 * n), 8, 1, 1), "cycles#" + std::to_string(i));
  }
  std::printf("copy-heavy sets: %d passed, %d failed so far\n", passed, failed);
  // A chain of 3000 copies: one fact needs 3000 rounds.
  {
    ConstraintSet set;
    for (std::uint32_t i = 0; i < 3001; ++i)
      set.add_node("c" + std::to_string(i), NodeKind::kVariable);
    set.add(Kind::kAddressOf, 0, 3000);
    for (std::uint32_t i = 1; i < 3001; ++i)
      set.add(Kind::kCopy, i, i - 1);
    check(set, "chain3000");
  }
  // Wide sets: 2000-5000 locations (63-157 words), loads and stores that
  // add tens of thousands of edges.
  for (int i = 0; i < 12; ++i) {
    const std::uint32_t n = 3000 + rng() % 5000;
    const std::uint32_t locations = std::min<std::uint32_t>(n, 2000 + rng() % 3000);
    check(random_set(rng, n, locations, 2 * n, 5, 2, 2), "wide#" + std::to_string(i));
  }
  // Wider: 9000-12000 locations (282-375 words).
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t n = 10000 + rng() % 4000;
    const std::uint32_t locations = std::min<std::uint32_t>(n, 9000 + rng() % 3000);
    check(random_set(rng, n, locations, 2 * n, 5, 2, 2), "wider#" + std::to_string(i));
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
