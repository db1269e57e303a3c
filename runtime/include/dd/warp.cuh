//===- dd/warp.cuh - Lane identity and masks, divergence-safe ---*- CUDA -*-===//
//
// The few warp facts the aggregated atomics need, read from PTX special
// registers rather than computed from threadIdx: %laneid is the hardware lane
// whatever the block shape (1-D, 3-D, or a size that is not a multiple of 32,
// where the last warp of a block is partial), so nothing here assumes
// `threadIdx.x % 32` is the lane.
//
// Every helper is a pure function of the calling thread; none of them
// synchronizes. The warp-level collectives that do synchronize live in
// warp_reduce.cuh and always take an explicit member mask (Volta's
// independent thread scheduling means lanes are never assumed converged).
//
// Architectures: what a header needs beyond what every CUDA GPU has is said
// by a static_assert naming the feature, in device code compiled for an older
// GPU (docs/cmake.md lists them):
//   sm_70  __match_any_sync / __match_all_sync: dd::atomic_*_sr,
//          dd::atomic_inc_sr/_uniform, DD_ATOMICS_CHECK_UNIFORM, dd::Queue::push;
//          __nanosleep: <dd/channel.cuh> (so context, delegate) and
//          <dd/bucket_worklist.cuh>
//   sm_80  mbarrier and cp.async: dd::AffineQueue (so the split pass's
//          kernels); __reduce_*_sync is used where present, shuffles below
//   sm_90  cp.async.bulk where present, 16-byte cp.async below
// dd::atomic_*_vr and _uniform, dd::monotonic_*, the scatter helpers and the
// host headers work on any GPU CUDA's own headers accept.
//
//===----------------------------------------------------------------------===//
#ifndef DD_WARP_CUH
#define DD_WARP_CUH

namespace dd {

/// Threads per warp on every NVIDIA GPU.
inline constexpr unsigned warp_size = 32;

namespace detail {

/// Whether this compilation pass makes device code for sm_<Arch> or newer
/// (true in host passes). The Dependent types only make the value depend on
/// a template's parameters, so that a static_assert on it fires where the
/// template is instantiated in device code for an older GPU, not where it is
/// defined (a program may include a header it uses only on newer GPUs).
template <unsigned Arch, class... Dependent>
inline constexpr bool device_arch_at_least =
#if defined(__CUDA_ARCH__)
    __CUDA_ARCH__ >= Arch;
#else
    true;
#endif

} // namespace detail

/// All 32 lanes.
inline constexpr unsigned full_warp_mask = 0xffffffffu;

/// The calling thread's lane, 0..31.
__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/// The lanes below the calling one: bit i set for i < lane_id().
__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

/// The lanes above the calling one: bit i set for i > lane_id().
__device__ __forceinline__ unsigned lanemask_gt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(mask));
  return mask;
}

/// Whether the calling lane is the lowest set lane of `mask`. The caller must
/// itself be in `mask` (then this is `lane_id() == __ffs(mask) - 1` without
/// the find-first-set).
__device__ __forceinline__ bool is_lowest_lane_of(unsigned mask) {
  return (mask & lanemask_lt()) == 0;
}

/// The calling lane's position among the set lanes of `mask` (0 for the
/// lowest). The caller must be in `mask`.
__device__ __forceinline__ unsigned rank_in(unsigned mask) {
  return __popc(mask & lanemask_lt());
}

} // namespace dd

#endif // DD_WARP_CUH
