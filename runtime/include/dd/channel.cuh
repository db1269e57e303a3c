//===- dd/channel.cuh - Client/server message channels ----------*- CUDA -*-===//
//
// The software message passing of the decoupled delegate (Wang, dissertation
// ch. 4 / ASPLOS'19 §4.3): client blocks hand critical-section work to server
// blocks as messages; each server block owns one ring buffer in global
// memory. The protocol, the argument that it cannot deadlock, and measured
// throughput are in docs/delegate-runtime.md.
//
//   Channel<Message, Capacity>              the device-side handle (by value)
//     .send_direct(dest, msg)               unstaged send, warp-aggregated
//     .client_done()                        one call per client block
//   ChannelSender<Message, Capacity, Stage> block-level staging of sends
//     ChannelSender(ch, shared)             block-collective constructor
//     .send(dest, msg)                      any lane, any divergence
//     .finish()                             block-collective: flush, done
//   ChannelReceiver<Message, Capacity>      the server loop
//     ChannelReceiver(ch, temp_storage[, server, threads])
//     .run(handler)                         block-collective; returns when
//                                           all clients are done and the
//                                           ring is drained
//
// One ring per server s (ChannelRingMeta plus Capacity message slots):
//   write_index   next free index; senders reserve n consecutive indices
//                 with one fetch_add (64-bit, never wraps)
//   read_index    every index below it has been consumed; only server s
//                 writes it (release), senders read it (acquire) and may
//                 write index i only while i < read_index + Capacity
//   ready[]       one bit per slot; a sender sets its slots' bits (release
//                 fetch_or) after writing their payloads; the server's
//                 leader warp reads 32 words at once (1024 slots), claims
//                 the contiguous run of set bits that starts at the next
//                 unclaimed index, clears those bits, and publishes the run
//                 to its follower warps through a double-buffered
//                 assignment in shared memory. read_index is released only
//                 after the followers have read the payloads.
// A set bit always belongs to the current lap: bits are cleared before
// read_index moves past them, and the next lap's sender of that slot must
// first observe the moved read_index.
//
// Senders (ChannelSender) aggregate in shared memory: per destination a
// stage of StageSize messages; the lanes that complete a stage copy it to the
// ring with one reservation, coalesced, and one fetch_or per 32 slots.
// Partial stages are flushed by finish(). The read index is cached per
// destination in shared memory and reloaded only when the cached value says
// the ring may be full (the paper's lazy copy).
//
// Termination: each client block calls client_done() once after its last
// send (finish() does it); a server stops when the done counter has reached
// `clients`, it has seen the final write_index, and it has consumed every
// message below it.
//
// Progress needs every server block resident while any client runs (a
// full ring makes senders wait for their server); dd::Context (context.cuh)
// launches so that this holds. Messages must be trivially copyable; a
// 16-byte-aligned message whose size is a multiple of 16 moves with 16-byte
// loads and stores.
//
//===----------------------------------------------------------------------===//
#ifndef DD_CHANNEL_CUH
#define DD_CHANNEL_CUH

#include <cuda/atomic>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "dd/warp.cuh"

// Senders and servers wait for each other in spin loops that back off with
// __nanosleep; so do dd::Context's and <dd/delegate.cuh>'s, which build on
// this.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
static_assert(__CUDA_ARCH__ >= 700,
              "<dd/channel.cuh> (dd::Channel, dd::Context, dd::DelegateServer) needs sm_70 or "
              "newer for __nanosleep, the back-off of its spin loops");
#endif

namespace dd {

/// The metadata of one server's ring (the payload slots live in a separate
/// array, so that resetting a channel touches only this). Counters and bits
/// sit on separate 128-byte lines: senders hammer write_index, poll
/// read_index, and set bits far apart from both.
template <unsigned Capacity> struct ChannelRingMeta {
  static constexpr unsigned words = Capacity / 32;
  alignas(128) unsigned long long write_index;
  alignas(128) unsigned long long read_index;
  alignas(128) unsigned ready[words];
};

namespace detail {

template <class T> using device_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;
template <class T> using block_ref = cuda::atomic_ref<T, cuda::thread_scope_block>;
template <class T> using system_ref = cuda::atomic_ref<T, cuda::thread_scope_system>;

__device__ __forceinline__ unsigned linear_thread_index() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ unsigned block_thread_count() {
  return blockDim.x * blockDim.y * blockDim.z;
}

/// Exponential back-off for spin loops: a sleeping warp leaves its issue
/// slots to the warps that the spinner waits for.
struct Backoff {
  unsigned ns;
  unsigned limit;
  __device__ __forceinline__ void pause() {
    __nanosleep(ns);
    ns = ns * 2 < limit ? ns * 2 : limit;
  }
};

/// Bits [lo, lo + len) of a word; 1 <= len <= 32 - lo.
__device__ __forceinline__ unsigned span_mask(unsigned lo, unsigned len) {
  return len >= 32 ? ~0u : ((1u << len) - 1u) << lo;
}

/// Loads *p as sizeof(T) / sizeof(Word) .cg loads of Word.
template <class Word, class T> __device__ __forceinline__ T load_cg_words(const T *p) {
  Word words[sizeof(T) / sizeof(Word)];
#pragma unroll
  for (unsigned i = 0; i < sizeof(T) / sizeof(Word); ++i)
    words[i] = __ldcg(reinterpret_cast<const Word *>(p) + i);
  T out;
  memcpy(&out, words, sizeof(T));
  return out;
}

/// Reads a message written by another SM. The caller has already acquired
/// it (ready bit), so a plain load would be correct; .cg keeps the streamed
/// payload out of L1 and does not depend on L1 invalidation at all. The
/// widest word the message's size and alignment allow.
template <class T> __device__ __forceinline__ T load_cg(const T *p) {
  static_assert(std::is_trivially_copyable<T>::value, "messages must be trivially copyable");
  if constexpr (sizeof(T) % 16 == 0 && alignof(T) >= 16)
    return load_cg_words<uint4>(p);
  else if constexpr (sizeof(T) % 8 == 0 && alignof(T) >= 8)
    return load_cg_words<uint2>(p);
  else if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4)
    return load_cg_words<unsigned>(p);
  else
    return *p;
}

/// One full warp: claims the run of ready slots of a ring (its ready words)
/// that starts at `next`, up to 32 words (1024 slots); clears their bits;
/// returns the run's length (the same in every lane). After it, the
/// payloads of the run may be read (acquire fence). Used by
/// ChannelReceiver's leader and by the handler warps of <dd/delegate.cuh>.
template <unsigned Capacity> __device__ unsigned claim_ready(unsigned *ready, unsigned long long next) {
  constexpr unsigned ring_words = Capacity / 32;
  constexpr unsigned window_words = ring_words < 32 ? ring_words : 32;
  const unsigned lane = lane_id();
  const unsigned b0 = unsigned(next) & 31;
  const unsigned long long word = (next >> 5) + lane;
  // Lane 0's bits below b0 are other slots (claimed, or the next lap's):
  // masked out. Lanes past the window report a hole at their bit 0. Slots
  // of the window at or past read_index + Capacity alias claimed slots
  // whose bits are clear and stay clear until read_index moves, so the
  // run never extends into them.
  unsigned missing = 1;
  if (lane < window_words) {
    const unsigned bits =
        detail::device_ref<unsigned>(ready[word & (ring_words - 1)]).load(cuda::memory_order_relaxed);
    missing = ~bits & (lane == 0 ? ~0u << b0 : ~0u);
  }
  const unsigned holes = __ballot_sync(full_warp_mask, missing != 0);
  unsigned n;
  if (holes == 0) {
    n = window_words * 32 - b0;
  } else {
    const unsigned f = __ffs(holes) - 1;
    n = f * 32 + (__ffs(__shfl_sync(full_warp_mask, missing, f)) - 1) - b0;
  }
  if (n != 0) {
    // Pairs with the senders' release fetch_or: their payload writes
    // happen before this warp's reads of the run, and before the followers'
    // reads through the block barrier (ChannelReceiver).
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    const unsigned lo = b0 > lane * 32 ? b0 : lane * 32;
    const unsigned hi = b0 + n < lane * 32 + 32 ? b0 + n : lane * 32 + 32;
    if (lane < window_words && lo < hi) // other bits of the word may be set concurrently
      detail::device_ref<unsigned>(ready[word & (ring_words - 1)])
          .fetch_and(~detail::span_mask(lo - lane * 32, hi - lo), cuda::memory_order_relaxed);
  }
  return n;
}

} // namespace detail

/// The device-side handle of a set of server rings. Trivially copyable:
/// pass it to kernels by value. dd::Context fills it in.
///
/// @tparam Message   the payload; trivially copyable, alignment <= 16
/// @tparam Capacity  slots per server ring; a power of two, >= 32
template <class Message, unsigned Capacity = 4096> struct Channel {
  static_assert(Capacity >= 32 && (Capacity & (Capacity - 1)) == 0,
                "Capacity must be a power of two and at least 32 (one ready word)");
  static_assert(std::is_trivially_copyable<Message>::value, "messages must be trivially copyable");
  static_assert(alignof(Message) <= 16, "message alignment above 16 bytes is not supported");

  using message_type = Message;
  using meta_type = ChannelRingMeta<Capacity>;
  static constexpr unsigned capacity = Capacity;

  meta_type *meta = nullptr;   ///< [servers] ring metadata
  Message *slots = nullptr;    ///< [servers * Capacity] payloads
  unsigned servers = 0;        ///< server blocks, one ring each
  unsigned clients = 0;        ///< client blocks that will call client_done()
  unsigned *done = nullptr;    ///< how many client blocks are done
  unsigned *started = nullptr; ///< [servers] host-mapped start marks, or null
  unsigned *abort_flag = nullptr; ///< device memory; nonzero asks every loop to stop, or null
  unsigned *abort_host = nullptr; ///< host-mapped copy of the request, or null

  /// Whether the run was aborted (Context::abort, the watchdog). A device
  /// word, cheap enough for every waiting lane. Only idle server leaders
  /// read the host-mapped flag: it is a PCIe read, and with a thousand
  /// client blocks waiting on a full ring and polling it, the first GPU run
  /// of the stress test slowed down more than tenfold (docs/delegate-runtime.md).
  __device__ bool aborted() const {
    return abort_flag != nullptr &&
           detail::device_ref<unsigned>(*abort_flag).load(cuda::memory_order_relaxed) != 0;
  }

  /// Idle server leaders: reads the host's request and relays it to the
  /// device word (the host also copies it there; either path suffices).
  __device__ bool poll_host_abort() const {
    if (abort_host == nullptr ||
        detail::system_ref<unsigned>(*abort_host).load(cuda::memory_order_relaxed) == 0)
      return false;
    if (abort_flag != nullptr)
      detail::device_ref<unsigned>(*abort_flag).store(1u, cuda::memory_order_relaxed);
    return true;
  }

  /// One call per client block, after the block's last send (all threads of
  /// the block past a __syncthreads, so the release covers their sends).
  __device__ void client_done() const {
    detail::device_ref<unsigned>(*done).fetch_add(1u, cuda::memory_order_release);
  }

  /// Reserves `n` (<= Capacity) consecutive indices of ring `dest` and
  /// returns the first once all of them are free: first + n <= read_index +
  /// Capacity. `cached_read`, when not null, is a lower bound of read_index
  /// kept in shared memory (lazily refreshed); `sticky_abort`, when not
  /// null, remembers an abort for the whole block. After an abort it returns
  /// at once, and what is written is lost (the run is void anyway).
  __device__ unsigned long long reserve(unsigned dest, unsigned n,
                                        unsigned long long *cached_read = nullptr,
                                        unsigned *sticky_abort = nullptr) const {
    meta_type &m = meta[dest];
    const unsigned long long first =
        detail::device_ref<unsigned long long>(m.write_index).fetch_add(n, cuda::memory_order_relaxed);
    const unsigned long long end = first + n;
    // Every index below read_index has been written and consumed, ours has
    // not: read_index <= first, so end - read >= n and nothing wraps.
    if (cached_read != nullptr &&
        end - detail::block_ref<unsigned long long>(*cached_read).load(cuda::memory_order_acquire) <=
            Capacity)
      return first;
    if (sticky_abort != nullptr &&
        detail::block_ref<unsigned>(*sticky_abort).load(cuda::memory_order_relaxed) != 0)
      return first;
    for (unsigned polls = 0;; ++polls) {
      // Acquire: the server's reads of the slots we are about to overwrite
      // happen before our writes.
      const unsigned long long read =
          detail::device_ref<unsigned long long>(m.read_index).load(cuda::memory_order_acquire);
      if (end - read <= Capacity) {
        if (cached_read != nullptr) // racing stores only make the bound staler
          detail::block_ref<unsigned long long>(*cached_read).store(read, cuda::memory_order_release);
        return first;
      }
      if ((polls & 7) == 0 && aborted()) {
        if (sticky_abort != nullptr)
          detail::block_ref<unsigned>(*sticky_abort).store(1u, cuda::memory_order_relaxed);
        return first;
      }
      // Sleep about as long as the server needs to consume what lies ahead
      // of us (at 1 ns per message, faster than one server goes): the head
      // of the queue polls often, those far behind it rarely, so a thousand
      // waiters do not crowd the read index's L2 slice.
      const unsigned long long deficit = end - read - Capacity;
      __nanosleep(deficit < 64 ? 64u : deficit > 32768 ? 32768u : unsigned(deficit));
    }
  }

  /// Sets the ready bits of indices [first, first + n) of ring `dest`; the
  /// lanes of one group share the words (`rank` of `count` lanes). The
  /// payloads of the group must be ordered before (a __syncwarp over the
  /// group after writing them): the release makes them visible with the bit.
  __device__ void publish(unsigned dest, unsigned long long first, unsigned n, unsigned rank,
                          unsigned count) const {
    const unsigned long long end = first + n;
    for (unsigned long long w = (first >> 5) + rank; w <= ((end - 1) >> 5); w += count) {
      const unsigned long long lo = first > (w << 5) ? first : (w << 5);
      const unsigned long long hi = end < ((w + 1) << 5) ? end : ((w + 1) << 5);
      detail::device_ref<unsigned>(meta[dest].ready[w & (meta_type::words - 1)])
          .fetch_or(detail::span_mask(unsigned(lo & 31), unsigned(hi - lo)),
                    cuda::memory_order_release);
    }
  }

  /// Sends without shared-memory staging (for senders that cannot take part
  /// in a block-collective finish, and for latency-critical replies). Lanes
  /// with the same destination share one reservation and write consecutive
  /// slots. Any lane, any divergence. The client block still calls
  /// client_done() once when it has sent everything.
  __device__ void send_direct(unsigned dest, const Message &msg) const {
    const unsigned active = __activemask();
    const unsigned group = __match_any_sync(active, dest);
    const unsigned rank = rank_in(group);
    const unsigned count = __popc(group);
    unsigned long long first = 0;
    if (rank == 0)
      first = reserve(dest, count);
    first = __shfl_sync(group, first, __ffs(group) - 1);
    slots[size_t(dest) * Capacity + ((first + rank) & (Capacity - 1))] = msg;
    __syncwarp(group);
    publish(dest, first, count, rank, count);
  }
};

/// Block-level sender: stages messages per destination in shared memory and
/// moves each full stage to the ring in one piece.
///
/// @tparam Message, Capacity  as in Channel
/// @tparam StageSize  messages staged per destination (power of two, <=
///                    Capacity). Shared memory: shared_bytes(servers).
///                    0: no stages and no shared memory, for a client whose
///                    every send waits for its reply (ReplyBox::call sends
///                    unstaged): only finish() is left, and send() does not
///                    compile. A stage nobody fills would still cost
///                    shared_bytes: 139 KB at 132 servers, which left one
///                    client block per SM beside the servers for MaxFlow's
///                    push, where three fit without it (H200).
///
/// Contract: every thread of the block constructs it (with stages, the
/// constructor ends with a __syncthreads) and calls finish() once at the
/// end (a block-wide barrier, two with stages); between
/// them any lane may call send() any number of times, in any divergence,
/// also from blocks whose size is not a multiple of 32. send() returns
/// without needing any other thread outside send() to move, so it can sit
/// between the block's own barriers.
template <class Message, unsigned Capacity, unsigned StageSize = 32> class ChannelSender {
  static_assert(StageSize == 0 || ((StageSize & (StageSize - 1)) == 0 && StageSize <= Capacity),
                "StageSize must be 0 or a power of two no larger than Capacity");

public:
  using channel_type = Channel<Message, Capacity>;

  /// Dynamic shared memory the sender needs for `servers` destinations.
  static constexpr size_t shared_bytes(unsigned servers) {
    return StageSize == 0 ? 0 : sizeof(Header) + size_t(servers) * (sizeof(Counters) + StageSize * sizeof(Message));
  }

  /// `shared`: shared_bytes(ch.servers) bytes, 16-byte aligned (unused
  /// when StageSize is 0).
  __device__ ChannelSender(const channel_type &ch, void *shared) : ch_(ch) {
    if constexpr (StageSize != 0) {
      unsigned char *base = static_cast<unsigned char *>(shared);
      header_ = reinterpret_cast<Header *>(base);
      counters_ = reinterpret_cast<Counters *>(base + sizeof(Header));
      stage_ = reinterpret_cast<Message *>(base + sizeof(Header) + ch.servers * sizeof(Counters));
      const unsigned tid = detail::linear_thread_index();
      if (tid == 0)
        header_->aborted = 0;
      for (unsigned d = tid; d < ch.servers; d += detail::block_thread_count()) {
        counters_[d].reserved = 0;
        counters_[d].committed = 0;
        counters_[d].flushed = 0;
        counters_[d].cached_read = detail::device_ref<unsigned long long>(ch.meta[d].read_index)
                                       .load(cuda::memory_order_acquire);
      }
      __syncthreads();
    }
  }

  /// Sends `msg` to server `dest` (< ch.servers).
  __device__ void send(unsigned dest, const Message &msg) {
    static_assert(StageSize != 0, "an unstaged sender (StageSize 0) has no send(): use Channel::send_direct "
                                  "or ReplyBox::call");
    const unsigned active = __activemask();
    // Lanes with one destination take consecutive stage positions.
    const unsigned group = __match_any_sync(active, dest);
    const unsigned rank = rank_in(group);
    Counters &c = counters_[dest];
    unsigned first = 0;
    if (rank == 0)
      first = detail::block_ref<unsigned>(c.reserved).fetch_add(__popc(group), cuda::memory_order_relaxed);
    const unsigned pos = __shfl_sync(group, first, __ffs(group) - 1) + rank;
    const unsigned chunk = pos & ~(StageSize - 1);
    // Split the group by stage generation before anyone waits: a lane of the
    // next generation waits for this one's flush, so the two must not share
    // a collective after the wait.
    const unsigned sub = __match_any_sync(group, chunk);
    // The stage holds one generation at a time (positions chunk ..
    // chunk + StageSize - 1); wait until the one before ours has left.
    if (int(detail::block_ref<unsigned>(c.flushed).load(cuda::memory_order_acquire) - chunk) < 0) {
      detail::Backoff backoff{16, 256};
      do
        backoff.pause();
      while (int(detail::block_ref<unsigned>(c.flushed).load(cuda::memory_order_acquire) - chunk) < 0);
    }
    // Ordered before the flusher's reads by `committed` (__syncwarp, then
    // the acq_rel fetch_add) and after the previous generation's reads by
    // `flushed` (release store, acquire load); racecheck does not follow
    // atomics between warps (docs/delegate-runtime.md, "racecheck").
    stage_[dest * StageSize + (pos & (StageSize - 1))] = msg; // racecheck: ordered hand-off
    __syncwarp(sub);
    const unsigned count = __popc(sub);
    unsigned full = 0;
    if (is_lowest_lane_of(sub))
      full = detail::block_ref<unsigned>(c.committed).fetch_add(count, cuda::memory_order_acq_rel) +
                 count ==
             chunk + StageSize;
    full = __shfl_sync(sub, full, __ffs(sub) - 1);
    if (full) {
      // Our commit completed the generation: we copy it out.
      __syncwarp(sub);
      flush(dest, sub, StageSize);
      __syncwarp(sub);
      if (is_lowest_lane_of(sub))
        detail::block_ref<unsigned>(c.flushed).store(chunk + StageSize, cuda::memory_order_release);
    }
  }

  /// Block-collective: flushes the partial stages and marks the block done.
  /// No send() may follow.
  __device__ void finish() {
    // Every thread of the block is past its last send (the unstaged ones
    // reserved and published theirs) before client_done() releases them.
    __syncthreads();
    if constexpr (StageSize != 0) {
      const unsigned lane_bit = 1u << lane_id();
      for (unsigned d = detail::linear_thread_index(); d < ch_.servers; d += detail::block_thread_count()) {
        Counters &c = counters_[d];
        const unsigned n = detail::block_ref<unsigned>(c.reserved).load(cuda::memory_order_relaxed) -
                           detail::block_ref<unsigned>(c.flushed).load(cuda::memory_order_relaxed);
        if (n != 0) // flushed is a multiple of StageSize: stage[0, n) is pending
          flush(d, lane_bit, n);
      }
      __syncthreads();
    }
    if (detail::linear_thread_index() == 0)
      ch_.client_done();
  }

private:
  struct Header {
    unsigned aborted; // sticky: the host aborted, stop waiting for space
    unsigned pad[3];
  };
  struct Counters {
    unsigned reserved;  // stage positions handed out
    unsigned committed; // stage positions written
    unsigned flushed;   // stage positions copied to the ring
    unsigned pad;
    unsigned long long cached_read; // lazy copy of the ring's read_index
    unsigned long long pad2;
  };
  static_assert(sizeof(Header) % 16 == 0 && sizeof(Counters) % 16 == 0, "keep the stage 16-byte aligned");

  /// Copies stage[dest][0, n) to ring `dest`; every lane of `lanes` calls
  /// it (they are past every wait that could involve one another).
  __device__ void flush(unsigned dest, unsigned lanes, unsigned n) {
    const unsigned rank = rank_in(lanes);
    const unsigned count = __popc(lanes);
    unsigned long long first = 0;
    if (rank == 0)
      first = ch_.reserve(dest, n, &counters_[dest].cached_read, &header_->aborted);
    first = __shfl_sync(lanes, first, __ffs(lanes) - 1);
    const Message *src = stage_ + dest * StageSize;
    Message *ring = ch_.slots + size_t(dest) * Capacity;
    for (unsigned i = rank; i < n; i += count)
      ring[(first + i) & (Capacity - 1)] = src[i]; // racecheck: ordered hand-off (see send())
    __syncwarp(lanes);
    ch_.publish(dest, first, n, rank, count);
  }

  channel_type ch_;
  Header *header_ = nullptr;
  Counters *counters_ = nullptr;
  Message *stage_ = nullptr;
};

/// The server side: the block's first warp is the leader (it reads and
/// clears ready bits and owns read_index), the others are followers (they
/// read the payloads and call the handler).
///
/// @tparam Message, Capacity  as in Channel
///
/// Contract: a block of at least 64 threads; every thread calls run() once
/// (it synchronizes the block); the handler runs on follower threads, one
/// message per call, in any divergence, and must not call __syncthreads.
/// With `threads` (a multiple of 32, >= 64) given to the constructor, only
/// threads [0, threads) of the block call run(), which then synchronizes
/// them with named barrier 1 instead of __syncthreads; the block's other
/// warps are free for other work (<dd/delegate.cuh>'s handler warps).
/// Ordering: a client block's messages to one server enter the ring in send
/// order (stage generations are flushed one after another), and batches are
/// handled one after another, but the messages of one batch (up to 1024
/// consecutive slots) are handled concurrently, in no particular order.
template <class Message, unsigned Capacity> class ChannelReceiver {
public:
  using channel_type = Channel<Message, Capacity>;

  /// The double-buffered assignment from the leader to the followers.
  struct TempStorage {
    unsigned long long begin[2];
    unsigned count[2];
    unsigned stop[2];
  };

  __device__ ChannelReceiver(const channel_type &ch, TempStorage &temp, unsigned server = blockIdx.x,
                             unsigned threads = 0)
      : ch_(ch), temp_(temp), server_(server), threads_(threads) {}

  /// Receives until every client block is done and the ring is drained (or
  /// the host aborts). `handle(const Message &)`.
  template <class Handler> __device__ void run(Handler &&handle) {
    const unsigned tid = detail::linear_thread_index();
    const unsigned threads = threads_ != 0 ? threads_ : detail::block_thread_count();
    typename channel_type::meta_type &meta = ch_.meta[server_];
    const Message *ring = ch_.slots + size_t(server_) * Capacity;
    Leader leader{0, 0, false};
    if (tid < warp_size) {
      if (tid == 0 && ch_.started != nullptr) // the host launches clients after all servers run
        detail::system_ref<unsigned>(ch_.started[server_]).store(1u, cuda::memory_order_release);
      leader.next = detail::device_ref<unsigned long long>(meta.read_index).load(cuda::memory_order_relaxed);
      claim(leader, 0, true);
    }
    sync();
    for (unsigned buf = 0;; buf ^= 1) {
      const unsigned long long begin = temp_.begin[buf];
      const unsigned count = temp_.count[buf];
      const bool stop = temp_.stop[buf] != 0;
      if (tid < warp_size) {
        // Look for the next batch while the followers work on this one; wait
        // only when there is nothing to release (else a full ring would wait
        // on us).
        if (!stop)
          claim(leader, buf ^ 1, count == 0);
      } else {
        for (unsigned i = tid - warp_size; i < count; i += threads - warp_size)
          handle(detail::load_cg(ring + ((begin + i) & (Capacity - 1))));
      }
      sync(); // payload reads (and bit clears) before the release
      if (tid == 0 && count != 0)
        detail::device_ref<unsigned long long>(meta.read_index).store(begin + count, cuda::memory_order_release);
      if (stop)
        return;
    }
  }

private:
  /// The receiver's barrier: the block, or named barrier 1 over `threads_`
  /// (like __syncthreads, it orders the participants' memory accesses; the
  /// non-.aligned form, so lanes of a warp may arrive apart).
  __device__ void sync() const {
    if (threads_ == 0)
      __syncthreads();
    else
      asm volatile("barrier.sync 1, %0;" ::"r"(threads_) : "memory");
  }

  struct Leader {
    unsigned long long next;        // first index not yet claimed
    unsigned long long final_write; // write_index once all clients are done
    bool clients_done;
  };

  /// Leader warp: claims the run of ready slots that starts at `next`.
  __device__ unsigned scan(unsigned long long next) {
    return detail::claim_ready<Capacity>(ch_.meta[server_].ready, next);
  }

  /// Leader warp: claims the next batch into assignment buffer `slot`. With
  /// `may_wait`, polls (with back-off) until there is a batch or the end.
  __device__ void claim(Leader &leader, unsigned slot, bool may_wait) {
    unsigned n = 0;
    bool stop = false;
    detail::Backoff backoff{32, 1024};
    for (unsigned polls = 0;; ++polls) {
      n = scan(leader.next);
      if (n != 0)
        break;
      if (leader.clients_done) {
        if (leader.next == leader.final_write) {
          stop = true;
          break;
        }
      } else {
        unsigned all_done = 0;
        unsigned long long final_write = 0;
        if (lane_id() == 0 &&
            detail::device_ref<unsigned>(*ch_.done).load(cuda::memory_order_acquire) >= ch_.clients) {
          // Every reservation happened before its block's done increment.
          all_done = 1;
          final_write = detail::device_ref<unsigned long long>(ch_.meta[server_].write_index)
                            .load(cuda::memory_order_relaxed);
        }
        if (__shfl_sync(full_warp_mask, all_done, 0) != 0) {
          leader.clients_done = true;
          leader.final_write = __shfl_sync(full_warp_mask, final_write, 0);
          continue; // scan again: the rest is in flight or already ready
        }
      }
      if (!may_wait)
        break;
      if ((polls & 63) == 63) {
        const unsigned aborted = lane_id() == 0 ? (ch_.aborted() || ch_.poll_host_abort()) : 0u;
        if (__shfl_sync(full_warp_mask, aborted, 0) != 0) {
          stop = true;
          break;
        }
      }
      backoff.pause();
    }
    if (leader.clients_done && leader.next + n == leader.final_write)
      stop = true;
    if (lane_id() == 0) {
      temp_.begin[slot] = leader.next;
      temp_.count[slot] = n;
      temp_.stop[slot] = stop ? 1u : 0u;
    }
    leader.next += n;
  }

  channel_type ch_;
  TempStorage &temp_;
  unsigned server_;
  unsigned threads_; // 0: the whole block
};

} // namespace dd

#endif // DD_CHANNEL_CUH
