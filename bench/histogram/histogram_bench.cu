// histogram_bench: histogram kernels as written (kernels.cu, "naive"), as the
// decoupler tool rewrites them (kernels.dd.cu, "auto") and CUB's
// DeviceHistogram::HistogramEven, in one process on one GPU; every result
// checked exactly against a CPU histogram of the same input.
//
//   histogram_bench [--out DIR] [--reps N] [--warmup N] [--keys N] [--bytes N]
//                   [--bins LIST] [--only keys,bytes] [--quick]
//
// Key rows: --keys keys (default 2^24) over nbins bins, uniform or Zipf(1.0)
// (bin k with probability proportional to 1/(k+1)), for nbins in --bins
// (default 1,2,4,8,32,256,4096,65536). Three key sets of the row (64 MiB
// each at 2^24 keys, each beyond the L2) rotate: every launch reads a
// different set from the launch before it. Columns:
// for each kernel shape of kernels.cu -- thread, thread_ranged, grid,
// grid_ranged, grid_mod, shared_private -- naive ms, auto ms and naive/auto
// (> 1: the rewrite is faster); then cub ms and best auto / cub (the fastest
// auto column's time over CUB's; < 1: faster than CUB). shared_private runs
// only where its nbins words of shared memory fit 48 KiB.
//
// Byte rows: --bytes bytes (default 2^26 = 64 MiB), uniform or skewed (90%
// of them 0, the rest uniform), three sets rotating; byte_hist and the
// per-warp warp_hist256, naive and auto, and CUB HistogramEven over the
// bytes (257 levels), in ms and GB/s of input.
//
// Method: CUDA events around each launch (around both launches of
// warp_hist256); the bins are zeroed before each run, outside the events;
// --warmup runs (default 3), then the median of --reps (default 15); the
// columns of a row alternate run by run. After every run, warm-up included,
// the bins are read back and compared with the CPU histogram of that run's
// input: a mismatch prints FAIL and the program exits with status 1.
//
// --quick: 2^20 keys, 2^22 bytes, 3 runs after 1 warm-up (a smoke run;
// options given explicitly win). --out DIR writes DIR/histogram_bench.md
// (the tables, also printed to stdout last) and DIR/histogram_bench_raw.csv
// (every run). Progress goes to stderr.

#include <cub/device/device_histogram.cuh>

#include <dd/cuda_check.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

// The launchers of kernels.cu, compiled once as written (naive) and, when
// the build ran decoupler, once rewritten (autorw).
#define DD_BENCH_DECLARE_KERNELS(NS)                                                     \
  namespace NS {                                                                         \
  void launch_hist_thread(const unsigned *keys, unsigned n, unsigned *bins);             \
  void launch_hist_thread_ranged(const unsigned *keys, unsigned n, unsigned *bins,       \
                                 unsigned nbins);                                        \
  void launch_hist_grid(const unsigned *keys, unsigned n, unsigned *bins);               \
  void launch_hist_grid_ranged(const unsigned *keys, unsigned n, unsigned *bins,         \
                               unsigned nbins);                                          \
  void launch_hist_grid_mod(const unsigned *keys, unsigned n, unsigned *bins,            \
                            unsigned nbins);                                             \
  void launch_hist_shared_private(const unsigned *keys, unsigned n, unsigned *bins,      \
                                  unsigned nbins);                                       \
  void launch_byte_hist(const unsigned char *bytes, size_t n, unsigned *bins);           \
  void launch_warp_hist256(const unsigned *data, unsigned nwords, unsigned *partials,    \
                           unsigned max_parts, unsigned *hist);                          \
  }
DD_BENCH_DECLARE_KERNELS(naive)
#if defined(DD_BENCH_HAVE_AUTO)
DD_BENCH_DECLARE_KERNELS(autorw)
#endif

namespace {

constexpr int kSets = 3;                      // inputs rotating between launches
constexpr unsigned kMaxParts = 4096;          // warp_hist256 partial histograms
constexpr std::size_t kSharedLimit = 48 << 10; // shared_private's bins must fit
const char *const kShapes[] = {"thread", "thread_ranged", "grid",
                               "grid_ranged", "grid_mod", "shared_private"};

struct Options {
  std::string out;
  int reps = 15;
  int warmup = 3;
  unsigned long long keys = 1ull << 24;
  unsigned long long bytes = 1ull << 26;
  std::vector<unsigned> bins = {1, 2, 4, 8, 32, 256, 4096, 65536};
  std::string only = "keys,bytes";
  bool wants(const char *what) const {
    return ("," + only + ",").find(std::string(",") + what + ",") != std::string::npos;
  }
};

// Counter-based random numbers (SplitMix64's finalizer): the inputs depend
// on the seed and the index only, not on how the work is split.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
inline double unit(std::uint64_t h) { return (h >> 11) * 0x1.0p-53; }

/// Calls f(begin, end, part) on `parts` contiguous pieces of [0, n), one
/// thread each.
void parallel_for(std::size_t n, unsigned parts,
                  const std::function<void(std::size_t, std::size_t, unsigned)> &f) {
  std::vector<std::thread> threads;
  for (unsigned p = 0; p < parts; ++p)
    threads.emplace_back(f, n * p / parts, n * (p + 1) / parts, p);
  for (std::thread &t : threads)
    t.join();
}

unsigned host_threads() { return std::max(1u, std::min(32u, std::thread::hardware_concurrency())); }

/// n keys in [0, nbins), uniform or Zipf(1.0), and their histogram.
void make_keys(std::vector<unsigned> &keys, std::vector<unsigned> &hist, std::size_t n,
               unsigned nbins, bool zipf, std::uint64_t seed) {
  std::vector<double> cdf;
  if (zipf) {
    cdf.resize(nbins);
    double total = 0, acc = 0;
    for (unsigned k = 0; k < nbins; ++k)
      total += 1.0 / (k + 1.0);
    for (unsigned k = 0; k < nbins; ++k) {
      acc += 1.0 / (k + 1.0) / total;
      cdf[k] = acc;
    }
    cdf[nbins - 1] = 2.0; // every u < 1 lands in a bin
  }
  keys.resize(n);
  const unsigned parts = host_threads();
  std::vector<std::vector<unsigned>> local(parts, std::vector<unsigned>(nbins, 0));
  parallel_for(n, parts, [&](std::size_t begin, std::size_t end, unsigned part) {
    std::vector<unsigned> &h = local[part];
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t r = mix64(seed ^ mix64(i));
      unsigned k;
      if (zipf) // the first bin whose cdf exceeds u
        k = static_cast<unsigned>(std::upper_bound(cdf.begin(), cdf.end(), unit(r)) - cdf.begin());
      else // the high 32 bits scaled to [0, nbins)
        k = static_cast<unsigned>(((r >> 32) * nbins) >> 32);
      keys[i] = k;
      ++h[k];
    }
  });
  hist.assign(nbins, 0);
  for (const std::vector<unsigned> &h : local)
    for (unsigned b = 0; b < nbins; ++b)
      hist[b] += h[b];
}

/// n bytes, uniform or skewed (90% zero, the rest uniform), and their
/// histogram.
void make_bytes(std::vector<unsigned char> &bytes, std::vector<unsigned> &hist, std::size_t n,
                bool skewed, std::uint64_t seed) {
  bytes.resize(n);
  const unsigned parts = host_threads();
  std::vector<std::vector<unsigned>> local(parts, std::vector<unsigned>(256, 0));
  parallel_for(n, parts, [&](std::size_t begin, std::size_t end, unsigned part) {
    std::vector<unsigned> &h = local[part];
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t r = mix64(seed ^ mix64(i));
      const unsigned b = skewed && unit(r) < 0.9 ? 0u : static_cast<unsigned>(r & 0xff);
      bytes[i] = static_cast<unsigned char>(b);
      ++h[b];
    }
  });
  hist.assign(256, 0);
  for (const std::vector<unsigned> &h : local)
    for (unsigned b = 0; b < 256; ++b)
      hist[b] += h[b];
}

template <class T> T *device_copy(const std::vector<T> &v) {
  T *d = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&d, std::max<std::size_t>(1, v.size()) * sizeof(T)));
  if (!v.empty())
    DD_CUDA_CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// ---------------------------------------------------------------------------
// Timing and checking
// ---------------------------------------------------------------------------
struct Column {
  std::string name;               // e.g. "grid naive", "cub"
  std::function<void(int)> run;   // launches on input set s (timed)
  std::vector<float> ms;          // the timed runs after the warm-up
};

struct Row {
  std::string table, input; // "keys" or "bytes"; e.g. "uniform 256 bins"
  std::string note;
  std::map<std::string, double> median_ms;
  bool ok = true;
};

std::vector<Row> g_rows;
std::vector<std::string> g_raw; // table,input,column,run,set,warmup,ms
std::size_t g_failures = 0;

/// Times every column warmup + reps times, the columns alternating run by
/// run. Each launch takes the next input set, so that no launch finds its
/// input in what the previous one left in the L2; where the columns are a
/// multiple of kSets one set is skipped per run, so that each column still
/// rotates over all sets. Before each run d_bins (nbins words) is zeroed;
/// after it, d_bins is compared with the CPU histogram want[set].
void time_columns(Row &row, std::vector<Column> &cols, unsigned *d_bins, unsigned nbins,
                  const std::vector<unsigned> (&want)[kSets], const Options &opt) {
  cudaEvent_t start, stop;
  DD_CUDA_CHECK(cudaEventCreate(&start));
  DD_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<unsigned> got(nbins);
  unsigned launch = 0;
  for (int r = 0; r < opt.warmup + opt.reps; ++r) {
    if (cols.size() % kSets == 0)
      ++launch;
    for (Column &c : cols) {
      const int set = static_cast<int>(launch++ % kSets);
      DD_CUDA_CHECK(cudaMemsetAsync(d_bins, 0, std::size_t{nbins} * sizeof(unsigned)));
      DD_CUDA_CHECK(cudaEventRecord(start));
      c.run(set);
      DD_CUDA_CHECK(cudaGetLastError());
      DD_CUDA_CHECK(cudaEventRecord(stop));
      DD_CUDA_CHECK(cudaEventSynchronize(stop));
      DD_CUDA_CHECK(cudaGetLastError());
      float ms = 0;
      DD_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      const bool warm = r < opt.warmup;
      if (!warm)
        c.ms.push_back(ms);
      char buf[96];
      std::snprintf(buf, sizeof buf, ",%d,%d,%d,%.6f", r, set, warm ? 1 : 0, ms);
      g_raw.push_back(row.table + "," + row.input + "," + c.name + buf);

      DD_CUDA_CHECK(cudaMemcpy(got.data(), d_bins, std::size_t{nbins} * sizeof(unsigned),
                               cudaMemcpyDeviceToHost));
      if (got != want[set]) {
        unsigned b = 0;
        while (got[b] == want[set][b])
          ++b;
        std::printf("FAIL: %s %s, %s, run %d (input set %d): bin %u is %u, the CPU histogram "
                    "says %u\n",
                    row.table.c_str(), row.input.c_str(), c.name.c_str(), r, set, b, got[b],
                    want[set][b]);
        std::fflush(stdout);
        std::fprintf(stderr, "histogram_bench: FAIL: %s %s, %s\n", row.table.c_str(),
                     row.input.c_str(), c.name.c_str());
        if (row.note.find("FAIL " + c.name + ";") == std::string::npos)
          row.note += "FAIL " + c.name + "; ";
        row.ok = false;
        ++g_failures;
      }
    }
  }
  DD_CUDA_CHECK(cudaEventDestroy(start));
  DD_CUDA_CHECK(cudaEventDestroy(stop));
  for (const Column &c : cols)
    row.median_ms[c.name] = median(c.ms);
}

// ---------------------------------------------------------------------------
// Key rows
// ---------------------------------------------------------------------------
void bench_keys(const Options &opt, bool zipf, unsigned nbins) {
  const unsigned n = static_cast<unsigned>(opt.keys);
  Row row;
  row.table = "keys";
  row.input = std::string(zipf ? "zipf" : "uniform") + " " + std::to_string(nbins) + " bins";
  std::fprintf(stderr, "histogram_bench: keys %s: making %d sets of %u keys\n",
               row.input.c_str(), kSets, n);

  std::vector<unsigned> want[kSets];
  unsigned *keys[kSets];
  for (int s = 0; s < kSets; ++s) {
    std::vector<unsigned> host;
    make_keys(host, want[s], n, nbins, zipf, 1000003ull * nbins + 17 * zipf + s);
    keys[s] = device_copy(host);
  }
  unsigned *d_bins = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&d_bins, std::size_t{nbins} * sizeof(unsigned)));

  // CUB's temporary storage, sized and allocated once for the row.
  void *cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  DD_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, cub_temp_bytes, keys[0], d_bins,
                                                    static_cast<int>(nbins + 1), 0u, nbins,
                                                    static_cast<int>(n)));
  DD_CUDA_CHECK(cudaMalloc(&cub_temp, std::max<std::size_t>(1, cub_temp_bytes)));

  const bool smem_fits = std::size_t{nbins} * sizeof(unsigned) <= kSharedLimit;
  std::vector<Column> cols;
  auto add_shape = [&](const char *shape, std::function<void(int)> naive_run,
                       std::function<void(int)> auto_run) {
    cols.push_back({std::string(shape) + " naive", std::move(naive_run), {}});
#if defined(DD_BENCH_HAVE_AUTO)
    cols.push_back({std::string(shape) + " auto", std::move(auto_run), {}});
#else
    (void)auto_run;
#endif
  };
#if defined(DD_BENCH_HAVE_AUTO)
#define DD_AUTO(call) [&](int s) { autorw::call; }
#else
#define DD_AUTO(call) std::function<void(int)>()
#endif
  add_shape("thread", [&](int s) { naive::launch_hist_thread(keys[s], n, d_bins); },
            DD_AUTO(launch_hist_thread(keys[s], n, d_bins)));
  add_shape("thread_ranged",
            [&](int s) { naive::launch_hist_thread_ranged(keys[s], n, d_bins, nbins); },
            DD_AUTO(launch_hist_thread_ranged(keys[s], n, d_bins, nbins)));
  add_shape("grid", [&](int s) { naive::launch_hist_grid(keys[s], n, d_bins); },
            DD_AUTO(launch_hist_grid(keys[s], n, d_bins)));
  add_shape("grid_ranged",
            [&](int s) { naive::launch_hist_grid_ranged(keys[s], n, d_bins, nbins); },
            DD_AUTO(launch_hist_grid_ranged(keys[s], n, d_bins, nbins)));
  add_shape("grid_mod", [&](int s) { naive::launch_hist_grid_mod(keys[s], n, d_bins, nbins); },
            DD_AUTO(launch_hist_grid_mod(keys[s], n, d_bins, nbins)));
  if (smem_fits)
    add_shape("shared_private",
              [&](int s) { naive::launch_hist_shared_private(keys[s], n, d_bins, nbins); },
              DD_AUTO(launch_hist_shared_private(keys[s], n, d_bins, nbins)));
  else
    row.note += "shared_private skipped: nbins * 4 B > 48 KiB; ";
  cols.push_back({"cub", [&](int s) {
                    DD_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
                        cub_temp, cub_temp_bytes, keys[s], d_bins, static_cast<int>(nbins + 1),
                        0u, nbins, static_cast<int>(n)));
                  }, {}});

  time_columns(row, cols, d_bins, nbins, want, opt);
  std::fprintf(stderr, "histogram_bench: keys %s: %s\n", row.input.c_str(),
               row.ok ? "ok" : "FAIL");
  g_rows.push_back(std::move(row));
  for (int s = 0; s < kSets; ++s)
    DD_CUDA_CHECK(cudaFree(keys[s]));
  DD_CUDA_CHECK(cudaFree(d_bins));
  DD_CUDA_CHECK(cudaFree(cub_temp));
}

// ---------------------------------------------------------------------------
// Byte rows
// ---------------------------------------------------------------------------
void bench_bytes(const Options &opt, bool skewed) {
  const std::size_t n = opt.bytes;
  const unsigned nwords = static_cast<unsigned>(n / 4);
  Row row;
  row.table = "bytes";
  row.input = skewed ? "skewed" : "uniform";
  std::fprintf(stderr, "histogram_bench: bytes %s: making %d sets of %zu bytes\n",
               row.input.c_str(), kSets, n);

  std::vector<unsigned> want[kSets];
  unsigned char *bytes[kSets];
  for (int s = 0; s < kSets; ++s) {
    std::vector<unsigned char> host;
    make_bytes(host, want[s], n, skewed, 7000003ull + 17 * skewed + s);
    bytes[s] = device_copy(host); // cudaMalloc: aligned for the word loads
  }
  unsigned *d_bins = nullptr, *partials = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&d_bins, 256 * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMalloc(&partials, std::size_t{kMaxParts} * 256 * sizeof(unsigned)));
  auto words = [&](int s) { return reinterpret_cast<const unsigned *>(bytes[s]); };

  void *cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  DD_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, cub_temp_bytes, bytes[0], d_bins,
                                                    257, 0, 256, static_cast<int>(n)));
  DD_CUDA_CHECK(cudaMalloc(&cub_temp, std::max<std::size_t>(1, cub_temp_bytes)));

  std::vector<Column> cols;
  cols.push_back({"byte_hist naive", [&](int s) { naive::launch_byte_hist(bytes[s], n, d_bins); }, {}});
#if defined(DD_BENCH_HAVE_AUTO)
  cols.push_back({"byte_hist auto", [&](int s) { autorw::launch_byte_hist(bytes[s], n, d_bins); }, {}});
#endif
  cols.push_back({"warp_hist256 naive", [&](int s) {
                    naive::launch_warp_hist256(words(s), nwords, partials, kMaxParts, d_bins);
                  }, {}});
#if defined(DD_BENCH_HAVE_AUTO)
  cols.push_back({"warp_hist256 auto", [&](int s) {
                    autorw::launch_warp_hist256(words(s), nwords, partials, kMaxParts, d_bins);
                  }, {}});
#endif
  cols.push_back({"cub", [&](int s) {
                    DD_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
                        cub_temp, cub_temp_bytes, bytes[s], d_bins, 257, 0, 256,
                        static_cast<int>(n)));
                  }, {}});

  time_columns(row, cols, d_bins, 256, want, opt);
  std::fprintf(stderr, "histogram_bench: bytes %s: %s\n", row.input.c_str(),
               row.ok ? "ok" : "FAIL");
  g_rows.push_back(std::move(row));
  for (int s = 0; s < kSets; ++s)
    DD_CUDA_CHECK(cudaFree(bytes[s]));
  DD_CUDA_CHECK(cudaFree(d_bins));
  DD_CUDA_CHECK(cudaFree(partials));
  DD_CUDA_CHECK(cudaFree(cub_temp));
}

// ---------------------------------------------------------------------------
// The tables
// ---------------------------------------------------------------------------
std::string fmt(const char *f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

/// The median of column `name` in `row`, or a negative number when absent.
double ms_of(const Row &row, const std::string &name) {
  auto it = row.median_ms.find(name);
  return it == row.median_ms.end() ? -1 : it->second;
}

std::string keys_table(const Options &opt) {
  std::string s = "| input | ";
  std::string rule = "|---|";
  for (const char *shape : kShapes) {
    s += std::string(shape) + " naive | " + shape + " auto | " + shape + " naive/auto | ";
    rule += "---:|---:|---:|";
  }
  s += "cub | best auto / cub | check |\n";
  rule += "---:|---|---|\n";
  s += rule;
  for (const Row &r : g_rows) {
    if (r.table != "keys")
      continue;
    s += "| " + r.input + " | ";
    double best = -1;
    std::string best_shape;
    for (const char *shape : kShapes) {
      const double nv = ms_of(r, std::string(shape) + " naive");
      const double av = ms_of(r, std::string(shape) + " auto");
      s += (nv < 0 ? std::string("—") : fmt("%.4f", nv)) + " | ";
      s += (av < 0 ? std::string("—") : fmt("%.4f", av)) + " | ";
      s += (nv < 0 || av <= 0 ? std::string("—") : fmt("%.2fx", nv / av)) + " | ";
      if (av > 0 && (best < 0 || av < best)) {
        best = av;
        best_shape = shape;
      }
    }
    const double cub = ms_of(r, "cub");
    s += fmt("%.4f", cub) + " | ";
    s += (best < 0 || cub <= 0 ? std::string("—") : fmt("%.2f", best / cub) + " (" + best_shape + ")");
    s += std::string(" | ") + (r.ok ? "ok" : "**FAIL**") + " |\n";
  }
  char head[512];
  std::snprintf(head, sizeof head,
                "Histograms of %llu keys: ms (median of %d runs); naive/auto > 1: the "
                "rewrite is faster; best auto / cub = the fastest auto column's time over "
                "CUB HistogramEven's (< 1: faster than CUB).\n\n",
                opt.keys, opt.reps);
  std::string notes;
  for (const Row &r : g_rows)
    if (r.table == "keys" && !r.note.empty())
      notes += "- " + r.input + ": " + r.note + "\n";
  return head + s + (notes.empty() ? "" : "\n" + notes);
}

std::string bytes_table(const Options &opt) {
  std::string s = "| input | kernel | naive ms | naive GB/s | auto ms | auto GB/s | naive / auto "
                  "| cub ms | cub GB/s | auto / cub | check |\n"
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  const double gb = static_cast<double>(opt.bytes) / 1e6; // ms -> GB/s
  for (const Row &r : g_rows) {
    if (r.table != "bytes")
      continue;
    const double cub = ms_of(r, "cub");
    for (const char *kernel : {"byte_hist", "warp_hist256"}) {
      const double nv = ms_of(r, std::string(kernel) + " naive");
      const double av = ms_of(r, std::string(kernel) + " auto");
      s += "| " + r.input + " | " + kernel + " | " + fmt("%.4f", nv) + " | " +
           fmt("%.0f", gb / nv) + " | ";
      s += av > 0 ? fmt("%.4f", av) + " | " + fmt("%.0f", gb / av) + " | " + fmt("%.2fx", nv / av)
                  : std::string("— | — | —");
      s += " | " + fmt("%.4f", cub) + " | " + fmt("%.0f", gb / cub) + " | ";
      s += av > 0 ? fmt("%.2f", av / cub) : std::string("—");
      s += std::string(" | ") + (r.ok ? "ok" : "**FAIL**") + " |\n";
    }
  }
  char head[512];
  std::snprintf(head, sizeof head,
                "Byte histograms (256 bins) of %llu bytes: ms (median of %d runs) and GB/s of "
                "input; auto / cub < 1: faster than CUB.\n\n",
                opt.bytes, opt.reps);
  std::string notes;
  for (const Row &r : g_rows)
    if (r.table == "bytes" && !r.note.empty())
      notes += "- " + r.input + ": " + r.note + "\n";
  return head + s + (notes.empty() ? "" : "\n" + notes);
}

[[noreturn]] void usage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [--out DIR] [--reps N] [--warmup N] [--keys N] [--bytes N]\n"
               "          [--bins LIST] [--only keys,bytes] [--quick]\n",
               argv0);
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  bool quick = false, set_reps = false, set_warmup = false, set_keys = false,
       set_bytes = false;
  std::string command;
  for (int i = 0; i < argc; ++i)
    command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "histogram_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    auto number = [&]() -> unsigned long long {
      const std::string v = value();
      char *end = nullptr;
      const unsigned long long x = std::strtoull(v.c_str(), &end, 0);
      if (v.empty() || *end || v[0] == '-') {
        std::fprintf(stderr, "histogram_bench: %s: not a number: '%s'\n", a.c_str(), v.c_str());
        std::exit(2);
      }
      return x;
    };
    if (a == "--out") opt.out = value();
    else if (a == "--reps") { opt.reps = static_cast<int>(number()); set_reps = true; }
    else if (a == "--warmup") { opt.warmup = static_cast<int>(number()); set_warmup = true; }
    else if (a == "--keys") { opt.keys = number(); set_keys = true; }
    else if (a == "--bytes") { opt.bytes = number(); set_bytes = true; }
    else if (a == "--only") opt.only = value();
    else if (a == "--quick") quick = true;
    else if (a == "--bins") {
      opt.bins.clear();
      std::string list = value();
      for (std::size_t p = 0; p <= list.size();) {
        const std::size_t q = std::min(list.find(',', p), list.size());
        const std::string item = list.substr(p, q - p);
        char *end = nullptr;
        const unsigned long long b = std::strtoull(item.c_str(), &end, 0);
        if (item.empty() || *end || b < 1 || b > (1u << 24)) {
          std::fprintf(stderr, "histogram_bench: --bins: '%s' is not a bin count in [1, 2^24]\n",
                       item.c_str());
          return 2;
        }
        opt.bins.push_back(static_cast<unsigned>(b));
        p = q + 1;
      }
    } else usage(argv[0]);
  }
  if (quick) {
    if (!set_reps) opt.reps = 3;
    if (!set_warmup) opt.warmup = 1;
    if (!set_keys) opt.keys = 1ull << 20;
    if (!set_bytes) opt.bytes = 1ull << 22;
  }
  if (opt.reps < 1 || opt.keys < 1 || opt.keys > (1ull << 28) || opt.bytes < 4 ||
      opt.bytes > (1ull << 30) || opt.bytes % 4) {
    std::fprintf(stderr, "histogram_bench: need --reps >= 1, --keys in [1, 2^28], --bytes a "
                         "multiple of 4 in [4, 2^30]\n");
    return 2;
  }

  // The output folder is made (one level) and checked before the work, not
  // found unwritable after it.
  if (!opt.out.empty()) {
    mkdir(opt.out.c_str(), 0777);
    if (access(opt.out.c_str(), W_OK) != 0) {
      std::fprintf(stderr, "histogram_bench: --out %s: not a writable folder\n", opt.out.c_str());
      return 2;
    }
  }

  cudaDeviceProp prop{};
  DD_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0, sm_khz = 0, mem_khz = 0;
  DD_CUDA_CHECK(cudaDriverGetVersion(&driver));
  DD_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  DD_CUDA_CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, 0));
  DD_CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
  std::printf("# command: %s\n", command.c_str());
  std::printf("# device: %s, sm_%d%d, %d SMs, peak SM clock %d MHz, peak memory clock %d MHz, "
              "L2 %d MB, %.0f GB; driver %d, runtime %d\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount, sm_khz / 1000,
              mem_khz / 1000, prop.l2CacheSize >> 20, prop.totalGlobalMem / 1e9, driver,
              runtime);
  std::printf("# median of %d runs after %d warm-up runs; %llu keys, %llu bytes; auto columns: %s\n",
              opt.reps, opt.warmup, opt.keys, opt.bytes,
#if defined(DD_BENCH_HAVE_AUTO)
              "kernels.cu rewritten by decoupler"
#else
              "not built"
#endif
  );
  std::fflush(stdout);

  if (opt.wants("keys"))
    for (bool zipf : {false, true})
      for (unsigned nbins : opt.bins)
        bench_keys(opt, zipf, nbins);
  if (opt.wants("bytes"))
    for (bool skewed : {false, true})
      bench_bytes(opt, skewed);

  std::string md;
  if (opt.wants("keys"))
    md += keys_table(opt);
  if (opt.wants("bytes"))
    md += (md.empty() ? "" : "\n") + bytes_table(opt);
  std::printf("\n%s", md.c_str());
  if (!opt.out.empty()) {
    FILE *f = std::fopen((opt.out + "/histogram_bench.md").c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "histogram_bench: cannot write %s/histogram_bench.md\n", opt.out.c_str());
      return 2;
    }
    std::fprintf(f, "# %s, %d SMs; `%s`\n\n%s", prop.name, prop.multiProcessorCount,
                 command.c_str(), md.c_str());
    std::fclose(f);
    f = std::fopen((opt.out + "/histogram_bench_raw.csv").c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "histogram_bench: cannot write %s/histogram_bench_raw.csv\n",
                   opt.out.c_str());
      return 2;
    }
    std::fprintf(f, "table,input,column,run,set,warmup,ms\n");
    for (const std::string &line : g_raw)
      std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
  if (g_failures) {
    std::printf("FAIL: %zu runs differ from the CPU histogram\n", g_failures);
    return 1;
  }
  return 0;
}
