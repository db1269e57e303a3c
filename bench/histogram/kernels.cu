// The histogram benchmark's kernels as a CUDA programmer writes them: plain
// atomics, no dd:: calls. This file is the "naive" column of
// histogram_bench and, passed through the decoupler tool, the "auto"
// column (build.sh writes kernels.dd.cu and compiles it with
// -DDD_BENCH_NS=autorw, so both versions link into one binary).
//
// The only annotations are the ones a programmer would add: the two
// *_ranged kernels state the range of their bin index
// (`#pragma dd atomic(privatize) range(nbins)`), which lets the tool keep
// per-block copies of the bins. Every other kernel is left to what the tool
// can prove on its own (byte_hist's index is an unsigned char: 256 bins).

#ifndef DD_BENCH_NS
#define DD_BENCH_NS naive
#endif

namespace DD_BENCH_NS {

/// One key per thread: bins[keys[i]] += 1 for every i < n.
__global__ void hist_thread(const unsigned *keys, unsigned n, unsigned *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[keys[i]], 1u);
}

/// hist_thread with the range of the bin index stated: keys[i] < nbins.
__global__ void hist_thread_ranged(const unsigned *keys, unsigned n, unsigned *bins,
                                   unsigned nbins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#pragma dd atomic(privatize) range(nbins)
    atomicAdd(&bins[keys[i]], 1u);
  }
}

/// Grid-stride loop: each thread adds every (gridDim.x * blockDim.x)-th key.
__global__ void hist_grid(const unsigned *keys, unsigned n, unsigned *bins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}

/// hist_grid with the range of the bin index stated: keys[i] < nbins.
__global__ void hist_grid_ranged(const unsigned *keys, unsigned n, unsigned *bins,
                                 unsigned nbins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
#pragma dd atomic(privatize) range(nbins)
    atomicAdd(&bins[keys[i]], 1u);
  }
}

/// hist_grid with the range in the index itself: keys[i] % nbins (< nbins
/// whatever the keys; the benchmark's keys are < nbins already, so the bins
/// equal the other kernels').
__global__ void hist_grid_mod(const unsigned *keys, unsigned n, unsigned *bins,
                              unsigned nbins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i] % nbins], 1u);
}

/// The usual hand-privatized histogram: one copy of the bins per block in
/// shared memory (nbins words of dynamic shared memory), added to the
/// global bins at the end of the block.
__global__ void hist_shared_private(const unsigned *keys, unsigned n, unsigned *bins,
                                    unsigned nbins) {
  extern __shared__ unsigned s[];
  for (unsigned b = threadIdx.x; b < nbins; b += blockDim.x)
    s[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&s[keys[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < nbins; b += blockDim.x)
    if (s[b])
      atomicAdd(&bins[b], s[b]);
}

/// A byte histogram: bins[bytes[i]] += 1 (256 bins: the index is an
/// unsigned char).
__global__ void byte_hist(const unsigned char *bytes, size_t n, unsigned *bins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
}

// A 256-bin byte histogram in the shape of the well-known per-warp one:
// every warp of a block owns a 256-bin sub-histogram in shared memory (so
// only the lanes of one warp contend for a sub-histogram's words), the
// block writes the sum of its warps' sub-histograms as one partial
// histogram, and a second kernel adds the partials.
constexpr unsigned kWarpHistWarps = 6; // 192 threads per block
constexpr unsigned kWarpHistThreads = kWarpHistWarps * 32;

__device__ inline void add_byte(unsigned *warp_hist, unsigned byte) {
  atomicAdd(warp_hist + byte, 1u);
}

__device__ inline void add_word(unsigned *warp_hist, unsigned w) {
  add_byte(warp_hist, w & 0xffu);
  add_byte(warp_hist, (w >> 8) & 0xffu);
  add_byte(warp_hist, (w >> 16) & 0xffu);
  add_byte(warp_hist, w >> 24);
}

/// partials[blockIdx.x * 256 + b] = how many bytes of this block's words
/// equal b (the words of data hold 4 bytes each).
__global__ void warp_hist256_partial(const unsigned *data, unsigned nwords,
                                     unsigned *partials) {
  __shared__ unsigned s_hist[kWarpHistWarps * 256];
  unsigned *warp_hist = s_hist + (threadIdx.x / 32) * 256;
  for (unsigned b = threadIdx.x; b < kWarpHistWarps * 256; b += blockDim.x)
    s_hist[b] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords;
       i += gridDim.x * blockDim.x)
    add_word(warp_hist, data[i]);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned sum = 0;
    for (unsigned w = 0; w < kWarpHistWarps; ++w)
      sum += s_hist[w * 256 + b];
    partials[blockIdx.x * 256 + b] = sum;
  }
}

/// hist[b] = the sum of partials[p * 256 + b] over p < nparts; one block of
/// 256 threads, one bin per thread.
__global__ void merge_hist256(const unsigned *partials, unsigned nparts, unsigned *hist) {
  const unsigned b = threadIdx.x;
  unsigned sum = 0;
  for (unsigned p = 0; p < nparts; ++p)
    sum += partials[p * 256 + b];
  hist[b] = sum;
}

// ---------------------------------------------------------------------------
// Host launchers (histogram_bench calls DD_BENCH_NS::launch_*). The launch
// configuration is the same in both namespaces; errors are checked by the
// driver (cudaGetLastError after each timed run).
// ---------------------------------------------------------------------------
constexpr unsigned kBlock = 256;

/// Blocks for a one-key-per-thread launch of n keys.
inline unsigned thread_blocks(size_t n) {
  return static_cast<unsigned>((n + kBlock - 1) / kBlock);
}

/// The GPU's SM count, queried once (the benchmark uses one device).
inline unsigned sm_count() {
  static const unsigned count = [] {
    int device = 0, sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        sms < 1)
      sms = 1; // the launch that follows reports the error
    return static_cast<unsigned>(sms);
  }();
  return count;
}

/// Blocks of a grid-stride launch over n elements, `threads` per block:
/// four times as many blocks as can be resident at once (2048 threads per
/// SM on sm_80..sm_90), and no more than one element per thread needs.
/// Four waves keep the tail of the last one short, while every thread still
/// loops over several elements at 2^24 keys (16 on 132 SMs), which is where
/// per-thread or per-block privatization has something to amortize.
inline unsigned grid_blocks(size_t n, unsigned threads) {
  const size_t resident = size_t{sm_count()} * (2048 / threads);
  const size_t wanted = (n + threads - 1) / threads;
  const size_t blocks = wanted < 4 * resident ? wanted : 4 * resident;
  return static_cast<unsigned>(blocks > 0 ? blocks : 1);
}

void launch_hist_thread(const unsigned *keys, unsigned n, unsigned *bins) {
  hist_thread<<<thread_blocks(n), kBlock>>>(keys, n, bins);
}
void launch_hist_thread_ranged(const unsigned *keys, unsigned n, unsigned *bins,
                               unsigned nbins) {
  hist_thread_ranged<<<thread_blocks(n), kBlock>>>(keys, n, bins, nbins);
}
void launch_hist_grid(const unsigned *keys, unsigned n, unsigned *bins) {
  hist_grid<<<grid_blocks(n, kBlock), kBlock>>>(keys, n, bins);
}
void launch_hist_grid_ranged(const unsigned *keys, unsigned n, unsigned *bins,
                             unsigned nbins) {
  hist_grid_ranged<<<grid_blocks(n, kBlock), kBlock>>>(keys, n, bins, nbins);
}
void launch_hist_grid_mod(const unsigned *keys, unsigned n, unsigned *bins, unsigned nbins) {
  hist_grid_mod<<<grid_blocks(n, kBlock), kBlock>>>(keys, n, bins, nbins);
}
/// nbins words of dynamic shared memory: the driver calls it only where
/// that fits the default limit of 48 KiB (nbins <= 12288).
void launch_hist_shared_private(const unsigned *keys, unsigned n, unsigned *bins,
                                unsigned nbins) {
  hist_shared_private<<<grid_blocks(n, kBlock), kBlock, nbins * sizeof(unsigned)>>>(
      keys, n, bins, nbins);
}
void launch_byte_hist(const unsigned char *bytes, size_t n, unsigned *bins) {
  byte_hist<<<grid_blocks(n, kBlock), kBlock>>>(bytes, n, bins);
}
/// One resident wave of warp_hist256_partial blocks (at most max_parts),
/// then merge_hist256 into hist[256]. partials holds max_parts * 256 words.
void launch_warp_hist256(const unsigned *data, unsigned nwords, unsigned *partials,
                         unsigned max_parts, unsigned *hist) {
  const size_t resident = size_t{sm_count()} * (2048 / kWarpHistThreads);
  const size_t wanted = (size_t{nwords} + kWarpHistThreads - 1) / kWarpHistThreads;
  size_t parts = wanted < resident ? wanted : resident;
  parts = parts < max_parts ? parts : max_parts;
  parts = parts > 0 ? parts : 1;
  warp_hist256_partial<<<static_cast<unsigned>(parts), kWarpHistThreads>>>(data, nwords,
                                                                           partials);
  merge_hist256<<<1, 256>>>(partials, static_cast<unsigned>(parts), hist);
}

} // namespace DD_BENCH_NS
