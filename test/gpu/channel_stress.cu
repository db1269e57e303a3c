// GPU stress test of <dd/channel.cuh> and <dd/context.cuh>: exactly-once
// delivery of millions of messages from client blocks to server blocks.
//
//   nvcc -arch=sm_90 -O3 -std=c++17 -I runtime/include test/gpu/channel_stress.cu -o channel_stress
//   ./channel_stress [--messages N] [--timeout S] [--budget S] [--filter TEXT] [--list]
//
// Every client thread (a "sender", its global thread index) sends a known
// number of messages {sender, seq, dest, check}: seq counts 0.., dest is a
// hash of (sender, seq) modulo S, check another hash. Each configuration runs:
//   1. a verify run: each server sets the message's bit in a bitmap with
//      atomicOr (a bit already set is a duplicate), checks the hash (a torn
//      or stale payload) and the destination (a misrouted message); the host
//      then checks that exactly the expected bits are set and the per-server
//      counts match;
//   2. three timed runs with a light handler (per-server count, sum and xor
//      of the check words, compared with the host's), whose median gives the
//      throughput: messages / (client launch .. last server exit).
// Configurations: Capacity 64 (senders wait on full rings all the time),
// 1024 (the leader's 32-word window is the whole ring) and 8192; S = 1, 4,
// 16 servers; client grids as large as is co-resident with the servers,
// 32 blocks (fewer than SMs), 16384 blocks (many times what is resident);
// uniform senders (every thread sends the same number) and divergent ones
// (a quarter of the threads send nothing, the rest 0..max messages, half of
// the sends from a second call site after a short sleep, 100-thread blocks
// in one case); staged sends (ChannelSender) and direct ones (send_direct).
//
// A watchdog bounds each configuration (--timeout seconds, default 20, for
// all its runs together): on expiry the kernels are aborted through the
// channel's abort flag and the configuration fails; if they do not stop, the
// program prints its summary and exits. No configuration starts after
// --budget seconds (default 200; those left are counted as failed). Prints
// one line per configuration and "N passed, N failed"; exits 1 on any
// failure.

#include <dd/channel.cuh>
#include <dd/context.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dd/cuda_check.h>

namespace {

struct alignas(16) Msg {
  unsigned sender, seq, dest, check;
};

__host__ __device__ inline unsigned mix32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__host__ __device__ inline unsigned msg_check(unsigned sender, unsigned seq) {
  return mix32((sender * 0x9e3779b9u) ^ mix32(seq ^ 0x5bd1e995u));
}

__host__ __device__ inline unsigned msg_dest(unsigned sender, unsigned seq, unsigned servers) {
  return mix32(msg_check(sender, seq) + 0x68e31da4u) % servers;
}

enum class Pattern : unsigned { uniform, divergent };

struct Workload {
  Pattern pattern;
  unsigned per_thread; // uniform: every sender's count; divergent: the maximum
  unsigned servers;
};

__host__ __device__ inline unsigned msg_count(const Workload &w, unsigned sender) {
  if (w.pattern == Pattern::uniform)
    return w.per_thread;
  const unsigned h = mix32(sender ^ 0xabcdef01u);
  if ((h & 3) == 0)
    return 0; // a quarter of the lanes never send
  return (h >> 2) % (w.per_thread + 1);
}

constexpr unsigned kStage = 32;
template <unsigned C> using Chan = dd::Channel<Msg, C>;

template <unsigned C> __global__ void client_staged(Chan<C> ch, Workload w) {
  extern __shared__ __align__(16) unsigned char shared[];
  dd::ChannelSender<Msg, C, kStage> tx(ch, shared);
  const unsigned sender = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned n = msg_count(w, sender);
  for (unsigned seq = 0; seq < n; ++seq) {
    Msg m;
    m.sender = sender;
    m.seq = seq;
    m.check = msg_check(sender, seq);
    m.dest = msg_dest(sender, seq, w.servers);
    if (w.pattern == Pattern::divergent && (m.check & 1)) {
      __nanosleep(m.check & 63); // the two halves of the warp drift apart
      tx.send(m.dest, m);
    } else {
      tx.send(m.dest, m);
    }
  }
  tx.finish();
}

template <unsigned C> __global__ void client_direct(Chan<C> ch, Workload w) {
  const unsigned sender = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned n = msg_count(w, sender);
  for (unsigned seq = 0; seq < n; ++seq) {
    Msg m;
    m.sender = sender;
    m.seq = seq;
    m.check = msg_check(sender, seq);
    m.dest = msg_dest(sender, seq, w.servers);
    ch.send_direct(m.dest, m);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    ch.client_done();
}

enum { kTorn, kMisrouted, kRange, kDuplicate, kErrorKinds };

template <unsigned C>
__global__ void server_verify(Chan<C> ch, Workload w, unsigned *bitmap, unsigned long long nbits,
                              unsigned long long *received, unsigned *errors) {
  __shared__ typename dd::ChannelReceiver<Msg, C>::TempStorage temp;
  dd::ChannelReceiver<Msg, C> rx(ch, temp);
  const unsigned me = blockIdx.x;
  unsigned long long mine = 0;
  rx.run([&](const Msg &m) {
    ++mine;
    if (m.check != msg_check(m.sender, m.seq)) {
      atomicAdd(&errors[kTorn], 1u);
      return;
    }
    if (m.dest != me || msg_dest(m.sender, m.seq, w.servers) != me)
      atomicAdd(&errors[kMisrouted], 1u);
    const unsigned long long id = (unsigned long long)m.sender * w.per_thread + m.seq;
    if (m.seq >= w.per_thread || id >= nbits) {
      atomicAdd(&errors[kRange], 1u);
      return;
    }
    const unsigned bit = 1u << (id & 31);
    if (atomicOr(&bitmap[id >> 5], bit) & bit)
      atomicAdd(&errors[kDuplicate], 1u);
  });
  if (mine != 0)
    atomicAdd(&received[me], mine);
}

struct Stats {
  unsigned long long count, sum;
  unsigned x, bad;
};

template <unsigned C> __global__ void server_sum(Chan<C> ch, Workload w, Stats *stats) {
  __shared__ typename dd::ChannelReceiver<Msg, C>::TempStorage temp;
  dd::ChannelReceiver<Msg, C> rx(ch, temp);
  const unsigned me = blockIdx.x;
  unsigned long long count = 0, sum = 0;
  unsigned x = 0, bad = 0;
  rx.run([&](const Msg &m) {
    ++count;
    sum += m.check;
    x ^= m.check;
    bad += (m.dest != me) | (m.check != msg_check(m.sender, m.seq));
  });
  if (count != 0) {
    atomicAdd(&stats[me].count, count);
    atomicAdd(&stats[me].sum, sum);
    atomicXor(&stats[me].x, x);
    atomicAdd(&stats[me].bad, bad);
  }
}

struct Case {
  std::string name;
  unsigned capacity;
  unsigned servers;
  unsigned client_blocks; // 0: as many as are co-resident with the servers
  unsigned client_threads;
  Pattern pattern;
  bool direct;
};

struct Options {
  unsigned long long messages = 1ull << 24;
  double timeout_s = 20.0;
  double budget_s = 200.0; // no configuration starts after this many seconds
  std::string filter;
  bool list = false;
};

struct Outcome {
  bool pass = false;
  bool timed_out = false;
  bool hung = false;
  std::string line;
};

using clock_type = std::chrono::steady_clock;

double seconds_left(clock_type::time_point deadline) {
  return std::max(0.5, std::chrono::duration<double>(deadline - clock_type::now()).count());
}

template <unsigned C> Outcome run_case(const Case &c, const Options &opt) {
  Outcome out;
  char buf[512];
  const auto deadline = clock_type::now() + std::chrono::duration_cast<clock_type::duration>(
                                                std::chrono::duration<double>(opt.timeout_s));
  using Ctx = dd::Context<Msg, C, kStage>;
  typename Ctx::Config cfg;
  cfg.servers = c.servers;
  cfg.server_threads = 512;
  cfg.client_threads = c.client_threads;
  cfg.clients = c.client_blocks;
  void (*client)(Chan<C>, Workload) = c.direct ? client_direct<C> : client_staged<C>;

  Ctx vctx;
  if (vctx.plan(server_verify<C>, client, cfg) != cudaSuccess) {
    out.line = "plan: " + std::string(vctx.error());
    return out;
  }
  const dd::ChannelSplit split = vctx.split();
  const unsigned long long threads = (unsigned long long)split.clients * c.client_threads;
  Workload w;
  w.pattern = c.pattern;
  w.servers = c.servers;
  w.per_thread = c.pattern == Pattern::uniform
                     ? unsigned(std::max(1ull, opt.messages / threads))
                     : unsigned(std::max(2ull, opt.messages * 8 / (3 * threads)));
  const unsigned long long nbits = threads * w.per_thread;

  // Expected per-server count, sum and xor, and the total.
  std::vector<unsigned long long> exp_count(c.servers, 0), exp_sum(c.servers, 0);
  std::vector<unsigned> exp_x(c.servers, 0);
  unsigned long long total = 0;
  for (unsigned s = 0; s < threads; ++s) {
    const unsigned n = msg_count(w, s);
    for (unsigned q = 0; q < n; ++q) {
      const unsigned chk = msg_check(s, q);
      const unsigned d = msg_dest(s, q, c.servers);
      ++exp_count[d];
      exp_sum[d] += chk;
      exp_x[d] ^= chk;
    }
    total += n;
  }

  unsigned *bitmap = nullptr, *errors = nullptr;
  unsigned long long *received = nullptr;
  Stats *stats = nullptr;
  const size_t words = (nbits + 31) / 32;
  DD_CUDA_CHECK(cudaMalloc(&bitmap, words * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&errors, kErrorKinds * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&received, c.servers * sizeof(unsigned long long)));
  DD_CUDA_CHECK(cudaMalloc(&stats, c.servers * sizeof(Stats)));
  auto cleanup = [&] {
    cudaFree(bitmap);
    cudaFree(errors);
    cudaFree(received);
    cudaFree(stats);
  };

  const std::string what = std::string(c.pattern == Pattern::uniform ? "uniform" : "divergent") +
                           (c.direct ? " direct" : " staged");
  std::snprintf(buf, sizeof buf, "C=%-5u S=%-2u clients=%ux%u (%u/SM beside servers, %u resident) %s msgs=%llu",
                C, c.servers, split.clients, c.client_threads, split.clients_beside_servers,
                split.resident_clients, what.c_str(), total);
  out.line = buf;

  auto fail = [&](const std::string &why, Ctx &ctx) {
    out.line += "  " + why;
    out.hung = ctx.hung();
    if (!out.hung)
      cleanup();
    return out;
  };

  // 1. Verify run.
  DD_CUDA_CHECK(cudaMemset(bitmap, 0, words * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(errors, 0, kErrorKinds * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemset(received, 0, c.servers * sizeof(unsigned long long)));
  DD_CUDA_CHECK(cudaDeviceSynchronize());
  {
    const Chan<C> ch = vctx.channel();
    cudaError_t e = vctx.launch(
        [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) {
          server_verify<C><<<g, b, shm, s>>>(ch, w, bitmap, nbits, received, errors);
        },
        [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) { client<<<g, b, shm, s>>>(ch, w); });
    if (e == cudaSuccess)
      e = vctx.wait(seconds_left(deadline));
    if (e != cudaSuccess) {
      out.timed_out = e == cudaErrorTimeout;
      return fail(std::string("verify run: ") + vctx.error(), vctx);
    }
  }
  const float verify_ms = vctx.elapsed_ms();
  {
    std::vector<unsigned> host_bits(words), host_err(kErrorKinds);
    std::vector<unsigned long long> host_recv(c.servers);
    DD_CUDA_CHECK(cudaMemcpy(host_bits.data(), bitmap, words * sizeof(unsigned), cudaMemcpyDeviceToHost));
    DD_CUDA_CHECK(cudaMemcpy(host_err.data(), errors, kErrorKinds * sizeof(unsigned), cudaMemcpyDeviceToHost));
    DD_CUDA_CHECK(cudaMemcpy(host_recv.data(), received, c.servers * sizeof(unsigned long long),
                          cudaMemcpyDeviceToHost));
    unsigned long long missing = 0, extra = 0, wrong_count = 0;
    for (unsigned s = 0; s < threads; ++s) {
      const unsigned n = msg_count(w, s);
      for (unsigned q = 0; q < w.per_thread; ++q) {
        const unsigned long long id = (unsigned long long)s * w.per_thread + q;
        const bool set = (host_bits[id >> 5] >> (id & 31)) & 1u;
        missing += q < n && !set;
        extra += q >= n && set;
      }
    }
    for (unsigned d = 0; d < c.servers; ++d)
      wrong_count += host_recv[d] != exp_count[d];
    if (missing || extra || wrong_count || host_err[kTorn] || host_err[kMisrouted] || host_err[kRange] ||
        host_err[kDuplicate]) {
      std::snprintf(buf, sizeof buf,
                    "verify: missing=%llu unexpected=%llu duplicate=%u torn=%u misrouted=%u out-of-range=%u "
                    "servers-with-wrong-count=%llu",
                    missing, extra, host_err[kDuplicate], host_err[kTorn], host_err[kMisrouted],
                    host_err[kRange], wrong_count);
      return fail(buf, vctx);
    }
  }

  // 2. Timed runs (same client grid).
  Ctx tctx;
  cfg.clients = split.clients;
  if (tctx.plan(server_sum<C>, client, cfg) != cudaSuccess)
    return fail("plan (timed): " + std::string(tctx.error()), tctx);
  std::vector<float> times;
  for (int rep = 0; rep < 3; ++rep) {
    DD_CUDA_CHECK(cudaMemset(stats, 0, c.servers * sizeof(Stats)));
    DD_CUDA_CHECK(cudaDeviceSynchronize());
    const Chan<C> ch = tctx.channel();
    cudaError_t e = tctx.launch(
        [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) { server_sum<C><<<g, b, shm, s>>>(ch, w, stats); },
        [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) { client<<<g, b, shm, s>>>(ch, w); });
    if (e == cudaSuccess)
      e = tctx.wait(seconds_left(deadline));
    if (e != cudaSuccess) {
      out.timed_out = e == cudaErrorTimeout;
      return fail("timed run " + std::to_string(rep) + ": " + tctx.error(), tctx);
    }
    times.push_back(tctx.elapsed_ms());
    std::vector<Stats> hs(c.servers);
    DD_CUDA_CHECK(cudaMemcpy(hs.data(), stats, c.servers * sizeof(Stats), cudaMemcpyDeviceToHost));
    for (unsigned d = 0; d < c.servers; ++d) {
      if (hs[d].count != exp_count[d] || hs[d].sum != exp_sum[d] || hs[d].x != exp_x[d] || hs[d].bad != 0) {
        std::snprintf(buf, sizeof buf,
                      "timed run %d: server %u count=%llu (want %llu) sum/xor %s, bad=%u", rep, d,
                      hs[d].count, exp_count[d],
                      hs[d].sum == exp_sum[d] && hs[d].x == exp_x[d] ? "ok" : "WRONG", hs[d].bad);
        return fail(buf, tctx);
      }
    }
  }
  std::sort(times.begin(), times.end());
  const double ms = times[1];
  std::snprintf(buf, sizeof buf, "  %8.1f Mmsg/s (median %.2f ms of %.2f/%.2f/%.2f; verify run %.2f ms)",
                total / (ms * 1e3), ms, times[0], times[1], times[2], verify_ms);
  out.line += buf;
  out.pass = true;
  cleanup();
  return out;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  auto add = [&](unsigned cap, unsigned s, unsigned blocks, unsigned threads, Pattern p, bool direct,
                 const char *grid) {
    char name[128];
    std::snprintf(name, sizeof name, "C%u/S%u/%s/%s/%s", cap, s, grid,
                  p == Pattern::uniform ? "uniform" : "divergent", direct ? "direct" : "staged");
    cases.push_back(Case{name, cap, s, blocks, threads, p, direct});
  };
  // Large rings first (the throughput numbers), then the edge cases, then
  // the small rings, where senders wait on back-pressure all the time.
  for (unsigned cap : {8192u, 64u})
    for (unsigned s : {1u, 4u, 16u}) {
      add(cap, s, 0, 256, Pattern::uniform, false, "resident");
      add(cap, s, 32, 256, Pattern::uniform, false, "few");
      add(cap, s, 16384, 256, Pattern::uniform, false, "many");
      add(cap, s, 0, 256, Pattern::divergent, false, "resident");
      if (cap == 8192) {
        for (unsigned s2 : {1u, 4u, 16u})
          if (s == 16)
            add(8192, s2, 0, 256, Pattern::uniform, true, "resident");
        if (s == 16) {
          add(1024, 4, 0, 256, Pattern::uniform, false, "resident");
          add(1024, 4, 0, 100, Pattern::divergent, false, "resident100");
        }
      }
    }
  add(64, 4, 0, 256, Pattern::uniform, true, "resident");
  return cases;
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--messages" && i + 1 < argc)
      opt.messages = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--timeout" && i + 1 < argc)
      opt.timeout_s = std::atof(argv[++i]);
    else if (a == "--budget" && i + 1 < argc)
      opt.budget_s = std::atof(argv[++i]);
    else if (a == "--filter" && i + 1 < argc)
      opt.filter = argv[++i];
    else if (a == "--list")
      opt.list = true;
    else {
      std::fprintf(stderr, "usage: %s [--messages N] [--timeout S] [--budget S] [--filter TEXT] [--list]\n", argv[0]);
      return 2;
    }
  }
  const std::vector<Case> cases = all_cases();
  if (opt.list) {
    for (const Case &c : cases)
      std::printf("%s\n", c.name.c_str());
    return 0;
  }
  cudaDeviceProp prop{};
  DD_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs; %llu messages per configuration; watchdog %.0f s per configuration\n",
              prop.name, prop.multiProcessorCount, opt.messages, opt.timeout_s);
  std::fflush(stdout);

  unsigned passed = 0, failed = 0;
  const auto start = clock_type::now();
  for (const Case &c : cases) {
    if (!opt.filter.empty() && c.name.find(opt.filter) == std::string::npos)
      continue;
    if (std::chrono::duration<double>(clock_type::now() - start).count() > opt.budget_s) {
      std::printf("SKIP  %s (the %.0f s budget is spent)\n", c.name.c_str(), opt.budget_s);
      ++failed;
      continue;
    }
    Outcome o;
    switch (c.capacity) {
    case 64: o = run_case<64>(c, opt); break;
    case 1024: o = run_case<1024>(c, opt); break;
    case 8192: o = run_case<8192>(c, opt); break;
    default: o.line = "no instantiation for this capacity"; break;
    }
    std::printf("%s  %s  %s\n", o.pass ? "PASS" : "FAIL", c.name.c_str(), o.line.c_str());
    std::fflush(stdout);
    o.pass ? ++passed : ++failed;
    if (o.hung) {
      std::printf("the kernels did not stop after the abort; giving up\n%u passed, %u failed\n", passed,
                  failed);
      std::fflush(stdout);
      std::_Exit(1);
    }
  }
  std::printf("%u passed, %u failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
