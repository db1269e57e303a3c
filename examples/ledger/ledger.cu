// Deposits into accounts under one lock per account, written the way the
// delegate pass must see through (issue 13, class 1): the critical section
// calls __device__ helpers (credit calls bump), and it reads the thread's
// own threadIdx.x, blockIdx.x and blockDim.x. Delegated, the client sends
// those values in the message, and the server thread runs the helpers with
// them; the results must be the original's exactly.
//
// Every deposit adds its amount to the account, counts it, XORs a
// fingerprint of the depositing thread's global index into the account's
// signature and keeps the largest threadIdx.x that touched the account. All
// four are order-independent, so the final state has one correct value,
// which the CPU model computes.
//
//   ledger [--deposits N] [--accounts A] [--block T] [--seed S] [--verify 0|1] [--time RUNS]
// prints the total, the number of accounts touched and a digest of every
// account; --verify 1 also compares each account with the CPU model and
// prints "verify: ok". --time RUNS runs the launch RUNS + 1 times (the first
// a warm-up), from zeroed accounts each time, and prints the median launch
// time (`time_ms=`).
#include <vector>

#include <dd/annotate.h>

#include "example_util.h"

/// A thread's fingerprint (splitmix64 of its global index): XORed into the
/// account's signature, so the signature names the set of depositors.
__host__ __device__ inline unsigned long long fingerprint(unsigned long long id) {
  id += 0x9e3779b97f4a7c15ull;
  id = (id ^ (id >> 30)) * 0xbf58476d1ce4e5b9ull;
  id = (id ^ (id >> 27)) * 0x94d049bb133111ebull;
  return id ^ (id >> 31);
}

__device__ void bump(unsigned *count, unsigned a) { count[a] += 1; }

__device__ void credit(long long *balance, unsigned *count, unsigned a, unsigned value) {
  balance[a] += value;
  bump(count, a);
}

__global__ void deposit(const unsigned *account, const unsigned *amount, unsigned n,
                        long long *balance, unsigned *count, unsigned long long *signature,
                        unsigned *top_lane, int *locks) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned a = account[t];
  const unsigned value = amount[t];
  bool done = false;
  DD_PRAGMA(delegate)
  do {
    if (atomicCAS(&locks[a], 0, 1) == 0) {
      __threadfence(); // acquire: the previous holder's updates are visible
      credit(balance, count, a, value);
      signature[a] ^= fingerprint(blockIdx.x * blockDim.x + threadIdx.x);
      if (threadIdx.x > top_lane[a])
        top_lane[a] = threadIdx.x;
      __threadfence();
      atomicExch(&locks[a], 0);
      done = true;
    }
  } while (!done);
}

namespace {

const char Usage[] =
    "usage: ledger [--deposits N] [--accounts A] [--block T] [--seed S] [--verify 0|1] [--time RUNS]\n";

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opt(argc, argv, Usage);
  const unsigned n = unsigned(opt.number("deposits", 1u << 18));
  const unsigned accounts = unsigned(opt.number("accounts", 1024));
  const unsigned block = unsigned(opt.number("block", 256));
  const std::uint64_t seed = opt.number("seed", 1);
  const bool verify = opt.number("verify", 0) != 0;
  const unsigned runs = unsigned(opt.number("time", 0));
  opt.finish();
  if (n == 0 || accounts == 0 || accounts > (1u << 24) || block == 0 || block > 1024)
    opt.fail("need --deposits > 0, 1 <= --accounts <= 2^24, 1 <= --block <= 1024");

  std::vector<unsigned> account(n), amount(n);
  for (unsigned i = 0; i < n; ++i) {
    const std::uint64_t r = dd::examples::mix64(seed * 0x9e3779b97f4a7c15ull + i);
    account[i] = unsigned(r % accounts);
    amount[i] = unsigned((r >> 32) % 1000) + 1;
  }

  unsigned *d_account, *d_amount, *d_count, *d_top;
  long long *d_balance;
  unsigned long long *d_signature;
  int *d_locks;
  DD_CUDA_CHECK(cudaMalloc(&d_account, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_amount, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_balance, accounts * sizeof(long long)));
  DD_CUDA_CHECK(cudaMalloc(&d_count, accounts * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_signature, accounts * sizeof(unsigned long long)));
  DD_CUDA_CHECK(cudaMalloc(&d_top, accounts * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_locks, accounts * sizeof(int)));
  DD_CUDA_CHECK(cudaMemcpy(d_account, account.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(d_amount, amount.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  dd::examples::LaunchTimer timer(runs);
  for (unsigned round = 0; round < timer.rounds(); ++round) {
    DD_CUDA_CHECK(cudaMemset(d_balance, 0, accounts * sizeof(long long)));
    DD_CUDA_CHECK(cudaMemset(d_count, 0, accounts * sizeof(unsigned)));
    DD_CUDA_CHECK(cudaMemset(d_signature, 0, accounts * sizeof(unsigned long long)));
    DD_CUDA_CHECK(cudaMemset(d_top, 0, accounts * sizeof(unsigned)));
    DD_CUDA_CHECK(cudaMemset(d_locks, 0, accounts * sizeof(int)));
    timer.start();
    deposit<<<(n + block - 1) / block, block>>>(d_account, d_amount, n, d_balance, d_count,
                                                d_signature, d_top, d_locks);
    DD_CUDA_CHECK(cudaGetLastError());
    timer.stop(round);
  }
  DD_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<long long> balance(accounts);
  std::vector<unsigned> count(accounts), top(accounts);
  std::vector<unsigned long long> signature(accounts);
  DD_CUDA_CHECK(cudaMemcpy(balance.data(), d_balance, accounts * sizeof(long long), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(count.data(), d_count, accounts * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(signature.data(), d_signature, accounts * sizeof(unsigned long long),
                           cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(top.data(), d_top, accounts * sizeof(unsigned), cudaMemcpyDeviceToHost));

  long long total = 0;
  unsigned touched = 0;
  dd::examples::Digest digest;
  for (unsigned a = 0; a < accounts; ++a) {
    total += balance[a];
    touched += count[a] != 0;
    digest.add(std::uint64_t(balance[a]));
    digest.add(count[a]);
    digest.add(signature[a]);
    digest.add(top[a]);
  }
  std::printf("deposits %u, accounts %u, block %u\n", n, accounts, block);
  std::printf("total %lld\naccounts touched %u\ndigest %016llx\n", total, touched,
              (unsigned long long)digest.value());

  timer.print();
  if (verify) {
    std::vector<long long> model(accounts, 0);
    std::vector<unsigned> model_count(accounts, 0), model_top(accounts, 0);
    std::vector<unsigned long long> model_signature(accounts, 0);
    for (unsigned i = 0; i < n; ++i) {
      const unsigned a = account[i];
      model[a] += amount[i];
      ++model_count[a];
      model_signature[a] ^= fingerprint(i);
      if (i % block > model_top[a])
        model_top[a] = i % block;
    }
    for (unsigned a = 0; a < accounts; ++a)
      if (model[a] != balance[a] || model_count[a] != count[a] ||
          model_signature[a] != signature[a] || model_top[a] != top[a]) {
        std::printf("verify: FAIL at account %u (balance %lld, model %lld; count %u, model %u; "
                    "signature %016llx, model %016llx; top lane %u, model %u)\n",
                    a, balance[a], model[a], count[a], model_count[a], signature[a],
                    model_signature[a], top[a], model_top[a]);
        return 1;
      }
    std::printf("verify: ok\n");
  }
  DD_CUDA_CHECK(cudaFree(d_account));
  DD_CUDA_CHECK(cudaFree(d_amount));
  DD_CUDA_CHECK(cudaFree(d_balance));
  DD_CUDA_CHECK(cudaFree(d_count));
  DD_CUDA_CHECK(cudaFree(d_signature));
  DD_CUDA_CHECK(cudaFree(d_top));
  DD_CUDA_CHECK(cudaFree(d_locks));
  return 0;
}
