// The loop kernels of the affine-stream split study (docs/split-study.md),
// each with its loop annotated `#pragma dd decouple` (through DD_PRAGMA), so
// that the decoupler split pass plans, and where it pays rewrites, every one:
//
//   fig33    the dissertation's Figure 3.3: B[i*num + tid] = A[i*num + tid] + 1
//   stencil  5-point stencil on nx x ny, one thread per column, bands of rows
//   spmv     SpMV in ELL format (column-major, padding column -1)
//   fig33step  the same with a run-time row step, num a multiple of the block
//   rowpairs   fig33step's loop through shared memory with two barriers
//   gather2  out[i*num + tid] = in[(i*num + tid) * 2]   (stride-2 gather)
//   gather8  the same with stride 8 (bandwidth-bound: the pass declines)
//   matvec   y = A x, one row per block, `j += blockDim.x` (a block reduction)
//   kmeans   Rodinia kmeans' kmeansPoint: nearest of C centres per point
//   copy     not a kernel: cudaMemcpy device to device of --num words, the
//            bandwidth ceiling bench/split measures the kernels against
//
// Integers throughout (wrapping unsigned arithmetic), so that the result does
// not depend on the order of a reduction and a CPU model checks it exactly.
//
//   decouple --kernel K [sizes] [--block T] [--seed S] [--verify 0|1] [--time RUNS]
// sizes: fig33/gather2/gather8 --dim D --num N; fig33step and rowpairs the same and
// --step S (N a multiple of the block); stencil --nx X --ny Y
// --rows R; spmv --rows R --k K; matvec --rows R --n N; kmeans --points P
// --features F --clusters C. Prints the kernel, the sizes and a digest of
// the output; --verify 1 also compares every output word with a CPU model
// ("verify: ok"); --time RUNS prints the median launch time (`time_ms=`).
// The output is poisoned (0xff bytes) before every round.
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <dd/annotate.h>

#include "example_util.h"

//===----------------------------------------------------------------------===//
// The kernels, as a CUDA developer would write them.
//===----------------------------------------------------------------------===//

__global__ void fig33(const unsigned *A, unsigned *B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    DD_PRAGMA(decouple)
    for (int i = 0; i < dim; i++) {
      unsigned tmp = A[i * num + tid];
      B[i * num + tid] = tmp + 1;
    }
}

/// fig33 with a row step known only at run time and no bounds guard (the
/// program launches num / block blocks of whole rows): the split pass
/// streams A as row tiles (nvcc cannot unroll a run-time step).
__global__ void fig33_step(const unsigned *A, unsigned *B, int dim, int num, int step) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i += step) {
    unsigned tmp = A[i * num + tid];
    B[i * num + tid] = tmp + 1;
  }
}

/// Each row goes through shared memory: thread t combines its element with
/// its right neighbour's in the block (wrapping), a barrier on each side.
/// The split turns both barriers into barriers of the consumer warps.
__global__ void rowpairs(const unsigned *A, unsigned *B, int dim, int num, int step) {
  __shared__ unsigned tile[1024];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i += step) {
    tile[threadIdx.x] = A[i * num + tid];
    __syncthreads();
    B[i * num + tid] = tile[threadIdx.x] + 3 * tile[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
}

__device__ __forceinline__ unsigned stencil5(unsigned c, unsigned n, unsigned s, unsigned w,
                                             unsigned e) {
  return 4 * c + 3 * (n + s + w + e);
}

__global__ void stencil(const unsigned *in, unsigned *out, int nx, int ny, int rows) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y_begin = max(1, int(blockIdx.y) * rows);
  const int y_end = min(ny - 1, (int(blockIdx.y) + 1) * rows);
  if (x >= 1 && x < nx - 1)
    DD_PRAGMA(decouple)
    for (int y = y_begin; y < y_end; ++y)
      out[y * nx + x] = stencil5(in[y * nx + x], in[(y - 1) * nx + x], in[(y + 1) * nx + x],
                                 in[y * nx + x - 1], in[y * nx + x + 1]);
}

__global__ void spmv_ell(int num_rows, int max_cols, const int *cols, const unsigned *vals,
                         const unsigned *x, unsigned *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    unsigned sum = 0;
    DD_PRAGMA(decouple)
    for (int k = 0; k < max_cols; ++k) {
      int col = cols[k * num_rows + row];
      unsigned val = vals[k * num_rows + row];
      if (col >= 0)
        sum += val * x[col];
    }
    y[row] = sum;
  }
}

__global__ void gather2(const unsigned *in, unsigned *out, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    DD_PRAGMA(decouple)
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * 2];
}

__global__ void gather8(const unsigned *in, unsigned *out, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    DD_PRAGMA(decouple)
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * 8];
}

__global__ void matvec(const unsigned *A, const unsigned *x, unsigned *y, int n) {
  __shared__ unsigned partial[32];
  const int row = blockIdx.x;
  unsigned sum = 0;
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)row * n + j] * x[j];
  // The row's sum over the block (a multiple of 32 threads): warps, then
  // the first warp over the warps' sums.
  for (int o = 16; o > 0; o /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0u;
    for (int o = 16; o > 0; o /= 2)
      sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (threadIdx.x == 0)
      y[row] = sum;
  }
}

__global__ void kmeans(const int *features, int nfeatures, int npoints, int nclusters,
                       const int *clusters, int *membership) {
  const int point_id = blockIdx.x * blockDim.x + threadIdx.x;
  int index = -1;
  if (point_id < npoints) {
    int min_dist = 0x7fffffff;
    for (int i = 0; i < nclusters; i++) {
      const int cluster_base_index = i * nfeatures;
      int ans = 0;
      DD_PRAGMA(decouple)
      for (int j = 0; j < nfeatures; j++) {
        const int addr = point_id + j * npoints;
        const int diff = features[addr] - clusters[cluster_base_index + j];
        ans += diff * diff;
      }
      if (ans < min_dist) {
        min_dist = ans;
        index = i;
      }
    }
    membership[point_id] = index;
  }
}

//===----------------------------------------------------------------------===//
// The driver: inputs, launches, CPU models.
//===----------------------------------------------------------------------===//

namespace {

const char Usage[] =
    "usage: decouple --kernel fig33|fig33step|rowpairs|stencil|spmv|gather2|gather8|matvec|\n"
    "                kmeans|copy [sizes] [--block T] [--seed S] [--verify 0|1] [--time RUNS]\n"
    "sizes: fig33, gather2, gather8: --dim D --num N;\n"
    "       fig33step, rowpairs: --dim D --num N --step S (N a multiple of T);\n"
    "       stencil: --nx X --ny Y --rows R;\n"
    "       spmv: --rows R --k K; matvec: --rows R --n N;\n"
    "       kmeans: --points P --features F --clusters C; copy: --num N\n";

/// Deterministic words: `mask` keeps the low bits (small values where
/// products must not overflow the model's meaning; unsigned wraps anyway).
std::vector<unsigned> words(std::size_t count, std::uint64_t seed, unsigned mask) {
  std::vector<unsigned> v(count);
  for (std::size_t i = 0; i < count; ++i)
    v[i] = unsigned(dd::examples::mix64(seed * 0x9e3779b97f4a7c15ull + i)) & mask;
  return v;
}

/// A device copy of `host`.
template <class T> T *upload(const std::vector<T> &host) {
  T *d = nullptr;
  DD_CUDA_CHECK(cudaMalloc(&d, std::max<std::size_t>(host.size(), 1) * sizeof(T)));
  DD_CUDA_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

unsigned blocks_for(std::uint64_t threads, unsigned block) {
  return unsigned((threads + block - 1) / block);
}

// The launches, one host function each (the split pass rewrites launch
// statements of functions, not of lambdas).
void launch_rows(int stride, unsigned block, const unsigned *in, unsigned *out, int dim, int num) {
  if (stride == 1)
    fig33<<<blocks_for(num, block), block>>>(in, out, dim, num);
  else if (stride == 2)
    gather2<<<blocks_for(num, block), block>>>(in, out, dim, num);
  else
    gather8<<<blocks_for(num, block), block>>>(in, out, dim, num);
}

void launch_step(unsigned block, const unsigned *in, unsigned *out, int dim, int num, int step) {
  fig33_step<<<unsigned(num) / block, block>>>(in, out, dim, num, step);
}

void launch_rowpairs(unsigned block, const unsigned *in, unsigned *out, int dim, int num,
                     int step) {
  rowpairs<<<unsigned(num) / block, block>>>(in, out, dim, num, step);
}

void launch_stencil(unsigned block, const unsigned *in, unsigned *out, int nx, int ny, int rows) {
  stencil<<<dim3(blocks_for(nx, block), unsigned((ny + rows - 1) / rows)), block>>>(in, out, nx, ny,
                                                                                      rows);
}

void launch_spmv(unsigned block, int rows, int k, const int *cols, const unsigned *vals,
                 const unsigned *x, unsigned *y) {
  spmv_ell<<<blocks_for(rows, block), block>>>(rows, k, cols, vals, x, y);
}

void launch_matvec(unsigned block, int rows, const unsigned *a, const unsigned *x, unsigned *y,
                   int n) {
  matvec<<<rows, block>>>(a, x, y, n);
}

void launch_kmeans(unsigned block, const int *features, int nfeatures, int npoints, int nclusters,
                   const int *clusters, int *membership) {
  kmeans<<<blocks_for(npoints, block), block>>>(features, nfeatures, npoints, nclusters, clusters,
                                                membership);
}

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opt(argc, argv, Usage);
  const std::string kernel = opt.get("kernel", "");
  const unsigned block = unsigned(opt.number("block", 256));
  const std::uint64_t seed = opt.number("seed", 1);
  const bool verify = opt.number("verify", 0) != 0;
  const unsigned runs = unsigned(opt.number("time", 0));
  if (block == 0 || block > 1024)
    opt.fail("need 1 <= --block <= 1024");

  // Per kernel: the sizes, the inputs, the launch and the CPU model; `out`
  // is the output array the digest and the check cover.
  std::vector<void *> buffers;
  auto keep = [&](void *p) {
    buffers.push_back(p);
    return p;
  };
  std::size_t out_words = 0;
  void *d_out = nullptr;
  std::function<void()> launch;
  std::function<std::vector<unsigned>()> model;
  std::string sizes;

  if (kernel == "fig33" || kernel == "gather2" || kernel == "gather8") {
    const int dim = int(opt.number("dim", 64));
    const int num = int(opt.number("num", 1 << 19));
    const int stride = kernel == "fig33" ? 1 : kernel == "gather2" ? 2 : 8;
    if (dim < 1 || num < 1 || std::uint64_t(dim) * num * stride >= (1ull << 31))
      opt.fail("need --dim, --num >= 1 and dim * num * stride < 2^31");
    const std::size_t n = std::size_t(dim) * num;
    auto in = std::make_shared<std::vector<unsigned>>(words(n * stride, seed, 0xffffffffu));
    const unsigned *d_in = static_cast<unsigned *>(keep(upload(*in)));
    DD_CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(unsigned)));
    out_words = n;
    sizes = "dim " + std::to_string(dim) + ", num " + std::to_string(num);
    unsigned *out = static_cast<unsigned *>(d_out);
    launch = [=] { launch_rows(stride, block, d_in, out, dim, num); };
    model = [=] {
      std::vector<unsigned> want(n);
      for (std::size_t i = 0; i < n; ++i)
        want[i] = stride == 1 ? (*in)[i] + 1 : (*in)[i * stride];
      return want;
    };
  } else if (kernel == "fig33step" || kernel == "rowpairs") {
    const int dim = int(opt.number("dim", 64));
    const int num = int(opt.number("num", 1 << 19));
    const int step = int(opt.number("step", 1));
    if (dim < 1 || num < 1 || step < 1 || std::uint64_t(dim) * num >= (1ull << 31))
      opt.fail("need --dim, --num, --step >= 1 and dim * num < 2^31");
    if (num % block != 0)
      opt.fail("fig33step and rowpairs have no bounds guard: --num must be a multiple of --block");
    const std::size_t n = std::size_t(dim) * num;
    auto in = std::make_shared<std::vector<unsigned>>(words(n, seed, 0xffffffffu));
    const unsigned *d_in = static_cast<unsigned *>(keep(upload(*in)));
    DD_CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(unsigned)));
    out_words = n;
    sizes = "dim " + std::to_string(dim) + ", num " + std::to_string(num) + ", step " +
            std::to_string(step);
    unsigned *out = static_cast<unsigned *>(d_out);
    const bool pairs = kernel == "rowpairs";
    launch = [=] {
      if (pairs)
        launch_rowpairs(block, d_in, out, dim, num, step);
      else
        launch_step(block, d_in, out, dim, num, step);
    };
    model = [=] {
      // Rows the step skips keep the poison.
      std::vector<unsigned> want(n, 0xffffffffu);
      for (int i = 0; i < dim; i += step)
        for (int t = 0; t < num; ++t) {
          const std::size_t row = std::size_t(i) * num;
          const int right = int(t / block * block + (t % block + 1) % block);
          want[row + t] = pairs ? (*in)[row + t] + 3 * (*in)[row + right] : (*in)[row + t] + 1;
        }
      return want;
    };
  } else if (kernel == "stencil") {
    const int nx = int(opt.number("nx", 8192)), ny = int(opt.number("ny", 8192));
    const int rows = int(opt.number("rows", 64));
    if (nx < 1 || ny < 1 || rows < 1 || std::uint64_t(nx) * ny >= (1ull << 31))
      opt.fail("need --nx, --ny, --rows >= 1 and nx * ny < 2^31");
    const std::size_t n = std::size_t(nx) * ny;
    auto in = std::make_shared<std::vector<unsigned>>(words(n, seed, 0xffffffffu));
    const unsigned *d_in = static_cast<unsigned *>(keep(upload(*in)));
    DD_CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(unsigned)));
    out_words = n;
    sizes = "nx " + std::to_string(nx) + ", ny " + std::to_string(ny) + ", rows " +
            std::to_string(rows);
    unsigned *out = static_cast<unsigned *>(d_out);
    launch = [=] { launch_stencil(block, d_in, out, nx, ny, rows); };
    model = [=] {
      // Only interior points are written; the rest keeps the poison.
      std::vector<unsigned> want(n, 0xffffffffu);
      const auto &a = *in;
      for (int y = 1; y < ny - 1; ++y)
        for (int x = 1; x < nx - 1; ++x) {
          const std::size_t c = std::size_t(y) * nx + x;
          want[c] = 4 * a[c] + 3 * (a[c - nx] + a[c + nx] + a[c - 1] + a[c + 1]);
        }
      return want;
    };
  } else if (kernel == "spmv") {
    const int rows = int(opt.number("rows", 1 << 22)), k = int(opt.number("k", 16));
    if (rows < 1 || k < 1 || std::uint64_t(rows) * k >= (1ull << 31))
      opt.fail("need --rows, --k >= 1 and rows * k < 2^31");
    const std::size_t nnz = std::size_t(rows) * k;
    // Column-major ELL: entry (row, j) at j * rows + row; about one in
    // eight slots is padding (-1).
    auto cols = std::make_shared<std::vector<int>>(nnz);
    for (std::size_t i = 0; i < nnz; ++i) {
      const std::uint64_t h = dd::examples::mix64(seed * 0x51ed27u + i);
      (*cols)[i] = (h & 7) == 0 ? -1 : int((h >> 8) % std::uint64_t(rows));
    }
    auto vals = std::make_shared<std::vector<unsigned>>(words(nnz, seed + 1, 0xffffu));
    auto x = std::make_shared<std::vector<unsigned>>(words(rows, seed + 2, 0xffffu));
    const int *d_cols = static_cast<int *>(keep(upload(*cols)));
    const unsigned *d_vals = static_cast<unsigned *>(keep(upload(*vals)));
    const unsigned *d_x = static_cast<unsigned *>(keep(upload(*x)));
    DD_CUDA_CHECK(cudaMalloc(&d_out, std::size_t(rows) * sizeof(unsigned)));
    out_words = rows;
    sizes = "rows " + std::to_string(rows) + ", k " + std::to_string(k);
    unsigned *out = static_cast<unsigned *>(d_out);
    launch = [=] { launch_spmv(block, rows, k, d_cols, d_vals, d_x, out); };
    model = [=] {
      std::vector<unsigned> want(rows, 0);
      for (int j = 0; j < k; ++j)
        for (int r = 0; r < rows; ++r) {
          const std::size_t e = std::size_t(j) * rows + r;
          if ((*cols)[e] >= 0)
            want[r] += (*vals)[e] * (*x)[(*cols)[e]];
        }
      return want;
    };
  } else if (kernel == "matvec") {
    const int rows = int(opt.number("rows", 8192)), n = int(opt.number("n", 8192));
    if (rows < 1 || n < 1 || std::uint64_t(rows) * n >= (1ull << 32))
      opt.fail("need --rows, --n >= 1 and rows * n < 2^32");
    if (block % 32 != 0)
      opt.fail("matvec's block reduction needs --block to be a multiple of 32");
    const std::size_t total = std::size_t(rows) * n;
    auto a = std::make_shared<std::vector<unsigned>>(words(total, seed, 0xffffffffu));
    auto x = std::make_shared<std::vector<unsigned>>(words(n, seed + 1, 0xffffffffu));
    const unsigned *d_a = static_cast<unsigned *>(keep(upload(*a)));
    const unsigned *d_x = static_cast<unsigned *>(keep(upload(*x)));
    DD_CUDA_CHECK(cudaMalloc(&d_out, std::size_t(rows) * sizeof(unsigned)));
    out_words = rows;
    sizes = "rows " + std::to_string(rows) + ", n " + std::to_string(n);
    unsigned *out = static_cast<unsigned *>(d_out);
    launch = [=] { launch_matvec(block, rows, d_a, d_x, out, n); };
    model = [=] {
      std::vector<unsigned> want(rows, 0);
      for (int r = 0; r < rows; ++r) {
        unsigned s = 0;
        for (int j = 0; j < n; ++j)
          s += (*a)[std::size_t(r) * n + j] * (*x)[j];
        want[r] = s;
      }
      return want;
    };
  } else if (kernel == "kmeans") {
    const int points = int(opt.number("points", 1 << 20));
    const int features = int(opt.number("features", 34));
    const int clusters = int(opt.number("clusters", 5));
    if (points < 1 || features < 1 || clusters < 1 || features > 4096 ||
        std::uint64_t(points) * features >= (1ull << 31))
      opt.fail("need --points, --features, --clusters >= 1, features <= 4096 and "
               "points * features < 2^31");
    // Feature values in [0, 255]: a squared distance stays below 2^31.
    std::vector<unsigned> f = words(std::size_t(points) * features, seed, 0xff);
    std::vector<unsigned> c = words(std::size_t(clusters) * features, seed + 1, 0xff);
    auto feat = std::make_shared<std::vector<int>>(f.begin(), f.end());
    auto cent = std::make_shared<std::vector<int>>(c.begin(), c.end());
    const int *d_f = static_cast<int *>(keep(upload(*feat)));
    const int *d_c = static_cast<int *>(keep(upload(*cent)));
    DD_CUDA_CHECK(cudaMalloc(&d_out, std::size_t(points) * sizeof(int)));
    out_words = points;
    sizes = "points " + std::to_string(points) + ", features " + std::to_string(features) +
            ", clusters " + std::to_string(clusters);
    int *out = static_cast<int *>(d_out);
    launch = [=] { launch_kmeans(block, d_f, features, points, clusters, d_c, out); };
    model = [=] {
      // features are feature-major: feature j of point p at j * points + p.
      std::vector<unsigned> want(points);
      for (int p = 0; p < points; ++p) {
        int best = 0x7fffffff, index = -1;
        for (int i = 0; i < clusters; ++i) {
          int d = 0;
          for (int j = 0; j < features; ++j) {
            const int diff = (*feat)[std::size_t(j) * points + p] - (*cent)[i * features + j];
            d += diff * diff;
          }
          if (d < best) {
            best = d;
            index = i;
          }
        }
        want[p] = unsigned(index);
      }
      return want;
    };
  } else if (kernel == "copy") {
    const std::size_t n = opt.number("num", 1u << 28);
    if (n < 1)
      opt.fail("need --num >= 1");
    const unsigned *d_in = static_cast<unsigned *>(keep(upload(words(n, seed, 0xffffffffu))));
    DD_CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(unsigned)));
    out_words = n;
    sizes = "num " + std::to_string(n);
    unsigned *out = static_cast<unsigned *>(d_out);
    launch = [=] {
      DD_CUDA_CHECK(cudaMemcpyAsync(out, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
    };
    model = [=] { return words(n, seed, 0xffffffffu); };
  } else {
    opt.fail(kernel.empty() ? "--kernel is required"
                            : ("unknown --kernel " + kernel).c_str());
  }
  opt.finish();

  dd::examples::LaunchTimer timer(runs);
  for (unsigned round = 0; round < timer.rounds(); ++round) {
    DD_CUDA_CHECK(cudaMemset(d_out, 0xff, out_words * sizeof(unsigned)));
    timer.start();
    launch();
    DD_CUDA_CHECK(cudaGetLastError());
    timer.stop(round);
  }
  DD_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned> got(out_words);
  DD_CUDA_CHECK(cudaMemcpy(got.data(), d_out, out_words * sizeof(unsigned), cudaMemcpyDeviceToHost));
  dd::examples::Digest digest;
  for (unsigned v : got)
    digest.add(v);
  std::printf("kernel %s: %s, block %u\n", kernel.c_str(), sizes.c_str(), block);
  std::printf("words %zu\ndigest %016llx\n", out_words, (unsigned long long)digest.value());
  timer.print();
  if (verify) {
    const std::vector<unsigned> want = model();
    for (std::size_t i = 0; i < out_words; ++i)
      if (got[i] != want[i]) {
        std::printf("verify: FAIL at word %zu: %u, model %u\n", i, got[i], want[i]);
        return 1;
      }
    std::printf("verify: ok\n");
  }
  for (void *p : buffers)
    DD_CUDA_CHECK(cudaFree(p));
  DD_CUDA_CHECK(cudaFree(d_out));
  return 0;
}
