// GPU test of <dd/delegate.cuh>: every critical section runs exactly once
// and alone, for one lock (DelegateServer) and two nested locks
// (NestedDelegateServer, the §4.4 request/reply/unlock protocol), the two
// from one array (LockIds::OneSpace) or from two (LockIds::TwoArrays).
//
//   nvcc -arch=sm_90 -O3 -std=c++17 -I runtime/include test/gpu/delegate_test.cu -o delegate_test
//   ./delegate_test [--timeout S] [--filter TEXT]
//
// Each client thread sends one message: message i names one item (one lock)
// or two different items (nested), drawn from a pool of C items (the
// collision factor: 32 … 128K) of a 2^20-item array; under two arrays the
// second item is of a second such array, and may have the first's index.
// Every critical section
//   - checks that no other critical section on its items is running
//     (atomicAdd on a per-item "inside" counter must find 0),
//   - sets the message's bit (a bit already set is a duplicate),
//   - increments its items' counters and (nested) moves an amount between
//     the two items' balances, with plain loads and stores: a lost update
//     shows in the totals.
// The host compares every counter and balance with a CPU model, checks that
// every message's bit is set, and that the balances sum to their start.
// Configurations: C in {32, 256, 1K, 32K, 128K} with 16 servers; 1 and 2
// servers (nested: every second lock local, or all); 16 locks per server
// (aliasing: different items, one lock; nested pairs on one lock); and
// "fewer servers than asked" (Context::Config::fit_servers: 100000 asked,
// what fits is planned, clients route by the planned count). Nested ones
// run in both lock orders (one array) and with two arrays. The "unstaged"
// cases send with Channel::send_direct through a sender without stages
// (ChannelSender<..., 0>, what the delegate pass generates when every send
// waits for a reply; here nobody waits): finish() alone must keep the
// servers running until every message of the block is in.
// A watchdog (--timeout, default 20 s per configuration) aborts through the
// channel. Prints one line per configuration and "N passed, N failed".

#include <dd/context.cuh>
#include <dd/cuda_check.h>
#include <dd/delegate.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr unsigned kItems = 1u << 20;
constexpr unsigned kCapacity = 4096;
constexpr long long kStart = 1ll << 40;

__host__ __device__ inline unsigned mix32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__host__ __device__ inline unsigned pool_entry(unsigned r) { return (r * 0x9e3779b1u) & (kItems - 1); }

struct Pair {
  unsigned a, b, amount;
};

__host__ __device__ inline unsigned item_of(unsigned i, unsigned cf) { return pool_entry(mix32(i ^ 0x1234567u) % cf); }

/// Message i's two items: different ones of one array, or (two arrays) any
/// item of the first and any of the second, so equal indices occur.
__host__ __device__ inline Pair pair_of(unsigned i, unsigned cf, bool two_arrays) {
  const unsigned r1 = mix32(2u * i + 77u) % cf;
  unsigned r2 = mix32(2u * i + 78u) % (two_arrays ? cf : cf - 1);
  r2 += !two_arrays && r2 >= r1;
  return Pair{pool_entry(r1), pool_entry(r2), mix32(i) % 100u + 1u};
}

/// Where item b's state lives: the second array's items after the first's.
__host__ __device__ inline unsigned slot_b(unsigned b, bool two_arrays) { return two_arrays ? kItems + b : b; }

struct State {
  unsigned *inside;    // [2 kItems]: the first array's items, then the second's
  unsigned *count;     // [2 kItems]
  long long *balance;  // [2 kItems]
  unsigned *bits;      // [n / 32 + 1]
  unsigned *errors;    // [0] overlap, [1] duplicate
};

/// A critical section on items a (and b, when two): alone, once.
__device__ void critical(const State &s, unsigned msg, unsigned a, unsigned b, unsigned amount, bool two) {
  if (atomicAdd(&s.inside[a], 1u) != 0)
    atomicAdd(&s.errors[0], 1u);
  if (two && atomicAdd(&s.inside[b], 1u) != 0)
    atomicAdd(&s.errors[0], 1u);
  if (atomicOr(&s.bits[msg / 32], 1u << (msg % 32)) & (1u << (msg % 32)))
    atomicAdd(&s.errors[1], 1u);
  s.count[a] = s.count[a] + 1;
  if (two) {
    s.count[b] = s.count[b] + 1;
    s.balance[a] = s.balance[a] - amount;
    s.balance[b] = s.balance[b] + amount;
    atomicSub(&s.inside[b], 1u);
  }
  atomicSub(&s.inside[a], 1u);
}

struct alignas(8) OneMsg {
  unsigned item, msg;
};
struct alignas(16) TwoMsg {
  unsigned a, b, amount, msg;
};

/// A client thread's send: staged, or (Stage 0) unstaged.
template <unsigned Stage, class Msg>
__device__ void send(dd::ChannelSender<Msg, kCapacity, Stage> &tx, const dd::Channel<Msg, kCapacity> &ch,
                     unsigned dest, const Msg &m) {
  if constexpr (Stage == 0)
    ch.send_direct(dest, m);
  else
    tx.send(dest, m);
}

template <unsigned Locks, unsigned Stage>
__global__ void one_client(dd::Channel<OneMsg, kCapacity> ch, unsigned n, unsigned cf) {
  extern __shared__ __align__(16) unsigned char stage[];
  dd::ChannelSender<OneMsg, kCapacity, Stage> tx(ch, stage);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const unsigned item = item_of(i, cf);
    send(tx, ch, dd::DelegateMap<Locks>{ch.servers}.server(item), OneMsg{item, i});
  }
  tx.finish();
}

template <unsigned Locks> __global__ void one_server(dd::Channel<OneMsg, kCapacity> ch, State s) {
  using Server = dd::DelegateServer<OneMsg, Locks, kCapacity>;
  __shared__ typename Server::TempStorage temp;
  Server server(ch, temp);
  server.run([](const OneMsg &m) { return m.item; },
             [&](const OneMsg &m) { critical(s, m.msg, m.item, 0, 0, false); });
}

template <unsigned Locks, dd::LockIds Ids>
using TwoServer = dd::NestedDelegateServer<TwoMsg, Locks, kCapacity, 1024, Ids>;

template <unsigned Locks, dd::LockIds Ids, unsigned Stage>
__global__ void two_client(dd::Channel<TwoMsg, kCapacity> ch, unsigned n, unsigned cf) {
  extern __shared__ __align__(16) unsigned char stage[];
  dd::ChannelSender<TwoMsg, kCapacity, Stage> tx(ch, stage);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const Pair p = pair_of(i, cf, Ids == dd::LockIds::TwoArrays);
    send(tx, ch, TwoServer<Locks, Ids>::route(p.a, p.b, ch.servers), TwoMsg{p.a, p.b, p.amount, i});
  }
  tx.finish();
}

template <unsigned Locks, dd::LockIds Ids>
__global__ void two_server(dd::Channel<TwoMsg, kCapacity> ch, typename TwoServer<Locks, Ids>::sides_type sides,
                           State s) {
  using Server = TwoServer<Locks, Ids>;
  __shared__ typename Server::TempStorage temp;
  Server server(ch, sides, temp);
  server.run([](const TwoMsg &m) { return dd::IdPair{m.a, m.b}; },
             [&](const TwoMsg &m) {
               critical(s, m.msg, m.a, slot_b(m.b, Ids == dd::LockIds::TwoArrays), m.amount, true);
             });
}

struct Case {
  std::string name;
  bool nested;
  unsigned cf;
  unsigned servers;
  bool fit;
  unsigned locks; // 4096 or 16
  unsigned n;
  dd::NestedOrder order; // nested cases: which lock first
  dd::LockIds ids;       // nested cases: one array or two
  bool unstaged;         // send_direct through a sender without stages
};

template <unsigned Locks, dd::LockIds Ids, unsigned Stage>
bool run_case(const Case &c, double timeout_s, std::string &line) {
  constexpr unsigned slots = 2 * kItems;
  const bool two_arrays = Ids == dd::LockIds::TwoArrays;
  State s{};
  const unsigned n = c.n;
  const size_t words = n / 32 + 1;
  DD_CUDA_CHECK(cudaMalloc(&s.inside, slots * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&s.count, slots * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&s.balance, slots * sizeof(long long)));
  DD_CUDA_CHECK(cudaMalloc(&s.bits, words * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&s.errors, 2 * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(s.inside, 0, slots * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(s.count, 0, slots * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(s.bits, 0, words * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(s.errors, 0, 2 * sizeof(unsigned)));
  {
    std::vector<long long> start(slots, kStart);
    DD_CUDA_CHECK(cudaMemcpy(s.balance, start.data(), slots * sizeof(long long), cudaMemcpyHostToDevice));
  }
  auto cleanup = [&] {
    cudaFree(s.inside);
    cudaFree(s.count);
    cudaFree(s.balance);
    cudaFree(s.bits);
    cudaFree(s.errors);
  };
  char buf[512];
  unsigned planned = 0;
  unsigned side_errors[2] = {0, 0};
  cudaError_t e = cudaSuccess;
  bool hung = false;
  std::string err;
  const unsigned blocks = (n + 255) / 256;
  if (!c.nested) {
    using Ctx = dd::Context<OneMsg, kCapacity, Stage>;
    Ctx ctx;
    typename Ctx::Config cfg;
    cfg.servers = c.servers;
    cfg.clients = blocks;
    cfg.fit_servers = c.fit;
    e = ctx.plan(one_server<Locks>, one_client<Locks, Stage>, cfg);
    if (e == cudaSuccess) {
      planned = ctx.split().servers;
      const auto ch = ctx.channel();
      DD_CUDA_CHECK(cudaDeviceSynchronize());
      e = ctx.launch([&](dim3 g, dim3 b, size_t shm, cudaStream_t st) { one_server<Locks><<<g, b, shm, st>>>(ch, s); },
                     [&](dim3 g, dim3 b, size_t shm, cudaStream_t st) {
                       one_client<Locks, Stage><<<g, b, shm, st>>>(ch, n, c.cf);
                     });
      if (e == cudaSuccess)
        e = ctx.wait(timeout_s);
    }
    if (e != cudaSuccess)
      err = ctx.error();
    hung = ctx.hung();
  } else {
    using Server = TwoServer<Locks, Ids>;
    using Ctx = dd::Context<TwoMsg, kCapacity, Stage>;
    Ctx ctx;
    typename Ctx::Config cfg;
    cfg.servers = c.servers;
    cfg.clients = blocks;
    cfg.fit_servers = c.fit;
    e = ctx.plan(two_server<Locks, Ids>, two_client<Locks, Ids, Stage>, cfg);
    dd::NestedDelegateSides<> sides;
    if (e == cudaSuccess) {
      planned = ctx.split().servers;
      DD_CUDA_CHECK(sides.allocate(ctx.split(), ctx.channel(), Server::locks, c.order));
      DD_CUDA_CHECK(sides.reset());
      const auto ch = ctx.channel();
      const typename Server::sides_type side = sides.device();
      e = ctx.launch(
          [&](dim3 g, dim3 b, size_t shm, cudaStream_t st) { two_server<Locks, Ids><<<g, b, shm, st>>>(ch, side, s); },
          [&](dim3 g, dim3 b, size_t shm, cudaStream_t st) {
            two_client<Locks, Ids, Stage><<<g, b, shm, st>>>(ch, n, c.cf);
          });
      if (e == cudaSuccess)
        e = ctx.wait(timeout_s);
      if (e == cudaSuccess)
        DD_CUDA_CHECK(sides.errors(side_errors));
    }
    if (e != cudaSuccess)
      err = ctx.error();
    hung = ctx.hung();
  }
  std::snprintf(buf, sizeof buf, "servers=%u%s n=%u", planned, c.fit ? " (fitted)" : "", n);
  line = buf;
  if (e != cudaSuccess) {
    line += "  " + err;
    if (hung) {
      std::printf("FAIL  %s  %s\nthe kernels did not stop after the abort; giving up\n", c.name.c_str(),
                  line.c_str());
      std::fflush(stdout);
      std::_Exit(1);
    }
    cleanup();
    return false;
  }

  std::vector<unsigned> count(slots), inside(slots), bits(words), errors(2);
  std::vector<long long> balance(slots);
  DD_CUDA_CHECK(cudaMemcpy(count.data(), s.count, slots * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(inside.data(), s.inside, slots * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(balance.data(), s.balance, slots * sizeof(long long), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(bits.data(), s.bits, words * sizeof(unsigned), cudaMemcpyDeviceToHost));
  DD_CUDA_CHECK(cudaMemcpy(errors.data(), s.errors, 2 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  cleanup();
  std::vector<unsigned> want_count(slots, 0);
  std::vector<long long> want_balance(slots, kStart);
  for (unsigned i = 0; i < n; ++i) {
    if (c.nested) {
      const Pair p = pair_of(i, c.cf, two_arrays);
      const unsigned b = slot_b(p.b, two_arrays);
      ++want_count[p.a];
      ++want_count[b];
      want_balance[p.a] -= p.amount;
      want_balance[b] += p.amount;
    } else {
      ++want_count[item_of(i, c.cf)];
    }
  }
  unsigned long long missing = 0, wrong_count = 0, wrong_balance = 0, left_inside = 0;
  long long total = 0;
  for (unsigned i = 0; i < n; ++i)
    missing += ((bits[i / 32] >> (i % 32)) & 1u) == 0;
  for (unsigned a = 0; a < slots; ++a) {
    wrong_count += count[a] != want_count[a];
    wrong_balance += balance[a] != want_balance[a];
    left_inside += inside[a] != 0;
    total += balance[a];
  }
  const bool conserved = total == kStart * (long long)slots;
  const bool pass = missing == 0 && wrong_count == 0 && wrong_balance == 0 && left_inside == 0 && conserved &&
                    errors[0] == 0 && errors[1] == 0 && side_errors[0] == 0 && side_errors[1] == 0 &&
                    (!c.fit || planned < c.servers);
  if (!pass) {
    std::snprintf(buf, sizeof buf,
                  "  missing=%llu duplicate=%u overlapping=%u wrong-counts=%llu wrong-balances=%llu total %s "
                  "misrouted=%u lock-count-mismatch=%u%s",
                  missing, errors[1], errors[0], wrong_count, wrong_balance, conserved ? "kept" : "NOT KEPT",
                  side_errors[0], side_errors[1], c.fit && planned >= c.servers ? " (fit_servers planned all)" : "");
    line += buf;
  }
  return pass;
}

} // namespace

int main(int argc, char **argv) {
  double timeout_s = 20.0;
  std::string filter;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--timeout" && i + 1 < argc)
      timeout_s = std::atof(argv[++i]);
    else if (a == "--filter" && i + 1 < argc)
      filter = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--timeout S] [--filter TEXT]\n", argv[0]);
      return 2;
    }
  }
  ::unsetenv("DD_DELEGATE_NESTED"); // each case names its order
  std::vector<Case> cases;
  // Nested cases run in both lock orders (dd::NestedOrder) over one
  // array, and over two (the order does not apply: the first array's lock
  // is always taken first).
  auto add = [&](bool nested, unsigned cf, unsigned servers, bool fit, unsigned locks, bool unstaged = false) {
    struct Kind {
      const char *name;
      dd::NestedOrder order;
      dd::LockIds ids;
    };
    const Kind single[] = {{"single", dd::NestedOrder::RemoteFirst, dd::LockIds::OneSpace}};
    const Kind two[] = {{"nested-remote-first", dd::NestedOrder::RemoteFirst, dd::LockIds::OneSpace},
                        {"nested-local-first", dd::NestedOrder::LocalFirst, dd::LockIds::OneSpace},
                        {"nested-two-arrays", dd::NestedOrder::RemoteFirst, dd::LockIds::TwoArrays}};
    for (const Kind &k : nested ? std::vector<Kind>(two, two + 3) : std::vector<Kind>(single, single + 1)) {
      char name[128];
      std::snprintf(name, sizeof name, "%s%s/cf%u/S%u%s/L%u", unstaged ? "unstaged-" : "", k.name, cf, servers,
                    fit ? "-fit" : "", locks);
      cases.push_back(Case{name, nested, cf, servers, fit, locks, nested ? (1u << 18) : (1u << 20), k.order, k.ids,
                           unstaged});
    }
  };
  for (bool nested : {false, true}) {
    for (unsigned cf : {32u, 256u, 1024u, 32768u, 131072u})
      add(nested, cf, 16, false, 4096);
    add(nested, 1024, 1, false, 4096);
    add(nested, 32, 2, false, 4096);
    add(nested, 1024, 16, false, 16);
    add(nested, 32, 100000, true, 4096);
    add(nested, 131072, 100000, true, 4096);
    for (unsigned cf : {32u, 131072u})
      add(nested, cf, 16, false, 4096, true);
    add(nested, 1024, 1, false, 4096, true);
    add(nested, 32, 100000, true, 4096, true);
  }
  cudaDeviceProp prop{};
  DD_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs; watchdog %.0f s per configuration\n", prop.name, prop.multiProcessorCount,
              timeout_s);
  unsigned passed = 0, failed = 0;
  for (const Case &c : cases) {
    if (!filter.empty() && c.name.find(filter) == std::string::npos)
      continue;
    std::string line;
    const bool two = c.ids == dd::LockIds::TwoArrays;
    const bool ok = c.unstaged    ? (two ? run_case<4096, dd::LockIds::TwoArrays, 0>(c, timeout_s, line)
                                         : run_case<4096, dd::LockIds::OneSpace, 0>(c, timeout_s, line))
                    : c.locks == 16 ? (two ? run_case<16, dd::LockIds::TwoArrays, 32>(c, timeout_s, line)
                                         : run_case<16, dd::LockIds::OneSpace, 32>(c, timeout_s, line))
                                    : (two ? run_case<4096, dd::LockIds::TwoArrays, 32>(c, timeout_s, line)
                                           : run_case<4096, dd::LockIds::OneSpace, 32>(c, timeout_s, line));
    std::printf("%s  %s  %s\n", ok ? "PASS" : "FAIL", c.name.c_str(), line.c_str());
    std::fflush(stdout);
    ok ? ++passed : ++failed;
  }
  std::printf("%u passed, %u failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
