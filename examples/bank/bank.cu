// Transfers between bank accounts under two nested locks (the dissertation's
// ATM, Listing 4.3): every thread moves an amount from one account to
// another, holding both accounts' locks, the lower account's first. With
// few accounts many threads fight over each lock. The decoupler delegate
// pass (`#pragma dd delegate`) turns the try-lock loop into a message to the
// server block that owns the lower lock, which takes the other one through
// the owning server (§4.4).
//
// Balances may go negative: a transfer that first checked for enough money
// would make the final balances depend on the order the transfers took the
// locks; without the check, the final state is the same in every order.
//
//   bank [--transfers N] [--accounts A] [--block T] [--seed S] [--verify 0|1] [--time RUNS]
//        [--spelling nested|retry|fields|offset]
// (--spelling retry: the same transfer in the release-and-retry spelling of
// two locks, transfer_retry; fields: with each lock a field of its account,
// transfer_fields; offset: the kernel receives the arrays kSkip accounts
// early and advances its pointer parameters through a __device__ helper
// taking them by reference, transfer_offset: the rewrite must send the
// advanced pointers, not use the launch's);
// prints the total (conserved), the number of accounts touched and a digest
// of every balance and transfer count; --verify 1 also compares each
// account with a CPU model and prints "verify: ok". --time RUNS runs the
// transfer launch RUNS + 1 times (the first a warm-up), from the initial
// balances each time, and prints the median launch time (`time_ms=`).
#include <vector>

#include <dd/annotate.h>

#include "example_util.h"

constexpr long long kInitialBalance = 1000;
/// Accounts in front of the first one (--spelling offset skips them).
constexpr unsigned kSkip = 8;

__global__ void transfer(const unsigned *from, const unsigned *to, const unsigned *amount,
                         unsigned n, long long *balance, unsigned *count, int *locks) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned src = from[t], dst = to[t], value = amount[t];
  // The lower account's lock first: two transfers never wait on each other
  // in a cycle.
  const unsigned lo = src < dst ? src : dst, hi = src < dst ? dst : src;
  bool s1 = false, s2 = false;
  DD_PRAGMA(delegate)
  do {
    if (!s1) {
      if (atomicCAS(&locks[lo], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&locks[hi], 0, 1) == 0) {
        __threadfence(); // acquire: the previous holders' updates are visible
        balance[src] -= value;
        balance[dst] += value;
        count[src] += 1;
        count[dst] += 1;
        __threadfence();
        atomicExch(&locks[lo], 0);
        atomicExch(&locks[hi], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

/// The same transfer, spelled the other common way: take the lower lock,
/// try the higher, and on failure release the lower and retry.
__global__ void transfer_retry(const unsigned *from, const unsigned *to, const unsigned *amount,
                               unsigned n, long long *balance, unsigned *count, int *locks) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned src = from[t], dst = to[t], value = amount[t];
  const unsigned lo = src < dst ? src : dst, hi = src < dst ? dst : src;
  bool done = false;
  DD_PRAGMA(delegate)
  while (!done) {
    if (atomicCAS(&locks[lo], 0, 1) == 0) {
      if (atomicCAS(&locks[hi], 0, 1) == 0) {
        __threadfence(); // acquire
        balance[src] -= value;
        balance[dst] += value;
        count[src] += 1;
        count[dst] += 1;
        __threadfence();
        atomicExch(&locks[hi], 0);
        atomicExch(&locks[lo], 0);
        done = true;
      } else {
        atomicExch(&locks[lo], 0);
      }
    }
  }
}

/// An account whose lock is a field of it (--spelling fields).
struct Account {
  int lock;
  long long balance;
  unsigned count;
};

/// The transfer of `transfer`, Listing 4.3's spelling, over accounts that
/// hold their own locks.
__global__ void transfer_fields(const unsigned *from, const unsigned *to, const unsigned *amount,
                                unsigned n, Account *accounts) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned src = from[t], dst = to[t], value = amount[t];
  const unsigned lo = src < dst ? src : dst, hi = src < dst ? dst : src;
  bool s1 = false, s2 = false;
  DD_PRAGMA(delegate)
  do {
    if (!s1) {
      if (atomicCAS(&accounts[lo].lock, 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&accounts[hi].lock, 0, 1) == 0) {
        __threadfence(); // acquire
        accounts[src].balance -= value;
        accounts[dst].balance += value;
        accounts[src].count += 1;
        accounts[dst].count += 1;
        __threadfence();
        atomicExch(&accounts[lo].lock, 0);
        atomicExch(&accounts[hi].lock, 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

/// Moves `p` past the `by` elements in front of the data (--spelling offset).
template <class T> __device__ void skip_ahead(T *&p, unsigned by) { p += by; }

/// `transfer`, over balance and count arrays that start kSkip accounts after
/// the pointers it receives; the pointers are advanced through skip_ahead.
__global__ void transfer_offset(const unsigned *from, const unsigned *to, const unsigned *amount,
                                unsigned n, long long *balance, unsigned *count, int *locks) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  skip_ahead(balance, kSkip);
  skip_ahead(count, kSkip);
  const unsigned src = from[t], dst = to[t], value = amount[t];
  const unsigned lo = src < dst ? src : dst, hi = src < dst ? dst : src;
  bool s1 = false, s2 = false;
  DD_PRAGMA(delegate)
  do {
    if (!s1) {
      if (atomicCAS(&locks[lo], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&locks[hi], 0, 1) == 0) {
        __threadfence(); // acquire
        balance[src] -= value;
        balance[dst] += value;
        count[src] += 1;
        count[dst] += 1;
        __threadfence();
        atomicExch(&locks[lo], 0);
        atomicExch(&locks[hi], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

namespace {

const char Usage[] =
    "usage: bank [--transfers N] [--accounts A] [--block T] [--seed S] [--verify 0|1] [--time RUNS]\n"
    "            [--spelling nested|retry|fields|offset]\n";

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opt(argc, argv, Usage);
  const unsigned n = unsigned(opt.number("transfers", 1u << 18));
  const unsigned accounts = unsigned(opt.number("accounts", 1024));
  const unsigned block = unsigned(opt.number("block", 256));
  const std::uint64_t seed = opt.number("seed", 1);
  const bool verify = opt.number("verify", 0) != 0;
  const unsigned runs = unsigned(opt.number("time", 0));
  const std::string spelling = opt.get("spelling", "nested");
  opt.finish();
  if (spelling != "nested" && spelling != "retry" && spelling != "fields" && spelling != "offset")
    opt.fail("--spelling is nested, retry, fields or offset");
  if (n == 0 || accounts < 2 || accounts > (1u << 24) || block == 0 || block > 1024)
    opt.fail("need --transfers > 0, 2 <= --accounts <= 2^24, 1 <= --block <= 1024");

  // Two different accounts per transfer (the same one twice would be one
  // lock taken twice: the original would wait for itself).
  std::vector<unsigned> from(n), to(n), amount(n);
  for (unsigned i = 0; i < n; ++i) {
    const std::uint64_t r = dd::examples::mix64(seed * 0x9e3779b97f4a7c15ull + i);
    from[i] = unsigned(r % accounts);
    to[i] = unsigned((from[i] + 1 + (r >> 32) % (accounts - 1)) % accounts);
    amount[i] = unsigned((r >> 20) % 1000) + 1;
  }

  // Balances and counts live kSkip accounts into their allocations
  // (--spelling offset's kernel is handed the allocations themselves).
  unsigned *d_from, *d_to, *d_amount, *d_count, *d_count_alloc;
  long long *d_balance, *d_balance_alloc;
  int *d_locks;
  const std::vector<long long> initial(accounts, kInitialBalance);
  DD_CUDA_CHECK(cudaMalloc(&d_from, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_to, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_amount, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_balance_alloc, (kSkip + accounts) * sizeof(long long)));
  DD_CUDA_CHECK(cudaMalloc(&d_count_alloc, (kSkip + accounts) * sizeof(unsigned)));
  d_balance = d_balance_alloc + kSkip;
  d_count = d_count_alloc + kSkip;
  DD_CUDA_CHECK(cudaMalloc(&d_locks, accounts * sizeof(int)));
  Account *d_accounts = nullptr;
  if (spelling == "fields")
    DD_CUDA_CHECK(cudaMalloc(&d_accounts, accounts * sizeof(Account)));
  DD_CUDA_CHECK(cudaMemcpy(d_from, from.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(d_to, to.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(d_amount, amount.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  dd::examples::LaunchTimer timer(runs);
  for (unsigned round = 0; round < timer.rounds(); ++round) {
    DD_CUDA_CHECK(cudaMemcpy(d_balance, initial.data(), accounts * sizeof(long long), cudaMemcpyHostToDevice));
    DD_CUDA_CHECK(cudaMemset(d_count, 0, accounts * sizeof(unsigned)));
    DD_CUDA_CHECK(cudaMemset(d_locks, 0, accounts * sizeof(int)));
    if (spelling == "fields") {
      std::vector<Account> init(accounts, Account{0, kInitialBalance, 0});
      DD_CUDA_CHECK(cudaMemcpy(d_accounts, init.data(), accounts * sizeof(Account),
                               cudaMemcpyHostToDevice));
    }
    timer.start();
    if (spelling == "fields")
      transfer_fields<<<(n + block - 1) / block, block>>>(d_from, d_to, d_amount, n, d_accounts);
    else if (spelling == "offset")
      transfer_offset<<<(n + block - 1) / block, block>>>(d_from, d_to, d_amount, n, d_balance_alloc,
                                                          d_count_alloc, d_locks);
    else if (spelling == "retry")
      transfer_retry<<<(n + block - 1) / block, block>>>(d_from, d_to, d_amount, n, d_balance,
                                                         d_count, d_locks);
    else
      transfer<<<(n + block - 1) / block, block>>>(d_from, d_to, d_amount, n, d_balance, d_count,
                                                   d_locks);
    DD_CUDA_CHECK(cudaGetLastError());
    timer.stop(round);
  }
  DD_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<long long> balance(accounts);
  std::vector<unsigned> count(accounts);
  DD_CUDA_CHECK(cudaMemcpy(balance.data(), d_balance, accounts * sizeof(long long), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(count.data(), d_count, accounts * sizeof(unsigned), cudaMemcpyDeviceToHost));
  if (spelling == "fields") {
    std::vector<Account> result(accounts);
    DD_CUDA_CHECK(cudaMemcpy(result.data(), d_accounts, accounts * sizeof(Account),
                             cudaMemcpyDeviceToHost));
    for (unsigned a = 0; a < accounts; ++a) {
      balance[a] = result[a].balance;
      count[a] = result[a].count;
    }
    DD_CUDA_CHECK(cudaFree(d_accounts));
  }

  long long total = 0;
  unsigned long long moves = 0;
  unsigned touched = 0;
  dd::examples::Digest digest;
  for (unsigned a = 0; a < accounts; ++a) {
    total += balance[a];
    moves += count[a];
    touched += count[a] != 0;
    digest.add(std::uint64_t(balance[a]));
    digest.add(count[a]);
  }
  std::printf("transfers %u, accounts %u\n", n, accounts);
  std::printf("total %lld (initial %lld)\naccounts touched %u\naccount updates %llu\ndigest %016llx\n",
              total, kInitialBalance * accounts, touched, moves, (unsigned long long)digest.value());

  timer.print();
  if (verify) {
    std::vector<long long> model(initial);
    std::vector<unsigned> model_count(accounts, 0);
    for (unsigned i = 0; i < n; ++i) {
      model[from[i]] -= amount[i];
      model[to[i]] += amount[i];
      ++model_count[from[i]];
      ++model_count[to[i]];
    }
    for (unsigned a = 0; a < accounts; ++a)
      if (model[a] != balance[a] || model_count[a] != count[a]) {
        std::printf("verify: FAIL at account %u (balance %lld, model %lld; count %u, model %u)\n", a,
                    balance[a], model[a], count[a], model_count[a]);
        return 1;
      }
    std::printf("verify: ok\n");
  }
  DD_CUDA_CHECK(cudaFree(d_from));
  DD_CUDA_CHECK(cudaFree(d_to));
  DD_CUDA_CHECK(cudaFree(d_amount));
  DD_CUDA_CHECK(cudaFree(d_balance_alloc));
  DD_CUDA_CHECK(cudaFree(d_count_alloc));
  DD_CUDA_CHECK(cudaFree(d_locks));
  return 0;
}
