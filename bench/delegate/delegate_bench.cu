// Hand-written decoupled delegate against global locks (issue 4; Wang,
// dissertation ch. 4, §4.5 "HT" and "ATM"), no compiler pass involved:
//
//   HT   chained hash-table inserts; each insert links a node into one of C
//        buckets (the collision factor: a pool of C distinct buckets of a
//        2^20-bucket table, chosen at random per insert) under the bucket's
//        lock.
//          original  one thread per insert, atomicCAS try-lock loop on a
//                    global lock word per bucket (Listing 4.1)
//          delegate  the same threads send {bucket, node} to server blocks
//                    (<dd/delegate.cuh> DelegateServer), which link under a
//                    shared-memory lock
//   ATM  transfers between two of C accounts (of 2^20) under two nested
//        locks.
//          original  Listing 4.3's loop, locks taken in account order
//          delegate  NestedDelegateServer: the §4.4 request/reply/unlock
//                    protocol between server blocks
//
// For each collision factor: one warm-up and --reps timed runs of each
// version (CUDA events; for the delegate, from the client launch to the
// last server block's exit), median; one more run of each with %globaltimer
// probes for the lock hand-off latency (Table 4.2): the time from the end
// of the critical section on an item to the start of the next one on the
// same item, averaged. Every run is checked exactly against a CPU model:
//   HT   every node is in the chain of the bucket the model puts it in,
//        exactly once, with its key; no other bucket has a chain
//   ATM  every account's balance and transfer count equal the model's, and
//        the total is conserved
// (so the original's and the delegate's final tables equal each other too).
// A failed check prints FAIL and makes the exit status 1. A watchdog bounds
// every kernel (--timeout seconds): the originals check %globaltimer in
// their retry loops, the delegate runs are aborted through the channel.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime/include bench/delegate/delegate_bench.cu -o delegate_bench
//   ./delegate_bench [--ht-n N] [--atm-n N] [--servers S] [--reps R] [--cf LIST]
//                    [--fit-servers S] [--timeout SEC] [--seed X] [--skip-original]
//                    [--skip-fit] [--quick]

#include <dd/context.cuh>
#include <dd/cuda_check.h>
#include <dd/delegate.cuh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr unsigned kTableBits = 20; // buckets and accounts: 2^20
constexpr unsigned kTable = 1u << kTableBits;
constexpr unsigned kNil = 0xffffffffu;
constexpr unsigned kLocks = 4096;
constexpr unsigned kCapacity = 8192;
constexpr unsigned kClientThreads = 256;
constexpr long long kInitialBalance = 1000000000ll;

__host__ __device__ inline unsigned mix32(unsigned x) { // bijective (murmur3's finalizer)
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}

/// The r-th entry of a pool: distinct for distinct r < 2^20 (odd multiplier).
__host__ __device__ inline unsigned pool_entry(unsigned r) { return (r * 0x9e3779b1u) & (kTable - 1); }

__host__ __device__ inline unsigned ht_bucket(unsigned i, unsigned cf, unsigned seed) {
  return pool_entry(mix32(i ^ seed) % cf);
}
__host__ __device__ inline unsigned ht_key(unsigned i, unsigned seed) { return mix32(i * 2u + 1u + seed); }

struct Transfer {
  unsigned from, to, amount;
};
__host__ __device__ inline Transfer atm_transfer(unsigned i, unsigned cf, unsigned seed) {
  const unsigned r1 = mix32(2u * i + seed) % cf;
  unsigned r2 = mix32(2u * i + 1u + seed) % (cf - 1);
  r2 += r2 >= r1; // a different pool entry
  return Transfer{pool_entry(r1), pool_entry(r2), mix32(i ^ 0x5bd1e995u ^ seed) % 1000u + 1u};
}

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Hand-off probes: per item, when its last critical section ended.
struct Latency {
  unsigned long long *last_end; // [kTable], 0 = never
  unsigned long long *sum_count; // [2]
};

template <bool Measure> struct Probe {
  unsigned long long sum = 0, count = 0;
  __device__ void enter(const Latency &l, unsigned item) {
    if constexpr (Measure) {
      const unsigned long long prev = l.last_end[item];
      if (prev != 0) {
        sum += globaltimer() - prev;
        ++count;
      }
    }
  }
  __device__ void leave(const Latency &l, unsigned item) {
    if constexpr (Measure)
      l.last_end[item] = globaltimer();
  }
  __device__ void flush(const Latency &l) {
    if constexpr (Measure)
      if (count != 0) {
        atomicAdd(&l.sum_count[0], sum);
        atomicAdd(&l.sum_count[1], count);
      }
  }
};

//===-------------------------------------------------------------------===//
// HT
//===-------------------------------------------------------------------===//

struct HtTable {
  unsigned *head;  // [kTable]
  unsigned *next;  // [n]
  unsigned *key;   // [n]
  unsigned *lock;  // [kTable] original only
};

struct Watchdog {
  unsigned long long deadline; // %globaltimer
  unsigned *expired;
};

/// The critical section: link node `node` at the head of `bucket`.
__device__ __forceinline__ void ht_link(const HtTable &t, unsigned bucket, unsigned node) {
  t.next[node] = t.head[bucket];
  t.head[bucket] = node;
}

template <bool Measure>
__global__ void ht_original(HtTable t, unsigned n, unsigned cf, unsigned seed, Latency lat, Watchdog wd) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Probe<Measure> probe;
  if (i < n) {
    const unsigned b = ht_bucket(i, cf, seed);
    t.key[i] = ht_key(i, seed); // the node is ours until it is linked
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> lock(t.lock[b]);
    bool done = false;
    unsigned tries = 0;
    do { // Listing 4.1
      unsigned expected = 0;
      if (lock.compare_exchange_strong(expected, 1u, cuda::memory_order_acquire, cuda::memory_order_relaxed)) {
        probe.enter(lat, b);
        ht_link(t, b, i);
        probe.leave(lat, b);
        lock.store(0u, cuda::memory_order_release);
        done = true;
      } else if ((++tries & 1023) == 0 && globaltimer() > wd.deadline) {
        atomicExch(wd.expired, 1u);
        break;
      }
    } while (!done);
  }
  probe.flush(lat);
}

struct HtMsg {
  unsigned bucket, node;
};
using HtChannel = dd::Channel<HtMsg, kCapacity>;
using HtContext = dd::Context<HtMsg, kCapacity>;
using HtServer = dd::DelegateServer<HtMsg, kLocks, kCapacity>;

__global__ void ht_client(HtChannel ch, HtTable t, unsigned n, unsigned cf, unsigned seed) {
  extern __shared__ __align__(16) unsigned char stage[];
  HtContext::sender_type tx(ch, stage);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const unsigned b = ht_bucket(i, cf, seed);
    t.key[i] = ht_key(i, seed);
    tx.send(dd::DelegateMap<kLocks>{ch.servers}.server(b), HtMsg{b, i});
  }
  tx.finish();
}

template <bool Measure> __global__ void ht_server(HtChannel ch, HtTable t, Latency lat) {
  __shared__ HtServer::TempStorage temp;
  HtServer server(ch, temp);
  Probe<Measure> probe;
  server.run([](const HtMsg &m) { return m.bucket; },
             [&](const HtMsg &m) {
               probe.enter(lat, m.bucket);
               ht_link(t, m.bucket, m.node);
               probe.leave(lat, m.bucket);
             });
  probe.flush(lat);
}

//===-------------------------------------------------------------------===//
// ATM
//===-------------------------------------------------------------------===//

struct Bank {
  long long *balance; // [kTable]
  unsigned *count;    // [kTable] transfers touching the account
  unsigned *lock;     // [kTable] original only
};

/// The critical section: move `amount` from one account to the other.
__device__ __forceinline__ void atm_move(const Bank &bank, const Transfer &x) {
  bank.balance[x.from] -= x.amount;
  bank.balance[x.to] += x.amount;
  bank.count[x.from] += 1;
  bank.count[x.to] += 1;
}

template <bool Measure>
__global__ void atm_original(Bank bank, unsigned n, unsigned cf, unsigned seed, Latency lat, Watchdog wd) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  Probe<Measure> probe;
  if (i < n) {
    const Transfer x = atm_transfer(i, cf, seed);
    const unsigned lo = x.from < x.to ? x.from : x.to, hi = x.from < x.to ? x.to : x.from;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> lock1(bank.lock[lo]), lock2(bank.lock[hi]);
    bool success1 = false, success2 = false;
    unsigned tries = 0;
    do { // Listing 4.3: the lower account's lock first
      if (!success1) {
        unsigned expected = 0;
        success1 = lock1.compare_exchange_strong(expected, 1u, cuda::memory_order_acquire,
                                                 cuda::memory_order_relaxed);
      }
      if (success1) {
        unsigned expected = 0;
        if (lock2.compare_exchange_strong(expected, 1u, cuda::memory_order_acquire, cuda::memory_order_relaxed)) {
          probe.enter(lat, x.from);
          probe.enter(lat, x.to);
          atm_move(bank, x);
          probe.leave(lat, x.from);
          probe.leave(lat, x.to);
          lock2.store(0u, cuda::memory_order_release);
          lock1.store(0u, cuda::memory_order_release);
          success2 = true;
        }
      }
      if (!success2 && (++tries & 1023) == 0 && globaltimer() > wd.deadline) {
        atomicExch(wd.expired, 1u);
        if (success1)
          lock1.store(0u, cuda::memory_order_release);
        break;
      }
    } while (!(success1 && success2));
  }
  probe.flush(lat);
}

struct alignas(16) AtmMsg {
  unsigned from, to, amount, pad;
};
using AtmChannel = dd::Channel<AtmMsg, kCapacity>;
using AtmContext = dd::Context<AtmMsg, kCapacity>;
using AtmServer = dd::NestedDelegateServer<AtmMsg, kLocks, kCapacity>;

__global__ void atm_client(AtmChannel ch, unsigned n, unsigned cf, unsigned seed) {
  extern __shared__ __align__(16) unsigned char stage[];
  AtmContext::sender_type tx(ch, stage);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const Transfer x = atm_transfer(i, cf, seed);
    tx.send(AtmServer::route(x.from, x.to, ch.servers), AtmMsg{x.from, x.to, x.amount, 0});
  }
  tx.finish();
}

template <bool Measure>
__global__ void atm_server(AtmChannel ch, AtmServer::sides_type sides, Bank bank, Latency lat) {
  __shared__ AtmServer::TempStorage temp;
  AtmServer server(ch, sides, temp);
  Probe<Measure> probe;
  server.run([](const AtmMsg &m) { return dd::IdPair{m.from, m.to}; },
             [&](const AtmMsg &m) {
               const Transfer x{m.from, m.to, m.amount};
               probe.enter(lat, x.from);
               probe.enter(lat, x.to);
               atm_move(bank, x);
               probe.leave(lat, x.from);
               probe.leave(lat, x.to);
             });
  probe.flush(lat);
}

//===-------------------------------------------------------------------===//
// Host
//===-------------------------------------------------------------------===//

struct Options {
  // The originals' time grows faster than linearly with n at high
  // contention (first GPU run: ATM at collision factor 256 took 25 ms for
  // 2^15 transfers, 4.4 s for 2^19); these keep a whole run near a minute.
  unsigned ht_n = 1u << 20;
  unsigned atm_n = 1u << 16;
  unsigned servers = 16;
  unsigned fit_servers = 100000; // the "fewer servers than asked" run asks this many
  unsigned reps = 5;
  double timeout_s = 10.0;
  std::vector<unsigned> cfs{32, 256, 1024, 32768, 131072};
  bool quick = false;
  bool original = true; // --skip-original: the delegate only (server-count sweeps)
  bool fit = true;      // --skip-fit: no fewer-servers runs
  unsigned seed = 12345;
};

using clock_type = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

int failures = 0;

/// One result line of the table.
struct Row {
  std::string bench;
  unsigned cf = 0;
  unsigned n = 0;
  unsigned servers = 0;
  double orig_ms = 0, dele_ms = 0, dele_wall_ms = 0;
  double orig_min = 0, orig_max = 0, dele_min = 0, dele_max = 0;
  double orig_lat = -1, dele_lat = -1; // ns per hand-off
  bool ok = true;
  std::string why;
};

struct Timer {
  cudaEvent_t a, b;
  Timer() {
    DD_CUDA_CHECK(cudaEventCreate(&a));
    DD_CUDA_CHECK(cudaEventCreate(&b));
  }
  ~Timer() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
};

__global__ void read_globaltimer(unsigned long long *out) { *out = globaltimer(); }

Watchdog make_watchdog(unsigned *expired, double seconds) {
  // %globaltimer counts ns from an epoch the host cannot read: ask the device.
  unsigned long long *d = nullptr, now = 0;
  DD_CUDA_CHECK(cudaMalloc(&d, sizeof now));
  read_globaltimer<<<1, 1>>>(d);
  DD_CUDA_CHECK(cudaGetLastError());
  DD_CUDA_CHECK(cudaMemcpy(&now, d, sizeof now, cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaFree(d));
  DD_CUDA_CHECK(cudaMemset(expired, 0, sizeof(unsigned)));
  return Watchdog{now + (unsigned long long)(seconds * 1e9), expired};
}

double latency_of(const Latency &l) {
  unsigned long long sc[2];
  DD_CUDA_CHECK(cudaMemcpy(sc, l.sum_count, sizeof sc, cudaMemcpyDeviceToHost));
  return sc[1] == 0 ? -1.0 : double(sc[0]) / double(sc[1]);
}

void reset_latency(const Latency &l) {
  DD_CUDA_CHECK(cudaMemset(l.last_end, 0, kTable * sizeof(unsigned long long)));
  DD_CUDA_CHECK(cudaMemset(l.sum_count, 0, 2 * sizeof(unsigned long long)));
}

/// The median, least and largest of the timed runs (all 0 without runs).
void summarize(const std::vector<double> &ms, double &med, double &lo, double &hi) {
  med = median(ms);
  if (!ms.empty()) {
    lo = *std::min_element(ms.begin(), ms.end());
    hi = *std::max_element(ms.begin(), ms.end());
  }
}

/// The global-lock original of a benchmark: a warm-up, opt.reps timed runs
/// and, with `latency`, one more that measures the lock hand-off. Before
/// each run `reset()`; `launch(measure, watchdog)` enqueues the kernel;
/// after it `check()` returns what is wrong ("" when exact). Fills the
/// row's orig_* fields; failures go to `fail`.
template <class Reset, class Launch, class Check, class Fail>
void time_original(Row &row, const Options &opt, bool latency, unsigned *expired,
                   const Latency &lat, Reset &&reset, Launch &&launch, Check &&check,
                   Fail &&fail) {
  Timer timer;
  std::vector<double> ms;
  for (unsigned rep = 0; rep <= opt.reps + (latency ? 1 : 0); ++rep) {
    const bool measure = latency && rep == opt.reps + 1;
    reset();
    if (measure)
      reset_latency(lat);
    const Watchdog wd = make_watchdog(expired, opt.timeout_s);
    DD_CUDA_CHECK(cudaEventRecord(timer.a));
    launch(measure, wd);
    DD_CUDA_CHECK(cudaGetLastError());
    DD_CUDA_CHECK(cudaEventRecord(timer.b));
    DD_CUDA_CHECK(cudaEventSynchronize(timer.b));
    unsigned exp = 0;
    DD_CUDA_CHECK(cudaMemcpy(&exp, expired, sizeof exp, cudaMemcpyDeviceToHost));
    if (exp) {
      fail("original: watchdog expired");
      break;
    }
    const std::string why = check();
    if (!why.empty())
      fail("original: " + why);
    float f = 0;
    DD_CUDA_CHECK(cudaEventElapsedTime(&f, timer.a, timer.b));
    if (measure)
      row.orig_lat = latency_of(lat);
    else if (rep > 0)
      ms.push_back(f);
  }
  summarize(ms, row.orig_ms, row.orig_min, row.orig_max);
}

/// One delegate run through `ctx` (server and client launchers as
/// dd::Context::launch takes them), waited for with the run's time limit;
/// `wall_ms` gets the host-side time. False (and `fail` told) when it did not
/// finish; kernels that do not stop after the abort end the program, since
/// nothing else can run on the GPU.
template <class Ctx, class Server, class Client, class Fail>
bool run_delegate(Ctx &ctx, const Options &opt, Server &&server, Client &&client, Fail &&fail,
                  double &wall_ms) {
  const auto w0 = clock_type::now();
  cudaError_t e = ctx.launch(server, client);
  if (e == cudaSuccess)
    e = ctx.wait(opt.timeout_s);
  wall_ms = std::chrono::duration<double, std::milli>(clock_type::now() - w0).count();
  if (e == cudaSuccess)
    return true;
  fail(std::string("delegate: ") + ctx.error());
  if (ctx.hung()) {
    std::printf("FAIL the kernels did not stop after the abort; giving up\n");
    std::fflush(stdout);
    std::_Exit(1);
  }
  return false;
}

// ---- HT ----

struct HtModel {
  std::vector<unsigned> bucket_of; // per node
};

/// Exact check of the table against the model: every node in the chain of
/// its bucket, once, with its key; nothing else linked.
std::string ht_check(const HtTable &t, unsigned n, unsigned cf, unsigned seed) {
  std::vector<unsigned> head(kTable), next(n), key(n);
  DD_CUDA_CHECK(cudaMemcpy(head.data(), t.head, kTable * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(next.data(), t.next, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(key.data(), t.key, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::vector<unsigned char> seen(n, 0);
  unsigned long long linked = 0;
  for (unsigned b = 0; b < kTable; ++b) {
    unsigned steps = 0;
    for (unsigned v = head[b]; v != kNil; v = next[v]) {
      if (v >= n || ++steps > n)
        return "bad link or cycle in bucket " + std::to_string(b);
      if (seen[v])
        return "node " + std::to_string(v) + " linked twice";
      seen[v] = 1;
      ++linked;
      if (ht_bucket(v, cf, seed) != b)
        return "node " + std::to_string(v) + " in the wrong bucket";
      if (key[v] != ht_key(v, seed))
        return "node " + std::to_string(v) + " has a wrong key";
    }
  }
  if (linked != n)
    return "linked " + std::to_string(linked) + " of " + std::to_string(n) + " nodes";
  return "";
}

void ht_reset(const HtTable &t, unsigned n) {
  DD_CUDA_CHECK(cudaMemset(t.head, 0xff, kTable * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(t.next, 0xee, n * sizeof(unsigned))); // poison
  DD_CUDA_CHECK(cudaMemset(t.key, 0xee, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(t.lock, 0, kTable * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaDeviceSynchronize());
}

Row run_ht(const Options &opt, unsigned cf, unsigned servers_asked, bool fit, bool latency) {
  Row row;
  row.bench = "HT";
  row.cf = cf;
  row.n = opt.ht_n;
  const unsigned n = opt.ht_n;
  HtTable t{};
  DD_CUDA_CHECK(cudaMalloc(&t.head, kTable * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&t.next, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&t.key, n * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&t.lock, kTable * sizeof(unsigned)));
  Latency lat{};
  DD_CUDA_CHECK(cudaMalloc(&lat.last_end, kTable * sizeof(unsigned long long)));
  DD_CUDA_CHECK(cudaMalloc(&lat.sum_count, 2 * sizeof(unsigned long long)));
  unsigned *expired = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&expired, sizeof(unsigned)));
  auto fail = [&](const std::string &why) {
    if (row.ok) {
      row.ok = false;
      row.why = why;
    }
  };
  const unsigned blocks = (n + 255) / 256;

  // Original.
  if (!fit && opt.original)
    time_original(
        row, opt, latency, expired, lat, [&] { ht_reset(t, n); },
        [&](bool measure, const Watchdog &wd) {
          if (measure)
            ht_original<true><<<blocks, 256>>>(t, n, cf, opt.seed, lat, wd);
          else
            ht_original<false><<<blocks, 256>>>(t, n, cf, opt.seed, lat, wd);
        },
        [&] { return ht_check(t, n, cf, opt.seed); }, fail);

  // Delegate.
  for (int measure = 0; measure <= (latency ? 1 : 0); ++measure) {
    HtContext ctx;
    HtContext::Config cfg;
    cfg.servers = servers_asked;
    cfg.server_threads = 512;
    cfg.client_threads = kClientThreads;
    cfg.clients = blocks;
    cfg.fit_servers = fit;
    const cudaError_t pe = measure ? ctx.plan(ht_server<true>, ht_client, cfg) : ctx.plan(ht_server<false>, ht_client, cfg);
    if (pe != cudaSuccess) {
      fail(std::string("plan: ") + ctx.error());
      break;
    }
    row.servers = ctx.split().servers;
    if (!measure && (fit || cf == opt.cfs.front()))
      ctx.split().print(stdout);
    const HtChannel ch = ctx.channel();
    std::vector<double> ms, wall;
    const unsigned runs = measure ? 1 : opt.reps + 1;
    for (unsigned rep = 0; rep < runs; ++rep) {
      ht_reset(t, n);
      if (measure)
        reset_latency(lat);
      double wms = 0;
      if (!run_delegate(
              ctx, opt,
              [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) {
                if (measure)
                  ht_server<true><<<g, b, shm, s>>>(ch, t, lat);
                else
                  ht_server<false><<<g, b, shm, s>>>(ch, t, lat);
              },
              [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) {
                ht_client<<<g, b, shm, s>>>(ch, t, n, cf, opt.seed);
              },
              fail, wms))
        break;
      const std::string why = ht_check(t, n, cf, opt.seed);
      if (!why.empty())
        fail("delegate: " + why);
      if (measure) {
        row.dele_lat = latency_of(lat);
      } else if (rep > 0) {
        ms.push_back(ctx.elapsed_ms());
        wall.push_back(wms);
      }
    }
    if (!measure) {
      summarize(ms, row.dele_ms, row.dele_min, row.dele_max);
      row.dele_wall_ms = median(wall);
    }
  }
  cudaFree(t.head);
  cudaFree(t.next);
  cudaFree(t.key);
  cudaFree(t.lock);
  cudaFree(lat.last_end);
  cudaFree(lat.sum_count);
  cudaFree(expired);
  return row;
}

// ---- ATM ----

std::string atm_check(const Bank &bank, unsigned n, unsigned cf, unsigned seed) {
  std::vector<long long> bal(kTable), want(kTable, kInitialBalance);
  std::vector<unsigned> cnt(kTable), want_cnt(kTable, 0);
  DD_CUDA_CHECK(cudaMemcpy(bal.data(), bank.balance, kTable * sizeof(long long), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(cnt.data(), bank.count, kTable * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; ++i) {
    const Transfer x = atm_transfer(i, cf, seed);
    want[x.from] -= x.amount;
    want[x.to] += x.amount;
    ++want_cnt[x.from];
    ++want_cnt[x.to];
  }
  long long total = 0;
  unsigned wrong = 0, wrong_cnt = 0;
  for (unsigned a = 0; a < kTable; ++a) {
    total += bal[a];
    wrong += bal[a] != want[a];
    wrong_cnt += cnt[a] != want_cnt[a];
  }
  std::string why;
  if (wrong || wrong_cnt)
    why = std::to_string(wrong) + " balances and " + std::to_string(wrong_cnt) + " counts differ from the model";
  if (total != kInitialBalance * (long long)kTable)
    why += (why.empty() ? "" : "; ") + std::string("total not conserved");
  return why;
}

void atm_reset(const Bank &bank) {
  std::vector<long long> init(kTable, kInitialBalance);
  DD_CUDA_CHECK(cudaMemcpy(bank.balance, init.data(), kTable * sizeof(long long), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemset(bank.count, 0, kTable * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(bank.lock, 0, kTable * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaDeviceSynchronize());
}

Row run_atm(const Options &opt, unsigned cf, unsigned servers_asked, bool fit, bool latency) {
  Row row;
  row.bench = "ATM";
  row.cf = cf;
  row.n = opt.atm_n;
  const unsigned n = opt.atm_n;
  Bank bank{};
  DD_CUDA_CHECK(cudaMalloc(&bank.balance, kTable * sizeof(long long)));
  DD_CUDA_CHECK(cudaMalloc(&bank.count, kTable * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&bank.lock, kTable * sizeof(unsigned)));
  Latency lat{};
  DD_CUDA_CHECK(cudaMalloc(&lat.last_end, kTable * sizeof(unsigned long long)));
  DD_CUDA_CHECK(cudaMalloc(&lat.sum_count, 2 * sizeof(unsigned long long)));
  unsigned *expired = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&expired, sizeof(unsigned)));
  auto fail = [&](const std::string &why) {
    if (row.ok) {
      row.ok = false;
      row.why = why;
    }
  };
  const unsigned blocks = (n + 255) / 256;

  if (!fit && opt.original)
    time_original(
        row, opt, latency, expired, lat, [&] { atm_reset(bank); },
        [&](bool measure, const Watchdog &wd) {
          if (measure)
            atm_original<true><<<blocks, 256>>>(bank, n, cf, opt.seed, lat, wd);
          else
            atm_original<false><<<blocks, 256>>>(bank, n, cf, opt.seed, lat, wd);
        },
        [&] { return atm_check(bank, n, cf, opt.seed); }, fail);

  for (int measure = 0; measure <= (latency ? 1 : 0); ++measure) {
    AtmContext ctx;
    AtmContext::Config cfg;
    cfg.servers = servers_asked;
    cfg.server_threads = 512;
    cfg.client_threads = kClientThreads;
    cfg.clients = blocks;
    cfg.fit_servers = fit;
    const cudaError_t pe =
        measure ? ctx.plan(atm_server<true>, atm_client, cfg) : ctx.plan(atm_server<false>, atm_client, cfg);
    if (pe != cudaSuccess) {
      fail(std::string("plan: ") + ctx.error());
      break;
    }
    row.servers = ctx.split().servers;
    if (!measure && (fit || cf == opt.cfs.front()))
      ctx.split().print(stdout);
    dd::NestedDelegateSides<> sides;
    DD_CUDA_CHECK(sides.allocate(ctx.split(), ctx.channel(), AtmServer::locks));
    const AtmChannel ch = ctx.channel();
    const AtmServer::sides_type side = sides.device();
    std::vector<double> ms, wall;
    const unsigned runs = measure ? 1 : opt.reps + 1;
    for (unsigned rep = 0; rep < runs; ++rep) {
      atm_reset(bank);
      if (measure)
        reset_latency(lat);
      DD_CUDA_CHECK(sides.reset());
      double wms = 0;
      if (!run_delegate(
              ctx, opt,
              [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) {
                if (measure)
                  atm_server<true><<<g, b, shm, s>>>(ch, side, bank, lat);
                else
                  atm_server<false><<<g, b, shm, s>>>(ch, side, bank, lat);
              },
              [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) {
                atm_client<<<g, b, shm, s>>>(ch, n, cf, opt.seed);
              },
              fail, wms))
        break;
      unsigned errs[2];
      DD_CUDA_CHECK(sides.errors(errs));
      if (errs[0] || errs[1])
        fail("delegate: " + std::to_string(errs[0]) + " misrouted, " + std::to_string(errs[1]) +
             " lock-count mismatches");
      const std::string why = atm_check(bank, n, cf, opt.seed);
      if (!why.empty())
        fail("delegate: " + why);
      if (measure) {
        row.dele_lat = latency_of(lat);
      } else if (rep > 0) {
        ms.push_back(ctx.elapsed_ms());
        wall.push_back(wms);
      }
    }
    if (!measure) {
      summarize(ms, row.dele_ms, row.dele_min, row.dele_max);
      row.dele_wall_ms = median(wall);
    }
  }
  cudaFree(bank.balance);
  cudaFree(bank.count);
  cudaFree(bank.lock);
  cudaFree(lat.last_end);
  cudaFree(lat.sum_count);
  cudaFree(expired);
  return row;
}

std::string cf_name(unsigned cf) {
  if (cf >= 1024 && cf % 1024 == 0)
    return std::to_string(cf / 1024) + "K";
  return std::to_string(cf);
}

void print_row(const Row &r) {
  const std::string orig = r.orig_ms > 0 ? [&] {
    char b[64];
    std::snprintf(b, sizeof b, "%.3f", r.orig_ms);
    return std::string(b);
  }()
                                         : std::string("–");
  char speed[32] = "–";
  if (r.orig_ms > 0 && r.dele_ms > 0)
    std::snprintf(speed, sizeof speed, "%.2fx", r.orig_ms / r.dele_ms);
  std::printf("| %s | %s | %u | %u | %s | %.3f | %s | %.3f | %s |\n", r.bench.c_str(), cf_name(r.cf).c_str(), r.n,
              r.servers, orig.c_str(), r.dele_ms, speed, r.dele_wall_ms, r.ok ? "ok" : ("FAIL: " + r.why).c_str());
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--ht-n")
      opt.ht_n = unsigned(std::strtoul(next(), nullptr, 0));
    else if (a == "--atm-n")
      opt.atm_n = unsigned(std::strtoul(next(), nullptr, 0));
    else if (a == "--servers")
      opt.servers = unsigned(std::strtoul(next(), nullptr, 0));
    else if (a == "--fit-servers")
      opt.fit_servers = unsigned(std::strtoul(next(), nullptr, 0));
    else if (a == "--reps")
      opt.reps = unsigned(std::strtoul(next(), nullptr, 0));
    else if (a == "--timeout")
      opt.timeout_s = std::atof(next());
    else if (a == "--seed")
      opt.seed = unsigned(std::strtoul(next(), nullptr, 0));
    else if (a == "--cf") {
      opt.cfs.clear();
      std::string list = next();
      for (size_t p = 0; p < list.size();) {
        const size_t q = list.find(',', p);
        opt.cfs.push_back(unsigned(std::strtoul(list.substr(p, q - p).c_str(), nullptr, 0)));
        p = q == std::string::npos ? list.size() : q + 1;
      }
    } else if (a == "--skip-original") {
      opt.original = false;
    } else if (a == "--skip-fit") {
      opt.fit = false;
    } else if (a == "--quick") {
      opt.quick = true;
      opt.ht_n = 1u << 17;
      opt.atm_n = 1u << 15;
      opt.reps = 2;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--ht-n N] [--atm-n N] [--servers S] [--fit-servers S] [--reps R] [--cf LIST] "
                   "[--timeout SEC] [--seed X] [--skip-original] [--skip-fit] [--quick]\n",
                   argv[0]);
      return 2;
    }
  }
  for (unsigned cf : opt.cfs)
    if (cf < 2 || cf > kTable) {
      std::fprintf(stderr, "collision factors must be in [2, %u]\n", kTable);
      return 2;
    }
  cudaDeviceProp prop{};
  DD_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("# device: %s, %d SMs; driver API %d, runtime %d\n", prop.name, prop.multiProcessorCount, driver,
              runtime);
  std::printf("# HT: %u inserts into a 2^%u-bucket table; ATM: %u transfers among 2^%u accounts; %u timed runs "
              "after 1 warm-up, median; servers asked: %u x 512 threads, %u locks each; watchdog %.0f s\n",
              opt.ht_n, kTableBits, opt.atm_n, kTableBits, opt.reps, opt.servers, kLocks, opt.timeout_s);
  std::fflush(stdout);

  std::vector<Row> rows, fit_rows;
  auto report = [&](const Row &r, std::vector<Row> &into) {
    if (!r.ok) {
      ++failures;
      std::printf("FAIL %s cf=%u: %s\n", r.bench.c_str(), r.cf, r.why.c_str());
    } else {
      std::printf("ok   %s cf=%u: original %.3f ms [%.3f..%.3f], delegate %.3f ms [%.3f..%.3f] (%u servers), "
                  "hand-off ns %.0f / %.0f\n",
                  r.bench.c_str(), r.cf, r.orig_ms, r.orig_min, r.orig_max, r.dele_ms, r.dele_min, r.dele_max,
                  r.servers, r.orig_lat, r.dele_lat);
    }
    std::fflush(stdout);
    into.push_back(r);
  };
  for (unsigned cf : opt.cfs)
    report(run_ht(opt, cf, opt.servers, false, cf == 256 || cf == 1024), rows);
  for (unsigned cf : opt.cfs)
    report(run_atm(opt, cf, opt.servers, false, cf == 256 || cf == 1024), rows);
  // Fewer server blocks than asked: Context fits them from occupancy; the
  // clients route by the planned count. Must still be exact.
  for (unsigned cf : {32u, 1024u}) {
    if (!opt.fit)
      break;
    report(run_ht(opt, cf, opt.fit_servers, true, false), fit_rows);
    report(run_atm(opt, cf, opt.fit_servers, true, false), fit_rows);
  }

  std::printf("\n| bench | collision factor | ops | servers | original ms | delegate ms | speedup | delegate "
              "wall ms | check |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n");
  double log_sum = 0;
  unsigned log_n = 0;
  for (const Row &r : rows) {
    print_row(r);
    if (r.ok && r.orig_ms > 0 && r.dele_ms > 0) {
      log_sum += std::log(r.orig_ms / r.dele_ms);
      ++log_n;
    }
  }
  if (log_n)
    std::printf("\ngeomean speedup over %u rows: %.2fx\n", log_n, std::exp(log_sum / log_n));
  std::printf("\nfewer servers than asked (asked %u; Context::Config::fit_servers):\n\n| bench | collision factor | "
              "ops | servers | original ms | delegate ms | speedup | delegate wall ms | check |\n"
              "|---|---|---:|---:|---:|---:|---:|---:|---|\n",
              opt.fit_servers);
  for (const Row &r : fit_rows)
    print_row(r);
  std::printf("\nlock hand-off latency (%%globaltimer, ns from the end of a critical section on an item to the "
              "start of the next one on it; mean):\n\n| bench | original ns | delegate ns | delegate / original "
              "|\n|---|---:|---:|---:|\n");
  for (const Row &r : rows)
    if (r.orig_lat > 0 && r.dele_lat > 0)
      std::printf("| %s_%s | %.0f | %.0f | %.2f |\n", r.bench == "HT" ? "ht" : "atm", cf_name(r.cf).c_str(),
                  r.orig_lat, r.dele_lat, r.dele_lat / r.orig_lat);
  std::printf("\n%s%zu passed, %d failed\n", failures ? "FAIL: " : "", rows.size() + fit_rows.size() - failures,
              failures);
  return failures ? 1 : 0;
}
