//===- dd/detail/bucket_manager.cuh - The manager block of the bucketed worklist -*- CUDA -*-===//
//
// Part of <dd/bucket_worklist.cuh>; include that (its comment describes the
// worklist). Split the way CUB splits its long headers: one part per role.
//
//===----------------------------------------------------------------------===//
#ifndef DD_DETAIL_BUCKET_MANAGER_CUH
#define DD_DETAIL_BUCKET_MANAGER_CUH

#include "dd/detail/bucket_common.cuh"

namespace dd::buckets {
/// The manager block: kProbeWarps probe warps, one assign warp, one
/// memory-management warp; needs BlockThreads >= 32 * (kProbeWarps + 2).
template <unsigned BlockThreads> class Manager {
  static_assert(BlockThreads >= warp_size * (kProbeWarps + 2), "too few warps for the roles");
  static constexpr unsigned kWarpsPerWorker = BlockThreads / warp_size;

public:
  struct TempStorage {
    unsigned long long read_ptr[kBuckets];   ///< written by probe warp b % 8 only
    unsigned long long assign_ptr[kBuckets]; ///< assign warp only
    unsigned long long alloc_pos[kBuckets];  ///< memory warp only
    unsigned long long dealloc_pos[kBuckets];
    unsigned assign_slot[kBuckets]; ///< assign warp's translation cache
    unsigned assign_block[kBuckets];
    unsigned free_mask[kMaxPoolBlocks / 32];
    unsigned head;
    unsigned finished;
  };

  __device__ Manager(const Storage &s, TempStorage &temp, const Params &p)
      : s_(s), temp_(temp), p_(p) {}

  /// Block-collective (block 0 of the grid). Returns when the run ended.
  __device__ void run() {
    // Bucket 0's first block (block 0) is mapped and holds the seed items
    // (BucketWorklist::seed); every other block is free.
    for (unsigned b = threadIdx.x; b < kBuckets; b += BlockThreads) {
      temp_.read_ptr[b] = temp_.assign_ptr[b] = temp_.dealloc_pos[b] = 0;
      temp_.alloc_pos[b] = b == 0 ? kBlockWords : 0;
      temp_.assign_slot[b] = kUnmapped;
    }
    for (unsigned w = threadIdx.x; w < kMaxPoolBlocks / 32; w += BlockThreads) {
      const unsigned first = w * 32;
      unsigned bits = 0;
      for (unsigned i = 0; i < 32; ++i)
        if (first + i != 0 && first + i < s_.pool_blocks)
          bits |= 1u << i;
      temp_.free_mask[w] = bits;
    }
    if (threadIdx.x == 0) {
      temp_.head = 0;
      temp_.finished = 0;
    }
    __syncthreads();
    const unsigned warp = threadIdx.x / warp_size;
    if (warp < kProbeWarps)
      probe(warp);
    else if (warp == kProbeWarps)
      assign();
    else if (warp == kProbeWarps + 1)
      manage_memory();
  }

private:
  /// Warp-uniform.
  __device__ bool finished() const {
    return detail::uniform(
               detail::block_ref<unsigned>(temp_.finished).load(cuda::memory_order_relaxed)) != 0;
  }

  /// Probe warp k: validates the bucket b of [head, head + 8) with
  /// b % 8 == k, 128 segments per round, and publishes read_ptr[b]. One
  /// writer per bucket, so `start` is never stale and the blocks it looks
  /// at cannot be freed under it.
  __device__ void probe(unsigned k) {
    constexpr unsigned kRounds = 4;
    const unsigned lane = lane_id();
    unsigned bucket = kUnmapped;
    unsigned long long cached_slot = ~0ull;
    unsigned cached_block = kUnmapped;
    unsigned ns = 32;
    while (!finished()) {
      const unsigned head = detail::uniform(
          detail::block_ref<unsigned>(temp_.head).load(cuda::memory_order_relaxed));
      const unsigned b = (head + ((k - head) % kProbeWarps)) % kBuckets;
      if (b != bucket) {
        bucket = b;
        cached_slot = ~0ull;
      }
      detail::block_ref<unsigned long long> read_ptr(temp_.read_ptr[b]);
      const unsigned long long start = read_ptr.load(cuda::memory_order_relaxed);
      detail::device_ref<unsigned long long> resv(s_.resv[b * kCounterStride]);
      // Counts first, whatever resv is: one round trip less per round than
      // reading resv to pick the segments (counts of unreserved segments
      // read 0 and change nothing below).
      const unsigned long long first_segment = start >> kSegmentShift;
      unsigned count[kRounds];
#pragma unroll
      for (unsigned r = 0; r < kRounds; ++r) {
        const unsigned long long segment = first_segment + r * warp_size + lane;
        const unsigned long long pos = segment << kSegmentShift;
        count[r] = 0;
        const unsigned long long slot = pos >> kBlockShift;
        if (slot != cached_slot) {
          const unsigned block = detail::device_ref<unsigned>(detail::table_entry(s_, b, slot))
                                     .load(cuda::memory_order_acquire);
          if (block == kUnmapped)
            continue;
          cached_slot = slot;
          cached_block = block;
        }
        count[r] = detail::device_ref<unsigned>(
                       s_.wfc[cached_block * kSegmentsPerBlock +
                              static_cast<unsigned>(segment & (kSegmentsPerBlock - 1))])
                       .load(cuda::memory_order_acquire);
      }
      // resv after the counts: a count equal to the reservations it covers
      // then means they are all written.
      cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
      const unsigned long long reserved_after =
          detail::uniform(resv.load(cuda::memory_order_relaxed));
      if (reserved_after == start) {
        __nanosleep(ns);
        ns = ns < 128 ? ns * 2 : ns;
        continue;
      }
      ns = 32;
      unsigned long long valid_end = (first_segment + kRounds * warp_size) << kSegmentShift;
#pragma unroll
      for (unsigned r = 0; r < kRounds; ++r) {
        const unsigned full = __ballot_sync(full_warp_mask, count[r] == kSegmentWords);
        if (full == full_warp_mask)
          continue;
        const unsigned first_lane = __ffs(~full) - 1;
        const unsigned long long pos =
            (first_segment + r * warp_size + first_lane) << kSegmentShift;
        const unsigned c = __shfl_sync(full_warp_mask, count[r], first_lane);
        const unsigned long long in_segment =
            reserved_after > pos ? reserved_after - pos : 0;
        const unsigned long long expected = in_segment < kSegmentWords ? in_segment : kSegmentWords;
        valid_end = pos + (c == expected ? c : 0);
        break;
      }
      if (valid_end > start) {
        __syncwarp();
        if (lane == 0)
          read_ptr.store(valid_end, cuda::memory_order_release);
      }
    }
  }

  /// The memory-management warp: lane b maps data blocks two ahead of
  /// bucket b's reservations and takes back the blocks workers freed.
  __device__ void manage_memory() {
    const unsigned lane = lane_id();
    const unsigned words = (s_.pool_blocks + 31) / 32;
    unsigned long long starving_since = 0;
    unsigned ns = 64;
    while (!finished()) {
      bool progress = false;
      // Take back freed blocks, in FIFO order per bucket.
      for (;;) {
        const unsigned long long pos = temp_.dealloc_pos[lane];
        if (pos >= temp_.alloc_pos[lane])
          break;
        unsigned &entry = detail::table_entry(s_, lane, pos >> kBlockShift);
        const unsigned block = entry;
        detail::device_ref<unsigned> freed(s_.freed[block]);
        if (freed.load(cuda::memory_order_acquire) == 0)
          break;
        freed.store(0, cuda::memory_order_relaxed);
        detail::device_ref<unsigned>(entry).store(kUnmapped, cuda::memory_order_relaxed);
        atomicOr(&temp_.free_mask[block / 32], 1u << (block % 32));
        temp_.dealloc_pos[lane] = pos + kBlockWords;
        progress = true;
      }
      __syncwarp();
      // Map blocks where fewer than two lie ahead of the reservations.
      const unsigned long long reserved =
          detail::device_ref<unsigned long long>(s_.resv[lane * kCounterStride])
              .load(cuda::memory_order_relaxed);
      const bool needs = temp_.alloc_pos[lane] < reserved + 2 * kBlockWords;
      const bool starving = temp_.alloc_pos[lane] <= reserved;
      unsigned needy = __ballot_sync(full_warp_mask, needs);
      bool exhausted = false;
      while (needy != 0) {
        const unsigned b = __ffs(needy) - 1;
        needy &= needy - 1;
        unsigned found_word = kUnmapped, bits = 0;
        for (unsigned w = lane; w < words; w += warp_size) {
          bits = temp_.free_mask[w];
          if (bits != 0) {
            found_word = w;
            break;
          }
        }
        const unsigned with_free = __ballot_sync(full_warp_mask, found_word != kUnmapped);
        if (with_free == 0) {
          exhausted = true;
          break;
        }
        if (lane == __ffs(with_free) - 1) {
          const unsigned bit = __ffs(bits) - 1;
          temp_.free_mask[found_word] = bits & ~(1u << bit);
          const unsigned block = found_word * 32 + bit;
          const unsigned long long pos = temp_.alloc_pos[b];
          detail::device_ref<unsigned>(detail::table_entry(s_, b, pos >> kBlockShift))
              .store(block, cuda::memory_order_release);
          temp_.alloc_pos[b] = pos + kBlockWords;
        }
        __syncwarp();
        progress = true;
      }
      // Writers waiting while no block is free, for a whole second: every
      // block holds unread items that only those writers' blocks would
      // consume.
      if (exhausted && __any_sync(full_warp_mask, starving)) {
        const unsigned long long now = detail::global_ns();
        if (starving_since == 0)
          starving_since = now;
        else if (now - starving_since > 1000000000ull && lane == 0)
          detail::fail(s_, kPoolExhausted);
      } else {
        starving_since = 0;
      }
      if (!progress) {
        __nanosleep(ns);
        ns = ns < 512 ? ns * 2 : ns;
      } else {
        ns = 64;
      }
    }
  }

  /// The assign warp: hands validated items of the concurrent dequeue
  /// buckets to idle workers, moves the head on, sets Delta, and ends the
  /// run.
  __device__ void assign();

  /// Writes kTerminate to every worker, the stats, and ends the manager.
  __device__ void finish(unsigned status, unsigned long long assigned,
                         unsigned long long assignments, unsigned long long switches,
                         unsigned long long changes, unsigned shift, unsigned max_dequeue,
                         unsigned long long started, unsigned long long first_assignment) {
    const unsigned lane = lane_id();
    if (lane == 0) {
      s_.stats->first_assignment_ns = first_assignment > started ? first_assignment - started : 0;
      s_.stats->run_ns = detail::global_ns() - started;
      if (status == kFinished)
        detail::device_ref<unsigned>(*s_.status).store(kFinished, cuda::memory_order_relaxed);
      // Field by field: workers add their wait_ns as they leave.
      s_.stats->assigned = assigned;
      s_.stats->assignments = assignments;
      s_.stats->head_switches = switches;
      s_.stats->delta_changes = changes;
      s_.stats->final_shift = shift;
      s_.stats->max_dequeue = max_dequeue;
    }
    for (unsigned w = lane; w < s_.workers; w += warp_size)
      detail::device_ref<unsigned long long>(s_.assignment[w])
          .store(kTerminate, cuda::memory_order_relaxed);
    if (lane == 0)
      detail::block_ref<unsigned>(temp_.finished).store(1, cuda::memory_order_relaxed);
  }

  Storage s_;
  TempStorage &temp_;
  Params p_;
};

template <unsigned BlockThreads> __device__ void Manager<BlockThreads>::assign() {
  const unsigned lane = lane_id();
  const unsigned long long started = detail::uniform(detail::global_ns());
  unsigned head = 0;
  unsigned long long base = 0;
  unsigned shift = p_.initial_shift, lower_shift = 0;
  unsigned dequeue = kMinDequeueBuckets, max_dequeue = dequeue;
  unsigned long long assigned = 0, assignments = 0, switches = 0, changes = 0,
                     changed_at_switch = 0, first_assignment = 0;
  // Statistics: lane b remembers resv[b] at the last epoch.
  unsigned long long epoch_start = started, last_resv = 0;
  float util_history[4] = {1, 1, 1, 1};
  unsigned history_next = 0;
  bool skip_epoch = false;
  const float worker_threads = float(s_.workers) * BlockThreads;

  const auto publish = [&] {
    if (lane == 0) {
      detail::device_ref<unsigned long long>(s_.config->base).store(base, cuda::memory_order_relaxed);
      detail::device_ref<unsigned>(s_.config->head).store(head, cuda::memory_order_relaxed);
      detail::device_ref<unsigned>(s_.config->shift).store(shift, cuda::memory_order_relaxed);
    }
  };
  publish();
  unsigned ns = 32;
  for (;;) {
    if (detail::uniform(detail::status(s_)) != kRunning) {
      finish(kRunning, assigned, assignments, switches, changes, shift, max_dequeue, started,
             first_assignment);
      return;
    }
    // Work of the dequeue buckets, each up to the end of its current data
    // block (an assignment never crosses one).
    unsigned long long avail[kMaxDequeueBuckets], ptr[kMaxDequeueBuckets];
    unsigned block_of[kMaxDequeueBuckets];
    unsigned long long total = 0;
#pragma unroll
    for (unsigned k = 0; k < kMaxDequeueBuckets; ++k) {
      avail[k] = 0;
      ptr[k] = 0;
      block_of[k] = 0;
      if (k >= dequeue)
        continue;
      const unsigned b = (head + k) % kBuckets;
      ptr[k] = temp_.assign_ptr[b];
      const unsigned long long ready = detail::uniform(
          detail::block_ref<unsigned long long>(temp_.read_ptr[b]).load(cuda::memory_order_acquire));
      const unsigned long long block_end = (ptr[k] | (kBlockWords - 1)) + 1;
      const unsigned long long end = ready < block_end ? ready : block_end;
      if (end <= ptr[k])
        continue;
      const unsigned slot = static_cast<unsigned>(ptr[k] >> kBlockShift);
      if (temp_.assign_slot[b] != slot) {
        const unsigned block = detail::uniform(
            detail::device_ref<unsigned>(detail::table_entry(s_, b, slot))
                .load(cuda::memory_order_acquire));
        __syncwarp();
        if (lane == 0) {
          temp_.assign_slot[b] = slot;
          temp_.assign_block[b] = block;
        }
        __syncwarp();
      }
      block_of[k] = temp_.assign_block[b];
      avail[k] = end - ptr[k];
      total += avail[k];
    }

    unsigned long long handed = 0;
    if (total > 0) {
      // Idle workers: lane l looks after workers l, l + 32, ...
      unsigned idle = 0;
      for (unsigned j = 0, w = lane; w < s_.workers; ++j, w += warp_size)
        if (detail::device_ref<unsigned long long>(s_.assignment[w])
                .load(cuda::memory_order_relaxed) == 0)
          idle |= 1u << j;
      const unsigned mine = __popc(idle);
      const unsigned idle_total = detail::warp_sum(mine);
      if (idle_total > 0) {
        // Items per warp: a power of 2 that spreads the work over the idle
        // workers, within [min_grain, 32].
        const unsigned long long per_warp =
            total / (static_cast<unsigned long long>(idle_total) * kWarpsPerWorker);
        unsigned grain = p_.min_grain;
        while (grain * 2 <= kMaxItemsPerWarp && grain * 2 <= per_warp)
          grain *= 2;
        const unsigned long long size = static_cast<unsigned long long>(grain) * kWarpsPerWorker;
        unsigned long long pieces[kMaxDequeueBuckets], before[kMaxDequeueBuckets];
        unsigned long long all_pieces = 0;
#pragma unroll
        for (unsigned k = 0; k < kMaxDequeueBuckets; ++k) {
          before[k] = all_pieces;
          pieces[k] = (avail[k] + size - 1) / size;
          all_pieces += pieces[k];
        }
        const unsigned long long given = all_pieces < idle_total ? all_pieces : idle_total;
        // This lane's idle workers take pieces [rank, rank + mine).
        unsigned rank = mine;
#pragma unroll
        for (unsigned d = 1; d < warp_size; d *= 2) {
          const unsigned v = __shfl_up_sync(full_warp_mask, rank, d);
          if (lane >= d)
            rank += v;
        }
        rank -= mine;
        for (unsigned bits = idle; bits != 0 && rank < given; bits &= bits - 1, ++rank) {
          const unsigned j = __ffs(bits) - 1;
          unsigned k = 0;
          while (k + 1 < kMaxDequeueBuckets && rank >= before[k] + pieces[k])
            ++k;
          const unsigned long long pos = ptr[k] + (rank - before[k]) * size;
          const unsigned long long left = avail[k] - (pos - ptr[k]);
          const unsigned count = static_cast<unsigned>(left < size ? left : size);
          const unsigned start = (block_of[k] << kBlockShift) |
                                 static_cast<unsigned>(pos & (kBlockWords - 1));
          detail::device_ref<unsigned long long>(s_.assignment[lane + j * warp_size])
              .store(detail::encode(start, count, (head + k) % kBuckets),
                     cuda::memory_order_release);
        }
        __syncwarp();
#pragma unroll
        for (unsigned k = 0; k < kMaxDequeueBuckets; ++k) {
          if (given <= before[k])
            continue;
          const unsigned long long taken = given - before[k];
          const unsigned long long amount = taken >= pieces[k] ? avail[k] : taken * size;
          handed += amount;
          if (lane == 0)
            temp_.assign_ptr[(head + k) % kBuckets] = ptr[k] + amount;
        }
        __syncwarp();
        if (assignments == 0 && given > 0)
          first_assignment = detail::global_ns();
        assigned += handed;
        assignments += given;
      }
    }

    // The head moves on once everything reserved in it was handed out and
    // done; before that, if nothing is left anywhere, the run is over.
    if (handed == 0) {
      bool moved = false;
      const unsigned hb = head;
      if (temp_.assign_ptr[hb] ==
          detail::uniform(detail::block_ref<unsigned long long>(temp_.read_ptr[hb])
                              .load(cuda::memory_order_relaxed))) {
        const unsigned long long done = detail::uniform(
            detail::device_ref<unsigned long long>(s_.dwc[hb * kCounterStride])
                .load(cuda::memory_order_acquire));
        cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        const unsigned long long reserved = detail::uniform(
            detail::device_ref<unsigned long long>(s_.resv[hb * kCounterStride])
                .load(cuda::memory_order_relaxed));
        if (done == reserved && reserved == temp_.assign_ptr[hb]) {
          if (total == 0) {
            // Done counts first, reservations second (see the file comment).
            const unsigned long long d =
                detail::device_ref<unsigned long long>(s_.dwc[lane * kCounterStride])
                    .load(cuda::memory_order_acquire);
            __syncwarp();
            cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
            const unsigned long long r =
                detail::device_ref<unsigned long long>(s_.resv[lane * kCounterStride])
                    .load(cuda::memory_order_relaxed);
            if (__all_sync(full_warp_mask, d == r)) {
              finish(kFinished, assigned, assignments, switches, changes, shift, max_dequeue,
                     started, first_assignment);
              return;
            }
          }
          head = (head + 1) % kBuckets;
          const unsigned long long delta = 1ull << shift;
          base = base < ~0ull - delta ? base + delta : ~0ull;
          ++switches;
          moved = true;
          __syncwarp();
          if (lane == 0)
            detail::block_ref<unsigned>(temp_.head).store(head, cuda::memory_order_relaxed);
          publish();
        }
      }
      if (!moved) {
        __nanosleep(ns);
        ns = ns < 64 ? ns * 2 : ns;
      }
    } else {
      ns = 32;
    }

    // Statistics, once per epoch: the clip point and the utilization.
    const unsigned long long now = detail::uniform(detail::global_ns());
    if (p_.deadline_ns != 0 && now - started > p_.deadline_ns) {
      if (lane == 0)
        detail::fail(s_, kTimedOut);
      continue;
    }
    if (!p_.dynamic_delta || now - epoch_start < p_.epoch_ns)
      continue;
    epoch_start = now;
    const unsigned long long r =
        detail::device_ref<unsigned long long>(s_.resv[lane * kCounterStride])
            .load(cuda::memory_order_relaxed);
    const unsigned long long d =
        detail::device_ref<unsigned long long>(s_.dwc[lane * kCounterStride])
            .load(cuda::memory_order_relaxed);
    const unsigned long long pushed = r - last_resv;
    last_resv = r;
    const unsigned long long pushed_all = detail::warp_sum(
        static_cast<unsigned>(pushed < 0xffffffffull ? pushed : 0xffffffffull));
    const unsigned long long pushed_tail =
        __shfl_sync(full_warp_mask, pushed, (head + kBuckets - 1) % kBuckets);
    unsigned long long done_all = d;
#pragma unroll
    for (unsigned o = 16; o > 0; o /= 2)
      done_all += __shfl_xor_sync(full_warp_mask, done_all, o);
    const float outstanding = assigned > done_all ? float(assigned - done_all) : 0.0f;
    const float util = outstanding * p_.mean_degree / worker_threads;
    util_history[history_next] = util;
    history_next = (history_next + 1) % 4;
    if (skip_epoch) {
      // A new Delta needs an epoch to show in the counts.
      skip_epoch = false;
      continue;
    }
    const float mean_util =
        (util_history[0] + util_history[1] + util_history[2] + util_history[3]) / 4;
    const bool settled = switches - changed_at_switch >= p_.settle_switches;
    unsigned new_shift = shift;
    if (pushed_all >= 1024 && pushed_tail * 100 > pushed_all * p_.clip_percent) {
      // Clipping: most pushes land in the tail. The next Delta up is the
      // lowest worth using.
      if (shift < 62)
        new_shift = shift + 1;
      lower_shift = new_shift;
    } else if (util < p_.util_low) {
      if (dequeue < p_.max_dequeue)
        ++dequeue;
      else if (mean_util < p_.util_low && settled && shift < 62 &&
               shift < p_.initial_shift + p_.max_growth)
        new_shift = shift + 1;
    } else if (util > p_.util_high) {
      if (dequeue > kMinDequeueBuckets)
        --dequeue;
      else if (mean_util > p_.util_high && settled && shift > lower_shift)
        new_shift = shift - 1;
    }
    max_dequeue = dequeue > max_dequeue ? dequeue : max_dequeue;
    if (new_shift != shift) {
      shift = new_shift;
      ++changes;
      changed_at_switch = switches;
      skip_epoch = true;
      publish();
    }
  }
}

} // namespace dd::buckets

#endif // DD_DETAIL_BUCKET_MANAGER_CUH
