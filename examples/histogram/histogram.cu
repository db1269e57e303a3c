// Histogram of random keys: every thread adds one to the bin of its key, so
// with few bins the atomics of a warp collide on the same words. The
// decoupler atomics pass turns the atomicAdd into dd::atomic_add_vr (the
// address is loaded, hence nonaffine) and the block-count atomic into
// dd::atomic_add_uniform (scalar address).
//
//   histogram [--keys N] [--bins B] [--dist uniform|zipf] [--seed S]
//             [--block T] [--grid G]
// prints "bin count" for every bin, then "total N".
#include <cmath>
#include <vector>

#include "example_util.h"

__global__ void histogram_kernel(unsigned *bins, const unsigned *keys, int n,
                                 unsigned long long *seen) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[keys[i]], 1u);
  // One count per thread that ran, to check the launch covered every key.
  atomicAdd(seen, 1ull);
}

namespace {

const char Usage[] =
    "usage: histogram [--keys N] [--bins B] [--dist uniform|zipf] [--seed S]\n"
    "                 [--block T] [--grid G]\n";

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opts(argc, argv, Usage);
  std::uint64_t n = opts.number("keys", 1 << 20);
  std::uint64_t bins = opts.number("bins", 256);
  std::string dist = opts.get("dist", "uniform");
  std::uint64_t seed = opts.number("seed", 1);
  std::uint64_t block = opts.number("block", 256);
  std::uint64_t grid = opts.number("grid", 0);
  opts.finish();
  if (n == 0 || n > (1ull << 30) || bins == 0 || bins > (1u << 24))
    opts.fail("need 0 < keys <= 2^30 and 0 < bins <= 2^24");
  if (dist != "uniform" && dist != "zipf")
    opts.fail("--dist is uniform or zipf");
  if (block == 0 || block > 1024)
    opts.fail("--block is between 1 and 1024");

  std::vector<unsigned> keys = dd::examples::make_keys(n, unsigned(bins), dist == "zipf", seed);
  if (grid == 0)
    grid = std::min<std::uint64_t>((n + block - 1) / block, 4096);

  unsigned *dBins, *dKeys;
  unsigned long long *dSeen;
  DD_CUDA_CHECK(cudaMalloc(&dBins, bins * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&dKeys, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&dSeen, sizeof(unsigned long long)));
  DD_CUDA_CHECK(cudaMemcpy(dKeys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemset(dBins, 0, bins * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(dSeen, 0, sizeof(unsigned long long)));
  histogram_kernel<<<unsigned(grid), unsigned(block)>>>(dBins, dKeys, int(n), dSeen);
  DD_CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> result(bins);
  unsigned long long seen = 0;
  DD_CUDA_CHECK(cudaMemcpy(result.data(), dBins, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(&seen, dSeen, sizeof(seen), cudaMemcpyDeviceToHost));

  unsigned long long total = 0;
  for (std::uint64_t b = 0; b < bins; ++b) {
    std::printf("%llu %u\n", (unsigned long long)b, result[b]);
    total += result[b];
  }
  std::printf("total %llu threads %llu\n", total, seen);
  DD_CUDA_CHECK(cudaFree(dBins));
  DD_CUDA_CHECK(cudaFree(dKeys));
  DD_CUDA_CHECK(cudaFree(dSeen));
  return total == n && seen == grid * block ? 0 : 1;
}
