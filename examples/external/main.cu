// Two histograms of the same keys, by their low bits (a/histogram.cu) and by
// their high bits (b/histogram.cu); prints both and exits 0 when each counts
// every key once.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

void histogram_low(unsigned *bins, const unsigned *keys, int n, unsigned nbins);
void histogram_high(unsigned *bins, const unsigned *keys, int n, unsigned nbins);

static bool check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

int main() {
  const int n = 1 << 20;
  const unsigned nbins = 16;
  std::vector<unsigned> keys(n);
  unsigned x = 12345;
  for (unsigned &k : keys)
    k = x = x * 1664525u + 1013904223u;

  unsigned *d_keys = nullptr, *d_bins = nullptr;
  if (!check(cudaMalloc(&d_keys, n * sizeof(unsigned)), "cudaMalloc") ||
      !check(cudaMalloc(&d_bins, 2 * nbins * sizeof(unsigned)), "cudaMalloc") ||
      !check(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice),
             "cudaMemcpy") ||
      !check(cudaMemset(d_bins, 0, 2 * nbins * sizeof(unsigned)), "cudaMemset"))
    return 1;
  histogram_low(d_bins, d_keys, n, nbins);
  histogram_high(d_bins + nbins, d_keys, n, nbins);
  std::vector<unsigned> bins(2 * nbins);
  if (!check(cudaMemcpy(bins.data(), d_bins, bins.size() * sizeof(unsigned),
                        cudaMemcpyDeviceToHost),
             "kernels"))
    return 1;
  unsigned long long low = 0, high = 0;
  for (unsigned i = 0; i < nbins; ++i) {
    std::printf("%2u %8u %8u\n", i, bins[i], bins[nbins + i]);
    low += bins[i];
    high += bins[nbins + i];
  }
  std::printf("total %llu %llu\n", low, high);
  return low == n && high == n ? 0 : 1;
}
