//===- dd/detail/delegate_launch.cuh - Host side of a delegated launch -*- CUDA -*-===//
//
// Part of <dd/delegate.cuh>; include that. The host side that replaces a
// delegated kernel's `<<<grid, block>>>`: how many server blocks
// (delegate_servers, delegate_config), the per-launcher plan (DelegatePlan:
// the dd::Context, its split, the launch chooser), and one launch
// (delegate_run: the client/server pair, or the kernel as written, as
// DD_DELEGATE_POLICY and the measurements choose).
//
//===----------------------------------------------------------------------===//
#ifndef DD_DETAIL_DELEGATE_LAUNCH_CUH
#define DD_DETAIL_DELEGATE_LAUNCH_CUH

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <utility>

#include <cuda_runtime.h>

#include "dd/context.cuh"
#include "dd/detail/launch_watch.h"
#include "dd/launch_choice.h"

namespace dd {
namespace detail {

/// Server blocks asked for: DD_DELEGATE_SERVERS from the environment (so a
/// run can ask for more than fit, or for one), else the annotation's
/// servers(N), else 0 (Context's default). Always fitted to what is resident.
inline unsigned delegate_servers(unsigned annotated) {
  // Read once: getenv scans the environment, on every launch of a kernel
  // that may take 0.1 ms (HT at 128K buckets runs as written).
  static const char *const env = std::getenv("DD_DELEGATE_SERVERS");
  if (env)
    return unsigned(std::strtoul(env, nullptr, 0));
  return annotated;
}

/// A delegated launch cannot fail later the way `<<<>>>` does (the program
/// checks no error of it): it says why and ends the program.
[[noreturn]] inline void delegate_fail(const char *kernel, const char *what) {
  std::fprintf(stderr, "dd: delegated launch of %s failed: %s\n", kernel, what);
  std::exit(EXIT_FAILURE);
}

/// The Context configuration of a delegated launch: the client kernel runs
/// with the original launch's grid and block (the kernel's index arithmetic
/// depends on them); servers of 512 threads, as many as fit, by default one
/// per `sms_per_server` SMs.
template <class Ctx>
typename Ctx::Config delegate_config(const char *kernel, unsigned servers, dim3 grid, dim3 block,
                                     unsigned sms_per_server) {
  const unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
  const unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  if (blocks == 0 || threads == 0 || blocks > 0xffffffffull || threads > 1024)
    delegate_fail(kernel, "invalid grid or block (as the original launch would be)");
  typename Ctx::Config cfg;
  cfg.servers = delegate_servers(servers);
  cfg.sms_per_server = sms_per_server;
  cfg.server_threads = 512;
  cfg.clients = unsigned(blocks);
  cfg.client_threads = unsigned(threads);
  cfg.fit_servers = true;
  return cfg;
}

/// DD_DELEGATE_VERBOSE=1: every probe and choice on stderr, and at exit each
/// delegated kernel's totals (LaunchChooser::print_totals).
inline bool delegate_verbose() {
  static const bool verbose = env_flag("DD_DELEGATE_VERBOSE");
  return verbose;
}

/// What a delegated launch keeps from one call to the next: the planned
/// Context (channel buffers, streams, events, the occupancy split) and the
/// nested protocol's side channels (`Extra`). Planning costs allocations
/// (a pinned host allocation among them), stream creation and occupancy
/// queries, a millisecond or more, and the frees synchronize the device:
/// a program that launches the kernel in a loop would pay that on every
/// launch, many times what the kernels take at low contention. The plan
/// depends only on the device, the grid, the block and the servers asked,
/// so it is redone only when one of them changes.
///
/// It lives in a function-local static of each launch() instantiation (one
/// per generated launcher, hence per kernel): constructed on the first
/// launch, after the program's first CUDA call, so its destructor runs at
/// exit before the CUDA runtime's own teardown and frees the buffers (were
/// the launch the program's first CUDA call, the frees would come after the
/// teardown and fail harmlessly: the process ends anyway). The
/// mutex keeps launches from several host threads apart, as the driver
/// does for `<<<>>>`.
template <class Ctx, class Extra> struct DelegatePlan {
  /// The default server count: one block per this many SMs. One lock: 8
  /// (kron18's MST measured 1.3x slower at one per SM, HT 1.2-2.9x faster);
  /// two nested locks: 1 (ATM 1.4-2.8x faster, SGD 1.0-1.4x, MaxFlow the
  /// same; docs/PERF.md, "How many server blocks").
  const unsigned sms_per_server;
  std::mutex mutex;
  Ctx ctx;
  Extra extra;
  bool planned = false;
  int device = -1;
  dim3 grid{0, 0, 0}, block{0, 0, 0};
  unsigned servers = 0;

  bool matches(int d, dim3 g, dim3 b, unsigned s) const {
    return planned && device == d && servers == s && grid.x == g.x && grid.y == g.y && grid.z == g.z &&
           block.x == b.x && block.y == b.y && block.z == b.z;
  }

  // Delegated or as written (dd/launch_choice.h), measured per device, grid
  // and block: contention, hence the choice, may differ between shapes.
  LaunchChooser chooser{"delegated"};
  bool original_loaded = false;

  // The untimed launches as written are timed by events on their stream,
  // read at a later launch without waiting (LaunchChooser::observe).
  LaunchWatch watch;

  // The kernel's name, for the totals printed at exit when verbose.
  const char *kernel = nullptr;

  explicit DelegatePlan(unsigned sms_per_server = 8) : sms_per_server(sms_per_server) {}
  ~DelegatePlan() {
    if (kernel && delegate_verbose())
      chooser.print_totals(kernel);
  }
  DelegatePlan(const DelegatePlan &) = delete;
  DelegatePlan &operator=(const DelegatePlan &) = delete;
};

/// Runs an untimed launch as written on `stream`, between the plan's events
/// when none are pending and the stream is not being captured into a graph.
template <class Plan, class Launch>
void delegate_original_observed(Plan &plan, cudaStream_t stream, Launch &&launch) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
      capture != cudaStreamCaptureStatusNone) {
    launch();
    return;
  }
  plan.watch.run(AdaptiveChoice::Original, stream, launch);
}

/// DD_DELEGATE_POLICY: adaptive (the default), delegate or original; read
/// once.
inline LaunchPolicy delegate_policy() {
  static const LaunchPolicy policy = launch_policy_from_env("DD_DELEGATE_POLICY", "delegate");
  return policy;
}

/// DD_DELEGATE_VERBOSE=2: also every launch, synchronized and timed, with
/// the way it ran: the per-launch times the launcher's rules are tuned on
/// (each launch then waits for the device, so the program runs slower).
inline bool delegate_trace() {
  static const bool trace = [] {
    const char *value = std::getenv("DD_DELEGATE_VERBOSE");
    return value && std::strtol(value, nullptr, 10) >= 2;
  }();
  return trace;
}

/// Runs one launch of a delegated kernel: the client/server pair, or the
/// kernel as written (`launch_original` on the original's `stream`), as
/// the policy and the measurements choose (DelegatePlan::choice).
///
/// Delegated: plans (or reuses the plan), runs both kernels and waits for
/// them. `on_plan` runs after a new plan (allocates what depends on it),
/// `before_launch` before every launch, `after_wait` after it (still under
/// the plan's lock). DD_DELEGATE_SPLIT=1 prints the
/// split to stderr whenever one is planned.
///
/// As written: asynchronous on `stream`, exactly the original `<<<>>>`,
/// except the timed probes, which synchronize the device before and the
/// stream after. A launch error is left for the program's own
/// cudaGetLastError, as the original's would be.
///
/// The device is synchronized before the launch: the Context's streams are
/// non-blocking, and the generated call has no stream to order after (the
/// original's `<<<>>>` stream is dropped), while the original launch was
/// ordered after the earlier work of its stream, which may be any stream.
/// Only a device-wide synchronization orders the servers' and clients'
/// reads after every earlier write of the program, whichever stream made
/// it; when nothing is pending it costs a few microseconds.
template <class Plan, class Server, class Client, class Original, class OnPlan, class LaunchServer,
          class LaunchClient, class LaunchOriginal, class BeforeLaunch, class AfterWait>
void delegate_run_once(const char *kernel, Plan &plan, Server server, Client client, Original original, dim3 grid,
                  dim3 block, cudaStream_t stream, unsigned servers, OnPlan &&on_plan, LaunchServer &&launch_server,
                  LaunchClient &&launch_client, LaunchOriginal &&launch_original, BeforeLaunch &&before_launch,
                  AfterWait &&after_wait) {
  using Ctx = decltype(plan.ctx);
  std::lock_guard<std::mutex> lock(plan.mutex);
  plan.kernel = kernel;
  const typename Ctx::Config cfg = delegate_config<Ctx>(kernel, servers, grid, block, plan.sms_per_server);
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    delegate_fail(kernel, cudaGetErrorString(e));

  const LaunchPolicy policy = delegate_policy();
  if (policy == LaunchPolicy::Adaptive)
    plan.watch.observe(plan.chooser, kernel, delegate_verbose());
  LaunchShape shape;
  shape.device = device;
  shape.grid[0] = grid.x, shape.grid[1] = grid.y, shape.grid[2] = grid.z;
  shape.block[0] = block.x, shape.block[1] = block.y, shape.block[2] = block.z;
  plan.chooser.configure(shape);
  const AdaptiveChoice::Way way = plan.chooser.which(policy);
  const bool timed = plan.chooser.timed(policy);

  if (way == AdaptiveChoice::Original) {
    if (!timed) {
      const bool watched = policy == LaunchPolicy::Adaptive && plan.chooser.choice().watch();
      if (watched)
        delegate_original_observed(plan, stream, [&] { launch_original(grid, block, stream); });
      else
        launch_original(grid, block, stream);
      plan.chooser.record_untimed(way, watched);
      return;
    }
    // Loads the kernel's module first (lazy loading would otherwise bill
    // the probe for it), then times the launch alone.
    if (!plan.original_loaded) {
      cudaFuncAttributes attributes;
      plan.original_loaded = cudaFuncGetAttributes(&attributes, original) == cudaSuccess;
      if (!plan.original_loaded)
        (void)cudaGetLastError(); // this query's error is not the program's
    }
    plan.chooser.run_timed(
        kernel, way, delegate_verbose(), [&] { launch_original(grid, block, stream); },
        [] { return cudaDeviceSynchronize() == cudaSuccess; },
        [&] { return cudaStreamSynchronize(stream) == cudaSuccess; });
    return;
  }

  if (!plan.matches(device, grid, block, cfg.servers)) {
    plan.planned = false;
    if (plan.ctx.plan(server, client, cfg) != cudaSuccess)
      delegate_fail(kernel, plan.ctx.error());
    on_plan();
    plan.planned = true;
    plan.device = device;
    plan.grid = grid;
    plan.block = block;
    plan.servers = cfg.servers;
    if (const char *env = std::getenv("DD_DELEGATE_SPLIT"); env && *env && *env != '0') {
      std::fprintf(stderr, "dd: %s: ", kernel);
      plan.ctx.split().print(stderr);
    }
  }
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
    delegate_fail(kernel, cudaGetErrorString(e));
  const auto start = std::chrono::steady_clock::now();
  before_launch();
  // The client keeps the original launch's shape; Context's grid and block
  // are its flattened sizes, the same block count.
  cudaError_t e = plan.ctx.launch(launch_server, [&](dim3, dim3, size_t shared, cudaStream_t stream) {
    launch_client(grid, block, shared, stream);
  });
  if (e == cudaSuccess)
    e = plan.ctx.wait(); // no time limit: the original had none
  if (e != cudaSuccess) {
    plan.planned = false; // a failed launch leaves the plan's state unknown
    delegate_fail(kernel, plan.ctx.error());
  }
  after_wait();
  if (timed) {
    plan.chooser.record(kernel, way, elapsed_ms(start), delegate_verbose());
  } else {
    plan.chooser.record_untimed(way);
    // A delegated launch waits anyway: its time is known.
    if (policy == LaunchPolicy::Adaptive)
      plan.chooser.observe(kernel, way, elapsed_ms(start), delegate_verbose());
  }
}

/// delegate_run_once, and with DD_DELEGATE_VERBOSE=2 the launch's time and
/// way on stderr (`dd: K: launch N: original 0.0412 ms`). `args`: the rest
/// of delegate_run_once's arguments.
template <class Plan, class... Args> void delegate_run(const char *kernel, Plan &plan, Args &&...args) {
  const auto run = [&] { delegate_run_once(kernel, plan, std::forward<Args>(args)...); };
  if (!delegate_trace()) {
    run();
    return;
  }
  const AdaptiveChoice &choice = plan.chooser.choice();
  const std::uint64_t rewrites = choice.launches(AdaptiveChoice::Rewrite);
  const std::uint64_t originals = choice.launches(AdaptiveChoice::Original);
  (void)cudaDeviceSynchronize(); // an earlier error stays the program's to see
  const auto start = std::chrono::steady_clock::now();
  run();
  (void)cudaDeviceSynchronize();
  const double ms = elapsed_ms(start);
  const std::uint64_t rewrites_now = choice.launches(AdaptiveChoice::Rewrite);
  const std::uint64_t launches = rewrites_now + choice.launches(AdaptiveChoice::Original);
  // A new launch shape forgets the counts: then this launch is all they hold.
  const bool forgot = launches <= rewrites + originals;
  const bool delegated = forgot ? rewrites_now > 0 : rewrites_now > rewrites;
  std::fprintf(stderr, "dd: %s: launch %llu: %s %.4f ms\n", kernel, static_cast<unsigned long long>(launches),
               delegated ? "delegated" : "original", ms);
}

struct NoExtra {};

} // namespace detail

} // namespace dd

#endif // DD_DETAIL_DELEGATE_LAUNCH_CUH
