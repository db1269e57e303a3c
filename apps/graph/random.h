// Deterministic random numbers for generators and weights.
//
// std::uniform_int_distribution and friends are implementation-defined, so a
// seed would give different graphs with libstdc++ and libc++. These generators
// are fully specified: a seed gives the same graph on every platform, which is
// what benchmark inputs need.
//
// Two kinds, both from Vigna's public-domain designs:
//   hash64(x)           SplitMix64's finalizer: a counter-based generator. The
//                       value for item i is hash64(seed ^ f(i)), so items can be
//                       generated in any order or in parallel with equal results.
//   Xoshiro256          xoshiro256** for sequential streams (permutations).
#ifndef DD_GRAPH_RANDOM_H
#define DD_GRAPH_RANDOM_H

#include <cstdint>

namespace dd::graph {

/// SplitMix64's output function: a bijective 64-bit mixer.
inline std::uint64_t hash64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Mixes two words (a seed and a counter, or two counters) into one.
inline std::uint64_t hash64(std::uint64_t a, std::uint64_t b) {
  return hash64(a ^ hash64(b + 0x632be59bd9b4e019ull));
}

/// A double in [0, 1) from the top 53 bits of x.
inline double to_unit_double(std::uint64_t x) {
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

/// xoshiro256** seeded through SplitMix64 (so any seed, 0 included, works).
class Xoshiro256 {
public:
  explicit Xoshiro256(std::uint64_t seed) {
    // The first four outputs of SplitMix64: distinct, so never all zero.
    for (std::uint64_t i = 0; i < 4; ++i)
      state_[i] = hash64(seed + i * 0x9e3779b97f4a7c15ull);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  /// Uniform in [0, bound), bound > 0, without modulo bias (rejection of the
  /// 2^64 mod bound lowest values).
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      const std::uint64_t r = next();
      if (r >= threshold)
        return r % bound;
    }
  }

  /// Uniform in [0, 1).
  double unit() { return to_unit_double(next()); }

private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4];
};

} // namespace dd::graph

#endif // DD_GRAPH_RANDOM_H
