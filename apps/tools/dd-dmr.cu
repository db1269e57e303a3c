// dd-dmr: Delaunay mesh refinement (Chew/Ruppert) of a Triangle .node/.ele
// mesh until no triangle has an angle below --min-angle: on the GPU in
// rounds whose workers own their cavities by compare-and-swap locks (the
// LonestarGPU-style baseline) or by the morph paper's atomic-free 3-phase
// marking, or on the CPU; timed, and optionally verified.
//
// Every failure prints one "dd-dmr: error: ..." line (mesh errors name the
// file and the line) and exits with status 1; the --out files are written
// whole (graph/file.h), and only when everything succeeded (verification
// included).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "dmr/mesh.h"
#include "dmr/refine.h"
#include "dmr/refine_gpu.h"
#include "dmr/triangle_io.h"
#include "dmr/verify.h"
#include "graph/file.h"
#include "command_line.h"

namespace {

using dd::graph::check_output_not_input;
using dd::graph::Expected;
using dd::graph::Status;
using dd::graph::str_cat;
using dd::tools::Args;
using dd::tools::format_real;
using dd::tools::get_real;
using dd::tools::get_u64;
using dd::tools::median;
namespace dmr = dd::dmr;

constexpr const char *kUsage = R"(usage: dd-dmr --algo=A [options] MESH

Delaunay mesh refinement (Chew's and Ruppert's algorithms) of MESH, Triangle's
BASE.node and BASE.ele (MESH may be BASE, BASE.node or BASE.ele; `dd-graph
generate mesh` writes random ones): until no triangle has an angle below
--min-angle, bad triangles are fixed by inserting their circumcenter (or the
midpoint of a boundary edge it encroaches) and retriangulating its cavity;
timed, optionally verified. See docs/dmr.md.

Algorithms (--algo=A): on the GPU in rounds, a worker per bad triangle
(the same worklist, steps and growth for all of them)
  atomic       atomic marks (the baseline): a worker marks every triangle it
               reads with atomicMax of its priority, owns its cavity when
               all marks are its own after the race, and allocates its new
               triangles and point with atomicAdd; three kernels a round
  pass         atomic with its race kernel rewritten by `decoupler
               --passes=atomics` from its `monotonic` annotation: the
               atomicMax becomes a guarded relaxed store (docs/dmr.md)
  free         the morph paper's race / priority check / check: the same
               marks with plain stores and a priority phase instead of
               atomicMax (the kernel boundaries are the barriers), new
               triangles and points from a prefix sum (atomic-free)
  barrier      free in one cooperative launch a round, grid barriers
               between the phases (the atomic-free paper's persistent
               threads): a thread keeps its cavity from the race to the
               apply, which does not walk the mesh again; as many blocks
               as fit at once, workers in passes of the grid's size
  locks        a compare-and-swap try-lock per triangle, all given back on
               a conflict, atomicAdd allocation; one kernel a round, but
               every worker of a conflict backs off (docs/dmr.md)
  cpu          the CPU reference, one step at a time in first-in first-out
               order (needs no GPU)

Options:
  --algo=A           the algorithm (required)
  --min-angle=DEG    the smallest angle allowed, in degrees, in (0, 33]
                     (default 30). Termination is proved up to about 20.7
                     degrees; in practice Delaunay refinement terminates up
                     to about 33 (Triangle's documentation), the mesh
                     growing steeply near it (a random square of 40006
                     triangles: 196398 at 30 degrees, 897622 at 33), and
                     does not at 33.5 and above
  --max-rounds=N     GPU: rounds before giving up with an error (default
                     100000); cpu: steps, after which the bad triangles left
                     are reported (default: no limit)
  --max-workers=N    GPU: workers per round at most (default 1048576)
  --block-size=N     GPU: threads per block, a multiple of 32 in [32, 1024]
                     (default 128)
  --max-blocks=N     barrier: blocks at most (default: as many as fit on
                     the GPU at once, which is also the most allowed); a
                     smaller grid takes a round's workers in more passes
  --out=BASE         write the refined mesh as BASE.node and BASE.ele (0-based,
                     free slots dropped, the input's points first, in order).
                     Written only when everything (--verify too) succeeded,
                     each file whole. It may not be the input
  --verify           check the refined mesh against MESH: a valid
                     triangulation (counter-clockwise triangles, symmetric
                     adjacency, a manifold), Delaunay within a relative
                     tolerance of 1e-9, every input point a vertex, the same
                     area and boundary, and no bad triangle left. A failure
                     is an error (status 1)
  --runs=N           refine N fresh copies of MESH and report the median time
                     (default 1); GPU algorithms run once more before,
                     untimed (warm-up)
  --verbose          a progress line per GPU round on standard error
  --help             this text

The last line of standard output is the result:
  triangles T points P inserted I rounds R bad_left B refine_ms MS
T, P: the refined mesh (the last run); I: points inserted; R: GPU rounds (0
on the CPU); B: bad triangles left (0 unless steps were refused: a cavity
above the step's bound, or rounding); MS: the median run's refinement time
(GPU: CUDA events around the rounds, the mesh already on the device and not
copied back; CPU: the host clock). Standard error gets one line
"dd-dmr: algo=A runs=N input_triangles=T0 input_points=P0 bad_at_start=B0
min_angle=DEG split_edges=S conflicts=C overflows=O too_big=G degenerate=D
serial_rounds=SR" of the last run; C counts the steps that backed off
because another worker owned a triangle, O those that needed more triangles
than a worker may own in a parallel round (a serial round does them).
With --algo=barrier a second line "dd-dmr: barrier grid_threads=N
passes=P": the cooperative grid's threads (the most a pass takes) and the
passes of all rounds.
)";

int fail(const std::string &message) {
  std::fprintf(stderr, "dd-dmr: error: %s\n", message.c_str());
  return 1;
}

const std::set<std::string> kValueOptions = {"algo",        "out",        "runs",
                                             "min-angle",   "max-rounds", "max-workers",
                                             "block-size",  "max-blocks"};
const std::set<std::string> kFlagOptions = {"verify", "verbose", "help"};

enum class Algo { kLocks, kAtomic, kPass, kFree, kBarrier, kCpu };

// The values of --algo.
const dd::tools::Choice<Algo> kAlgos[] = {
    {"locks", Algo::kLocks}, {"atomic", Algo::kAtomic}, {"pass", Algo::kPass},
    {"free", Algo::kFree},   {"barrier", Algo::kBarrier}, {"cpu", Algo::kCpu}};

int main_impl(int argc, char **argv) {
  Args args;
  Algo algo{};
  if (std::optional<int> status = dd::tools::open_command("dd-dmr", argc, argv, kUsage,
                                                          kValueOptions, kFlagOptions, kAlgos,
                                                          args, algo))
    return *status;
  const std::string &algo_name = args.values.at("algo");
  std::uint64_t runs = 1, max_rounds = 0, max_workers = std::uint64_t{1} << 20, block_size = 128,
                max_blocks = 0;
  double min_angle = 30;
  for (auto problem : {get_u64(args, "runs", 1, 1000, runs),
                       get_u64(args, "max-rounds", 1, 1000000000, max_rounds),
                       get_u64(args, "max-workers", 1, std::uint64_t{1} << 28, max_workers),
                       get_u64(args, "block-size", 32, 1024, block_size),
                       get_u64(args, "max-blocks", 1, 1u << 20, max_blocks),
                       get_real(args, "min-angle", 0.0, false, 33.0, min_angle)})
    if (problem)
      return fail(*problem);
  if (block_size % 32 != 0)
    return fail(str_cat("--block-size=", args.values.at("block-size"),
                        " is not a multiple of 32"));
  if (args.positional.size() != 1)
    return fail(args.positional.empty()
                    ? std::string("no MESH given (dd-dmr --help)")
                    : "expected one MESH, got " + std::to_string(args.positional.size()));
  const std::string path = args.positional[0];
  const std::string in_base = dmr::mesh_base(path);
  // Checked before reading: nothing is written over a file being read.
  if (auto it = args.values.find("out"); it != args.values.end()) {
    const std::string out_base = dmr::mesh_base(it->second);
    if (out_base.empty())
      return fail("--out needs a BASE (BASE.node and BASE.ele are written)");
    for (const char *ext : {".node", ".ele"})
      if (Status s = check_output_not_input(out_base + ext,
                                            {in_base + ".node", in_base + ".ele"}, "--out");
          !s.ok())
        return fail(s.message());
  }
  dd::tools::current_file() = path;
  Expected<dmr::Mesh> input = dmr::read_mesh(path);
  if (!input.ok())
    return fail(input.status().message());
  // Cavity refinement keeps a mesh Delaunay only if it starts Delaunay; on
  // any other input its output would be wrong without a word.
  if (dd::graph::Status s = dmr::check_delaunay(*input, in_base + ".ele"); !s.ok())
    return fail(s.message() + " (dd-dmr refines Delaunay meshes; Triangle writes them)");

  dmr::GpuOptions options;
  options.cos2_min = dmr::cos2_of_degrees(min_angle);
  options.max_rounds = static_cast<std::int64_t>(max_rounds);
  options.max_workers = static_cast<std::int64_t>(max_workers);
  options.block_size = static_cast<int>(block_size);
  options.max_blocks = static_cast<int>(max_blocks);
  options.verbose = args.flags.count("verbose") != 0;
  const std::int64_t bad_at_start = dmr::count_bad(*input, options.cos2_min);

  if (algo != Algo::kCpu) {
    int devices = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&devices); err != cudaSuccess || devices == 0)
      return fail(str_cat("no CUDA GPU for --algo=", algo_name, ": ",
                          err != cudaSuccess ? cudaGetErrorString(err) : "no device",
                          " (--algo=cpu runs on the CPU)"));
  }
  const dmr::GpuAlgo gpu_algo = algo == Algo::kLocks    ? dmr::GpuAlgo::kLocks
                                : algo == Algo::kAtomic ? dmr::GpuAlgo::kAtomic
                                : algo == Algo::kPass   ? dmr::GpuAlgo::kPass
                                : algo == Algo::kFree   ? dmr::GpuAlgo::kFree
                                                        : dmr::GpuAlgo::kBarrier;

  // Warm-up (GPU only: module loading, first-touch costs), then the runs,
  // each on a fresh copy of the input.
  std::vector<double> times;
  dmr::Mesh mesh;
  dmr::RefineStats stats;
  for (std::uint64_t i = (algo == Algo::kCpu ? 1 : 0); i <= runs; ++i) {
    mesh = *input;
    if (algo == Algo::kCpu) {
      stats = dmr::refine_cpu(mesh, options);
    } else {
      Expected<dmr::RefineStats> result = dmr::refine_gpu(mesh, gpu_algo, options);
      if (!result.ok())
        return fail(path + ": " + result.status().message());
      stats = *result;
    }
    if (i > 0)
      times.push_back(stats.refine_ms);
  }
  dmr::compact(mesh, input->num_points());

  std::fprintf(stderr,
               "dd-dmr: algo=%s runs=%llu input_triangles=%lld input_points=%lld "
               "bad_at_start=%lld min_angle=%s split_edges=%lld conflicts=%lld overflows=%lld "
               "too_big=%lld degenerate=%lld serial_rounds=%lld\n",
               algo_name.c_str(), (unsigned long long)runs, (long long)input->num_triangles(),
               (long long)input->num_points(), (long long)bad_at_start,
               format_real(min_angle).c_str(), (long long)stats.split_edges,
               (long long)stats.conflicts, (long long)stats.overflows, (long long)stats.too_big,
               (long long)stats.degenerate, (long long)stats.serial_rounds);
  if (algo == Algo::kBarrier)
    std::fprintf(stderr, "dd-dmr: barrier grid_threads=%lld passes=%lld\n",
                 (long long)stats.grid_threads, (long long)stats.passes);

  if (args.flags.count("verify")) {
    Expected<dmr::VerifySummary> summary =
        dmr::verify_refined(*input, mesh, options.cos2_min);
    if (!summary.ok())
      return fail(path + ": verification failed: " + summary.status().message());
    std::fprintf(stderr,
                 "dd-dmr: verified: %lld triangles, %lld points, smallest angle %.4f degrees, "
                 "Delaunay within %.3g (tolerance %g); every input point a vertex, the same "
                 "area and boundary; no bad triangle\n",
                 (long long)summary->triangles, (long long)summary->points,
                 summary->min_angle_degrees, summary->worst_delaunay, dmr::kDelaunayTolerance);
  }

  if (auto it = args.values.find("out"); it != args.values.end())
    if (Status s = dmr::write_mesh(dmr::mesh_base(it->second), mesh,
                                   str_cat("refined by dd-dmr --algo=", algo_name,
                                           " --min-angle=", format_real(min_angle)));
        !s.ok())
      return fail(s.message());
  std::printf("triangles %lld points %lld inserted %lld rounds %lld bad_left %lld refine_ms %.3f\n",
              (long long)mesh.num_triangles(), (long long)mesh.num_points(),
              (long long)stats.inserted, (long long)stats.rounds, (long long)stats.bad_left,
              median(times));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  dd::tools::exit_when_out_of_memory("dd-dmr");
  return main_impl(argc, argv);
}
