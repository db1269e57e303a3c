// What the SSSP kernels and their host loops share: the graph as kernels see
// it, distance types, relaxed accesses, CUDA errors as Status, device
// buffers, events and launch sizes.
#ifndef DD_SSSP_COMMON_CUH
#define DD_SSSP_COMMON_CUH

#include <cstdint>
#include <limits>
#include <vector>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "dd/warp.cuh"
#include "graph/reference.h"
#include "sssp/sssp.h"

namespace dd::sssp {

/// Threads per block of every SSSP kernel (a multiple of the warp size, as
/// the strategies of <dd/load_balance.cuh> require).
inline constexpr unsigned kBlockThreads = 256;

/// The item of a block-wide round (BlockThreads items at most) that this
/// thread takes: item k goes to lane k / warps of warp k % warps, so that a
/// round of fewer items than threads keeps every warp busy instead of
/// leaving all of them to the first warps (docs/sssp.md, "Items spread over
/// the warps").
template <unsigned BlockThreads> __device__ __forceinline__ unsigned spread_item_index() {
  return lane_id() * (BlockThreads / warp_size) + threadIdx.x / warp_size;
}

/// The graph as kernels read it: CSR with 32-bit offsets, read-only.
struct GraphView {
  const std::uint32_t *row_offsets;
  const VertexId *col_indices;
  const std::uint32_t *weights;
  const VertexId *edge_sources;
  std::uint32_t num_vertices;
  std::uint32_t num_edges;
};

inline GraphView view(const DeviceGraph &g) {
  return {g.row_offsets(), g.col_indices(), g.weights(), g.edge_sources(), g.num_vertices(),
          g.num_edges()};
}

/// The "unreached" distance of a distance type: all ones, so that a byte
/// memset of 0xff initializes an array to it.
template <class Dist> inline constexpr Dist kInf = std::numeric_limits<Dist>::max();

/// `du + w` when it is below kInf<Dist>, else false. A candidate that would
/// reach kInf is no shortest distance (those are below it when the distance
/// type was chosen by DeviceGraph::needs_wide_distances()), so dropping it
/// is exact, and no sum ever wraps around.
template <class Dist>
__device__ __forceinline__ bool add_distance(Dist du, std::uint32_t w, Dist &sum) {
  if (w >= kInf<Dist> - du)
    return false;
  sum = du + w;
  return true;
}

/// Relaxed device-scope load and store of words that other threads update
/// in the same launch (distances, levels, marks): defined behaviour under
/// the CUDA memory model, and never cached in a register or in L1.
template <class T> __device__ __forceinline__ T load_relaxed(T &word) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>(word).load(cuda::memory_order_relaxed);
}
template <class T> __device__ __forceinline__ void store_relaxed(T &word, T value) {
  cuda::atomic_ref<T, cuda::thread_scope_device>(word).store(value, cuda::memory_order_relaxed);
}

/// A CUDA error as a Status naming the call ("CUDA error in cudaMalloc:
/// out of memory").
inline Status cuda_status(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return Status();
  return Status::error(graph::str_cat("CUDA error in ", what, ": ", cudaGetErrorString(err)));
}

/// Returns the Status of a CUDA call from the enclosing function on failure.
#define DD_SSSP_CUDA(call)                                                                 \
  do {                                                                                     \
    if (::dd::sssp::Status dd_sssp_status_ = ::dd::sssp::cuda_status((call), #call);       \
        !dd_sssp_status_.ok())                                                             \
      return dd_sssp_status_;                                                              \
  } while (0)

/// Returns an internal-error Status when a worklist overflowed (its capacity
/// is chosen so that it cannot: see the algorithm).
#define DD_SSSP_NO_OVERFLOW(queue)                                                         \
  do {                                                                                     \
    if ((queue).overflowed())                                                              \
      return ::dd::sssp::Status::error("internal error: worklist '" #queue "' overflowed"); \
  } while (0)

/// A device array of `size` T, freed on destruction. Move-only.
template <class T> class DeviceArray {
public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray() { cudaFree(data_); }

  [[nodiscard]] cudaError_t allocate(std::size_t size) {
    cudaFree(data_);
    data_ = nullptr;
    size_ = size;
    return cudaMalloc(&data_, (size > 0 ? size : 1) * sizeof(T));
  }
  T *data() const { return data_; }
  std::size_t size() const { return size_; }

private:
  T *data_ = nullptr;
  std::size_t size_ = 0;
};

/// A word that kernels set on the device and the host reads after each
/// launch, through pinned memory (the fastest small copy back). Zero after
/// allocate().
class DeviceFlag {
public:
  DeviceFlag() = default;
  DeviceFlag(const DeviceFlag &) = delete;
  DeviceFlag &operator=(const DeviceFlag &) = delete;
  ~DeviceFlag() { cudaFreeHost(host_); }

  [[nodiscard]] cudaError_t allocate() {
    cudaError_t err = word_.allocate(1);
    if (err == cudaSuccess)
      err = cudaMallocHost(&host_, sizeof(unsigned));
    if (err == cudaSuccess)
      err = cudaMemset(word_.data(), 0, sizeof(unsigned));
    return err;
  }
  unsigned *device() const { return word_.data(); }
  /// Waits for the launches before it and reads the word.
  [[nodiscard]] cudaError_t read(unsigned &value) const {
    cudaError_t err = cudaMemcpyAsync(host_, word_.data(), sizeof(unsigned),
                                      cudaMemcpyDeviceToHost);
    if (err == cudaSuccess)
      err = cudaStreamSynchronize(0);
    value = *host_;
    return err;
  }

private:
  DeviceArray<unsigned> word_;
  unsigned *host_ = nullptr;
};

/// The elapsed time between two CUDA events, owned.
class GpuTimer {
public:
  GpuTimer() = default;
  GpuTimer(const GpuTimer &) = delete;
  GpuTimer &operator=(const GpuTimer &) = delete;
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  [[nodiscard]] cudaError_t create() {
    cudaError_t err = cudaEventCreate(&start_);
    return err == cudaSuccess ? cudaEventCreate(&stop_) : err;
  }
  [[nodiscard]] cudaError_t start() { return cudaEventRecord(start_); }
  [[nodiscard]] cudaError_t stop() { return cudaEventRecord(stop_); }
  /// Waits for the stop event; the milliseconds between the two.
  [[nodiscard]] cudaError_t elapsed_ms(double &ms) const {
    cudaError_t err = cudaEventSynchronize(stop_);
    float value = 0;
    if (err == cudaSuccess)
      err = cudaEventElapsedTime(&value, start_, stop_);
    ms = value;
    return err;
  }

private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

/// How many blocks of `kernel` (kBlockThreads each) the GPU runs at once: the
/// most a grid-stride launch needs (more would only queue behind the first
/// wave).
template <class Kernel> cudaError_t resident_blocks(Kernel kernel, unsigned &blocks) {
  int device = 0, sms = 0, per_sm = 0;
  cudaError_t err;
  if ((err = cudaGetDevice(&device)) != cudaSuccess ||
      (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) !=
          cudaSuccess ||
      (err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlockThreads, 0)) !=
          cudaSuccess)
    return err;
  blocks = unsigned(sms) * unsigned(per_sm > 0 ? per_sm : 1);
  return cudaSuccess;
}

/// Blocks for a grid-stride launch over `items`: enough to give every item a
/// thread, at least 1, at most `resident`.
inline unsigned blocks_for(std::uint64_t items, unsigned resident) {
  const std::uint64_t needed = (items + kBlockThreads - 1) / kBlockThreads;
  return unsigned(needed < 1 ? 1 : needed < resident ? needed : resident);
}

/// dist[v] = kInf for all v, dist[source] = 0.
template <class Dist>
__global__ void init_distances(Dist *dist, std::uint32_t n, VertexId source) {
  for (std::uint64_t v = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; v < n;
       v += std::uint64_t(gridDim.x) * blockDim.x)
    dist[v] = v == source ? Dist(0) : kInf<Dist>;
}

/// Copies `dist` back and widens it: kInf<Dist> becomes graph::kInfDistance.
template <class Dist>
Status copy_distances(const DeviceArray<Dist> &dist, std::vector<std::uint64_t> &out) {
  std::vector<Dist> host(dist.size());
  DD_SSSP_CUDA(cudaMemcpy(host.data(), dist.data(), host.size() * sizeof(Dist),
                          cudaMemcpyDeviceToHost));
  out.resize(host.size());
  for (std::size_t v = 0; v < host.size(); ++v)
    out[v] = host[v] == kInf<Dist> ? graph::kInfDistance : std::uint64_t(host[v]);
  return Status();
}

/// The end of every algorithm: stops the timer and copies the distances,
/// widened, into `result`.
template <class Dist>
Expected<Result> finish_run(GpuTimer &timer, const DeviceArray<Dist> &dist, Result &result) {
  DD_SSSP_CUDA(timer.stop());
  DD_SSSP_CUDA(timer.elapsed_ms(result.ms));
  if (Status s = copy_distances(dist, result.values); !s.ok())
    return s;
  return std::move(result);
}

} // namespace dd::sssp

#endif // DD_SSSP_COMMON_CUH
