// Critical sections whose client needs something back (the delegate pass's
// reply channel, dissertation §4.4; docs/delegate-pass.md "Replies"):
//
//   ticket    one lock: each thread takes the next ticket of its bin; the
//             ticket (a local the section writes) is used after the loop
//   withdraw  two locks, release-and-retry: move money only when the
//             source can pay; whether it did (a local) is used after
//   deposit   one lock: add to a bin's sum, then read the sum after the
//             loop (memory the section writes): the client must wait
//   both      a ticket, then a deposit: two critical sections in one kernel
//             on one lock array (one channel and one server for both)
//
// Every result depends on the order threads took the locks, so the program
// prints only what is the same in every order, and --verify 1 checks what
// must hold in any order: each bin's tickets are 0..n-1 exactly once; the
// final balances equal the initial ones plus the transfers the threads say
// they made, money is conserved and no balance is negative; each bin's sum
// is exact, every value read after a deposit is at least the deposit, and
// the largest read of a bin is its final sum.
//
//   reply [--n N] [--bins B] [--block T] [--seed S] [--verify 0|1]
#include <algorithm>
#include <vector>

#include <dd/annotate.h>

#include "example_util.h"

__global__ void ticket(const unsigned *bin_of, unsigned n, unsigned *next, int *locks,
                       unsigned *out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned b = bin_of[i];
  unsigned t = 0;
  bool done = false;
  DD_PRAGMA(delegate)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      __threadfence(); // acquire
      t = next[b];
      next[b] = t + 1;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  out[i] = t;
}

__global__ void withdraw(const unsigned *from, const unsigned *to, const unsigned *amount,
                         unsigned n, long long *balance, int *locks, unsigned char *made) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned src = from[i], dst = to[i];
  const unsigned lo = src < dst ? src : dst, hi = src < dst ? dst : src;
  bool paid = false;
  bool done = false;
  DD_PRAGMA(delegate)
  while (!done) {
    if (atomicCAS(&locks[lo], 0, 1) == 0) {
      if (atomicCAS(&locks[hi], 0, 1) == 0) {
        __threadfence(); // acquire
        if (balance[src] >= amount[i]) {
          balance[src] -= amount[i];
          balance[dst] += amount[i];
          paid = true;
        }
        __threadfence();
        atomicExch(&locks[hi], 0);
        atomicExch(&locks[lo], 0);
        done = true;
      } else {
        atomicExch(&locks[lo], 0);
      }
    }
  }
  made[i] = paid ? 1 : 0;
}

__global__ void deposit(const unsigned *bin_of, const unsigned *value, unsigned n,
                        unsigned long long *sum, int *locks, unsigned long long *seen) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned b = bin_of[i];
  bool done = false;
  DD_PRAGMA(delegate)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      __threadfence(); // acquire
      sum[b] += value[i];
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  seen[i] = sum[b];
}

__global__ void both(const unsigned *bin_of, const unsigned *value, unsigned n, unsigned *next,
                     unsigned long long *sum, int *locks, unsigned *out, unsigned long long *seen) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned b = bin_of[i];
  unsigned t = 0;
  bool taken = false;
  DD_PRAGMA(delegate)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      __threadfence(); // acquire
      t = next[b];
      next[b] = t + 1;
      __threadfence();
      atomicExch(&locks[b], 0);
      taken = true;
    }
  } while (!taken);
  out[i] = t;
  bool paid = false;
  DD_PRAGMA(delegate)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      __threadfence(); // acquire
      sum[b] += value[i];
      __threadfence();
      atomicExch(&locks[b], 0);
      paid = true;
    }
  } while (!paid);
  seen[i] = sum[b];
}

namespace {

const char Usage[] = "usage: reply [--n N] [--bins B] [--block T] [--seed S] [--verify 0|1]\n";

template <class T> T *to_device(const std::vector<T> &v) {
  T *d = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
  DD_CUDA_CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T> std::vector<T> to_host(const T *d, size_t n) {
  std::vector<T> v(n);
  DD_CUDA_CHECK(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

bool fail(const char *what, unsigned where) {
  std::printf("verify: FAIL: %s (at %u)\n", what, where);
  return false;
}

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opt(argc, argv, Usage);
  const unsigned n = unsigned(opt.number("n", 1u << 18));
  const unsigned bins = unsigned(opt.number("bins", 1024));
  const unsigned block = unsigned(opt.number("block", 256));
  const std::uint64_t seed = opt.number("seed", 1);
  const bool verify = opt.number("verify", 0) != 0;
  opt.finish();
  if (n == 0 || bins < 2 || bins > (1u << 24) || block == 0 || block > 1024)
    opt.fail("need --n > 0, 2 <= --bins <= 2^24, 1 <= --block <= 1024");

  std::vector<unsigned> bin_of(n), to(n), amount(n);
  for (unsigned i = 0; i < n; ++i) {
    const std::uint64_t r = dd::examples::mix64(seed * 0x9e3779b97f4a7c15ull + i);
    bin_of[i] = unsigned(r % bins);
    to[i] = unsigned((bin_of[i] + 1 + (r >> 32) % (bins - 1)) % bins);
    amount[i] = unsigned((r >> 20) % 1000) + 1;
  }
  const long long kInitial = 2000;
  const std::vector<long long> initial(bins, kInitial);

  unsigned *d_bin = to_device(bin_of), *d_to = to_device(to), *d_amount = to_device(amount);
  unsigned *d_next = to_device(std::vector<unsigned>(bins, 0));
  long long *d_balance = to_device(initial);
  unsigned long long *d_sum = to_device(std::vector<unsigned long long>(bins, 0));
  int *d_locks = to_device(std::vector<int>(bins, 0));
  unsigned *d_ticket = to_device(std::vector<unsigned>(n, 0));
  unsigned char *d_made = to_device(std::vector<unsigned char>(n, 0));
  unsigned long long *d_seen = to_device(std::vector<unsigned long long>(n, 0));
  unsigned *d_next2 = to_device(std::vector<unsigned>(bins, 0));
  unsigned long long *d_sum2 = to_device(std::vector<unsigned long long>(bins, 0));
  unsigned *d_ticket2 = to_device(std::vector<unsigned>(n, 0));
  unsigned long long *d_seen2 = to_device(std::vector<unsigned long long>(n, 0));

  const unsigned grid = (n + block - 1) / block;
  ticket<<<grid, block>>>(d_bin, n, d_next, d_locks, d_ticket);
  DD_CUDA_CHECK(cudaGetLastError());
  withdraw<<<grid, block>>>(d_bin, d_to, d_amount, n, d_balance, d_locks, d_made);
  DD_CUDA_CHECK(cudaGetLastError());
  deposit<<<grid, block>>>(d_bin, d_amount, n, d_sum, d_locks, d_seen);
  DD_CUDA_CHECK(cudaGetLastError());
  both<<<grid, block>>>(d_bin, d_amount, n, d_next2, d_sum2, d_locks, d_ticket2, d_seen2);
  DD_CUDA_CHECK(cudaGetLastError());
  DD_CUDA_CHECK(cudaDeviceSynchronize());

  const std::vector<unsigned> next = to_host(d_next, bins), tickets = to_host(d_ticket, n);
  const std::vector<long long> balance = to_host(d_balance, bins);
  const std::vector<unsigned long long> sum = to_host(d_sum, bins), seen = to_host(d_seen, n);
  const std::vector<unsigned char> made = to_host(d_made, n);
  const std::vector<unsigned> next2 = to_host(d_next2, bins), tickets2 = to_host(d_ticket2, n);
  const std::vector<unsigned long long> sum2 = to_host(d_sum2, bins), seen2 = to_host(d_seen2, n);

  // Order-independent results only: the tickets handed out, the money, the
  // sums.
  long long total = 0;
  dd::examples::Digest digest;
  for (unsigned b = 0; b < bins; ++b) {
    total += balance[b];
    digest.add(next[b]);
    digest.add(sum[b]);
    digest.add(next2[b]);
    digest.add(sum2[b]);
  }
  std::printf("n %u, bins %u\ntotal %lld (initial %lld)\ndigest %016llx\n", n, bins, total,
              kInitial * bins, (unsigned long long)digest.value());

  if (verify) {
    bool ok = true;
    std::vector<unsigned> count(bins, 0);
    std::vector<unsigned long long> model_sum(bins, 0), max_seen(bins, 0);
    for (unsigned i = 0; i < n; ++i) {
      ++count[bin_of[i]];
      model_sum[bin_of[i]] += amount[i];
    }
    // Tickets: per bin a permutation of 0..count-1.
    std::vector<unsigned> first(bins + 1, 0);
    for (unsigned b = 0; b < bins; ++b)
      first[b + 1] = first[b] + count[b];
    auto check_tickets = [&](const std::vector<unsigned> &got, const std::vector<unsigned> &last) {
      std::vector<unsigned> seen_ticket(n, 0);
      for (unsigned i = 0; i < n && ok; ++i) {
        const unsigned b = bin_of[i];
        if (got[i] >= count[b])
          ok = fail("a ticket beyond its bin's count", i);
        else if (seen_ticket[first[b] + got[i]]++)
          ok = fail("a ticket handed out twice", i);
      }
      for (unsigned b = 0; b < bins && ok; ++b)
        if (last[b] != count[b])
          ok = fail("a bin's next ticket is not its count", b);
    };
    check_tickets(tickets, next);
    check_tickets(tickets2, next2);
    // Withdrawals: the balances are what the transfers the threads report
    // made give, none negative.
    std::vector<long long> model(initial);
    for (unsigned i = 0; i < n; ++i)
      if (made[i]) {
        model[bin_of[i]] -= amount[i];
        model[to[i]] += amount[i];
      }
    for (unsigned b = 0; b < bins && ok; ++b)
      if (model[b] != balance[b] || balance[b] < 0)
        ok = fail("a balance differs from the transfers reported made, or is negative", b);
    // Deposits: exact sums; each read after a deposit saw it.
    auto check_deposits = [&](const std::vector<unsigned long long> &total,
                              const std::vector<unsigned long long> &read) {
      std::fill(max_seen.begin(), max_seen.end(), 0);
      for (unsigned i = 0; i < n && ok; ++i) {
        const unsigned b = bin_of[i];
        if (read[i] < amount[i] || read[i] > model_sum[b])
          ok = fail("a sum read after a deposit does not include it", i);
        max_seen[b] = std::max(max_seen[b], read[i]);
      }
      for (unsigned b = 0; b < bins && ok; ++b)
        if (total[b] != model_sum[b] || (count[b] > 0 && max_seen[b] != total[b]))
          ok = fail("a bin's sum is wrong, or no read saw the final sum", b);
    };
    check_deposits(sum, seen);
    check_deposits(sum2, seen2);
    if (!ok)
      return 1;
    std::printf("verify: ok\n");
  }
  return 0;
}
