// Chained hash table insert under per-bucket locks (the dissertation's HT,
// Listing 4.1): every thread links one node into the chain of its key's
// bucket, holding the bucket's lock. The collision factor C is the number of
// distinct buckets the keys fall into (a pool of C buckets of a 2^20-bucket
// table), so about keys/C threads fight over each lock. The decoupler
// delegate pass (`#pragma dd delegate`) turns the try-lock loop into a
// message to the server block that owns the bucket.
//
//   hashtable [--keys N] [--cf C] [--block T] [--seed S] [--verify 0|1] [--time RUNS]
//             [--spelling listing|assigned]
// (--spelling assigned: the same insert with the loop's flag assigned by the
// try-lock's condition, `if ((locked = atomicCAS(...) == 0))`, as z-buffer
// kernels write it.)
// prints the number of buckets in use, of nodes linked, the longest chain
// and a digest of the table that does not depend on the order of inserts:
// per bucket, the hash of its nodes sorted by index (a chain's order is the
// order the inserts took the lock). --verify 1 also checks every bucket's
// contents against a CPU model and prints "verify: ok". --time RUNS runs the
// insert launch RUNS + 1 times (the first a warm-up), from an empty table
// each time, and prints the median launch time (`time_ms=`).
#include <algorithm>
#include <string>
#include <vector>

#include <dd/annotate.h>

#include "example_util.h"

constexpr unsigned kTableBits = 20;
constexpr unsigned kTable = 1u << kTableBits;
constexpr unsigned kNil = 0xffffffffu;

/// The bucket of a key: one of a pool of `cf` distinct buckets (an odd
/// multiplier is a bijection modulo 2^20).
__host__ __device__ inline unsigned bucket_of(unsigned key, unsigned cf) {
  return ((key % cf) * 0x9e3779b1u) & (kTable - 1);
}

__global__ void insert(const unsigned *keys, unsigned n, unsigned cf, unsigned *heads,
                       unsigned *next, int *locks) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned b = bucket_of(keys[i], cf);
  bool done = false;
  DD_PRAGMA(delegate)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      __threadfence(); // acquire: the previous holder's links are visible
      next[i] = heads[b];
      heads[b] = i;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

/// `insert`, with the loop's flag assigned by the try-lock's condition
/// (--spelling assigned).
__global__ void insert_assigned(const unsigned *keys, unsigned n, unsigned cf, unsigned *heads,
                                unsigned *next, int *locks) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned b = bucket_of(keys[i], cf);
  bool locked = false;
  DD_PRAGMA(delegate)
  do {
    if ((locked = atomicCAS(&locks[b], 0, 1) == 0)) {
      __threadfence(); // acquire
      next[i] = heads[b];
      heads[b] = i;
      __threadfence();
      atomicExch(&locks[b], 0);
    }
  } while (!locked);
}

namespace {

const char Usage[] =
    "usage: hashtable [--keys N] [--cf C] [--block T] [--seed S] [--verify 0|1] [--time RUNS]\n"
    "                 [--spelling listing|assigned]\n";

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opt(argc, argv, Usage);
  const unsigned n = unsigned(opt.number("keys", 1u << 20));
  const unsigned cf = unsigned(opt.number("cf", 1024));
  const unsigned block = unsigned(opt.number("block", 256));
  const std::uint64_t seed = opt.number("seed", 1);
  const bool verify = opt.number("verify", 0) != 0;
  const unsigned runs = unsigned(opt.number("time", 0));
  const std::string spelling = opt.get("spelling", "listing");
  opt.finish();
  if (spelling != "listing" && spelling != "assigned")
    opt.fail("--spelling is listing or assigned");
  if (n == 0 || cf == 0 || cf > kTable || block == 0 || block > 1024)
    opt.fail("need --keys > 0, 1 <= --cf <= 2^20, 1 <= --block <= 1024");

  std::vector<unsigned> keys(n);
  for (unsigned i = 0; i < n; ++i)
    keys[i] = unsigned(dd::examples::mix64(seed * 0x9e3779b97f4a7c15ull + i));

  unsigned *d_keys, *d_heads, *d_next;
  int *d_locks;
  DD_CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_next, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_heads, kTable * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&d_locks, kTable * sizeof(int)));
  DD_CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  dd::examples::LaunchTimer timer(runs);
  for (unsigned round = 0; round < timer.rounds(); ++round) {
    DD_CUDA_CHECK(cudaMemset(d_heads, 0xff, kTable * sizeof(unsigned))); // kNil
    DD_CUDA_CHECK(cudaMemset(d_next, 0xff, n * sizeof(unsigned)));
    DD_CUDA_CHECK(cudaMemset(d_locks, 0, kTable * sizeof(int)));
    timer.start();
    if (spelling == "assigned")
      insert_assigned<<<(n + block - 1) / block, block>>>(d_keys, n, cf, d_heads, d_next, d_locks);
    else
      insert<<<(n + block - 1) / block, block>>>(d_keys, n, cf, d_heads, d_next, d_locks);
    DD_CUDA_CHECK(cudaGetLastError());
    timer.stop(round);
  }
  DD_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> heads(kTable), next(n);
  DD_CUDA_CHECK(cudaMemcpy(heads.data(), d_heads, kTable * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(next.data(), d_next, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

  // Walk every chain (at most n steps: a cycle or a lost node shows in the
  // counts); hash each bucket's nodes in index order.
  dd::examples::Digest digest;
  std::uint64_t linked = 0;
  unsigned used = 0, longest = 0;
  std::vector<std::vector<unsigned>> contents(verify ? kTable : 0);
  std::vector<unsigned> chain;
  for (unsigned b = 0; b < kTable; ++b) {
    chain.clear();
    for (unsigned v = heads[b]; v != kNil && chain.size() <= n; v = v < n ? next[v] : kNil)
      chain.push_back(v);
    if (chain.empty())
      continue;
    std::sort(chain.begin(), chain.end());
    ++used;
    linked += chain.size();
    longest = std::max(longest, unsigned(chain.size()));
    digest.add(b);
    for (unsigned v : chain)
      digest.add((std::uint64_t(v) << 32) | (v < n ? keys[v] : 0));
    if (verify)
      contents[b] = chain;
  }
  std::printf("keys %u, collision factor %u\n", n, cf);
  std::printf("buckets used %u\nnodes linked %llu\nlongest chain %u\ndigest %016llx\n", used,
              (unsigned long long)linked, longest, (unsigned long long)digest.value());

  timer.print();
  if (verify) {
    // The model: node i belongs to bucket_of(keys[i]), exactly once.
    std::vector<std::vector<unsigned>> model(kTable);
    for (unsigned i = 0; i < n; ++i)
      model[bucket_of(keys[i], cf)].push_back(i);
    for (unsigned b = 0; b < kTable; ++b)
      if (model[b] != contents[b]) {
        std::printf("verify: FAIL at bucket %u (%zu nodes, model %zu)\n", b, contents[b].size(),
                    model[b].size());
        return 1;
      }
    std::printf("verify: ok\n");
  }
  DD_CUDA_CHECK(cudaFree(d_keys));
  DD_CUDA_CHECK(cudaFree(d_heads));
  DD_CUDA_CHECK(cudaFree(d_next));
  DD_CUDA_CHECK(cudaFree(d_locks));
  return 0;
}
