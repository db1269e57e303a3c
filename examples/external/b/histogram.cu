// Histogram by the keys' high bits; the atomicAdd becomes a warp-aggregated
// dd::atomic_add_* in the rewritten program.
#include "util.h"

namespace b {

__global__ void histogram(unsigned *bins, const unsigned *keys, int n, unsigned nbins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[bin_of(keys[i], nbins)], 1u);
}

} // namespace b

struct Launch {
  unsigned grid;
  unsigned block;
};

void histogram_high(unsigned *bins, const unsigned *keys, int n, unsigned nbins) {
  constexpr Launch launch{.grid = 64, .block = 256}; // C++20
  b::histogram<<<launch.grid, launch.block>>>(bins, keys, n, nbins);
}
