// dd-maxflow: maximum flow on the GPU by push-relabel with node locks (the
// dissertation's MaxFlow benchmark), as written or through the delegate
// pass, timed, and optionally verified against Dinic's.
//
// Every failure prints one "dd-maxflow: error: ..." line (network errors name
// the file and the line) and exits with status 1; the --out file is written
// whole (graph/file.h), and only when everything succeeded (verification
// included).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "graph/file.h"
#include "graph/flow_network.h"
#include "graph/max_flow.h"
#include "maxflow/maxflow.h"
#include "command_line.h"

namespace {

using namespace dd::graph;
using dd::tools::Args;
using dd::tools::get_u64;
namespace maxflow = dd::maxflow;

constexpr const char *kUsage = R"(usage: dd-maxflow --algo=A [options] NETWORK

Maximum flow from the source to the sink of NETWORK, a DIMACS max-flow file
('p max', as `dd-graph generate rlg` writes), on the GPU, timed, optionally
verified.

Algorithms (--algo=A; see docs/maxflow.md):
  locks      push-relabel with node locks (the dissertation's MaxFlow): a
             thread per active vertex pushes along its admissible arcs, each
             push holding the locks of both ends (two nested try-locks,
             lower id first); relabels in their own launch; a global
             relabel (host BFS from the sink) every num_vertices relabels;
             a second phase returns the excess that cannot reach the sink
  delegate   the same source rewritten at build time by
             `decoupler --passes=delegate`: the push runs on server blocks
             that own the node locks in shared memory; the client waits for
             the server's reply before its next arc. The launcher's policy
             is DD_DELEGATE_POLICY (environment): adaptive (default:
             measures both ways, runs the faster), delegate (always
             delegated), original (the kernel as written)
  cpu        the CPU reference, Dinic's algorithm (needs no GPU)

Options:
  --algo=A           the algorithm (required)
  --out=FILE         write the flow in the DIMACS solution format, as
                     `dd-graph maxflow-ref --flows` does: "s VALUE", then one
                     line "f U V FLOW" per arc in file order (1-based ids,
                     self loops excluded), nothing else ("-": standard output;
                     the result line then goes to standard error). Written
                     only when everything (--verify too) succeeded: a regular
                     file to a temporary name, renamed, a device or FIFO
                     through. It may not be the NETWORK
  --verify           check that the flow is feasible (0 <= flow <= capacity
                     on every arc, conservation at every vertex but the
                     source and the sink), that its value is the one
                     reported, that no residual path leads from the source to
                     the sink, that the cut this leaves (the vertices the
                     source still reaches, and the rest) has the flow's value
                     as its capacity, and that the value equals the
                     reference's exactly; a failure is an error (status 1)
  --reference=R      what --verify compares the value with: dinic (default),
                     Dinic's algorithm on the CPU; cut, the cut alone (the
                     max-flow min-cut certificate, which proves the value
                     maximum in O(V + E); for meshes where Dinic's takes
                     minutes, e.g. RLG 2048 x 2048 and larger)
  --runs=N           time N runs and report the median (default 1)
  --warmup=N         untimed GPU runs before the timed ones (default 1; 0
                     for networks where one run takes minutes, such as the
                     RLG 4096 x 4096 mesh: the delegate launcher's probes are
                     then timed with the run)
  --max-input-bytes=N
                     the most bytes read from a NETWORK that is not a regular
                     file (a pipe, a FIFO, a device; default 4 GiB)
  --help             this text

The GPU algorithms need fewer than 2^31 vertices and 2^32 residual arcs (two
per arc).

The last line of standard output is the result:
  flow F time_ms MS
F: the flow value (int64); MS: the median run, GPU time by CUDA events from
the first launch to the end of the last (including the host's reads of the
per-round counters and the global relabels, excluding reading the network,
the upload, the initial preflow and the copy back); cpu: Dinic's time.
Standard error gets one line "dd-maxflow: algo=A runs=N vertices=V arcs=E
rounds=R global_relabels=G launches=L relabel_ms=H" (E the arcs, self loops
excluded; R, G, L and H of the last run, 0 for cpu; H: the part of its
time_ms the host spent in the global relabels, copies included).
)";

int fail(const std::string &message) {
  std::fprintf(stderr, "dd-maxflow: error: %s\n", message.c_str());
  return 1;
}

const std::set<std::string> kValueOptions = {"algo",           "out",       "runs",
                                             "max-input-bytes", "reference", "warmup"};
const std::set<std::string> kFlagOptions = {"verify", "help"};

enum class Algo { kLocks, kDelegate, kCpu };

// What --verify compares the flow's value with, besides its cut.
enum class Reference { kDinic, kCut };

// The values of --algo.
const dd::tools::Choice<Algo> kAlgos[] = {
    {"locks", Algo::kLocks}, {"delegate", Algo::kDelegate}, {"cpu", Algo::kCpu}};

// The values of --reference.
const dd::tools::Choice<Reference> kReferences[] = {{"dinic", Reference::kDinic},
                                                    {"cut", Reference::kCut}};

// One run of `algo` (the network is on the device unless algo is cpu).
Expected<maxflow::Result> run_once(Algo algo, const FlowNetwork &network,
                                   const maxflow::DeviceNetwork &device) {
  switch (algo) {
  case Algo::kLocks:
    return maxflow::locks::push_relabel(device);
  case Algo::kDelegate:
    return maxflow::delegate::push_relabel(device);
  case Algo::kCpu:
    break;
  }
  const auto start = std::chrono::steady_clock::now();
  Expected<MaxFlowResult> flow = max_flow_dinic(network);
  const auto stop = std::chrono::steady_clock::now();
  if (!flow.ok())
    return flow.status();
  maxflow::Result result;
  result.value = flow->value;
  result.flows = std::move(flow->flows);
  result.ms = std::chrono::duration<double, std::milli>(stop - start).count();
  return result;
}

// Checks the flow: feasible, of the value reported, maximum with a cut of
// its value, and (Reference::kDinic) of Dinic's value; a message when it
// fails.
std::optional<std::string> verify(const FlowNetwork &network, const maxflow::Result &result,
                                  Reference reference) {
  if (Status s = certify_max_flow(network, result.flows, result.value); !s.ok())
    return "verification failed: " + s.message();
  if (reference == Reference::kCut)
    return std::nullopt;
  Expected<MaxFlowResult> dinic = max_flow_dinic(network);
  if (!dinic.ok())
    return dinic.status().message();
  if (dinic->value != result.value)
    return str_cat("verification failed: the flow is ", result.value, ", Dinic's ", dinic->value);
  return std::nullopt;
}

std::string format_flow(const FlowNetwork &network, const maxflow::Result &result) {
  std::string out = "s " + std::to_string(result.value) + "\n";
  out.reserve(out.size() + network.num_arcs() * 24);
  for (std::uint64_t i = 0; i < network.num_arcs(); ++i) {
    out += "f ";
    out += std::to_string(std::uint64_t{network.arc_tail(i)} + 1);
    out += ' ';
    out += std::to_string(std::uint64_t{network.arc_head(i)} + 1);
    out += ' ';
    out += std::to_string(result.flows[i]);
    out += '\n';
  }
  return out;
}

int main_impl(int argc, char **argv) {
  Args args;
  Algo algo{};
  if (std::optional<int> status = dd::tools::open_command("dd-maxflow", argc, argv, kUsage,
                                                          kValueOptions, kFlagOptions, kAlgos,
                                                          args, algo))
    return *status;
  const std::string &algo_name = args.values.at("algo");
  Reference reference = Reference::kDinic;
  if (args.values.count("reference"))
    if (auto problem = dd::tools::choose(args, "reference", kReferences, reference))
      return fail(*problem);
  std::uint64_t runs = 1;
  std::uint64_t warmup = 1;
  ReadOptions read;
  for (auto problem :
       {get_u64(args, "runs", 1, 1000, runs), get_u64(args, "warmup", 0, 10, warmup),
        get_u64(args, "max-input-bytes", 0, ~std::uint64_t{0}, read.max_stream_bytes)})
    if (problem)
      return fail(*problem);
  if (args.positional.size() != 1)
    return fail(args.positional.empty()
                    ? std::string("no NETWORK given (dd-maxflow --help)")
                    : "expected one NETWORK, got " + std::to_string(args.positional.size()));
  const std::string path = args.positional[0];
  // Checked before reading: nothing is written over a file being read.
  if (auto it = args.values.find("out"); it != args.values.end() && it->second != "-")
    if (Status s = check_output_not_input(it->second, {path}, "--out"); !s.ok())
      return fail(s.message());
  dd::tools::current_file() = path;
  Expected<FlowNetwork> network = read_max_flow(path, read);
  if (!network.ok())
    return fail(network.status().message());

  maxflow::DeviceNetwork device;
  if (algo != Algo::kCpu) {
    int devices = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&devices); err != cudaSuccess || devices == 0)
      return fail(str_cat("no CUDA GPU for --algo=", algo_name, ": ",
                          err != cudaSuccess ? cudaGetErrorString(err) : "no device",
                          " (--algo=cpu runs on the CPU)"));
    if (Status s = device.upload(*network); !s.ok())
      return fail(path + ": " + s.message());
  }

  // Warm-up (GPU only: module loading, first-touch costs and the delegate
  // launcher's first probe), then the runs.
  const std::uint64_t untimed = algo == Algo::kCpu ? 0 : warmup;
  std::vector<double> times;
  Expected<maxflow::Result> result = Status::error("no run");
  for (std::uint64_t i = 0; i < untimed + runs; ++i) {
    result = run_once(algo, *network, device);
    if (!result.ok())
      return fail(path + ": " + result.status().message());
    if (i >= untimed)
      times.push_back(result->ms);
  }
  const double ms = dd::tools::median(times);

  std::fprintf(stderr,
               "dd-maxflow: algo=%s runs=%llu vertices=%llu arcs=%llu rounds=%llu "
               "global_relabels=%llu launches=%llu relabel_ms=%.3f\n",
               algo_name.c_str(), (unsigned long long)runs,
               (unsigned long long)network->num_vertices(), (unsigned long long)network->num_arcs(),
               (unsigned long long)result->rounds, (unsigned long long)result->global_relabels,
               (unsigned long long)result->launches, result->relabel_ms);

  if (args.flags.count("verify")) {
    if (auto problem = verify(*network, *result, reference))
      return fail(path + ": " + *problem);
    std::fprintf(stderr, "dd-maxflow: verified: a feasible, maximum flow of %lld = %s\n",
                 (long long)result->value,
                 reference == Reference::kDinic ? "its cut's capacity = Dinic's"
                                                : "its cut's capacity");
  }

  bool result_to_stderr = false;
  if (auto it = args.values.find("out"); it != args.values.end()) {
    const std::string text = format_flow(*network, *result);
    if (it->second == "-") {
      result_to_stderr = true;
      if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
          std::fflush(stdout) != 0)
        return fail("cannot write to standard output");
    } else if (Status s = write_file(it->second, text); !s.ok()) {
      return fail(s.message());
    }
  }
  std::fprintf(result_to_stderr ? stderr : stdout, "flow %lld time_ms %.3f\n",
               (long long)result->value, ms);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  dd::tools::exit_when_out_of_memory("dd-maxflow");
  return main_impl(argc, argv);
}
