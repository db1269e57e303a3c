// Small global arrays updated by atomics at data-dependent indices: the
// shapes the atomics pass privatizes (a block-private copy in shared memory,
// merged once per block: dd/privatize.cuh), and one it must leave as written
// (a per-warp histogram already in shared memory). Each kernel's range comes
// from somewhere else: the key type, `% nbins`, `& mask`, an annotation (run
// here with keys beyond it, which must still land in the global array), a
// __device__ array's extent. Grid-stride walks over bytes and 2-byte
// samples also get vector loads. Where no bound is known, the block keeps a
// cache of the hot indices instead (unbounded_ops). Kernels of one key per
// thread also get one block to run the threads of several (per_thread).
//
//   privatize [--keys N] [--bins B] [--dist uniform|zipf] [--seed S]
//             [--block T] [--grid G] [--verify 0|1]
// prints one digest line per kernel; --verify 1 checks every result against
// the CPU and prints "verify: ok".
#include <algorithm>
#include <cstdint>
#include <vector>

#include <dd/annotate.h>

#include "example_util.h"

constexpr unsigned DeviceBins = 64;
__device__ unsigned g_max[DeviceBins];

/// Byte histogram: the range (256) comes from the key type.
__global__ void byte_hist(const unsigned char *bytes, size_t n, unsigned *bins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&bins[bytes[i]], 1u);
}

/// Histogram over `% nbins`: a range known at launch.
__global__ void mod_hist(const unsigned *keys, size_t n, unsigned *bins,
                         unsigned nbins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(bins + keys[i] % nbins, 1u);
}

/// CUDA by Example's global-memory histogram, a while loop whose index
/// outlives it, then a downward for loop over an index declared before it:
/// both pipelined (dd::pipelined_updates). Each thread writes where its two
/// indices ended, which must be where the loops as written leave them.
__global__ void while_hist(const unsigned char *buffer, long size, unsigned *histo,
                           int *ends) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int offset = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&histo[buffer[i]], 2u);
    i += offset;
  }
  int j = int(size) - 1 - int(threadIdx.x + blockIdx.x * blockDim.x);
  for (; j >= 0; j -= offset)
    atomicAdd(&histo[buffer[j]], 1u);
  ends[threadIdx.x + blockIdx.x * blockDim.x] = i + j;
}

/// A grid-stride walk the pass gives vector loads (dd/grid_stride_updates.cuh):
/// 2-byte samples weighted by themselves, over an index declared before the
/// loop (each thread writes where it ended); then a walk over bytes, which
/// follows that store and so keeps the pipelined loop. Launched from
/// unaligned starts, and once with two rows of threads per block, where
/// each x index walks the arrays twice as written (the runtime then runs
/// the loop as written).
__global__ void walks(const unsigned short *samples, unsigned n,
                      const unsigned char *bytes, long m, unsigned *bins,
                      unsigned *byteBins, unsigned *last) {
  unsigned i;
  for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[samples[i] & 1023], (samples[i] >> 10) + 1u);
  last[(blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = i;
  for (long j = blockIdx.x * blockDim.x + threadIdx.x; j < m;
       j += gridDim.x * blockDim.x)
    atomicAdd(&byteBins[bytes[j]], 1u);
}

/// The range given by the programmer; `keys` may exceed it (`bins` holds
/// `limit` words): those updates go to the global array directly.
__global__ void ranged_hist(const unsigned *keys, size_t n,
                            unsigned long long *bins, unsigned nbins) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    const unsigned long long weight = keys[i] + 1ull;
    DD_PRAGMA(atomic(privatize) range(nbins))
    atomicAdd(&bins[keys[i]], weight);
  }
}

/// No bound of the index: a cache of the hot indices in shared memory, for
/// a 64-bit maximum (grid-stride loop) and a signed subtraction (a while
/// loop with a stride of its own).
__global__ void unbounded_ops(const unsigned *keys, unsigned n,
                              unsigned long long *peaks, int *debits) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicMax(&peaks[keys[i]], (keys[i] ^ i) * 0x9e3779b97f4a7c15ull);
  unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  while (j < n) {
    atomicSub(&debits[keys[j] >> 1], int(j & 7) - 3);
    j += 3 * gridDim.x * blockDim.x;
  }
}

/// One element per thread, an early return, a subtraction on `& 63`.
__global__ void masked_sub(const unsigned *keys, unsigned n, int *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int k = keys[i] & 63;
  atomicSub(&bins[k], int(keys[i] % 5));
}

/// One key per thread, the range known at launch (`% nbins`), 64-bit
/// weights, an early return: a copy where nbins fits the block's shared
/// memory, else a cache of hot indices (--bins 65536 and more); one block
/// for several either way once the grid is many waves.
__global__ void thread_mod(const unsigned *keys, unsigned n, unsigned long long *bins,
                           unsigned nbins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&bins[keys[i] % nbins], (keys[i] & 15) + 1ull);
}

/// One key per thread on a grid of two rows of blocks (blockIdx.y: the
/// pass), no bound of the index (a cache of hot indices), an early return,
/// a helper function and a store of its own per thread. One block runs the
/// threads of several blocks of a row (dd::coarse_blocks) once the grid
/// exceeds a few waves of the GPU (--keys 2^24).
struct Span {
  const unsigned *keys;
  unsigned n;
};
__device__ unsigned weight_of(unsigned key, unsigned pass) { return (key & 7) + pass; }
__global__ void per_thread(Span span, unsigned *counts, unsigned *seen) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= span.n)
    return;
  const unsigned key = span.keys[i];
  seen[blockIdx.y * span.n + i] = key ^ blockIdx.y;
  atomicAdd(&counts[key * 2 + blockIdx.y], weight_of(key, blockIdx.y));
}

/// A maximum into a __device__ array: the range is its extent.
__global__ void device_max(const unsigned *keys, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicMax(&g_max[keys[i] % DeviceBins], keys[i] * 2654435761u);
}

/// Minimum, xor, or and and on other types, ranges from min() and `>>`.
__global__ void mixed_ops(const unsigned *keys, unsigned n, int *mins,
                          unsigned long long *xors, unsigned *ors, unsigned *ands) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    const unsigned k = keys[i];
    atomicMin(&mins[min(k, 99u)], int(k * 7919u) - 1000);
    atomicXor(&xors[(k * 2246822519u) >> 22], 0x9e3779b97f4a7c15ull * (k + 1));
    atomicOr(&ors[k & 31], 1u << (k % 32));
    atomicAnd(&ands[(k >> 3) % 7], ~(1u << (k % 29)));
  }
}

/// A kernel template instantiated for two types: not privatized (templates
/// are not), but both instantiations vote and reduce, so the one text is
/// rewritten for both.
template <class T>
__global__ void typed_hist(const unsigned *keys, unsigned n, T *bins, unsigned nbins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i] % nbins], T(keys[i] & 3));
}

/// Atomics in a member function and in a lambda called from a kernel
/// (followed by the analysis; through `this` and through a capture the
/// memory is unknown, so both decide per lane at run time: _auto).
struct Tally {
  unsigned *slots;
  unsigned size;
  __device__ void add(unsigned key) { atomicAdd(&slots[key % size], 1u); }
};
__global__ void member_lambda(const unsigned *keys, unsigned n, Tally tally,
                              unsigned *weights) {
  auto weigh = [&](unsigned key) { atomicAdd(&weights[key & 15], key); };
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    tally.add(keys[i]);
    weigh(keys[i]);
  }
}

/// A per-warp histogram already in shared memory (the pass leaves its
/// atomics as written: shared-memory atomics are native).
constexpr unsigned WarpsPerBlock = 4;
__device__ inline void add_one(unsigned *warp_hist, unsigned bin) {
  atomicAdd(warp_hist + bin, 1u);
}
__global__ void warp_hist(const unsigned *keys, unsigned n, unsigned *bins) {
  __shared__ unsigned hist[WarpsPerBlock * 256];
  for (unsigned b = threadIdx.x; b < WarpsPerBlock * 256; b += blockDim.x)
    hist[b] = 0;
  __syncthreads();
  unsigned *mine = hist + (threadIdx.x / 32) % WarpsPerBlock * 256;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    add_one(mine, keys[i] & 255);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned sum = 0;
    for (unsigned w = 0; w < WarpsPerBlock; ++w)
      sum += hist[w * 256 + b];
    atomicAdd(&bins[b], sum);
  }
}

namespace {

const char Usage[] =
    "usage: privatize [--keys N] [--bins B] [--dist uniform|zipf] [--seed S]\n"
    "                 [--block T] [--grid G] [--verify 0|1]\n";

template <class T> std::vector<T> download(const T *device, std::size_t count) {
  std::vector<T> host(count);
  DD_CUDA_CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

template <class T> std::uint64_t digest(const std::vector<T> &values) {
  dd::examples::Digest d;
  for (T v : values)
    d.add(static_cast<std::uint64_t>(v));
  return d.value();
}

template <class T> T *upload(const std::vector<T> &host) {
  T *device = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
  DD_CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opts(argc, argv, Usage);
  std::uint64_t n = opts.number("keys", 1 << 20);
  std::uint64_t bins = opts.number("bins", 256);
  std::string dist = opts.get("dist", "uniform");
  std::uint64_t seed = opts.number("seed", 1);
  std::uint64_t block = opts.number("block", 256);
  std::uint64_t grid = opts.number("grid", 0);
  bool verify = opts.number("verify", 1) != 0;
  opts.finish();
  if (n == 0 || n > (1ull << 28) || bins == 0 || bins > (1u << 20))
    opts.fail("need 0 < keys <= 2^28 and 0 < bins <= 2^20");
  if (dist != "uniform" && dist != "zipf")
    opts.fail("--dist is uniform or zipf");
  if (block == 0 || block > 1024)
    opts.fail("--block is between 1 and 1024");
  if (grid == 0)
    grid = std::min<std::uint64_t>((n + block - 1) / block, 1024);
  const unsigned one_per_thread_grid = unsigned((n + block - 1) / block);

  // The ranged kernel sees keys up to twice its annotated range.
  const unsigned nbins = unsigned(bins);
  std::vector<unsigned> keys = dd::examples::make_keys(n, 2 * nbins, dist == "zipf", seed);
  std::vector<unsigned char> bytes(n);
  for (std::uint64_t i = 0; i < n; ++i)
    bytes[i] = static_cast<unsigned char>(keys[i] * 131u + (keys[i] >> 8));

  unsigned *dKeys = upload(keys);
  unsigned char *dBytes = upload(bytes);
  unsigned *dByteBins = upload(std::vector<unsigned>(256, 0));
  unsigned *dModBins = upload(std::vector<unsigned>(nbins, 0));
  unsigned long long *dRanged = upload(std::vector<unsigned long long>(2 * nbins, 0));
  int *dSub = upload(std::vector<int>(64, 1000));
  unsigned long long *dThreadMod = upload(std::vector<unsigned long long>(nbins, 0));
  std::vector<unsigned> maxInit(DeviceBins);
  for (unsigned b = 0; b < DeviceBins; ++b)
    maxInit[b] = b * 1000u;
  DD_CUDA_CHECK(cudaMemcpyToSymbol(g_max, maxInit.data(), sizeof(unsigned) * DeviceBins));
  int *dMins = upload(std::vector<int>(100, 1 << 30));
  unsigned long long *dXors = upload(std::vector<unsigned long long>(1024, 0x1234));
  unsigned *dOrs = upload(std::vector<unsigned>(32, 0));
  unsigned *dAnds = upload(std::vector<unsigned>(7, ~0u));
  unsigned *dWarp = upload(std::vector<unsigned>(256, 0));
  unsigned *dTypedU = upload(std::vector<unsigned>(nbins, 0));
  int *dTypedI = upload(std::vector<int>(nbins, 0));
  unsigned *dTally = upload(std::vector<unsigned>(nbins, 0));
  unsigned *dWeights = upload(std::vector<unsigned>(16, 0));
  unsigned long long *dPeaks = upload(std::vector<unsigned long long>(2 * nbins, 5));
  int *dDebits = upload(std::vector<int>(nbins, 0));
  unsigned *dWhile = upload(std::vector<unsigned>(256, 0));
  unsigned *dCounts = upload(std::vector<unsigned>(4 * nbins, 0));
  unsigned *dSeen = upload(std::vector<unsigned>(2 * n, 0));
  // The walks start `sOff` samples and `bOff` bytes in (not 16-byte
  // aligned) and stop short of the end (a partial last vector).
  std::vector<unsigned short> samples(n);
  for (std::uint64_t i = 0; i < n; ++i)
    samples[i] = static_cast<unsigned short>(keys[i] * 2654435761u >> 16);
  const std::uint64_t sOff = seed % 7 + 1, bOff = seed % 13 + 1;
  const unsigned sN = n > sOff + 3 ? unsigned(n - sOff - 3) : 0;
  const long bN = n > bOff ? long(n - bOff) : 0;
  unsigned short *dSamples = upload(samples);
  const unsigned rowsX = std::max<unsigned>(unsigned(block) / 2, 1);
  unsigned *dWalkBins[2] = {upload(std::vector<unsigned>(1024, 0)),
                            upload(std::vector<unsigned>(1024, 0))};
  unsigned *dWalkBytes[2] = {upload(std::vector<unsigned>(256, 0)),
                             upload(std::vector<unsigned>(256, 0))};
  unsigned *dLast[2] = {upload(std::vector<unsigned>(grid * block, 0)),
                        upload(std::vector<unsigned>(grid * rowsX * 2, 0))};
  int *dEnds = upload(std::vector<int>(grid * block, 0));

  const dim3 G{unsigned(grid)}, B{unsigned(block)};
  byte_hist<<<G, B>>>(dBytes, n, dByteBins);
  while_hist<<<G, B>>>(dBytes, long(n), dWhile, dEnds);
  walks<<<G, B>>>(dSamples + sOff, sN, dBytes + bOff, bN, dWalkBins[0], dWalkBytes[0], dLast[0]);
  walks<<<G, dim3(rowsX, 2)>>>(dSamples + sOff, sN, dBytes + bOff, bN, dWalkBins[1], dWalkBytes[1],
                                dLast[1]);
  mod_hist<<<G, B>>>(dKeys, n, dModBins, nbins);
  ranged_hist<<<G, B>>>(dKeys, n, dRanged, nbins);
  unbounded_ops<<<G, B>>>(dKeys, unsigned(n), dPeaks, dDebits);
  masked_sub<<<one_per_thread_grid, B>>>(dKeys, unsigned(n), dSub);
  thread_mod<<<one_per_thread_grid, B>>>(dKeys, unsigned(n), dThreadMod, nbins);
  per_thread<<<dim3(one_per_thread_grid, 2), B>>>(Span{dKeys, unsigned(n)}, dCounts, dSeen);
  device_max<<<G, B>>>(dKeys, unsigned(n));
  mixed_ops<<<G, B>>>(dKeys, unsigned(n), dMins, dXors, dOrs, dAnds);
  warp_hist<<<G, B>>>(dKeys, unsigned(n), dWarp);
  typed_hist<<<G, B>>>(dKeys, unsigned(n), dTypedU, nbins);
  typed_hist<<<G, B>>>(dKeys, unsigned(n), dTypedI, nbins);
  member_lambda<<<G, B>>>(dKeys, unsigned(n), Tally{dTally, nbins}, dWeights);
  DD_CUDA_CHECK(cudaGetLastError());
  DD_CUDA_CHECK(cudaDeviceSynchronize());

  auto byteBins = download(dByteBins, 256);
  auto whileBins = download(dWhile, 256);
  auto ends = download(dEnds, grid * block);
  std::vector<unsigned> walkBins[2], walkBytes[2], lasts[2];
  for (int r = 0; r < 2; ++r) {
    walkBins[r] = download(dWalkBins[r], 1024);
    walkBytes[r] = download(dWalkBytes[r], 256);
    lasts[r] = download(dLast[r], r == 0 ? grid * block : grid * rowsX * 2);
  }
  auto modBins = download(dModBins, nbins);
  auto ranged = download(dRanged, 2 * nbins);
  auto peaks = download(dPeaks, 2 * nbins);
  auto debits = download(dDebits, nbins);
  auto sub = download(dSub, 64);
  auto threadMod = download(dThreadMod, nbins);
  auto counts = download(dCounts, 4 * nbins);
  auto seen = download(dSeen, 2 * n);
  std::vector<unsigned> maxes(DeviceBins);
  DD_CUDA_CHECK(cudaMemcpyFromSymbol(maxes.data(), g_max, sizeof(unsigned) * DeviceBins));
  auto mins = download(dMins, 100);
  auto xors = download(dXors, 1024);
  auto ors = download(dOrs, 32);
  auto ands = download(dAnds, 7);
  auto warp = download(dWarp, 256);
  auto typedU = download(dTypedU, nbins);
  auto typedI = download(dTypedI, nbins);
  auto tallies = download(dTally, nbins);
  auto weights = download(dWeights, 16);

  std::printf("byte_hist %016llx\n", (unsigned long long)digest(byteBins));
  std::printf("while_hist %016llx %016llx\n", (unsigned long long)digest(whileBins),
              (unsigned long long)digest(ends));
  for (int r = 0; r < 2; ++r)
    std::printf("walks(%s) %016llx %016llx %016llx\n", r == 0 ? "1-D" : "2-D",
                (unsigned long long)digest(walkBins[r]), (unsigned long long)digest(walkBytes[r]),
                (unsigned long long)digest(lasts[r]));
  std::printf("mod_hist %016llx\n", (unsigned long long)digest(modBins));
  std::printf("ranged_hist %016llx\n", (unsigned long long)digest(ranged));
  std::printf("unbounded_ops %016llx %016llx\n", (unsigned long long)digest(peaks),
              (unsigned long long)digest(debits));
  std::printf("masked_sub %016llx\n", (unsigned long long)digest(sub));
  std::printf("thread_mod %016llx\n", (unsigned long long)digest(threadMod));
  std::printf("per_thread %016llx %016llx\n", (unsigned long long)digest(counts),
              (unsigned long long)digest(seen));
  std::printf("device_max %016llx\n", (unsigned long long)digest(maxes));
  std::printf("mixed_ops %016llx %016llx %016llx %016llx\n", (unsigned long long)digest(mins),
              (unsigned long long)digest(xors), (unsigned long long)digest(ors),
              (unsigned long long)digest(ands));
  std::printf("warp_hist %016llx\n", (unsigned long long)digest(warp));
  std::printf("typed_hist %016llx %016llx\n", (unsigned long long)digest(typedU),
              (unsigned long long)digest(typedI));
  std::printf("member_lambda %016llx %016llx\n", (unsigned long long)digest(tallies),
              (unsigned long long)digest(weights));

  int status = 0;
  if (verify) {
    std::vector<unsigned> eByte(256, 0), eMod(nbins, 0), eMax = maxInit, eOrs(32, 0), eWarp(256, 0),
        eAnds(7, ~0u), eTypedU(nbins, 0), eTally(nbins, 0), eWeights(16, 0);
    std::vector<int> eTypedI(nbins, 0);
    std::vector<unsigned long long> eRanged(2 * nbins, 0), eXors(1024, 0x1234);
    std::vector<int> eSub(64, 1000), eMins(100, 1 << 30), eDebits(nbins, 0);
    std::vector<unsigned long long> ePeaks(2 * nbins, 5), eThreadMod(nbins, 0);
    std::vector<unsigned> eWhile(256, 0), eCounts(4 * nbins, 0), eSeen(2 * n);
    std::vector<int> eEnds(grid * block);
    const std::int64_t offset = std::int64_t(grid * block);
    for (std::int64_t t = 0; t < offset; ++t) {
      std::int64_t i = t, j = std::int64_t(n) - 1 - t;
      for (; i < std::int64_t(n); i += offset)
        eWhile[bytes[i]] += 2;
      for (; j >= 0; j -= offset)
        eWhile[bytes[j]] += 1;
      eEnds[t] = int(i + j);
    }
    // walks: every index once per row of threads; each thread's index ends
    // at its first value not below sN.
    bool walksOk = true;
    for (int r = 0; r < 2; ++r) {
      const unsigned rows = r == 0 ? 1 : 2, bx = r == 0 ? unsigned(block) : rowsX;
      const std::uint64_t threadsX = grid * bx;
      std::vector<unsigned> eBins(1024, 0), eBytes(256, 0), eLast(grid * bx * rows);
      for (unsigned i = 0; i < sN; ++i)
        eBins[samples[sOff + i] & 1023] += rows * ((samples[sOff + i] >> 10) + 1u);
      for (long j = 0; j < bN; ++j)
        eBytes[bytes[bOff + j]] += rows;
      for (std::uint64_t t = 0; t < threadsX; ++t) {
        std::uint64_t e = t;
        while (e < sN)
          e += threadsX;
        const std::uint64_t b = t / bx, x = t % bx;
        for (unsigned y = 0; y < rows; ++y)
          eLast[(b * rows + y) * bx + x] = unsigned(e);
      }
      walksOk = walksOk && eBins == walkBins[r] && eBytes == walkBytes[r] && eLast == lasts[r];
    }
    // The while loop's stride: every third grid's worth of keys.
    const std::uint64_t stride = 3 * grid * block;
    for (std::uint64_t t = 0; t < std::min<std::uint64_t>(n, grid * block); ++t)
      for (std::uint64_t j = t; j < n; j += stride)
        eDebits[keys[j] >> 1] -= int(j & 7) - 3;
    for (std::uint64_t i = 0; i < n; ++i) {
      const unsigned k = keys[i];
      ++eByte[bytes[i]];
      ++eMod[k % nbins];
      eRanged[k] += k + 1ull;
      ePeaks[k] = std::max(ePeaks[k], (k ^ unsigned(i)) * 0x9e3779b97f4a7c15ull);
      eSub[k & 63] = int(unsigned(eSub[k & 63]) - k % 5);
      eThreadMod[k % nbins] += (k & 15) + 1ull;
      for (unsigned pass = 0; pass < 2; ++pass) {
        eCounts[k * 2 + pass] += (k & 7) + pass;
        eSeen[pass * n + i] = k ^ pass;
      }
      eMax[k % DeviceBins] = std::max(eMax[k % DeviceBins], k * 2654435761u);
      eMins[std::min(k, 99u)] = std::min(eMins[std::min(k, 99u)], int(k * 7919u) - 1000);
      eXors[(k * 2246822519u) >> 22] ^= 0x9e3779b97f4a7c15ull * (k + 1);
      eOrs[k & 31] |= 1u << (k % 32);
      eAnds[(k >> 3) % 7] &= ~(1u << (k % 29));
      ++eWarp[k & 255];
      eTypedU[k % nbins] += k & 3;
      eTypedI[k % nbins] += int(k & 3);
      ++eTally[k % nbins];
      eWeights[k & 15] += k;
    }
    bool ok = walksOk && eByte == byteBins && eWhile == whileBins && eEnds == ends && eMod == modBins && eRanged == ranged && eSub == sub && eThreadMod == threadMod &&
              eCounts == counts && eSeen == seen &&
              eMax == maxes && eMins == mins && eXors == xors && eOrs == ors && eAnds == ands &&
              eWarp == warp && eTypedU == typedU && eTypedI == typedI && eTally == tallies &&
              eWeights == weights && ePeaks == peaks && eDebits == debits;
    std::printf("verify: %s\n", ok ? "ok" : "FAILED");
    status = ok ? 0 : 1;
  }
  for (void *p : {(void *)dKeys, (void *)dBytes, (void *)dByteBins, (void *)dModBins,
                  (void *)dRanged, (void *)dSub, (void *)dThreadMod, (void *)dMins, (void *)dXors, (void *)dOrs, (void *)dAnds, (void *)dTypedU, (void *)dTypedI, (void *)dTally, (void *)dWeights, (void *)dPeaks, (void *)dDebits, (void *)dWhile, (void *)dCounts, (void *)dSeen, (void *)dEnds, (void *)dSamples, (void *)dWalkBins[0], (void *)dWalkBins[1], (void *)dWalkBytes[0], (void *)dWalkBytes[1], (void *)dLast[0], (void *)dLast[1],
                  (void *)dWarp})
    DD_CUDA_CHECK(cudaFree(p));
  return status;
}
