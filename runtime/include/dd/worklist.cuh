//===- dd/worklist.cuh - Device-wide queues for data-driven kernels -*- CUDA -*-===//
//
// The worklist of a bulk-synchronous data-driven graph algorithm (LonestarGPU's
// Worklist2, Gunrock's frontier): one launch reads the items of an input queue
// and pushes new items to an output queue, the host reads how many were pushed
// and launches again with the two queues swapped.
//
//   dd::Queue<T, SizeT>         device handle of one queue (items, tail
//                               counter, capacity), passed to kernels by
//                               value; push() is warp-aggregated
//   dd::DoubleBuffer<T, SizeT>  host side: owns two queues' storage, the
//                               input (read by the next launch) and the
//                               output (pushed to by it), and flips them
//
//   dd::DoubleBuffer<unsigned> frontier;
//   frontier.allocate(num_vertices);                   // cudaError_t
//   frontier.assign(&source, 1);
//   while (frontier.in_size() > 0) {
//     step<<<grid, block>>>(frontier.in(), frontier.in_size(), frontier.out());
//     frontier.flip();                                 // waits, reads the count
//   }
//
// Memory model. A queue is pushed to by one launch and read by later ones,
// never both in one launch, so the kernel boundary orders every item store
// before every read of it (and the host's read of the tail follows the
// launch in stream order): the tail needs only a relaxed device-scope
// fetch-add (cuda::atomic_ref), the items plain stores. Nothing spins.
//
// Push aggregation. In a warp, the lanes that push to the same queue reserve
// their slots with one fetch-add by the group's lowest lane: __match_any_sync
// on the tail's address forms the groups (so one call site may push to
// different queues per lane, like near-far's near and far piles), __popc of
// the group is the amount added, the old tail is shuffled to the group, and
// each lane writes at old tail + its rank in the group (__popc of the group's
// lanes below it). Works for any set of active lanes (divergent code, partial
// warps), as dd/atomics.cuh's variants do. The order of items in a queue is
// unspecified.
//
// Overflow. A push beyond the capacity is dropped, but the tail still counts
// it, so the host sees that a launch overflowed (DoubleBuffer::overflowed())
// instead of reading garbage. Algorithms size their queues so that it cannot
// happen (e.g. one push per vertex per launch, so capacity = |V|) and treat
// it as an internal error.
//
//===----------------------------------------------------------------------===//
#ifndef DD_WORKLIST_CUH
#define DD_WORKLIST_CUH

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "dd/warp.cuh"

namespace dd {

/// A device-wide append-only queue: an item array of `capacity` slots and a
/// tail counter in device memory. A trivially copyable handle: the memory
/// belongs to whoever made it (usually a DoubleBuffer).
///
/// @tparam T      the item type (any trivially copyable type; usually a
///                vertex id)
/// @tparam SizeT  the counter type: unsigned or unsigned long long (any
///                type cuda::atomic_ref can fetch_add)
template <class T, class SizeT = unsigned> class Queue {
public:
  using value_type = T;
  using size_type = SizeT;

  Queue() = default;
  __host__ __device__ Queue(T *items, SizeT *tail, SizeT capacity)
      : items_(items), tail_(tail), capacity_(capacity) {}

  /// Appends `item`. Every calling lane appends its own item; the lanes of a
  /// warp that push to this queue together reserve their slots with one
  /// atomic (see the file comment). Safe in divergent code.
  __device__ __forceinline__ void push(const T &item) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
    static_assert(detail::device_arch_at_least<700, T>,
                  "dd::Queue::push needs sm_70 or newer for __match_any_sync");
#else
    const unsigned active = __activemask();
    const unsigned group =
        __match_any_sync(active, reinterpret_cast<unsigned long long>(tail_));
    const unsigned leader = __ffs(group) - 1;
    SizeT base = 0;
    if (lane_id() == leader)
      base = cuda::atomic_ref<SizeT, cuda::thread_scope_device>(*tail_).fetch_add(
          static_cast<SizeT>(__popc(group)), cuda::memory_order_relaxed);
    base = __shfl_sync(group, base, leader);
    const SizeT slot = base + rank_in(group);
    if (slot < capacity_)
      items_[slot] = item;
#endif
  }

  __host__ __device__ T *items() const { return items_; }
  __host__ __device__ SizeT *tail() const { return tail_; }
  __host__ __device__ SizeT capacity() const { return capacity_; }

private:
  T *items_ = nullptr;
  SizeT *tail_ = nullptr;
  SizeT capacity_ = 0;
};

/// Two queues of equal capacity used as input and output of successive
/// launches (host side). Owns their device memory and a pinned host word
/// through which flip() reads the output's size. Not copyable.
///
/// Invariant between launches: the input holds in_size() items, the output
/// is empty. Launches read in() and push to out(); flip() then makes the
/// output the input and empties the old input for reuse.
///
/// @tparam T, SizeT  as for Queue
template <class T, class SizeT = unsigned> class DoubleBuffer {
public:
  DoubleBuffer() = default;
  DoubleBuffer(const DoubleBuffer &) = delete;
  DoubleBuffer &operator=(const DoubleBuffer &) = delete;
  ~DoubleBuffer() { release(); }

  /// Allocates two queues of `capacity` items each, both empty. Frees what
  /// an earlier call allocated.
  [[nodiscard]] cudaError_t allocate(SizeT capacity) {
    release();
    capacity_ = capacity;
    // One extra slot keeps the allocation non-empty for capacity 0.
    const size_t bytes = (static_cast<size_t>(capacity) + 1) * sizeof(T);
    cudaError_t err;
    if ((err = cudaMalloc(&items_[0], bytes)) != cudaSuccess ||
        (err = cudaMalloc(&items_[1], bytes)) != cudaSuccess ||
        (err = cudaMalloc(&tails_, 2 * sizeof(SizeT))) != cudaSuccess ||
        (err = cudaMallocHost(&pinned_size_, sizeof(SizeT))) != cudaSuccess ||
        (err = cudaMemset(tails_, 0, 2 * sizeof(SizeT))) != cudaSuccess)
      return err;
    in_size_ = 0;
    overflowed_ = false;
    return cudaSuccess;
  }

  /// Frees the device and pinned memory (also done by the destructor).
  void release() {
    cudaFree(items_[0]);
    cudaFree(items_[1]);
    cudaFree(tails_);
    cudaFreeHost(pinned_size_);
    items_[0] = items_[1] = nullptr;
    tails_ = nullptr;
    pinned_size_ = nullptr;
    capacity_ = in_size_ = 0;
  }

  /// Makes the input `count` items copied from host memory (count <=
  /// capacity()) and empties the output. Ordered on `stream`; `items` must
  /// stay valid until the stream reaches the copy.
  [[nodiscard]] cudaError_t assign(const T *items, SizeT count, cudaStream_t stream = 0) {
    if (count > capacity_)
      return cudaErrorInvalidValue;
    cudaError_t err = cudaSuccess;
    if (count > 0)
      err = cudaMemcpyAsync(items_[selector_], items, count * sizeof(T),
                            cudaMemcpyHostToDevice, stream);
    if (err == cudaSuccess)
      err = cudaMemsetAsync(tails_ + (selector_ ^ 1), 0, sizeof(SizeT), stream);
    in_size_ = count;
    overflowed_ = false;
    return err;
  }

  /// After the launches that pushed to out(): waits for `stream`, reads how
  /// many items were pushed, makes them the input and empties the other
  /// queue as the new output. When more were pushed than fit, the input
  /// holds the capacity() that did and overflowed() is true.
  [[nodiscard]] cudaError_t flip(cudaStream_t stream = 0) {
    const int out = selector_ ^ 1;
    cudaError_t err;
    if ((err = cudaMemcpyAsync(pinned_size_, tails_ + out, sizeof(SizeT),
                               cudaMemcpyDeviceToHost, stream)) != cudaSuccess ||
        (err = cudaMemsetAsync(tails_ + selector_, 0, sizeof(SizeT), stream)) != cudaSuccess ||
        (err = cudaStreamSynchronize(stream)) != cudaSuccess)
      return err;
    selector_ = out;
    overflowed_ = *pinned_size_ > capacity_;
    in_size_ = overflowed_ ? capacity_ : *pinned_size_;
    return cudaSuccess;
  }

  /// The input queue's items, [0, in_size()), for the next launch to read.
  const T *in() const { return items_[selector_]; }
  SizeT in_size() const { return in_size_; }
  /// The output queue, for the next launch to push to.
  Queue<T, SizeT> out() const {
    return Queue<T, SizeT>(items_[selector_ ^ 1], tails_ + (selector_ ^ 1), capacity_);
  }
  SizeT capacity() const { return capacity_; }
  /// Whether the last flip() found more items pushed than capacity().
  bool overflowed() const { return overflowed_; }

private:
  T *items_[2] = {nullptr, nullptr};
  SizeT *tails_ = nullptr;        // tails_[i]: items pushed to items_[i]
  SizeT *pinned_size_ = nullptr;  // flip()'s landing place for the output's tail
  SizeT capacity_ = 0;
  SizeT in_size_ = 0;
  int selector_ = 0;              // items_[selector_] is the input
  bool overflowed_ = false;
};

} // namespace dd

#endif // DD_WORKLIST_CUH
