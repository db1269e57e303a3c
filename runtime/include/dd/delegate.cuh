//===- dd/delegate.cuh - Critical sections run by server blocks -*- CUDA -*-===//
//
// The server side of the decoupled delegate (Wang, dissertation ch. 4 /
// ASPLOS'19 §4.2 and §4.4) on top of <dd/channel.cuh> and <dd/context.cuh>:
// client threads send a message per critical section instead of taking a
// global lock; persistent server blocks run the critical sections under
// locks that live in their shared memory.
//
//   DelegateMap<Locks>               where a data item lives: server id % S,
//                                    local lock (id / S) % Locks, global lock
//                                    server * Locks + local (the hierarchy)
//   DelegateServer<Msg, Locks, Cap>  one lock per critical section
//     .run(id_of, critical_section)  block-collective, the server loop
//   NestedDelegateServer<...>        two locks per critical section (§4.4):
//     .run(ids_of, critical_section) lock requests, replies and unlocks go
//                                    between server blocks on three more
//                                    channels (NestedDelegateSides); the
//                                    two ids index one array or two (LockIds)
//   Delegate<Msg>, NestedDelegate<Msg>  what the delegate pass generates
//                                    code against: the types of one
//                                    delegated kernel and launch(), the host
//                                    side of its client/server pair, which
//                                    also runs the kernel as written when
//                                    that measures faster (dd/launch_choice.h)
//
// Why it is correct, in short (docs/delegate-runtime.md has the long form):
// every message for data item d goes to server d % S, so all critical
// sections on d run inside one block, under that block's lock word for d,
// taken with a block-scope acquire and given back with a block-scope
// release; a critical section that needs an item of another server holds
// that server's lock word for it through a request/reply, and gives it back
// through an unlock message, each a device-scope release/acquire (the
// channel's ready bits). A follower waits for a lock only in an order that
// no chain of waits can close (NestedOrder: the remote lock first, holding
// nothing, then its own lower-server one; or the lower global id first),
// and the three handler warps that serve requests, replies and unlocks
// never wait for a lock, so no cycle of waits can form.
//
//===----------------------------------------------------------------------===//
#ifndef DD_DELEGATE_CUH
#define DD_DELEGATE_CUH

#include <cuda/atomic>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "dd/channel.cuh"
#include "dd/context.cuh"
#include "dd/detail/delegate_launch.cuh"
#include "dd/launch_choice.h"
#include "dd/reply.cuh"
#include "dd/warp_reduce.cuh"

namespace dd {

/// The interleaving of data items over server blocks (§4.2.1): fine-grained,
/// so that a few hot items still spread over the servers.
///
/// @tparam Locks  lock words per server block (shared memory, 4 bytes each);
///                items whose (id / servers) agree modulo Locks share a lock
///                (that serializes them but is never wrong)
template <unsigned Locks = 4096> struct DelegateMap {
  static_assert(Locks >= 1, "at least one lock per server");
  unsigned servers;

  __host__ __device__ unsigned server(unsigned long long id) const { return unsigned(id % servers); }
  __host__ __device__ unsigned lock(unsigned long long id) const { return unsigned((id / servers) % Locks); }
  /// The lock hierarchy of §4.4: a lock's place in the order locks are taken.
  __host__ __device__ unsigned long long global_lock(unsigned long long id) const {
    return (unsigned long long)server(id) * Locks + lock(id);
  }
};

/// Two data ids of one nested critical section, in either order.
struct IdPair {
  unsigned long long first, second;
};

/// What the two ids of a nested critical section index (the delegate pass
/// picks it from the two locks' arrays).
enum class LockIds : unsigned {
  /// One id space (both locks from one array, ATM's accounts): ids that
  /// are equal name one lock; the lower global lock's server runs the
  /// section.
  OneSpace = 0,
  /// Two arrays (SGD's users and items): IdPair::first indexes one,
  /// IdPair::second the other, and user 7 is not item 7. Each array gets
  /// its half of every server's lock words, so the halves never alias,
  /// and the second id's server runs the section: the second (inner) lock
  /// is always local, handed over in shared memory, and only the first
  /// goes through a request when it lives elsewhere. Every section takes
  /// the first array's lock before the second's, so no cycle of waits can
  /// form (docs/delegate-runtime.md, "Two lock arrays").
  TwoArrays = 1,
};

namespace detail {

/// A shared-memory lock word: bit 0 held; bit 1 (nested servers only) a
/// remote request is queued for it, so local threads leave it alone.
/// Test before the CAS, so that spinning threads mostly read.
__device__ __forceinline__ bool try_lock_local(unsigned &word) {
  block_ref<unsigned> w(word);
  unsigned expected = 0;
  return w.load(cuda::memory_order_relaxed) == 0 &&
         w.compare_exchange_strong(expected, 1u, cuda::memory_order_acquire, cuda::memory_order_relaxed);
}

/// Gives a lock word back and keeps bit 1 (queued remote requests).
__device__ __forceinline__ void unlock_local(unsigned &word) {
  block_ref<unsigned>(word).fetch_and(~1u, cuda::memory_order_release);
}

/// Takes a lock word for a remote requester: ignores bit 1 (it is for
/// remote requesters) and leaves it set only when `more` remote requests
/// wait for the word; on failure sets it.
__device__ __forceinline__ bool try_lock_remote(unsigned &word, bool more) {
  block_ref<unsigned> w(word);
  unsigned v = w.load(cuda::memory_order_relaxed);
  while ((v & 1u) == 0)
    if (w.compare_exchange_weak(v, more ? 3u : 1u, cuda::memory_order_acquire, cuda::memory_order_relaxed))
      return true;
  if ((v & 2u) == 0)
    w.fetch_or(2u, cuda::memory_order_relaxed);
  return false;
}

/// Takes a lock word for a thread that already holds a lock elsewhere (the
/// remote-first order of nested servers): ignores and keeps bit 1, so the
/// holder goes before parked remote requests, which hold nothing.
__device__ __forceinline__ bool try_lock_holder(unsigned &word) {
  block_ref<unsigned> w(word);
  unsigned v = w.load(cuda::memory_order_relaxed);
  return (v & 1u) == 0 && w.compare_exchange_strong(v, v | 1u, cuda::memory_order_acquire, cuda::memory_order_relaxed);
}

/// Spins on try_lock_local in the form of Listing 4.2 (the retry is the
/// loop; the critical section sits inside the successful branch, so no
/// assumption about which lanes of a warp run together is needed). Gives up
/// only when the run is aborted.
template <class Channel_>
__device__ __forceinline__ bool lock_local(unsigned &word, const Channel_ &ch, bool holder = false) {
  for (unsigned polls = 1;; ++polls) {
    if (holder ? try_lock_holder(word) : try_lock_local(word))
      return true;
    if ((polls & 1023) == 0 && ch.aborted())
      return false;
  }
}

/// One full warp serves ring `server` of `ch` until every one of its
/// ch.clients senders has called client_done() and the ring is drained (or
/// the run is aborted): it claims runs of ready slots (claim_ready), reads
/// the payloads itself and calls handle(message, valid) with all 32 lanes
/// together (valid: this lane holds a message), so handlers may use full-warp
/// collectives; after_round() runs, warp-wide, after every poll. The
/// handlers must not wait on anything that waits on this warp.
template <class Message, unsigned Capacity, class Handle, class AfterRound, class MayStop>
__device__ void serve_warp(const Channel<Message, Capacity> &ch, unsigned server, Handle &&handle,
                           AfterRound &&after_round, MayStop &&may_stop) {
  ChannelRingMeta<Capacity> &meta = ch.meta[server];
  const Message *ring = ch.slots + size_t(server) * Capacity;
  const unsigned lane = lane_id();
  unsigned long long next = device_ref<unsigned long long>(meta.read_index).load(cuda::memory_order_relaxed);
  unsigned long long final_write = 0;
  bool clients_done = false;
  Backoff backoff{32, 256};
  for (unsigned polls = 1;; ++polls) {
    const unsigned n = claim_ready<Capacity>(meta.ready, next);
    for (unsigned base = 0; base < n; base += 32) {
      const bool valid = base + lane < n;
      Message m{};
      if (valid)
        m = load_cg(ring + ((next + base + lane) & (Capacity - 1)));
      handle(m, valid);
    }
    if (n != 0) {
      __syncwarp(); // every lane's payload reads before the release
      next += n;
      if (lane == 0)
        device_ref<unsigned long long>(meta.read_index).store(next, cuda::memory_order_release);
      backoff.ns = 32;
    }
    after_round();
    if (n != 0)
      continue;
    if (clients_done) {
      if (next == final_write && may_stop())
        return;
    } else {
      unsigned all_done = 0;
      unsigned long long fw = 0;
      if (lane == 0 && device_ref<unsigned>(*ch.done).load(cuda::memory_order_acquire) >= ch.clients) {
        all_done = 1; // every reservation happened before its sender's done
        fw = device_ref<unsigned long long>(meta.write_index).load(cuda::memory_order_relaxed);
      }
      if (__shfl_sync(full_warp_mask, all_done, 0) != 0) {
        clients_done = true;
        final_write = __shfl_sync(full_warp_mask, fw, 0);
        continue;
      }
    }
    if ((polls & 63) == 0 && __shfl_sync(full_warp_mask, lane == 0 ? unsigned(ch.aborted()) : 0u, 0) != 0)
      return;
    backoff.pause();
  }
}

} // namespace detail

/// A server block for critical sections that need one lock (Listing 4.2):
/// the channel's receiver hands each message to a follower thread, which
/// takes the item's lock word in shared memory, runs the critical section
/// and gives the lock back.
///
/// @tparam Message   the channel's message (carries the data id and the
///                   critical section's arguments)
/// @tparam Locks     lock words in shared memory (default 4096, as in §4.2.1)
/// @tparam Capacity  the channel's ring size
///
/// Contract: one block per server (blockIdx.x is the server), at least 64
/// threads; every thread calls run() once. The critical section runs on a
/// follower thread, one message per call, in any divergence; it must not
/// call __syncthreads or wait for clients. Clients route each message with
/// DelegateMap<Locks>{ch.servers}.server(id).
template <class Message, unsigned Locks = 4096, unsigned Capacity = 4096> class DelegateServer {
public:
  using channel_type = Channel<Message, Capacity>;
  using receiver_type = ChannelReceiver<Message, Capacity>;
  using map_type = DelegateMap<Locks>;

  struct TempStorage {
    typename receiver_type::TempStorage receiver;
    unsigned locks[Locks];
  };

  __device__ DelegateServer(const channel_type &ch, TempStorage &temp) : ch_(ch), temp_(temp) {}

  /// Serves until all clients are done and the ring is drained.
  /// `id_of(const Message &)` gives the data id; `critical_section(const
  /// Message &)` runs with that id's lock held.
  template <class IdOf, class CriticalSection>
  __device__ void run(IdOf &&id_of, CriticalSection &&critical_section) {
    for (unsigned i = detail::linear_thread_index(); i < Locks; i += detail::block_thread_count())
      temp_.locks[i] = 0;
    __syncthreads(); // the lock table is clear before any handler runs
    const map_type map{ch_.servers};
    receiver_type rx(ch_, temp_.receiver);
    rx.run([&](const Message &m) {
      unsigned &word = temp_.locks[map.lock(id_of(m))];
      if (!detail::lock_local(word, ch_))
        return; // aborted: the run is void
      critical_section(m);
      detail::block_ref<unsigned>(word).store(0u, cuda::memory_order_release);
    });
  }

private:
  channel_type ch_;
  TempStorage &temp_;
};

/// The three server-to-server channels of §4.4 and the queues of lock
/// requests that find their lock word taken. One message type per channel,
/// so that no kind of message can fill a ring another kind needs to drain
/// (the "virtual channels" argument of §4.4). Device handle; filled in by
/// NestedDelegateSides.
template <unsigned SideCapacity = 1024> struct NestedSides {
  struct LockRequest {
    unsigned lock;      ///< the lock word at the receiving server
    unsigned requester; ///< server * 1024 + thread of the waiting thread
  };
  struct LockReply {
    unsigned thread; ///< the waiting thread of the receiving server
  };
  struct LockRelease {
    unsigned lock; ///< the lock word at the receiving server
  };

  static constexpr unsigned none = 0xffffffffu;

  Channel<LockRequest, SideCapacity> request;
  Channel<LockReply, SideCapacity> reply;
  Channel<LockRelease, SideCapacity> unlock;
  unsigned *queue = nullptr;      ///< [servers * locks * 2] per lock word: first and last waiting requester
  unsigned *queue_next = nullptr; ///< [servers * 1024] per requester: the next one in its queue
  unsigned locks = 0;             ///< lock words per server the queues were sized for
  unsigned *errors = nullptr;     ///< [0] misrouted messages, [1] lock-count mismatch
  /// The order a critical section on two servers takes its locks in
  /// (NestedOrder): 0 the local (lower) one first, 1 the remote one first.
  unsigned remote_first = 0;
};

/// The order in which a nested critical section whose two locks live on two
/// servers takes them (docs/delegate-runtime.md, "Which lock first"). Both
/// are deadlock-free.
enum class NestedOrder : unsigned {
  /// The local (lower) lock, then the remote one: the local word stays held
  /// over the request/reply round trip.
  LocalFirst = 0,
  /// The remote lock, then the local one (the dissertation's Fig. 4.5): a
  /// thread waiting for the reply holds nothing, and the local word is held
  /// only for the critical section; the remote one is held while the local
  /// one is waited for.
  RemoteFirst = 1,
};

/// A server block for critical sections that need two locks (§4.4,
/// Listing 4.3). The client sends the message to the server that owns the
/// lower of the two global lock ids (NestedDelegateServer::route); there a
/// follower thread takes both: the higher one from its own table, or, when
/// another server owns it, by a request message to that server, whose
/// request warp takes the lock on its behalf and answers with a reply (in
/// the order NestedSides::remote_first says: by default that one first,
/// then its own); after the critical section an unlock message gives it
/// back. Warps of the
/// block, in order: the receiver (a leader and followers, named barrier 1),
/// then the request warp, the reply warp and the unlock warp. Only the
/// followers ever wait for a lock; a request that finds its lock taken is
/// queued behind that lock word (a FIFO per word, linked through the
/// requesters, in global memory) and marks the word (bit 1), so local
/// threads let the remote ones go first; every round the request warp grants
/// the head of each queue whose word is free (it finds them through a
/// bitmap of non-empty queues in shared memory). The first GPU run kept one
/// flat list of parked requests per server and retried all of them every
/// round: ATM at collision factor 256 then measured 85 us per lock hand-off.
///
/// @tparam Message       the main channel's message
/// @tparam Locks         lock words per server (shared memory)
/// @tparam Capacity      the main channel's ring size
/// @tparam SideCapacity  ring size of the three side channels
/// @tparam Ids           one id space or two lock arrays (LockIds)
///
/// Contract: one block per server, blockDim a multiple of 32 with 160 <=
/// threads <= 1024; every thread calls run() once; the critical section as
/// for DelegateServer. Messages whose two ids fall on the same lock word run
/// under that one lock.
template <class Message, unsigned Locks = 4096, unsigned Capacity = 4096, unsigned SideCapacity = 1024,
          LockIds Ids = LockIds::OneSpace>
class NestedDelegateServer {
public:
  using channel_type = Channel<Message, Capacity>;
  using receiver_type = ChannelReceiver<Message, Capacity>;
  using sides_type = NestedSides<SideCapacity>;
  using map_type = DelegateMap<Locks>;
  static constexpr unsigned handler_warps = 3; ///< request, reply, unlock

  static constexpr unsigned locks = Locks;
  static constexpr unsigned waiting_words = (Locks + 31) / 32;
  static_assert(Ids == LockIds::OneSpace || Locks >= 2, "two lock arrays need two lock words");
  /// Lock words per array under LockIds::TwoArrays.
  static constexpr unsigned half_locks = Locks / 2;

  struct TempStorage {
    typename receiver_type::TempStorage receiver;
    unsigned locks[Locks];
    unsigned replies[1024];          ///< per thread: replies received (the waiting thread counts them)
    unsigned waiting[waiting_words]; ///< request warp: lock words with a non-empty queue
  };

  /// Where a client sends a message on items `a` and `b` (IdPair order).
  __host__ __device__ static unsigned route(unsigned long long a, unsigned long long b, unsigned servers) {
    const map_type map{servers};
    if constexpr (Ids == LockIds::TwoArrays)
      return map.server(b);
    else
      return map.global_lock(a) <= map.global_lock(b) ? map.server(a) : map.server(b);
  }

  /// The lock word of id `id` of array `array` (0: IdPair::first) under
  /// LockIds::TwoArrays, at server map.server(id).
  __host__ __device__ static unsigned array_lock(unsigned long long id, unsigned array, unsigned servers) {
    return array * half_locks + unsigned((id / servers) % half_locks);
  }

  __device__ NestedDelegateServer(const channel_type &ch, const sides_type &sides, TempStorage &temp)
      : ch_(ch), sides_(sides), temp_(temp) {}

  /// Serves until all clients are done, every server has finished its
  /// messages, and the side rings are drained. `ids_of(const Message &)`
  /// returns an IdPair; `critical_section(const Message &)` runs with both
  /// ids' locks held.
  template <class IdsOf, class CriticalSection>
  __device__ void run(IdsOf &&ids_of, CriticalSection &&critical_section) {
    const unsigned tid = detail::linear_thread_index();
    const unsigned threads = detail::block_thread_count();
    for (unsigned i = tid; i < Locks; i += threads)
      temp_.locks[i] = 0;
    for (unsigned i = tid; i < 1024; i += threads)
      temp_.replies[i] = 0;
    __syncthreads(); // tables clear before any warp uses them
    const unsigned main_threads = threads - handler_warps * warp_size;
    const unsigned warp = tid / warp_size;
    if (tid < main_threads)
      serve_clients(main_threads, ids_of, critical_section);
    else if (warp == main_threads / warp_size)
      serve_requests();
    else if (warp == main_threads / warp_size + 1)
      detail::serve_warp(
          sides_.reply, blockIdx.x,
          [&](const typename sides_type::LockReply &r, bool valid) {
            if (valid) // pairs with the waiting thread's acquire load
              detail::block_ref<unsigned>(temp_.replies[r.thread]).fetch_add(1u, cuda::memory_order_release);
          },
          [] {}, [] { return true; });
    else
      detail::serve_warp(
          sides_.unlock, blockIdx.x,
          [&](const typename sides_type::LockRelease &u, bool valid) {
            if (valid) // the remote holder's writes (acquired with the message) before the next holder's
              detail::unlock_local(temp_.locks[u.lock]);
          },
          [] {}, [] { return true; });
  }

private:
  /// The receiver's threads: each message's critical section under both locks.
  template <class IdsOf, class CriticalSection>
  __device__ void serve_clients(unsigned main_threads, IdsOf &ids_of, CriticalSection &critical_section) {
    const unsigned me = blockIdx.x;
    const unsigned tid = detail::linear_thread_index();
    const map_type map{ch_.servers};
    receiver_type rx(ch_, temp_.receiver, me, main_threads);
    // The reply warp counts this thread's replies; we are the only thread
    // that asks for them, one at a time. False when the run was aborted.
    auto take_remote = [&](unsigned server, unsigned lock) {
      detail::block_ref<unsigned> replies(temp_.replies[tid]);
      const unsigned seen = replies.load(cuda::memory_order_relaxed);
      sides_.request.send_direct(server, typename sides_type::LockRequest{lock, me * 1024u + tid});
      detail::Backoff backoff{32, 256};
      for (unsigned polls = 1; replies.load(cuda::memory_order_acquire) == seen; ++polls) {
        if ((polls & 63) == 0 && ch_.aborted())
          return false;
        backoff.pause();
      }
      return true;
    };
    // Sent after the critical section's writes: its release covers them.
    auto give_remote = [&](unsigned server, unsigned lock) {
      sides_.unlock.send_direct(server, typename sides_type::LockRelease{lock});
    };
    rx.run([&](const Message &m) {
      const IdPair ids = ids_of(m);
      if constexpr (Ids == LockIds::TwoArrays) {
        // The first array's lock, wherever it lives, then our own word of
        // the second array's (as a holder: ahead of parked requests).
        if (map.server(ids.second) != me) {
          atomicAdd(&sides_.errors[0], 1u);
          return;
        }
        unsigned &second = temp_.locks[array_lock(ids.second, 1, ch_.servers)];
        const unsigned first_server = map.server(ids.first);
        const unsigned first_lock = array_lock(ids.first, 0, ch_.servers);
        if (first_server == me) {
          if (!detail::lock_local(temp_.locks[first_lock], ch_))
            return; // aborted: the run is void
        } else if (!take_remote(first_server, first_lock)) {
          return;
        }
        if (!detail::lock_local(second, ch_, /*holder=*/true))
          return;
        critical_section(m);
        detail::unlock_local(second);
        if (first_server == me)
          detail::unlock_local(temp_.locks[first_lock]);
        else
          give_remote(first_server, first_lock);
        return;
      }
      const unsigned long long ga = map.global_lock(ids.first), gb = map.global_lock(ids.second);
      const unsigned long long lo = ga <= gb ? ids.first : ids.second;
      const unsigned long long hi = ga <= gb ? ids.second : ids.first;
      if (map.server(lo) != me) { // the client routed it elsewhere than route() says
        atomicAdd(&sides_.errors[0], 1u);
        return;
      }
      unsigned &first = temp_.locks[map.lock(lo)];
      enum { same, local, remote } second_kind =
          map.global_lock(hi) == map.global_lock(lo) ? same : map.server(hi) == me ? local : remote;
      if (second_kind == remote && sides_.remote_first != 0) {
        // Waits for the reply holding nothing; then, holding the remote
        // word, goes before parked requests for the local one (they hold
        // nothing). Every wait is for a word on a lower server, or on the
        // same server at a higher index, so no cycle of waits can form.
        if (!take_remote(map.server(hi), map.lock(hi)))
          return; // aborted: the run is void
        if (!detail::lock_local(first, ch_, /*holder=*/true))
          return;
        critical_section(m);
        give_remote(map.server(hi), map.lock(hi));
        detail::unlock_local(first);
        return;
      }
      if (!detail::lock_local(first, ch_))
        return;
      unsigned *second = second_kind == local ? &temp_.locks[map.lock(hi)] : nullptr;
      bool ok = true;
      if (second_kind == local)
        ok = detail::lock_local(*second, ch_);
      else if (second_kind == remote)
        ok = take_remote(map.server(hi), map.lock(hi));
      if (ok) {
        critical_section(m);
        if (second_kind == local)
          detail::unlock_local(*second);
        else if (second_kind == remote)
          give_remote(map.server(hi), map.lock(hi));
      }
      detail::unlock_local(first);
    });
    // Past the receiver's last barrier: every follower's sends are done.
    if (tid == 0)
      sides_.request.client_done(); // the three side channels share one counter
  }

  /// The request warp: takes lock words for remote threads, or queues the
  /// request behind the word and grants it when the word is free. Never
  /// waits for a lock. The queues and the bitmap belong to this warp alone;
  /// the lanes share them through __syncwarp.
  __device__ void serve_requests() {
    using Req = typename sides_type::LockRequest;
    constexpr unsigned none = sides_type::none;
    const unsigned me = blockIdx.x;
    const unsigned lane = lane_id();
    if (sides_.locks != Locks) { // allocated for another lock count: refuse to run
      if (lane == 0)
        atomicAdd(&sides_.errors[1], 1u);
      return;
    }
    unsigned *queue = sides_.queue + size_t(me) * Locks * 2; // [2 l] first, [2 l + 1] last
    unsigned *link = sides_.queue_next;                      // by requester
    for (unsigned i = lane; i < 2 * Locks; i += warp_size)
      queue[i] = none;
    for (unsigned w = lane; w < waiting_words; w += warp_size)
      temp_.waiting[w] = 0;
    __syncwarp();
    unsigned queued = 0; // the same in every lane
    auto grant = [&](unsigned requester) {
      sides_.reply.send_direct(requester / 1024u, typename sides_type::LockReply{requester % 1024u});
    };
    auto waiting = [&](unsigned l) -> detail::block_ref<unsigned> { return detail::block_ref<unsigned>(temp_.waiting[l / 32]); };
    detail::serve_warp(
        sides_.request, me,
        [&](const Req &r, bool valid) {
          // Behind earlier waiters of the word (FIFO), else take it if free.
          const bool behind = valid && ((waiting(r.lock).load(cuda::memory_order_relaxed) >> (r.lock % 32)) & 1u);
          const bool got = valid && !behind && detail::try_lock_remote(temp_.locks[r.lock], false);
          if (got)
            grant(r.requester);
          const bool park = valid && !got;
          const unsigned parkers = __ballot_sync(full_warp_mask, park);
          if (park) {
            // Lanes queuing on one word chain themselves in lane order; the
            // lowest appends the chain.
            const unsigned group = __match_any_sync(parkers, r.lock);
            const unsigned above = group & lanemask_gt();
            const unsigned next = __shfl_sync(group, r.requester, above != 0 ? __ffs(above) - 1 : lane);
            link[r.requester] = above != 0 ? next : none;
            const unsigned last = __shfl_sync(group, r.requester, 31 - __clz(group));
            if (is_lowest_lane_of(group)) {
              const unsigned tail = queue[2 * r.lock + 1];
              if (tail == none)
                queue[2 * r.lock] = r.requester;
              else
                link[tail] = r.requester;
              queue[2 * r.lock + 1] = last;
              waiting(r.lock).fetch_or(1u << (r.lock % 32), cuda::memory_order_relaxed);
            }
          }
          queued += __popc(parkers);
          __syncwarp();
        },
        [&] {
          // Grant the first request of every queue whose word is free; lane
          // k looks after the words of bitmap words k, k + 32, ...
          unsigned granted = 0;
          for (unsigned w = lane; w < waiting_words; w += warp_size) {
            unsigned bits = detail::block_ref<unsigned>(temp_.waiting[w]).load(cuda::memory_order_relaxed);
            while (bits != 0) {
              const unsigned l = w * 32 + __ffs(bits) - 1;
              bits &= bits - 1;
              if (detail::block_ref<unsigned>(temp_.locks[l]).load(cuda::memory_order_relaxed) & 1u)
                continue;
              const unsigned first = queue[2 * l];
              const unsigned next = link[first];
              if (!detail::try_lock_remote(temp_.locks[l], next != none))
                continue;
              queue[2 * l] = next;
              if (next == none) {
                queue[2 * l + 1] = none;
                waiting(l).fetch_and(~(1u << (l % 32)), cuda::memory_order_relaxed);
              }
              grant(first);
              ++granted;
            }
          }
          queued -= detail::mask_reduce<ops::add>(full_warp_mask, granted);
          __syncwarp();
        },
        [&] { return queued == 0; });
  }

  channel_type ch_;
  sides_type sides_;
  TempStorage &temp_;
};

/// The order in DD_DELEGATE_NESTED: `remote-first` or `local-first`; unset
/// or empty means `fallback`. Anything else ends the program, naming the
/// variable: a typo must not silently measure the other order.
inline NestedOrder nested_order_from_env(NestedOrder fallback) {
  const char *value = std::getenv("DD_DELEGATE_NESTED");
  if (!value || !*value)
    return fallback;
  if (std::strcmp(value, "remote-first") == 0)
    return NestedOrder::RemoteFirst;
  if (std::strcmp(value, "local-first") == 0)
    return NestedOrder::LocalFirst;
  std::fprintf(stderr, "dd: DD_DELEGATE_NESTED must be remote-first or local-first (is '%s')\n", value);
  std::exit(EXIT_FAILURE);
}

/// Host side of NestedSides: allocates the three side channels and the
/// request queues for a planned Context, and resets them before each launch.
///
/// Usage: ctx.plan(...); sides.allocate(ctx.split(), ctx.channel(), Server::locks);
/// then before every ctx.launch(): sides.reset() (synchronous).
template <unsigned SideCapacity = 1024> class NestedDelegateSides {
public:
  using device_type = NestedSides<SideCapacity>;

  NestedDelegateSides() = default;
  NestedDelegateSides(const NestedDelegateSides &) = delete;
  NestedDelegateSides &operator=(const NestedDelegateSides &) = delete;
  ~NestedDelegateSides() { release(); }

  /// `main`: the Context's channel (its abort word stops the side warps too).
  /// `locks`: the server's lock words (NestedDelegateServer::locks).
  /// `order`: which lock first (NestedOrder; DD_DELEGATE_NESTED overrides).
  template <class MainChannel>
  cudaError_t allocate(const ChannelSplit &split, const MainChannel &main, unsigned locks,
                       NestedOrder order = NestedOrder::RemoteFirst) {
    release();
    servers_ = split.servers;
    device_.locks = locks;
    device_.remote_first = nested_order_from_env(order) == NestedOrder::RemoteFirst ? 1u : 0u;
    const size_t meta_bytes = size_t(servers_) * sizeof(ChannelRingMeta<SideCapacity>);
    cudaError_t e = cudaSuccess;
    auto step = [&](cudaError_t r) {
      if (e == cudaSuccess)
        e = r;
    };
    step(cudaMalloc(&meta_, 3 * meta_bytes));
    step(cudaMalloc(&counters_, 4 * sizeof(unsigned))); // [0] done, [1..2] errors
    step(cudaMalloc(&request_slots_, size_t(servers_) * SideCapacity * sizeof(typename device_type::LockRequest)));
    step(cudaMalloc(&reply_slots_, size_t(servers_) * SideCapacity * sizeof(typename device_type::LockReply)));
    step(cudaMalloc(&unlock_slots_, size_t(servers_) * SideCapacity * sizeof(typename device_type::LockRelease)));
    step(cudaMalloc(&queue_, size_t(servers_) * locks * 2 * sizeof(unsigned)));
    step(cudaMalloc(&queue_next_, size_t(servers_) * 1024 * sizeof(unsigned)));
    if (e != cudaSuccess)
      return e;
    auto *meta = static_cast<ChannelRingMeta<SideCapacity> *>(meta_);
    auto fill = [&](auto &ch, auto *slots, unsigned k) {
      ch.meta = meta + size_t(k) * servers_;
      ch.slots = slots;
      ch.servers = servers_;
      ch.clients = servers_; // every server block calls client_done() once
      ch.done = counters_;
      ch.started = nullptr;
      ch.abort_flag = main.abort_flag;
      ch.abort_host = nullptr;
    };
    fill(device_.request, request_slots_, 0);
    fill(device_.reply, reply_slots_, 1);
    fill(device_.unlock, unlock_slots_, 2);
    device_.queue = queue_;
    device_.queue_next = queue_next_;
    device_.errors = counters_ + 1;
    return cudaSuccess;
  }

  /// Clears the rings' metadata, the shared done counter and the error
  /// counters; waits for it (the Context's streams are not ordered after
  /// the default stream).
  cudaError_t reset() {
    cudaError_t e = cudaMemset(meta_, 0, 3 * size_t(servers_) * sizeof(ChannelRingMeta<SideCapacity>));
    if (e == cudaSuccess)
      e = cudaMemset(counters_, 0, 4 * sizeof(unsigned));
    return e == cudaSuccess ? cudaDeviceSynchronize() : e;
  }

  /// Misrouted messages and lock-count mismatches of the last run (both must be 0).
  cudaError_t errors(unsigned out[2]) const {
    return cudaMemcpy(out, counters_ + 1, 2 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  }

  const device_type &device() const { return device_; }

private:
  void release() {
    cudaFree(meta_);
    cudaFree(counters_);
    cudaFree(request_slots_);
    cudaFree(reply_slots_);
    cudaFree(unlock_slots_);
    cudaFree(queue_);
    cudaFree(queue_next_);
    meta_ = nullptr;
    counters_ = nullptr;
    request_slots_ = nullptr;
    reply_slots_ = nullptr;
    unlock_slots_ = nullptr;
    queue_ = nullptr;
    queue_next_ = nullptr;
  }

  unsigned servers_ = 0;
  void *meta_ = nullptr;
  unsigned *counters_ = nullptr;
  typename device_type::LockRequest *request_slots_ = nullptr;
  typename device_type::LockReply *reply_slots_ = nullptr;
  typename device_type::LockRelease *unlock_slots_ = nullptr;
  unsigned *queue_ = nullptr;
  unsigned *queue_next_ = nullptr;
  device_type device_{};
};

//===----------------------------------------------------------------------===//
// What the delegate pass generates code against (docs/delegate-pass.md): one
// type per delegated kernel bundles the runtime types, and launch() is the
// host side that replaces the original `kernel<<<grid, block>>>(...)`.
//===----------------------------------------------------------------------===//

/// The runtime types of one delegated kernel whose critical section takes
/// one lock, and its host launch.
///
///   using k_delegate = dd::Delegate<k_message>;
///   __global__ void k_client(k_delegate::channel_type ch, ...);   // sends
///   __global__ void k_server(k_delegate::channel_type ch, ...);   // k_delegate::server_type
///   __global__ void k(...);                                        // as written
///   k_delegate::launch("k", 0, k_server, k_client, k, grid, block, stream,
///       [&](const k_delegate::channel_type &ch, dim3 g, dim3 b, size_t shm, cudaStream_t s) { k_server<<<g, b, shm, s>>>(ch, ...); },
///       [&](const k_delegate::channel_type &ch, dim3 g, dim3 b, size_t shm, cudaStream_t s) { k_client<<<g, b, shm, s>>>(ch, ...); },
///       [&](dim3 g, dim3 b, cudaStream_t s) { k<<<g, b, 0, s>>>(...); });
///
/// `StageSize`: the client's messages staged per server (ChannelSender); 0
/// for a client whose every send waits for its reply (UnstagedDelegate).
template <class Message, unsigned Locks = 4096, unsigned Capacity = 4096, unsigned StageSize = 32>
struct Delegate {
  using context_type = Context<Message, Capacity, StageSize>;
  using channel_type = typename context_type::channel_type;
  using sender_type = typename context_type::sender_type;
  using server_type = DelegateServer<Message, Locks, Capacity>;

  /// The server block that owns data item `id`.
  __host__ __device__ static unsigned route(const channel_type &ch, unsigned long long id) {
    return DelegateMap<Locks>{ch.servers}.server(id);
  }

  /// One launch in place of `original<<<grid, block, 0, stream>>>`: either
  /// the client kernel with `grid` and `block` and the server kernel beside
  /// it, waiting for both, or `launch_original` (the kernel as written), as
  /// DD_DELEGATE_POLICY and the measurements choose (detail::delegate_run).
  /// `servers`: server blocks asked for (0: Context's default); fewer run
  /// when not all would be resident.
  template <class Server, class Client, class Original, class LaunchServer, class LaunchClient,
            class LaunchOriginal>
  static void launch(const char *kernel, unsigned servers, Server server, Client client, Original original,
                     dim3 grid, dim3 block, cudaStream_t stream, LaunchServer &&launch_server,
                     LaunchClient &&launch_client, LaunchOriginal &&launch_original) {
    static detail::DelegatePlan<context_type, detail::NoExtra> plan; // see DelegatePlan
    channel_type ch{};
    detail::delegate_run(
        kernel, plan, server, client, original, grid, block, stream, servers, [] {},
        [&](dim3 g, dim3 b, size_t shared, cudaStream_t s) { launch_server(ch, g, b, shared, s); },
        [&](dim3 g, dim3 b, size_t shared, cudaStream_t s) { launch_client(ch, g, b, shared, s); },
        launch_original, [&] { ch = plan.ctx.channel(); }, [] {});
  }
};

/// As Delegate, for critical sections that take two nested locks (§4.4):
/// the server kernel also takes the side channels (sides_type). `Ids`:
/// whether the two ids index one lock array or two (LockIds).
template <class Message, unsigned Locks = 4096, unsigned Capacity = 4096, unsigned SideCapacity = 1024,
          LockIds Ids = LockIds::OneSpace, unsigned StageSize = 32>
struct NestedDelegate {
  using context_type = Context<Message, Capacity, StageSize>;
  using channel_type = typename context_type::channel_type;
  using sender_type = typename context_type::sender_type;
  using server_type = NestedDelegateServer<Message, Locks, Capacity, SideCapacity, Ids>;
  using sides_type = typename server_type::sides_type;

  /// The server block a critical section on items `a` and `b` goes to.
  __host__ __device__ static unsigned route(const channel_type &ch, unsigned long long a, unsigned long long b) {
    return server_type::route(a, b, ch.servers);
  }

  /// As Delegate::launch; launch_server also gets the side channels.
  template <class Server, class Client, class Original, class LaunchServer, class LaunchClient,
            class LaunchOriginal>
  static void launch(const char *kernel, unsigned servers, Server server, Client client, Original original,
                     dim3 grid, dim3 block, cudaStream_t stream, LaunchServer &&launch_server,
                     LaunchClient &&launch_client, LaunchOriginal &&launch_original) {
    // See DelegatePlan; nested servers default to one per SM.
    static detail::DelegatePlan<context_type, NestedDelegateSides<SideCapacity>> plan{1};
    auto &sides = plan.extra;
    channel_type ch{};
    detail::delegate_run(
        kernel, plan, server, client, original, grid, block, stream, servers,
        [&] {
          if (const cudaError_t e = sides.allocate(plan.ctx.split(), plan.ctx.channel(), server_type::locks);
              e != cudaSuccess)
            detail::delegate_fail(kernel, cudaGetErrorString(e));
        },
        [&](dim3 g, dim3 b, size_t shared, cudaStream_t s) { launch_server(ch, sides.device(), g, b, shared, s); },
        [&](dim3 g, dim3 b, size_t shared, cudaStream_t s) { launch_client(ch, g, b, shared, s); },
        launch_original,
        [&] {
          ch = plan.ctx.channel();
          if (const cudaError_t e = sides.reset(); e != cudaSuccess)
            detail::delegate_fail(kernel, cudaGetErrorString(e));
        },
        [&] {
          unsigned errors[2] = {0, 0};
          if (sides.errors(errors) != cudaSuccess || errors[0] != 0 || errors[1] != 0)
            detail::delegate_fail(kernel, "the nested servers counted misrouted messages");
        });
  }
};

/// NestedDelegate for a critical section whose two locks come from two
/// different arrays (LockIds::TwoArrays): what the delegate pass generates
/// when it can tell the arrays apart.
template <class Message, unsigned Locks = 4096>
using NestedDelegateTwoArrays = NestedDelegate<Message, Locks, 4096, 1024, LockIds::TwoArrays>;

/// The delegates of a client whose every send waits for its reply
/// (ReplyBox::call, which sends unstaged): no message stages, so no
/// shared memory for them. What the delegate pass generates when every
/// critical section of a kernel replies. At 132 servers (two nested locks)
/// a stage of 32 messages a server is 139 KB, which leaves room for one
/// client block beside each server; without it, as many as registers and
/// threads allow.
template <class Message, unsigned Locks = 4096> using UnstagedDelegate = Delegate<Message, Locks, 4096, 0>;
template <class Message, unsigned Locks = 4096>
using UnstagedNestedDelegate = NestedDelegate<Message, Locks, 4096, 1024, LockIds::OneSpace, 0>;
template <class Message, unsigned Locks = 4096>
using UnstagedNestedDelegateTwoArrays = NestedDelegate<Message, Locks, 4096, 1024, LockIds::TwoArrays, 0>;

} // namespace dd

#endif // DD_DELEGATE_CUH
