// An atomic on the path where another atomic returned one value, as written
// against the pass's dd::atomic_add_vr there. The shape is Parboil's histo:
// each block counts keys in shared memory and adds 256 to a global bin each
// time its shared count of that bin passes a multiple of 256 (the atomicAdd
// returned 0xFF in its low byte). Only the lane whose update crossed gets
// there, so the vote has little to combine; this measures what it costs.
// Inputs (keys over `bins` bins, 64M keys, 8 blocks of 256 threads per SM):
//   hot4     four hot bins
//   bins64   uniform over 64 bins
//   peak     a Gaussian peak (sigma 64 bins) in 4096 bins
//   uniform  uniform over 4096 bins
// Every run is checked: the global bins of both kernels equal, and equal to
// the CPU's count rounded down to 256 per block. Timing: CUDA events around
// each launch, 3 warm-up launches, median of 21; ratio = as written /
// rewritten (> 1: the rewrite is faster).
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/atomics/threshold_bench.cu
#include <dd/atomics.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

template <bool Vote>
__global__ void packed_counts(const unsigned *keys, long long n, unsigned bins,
                              unsigned *overflow) {
  extern __shared__ unsigned counts[];
  for (unsigned i = threadIdx.x; i < bins; i += blockDim.x)
    counts[i] = 0;
  __syncthreads();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const unsigned k = keys[i];
    const unsigned prev = atomicAdd(&counts[k], 1u);
    if ((prev & 0xFF) == 0xFF) {
      if (Vote)
        dd::atomic_add_vr(&overflow[k], 256u);
      else
        atomicAdd(&overflow[k], 256u);
    }
  }
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

template <bool Vote>
float timeKernel(const unsigned *keys, long long n, unsigned bins,
                 unsigned *overflow, int blocks, std::vector<unsigned> &out) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r < 24; ++r) {
    CHECK(cudaMemset(overflow, 0, bins * sizeof(unsigned)));
    CHECK(cudaEventRecord(a));
    packed_counts<Vote><<<blocks, 256, bins * sizeof(unsigned)>>>(keys, n, bins,
                                                                  overflow);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaGetLastError());
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    if (r >= 3)
      ms.push_back(t);
  }
  out.resize(bins);
  CHECK(cudaMemcpy(out.data(), overflow, bins * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

} // namespace

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = 8 * sms;
  const long long n = 64ll << 20;
  struct Input {
    const char *name;
    unsigned bins;
    int kind; // 0: 4 hot bins, 1: uniform, 2: Gaussian peak
  } inputs[] = {{"hot4", 4096, 0}, {"bins64", 64, 1}, {"peak", 4096, 2},
                {"uniform", 4096, 1}};
  unsigned *keys, *overflow;
  CHECK(cudaMalloc(&keys, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&overflow, 4096 * sizeof(unsigned)));
  std::printf("| input | bins | as written ms | dd::atomic_add_vr ms | as written "
              "/ vr | check |\n|---|---:|---:|---:|---:|---|\n");
  int failed = 0;
  for (const Input &in : inputs) {
    std::mt19937 rng(12345);
    std::vector<unsigned> h(n);
    std::normal_distribution<double> peak(2048.0, 64.0);
    for (long long i = 0; i < n; ++i) {
      if (in.kind == 0)
        h[i] = 1000 + 7 * (rng() % 4);
      else if (in.kind == 1)
        h[i] = rng() % in.bins;
      else
        h[i] = unsigned(std::min(4095.0, std::max(0.0, std::round(peak(rng)))));
    }
    CHECK(cudaMemcpy(keys, h.data(), n * sizeof(unsigned),
                     cudaMemcpyHostToDevice));
    // The CPU's count: each block takes the keys of its grid-stride walk.
    std::vector<unsigned long long> expect(in.bins, 0);
    const long long stride = (long long)blocks * 256;
    std::vector<unsigned> block(in.bins);
    for (int bl = 0; bl < blocks; ++bl) {
      std::fill(block.begin(), block.end(), 0u);
      for (long long base = (long long)bl * 256; base < n; base += stride)
        for (long long i = base; i < std::min(n, base + 256); ++i)
          ++block[h[i]];
      for (unsigned k = 0; k < in.bins; ++k)
        expect[k] += block[k] / 256 * 256ull;
    }
    std::vector<unsigned> plain, vote;
    const float tp = timeKernel<false>(keys, n, in.bins, overflow, blocks, plain);
    const float tv = timeKernel<true>(keys, n, in.bins, overflow, blocks, vote);
    bool ok = plain == vote;
    for (unsigned k = 0; k < in.bins && ok; ++k)
      ok = plain[k] == expect[k];
    failed += !ok;
    std::printf("| %s | %u | %.4f | %.4f | %.2fx | %s |\n", in.name, in.bins, tp,
                tv, tp / tv, ok ? "ok" : "MISMATCH");
  }
  CHECK(cudaFree(keys));
  CHECK(cudaFree(overflow));
  return failed ? 1 : 0;
}
