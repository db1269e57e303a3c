//===- dd/reply.cuh - Replies from a server to a waiting client --*- CUDA -*-===//
//
// The reply channel of the delegate (dissertation §4.4): a client thread
// that needs something back from its critical section (a value the section
// computes, or only that it has run, because the client reads afterwards
// what the section wrote) sends its message unstaged and waits for the
// server's reply in a slot of its own.
//
//   ReplyBox<T>       the device handle: one slot per client thread
//     .slot()         this client thread's slot (its global linear id)
//     .call(ch, dest, msg)
//                     client: send msg to server dest now, wait for the
//                     reply, return it
//     .post(slot, v)  server: the reply to the client of `slot`
//   ReplySlots<T>     host owner of the slots (grows, never shrinks)
//     .box(kernel, grid, block)
//                     the handle for a launch of grid x block clients
//
// Protocol per slot: the slot's flag is 0 while no reply waits. The server
// writes the value, then stores 1 with release; the client waits for 1
// with acquire (so the value and every write of the critical section are
// visible to it: they happen before the release), reads the value and
// stores 0 before it sends again. One client thread has at most one
// request in flight, so a slot never holds two replies, and each slot is 0
// again when its client has its reply: repeated launches need no reset.
//
// Progress: the client waits for a server, never the reverse; servers run
// the critical section without waiting for any client, and dd::Context
// keeps every server block resident while clients run. A run aborted by
// the host (Channel::aborted) ends the wait; its results are void anyway.
//
//===----------------------------------------------------------------------===//
#ifndef DD_REPLY_CUH
#define DD_REPLY_CUH

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "dd/channel.cuh"
#include "dd/detail/delegate_launch.cuh"

namespace dd {

/// One client thread's reply: `ready` then the value.
///
/// @tparam T  what the critical section sends back (trivially copyable;
///            an empty struct for "it has run")
template <class T> struct ReplySlot {
  unsigned ready;
  T value;
};

/// Device handle of the reply slots of one delegated launch.
///
/// @tparam T  the reply (trivially copyable)
template <class T> struct ReplyBox {
  static_assert(std::is_trivially_copyable<T>::value, "replies must be trivially copyable");

  ReplySlot<T> *slots = nullptr; ///< one per client thread of the launch

  /// The calling client thread's slot: its linear id in the grid.
  __device__ static unsigned long long slot() {
    const unsigned long long block =
        blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    return block * detail::block_thread_count() + detail::linear_thread_index();
  }

  /// Client: sends `msg` (which carries slot()) to server `dest` without
  /// staging, waits for the reply and returns it. Any lane, any divergence.
  template <class Message, unsigned Capacity>
  __device__ T call(const Channel<Message, Capacity> &ch, unsigned dest, const Message &msg) const {
    ReplySlot<T> &s = slots[slot()];
    ch.send_direct(dest, msg);
    detail::device_ref<unsigned> ready(s.ready);
    detail::Backoff backoff{32, 1024};
    while (ready.load(cuda::memory_order_acquire) == 0) {
      if (ch.aborted())
        return T{};
      backoff.pause();
    }
    const T v = s.value;
    ready.store(0u, cuda::memory_order_relaxed); // only this thread uses it until its next call
    return v;
  }

  /// Server: the reply to the client of `slot`, after the critical section.
  __device__ void post(unsigned long long slot, const T &v) const {
    ReplySlot<T> &s = slots[slot];
    s.value = v;
    detail::device_ref<unsigned>(s.ready).store(1u, cuda::memory_order_release);
  }
};

/// Host owner of the reply slots of one delegated kernel: a launcher keeps
/// one (a function-local static) and asks for as many slots as its launch
/// has client threads. Freed at exit.
///
/// @tparam T  the reply
template <class T> class ReplySlots {
public:
  ReplySlots() = default;
  ReplySlots(const ReplySlots &) = delete;
  ReplySlots &operator=(const ReplySlots &) = delete;
  ~ReplySlots() { cudaFree(box_.slots); }

  /// At least one slot per thread of `grid` x `block`, all 0; the handle in
  /// `box`. Grows by reallocating (and zeroing) only when asked for more.
  cudaError_t reserve(dim3 grid, dim3 block, ReplyBox<T> &box) {
    const size_t threads = size_t(grid.x) * grid.y * grid.z * block.x * block.y * block.z;
    if (threads > capacity_) {
      cudaFree(box_.slots);
      box_.slots = nullptr;
      capacity_ = 0;
      ReplySlot<T> *slots = nullptr;
      cudaError_t e = cudaMalloc(&slots, threads * sizeof(ReplySlot<T>));
      if (e == cudaSuccess)
        e = cudaMemset(slots, 0, threads * sizeof(ReplySlot<T>));
      if (e == cudaSuccess) // the servers' streams are not ordered after it
        e = cudaDeviceSynchronize();
      if (e != cudaSuccess) {
        cudaFree(slots);
        return e;
      }
      box_.slots = slots;
      capacity_ = threads;
    }
    box = box_;
    return cudaSuccess;
  }

  /// As reserve(), for a delegated launcher: a failure ends the program
  /// with `dd: delegated launch of <kernel> failed: ...`, as the launch's
  /// own failures do (the program checks no error of a delegated launch).
  ReplyBox<T> box(const char *kernel, dim3 grid, dim3 block) {
    ReplyBox<T> b;
    if (const cudaError_t e = reserve(grid, block, b); e != cudaSuccess)
      detail::delegate_fail(kernel, cudaGetErrorString(e));
    return b;
  }

private:
  ReplyBox<T> box_{};
  size_t capacity_ = 0;
};

} // namespace dd

#endif // DD_REPLY_CUH
