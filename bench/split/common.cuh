// Shared pieces of the hand-split study (split_bench.cu): the block shape of
// split kernels, deterministic device-side random inputs, exact output
// comparison, and the timing/checking harness. See docs/split-study.md.
#ifndef DD_BENCH_SPLIT_COMMON_CUH
#define DD_BENCH_SPLIT_COMMON_CUH

#include <dd/affine_queue.cuh>

#include <algorithm>
#include <cfloat>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <dd/cuda_check.h>

namespace split {

/// Threads per block of every original kernel, and consumer threads of every
/// split kernel (the split block is these plus one producer warp, last).
inline constexpr unsigned kBlock = 256;
inline constexpr unsigned kSplitThreads = kBlock + dd::warp_size;
inline constexpr unsigned kConsumerWarps = kBlock / dd::warp_size;
/// Blocks per SM the split kernels ask registers for: 7 x 288 threads is
/// the most an SM holds (2016 of 2048), which caps them at 32 registers.
inline constexpr unsigned kSplitMinBlocks = 2048 / kSplitThreads;

__host__ __device__ inline unsigned ceil_div(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned>((a + b - 1) / b);
}

// ---------------------------------------------------------------------------
// Inputs: a counter-based hash, so any set of any size is filled in one
// launch and the same (seed, index) always gives the same value.
// ---------------------------------------------------------------------------
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
__device__ inline std::uint32_t hash2(std::uint64_t seed, std::uint64_t i) {
  return static_cast<std::uint32_t>(mix64(mix64(seed) ^ i) >> 32);
}
/// Uniform in [-1, 1), 24 random bits.
__device__ inline float hash_float(std::uint64_t seed, std::uint64_t i) {
  return static_cast<float>(hash2(seed, i) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

__global__ void fill_float_kernel(float *p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = hash_float(seed, i);
}
__global__ void fill_int_kernel(int *p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = static_cast<int>(hash2(seed, i));
}
inline void fill_random(float *p, std::size_t n, std::uint64_t seed) {
  fill_float_kernel<<<1024, 256>>>(p, n, seed);
  DD_CUDA_CHECK(cudaGetLastError());
}
inline void fill_random(int *p, std::size_t n, std::uint64_t seed) {
  fill_int_kernel<<<1024, 256>>>(p, n, seed);
  DD_CUDA_CHECK(cudaGetLastError());
}

// ---------------------------------------------------------------------------
// Exact comparison of two device arrays, word by word.
// ---------------------------------------------------------------------------
__global__ void count_diff_kernel(const std::uint32_t *a, const std::uint32_t *b, std::size_t n,
                                  unsigned long long *diff, unsigned long long *first) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    if (a[i] != b[i]) {
      atomicAdd(diff, 1ull);
      atomicMin(first, static_cast<unsigned long long>(i));
    }
}

/// A device array, freed on scope exit.
template <class T> struct DeviceArray {
  T *ptr = nullptr;
  std::size_t n = 0;
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) : n(count) {
    DD_CUDA_CHECK(cudaMalloc(&ptr, std::max<std::size_t>(count, 1) * sizeof(T)));
  }
  DeviceArray(DeviceArray &&o) noexcept : ptr(o.ptr), n(o.n) { o.ptr = nullptr; }
  DeviceArray &operator=(DeviceArray &&o) noexcept {
    std::swap(ptr, o.ptr);
    std::swap(n, o.n);
    return *this;
  }
  DeviceArray(const DeviceArray &) = delete;
  ~DeviceArray() {
    if (ptr)
      cudaFree(ptr);
  }
  std::size_t bytes() const { return n * sizeof(T); }
  /// Every byte 0xff: -1 for ints, NaN for floats; never what a kernel writes
  /// by accident, and identical in the reference and the tested output.
  void poison() { DD_CUDA_CHECK(cudaMemset(ptr, 0xff, bytes())); }
};

/// Differing 32-bit words between two arrays of the same size (and the first).
template <class T>
inline unsigned long long count_diff(const DeviceArray<T> &a, const DeviceArray<T> &b,
                                     unsigned long long *first_out = nullptr) {
  static_assert(sizeof(T) % 4 == 0, "compared as 32-bit words");
  DeviceArray<unsigned long long> d(2);
  const unsigned long long init[2] = {0, ~0ull};
  DD_CUDA_CHECK(cudaMemcpy(d.ptr, init, sizeof init, cudaMemcpyHostToDevice));
  count_diff_kernel<<<1024, 256>>>(reinterpret_cast<const std::uint32_t *>(a.ptr),
                                   reinterpret_cast<const std::uint32_t *>(b.ptr),
                                   a.bytes() / 4, d.ptr, d.ptr + 1);
  DD_CUDA_CHECK(cudaGetLastError());
  unsigned long long h[2];
  DD_CUDA_CHECK(cudaMemcpy(h, d.ptr, sizeof h, cudaMemcpyDeviceToHost));
  if (first_out)
    *first_out = h[1];
  return h[0];
}

// ---------------------------------------------------------------------------
// The harness.
// ---------------------------------------------------------------------------

/// One version of a kernel: how to launch it on input/output set `set`, and
/// the kernel (for its registers and occupancy).
struct Variant {
  std::string name;
  const void *kernel;
  unsigned threads;
  std::function<void(int set)> launch;
};

struct CheckResult {
  std::string kernel, size, variant;
  unsigned long long diff;
  unsigned long long first;
};

struct TimingRow {
  std::string kernel, size, variant;
  double median_ms, p25_ms, p75_ms;
  double bytes; // the fewest bytes the kernel must move through DRAM
  int blocks_per_sm, regs;
  std::size_t smem;
  unsigned threads;
  double speedup; // original median / this median
};

struct Bench {
  int warmup = 3;
  int reps = 25;
  double l2_bytes = 0;
  bool quick = false; // correctness only, small sizes (for compute-sanitizer)
  int carveout = -1;  // >= 0: preferred shared-memory carveout (%) of split kernels
  std::string only;   // comma-separated kernel names, empty for all
  std::vector<CheckResult> checks;
  std::vector<TimingRow> rows;

  bool wants(const std::string &kernel) const {
    if (only.empty())
      return true;
    return ("," + only + ",").find("," + kernel + ",") != std::string::npos;
  }

  /// Input/output sets that together exceed the L2 three times over, so
  /// that rotating through them measures DRAM, not the cache.
  int sets_for(double working_set_bytes) const {
    const int s = static_cast<int>(3.0 * l2_bytes / working_set_bytes) + 1;
    return std::max(2, std::min(s, 8));
  }

  void record_check(const std::string &kernel, const std::string &size,
                    const std::string &variant, unsigned long long diff,
                    unsigned long long first) {
    checks.push_back({kernel, size, variant, diff, first});
    std::printf("check %-8s %-28s %-22s %s", kernel.c_str(), size.c_str(), variant.c_str(),
                diff == 0 ? "identical\n" : "DIFFERENT");
    if (diff)
      std::printf(" (%llu words differ, first at word %llu)\n", diff, first);
  }

  /// Runs every variant once on set 0 with `out` poisoned first, and records
  /// whether its output equals, word for word, that of variants[0] (the
  /// original).
  template <class T>
  void check(const std::string &kernel, const std::string &size, std::vector<Variant> &variants,
             DeviceArray<T> &out) {
    DeviceArray<T> ref(out.n);
    for (std::size_t v = 0; v < variants.size(); ++v) {
      out.poison();
      variants[v].launch(0);
      DD_CUDA_CHECK(cudaGetLastError());
      DD_CUDA_CHECK(cudaDeviceSynchronize());
      if (v == 0) {
        DD_CUDA_CHECK(cudaMemcpy(ref.ptr, out.ptr, ref.bytes(), cudaMemcpyDeviceToDevice));
        continue;
      }
      unsigned long long first;
      const auto diff = count_diff(ref, out, &first);
      record_check(kernel, size, variants[v].name, diff, first);
    }
  }

  /// Times every variant (variants[0] is the original, the baseline of the
  /// speedups): `warmup` runs each, then `reps` rounds in which each
  /// variant runs once, on set rep % sets, between two events.
  void time(const std::string &kernel, const std::string &size, std::vector<Variant> &variants,
            int sets, double bytes) {
    if (carveout >= 0)
      for (auto &v : variants)
        if (v.threads == kSplitThreads)
          DD_CUDA_CHECK(cudaFuncSetAttribute(v.kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          carveout));
    for (int w = 0; w < warmup; ++w)
      for (auto &v : variants)
        v.launch(w % sets);
    DD_CUDA_CHECK(cudaDeviceSynchronize());
    const std::size_t nv = variants.size();
    std::vector<cudaEvent_t> ev(2 * nv * reps);
    for (auto &e : ev)
      DD_CUDA_CHECK(cudaEventCreate(&e));
    for (int r = 0; r < reps; ++r)
      for (std::size_t v = 0; v < nv; ++v) {
        DD_CUDA_CHECK(cudaEventRecord(ev[2 * (r * nv + v)]));
        variants[v].launch(r % sets);
        DD_CUDA_CHECK(cudaEventRecord(ev[2 * (r * nv + v) + 1]));
      }
    DD_CUDA_CHECK(cudaDeviceSynchronize());
    DD_CUDA_CHECK(cudaGetLastError());
    double base = 0;
    for (std::size_t v = 0; v < nv; ++v) {
      std::vector<float> ms(reps);
      for (int r = 0; r < reps; ++r)
        DD_CUDA_CHECK(cudaEventElapsedTime(&ms[r], ev[2 * (r * nv + v)], ev[2 * (r * nv + v) + 1]));
      std::sort(ms.begin(), ms.end());
      TimingRow row;
      row.kernel = kernel;
      row.size = size;
      row.variant = variants[v].name;
      row.median_ms = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
      row.p25_ms = ms[reps / 4];
      row.p75_ms = ms[(3 * reps) / 4];
      row.bytes = bytes;
      row.threads = variants[v].threads;
      cudaFuncAttributes attr;
      DD_CUDA_CHECK(cudaFuncGetAttributes(&attr, variants[v].kernel));
      row.regs = attr.numRegs;
      row.smem = attr.sharedSizeBytes;
      DD_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &row.blocks_per_sm, variants[v].kernel, static_cast<int>(variants[v].threads), 0));
      if (v == 0)
        base = row.median_ms;
      row.speedup = base / row.median_ms;
      rows.push_back(row);
      std::printf("time  %-8s %-28s %-22s %9.4f ms  %7.1f GB/s  x%.3f\n", kernel.c_str(),
                  size.c_str(), row.variant.c_str(), row.median_ms,
                  bytes / row.median_ms * 1e-6, row.speedup);
    }
    for (auto &e : ev)
      DD_CUDA_CHECK(cudaEventDestroy(e));
  }
};

inline std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
inline std::string fmt(const char *f, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

/// Warp-shuffle then shared-memory sum of one value per thread of `threads`
/// (a multiple of 32, <= 1024) threads; thread 0 gets the total. The order
/// of the additions is fixed, so the original and the split kernel (which
/// synchronize differently: `sync`) round identically.
template <class Sync>
__device__ __forceinline__ float block_sum(float v, float *partial, unsigned threads, Sync sync) {
  for (unsigned off = 16; off > 0; off >>= 1)
    v = __fadd_rn(v, __shfl_down_sync(dd::full_warp_mask, v, off));
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0)
    partial[warp] = v;
  sync();
  if (warp == 0) {
    v = lane < threads / 32 ? partial[lane] : 0.0f;
    for (unsigned off = 16; off > 0; off >>= 1)
      v = __fadd_rn(v, __shfl_down_sync(dd::full_warp_mask, v, off));
  }
  return v;
}

} // namespace split

#endif // DD_BENCH_SPLIT_COMMON_CUH
