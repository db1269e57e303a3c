// atomics_bench: plain CUDA atomics against the runtime's aggregated ones
// (dd/atomics.cuh) and against the kernels as the decoupler tool rewrites
// them, in one process on one GPU.
//
//   atomics_bench [--graphs DIR] [--out DIR] [--reps N] [--warmup N]
//                 [--keys N] [--kron-scale S] [--only hist,inc,spmv,sssp,sssp-nocheck]
//
// Benchmarks (one thread per element, 256 threads per block everywhere):
//   hist    bins[key]++ over --keys keys (default 2^24), 1..64K bins,
//           uniform and Zipf(1.0) keys; three key sets rotate between
//           repetitions (each 64 MiB, more than the 60 MB L2 together)
//   inc     the same histogram with atomicInc(bin, 1000) (wrapping counters)
//   spmv    y[row] += val * x[col], COO in row order, on the graphs of
//           --graphs and a Kronecker graph of scale --kron-scale
//   sssp    topology-driven Bellman-Ford, one thread per edge, re-launched
//           until a round changes nothing; atomicMin against
//           dd::monotonic_min; distances checked against CPU Dijkstra
//   sssp-nocheck  the same without the kernel's check before its atomicMin
//           (naive, and auto: the pass's filtered atomic)
// Columns: naive (kernels.cu), SR, VR, SR+SS (SR over warps reordered by
// dd::scatter_remap), monotonic (SSSP), auto (kernels.cu through decoupler,
// when the build made one). Each: median of --reps timed runs (CUDA events
// around the kernel, or around the whole fixed-point loop for SSSP) after
// --warmup runs; the columns of one row alternate run by run. Reported as
// naive time / column time (> 1: faster than naive). Every column's result
// is checked: histograms exactly, SpMV within the float reordering bound,
// SSSP exactly against Dijkstra.
//
// Writes the Markdown table to stdout (last) and, with --out, the table to
// DIR/atomics_bench.md and every timed run to DIR/atomics_bench_raw.csv.

#include <dd/atomics.cuh>
#include <dd/scatter_remap.h>

#include "graph/generators.h"
#include "graph/graph_io.h"
#include "graph/reference.h"
#include "graph/weights.h"
#include "variants.cuh"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <dd/cuda_check.h>

// The launchers of kernels.cu, compiled once as is (naive) and, when the
// build ran decoupler, once rewritten (autorw).
#define DD_BENCH_DECLARE_KERNELS(NS)                                                     \
  namespace NS {                                                                         \
  void launch_histogram(const unsigned *keys, unsigned n, unsigned *bins);               \
  void launch_histogram_inc(const unsigned *keys, unsigned n, unsigned *bins,            \
                            unsigned limit);                                             \
  void launch_spmv_coo(const unsigned *rows, const unsigned *cols, const float *vals,    \
                       const float *x, float *y, unsigned nnz);                          \
  void launch_sssp_relax(const unsigned *src, const unsigned *dst,                       \
                         const unsigned *weight, unsigned *dist, unsigned m,             \
                         int *changed);                                                  \
  void launch_sssp_relax_nocheck(const unsigned *src, const unsigned *dst,               \
                                 const unsigned *weight, unsigned *dist, unsigned m,     \
                                 int *changed);                                          \
  }
DD_BENCH_DECLARE_KERNELS(naive)
#if defined(DD_BENCH_HAVE_AUTO)
DD_BENCH_DECLARE_KERNELS(autorw)
#endif

namespace {

using variants::blocks_for;
using variants::kBlock;

struct Options {
  std::string graphs = "../shared/data/graphs";
  std::string out;
  int reps = 25;
  int warmup = 3;
  unsigned keys = 1u << 24;
  unsigned kron_scale = 20;
  std::string only = "hist,inc,spmv,sssp,sssp-nocheck";
  bool wants(const char *what) const { return ("," + only + ",").find(std::string(",") + what + ",") != std::string::npos; }
};

// Counter-based random numbers (SplitMix64 finalizer), host and device.
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
__host__ __device__ inline double unit(std::uint64_t h) { return (h >> 11) * 0x1.0p-53; }

// ---------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------
const char *const kColumns[] = {"naive", "SR", "VR", "SR+SS", "monotonic", "auto"};

struct Column {
  std::string name;
  std::function<void(int)> setup; // before the start event (resets)
  std::function<void(int)> run;   // timed
  std::vector<float> ms;
};

struct Row {
  std::string bench, input, note;
  std::map<std::string, double> median_ms;
  bool ok = true;
};

std::vector<Row> g_rows;
std::vector<std::string> g_raw; // bench,input,column,rep,ms

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Times every column warmup + reps times, alternating columns run by run so
/// that clock and thermal drift hit them alike.
void time_columns(std::vector<Column> &cols, const Options &opt) {
  cudaEvent_t start, stop;
  DD_CUDA_CHECK(cudaEventCreate(&start));
  DD_CUDA_CHECK(cudaEventCreate(&stop));
  for (int r = 0; r < opt.warmup + opt.reps; ++r)
    for (Column &c : cols) {
      if (c.setup)
        c.setup(r);
      DD_CUDA_CHECK(cudaEventRecord(start));
      c.run(r);
      DD_CUDA_CHECK(cudaEventRecord(stop));
      DD_CUDA_CHECK(cudaEventSynchronize(stop));
      DD_CUDA_CHECK(cudaGetLastError());
      float ms = 0;
      DD_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (r >= opt.warmup)
        c.ms.push_back(ms);
    }
  DD_CUDA_CHECK(cudaEventDestroy(start));
  DD_CUDA_CHECK(cudaEventDestroy(stop));
}

void record(Row row, const std::vector<Column> &cols) {
  for (const Column &c : cols) {
    row.median_ms[c.name] = median(c.ms);
    for (std::size_t i = 0; i < c.ms.size(); ++i) {
      char buf[64];
      std::snprintf(buf, sizeof buf, ",%zu,%.6f", i, c.ms[i]);
      g_raw.push_back(row.bench + "," + row.input + "," + c.name + buf);
    }
  }
  std::printf("  %-6s %-28s", row.bench.c_str(), row.input.c_str());
  for (const Column &c : cols)
    std::printf(" %s=%.4fms", c.name.c_str(), row.median_ms[c.name]);
  std::printf(" %s%s%s\n", row.ok ? "ok" : "WRONG", row.note.empty() ? "" : " ", row.note.c_str());
  std::fflush(stdout);
  g_rows.push_back(std::move(row));
}

template <class T> T *device_copy(const std::vector<T> &v) {
  T *d = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&d, std::max<std::size_t>(1, v.size()) * sizeof(T)));
  if (!v.empty())
    DD_CUDA_CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T> std::vector<T> host_copy(const T *d, std::size_t n) {
  std::vector<T> v(n);
  if (n)
    DD_CUDA_CHECK(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// ---------------------------------------------------------------------------
// Histograms
// ---------------------------------------------------------------------------
__global__ void gen_keys(unsigned *keys, unsigned n, unsigned bins, const double *cdf,
                         std::uint64_t seed) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const std::uint64_t h = mix64(seed ^ mix64(i));
  if (!cdf) { // uniform: the high 32 bits scaled to [0, bins)
    keys[i] = static_cast<unsigned>(((h >> 32) * bins) >> 32);
    return;
  }
  const double u = unit(h); // Zipf: first bin whose cdf exceeds u
  unsigned lo = 0, hi = bins - 1;
  while (lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    if (cdf[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  keys[i] = lo;
}

struct KeySets {
  static constexpr int kSets = 3;
  unsigned *keys[kSets] = {};
  unsigned *remap[kSets] = {};
  unsigned long long remap_warps = 0;
  double remap_host_ms = 0; // per set, wall clock of the host pre-pass
  ~KeySets() {
    for (int s = 0; s < kSets; ++s) {
      cudaFree(keys[s]);
      cudaFree(remap[s]);
    }
  }
};

/// Three key sets of n keys over `bins` bins, and their scatter remaps
/// (computed on the host in parallel: the pre-pass is not timed, its cost
/// is reported separately).
void make_keys(KeySets &ks, unsigned n, unsigned bins, bool zipf, std::uint64_t seed) {
  double *d_cdf = nullptr;
  if (zipf) {
    std::vector<double> cdf(bins);
    double total = 0;
    for (unsigned k = 0; k < bins; ++k)
      total += 1.0 / (k + 1.0);
    double acc = 0;
    for (unsigned k = 0; k < bins; ++k) {
      acc += 1.0 / (k + 1.0) / total;
      cdf[k] = acc;
    }
    cdf[bins - 1] = 2.0; // every u < 1 lands somewhere
    d_cdf = device_copy(cdf);
  }
  std::vector<std::vector<unsigned>> host(KeySets::kSets);
  for (int s = 0; s < KeySets::kSets; ++s) {
    DD_CUDA_CHECK(cudaMalloc(&ks.keys[s], std::size_t{n} * sizeof(unsigned)));
    gen_keys<<<blocks_for(n), kBlock>>>(ks.keys[s], n, bins, d_cdf, seed * 31 + s);
    DD_CUDA_CHECK(cudaGetLastError());
    host[s] = host_copy(ks.keys[s], n);
  }
  cudaFree(d_cdf);
  std::vector<std::vector<std::uint32_t>> remaps(KeySets::kSets);
  std::vector<double> took(KeySets::kSets);
  std::vector<std::thread> threads;
  for (int s = 0; s < KeySets::kSets; ++s)
    threads.emplace_back([&, s] {
      const double t0 = now_ms();
      remaps[s] = dd::scatter_remap_threads(host[s].data(), host[s].size());
      took[s] = now_ms() - t0;
    });
  for (std::thread &t : threads)
    t.join();
  ks.remap_warps = remaps[0].size();
  ks.remap_host_ms = *std::max_element(took.begin(), took.end());
  for (int s = 0; s < KeySets::kSets; ++s)
    ks.remap[s] = device_copy(remaps[s]);
}

void bench_histogram(const Options &opt, bool zipf, unsigned bins) {
  const unsigned n = opt.keys;
  KeySets ks;
  make_keys(ks, n, bins, zipf, 1000 + bins * 2 + zipf);
  unsigned *d_bins = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&d_bins, std::size_t{bins} * sizeof(unsigned)));
  auto reset = [&](int) { DD_CUDA_CHECK(cudaMemsetAsync(d_bins, 0, std::size_t{bins} * sizeof(unsigned))); };
  auto keys = [&](int r) { return ks.keys[r % KeySets::kSets]; };

  std::vector<Column> cols;
  cols.push_back({"naive", reset, [&](int r) { naive::launch_histogram(keys(r), n, d_bins); }, {}});
  cols.push_back({"SR", reset, [&](int r) {
                    variants::histogram<variants::SR, false><<<blocks_for(n), kBlock>>>(keys(r), n, d_bins, nullptr, 0);
                  }, {}});
  cols.push_back({"VR", reset, [&](int r) {
                    variants::histogram<variants::VR, false><<<blocks_for(n), kBlock>>>(keys(r), n, d_bins, nullptr, 0);
                  }, {}});
  cols.push_back({"SR+SS", reset, [&](int r) {
                    variants::histogram<variants::SR, true><<<blocks_for(ks.remap_warps * 32), kBlock>>>(
                        keys(r), n, d_bins, ks.remap[r % KeySets::kSets], ks.remap_warps);
                  }, {}});
#if defined(DD_BENCH_HAVE_AUTO)
  cols.push_back({"auto", reset, [&](int r) { autorw::launch_histogram(keys(r), n, d_bins); }, {}});
#endif
  time_columns(cols, opt);

  // Check: every column's bins equal naive's on key set 0, and sum to n.
  Row row{"hist", std::string(zipf ? "zipf" : "uniform") + " " + std::to_string(bins) + " bins", "", {}, true};
  std::vector<unsigned> want;
  for (Column &c : cols) {
    c.setup(0);
    c.run(0);
    DD_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> got = host_copy(d_bins, bins);
    if (want.empty()) {
      want = got;
      unsigned long long sum = 0;
      for (unsigned v : got)
        sum += v;
      if (sum != n) {
        row.ok = false;
        row.note += "naive bins sum to " + std::to_string(sum) + "; ";
      }
    } else if (got != want) {
      row.ok = false;
      row.note += c.name + " bins differ; ";
    }
  }
  char note[96];
  std::snprintf(note, sizeof note, "remap pre-pass %.0f ms per key set (host)", ks.remap_host_ms);
  row.note += note;
  record(std::move(row), cols);
  cudaFree(d_bins);
}

void bench_histogram_inc(const Options &opt, unsigned bins) {
  const unsigned n = opt.keys, limit = 1000;
  KeySets ks;
  make_keys(ks, n, bins, false, 5000 + bins);
  unsigned *d_bins = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&d_bins, std::size_t{bins} * sizeof(unsigned)));
  auto reset = [&](int) { DD_CUDA_CHECK(cudaMemsetAsync(d_bins, 0, std::size_t{bins} * sizeof(unsigned))); };
  auto keys = [&](int r) { return ks.keys[r % KeySets::kSets]; };
  std::vector<Column> cols;
  cols.push_back({"naive", reset, [&](int r) { naive::launch_histogram_inc(keys(r), n, d_bins, limit); }, {}});
  cols.push_back({"SR", reset, [&](int r) {
                    variants::histogram_inc<variants::SR><<<blocks_for(n), kBlock>>>(keys(r), n, d_bins, limit);
                  }, {}});
  cols.push_back({"VR", reset, [&](int r) {
                    variants::histogram_inc<variants::VR><<<blocks_for(n), kBlock>>>(keys(r), n, d_bins, limit);
                  }, {}});
#if defined(DD_BENCH_HAVE_AUTO)
  cols.push_back({"auto", reset, [&](int r) { autorw::launch_histogram_inc(keys(r), n, d_bins, limit); }, {}});
#endif
  time_columns(cols, opt);
  Row row{"inc", "uniform " + std::to_string(bins) + " bins", "", {}, true};
  std::vector<unsigned> want;
  for (Column &c : cols) {
    c.setup(0);
    c.run(0);
    DD_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> got = host_copy(d_bins, bins);
    if (want.empty()) want = got;
    else if (got != want) {
      row.ok = false;
      row.note += c.name + " counters differ; ";
    }
  }
  record(std::move(row), cols);
  cudaFree(d_bins);
}

// ---------------------------------------------------------------------------
// Graphs: SpMV and SSSP
// ---------------------------------------------------------------------------
struct Graph {
  std::string name;
  dd::graph::Csr csr; // with int32 weights in [1, 255]
};

bool load_graphs(const Options &opt, std::vector<Graph> &graphs) {
  struct File {
    const char *name, *file;
    bool base1, symmetrize, undirected;
  };
  const File files[] = {
      {"chesapeake", "chesapeake.mtx", false, false, true},
      {"wiki-Vote", "wiki-Vote.txt", false, false, false},
      {"luxembourg_osm", "luxembourg_osm.edges", true, true, true},
  };
  for (const File &f : files) {
    dd::graph::ReadOptions ro;
    ro.index_base = f.base1 ? 1 : 0;
    ro.symmetrize = f.symmetrize;
    const double t0 = now_ms();
    auto g = dd::graph::read_graph(opt.graphs + "/" + f.file, ro);
    if (!g.ok()) {
      std::fprintf(stderr, "atomics_bench: %s\n", g.status().message().c_str());
      return false;
    }
    dd::graph::WeightOptions wo;
    wo.symmetric = f.undirected;
    if (!dd::graph::assign_uniform_weights(*g, wo).ok())
      return false;
    std::printf("# graph %s: %llu vertices, %llu edges (read in %.0f ms)\n", f.name,
                static_cast<unsigned long long>(g->num_vertices()),
                static_cast<unsigned long long>(g->num_edges()), now_ms() - t0);
    graphs.push_back({f.name, std::move(*g)});
  }
  const double t0 = now_ms();
  dd::graph::KroneckerParams kp;
  kp.scale = opt.kron_scale;
  kp.seed = 1;
  auto k = dd::graph::generate_kronecker(kp);
  if (!k.ok()) {
    std::fprintf(stderr, "atomics_bench: %s\n", k.status().message().c_str());
    return false;
  }
  dd::graph::WeightOptions wo;
  wo.symmetric = true;
  if (!dd::graph::assign_uniform_weights(*k, wo).ok())
    return false;
  std::printf("# graph kron%u: %llu vertices, %llu edges (generated in %.0f ms)\n", opt.kron_scale,
              static_cast<unsigned long long>(k->num_vertices()),
              static_cast<unsigned long long>(k->num_edges()), now_ms() - t0);
  graphs.push_back({"kron" + std::to_string(opt.kron_scale), std::move(*k)});
  return true;
}

/// COO arrays of a CSR graph on the device (edges in row order).
struct DeviceCoo {
  unsigned m = 0;
  unsigned *rows = nullptr, *cols = nullptr, *weights = nullptr;
  std::vector<unsigned> h_rows, h_cols, h_weights;
  explicit DeviceCoo(const dd::graph::Csr &g) {
    m = static_cast<unsigned>(g.num_edges());
    h_rows.resize(m);
    for (std::uint64_t v = 0; v < g.num_vertices(); ++v)
      for (std::uint64_t e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e)
        h_rows[e] = static_cast<unsigned>(v);
    h_cols.assign(g.col_indices.begin(), g.col_indices.end());
    h_weights.assign(g.int_weights.begin(), g.int_weights.end());
    rows = device_copy(h_rows);
    cols = device_copy(h_cols);
    weights = device_copy(h_weights);
  }
  ~DeviceCoo() {
    cudaFree(rows);
    cudaFree(cols);
    cudaFree(weights);
  }
};

/// The scatter remap of a launch of one thread per edge, keyed by `keys`.
unsigned *device_remap(const std::vector<unsigned> &keys, unsigned long long &warps, double &ms) {
  const double t0 = now_ms();
  std::vector<std::uint32_t> remap = dd::scatter_remap_threads(keys.data(), keys.size());
  ms = now_ms() - t0;
  warps = remap.size();
  return device_copy(remap);
}

void bench_spmv(const Options &opt, const Graph &g, const DeviceCoo &coo) {
  const unsigned nnz = coo.m, nv = static_cast<unsigned>(g.csr.num_vertices());
  std::vector<float> h_vals(nnz), h_x(nv);
  for (unsigned e = 0; e < nnz; ++e)
    h_vals[e] = static_cast<float>(coo.h_weights[e]) / 256.0f; // exact
  for (unsigned v = 0; v < nv; ++v)
    h_x[v] = static_cast<float>(unit(mix64(42 + v)));
  float *vals = device_copy(h_vals), *x = device_copy(h_x), *y = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&y, std::max(1u, nv) * sizeof(float)));
  unsigned long long remap_warps = 0;
  double remap_ms = 0;
  unsigned *remap = device_remap(coo.h_rows, remap_warps, remap_ms);

  auto reset = [&](int) { DD_CUDA_CHECK(cudaMemsetAsync(y, 0, std::max(1u, nv) * sizeof(float))); };
  std::vector<Column> cols;
  cols.push_back({"naive", reset, [&](int) { naive::launch_spmv_coo(coo.rows, coo.cols, vals, x, y, nnz); }, {}});
  cols.push_back({"SR", reset, [&](int) {
                    variants::spmv_coo<variants::SR, false><<<blocks_for(nnz), kBlock>>>(coo.rows, coo.cols, vals, x, y, nnz, nullptr, 0);
                  }, {}});
  cols.push_back({"VR", reset, [&](int) {
                    variants::spmv_coo<variants::VR, false><<<blocks_for(nnz), kBlock>>>(coo.rows, coo.cols, vals, x, y, nnz, nullptr, 0);
                  }, {}});
  cols.push_back({"SR+SS", reset, [&](int) {
                    variants::spmv_coo<variants::SR, true><<<blocks_for(remap_warps * 32), kBlock>>>(
                        coo.rows, coo.cols, vals, x, y, nnz, remap, remap_warps);
                  }, {}});
#if defined(DD_BENCH_HAVE_AUTO)
  cols.push_back({"auto", reset, [&](int) { autorw::launch_spmv_coo(coo.rows, coo.cols, vals, x, y, nnz); }, {}});
#endif
  time_columns(cols, opt);

  // Check every column against the exact (double) product: a row of d
  // nonzeros sums d rounded products in some order, so its float result is
  // within gamma_{d+1} * sum |val * x| of the exact value (Higham Thm 4.1
  // plus one rounding per product), whatever order the atomics took.
  std::vector<double> exact(nv, 0.0), magnitude(nv, 0.0), terms(nv, 0.0);
  for (unsigned e = 0; e < nnz; ++e) {
    const double t = static_cast<double>(h_vals[e]) * h_x[coo.h_cols[e]];
    exact[coo.h_rows[e]] += t;
    magnitude[coo.h_rows[e]] += std::fabs(t);
    terms[coo.h_rows[e]] += 1;
  }
  Row row{"spmv", g.name, "", {}, true};
  double worst = 0;
  for (Column &c : cols) {
    c.setup(0);
    c.run(0);
    DD_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = host_copy(y, nv);
    for (unsigned v = 0; v < nv; ++v) {
      const double k = terms[v] + 1, u = 0x1.0p-24;
      const double bound = k * u / (1 - k * u) * magnitude[v];
      const double err = std::fabs(got[v] - exact[v]);
      if (!(err <= bound)) {
        row.ok = false;
        row.note += c.name + " row " + std::to_string(v) + " off by " + std::to_string(err) + "; ";
        break;
      }
      if (magnitude[v] > 0)
        worst = std::max(worst, err / magnitude[v]);
    }
  }
  char note[128];
  std::snprintf(note, sizeof note, "%u nnz; max |err|/sum|a x| %.1e; remap pre-pass %.0f ms (host)",
                nnz, worst, remap_ms);
  row.note += note;
  record(std::move(row), cols);
  cudaFree(vals);
  cudaFree(x);
  cudaFree(y);
  cudaFree(remap);
}

/// `nocheck`: the kernel without its check before the atomic
/// (sssp_relax_nocheck), as written (naive) and through the pass (auto: the
/// filtered atomic); the hand-written variants are of the checked kernel.
void bench_sssp(const Options &opt, const Graph &g, const DeviceCoo &coo, bool nocheck) {
  const unsigned m = coo.m, nv = static_cast<unsigned>(g.csr.num_vertices());
  // Source: the vertex of largest out-degree (the first such), so that the
  // search reaches the big component of every graph.
  unsigned source = 0;
  for (unsigned v = 0; v < nv; ++v)
    if (g.csr.degree(v) > g.csr.degree(source))
      source = v;
  const double t0 = now_ms();
  auto ref = dd::graph::dijkstra(g.csr, source);
  const double dijkstra_ms = now_ms() - t0;
  if (!ref.ok()) {
    std::fprintf(stderr, "atomics_bench: dijkstra: %s\n", ref.status().message().c_str());
    std::exit(2);
  }
  std::vector<unsigned> init(nv, 0xffffffffu);
  init[source] = 0;
  unsigned *d_init = device_copy(init), *dist = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&dist, nv * sizeof(unsigned)));
  int *changed = nullptr, *h_changed = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&changed, sizeof(int)));
  DD_CUDA_CHECK(cudaMallocHost(&h_changed, sizeof(int)));
  unsigned long long remap_warps = 0;
  double remap_ms = 0;
  unsigned *remap = device_remap(coo.h_cols, remap_warps, remap_ms); // keyed by destination

  std::map<std::string, int> rounds;
  // The fixed-point loop: one relaxation round per launch until a round
  // reports no change (each round's flag is read back before the next).
  auto fixed_point = [&](const std::string &column, const std::function<void()> &round) {
    int n = 0;
    do {
      DD_CUDA_CHECK(cudaMemsetAsync(changed, 0, sizeof(int)));
      round();
      DD_CUDA_CHECK(cudaMemcpyAsync(h_changed, changed, sizeof(int), cudaMemcpyDeviceToHost));
      DD_CUDA_CHECK(cudaStreamSynchronize(0));
      if (++n > static_cast<int>(nv) + 2) {
        std::fprintf(stderr, "atomics_bench: sssp %s did not converge\n", column.c_str());
        std::exit(2);
      }
    } while (*h_changed);
    rounds[column] = n;
  };
  auto reset = [&](int) {
    DD_CUDA_CHECK(cudaMemcpyAsync(dist, d_init, nv * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  };
  const unsigned *src = coo.rows, *dst = coo.cols, *w = coo.weights;
  std::vector<Column> cols;
  cols.push_back({"naive", reset, [&](int) {
                    fixed_point("naive", [&] {
                      if (nocheck)
                        naive::launch_sssp_relax_nocheck(src, dst, w, dist, m, changed);
                      else
                        naive::launch_sssp_relax(src, dst, w, dist, m, changed);
                    });
                  }, {}});
  // VR: what the pass makes of either kernel without an annotation.
  cols.push_back({"VR", reset, [&](int) {
                    fixed_point("VR", [&] {
                      if (nocheck)
                        variants::sssp_relax<variants::VR, false, false><<<blocks_for(m), kBlock>>>(
                            src, dst, w, dist, m, changed, nullptr, 0);
                      else
                        variants::sssp_relax<variants::VR, false><<<blocks_for(m), kBlock>>>(src, dst, w, dist, m, changed,
                                                                                               nullptr, 0);
                    });
                  }, {}});
  if (!nocheck) {
  cols.push_back({"SR", reset, [&](int) {
                    fixed_point("SR", [&] {
                      variants::sssp_relax<variants::SR, false><<<blocks_for(m), kBlock>>>(src, dst, w, dist, m, changed, nullptr, 0);
                    });
                  }, {}});
  cols.push_back({"SR+SS", reset, [&](int) {
                    fixed_point("SR+SS", [&] {
                      variants::sssp_relax<variants::SR, true><<<blocks_for(remap_warps * 32), kBlock>>>(
                          src, dst, w, dist, m, changed, remap, remap_warps);
                    });
                  }, {}});
  cols.push_back({"monotonic", reset, [&](int) {
                    fixed_point("monotonic", [&] {
                      variants::sssp_relax<variants::Monotonic, false><<<blocks_for(m), kBlock>>>(src, dst, w, dist, m, changed, nullptr, 0);
                    });
                  }, {}});
  }
#if defined(DD_BENCH_HAVE_AUTO)
  cols.push_back({"auto", reset, [&](int) {
                    fixed_point("auto", [&] {
                      if (nocheck)
                        autorw::launch_sssp_relax_nocheck(src, dst, w, dist, m, changed);
                      else
                        autorw::launch_sssp_relax(src, dst, w, dist, m, changed);
                    });
                  }, {}});
#endif
  time_columns(cols, opt);

  Row row{nocheck ? "sssp-nocheck" : "sssp", g.name, "", {}, true};
  std::string iters;
  unsigned long long reached = 0;
  for (Column &c : cols) {
    c.setup(0);
    c.run(0);
    DD_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<unsigned> got = host_copy(dist, nv);
    long wrong = 0;
    for (unsigned v = 0; v < nv; ++v) {
      const std::uint64_t want = (*ref)[v];
      const std::uint64_t have = got[v] == 0xffffffffu ? dd::graph::kInfDistance : got[v];
      if (have != want)
        ++wrong;
      if (c.name == "naive" && want != dd::graph::kInfDistance)
        ++reached;
    }
    if (wrong) {
      row.ok = false;
      row.note += c.name + ": " + std::to_string(wrong) + " distances differ from Dijkstra; ";
    }
    iters += (iters.empty() ? "" : "/") + std::to_string(rounds[c.name]);
  }
  char note[200];
  std::snprintf(note, sizeof note,
                "source %u, %llu reached, identical to Dijkstra: %s; rounds %s; Dijkstra %.0f ms",
                source, reached, row.ok ? "yes" : "NO", iters.c_str(), dijkstra_ms);
  row.note += note;
  record(std::move(row), cols);
  cudaFree(d_init);
  cudaFree(dist);
  cudaFree(changed);
  cudaFreeHost(h_changed);
  cudaFree(remap);
}

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------
std::string table() {
  std::vector<std::string> present;
  for (const char *c : kColumns)
    for (const Row &r : g_rows)
      if (r.median_ms.count(c)) {
        present.push_back(c);
        break;
      }
  std::string s = "| benchmark | input | naive (ms) |";
  for (std::size_t i = 1; i < present.size(); ++i)
    s += " " + present[i] + " |";
  s += " check |\n|---|---|---:|";
  for (std::size_t i = 1; i < present.size(); ++i)
    s += "---:|";
  s += "---|\n";
  for (const Row &r : g_rows) {
    char buf[64];
    const double base = r.median_ms.at("naive");
    std::snprintf(buf, sizeof buf, "%.4f", base);
    s += "| " + r.bench + " | " + r.input + " | " + buf + " |";
    for (std::size_t i = 1; i < present.size(); ++i) {
      auto it = r.median_ms.find(present[i]);
      if (it == r.median_ms.end()) {
        s += " — |";
      } else {
        std::snprintf(buf, sizeof buf, " %.2fx |", base / it->second);
        s += buf;
      }
    }
    s += r.ok ? " ok |\n" : " **WRONG** |\n";
  }
  return s;
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "atomics_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--graphs") opt.graphs = value();
    else if (a == "--out") opt.out = value();
    else if (a == "--reps") opt.reps = std::atoi(value().c_str());
    else if (a == "--warmup") opt.warmup = std::atoi(value().c_str());
    else if (a == "--keys") opt.keys = static_cast<unsigned>(std::atoll(value().c_str()));
    else if (a == "--kron-scale") opt.kron_scale = static_cast<unsigned>(std::atoi(value().c_str()));
    else if (a == "--only") opt.only = value();
    else {
      std::fprintf(stderr,
                   "usage: %s [--graphs DIR] [--out DIR] [--reps N] [--warmup N] [--keys N]\n"
                   "          [--kron-scale S] [--only hist,inc,spmv,sssp,sssp-nocheck]\n",
                   argv[0]);
      return 2;
    }
  }
  if (opt.reps < 1 || opt.keys < 1) {
    std::fprintf(stderr, "atomics_bench: --reps and --keys must be positive\n");
    return 2;
  }

  cudaDeviceProp prop{};
  DD_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0;
  DD_CUDA_CHECK(cudaDriverGetVersion(&driver));
  DD_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  std::printf("# device: %s, sm_%d%d, %d SMs, L2 %d MB, %.0f GB; driver %d, runtime %d\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount,
              prop.l2CacheSize >> 20, prop.totalGlobalMem / 1e9, driver, runtime);
  std::printf("# median of %d runs after %d warm-up runs; %u keys per histogram; auto column: %s\n",
              opt.reps, opt.warmup, opt.keys,
#if defined(DD_BENCH_HAVE_AUTO)
              "kernels.cu rewritten by decoupler"
#else
              "not built"
#endif
  );
  std::fflush(stdout);

  const unsigned bin_counts[] = {1, 2, 8, 32, 256, 4096, 65536};
  if (opt.wants("hist"))
    for (bool zipf : {false, true})
      for (unsigned bins : bin_counts)
        bench_histogram(opt, zipf, bins);
  if (opt.wants("inc"))
    for (unsigned bins : {1u, 32u, 4096u, 65536u})
      bench_histogram_inc(opt, bins);
  if (opt.wants("spmv") || opt.wants("sssp") || opt.wants("sssp-nocheck")) {
    std::vector<Graph> graphs;
    if (!load_graphs(opt, graphs))
      return 2;
    for (const Graph &g : graphs) {
      DeviceCoo coo(g.csr);
      if (opt.wants("spmv"))
        bench_spmv(opt, g, coo);
      if (opt.wants("sssp"))
        bench_sssp(opt, g, coo, /*nocheck=*/false);
      if (opt.wants("sssp-nocheck"))
        bench_sssp(opt, g, coo, /*nocheck=*/true);
    }
  }

  const std::string md = table();
  std::printf("\nSpeedup over naive (naive time / column time; > 1 is faster), median of %d runs:\n\n%s",
              opt.reps, md.c_str());
  if (!opt.out.empty()) {
    if (FILE *f = std::fopen((opt.out + "/atomics_bench.md").c_str(), "w")) {
      std::fprintf(f, "# %s, %d SMs; median of %d runs\n\n%s", prop.name, prop.multiProcessorCount,
                   opt.reps, md.c_str());
      std::fclose(f);
    }
    if (FILE *f = std::fopen((opt.out + "/atomics_bench_raw.csv").c_str(), "w")) {
      std::fprintf(f, "bench,input,column,rep,ms\n");
      for (const std::string &line : g_raw)
        std::fprintf(f, "%s\n", line.c_str());
      std::fclose(f);
    }
  }
  bool ok = true;
  for (const Row &r : g_rows)
    ok = ok && r.ok;
  return ok ? 0 : 1;
}
