// Small host helpers shared by the examples: `--name value` options and
// seeded data (CUDA error checks come from <dd/cuda_check.h>). Plain C++17; included by .cu files.
#ifndef DD_EXAMPLES_EXAMPLE_UTIL_H
#define DD_EXAMPLES_EXAMPLE_UTIL_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <dd/cuda_check.h> // DD_CUDA_CHECK

namespace dd::examples {

/// Parses `--name value` pairs; every option must be known.
class Options {
public:
  Options(int argc, char **argv, const char *usage)
      : argc_(argc), argv_(argv), usage_(usage) {
    if (argc > 256)
      fail("too many arguments");
    for (int i = 1; i < argc; ++i) {
      if (std::strcmp(argv[i], "--help") == 0) {
        std::printf("%s", usage);
        std::exit(0);
      }
    }
  }

  /// The value of --name, or `fallback` when absent.
  std::string get(const char *name, const char *fallback) {
    for (int i = 1; i + 1 < argc_; ++i)
      if (argv_[i][0] == '-' && argv_[i][1] == '-' &&
          std::strcmp(argv_[i] + 2, name) == 0) {
        used_[i] = used_[i + 1] = true;
        return argv_[i + 1];
      }
    return fallback;
  }

  std::uint64_t number(const char *name, std::uint64_t fallback) {
    std::string text = get(name, "");
    if (text.empty())
      return fallback;
    char *end = nullptr;
    unsigned long long value = std::strtoull(text.c_str(), &end, 0);
    if (*end != '\0')
      fail(("--" + std::string(name) + " expects a number, got '" + text + "'").c_str());
    return value;
  }

  /// Positional argument `index` (0-based), after all options were read.
  std::string positional(int index) {
    int seen = 0;
    for (int i = 1; i < argc_; ++i)
      if (!used_[i] && !(argv_[i][0] == '-' && argv_[i][1] == '-')) {
        if (seen++ == index) {
          used_[i] = true;
          return argv_[i];
        }
      }
    return "";
  }

  /// Errors on anything that no get()/positional() call consumed.
  void finish() {
    for (int i = 1; i < argc_; ++i)
      if (!used_[i])
        fail(("unknown argument '" + std::string(argv_[i]) + "'").c_str());
  }

  [[noreturn]] void fail(const char *message) {
    std::fprintf(stderr, "%s: error: %s\n%s", argv_[0], message, usage_);
    std::exit(1);
  }

private:
  int argc_;
  char **argv_;
  const char *usage_;
  bool used_[256] = {};
};

/// A 64-bit mix (splitmix64): deterministic data from (seed, index).
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// n keys in [0, bins): uniform, or Zipf(1) by inverse CDF, from the seed
/// (the histogram examples' inputs).
inline std::vector<unsigned> make_keys(std::uint64_t n, unsigned bins, bool zipf,
                                       std::uint64_t seed) {
  std::vector<unsigned> keys(n);
  std::vector<double> cdf;
  if (zipf) {
    cdf.resize(bins);
    double sum = 0;
    for (unsigned b = 0; b < bins; ++b)
      cdf[b] = (sum += 1.0 / (b + 1));
    for (double &c : cdf)
      c /= sum;
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed * 0x100000001b3ull + i);
    if (!zipf) {
      keys[i] = unsigned(r % bins);
      continue;
    }
    const double u = double(r >> 11) * (1.0 / 9007199254740992.0);
    // The first bin whose cumulative probability reaches u (the last one
    // should rounding leave u above them all).
    const auto at = std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
    keys[i] = std::min(unsigned(at), bins - 1);
  }
  return keys;
}

/// FNV-1a over the 8 bytes of each value added: an order-sensitive digest
/// the examples print, so that the final states of an original and its
/// rewrite compare in one line.
class Digest {
public:
  void add(std::uint64_t v) {
    for (int k = 0; k < 8; ++k, v >>= 8)
      hash_ = (hash_ ^ (v & 0xff)) * 0x100000001b3ull;
  }
  std::uint64_t value() const { return hash_; }

private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

/// `--time RUNS`: times one statement (a kernel launch) with CUDA events on
/// the default stream, one warm-up round first, and prints the median of
/// RUNS on one line. The examples reset their state before every round, so
/// each round does the same work and the last one is the result printed.
/// The events wait for the launch however it returns: a `<<<>>>` launch is
/// asynchronous, a delegated launch returns when its kernels are done.
class LaunchTimer {
public:
  explicit LaunchTimer(unsigned runs) : runs_(runs) {
    if (runs_ != 0) {
      DD_CUDA_CHECK(cudaEventCreate(&start_));
      DD_CUDA_CHECK(cudaEventCreate(&stop_));
    }
  }
  ~LaunchTimer() {
    if (runs_ != 0) {
      cudaEventDestroy(start_);
      cudaEventDestroy(stop_);
    }
  }
  LaunchTimer(const LaunchTimer &) = delete;
  LaunchTimer &operator=(const LaunchTimer &) = delete;

  /// Rounds to run: the warm-up and RUNS timed ones, or the one run.
  unsigned rounds() const { return runs_ != 0 ? runs_ + 1 : 1; }

  void start() {
    if (runs_ != 0)
      DD_CUDA_CHECK(cudaEventRecord(start_, 0));
  }
  /// After the statement of round `round` (round 0, the warm-up, is not kept).
  void stop(unsigned round) {
    if (runs_ == 0)
      return;
    DD_CUDA_CHECK(cudaEventRecord(stop_, 0));
    DD_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    DD_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    if (round != 0)
      times_.push_back(ms);
  }

  /// `time_ms=<median> runs=R min_ms=.. max_ms=..`, when timing.
  void print() const {
    if (runs_ == 0 || times_.empty())
      return;
    std::vector<float> t = times_;
    std::sort(t.begin(), t.end());
    const size_t k = t.size();
    const double median = k % 2 ? t[k / 2] : 0.5 * (double(t[k / 2 - 1]) + t[k / 2]);
    std::printf("time_ms=%.4f runs=%zu min_ms=%.4f max_ms=%.4f\n", median, k, t.front(), t.back());
  }

private:
  unsigned runs_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::vector<float> times_;
};

} // namespace dd::examples

#endif // DD_EXAMPLES_EXAMPLE_UTIL_H
