// What the GPU applications' host code shares (dd-mst, dd-maxflow, dd-pta): device
// arrays and event pairs freed when they go out of scope, uploads of host
// vectors, and the grid a grid barrier allows (dd-sp, dd-dmr). Errors stay cudaError_t here; each application turns them into its
// own messages (graph::Status naming the algorithm and the step).
#ifndef DD_APPS_COMMON_CUDA_HOST_CUH
#define DD_APPS_COMMON_CUDA_HOST_CUH

#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

namespace dd::apps {

/// A device array of T, freed when it goes out of scope.
template <class T> struct DeviceArray {
  T *ptr = nullptr;
  std::size_t size = 0; ///< elements asked for (allocate, grow)
  DeviceArray() = default;
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray() { cudaFree(ptr); }
  /// Allocates `count` elements (one when `count` is 0, so that kernels
  /// always get a valid pointer), freeing what it held.
  cudaError_t allocate(std::size_t count) {
    cudaFree(ptr);
    ptr = nullptr;
    size = count;
    return cudaMalloc(&ptr, (count > 0 ? count : 1) * sizeof(T));
  }
  /// Grows to at least `count` elements (and by half at least, so that an
  /// array grown every round is not copied every round), keeping the first
  /// `keep`.
  cudaError_t grow(std::size_t count, std::size_t keep) {
    if (count <= size && ptr)
      return cudaSuccess;
    count = count > size + size / 2 ? count : size + size / 2;
    T *bigger = nullptr;
    if (cudaError_t err = cudaMalloc(&bigger, (count > 0 ? count : 1) * sizeof(T));
        err != cudaSuccess)
      return err;
    if (keep > 0)
      if (cudaError_t err = cudaMemcpy(bigger, ptr, keep * sizeof(T), cudaMemcpyDeviceToDevice);
          err != cudaSuccess) {
        cudaFree(bigger);
        return err;
      }
    cudaFree(ptr);
    ptr = bigger;
    size = count;
    return cudaSuccess;
  }
  /// Copies `host` to the first host.size() elements.
  cudaError_t put(const std::vector<T> &host) {
    return host.empty() ? cudaSuccess
                        : cudaMemcpy(ptr, host.data(), host.size() * sizeof(T),
                                     cudaMemcpyHostToDevice);
  }
  /// Copies the first `count` elements into `host` (resized to `count`).
  cudaError_t get(std::vector<T> &host, std::size_t count) const {
    host.resize(count);
    return count == 0 ? cudaSuccess
                      : cudaMemcpy(host.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost);
  }
  cudaError_t zero() { return size == 0 ? cudaSuccess : cudaMemset(ptr, 0, size * sizeof(T)); }
};

/// Two events (a start and a stop), destroyed when they go out of scope.
struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() = default;
  EventPair(const EventPair &) = delete;
  EventPair &operator=(const EventPair &) = delete;
  ~EventPair() {
    if (start)
      cudaEventDestroy(start);
    if (stop)
      cudaEventDestroy(stop);
  }
  cudaError_t create() {
    cudaError_t err = cudaEventCreate(&start);
    return err == cudaSuccess ? cudaEventCreate(&stop) : err;
  }
};

/// The grid a grid barrier allows `kernel` launched with `block` threads a
/// block on the current GPU: in `blocks`, the blocks resident at once
/// (occupancy times multiprocessors; 0 when none fits), and in
/// `cooperative`, whether the GPU launches cooperatively at all. A
/// cooperative launch of more blocks than that fails, and a grid barrier
/// in a grid that is not resident at once would wait forever.
template <class Kernel>
cudaError_t cooperative_grid(Kernel kernel, int block, unsigned &blocks, bool &cooperative) {
  int device = 0, coop = 0, sms = 0, per_sm = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (err == cudaSuccess)
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0);
  if (err != cudaSuccess)
    return err;
  blocks = static_cast<unsigned>(per_sm) * static_cast<unsigned>(sms);
  cooperative = coop != 0;
  return cudaSuccess;
}

/// Allocates `device` and copies `host` into it; an empty `host` leaves
/// `device` null. The caller owns (and frees) `device`, also on failure.
template <class T> cudaError_t upload(T *&device, const std::vector<T> &host) {
  device = nullptr;
  if (host.empty())
    return cudaSuccess;
  cudaError_t err = cudaMalloc(&device, host.size() * sizeof(T));
  if (err == cudaSuccess)
    err = cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return err;
}

} // namespace dd::apps

#endif // DD_APPS_COMMON_CUDA_HOST_CUH
