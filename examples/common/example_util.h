// Small host helpers shared by the examples: `--name value` options and
// seeded data (CUDA error checks come from <dd/cuda_check.h>). Plain C++17; included by .cu files.
#ifndef DD_EXAMPLES_EXAMPLE_UTIL_H
#define DD_EXAMPLES_EXAMPLE_UTIL_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

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

} // namespace dd::examples

#endif // DD_EXAMPLES_EXAMPLE_UTIL_H
