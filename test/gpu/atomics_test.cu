// GPU correctness test of <dd/atomics.cuh>: every aggregated atomic against
// CUDA's own atomics on the same inputs.
//
//   nvcc -arch=sm_90 -O3 -std=c++17 -I runtime/include test/gpu/atomics_test.cu -o atomics_test
//   ./atomics_test [--quick] [--host-only] [--filter A,B,...] [--verbose-fail N]
//
// For every operation x element type x variant (sr, vr, uniform, auto;
// filtered for min and max; inc; the monotonic updates) and every scenario (below), one case:
//   1. random inputs are drawn on the GPU from a per-case seed (printed):
//      per thread up to 4 (address, value) pairs and a repetition count;
//   2. the same kernel runs twice from the same initial memory, once with
//      plain CUDA atomics (the reference) and once with the dd:: variant;
//   3. the final memories must be identical (integers, and floats whose
//      values are small integers, so that every order of additions is
//      exact), or within the reordering bound (floats with real values,
//      see check_float_bound), or, for monotonic_min/max, equal to the
//      host-computed fixed point.
// Scenarios: 1, 2, 8, 32, 256, 4096, 65536 distinct addresses; blocks of
// 32, 96, 100, 256, 1024 threads (100 and 96 leave partial warps; the
// thread count is not a multiple of 32 either); global targets, and
// shared-memory targets (one array per block, up to 4096 words: 65536 words
// do not fit in a block's shared memory); and these lane patterns:
//   all       every thread does one update
//   subset    each thread updates with a per-warp random probability, so
//             warps run the atomic with random subsets of lanes
//   loop      each thread does 0..4 updates in a loop: lanes leave the loop
//             at different trip counts
//   early     (global only) threads with 0 updates return at kernel entry
//             (exited lanes), the rest run the loop
// and key patterns: random, sorted (adjacent threads share addresses, the
// "clustered" case of the paper), warp-uniform (for the uniform variant,
// whose precondition is one address per warp).
//
// Prints one line per case and "N passed, N failed"; exits 1 on a failure.
// build.sh's atomics_test_shfl builds it with the runtime's other code paths
// forced (-DDD_ATOMICS_NO_REDUX: the shuffle reductions of sm_75;
// -DDD_ATOMICS_NO_MATCH32: 64-bit address matches; -DDD_VR_SAMPLES=1
// -DDD_VR_THRESHOLD=3: a vote that often falls back; -DDD_INC_CAS_ATTEMPTS=3).

#include <dd/atomics.cuh>
#include <dd/scatter_remap.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <dd/cuda_check.h>

namespace {

constexpr int kMaxReps = 4;

enum class Variant { plain, sr, vr, uniform, automatic, filtered, monotonic };
enum class Mode { all, subset, loop, early };
enum class Space { global, shared };
enum class KeyPattern { random, sorted, warp_uniform };
enum class ValueKind { bits, small_int, real };

const char *name(Variant v) {
  switch (v) {
  case Variant::plain: return "plain";
  case Variant::sr: return "sr";
  case Variant::vr: return "vr";
  case Variant::uniform: return "uniform";
  case Variant::automatic: return "auto";
  case Variant::filtered: return "filtered";
  case Variant::monotonic: return "monotonic";
  }
  return "?";
}
const char *name(Mode m) {
  switch (m) {
  case Mode::all: return "all";
  case Mode::subset: return "subset";
  case Mode::loop: return "loop";
  case Mode::early: return "early";
  }
  return "?";
}
const char *name(Space s) { return s == Space::global ? "global" : "shared"; }
const char *name(KeyPattern k) {
  switch (k) {
  case KeyPattern::random: return "random";
  case KeyPattern::sorted: return "sorted";
  case KeyPattern::warp_uniform: return "warp-uniform";
  }
  return "?";
}
template <class T> const char *type_name() {
  if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, unsigned>) return "unsigned";
  else if constexpr (std::is_same_v<T, long long>) return "longlong";
  else if constexpr (std::is_same_v<T, unsigned long long>) return "ull";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else return "double";
}

// ---------------------------------------------------------------------------
// Random numbers: counter-based (SplitMix64 finalizer of seed, stream,
// index), identical on host and device, so any case can be regenerated.
// ---------------------------------------------------------------------------
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
__host__ __device__ inline std::uint64_t rnd(std::uint64_t seed, std::uint64_t stream,
                                             std::uint64_t i) {
  return mix64(seed ^ mix64(stream * 0x100000001b3ull + i));
}
__host__ __device__ inline double unit(std::uint64_t h) { return (h >> 11) * 0x1.0p-53; }

// ---------------------------------------------------------------------------
// Operations under test. Each: the reference (CUDA's atomic), the dd::
// variants, and how to draw values and initial memory for it.
// ---------------------------------------------------------------------------
template <class T> __device__ T draw_value(std::uint64_t h, ValueKind kind) {
  if constexpr (std::is_floating_point_v<T>) {
    if (kind == ValueKind::small_int) // sums of these are exact in any order
      return static_cast<T>(static_cast<int>(h % 33) - 16);
    return static_cast<T>(unit(h) * 2.0 - 1.0);
  } else {
    return static_cast<T>(h); // all bits random: wraparound, negatives
  }
}

struct OpAdd {
  static constexpr const char *name = "add";
  template <class T> __device__ static void plain(T *p, T v) { atomicAdd(p, v); }
  template <class T> __device__ static void sr(T *p, T v) { dd::atomic_add_sr(p, v); }
  template <class T> __device__ static void vr(T *p, T v) { dd::atomic_add_vr(p, v); }
  template <class T> __device__ static void automatic(T *p, T v) { dd::atomic_add_auto(p, v); }
  template <class T> __device__ static void uniform(T *p, T v) { dd::atomic_add_uniform(p, v); }
  template <class T> __device__ static T value(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
};
struct OpSub {
  static constexpr const char *name = "sub";
  template <class T> __device__ static void plain(T *p, T v) {
    if constexpr (std::is_same_v<T, unsigned long long>) atomicAdd(p, 0ull - v);
    else atomicSub(p, v);
  }
  template <class T> __device__ static void sr(T *p, T v) { dd::atomic_sub_sr(p, v); }
  template <class T> __device__ static void vr(T *p, T v) { dd::atomic_sub_vr(p, v); }
  template <class T> __device__ static void automatic(T *p, T v) { dd::atomic_sub_auto(p, v); }
  template <class T> __device__ static void uniform(T *p, T v) { dd::atomic_sub_uniform(p, v); }
  template <class T> __device__ static T value(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
};
struct OpMin {
  static constexpr const char *name = "min";
  template <class T> __device__ static void plain(T *p, T v) { atomicMin(p, v); }
  template <class T> __device__ static void sr(T *p, T v) { dd::atomic_min_sr(p, v); }
  template <class T> __device__ static void vr(T *p, T v) { dd::atomic_min_vr(p, v); }
  template <class T> __device__ static void automatic(T *p, T v) { dd::atomic_min_auto(p, v); }
  template <class T> __device__ static void uniform(T *p, T v) { dd::atomic_min_uniform(p, v); }
  template <class T> __device__ static void filtered(T *p, T v) { dd::atomic_min_filtered(p, v); }
  template <class T> __device__ static T value(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
};
struct OpMax {
  static constexpr const char *name = "max";
  template <class T> __device__ static void plain(T *p, T v) { atomicMax(p, v); }
  template <class T> __device__ static void sr(T *p, T v) { dd::atomic_max_sr(p, v); }
  template <class T> __device__ static void vr(T *p, T v) { dd::atomic_max_vr(p, v); }
  template <class T> __device__ static void automatic(T *p, T v) { dd::atomic_max_auto(p, v); }
  template <class T> __device__ static void uniform(T *p, T v) { dd::atomic_max_uniform(p, v); }
  template <class T> __device__ static void filtered(T *p, T v) { dd::atomic_max_filtered(p, v); }
  template <class T> __device__ static T value(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
};
struct OpAnd {
  static constexpr const char *name = "and";
  template <class T> __device__ static void plain(T *p, T v) { atomicAnd(p, v); }
  template <class T> __device__ static void sr(T *p, T v) { dd::atomic_and_sr(p, v); }
  template <class T> __device__ static void vr(T *p, T v) { dd::atomic_and_vr(p, v); }
  template <class T> __device__ static void automatic(T *p, T v) { dd::atomic_and_auto(p, v); }
  template <class T> __device__ static void uniform(T *p, T v) { dd::atomic_and_uniform(p, v); }
  // Mostly ones (each bit 0 with probability 1/8), so that the AND of a
  // group is not simply 0.
  template <class T> __device__ static T value(std::uint64_t h, ValueKind, unsigned, std::uint64_t) {
    return static_cast<T>(~(h & mix64(h) & mix64(h + 1)));
  }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind, unsigned, std::uint64_t) { return static_cast<T>(h); }
};
struct OpOr {
  static constexpr const char *name = "or";
  template <class T> __device__ static void plain(T *p, T v) { atomicOr(p, v); }
  template <class T> __device__ static void sr(T *p, T v) { dd::atomic_or_sr(p, v); }
  template <class T> __device__ static void vr(T *p, T v) { dd::atomic_or_vr(p, v); }
  template <class T> __device__ static void automatic(T *p, T v) { dd::atomic_or_auto(p, v); }
  template <class T> __device__ static void uniform(T *p, T v) { dd::atomic_or_uniform(p, v); }
  // Mostly zeros, so that the OR of a group is not simply all ones.
  template <class T> __device__ static T value(std::uint64_t h, ValueKind, unsigned, std::uint64_t) {
    return static_cast<T>(h & mix64(h) & mix64(h + 1));
  }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind, unsigned, std::uint64_t) {
    return static_cast<T>(h & mix64(h));
  }
};
struct OpXor {
  static constexpr const char *name = "xor";
  template <class T> __device__ static void plain(T *p, T v) { atomicXor(p, v); }
  template <class T> __device__ static void sr(T *p, T v) { dd::atomic_xor_sr(p, v); }
  template <class T> __device__ static void vr(T *p, T v) { dd::atomic_xor_vr(p, v); }
  template <class T> __device__ static void automatic(T *p, T v) { dd::atomic_xor_auto(p, v); }
  template <class T> __device__ static void uniform(T *p, T v) { dd::atomic_xor_uniform(p, v); }
  template <class T> __device__ static T value(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
};

/// atomicInc: the "value" is the limit. Per-lane atomicInc is only
/// order-independent when every update of a word uses one limit, so the
/// limit is a function of the address (drawn from small, wrapping and
/// never-wrapping choices), and the initial words include values above
/// their limit (atomicInc resets those to 0).
__host__ __device__ inline unsigned limit_of(unsigned key, std::uint64_t seed) {
  const unsigned choices[] = {0u, 1u, 2u, 5u, 31u, 33u, 1000u, 0xffffffffu};
  return choices[rnd(seed, 7, key) % 8];
}
struct OpInc {
  static constexpr const char *name = "inc";
  template <class T> __device__ static void plain(T *p, T v) { atomicInc(p, v); }
  template <class T> __device__ static void sr(T *p, T v) { dd::atomic_inc_sr(p, v); }
  template <class T> __device__ static void vr(T *p, T v) { dd::atomic_inc_vr(p, v); }
  template <class T> __device__ static void uniform(T *p, T v) { dd::atomic_inc_uniform(p, v); }
  template <class T> __device__ static T value(std::uint64_t, ValueKind, unsigned key, std::uint64_t seed) {
    return limit_of(key, seed);
  }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind, unsigned key, std::uint64_t seed) {
    const std::uint64_t limit = limit_of(key, seed);
    return static_cast<T>(h % (limit + 3)); // may exceed the limit
  }
};

/// monotonic_min / monotonic_max: checked against the host fixed point.
template <bool IsMax> struct OpMonotonic {
  static constexpr const char *name = IsMax ? "monotonic_max" : "monotonic_min";
  template <class T> __device__ static void apply(T *p, T v) {
    if constexpr (IsMax) dd::monotonic_max(p, v);
    else dd::monotonic_min(p, v);
  }
  template <class T> __host__ __device__ static bool improves(T v, T current) {
    return IsMax ? current < v : v < current;
  }
  template <class T> __device__ static T value(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
  template <class T> __device__ static T init(std::uint64_t h, ValueKind k, unsigned, std::uint64_t) { return draw_value<T>(h, k); }
};

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------
struct CaseParams {
  std::uint64_t seed;
  int n;             // threads with work
  unsigned distinct; // addresses (per block in shared space)
  int block;         // block size (for warp-uniform keys)
  Mode mode;
  KeyPattern keys;
  ValueKind kind;
};

template <class Op, class T>
__global__ void gen_inputs(CaseParams p, unsigned *keys, T *vals, unsigned char *reps) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= p.n)
    return;
  unsigned char r = 1;
  switch (p.mode) {
  case Mode::all:
    r = 1;
    break;
  case Mode::subset: { // per-warp density, so some warps keep 1 lane, some 31
    const double density = unit(rnd(p.seed, 1, tid / 32));
    r = unit(rnd(p.seed, 2, tid)) < density ? 1 : 0;
    break;
  }
  case Mode::loop:
  case Mode::early:
    r = static_cast<unsigned char>(rnd(p.seed, 3, tid) % (kMaxReps + 1));
    break;
  }
  reps[tid] = r;
  for (int i = 0; i < kMaxReps; ++i) {
    const std::uint64_t idx = static_cast<std::uint64_t>(tid) * kMaxReps + i;
    unsigned key = 0;
    switch (p.keys) {
    case KeyPattern::random:
      key = static_cast<unsigned>(rnd(p.seed, 4, idx) % p.distinct);
      break;
    case KeyPattern::sorted: // runs of adjacent threads on one address
      key = static_cast<unsigned>(
          (static_cast<std::uint64_t>(tid) * p.distinct) / static_cast<std::uint64_t>(p.n));
      break;
    case KeyPattern::warp_uniform: { // one address per hardware warp, all iterations
      const int block = tid / p.block, warp = (tid % p.block) / 32;
      key = static_cast<unsigned>(rnd(p.seed, 5, static_cast<std::uint64_t>(block) * 64 + warp) %
                                  p.distinct);
      break;
    }
    }
    keys[idx] = key;
    vals[idx] = Op::template value<T>(rnd(p.seed, 6, idx), p.kind, key, p.seed);
  }
}

template <class Op, class T>
__global__ void gen_init(CaseParams p, T *init) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.distinct)
    init[i] = Op::template init<T>(rnd(p.seed, 8, i), p.kind, i, p.seed);
}

template <class Op, class T, Variant V> __device__ __forceinline__ void apply(T *p, T v) {
  if constexpr (V == Variant::plain) Op::plain(p, v);
  else if constexpr (V == Variant::sr) Op::sr(p, v);
  else if constexpr (V == Variant::vr) Op::vr(p, v);
  else if constexpr (V == Variant::uniform) Op::uniform(p, v);
  else if constexpr (V == Variant::automatic) Op::automatic(p, v);
  else if constexpr (V == Variant::filtered) Op::filtered(p, v);
  else Op::apply(p, v);
}

/// Applies every thread's updates to `target` (global) or to a shared copy
/// of `init` per block, written to block_out[block * distinct + i] at the end.
template <class Op, class T, Variant V, Space S>
__global__ void run_case(T *target, T *block_out, const T *init, const unsigned *keys,
                         const T *vals, const unsigned char *reps, int n, unsigned distinct,
                         Mode mode) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T *base = target;
  if constexpr (S == Space::shared) {
    T *smem = reinterpret_cast<T *>(smem_raw);
    for (unsigned i = threadIdx.x; i < distinct; i += blockDim.x)
      smem[i] = init[i];
    __syncthreads();
    base = smem;
  }
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if constexpr (S == Space::global) {
    if (mode == Mode::early && (tid >= n || reps[tid] == 0))
      return; // these lanes exit; the rest of their warp carries on
  }
  if (tid < n) {
    const int r = reps[tid];
    if (mode == Mode::all || mode == Mode::subset) {
      if (r)
        apply<Op, T, V>(base + keys[tid * kMaxReps], vals[tid * kMaxReps]);
    } else {
      for (int i = 0; i < r; ++i)
        apply<Op, T, V>(base + keys[tid * kMaxReps + i], vals[tid * kMaxReps + i]);
    }
  }
  if constexpr (S == Space::shared) {
    __syncthreads();
    const T *smem = reinterpret_cast<const T *>(smem_raw);
    for (unsigned i = threadIdx.x; i < distinct; i += blockDim.x)
      block_out[static_cast<std::size_t>(blockIdx.x) * distinct + i] = smem[i];
  }
}

/// Monotonic updates as a topology-driven fixed point: rounds of every
/// thread's updates until a round in which no thread saw an improvement
/// (global: the host relaunches while *changed; shared: the block loops).
template <class Op, class T, Space S>
__global__ void run_monotonic(T *target, T *block_out, const T *init, const unsigned *keys,
                              const T *vals, const unsigned char *reps, int n,
                              unsigned distinct, Mode mode, int *changed) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __shared__ int block_changed;
  T *base = target;
  if constexpr (S == Space::shared) {
    T *smem = reinterpret_cast<T *>(smem_raw);
    for (unsigned i = threadIdx.x; i < distinct; i += blockDim.x)
      smem[i] = init[i];
    base = smem;
  }
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if constexpr (S == Space::global) {
    if (mode == Mode::early && (tid >= n || reps[tid] == 0))
      return;
  }
  auto one = [&](T *p, T v) {
    if (Op::improves(v, cuda::atomic_ref<T, cuda::thread_scope_device>(*p).load(
                            cuda::memory_order_relaxed))) {
      if constexpr (S == Space::shared) block_changed = 1;
      else *changed = 1;
    }
    Op::apply(p, v);
  };
  for (;;) {
    if constexpr (S == Space::shared) {
      if (threadIdx.x == 0)
        block_changed = 0;
      __syncthreads();
    }
    if (tid < n) {
      const int r = reps[tid];
      if (mode == Mode::all || mode == Mode::subset) {
        if (r)
          one(base + keys[tid * kMaxReps], vals[tid * kMaxReps]);
      } else {
        for (int i = 0; i < r; ++i)
          one(base + keys[tid * kMaxReps + i], vals[tid * kMaxReps + i]);
      }
    }
    if constexpr (S == Space::global) {
      break; // one round per launch
    } else {
      __syncthreads();
      const bool again = block_changed != 0;
      __syncthreads(); // all have read the flag before it is reset
      if (!again)
        break;
    }
  }
  if constexpr (S == Space::shared) {
    const T *smem = reinterpret_cast<const T *>(smem_raw);
    for (unsigned i = threadIdx.x; i < distinct; i += blockDim.x)
      block_out[static_cast<std::size_t>(blockIdx.x) * distinct + i] = smem[i];
  }
}

// ---------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------
struct Scenario {
  Space space;
  unsigned distinct;
  int block;
  Mode mode;
  KeyPattern keys;
};

struct Options {
  bool quick = false;
  bool host_only = false;
  std::vector<std::string> filters; // a case runs when its name contains any
  int verbose_fail = 5;
  bool selected(const std::string &case_name) const {
    if (filters.empty())
      return true;
    for (const std::string &f : filters)
      if (case_name.find(f) != std::string::npos)
        return true;
    return false;
  }
};

struct Totals {
  long passed = 0, failed = 0;
};

/// Device buffers reused by every case (sized for the largest).
struct Buffers {
  static constexpr int kGlobalThreads = 40000;   // not a multiple of 32
  static constexpr int kSharedBlocks = 16;
  static constexpr std::size_t kMaxWords = 65536; // >= distinct, >= 16 * 4096
  unsigned *keys = nullptr;
  unsigned char *reps = nullptr;
  void *vals = nullptr, *init = nullptr, *ref = nullptr, *test = nullptr;
  int *changed = nullptr;
  Buffers() {
    const std::size_t slots = static_cast<std::size_t>(kGlobalThreads) * kMaxReps;
    DD_CUDA_CHECK(cudaMalloc(&keys, slots * sizeof(unsigned)));
    DD_CUDA_CHECK(cudaMalloc(&reps, kGlobalThreads));
    DD_CUDA_CHECK(cudaMalloc(&vals, slots * 8));
    DD_CUDA_CHECK(cudaMalloc(&init, kMaxWords * 8));
    DD_CUDA_CHECK(cudaMalloc(&ref, kMaxWords * 8));
    DD_CUDA_CHECK(cudaMalloc(&test, kMaxWords * 8));
    DD_CUDA_CHECK(cudaMalloc(&changed, sizeof(int)));
  }
};

std::vector<Scenario> scenarios(Variant v, bool quick) {
  const unsigned levels_all[] = {1, 2, 8, 32, 256, 4096, 65536};
  const unsigned levels_quick[] = {1, 8, 4096};
  const int blocks_all[] = {32, 96, 100, 256, 1024};
  const int blocks_quick[] = {100};
  std::vector<unsigned> levels(quick ? std::begin(levels_quick) : std::begin(levels_all),
                               quick ? std::end(levels_quick) : std::end(levels_all));
  std::vector<int> blocks(quick ? std::begin(blocks_quick) : std::begin(blocks_all),
                          quick ? std::end(blocks_quick) : std::end(blocks_all));
  const bool uniform = v == Variant::uniform;
  const KeyPattern main_keys = uniform ? KeyPattern::warp_uniform : KeyPattern::random;
  std::vector<Scenario> out;
  for (Space space : {Space::global, Space::shared})
    for (unsigned distinct : levels) {
      if (space == Space::shared && distinct > 4096)
        continue; // 65536 words do not fit in one block's shared memory
      for (int block : blocks) {
        out.push_back({space, distinct, block, Mode::all, main_keys});
        if (!uniform)
          out.push_back({space, distinct, block, Mode::all, KeyPattern::sorted});
        out.push_back({space, distinct, block, Mode::subset, main_keys});
        out.push_back({space, distinct, block, Mode::loop, main_keys});
        if (space == Space::global)
          out.push_back({space, distinct, block, Mode::early, main_keys});
      }
    }
  return out;
}

template <class T> bool bits_equal(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return a == b || (std::isnan(a) && std::isnan(b));
  else return a == b;
}

template <class T> std::string show(T x) {
  char buf[64];
  if constexpr (std::is_floating_point_v<T>) std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(x));
  else if constexpr (std::is_signed_v<T>) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(x));
  else std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(x));
  return buf;
}

/// The inputs of a case on the host, for the bound and the monotonic
/// reference: per target word (block * distinct + key in shared space, key
/// in global space), its updates in order of thread.
template <class T> struct HostInputs {
  std::vector<unsigned> keys;
  std::vector<T> vals, init;
  std::vector<unsigned char> reps;
};

template <class T>
HostInputs<T> fetch_inputs(const Buffers &b, int n, unsigned distinct) {
  HostInputs<T> h;
  h.keys.resize(static_cast<std::size_t>(n) * kMaxReps);
  h.vals.resize(h.keys.size());
  h.reps.resize(n);
  h.init.resize(distinct);
  DD_CUDA_CHECK(cudaMemcpy(h.keys.data(), b.keys, h.keys.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(h.vals.data(), b.vals, h.vals.size() * sizeof(T), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(h.reps.data(), b.reps, n, cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(h.init.data(), b.init, distinct * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

/// Calls f(word, value) for every update of the case, word being the index
/// into the output (global: key; shared: block * distinct + key).
template <class T, class F>
void for_each_update(const HostInputs<T> &h, const Scenario &s, int n, F f) {
  for (int tid = 0; tid < n; ++tid) {
    const int r = s.mode == Mode::all || s.mode == Mode::subset ? (h.reps[tid] ? 1 : 0) : h.reps[tid];
    const std::size_t block = s.space == Space::shared ? static_cast<std::size_t>(tid / s.block) : 0;
    for (int i = 0; i < r; ++i) {
      const std::size_t idx = static_cast<std::size_t>(tid) * kMaxReps + i;
      f(block * s.distinct + h.keys[idx], h.vals[idx]);
    }
  }
}

/// Runs one case; returns the number of mismatching words (0: pass) and
/// writes a description of the first few.
template <class Op, class T, Variant V>
long run_one(Buffers &b, const Scenario &s, std::uint64_t seed, ValueKind kind,
             std::string &detail, int verbose_fail) {
  const bool shared = s.space == Space::shared;
  const int n = shared ? Buffers::kSharedBlocks * s.block - 5 : Buffers::kGlobalThreads;
  const int grid = (n + s.block - 1) / s.block;
  const std::size_t words = shared ? static_cast<std::size_t>(grid) * s.distinct : s.distinct;
  const std::size_t smem = shared ? s.distinct * sizeof(T) : 0;
  CaseParams p{seed, n, s.distinct, s.block, s.mode, s.keys, kind};

  T *init = static_cast<T *>(b.init), *ref = static_cast<T *>(b.ref), *test = static_cast<T *>(b.test);
  T *vals = static_cast<T *>(b.vals);
  gen_inputs<Op, T><<<(n + 255) / 256, 256>>>(p, b.keys, vals, b.reps);
  gen_init<Op, T><<<(s.distinct + 255) / 256, 256>>>(p, init);
  DD_CUDA_CHECK(cudaGetLastError());

  std::vector<T> got(words), want(words);
  if constexpr (V == Variant::monotonic) {
    // Fixed point on the GPU; reference: min/max of init and all values.
    int rounds = 0;
    if (shared) {
      run_monotonic<Op, T, Space::shared><<<grid, s.block, smem>>>(
          nullptr, test, init, b.keys, vals, b.reps, n, s.distinct, s.mode, b.changed);
      DD_CUDA_CHECK(cudaGetLastError());
    } else {
      DD_CUDA_CHECK(cudaMemcpy(test, init, words * sizeof(T), cudaMemcpyDeviceToDevice));
      int changed = 1;
      while (changed) {
        if (++rounds > 200) {
          detail = "no fixed point after 200 rounds";
          return 1;
        }
        DD_CUDA_CHECK(cudaMemset(b.changed, 0, sizeof(int)));
        run_monotonic<Op, T, Space::global><<<grid, s.block>>>(
            test, nullptr, init, b.keys, vals, b.reps, n, s.distinct, s.mode, b.changed);
        DD_CUDA_CHECK(cudaGetLastError());
        DD_CUDA_CHECK(cudaMemcpy(&changed, b.changed, sizeof(int), cudaMemcpyDeviceToHost));
      }
    }
    DD_CUDA_CHECK(cudaMemcpy(got.data(), test, words * sizeof(T), cudaMemcpyDeviceToHost));
    const HostInputs<T> h = fetch_inputs<T>(b, n, s.distinct);
    for (std::size_t w = 0; w < words; ++w)
      want[w] = h.init[w % s.distinct];
    for_each_update(h, s, n, [&](std::size_t w, T v) {
      if (Op::improves(v, want[w]))
        want[w] = v;
    });
  } else {
    auto launch = [&](auto variant_tag, T *out) {
      constexpr Variant W = decltype(variant_tag)::value;
      if (shared) {
        run_case<Op, T, W, Space::shared><<<grid, s.block, smem>>>(
            nullptr, out, init, b.keys, vals, b.reps, n, s.distinct, s.mode);
      } else {
        DD_CUDA_CHECK(cudaMemcpy(out, init, words * sizeof(T), cudaMemcpyDeviceToDevice));
        run_case<Op, T, W, Space::global><<<grid, s.block>>>(
            out, nullptr, init, b.keys, vals, b.reps, n, s.distinct, s.mode);
      }
      DD_CUDA_CHECK(cudaGetLastError());
    };
    launch(std::integral_constant<Variant, Variant::plain>{}, ref);
    launch(std::integral_constant<Variant, V>{}, test);
    DD_CUDA_CHECK(cudaMemcpy(want.data(), ref, words * sizeof(T), cudaMemcpyDeviceToHost));
    DD_CUDA_CHECK(cudaMemcpy(got.data(), test, words * sizeof(T), cudaMemcpyDeviceToHost));
  }
  DD_CUDA_CHECK(cudaDeviceSynchronize());

  // Real-valued float sums: both results are some summation order of the
  // same m terms (the initial word and m - 1 updates), each within
  // gamma_{m-1} * S of the exact sum, S = sum of |terms| (Higham, Accuracy
  // and Stability, Thm 4.1: any order, any tree). So they differ by at most
  // 2 * gamma_{m-1} * S, gamma_k = k u / (1 - k u), u = unit roundoff. The
  // small-integer cases (every other float case) check exactness instead:
  // they catch a lost or doubled update that this bound could hide.
  std::vector<double> bound;
  if constexpr (std::is_floating_point_v<T> && V != Variant::monotonic) {
    if (kind == ValueKind::real) {
      const HostInputs<T> h = fetch_inputs<T>(b, n, s.distinct);
      std::vector<double> sum_abs(words), count(words, 1.0);
      for (std::size_t w = 0; w < words; ++w)
        sum_abs[w] = std::fabs(static_cast<double>(h.init[w % s.distinct]));
      for_each_update(h, s, n, [&](std::size_t w, T v) {
        sum_abs[w] += std::fabs(static_cast<double>(v));
        count[w] += 1;
      });
      const double u = std::is_same_v<T, float> ? 0x1.0p-24 : 0x1.0p-53;
      bound.resize(words);
      for (std::size_t w = 0; w < words; ++w) {
        const double k = count[w] - 1;
        bound[w] = 2 * (k * u / (1 - k * u)) * sum_abs[w];
      }
    }
  }

  long bad = 0;
  for (std::size_t w = 0; w < words; ++w) {
    bool ok;
    if (!bound.empty())
      ok = std::fabs(static_cast<double>(got[w]) - static_cast<double>(want[w])) <= bound[w];
    else
      ok = bits_equal(got[w], want[w]);
    if (!ok) {
      if (bad < verbose_fail)
        detail += " [word " + std::to_string(w) + ": got " + show(got[w]) + ", want " +
                  show(want[w]) + "]";
      ++bad;
    }
  }
  return bad;
}

template <class Op, class T, Variant V>
void run_variant(Buffers &b, const Options &opt, Totals &totals, long &case_index) {
  const std::string prefix =
      std::string(Op::name) + "/" + type_name<T>() + "/" + name(V);
  if (!opt.selected(prefix))
    return;
  for (const Scenario &s : scenarios(V, opt.quick)) {
    const std::uint64_t seed = mix64(0xdd00 + static_cast<std::uint64_t>(case_index));
    ValueKind kind = ValueKind::bits;
    if constexpr (std::is_floating_point_v<T>)
      kind = case_index % 2 ? ValueKind::real : ValueKind::small_int;
    ++case_index;
    std::string detail;
    const long bad = run_one<Op, T, V>(b, s, seed, kind, detail, opt.verbose_fail);
    std::printf("%s %s %s/%s/%s distinct=%u block=%d values=%s seed=%#llx%s%s\n",
                bad ? "FAIL" : "PASS", prefix.c_str(), name(s.space), name(s.mode),
                name(s.keys), s.distinct, s.block,
                kind == ValueKind::bits ? "bits" : kind == ValueKind::small_int ? "small-int" : "real",
                static_cast<unsigned long long>(seed), bad ? " mismatches=" : "",
                bad ? (std::to_string(bad) + detail).c_str() : "");
    if (bad) ++totals.failed;
    else ++totals.passed;
  }
}

// ---------------------------------------------------------------------------
// Host checks of dd::scatter_remap (no GPU needed): the remap is a
// permutation of the warps; it deals rounds (round r holds the r-th warp of
// every key with more than r warps, keys ascending, warps of one key in
// ascending order); and warp keys are the per-warp mode.
// ---------------------------------------------------------------------------
void check_scatter_remap(Totals &totals) {
  auto report = [&](bool ok, const std::string &what) {
    std::printf("%s scatter_remap %s\n", ok ? "PASS" : "FAIL", what.c_str());
    if (ok) ++totals.passed;
    else ++totals.failed;
  };
  // Paper-style example: warps 0..5 with keys 7 7 7 3 3 9.
  {
    const std::vector<unsigned> keys = {7, 7, 7, 3, 3, 9};
    const std::vector<std::uint32_t> want = {3, 0, 5, 4, 1, 2};
    report(dd::scatter_remap(keys) == want, "example keys 7 7 7 3 3 9 -> 3 0 5 4 1 2");
  }
  report(dd::scatter_remap(std::vector<unsigned>{}).empty(), "no warps");
  {
    // Mode: ties go to the smaller key; the last warp may be partial.
    std::vector<unsigned> threads(40);
    for (int i = 0; i < 32; ++i) threads[i] = i < 16 ? 5 : 2; // 16 each: tie -> 2
    for (int i = 32; i < 40; ++i) threads[i] = i < 35 ? 9 : 4; // 3 x 9, 5 x 4 -> 4
    const std::vector<unsigned> keys = dd::warp_keys_by_mode(threads.data(), threads.size());
    report(keys == std::vector<unsigned>{2, 4}, "warp_keys_by_mode ties and partial warp");
  }
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t warps = 1 + rnd(trial, 20, 0) % 3000;
    const unsigned distinct = 1 + static_cast<unsigned>(rnd(trial, 21, 0) % 50);
    std::vector<std::uint64_t> keys(warps);
    for (std::size_t w = 0; w < warps; ++w)
      keys[w] = rnd(trial, 22, w) % distinct * 1000003; // sparse key values
    const std::vector<std::uint32_t> remap = dd::scatter_remap(keys);
    bool ok = remap.size() == warps;
    std::vector<char> seen(warps, 0);
    for (std::uint32_t w : remap) {
      ok = ok && w < warps && !seen[w];
      if (w < warps) seen[w] = 1;
    }
    // Expected layout built the slow way.
    std::map<std::uint64_t, std::vector<std::uint32_t>> sets;
    for (std::size_t w = 0; w < warps; ++w)
      sets[keys[w]].push_back(static_cast<std::uint32_t>(w));
    std::vector<std::uint32_t> want;
    for (std::size_t round = 0; want.size() < warps; ++round)
      for (const auto &kv : sets)
        if (kv.second.size() > round)
          want.push_back(kv.second[round]);
    ok = ok && remap == want;
    if (!ok || trial == 199)
      report(ok, "random trial " + std::to_string(trial) + " (" + std::to_string(warps) +
                     " warps, " + std::to_string(distinct) + " keys)" +
                     (ok ? " and all before it" : ""));
    if (!ok)
      break;
  }
}

template <class Op, class T>
void run_aggregated(Buffers &b, const Options &o, Totals &t, long &i) {
  run_variant<Op, T, Variant::sr>(b, o, t, i);
  run_variant<Op, T, Variant::vr>(b, o, t, i);
  run_variant<Op, T, Variant::uniform>(b, o, t, i);
  // _auto: the plain atomic on shared memory, vr on global (atomicInc has
  // no such variant).
  if constexpr (!std::is_same_v<Op, OpInc>)
    run_variant<Op, T, Variant::automatic>(b, o, t, i);
  // _filtered (min and max only): the atomic behind a load; every word only
  // moves one way here, so the memory must equal plain atomics' exactly.
  if constexpr (std::is_same_v<Op, OpMin> || std::is_same_v<Op, OpMax>)
    run_variant<Op, T, Variant::filtered>(b, o, t, i);
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      opt.quick = true;
    } else if (a == "--host-only") {
      opt.host_only = true;
    } else if (a == "--filter" && i + 1 < argc) {
      std::string list = argv[++i];
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        if (comma > at)
          opt.filters.push_back(list.substr(at, comma - at));
        at = comma + 1;
      }
    } else if (a == "--verbose-fail" && i + 1 < argc) {
      opt.verbose_fail = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: %s [--quick] [--host-only] [--filter A,B,...] [--verbose-fail N]\n",
                   argv[0]);
      return 2;
    }
  }
  Totals t;
  check_scatter_remap(t);
  if (opt.host_only) {
    std::printf("%ld passed, %ld failed\n", t.passed, t.failed);
    return t.failed ? 1 : 0;
  }

  cudaDeviceProp prop{};
  DD_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# device: %s (sm_%d%d), reductions: %s, match32: %s, DD_VR_SAMPLES=%d, "
              "DD_VR_THRESHOLD=%d, DD_INC_CAS_ATTEMPTS=%d\n",
              prop.name, prop.major, prop.minor,
#if defined(DD_ATOMICS_NO_REDUX)
              "shuffle only (DD_ATOMICS_NO_REDUX)",
#else
              "__reduce_*_sync where available",
#endif
#if defined(DD_ATOMICS_NO_MATCH32)
              "no",
#else
              "yes",
#endif
              DD_VR_SAMPLES, DD_VR_THRESHOLD, DD_INC_CAS_ATTEMPTS);
  Buffers b;
  long i = 0;

  run_aggregated<OpAdd, int>(b, opt, t, i);
  run_aggregated<OpAdd, unsigned>(b, opt, t, i);
  run_aggregated<OpAdd, unsigned long long>(b, opt, t, i);
  run_aggregated<OpAdd, float>(b, opt, t, i);
  run_aggregated<OpAdd, double>(b, opt, t, i);
  run_aggregated<OpSub, int>(b, opt, t, i);
  run_aggregated<OpSub, unsigned>(b, opt, t, i);
  run_aggregated<OpSub, unsigned long long>(b, opt, t, i);
  run_aggregated<OpMin, int>(b, opt, t, i);
  run_aggregated<OpMin, unsigned>(b, opt, t, i);
  run_aggregated<OpMin, long long>(b, opt, t, i);
  run_aggregated<OpMin, unsigned long long>(b, opt, t, i);
  run_aggregated<OpMax, int>(b, opt, t, i);
  run_aggregated<OpMax, unsigned>(b, opt, t, i);
  run_aggregated<OpMax, long long>(b, opt, t, i);
  run_aggregated<OpMax, unsigned long long>(b, opt, t, i);
  run_aggregated<OpAnd, int>(b, opt, t, i);
  run_aggregated<OpAnd, unsigned>(b, opt, t, i);
  run_aggregated<OpAnd, unsigned long long>(b, opt, t, i);
  run_aggregated<OpOr, int>(b, opt, t, i);
  run_aggregated<OpOr, unsigned>(b, opt, t, i);
  run_aggregated<OpOr, unsigned long long>(b, opt, t, i);
  run_aggregated<OpXor, int>(b, opt, t, i);
  run_aggregated<OpXor, unsigned>(b, opt, t, i);
  run_aggregated<OpXor, unsigned long long>(b, opt, t, i);
  run_aggregated<OpInc, unsigned>(b, opt, t, i);
  run_variant<OpMonotonic<false>, int, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<false>, unsigned, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<false>, long long, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<false>, unsigned long long, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<false>, float, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<true>, int, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<true>, unsigned, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<true>, long long, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<true>, unsigned long long, Variant::monotonic>(b, opt, t, i);
  run_variant<OpMonotonic<true>, float, Variant::monotonic>(b, opt, t, i);

  std::printf("%ld passed, %ld failed\n", t.passed, t.failed);
  return t.failed ? 1 : 0;
}
