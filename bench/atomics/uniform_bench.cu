// Atomics at a warp-uniform address, as written against the pass's
// dd::atomic_OP_uniform (one reduction over the active lanes, one atomic by
// the lowest). The pass chooses the variant for a scalar address, one the
// compiler can also see is the same for every lane of a warp; this measures
// whether the rewrite gains anything over what nvcc makes of the plain
// atomic. Shapes:
//   grid    every thread of the grid adds to one counter (a loop of 8)
//   block   each block adds to its own counter (blockIdx), a loop of 8, as
//           HeCBench's all-pairs-distance does
//   guarded only thread 0 of each block adds (the result of a block
//           reduction), as HeCBench's accuracy does
// and, for the choice by type and memory space, one counter per grid or a
// block's __shared__ counter (as HeCBench's fpc does) with:
//   add on int, unsigned long long and float, max on int.
// Every result is checked against the exact sum. Timing: CUDA events around
// each launch, 5 warm-up launches, median of 25; ratio = as written /
// rewritten (> 1: the rewrite is faster).
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/atomics/uniform_bench.cu
#include <dd/atomics.cuh>

#include <algorithm>
#include <type_traits>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kLoop = 8;

template <bool Rewritten>
__global__ void grid_counter(const int *in, int *counter, int n) {
  for (int k = 0; k < kLoop; ++k) {
    const int i = (k * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
      if (Rewritten)
        dd::atomic_add_uniform(counter, in[i]);
      else
        atomicAdd(counter, in[i]);
    }
  }
}

template <bool Rewritten>
__global__ void block_counter(const int *in, int *counters, int n) {
  for (int k = 0; k < kLoop; ++k) {
    const int i = (k * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
      if (Rewritten)
        dd::atomic_add_uniform(counters + blockIdx.x, in[i]);
      else
        atomicAdd(counters + blockIdx.x, in[i]);
    }
  }
}

template <bool Rewritten>
__global__ void guarded_counter(const int *in, int *counter, int n) {
  __shared__ int sum;
  if (threadIdx.x == 0)
    sum = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd_block(&sum, in[i]);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (Rewritten)
      dd::atomic_add_uniform(counter, sum);
    else
      atomicAdd(counter, sum);
  }
}

// Both spellings of one operation: the CUDA atomic and the pass's rewrite.
struct AddOp {
  template <class T> __device__ static void plain(T *a, T v) { atomicAdd(a, v); }
  template <class T> __device__ static void rewritten(T *a, T v) { dd::atomic_add_uniform(a, v); }
  template <class T> static T identity() { return T(0); }
  template <class T> static T apply(T a, T b) { return a + b; }
};
struct MaxOp {
  template <class T> __device__ static void plain(T *a, T v) { atomicMax(a, v); }
  template <class T> __device__ static void rewritten(T *a, T v) { dd::atomic_max_uniform(a, v); }
  template <class T> static T identity() { return T(0); }
  template <class T> static T apply(T a, T b) { return a > b ? a : b; }
};

/// The value element i adds. The float one keeps every partial sum an
/// integer below 2^24, so any order of the additions gives the exact sum.
template <class T>
__host__ __device__ T typed_value(int in_i, int i) {
  if constexpr (std::is_floating_point_v<T>)
    return i < (1 << 24) ? static_cast<T>(in_i & 1) : T(0);
  else
    return static_cast<T>(in_i + (i & 15));
}

/// Every thread applies Op to one counter: the grid's (`out`) or, with
/// Shared, its block's __shared__ counter, which thread 0 then folds into
/// `out` with the plain atomic in both versions.
template <class T, class Op, bool Shared, bool Rewritten>
__global__ void typed_counter(const int *in, T *out, int n) {
  __shared__ T block_total;
  T *counter = Shared ? &block_total : out;
  if (Shared) {
    if (threadIdx.x == 0)
      block_total = T(0);
    __syncthreads();
  }
  for (int k = 0; k < kLoop; ++k) {
    const int i = (k * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
      const T v = typed_value<T>(in[i], i);
      if (Rewritten)
        Op::rewritten(counter, v);
      else
        Op::plain(counter, v);
    }
  }
  if (Shared) {
    __syncthreads();
    if (threadIdx.x == 0)
      Op::plain(out, block_total);
  }
}

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "uniform_bench: %s: %s\n", #x, cudaGetErrorString(e_));        \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

template <class Launch>
float median_ms(Launch launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int w = 0; w < 5; ++w)
    launch();
  std::vector<float> t;
  for (int r = 0; r < 25; ++r) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

} // namespace

int main() {
  const int n = 1 << 26, block = 256;
  std::vector<int> h(n);
  long long total = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 2654435761u >> 28) & 3; // 0..3, like a mismatch count
    total += h[i];
  }
  int *in = nullptr, *out = nullptr;
  const int loop_blocks = (n + block * kLoop - 1) / (block * kLoop);
  const int flat_blocks = (n + block - 1) / block;
  CHECK(cudaMalloc(&in, sizeof(int) * n));
  CHECK(cudaMalloc(&out, sizeof(int) * flat_blocks));
  CHECK(cudaMemcpy(in, h.data(), sizeof(int) * n, cudaMemcpyHostToDevice));

  bool ok = true;
  auto verify = [&](const char *what, int counters) {
    std::vector<int> r(counters);
    CHECK(cudaMemcpy(r.data(), out, sizeof(int) * counters, cudaMemcpyDeviceToHost));
    long long s = 0;
    for (int v : r)
      s += v;
    if (s != total) {
      std::printf("MISMATCH %s: %lld, want %lld\n", what, s, total);
      ok = false;
    }
  };
  std::printf("| shape | threads | as written (ms) | dd::atomic_add_uniform (ms) | written/rewritten |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  auto row = [&](const char *shape, int counters, auto written, auto rewritten) {
    float t[2];
    t[0] = median_ms([&] {
      CHECK(cudaMemsetAsync(out, 0, sizeof(int) * counters));
      written();
    });
    verify(shape, counters);
    t[1] = median_ms([&] {
      CHECK(cudaMemsetAsync(out, 0, sizeof(int) * counters));
      rewritten();
    });
    verify(shape, counters);
    std::printf("| %s | %d | %.4f | %.4f | %.2fx |\n", shape, n, t[0], t[1], t[0] / t[1]);
  };
  row("grid (one counter)", 1,
      [&] { grid_counter<false><<<loop_blocks, block>>>(in, out, n); },
      [&] { grid_counter<true><<<loop_blocks, block>>>(in, out, n); });
  row("block (a counter per block)", loop_blocks,
      [&] { block_counter<false><<<loop_blocks, block>>>(in, out, n); },
      [&] { block_counter<true><<<loop_blocks, block>>>(in, out, n); });
  row("guarded (thread 0 of a block)", 1,
      [&] { guarded_counter<false><<<flat_blocks, block>>>(in, out, n); },
      [&] { guarded_counter<true><<<flat_blocks, block>>>(in, out, n); });
  // The typed rows: one counter, checked exactly.
  void *typed = nullptr;
  CHECK(cudaMalloc(&typed, sizeof(double)));
  auto typed_row = [&](const char *shape, auto zero, auto op, auto shared) {
    using T = decltype(zero);
    using Op = decltype(op);
    constexpr bool Shared = decltype(shared)::value;
    T want = Op::template identity<T>();
    for (int i = 0; i < n; ++i)
      want = Op::template apply<T>(want, typed_value<T>(h[i], i));
    float t[2];
    for (int w = 0; w < 2; ++w) {
      t[w] = median_ms([&] {
        CHECK(cudaMemsetAsync(typed, 0, sizeof(T)));
        T *counter = static_cast<T *>(typed);
        if (w == 0)
          typed_counter<T, Op, Shared, false><<<loop_blocks, block>>>(in, counter, n);
        else
          typed_counter<T, Op, Shared, true><<<loop_blocks, block>>>(in, counter, n);
      });
      T got;
      CHECK(cudaMemcpy(&got, typed, sizeof(T), cudaMemcpyDeviceToHost));
      if (got != want) {
        std::printf("MISMATCH %s (%s)\n", shape, w == 0 ? "as written" : "rewritten");
        ok = false;
      }
    }
    std::printf("| %s | %d | %.4f | %.4f | %.2fx |\n", shape, n, t[0], t[1], t[0] / t[1]);
  };
  using u64 = unsigned long long;
  typed_row("grid add, int", int(), AddOp(), std::false_type());
  typed_row("grid add, unsigned long long", u64(), AddOp(), std::false_type());
  typed_row("grid add, float", float(), AddOp(), std::false_type());
  typed_row("grid max, int", int(), MaxOp(), std::false_type());
  typed_row("shared add, int", int(), AddOp(), std::true_type());
  typed_row("shared add, unsigned long long", u64(), AddOp(), std::true_type());
  typed_row("shared add, float", float(), AddOp(), std::true_type());
  typed_row("shared max, int", int(), MaxOp(), std::true_type());
  CHECK(cudaFree(typed));
  CHECK(cudaGetLastError());
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf(ok ? "every sum exact\n" : "SUMS DIFFER\n");
  return ok ? 0 : 1;
}
