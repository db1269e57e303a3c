// split_bench: hand-split kernels (one producer warp + the original block of
// consumer warps, through dd::AffineQueue / dd::StageRing) against the
// originals they come from, on one GPU in one process. What the affine-stream
// split pass would generate, written by hand to decide whether it can win.
//
//   split_bench [--only fig33,stencil,spmv,gather,matvec,kmeans,probes]
//               [--reps N] [--warmup N] [--quick] [--carveout PCT] [--out DIR]
//
// For every kernel: first the checks (each variant's output against the
// original's, word for word, on several sizes, some not multiples of the
// block, outputs poisoned with 0xff bytes before each run), then the timing
// on one large size (CUDA events around each launch, --warmup runs, then
// --reps rounds in which every variant runs once, input/output sets rotating
// so that together they exceed the L2 three times; median). --quick runs
// the small checks only (for compute-sanitizer). --carveout sets the
// preferred shared-memory carveout of every split kernel (percent; default:
// the driver's choice). The probes (probes.cuh) measure the ring apart from
// the kernels: round-trip latency, streaming throughput, residency.
//
// Bandwidth is the fewest bytes each kernel must move through DRAM (each
// input read once, each output written once; 32-byte sectors for the
// gather) over the median time, against a device-to-device cudaMemcpy
// measured in the same run (bytes read + bytes written). Speedup is the
// original's median over the variant's (> 1: faster).
//
// Exit status 1 if any check differs.

#include "fig33.cuh"
#include "gather.cuh"
#include "kmeans.cuh"
#include "matvec.cuh"
#include "probes.cuh"
#include "spmv_ell.cuh"
#include "stencil.cuh"

#include <cstring>

namespace {

using namespace split;

/// Device-to-device copy of `bytes`, median of `reps` runs: GB/s counting
/// bytes read plus bytes written.
double copy_ceiling_gbs(std::size_t bytes, int reps) {
  DeviceArray<char> a(bytes), b(bytes);
  DD_CUDA_CHECK(cudaMemset(a.ptr, 1, bytes));
  DD_CUDA_CHECK(cudaMemset(b.ptr, 2, bytes));
  cudaEvent_t s, e;
  DD_CUDA_CHECK(cudaEventCreate(&s));
  DD_CUDA_CHECK(cudaEventCreate(&e));
  std::vector<float> ms;
  for (int r = 0; r < reps + 2; ++r) {
    DD_CUDA_CHECK(cudaEventRecord(s));
    DD_CUDA_CHECK(cudaMemcpyAsync(r % 2 ? a.ptr : b.ptr, r % 2 ? b.ptr : a.ptr, bytes,
                               cudaMemcpyDeviceToDevice));
    DD_CUDA_CHECK(cudaEventRecord(e));
    DD_CUDA_CHECK(cudaEventSynchronize(e));
    float t;
    DD_CUDA_CHECK(cudaEventElapsedTime(&t, s, e));
    if (r >= 2)
      ms.push_back(t);
  }
  DD_CUDA_CHECK(cudaEventDestroy(s));
  DD_CUDA_CHECK(cudaEventDestroy(e));
  std::sort(ms.begin(), ms.end());
  return 2.0 * double(bytes) / ms[ms.size() / 2] * 1e-6;
}

} // namespace

int main(int argc, char **argv) {
  Bench b;
  std::string out_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--only")
      b.only = next();
    else if (a == "--reps")
      b.reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--warmup")
      b.warmup = std::max(0, std::atoi(next().c_str()));
    else if (a == "--quick")
      b.quick = true;
    else if (a == "--carveout")
      b.carveout = std::atoi(next().c_str());
    else if (a == "--out")
      out_dir = next();
    else {
      std::fprintf(stderr, "usage: %s [--only K,...] [--reps N] [--warmup N] [--quick] [--carveout PCT] [--out DIR]\n",
                   argv[0]);
      return 2;
    }
  }

  int dev = 0;
  DD_CUDA_CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  DD_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  int sm_clock_khz = 0, mem_clock_khz = 0, bus_bits = 0;
  cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, dev);
  cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, dev);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev);
  b.l2_bytes = prop.l2CacheSize;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("# %s, sm_%d%d, %d SMs, L2 %.0f MB, %zu KB shared/SM, driver %d, runtime %d\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount, b.l2_bytes / 1e6,
              prop.sharedMemPerMultiprocessor / 1024, driver, runtime);
#if defined(DD_AFFINE_QUEUE_NO_BULK)
  std::printf("# built with DD_AFFINE_QUEUE_NO_BULK: contiguous tiles by 16-byte cp.async\n");
#endif
#if defined(DD_AFFINE_QUEUE_POLL)
  std::printf("# built with DD_AFFINE_QUEUE_POLL: waits poll (test_wait)\n");
#endif
  double copy_gbs = 0;
  if (!b.quick) {
    copy_gbs = copy_ceiling_gbs(std::size_t(1) << 30, 10);
    std::printf("# device-to-device copy (1 GiB, median of 10): %.0f GB/s (read + write)\n",
                copy_gbs);
  }

  fig33_bench(b);
  stencil_bench(b);
  spmv_bench(b);
  gather_bench(b);
  matvec_bench(b);
  kmeans_bench(b);
  std::vector<ProbeRow> probes;
  probes_bench(b, probes, b.carveout);

  int failed = 0;
  for (auto &c : b.checks)
    failed += c.diff != 0;
  std::printf("\n# checks: %zu comparisons, %d differ\n", b.checks.size(), failed);

  if (!b.rows.empty()) {
    std::string table;
    table += fmt("\n# %s, %d SMs; copy ceiling %.0f GB/s; median of %d runs after %d warm-up\n\n",
                 prop.name, prop.multiProcessorCount, copy_gbs, b.reps, b.warmup);
    table += "| kernel | size | variant | median ms | IQR % | GB/s | % of copy | speedup | "
             "blocks/SM | warps/SM | regs | smem B |\n";
    table += "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (auto &r : b.rows) {
      const double gbs = r.bytes / r.median_ms * 1e-6;
      table += fmt("| %s | %s | %s | %.4f | %.1f | %.0f | %.0f | %.2f | %d | %d | %d | %zu |\n",
                   r.kernel.c_str(), r.size.c_str(), r.variant.c_str(), r.median_ms,
                   100.0 * (r.p75_ms - r.p25_ms) / r.median_ms, gbs, 100.0 * gbs / copy_gbs,
                   r.speedup, r.blocks_per_sm, r.blocks_per_sm * int((r.threads + 31) / 32),
                   r.regs, r.smem);
    }
    if (b.carveout >= 0)
      table += fmt("\n(split kernels with preferred shared-memory carveout %d%%)\n", b.carveout);
    if (!probes.empty()) {
      table += "\n| probe | configuration | value | unit |\n|---|---|---:|---|\n";
      for (auto &r : probes)
        table += fmt("| %s | %s | %.1f | %s |\n", r.probe.c_str(), r.config.c_str(), r.value,
                     r.unit.c_str());
    }
    std::printf("%s", table.c_str());
    if (!out_dir.empty()) {
      if (FILE *f = std::fopen((out_dir + "/split_bench.md").c_str(), "w")) {
        std::fputs(table.c_str(), f);
        std::fclose(f);
      }
    }
  }
  return failed ? 1 : 0;
}
