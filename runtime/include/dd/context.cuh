//===- dd/context.cuh - Host side of the client/server channels -*- CUDA -*-===//
//
// dd::Context owns the device buffers of a Channel, decides how many server
// and client blocks to run from the occupancy of the two kernels, launches
// them so that every server block is resident before any client block runs,
// and reports the split. docs/delegate-runtime.md has the residency argument.
//
//   dd::Context<Msg, 4096> ctx;
//   ctx.plan(server_kernel, client_kernel, {/*servers=*/16});
//   ctx.split().print(stdout);
//   auto ch = ctx.channel();
//   ctx.launch(
//       [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) { server_kernel<<<g, b, shm, s>>>(ch, ...); },
//       [&](dim3 g, dim3 b, size_t shm, cudaStream_t s) { client_kernel<<<g, b, shm, s>>>(ch, ...); });
//   cudaError_t e = ctx.wait(20.0); // cudaErrorTimeout: aborted by the watchdog
//
// Two kernels in two streams, not one cooperative launch: a cooperative
// grid must fit on the GPU at once, while client grids (the program's own
// kernels) may be far larger than what is resident; and fusing the two would
// give every client block the registers and shared memory of the server.
// What a cooperative launch would guarantee for the servers, the launch
// order gives here: the server kernel goes first, and the client kernel is
// launched only once every server block has marked itself started
// (host-mapped flags), so all of them are resident; plan() checks that a
// client block still fits beside the servers on some SM, so clients always
// make progress, and back-pressure only ever waits on resident servers.
//
//===----------------------------------------------------------------------===//
#ifndef DD_CONTEXT_CUH
#define DD_CONTEXT_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "dd/channel.cuh"

/// Inside Context: return the first failing CUDA call's error (with its text).
#define DD_CONTEXT_TRY(call)                                                             \
  do {                                                                                   \
    const cudaError_t dd_error_ = (call);                                                \
    if (dd_error_ != cudaSuccess)                                                        \
      return fail(dd_error_, #call);                                                     \
  } while (0)

namespace dd {

/// How a Context divided the GPU; print() writes one line.
struct ChannelSplit {
  int sms = 0;                     ///< multiprocessors of the device
  unsigned servers = 0;            ///< server blocks (one ring each)
  unsigned servers_asked = 0;      ///< Config::servers (or its default); more than `servers` only with fit_servers
  unsigned server_threads = 0;
  size_t server_shared = 0;        ///< dynamic shared memory per server block
  unsigned server_blocks_per_sm = 0; ///< occupancy of the server kernel alone
  unsigned clients = 0;            ///< client blocks launched (grid size)
  unsigned client_threads = 0;
  size_t client_shared = 0;        ///< dynamic shared memory per client block
  unsigned client_blocks_per_sm = 0; ///< occupancy of the client kernel alone
  unsigned clients_beside_servers = 0; ///< client blocks on an SM holding ceil(S / sms) servers
  unsigned resident_clients = 0;   ///< client blocks co-resident with all servers (servers spread evenly)

  void print(FILE *out) const {
    std::fprintf(out,
                 "split: %d SMs; %u server blocks%s x %u threads (%u/SM alone); %u client blocks x %u "
                 "threads, %zu B shared (%u/SM alone, %u/SM beside servers, %u co-resident)\n",
                 sms, servers, servers_asked > servers ? " (fewer than asked)" : "", server_threads,
                 server_blocks_per_sm, clients, client_threads,
                 client_shared, client_blocks_per_sm, clients_beside_servers, resident_clients);
  }
};

/// Owns one channel and launches its server and client kernels.
///
/// @tparam Message, Capacity  as in Channel
/// @tparam StageSize          as in ChannelSender (sizes the client's shared memory)
template <class Message, unsigned Capacity = 4096, unsigned StageSize = 32> class Context {
public:
  using channel_type = Channel<Message, Capacity>;
  using sender_type = ChannelSender<Message, Capacity, StageSize>;
  using receiver_type = ChannelReceiver<Message, Capacity>;

  struct Config {
    unsigned servers = 0;        ///< 0: one server block per sms_per_server SMs (at least 1)
    unsigned sms_per_server = 8; ///< the default server count's ratio (servers == 0)
    unsigned server_threads = 512;
    unsigned client_threads = 256;
    unsigned clients = 0;        ///< client grid; 0: as many as are co-resident with the servers
    size_t server_shared = 0;    ///< dynamic shared memory the server kernel needs
    size_t client_extra_shared = 0; ///< client dynamic shared memory beyond the sender's
    double start_timeout_s = 10.0; ///< how long launch() waits for the servers to start
    bool fit_servers = false;    ///< plan fewer servers than asked when not all fit (instead of failing)
  };

  Context() = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context() { release(); }

  /// Sizes the split for these two kernels and allocates the channel.
  /// Fails (cudaErrorInvalidConfiguration, see error()) when the servers
  /// cannot all be resident or no client block fits beside them; with
  /// Config::fit_servers it plans fewer server blocks instead (split().servers,
  /// the number the kernels must route by; split().servers_asked).
  template <class... ServerArgs, class... ClientArgs>
  cudaError_t plan(void (*server)(ServerArgs...), void (*client)(ClientArgs...), const Config &config) {
    release();
    config_ = config;
    int device = 0;
    cudaDeviceProp prop{};
    DD_CONTEXT_TRY(cudaGetDevice(&device));
    DD_CONTEXT_TRY(cudaGetDeviceProperties(&prop, device));
    const unsigned sms = unsigned(prop.multiProcessorCount);
    const unsigned asked =
        config.servers != 0 ? config.servers : std::max(1u, sms / std::max(1u, config.sms_per_server));
    if (config.server_threads < 64 || config.client_threads == 0)
      return fail(cudaErrorInvalidConfiguration, "server blocks need at least 64 threads");

    // One shared-memory carveout for both kernels, so that an SM configured
    // for one can take blocks of the other.
    DD_CONTEXT_TRY(cudaFuncSetAttribute(reinterpret_cast<const void *>(server),
                                        cudaFuncAttributePreferredSharedMemoryCarveout,
                                        int(cudaSharedmemCarveoutMaxShared)));
    DD_CONTEXT_TRY(cudaFuncSetAttribute(reinterpret_cast<const void *>(client),
                                        cudaFuncAttributePreferredSharedMemoryCarveout,
                                        int(cudaSharedmemCarveoutMaxShared)));
    if (config.server_shared > 48 * 1024)
      DD_CONTEXT_TRY(cudaFuncSetAttribute(reinterpret_cast<const void *>(server),
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          int(config.server_shared)));

    cudaFuncAttributes sa{}, ca{};
    DD_CONTEXT_TRY(cudaFuncGetAttributes(&sa, reinterpret_cast<const void *>(server)));
    DD_CONTEXT_TRY(cudaFuncGetAttributes(&ca, reinterpret_cast<const void *>(client)));
    int server_occ = 0;
    DD_CONTEXT_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&server_occ, server, int(config.server_threads),
                                                                 config.server_shared));
    const Use su = use_of(sa, config.server_threads, config.server_shared, prop);

    // The client's shared memory (its stages) grows with the server count.
    unsigned servers = asked;
    size_t client_shared = 0;
    int client_occ = 0;
    Use cu{};
    auto size_client = [&](unsigned s) -> cudaError_t {
      client_shared = sender_type::shared_bytes(s) + config.client_extra_shared;
      if (client_shared > size_t(prop.sharedMemPerBlockOptin)) {
        client_occ = 0;
        return cudaSuccess;
      }
      if (client_shared > 48 * 1024) {
        const cudaError_t e = cudaFuncSetAttribute(reinterpret_cast<const void *>(client),
                                                   cudaFuncAttributeMaxDynamicSharedMemorySize, int(client_shared));
        if (e != cudaSuccess)
          return e;
      }
      cu = use_of(ca, config.client_threads, client_shared, prop);
      return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&client_occ, client, int(config.client_threads),
                                                           client_shared);
    };
    // Client blocks that fit on one SM beside k server blocks.
    auto beside = [&](unsigned k) -> unsigned {
      const long long warps = prop.maxThreadsPerMultiProcessor / 32 - (long long)k * su.warps;
      const long long blocks = prop.maxBlocksPerMultiProcessor - (long long)k;
      const long long regs = prop.regsPerMultiprocessor - (long long)k * su.regs;
      const long long shared = (long long)prop.sharedMemPerMultiprocessor - (long long)k * su.shared;
      if (client_occ <= 0 || warps <= 0 || blocks <= 0 || regs < 0 || shared < 0)
        return 0;
      long long n = std::min(warps / cu.warps, blocks);
      if (cu.regs > 0)
        n = std::min(n, regs / cu.regs);
      n = std::min(n, shared / cu.shared);
      return unsigned(std::max(0ll, std::min(n, (long long)client_occ)));
    };
    if (config.fit_servers) {
      // The most server blocks, up to `asked`, that are all resident at once
      // with a client block beside ceil(S / sms) of them, so that every SM
      // can run clients (the first GPU run fitted to floor(S / sms), the
      // bare minimum below: 527 servers and one co-resident client block,
      // 1.6 s for 2^17 messages); each step down shrinks the client's stages.
      servers = std::min(asked, sms * unsigned(std::max(server_occ, 0)));
      for (; servers > 0; --servers) {
        DD_CONTEXT_TRY(size_client(servers));
        if (beside((servers + sms - 1) / sms) != 0)
          break;
      }
      if (servers == 0)
        return fail(cudaErrorInvalidConfiguration, "not even one server block fits beside a client block");
    } else {
      DD_CONTEXT_TRY(size_client(servers));
    }

    split_ = ChannelSplit{};
    split_.sms = int(sms);
    split_.servers = servers;
    split_.servers_asked = asked;
    split_.server_threads = config.server_threads;
    split_.server_shared = config.server_shared;
    split_.server_blocks_per_sm = unsigned(server_occ);
    split_.client_threads = config.client_threads;
    split_.client_shared = client_shared;
    split_.client_blocks_per_sm = unsigned(client_occ);
    split_.clients_beside_servers = beside((servers + sms - 1) / sms);
    split_.resident_clients = (sms - servers % sms) * beside(servers / sms) + (servers % sms) * beside(servers / sms + 1);
    if (server_occ <= 0 || servers > sms * unsigned(server_occ))
      return fail(cudaErrorInvalidConfiguration, "the server blocks cannot all be resident at once");
    // However the block scheduler places the servers, some SM holds at most
    // floor(S / sms) of them; a client block must fit beside that many.
    if (beside(servers / sms) == 0)
      return fail(cudaErrorInvalidConfiguration, "no client block fits beside the server blocks");
    split_.clients = config.clients != 0 ? config.clients : split_.resident_clients;

    DD_CONTEXT_TRY(cudaMalloc(&meta_, servers * sizeof(typename channel_type::meta_type)));
    DD_CONTEXT_TRY(cudaMalloc(&slots_, size_t(servers) * Capacity * sizeof(Message)));
    DD_CONTEXT_TRY(cudaMalloc(&done_, 2 * sizeof(unsigned))); // done counter, abort word
    DD_CONTEXT_TRY(cudaHostAlloc(&flags_host_, (servers + 2) * sizeof(unsigned), cudaHostAllocMapped));
    DD_CONTEXT_TRY(cudaHostGetDevicePointer(reinterpret_cast<void **>(&flags_device_), flags_host_, 0));
    DD_CONTEXT_TRY(cudaStreamCreateWithFlags(&server_stream_, cudaStreamNonBlocking));
    DD_CONTEXT_TRY(cudaStreamCreateWithFlags(&client_stream_, cudaStreamNonBlocking));
    DD_CONTEXT_TRY(cudaStreamCreateWithFlags(&control_stream_, cudaStreamNonBlocking));
    DD_CONTEXT_TRY(cudaEventCreate(&reset_done_));
    DD_CONTEXT_TRY(cudaEventCreate(&client_start_));
    DD_CONTEXT_TRY(cudaEventCreate(&servers_end_));
    planned_ = true;
    return cudaSuccess;
  }

  const ChannelSplit &split() const { return split_; }
  const char *error() const { return error_.c_str(); }

  /// The device handle for both kernels.
  channel_type channel() const {
    channel_type ch;
    ch.meta = meta_;
    ch.slots = slots_;
    ch.servers = split_.servers;
    ch.clients = split_.clients;
    ch.done = done_;
    ch.started = flags_device_;
    ch.abort_flag = done_ + 1;
    ch.abort_host = flags_device_ + split_.servers;
    return ch;
  }

  /// Resets the channel, launches the servers (launch_server(grid, block,
  /// shared, stream)), waits until every server block runs, then launches
  /// the clients the same way. Returns at once after the client launch;
  /// wait() for the end. Work the caller queued elsewhere is not ordered
  /// before these launches (the streams are non-blocking): synchronize first.
  template <class LaunchServer, class LaunchClient>
  cudaError_t launch(LaunchServer &&launch_server, LaunchClient &&launch_client) {
    if (!planned_)
      return fail(cudaErrorInvalidConfiguration, "launch() before a successful plan()");
    DD_CONTEXT_TRY(cudaStreamSynchronize(control_stream_)); // an earlier abort's copy has landed
    volatile unsigned *flags = flags_host_;
    for (unsigned s = 0; s <= split_.servers; ++s)
      flags[s] = 0;
    flags[split_.servers + 1] = 1; // the source of abort()'s copy
    std::atomic_thread_fence(std::memory_order_seq_cst);
    DD_CONTEXT_TRY(cudaMemsetAsync(meta_, 0, split_.servers * sizeof(typename channel_type::meta_type),
                                   server_stream_));
    DD_CONTEXT_TRY(cudaMemsetAsync(done_, 0, 2 * sizeof(unsigned), server_stream_));
    DD_CONTEXT_TRY(cudaEventRecord(reset_done_, server_stream_));
    launch_server(dim3(split_.servers), dim3(split_.server_threads), split_.server_shared, server_stream_);
    DD_CONTEXT_TRY(cudaGetLastError());
    DD_CONTEXT_TRY(cudaEventRecord(servers_end_, server_stream_));

    // The gate: every server block has started, hence is resident.
    const auto gate_start = clock::now();
    const auto deadline = gate_start + seconds(config_.start_timeout_s);
    for (;;) {
      unsigned started = 0;
      for (unsigned s = 0; s < split_.servers; ++s)
        started += flags[s] != 0;
      if (started == split_.servers)
        break;
      const cudaError_t q = cudaStreamQuery(server_stream_);
      if (q != cudaErrorNotReady && q != cudaSuccess)
        return fail(q, "the server kernel failed before all server blocks started");
      if (clock::now() > deadline) {
        abort();
        return fail(cudaErrorTimeout, "not every server block started (is the GPU shared?)");
      }
      // Servers start within microseconds of their launch, and a sleep is
      // never that short (a 20 us sleep takes ~70 us under Linux's timer
      // slack), which every launch would pay: yield for the first
      // millisecond, then sleep.
      if (clock::now() - gate_start < std::chrono::milliseconds(1))
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    DD_CONTEXT_TRY(cudaStreamWaitEvent(client_stream_, reset_done_, 0));
    DD_CONTEXT_TRY(cudaEventRecord(client_start_, client_stream_));
    launch_client(dim3(split_.clients), dim3(split_.client_threads), split_.client_shared, client_stream_);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
      abort(); // the servers would wait for clients forever
      return fail(e, "the client launch failed");
    }
    return cudaSuccess;
  }

  /// Waits for both kernels. After `timeout_s` seconds it aborts them (every
  /// spin loop of the channel checks the flag) and returns cudaErrorTimeout;
  /// hung() then says whether they did not stop even so (the process should
  /// exit: the GPU is still busy).
  cudaError_t wait(double timeout_s) {
    const auto deadline = clock::now() + seconds(timeout_s);
    bool aborted = false;
    for (;;) {
      const cudaError_t qs = cudaStreamQuery(server_stream_);
      const cudaError_t qc = cudaStreamQuery(client_stream_);
      if (qs != cudaSuccess && qs != cudaErrorNotReady)
        return fail(qs, "the server kernel failed");
      if (qc != cudaSuccess && qc != cudaErrorNotReady)
        return fail(qc, "the client kernel failed");
      if (qs == cudaSuccess && qc == cudaSuccess)
        return aborted ? fail(cudaErrorTimeout, "timed out; aborted") : cudaSuccess;
      if (!aborted && clock::now() > deadline) {
        abort();
        aborted = true;
      } else if (aborted && clock::now() > deadline + seconds(5.0)) {
        hung_ = true;
        return fail(cudaErrorTimeout, "timed out; the kernels did not stop after the abort");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  /// Waits for both kernels with no time limit, blocked in the driver: no
  /// watchdog, but no polling delay either (wait(timeout_s) sleeps 50 us
  /// between polls, which a short run pays whole). A fault in either kernel
  /// ends both (the error is the context's), so neither wait can outlast it.
  cudaError_t wait() {
    DD_CONTEXT_TRY(cudaStreamSynchronize(client_stream_));
    DD_CONTEXT_TRY(cudaStreamSynchronize(server_stream_));
    return cudaSuccess;
  }

  /// Asks every spin loop of the channel to give up (results are void):
  /// sets the host-mapped flag (idle server leaders relay it) and copies 1
  /// into the device word on a third stream (copies run beside kernels).
  void abort() {
    if (flags_host_ != nullptr) {
      static_cast<volatile unsigned *>(flags_host_)[split_.servers] = 1;
      std::atomic_thread_fence(std::memory_order_seq_cst);
      cudaMemcpyAsync(done_ + 1, flags_host_ + split_.servers + 1, sizeof(unsigned), cudaMemcpyHostToDevice,
                      control_stream_);
    }
  }

  bool hung() const { return hung_; }

  /// Milliseconds from the client launch to the last server block's exit
  /// (after a successful wait()).
  float elapsed_ms() const {
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, client_start_, servers_end_);
    return ms;
  }

private:
  using clock = std::chrono::steady_clock;
  static clock::duration seconds(double s) {
    return std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(s));
  }

  struct Use {
    long long warps, regs, shared;
  };
  /// A block's share of an SM: warps; registers allocated per warp in units
  /// of 256 (sm_70 to sm_90); shared memory in units of 128 bytes plus the
  /// per-block reservation.
  static Use use_of(const cudaFuncAttributes &a, unsigned threads, size_t dynamic_shared,
                    const cudaDeviceProp &prop) {
    Use u;
    u.warps = (threads + 31) / 32;
    u.regs = u.warps * (((long long)a.numRegs * 32 + 255) / 256 * 256);
    u.shared = (long long)((a.sharedSizeBytes + dynamic_shared + 127) / 128 * 128) +
               (long long)prop.reservedSharedMemPerBlock;
    return u;
  }

  cudaError_t fail(cudaError_t e, const char *what) {
    error_ = std::string(what) + " (" + cudaGetErrorString(e) + ")";
    return e;
  }

  void release() {
    if (hung_)
      return; // freeing would wait for kernels that never end
    if (meta_) cudaFree(meta_);
    if (slots_) cudaFree(slots_);
    if (done_) cudaFree(done_);
    if (flags_host_) cudaFreeHost(flags_host_);
    if (server_stream_) cudaStreamDestroy(server_stream_);
    if (client_stream_) cudaStreamDestroy(client_stream_);
    if (control_stream_) cudaStreamDestroy(control_stream_);
    if (reset_done_) cudaEventDestroy(reset_done_);
    if (client_start_) cudaEventDestroy(client_start_);
    if (servers_end_) cudaEventDestroy(servers_end_);
    meta_ = nullptr;
    slots_ = nullptr;
    done_ = nullptr;
    flags_host_ = nullptr;
    flags_device_ = nullptr;
    server_stream_ = client_stream_ = control_stream_ = nullptr;
    reset_done_ = client_start_ = servers_end_ = nullptr;
    planned_ = false;
  }

  Config config_{};
  ChannelSplit split_{};
  std::string error_;
  bool planned_ = false;
  bool hung_ = false;
  typename channel_type::meta_type *meta_ = nullptr;
  Message *slots_ = nullptr;
  unsigned *done_ = nullptr;         // [0] done counter, [1] device abort word
  unsigned *flags_host_ = nullptr;   // [servers] started marks, the abort flag, a constant 1
  unsigned *flags_device_ = nullptr;
  cudaStream_t server_stream_ = nullptr;
  cudaStream_t client_stream_ = nullptr;
  cudaStream_t control_stream_ = nullptr;
  cudaEvent_t reset_done_ = nullptr;
  cudaEvent_t client_start_ = nullptr;
  cudaEvent_t servers_end_ = nullptr;
};

} // namespace dd

#undef DD_CONTEXT_TRY

#endif // DD_CONTEXT_CUH
