// Sparse matrix-vector product in COO form, one thread per nonzero:
// y[row] += a * x[col] with an atomicAdd, which collides on rows with many
// nonzeros. Values are small integers derived from a seed so that the sum is
// exact in any order (64-bit two's complement), which lets the rewritten
// program be compared with the original bit for bit.
//
//   spmv_coo [--seed S] [--block T] [--format F] [--base 0|1] GRAPH
// GRAPH is any format docs/graphs.md lists (its edges are the nonzeros).
// Prints "row value" for every row.
#include <vector>

#include "example_graph.h"

__global__ void spmv_coo_kernel(const unsigned *rows, const unsigned *cols,
                                const int *vals, const int *x,
                                unsigned long long *y, unsigned long long nnz) {
  unsigned long long e = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (e >= nnz)
    return;
  long long product = (long long)vals[e] * x[cols[e]];
  atomicAdd(&y[rows[e]], (unsigned long long)product);
}

namespace {

const char Usage[] =
    "usage: spmv_coo [--seed S] [--block T] [--format F] [--base 0|1] GRAPH\n";

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opts(argc, argv, Usage);
  std::uint64_t seed = opts.number("seed", 1);
  std::uint64_t block = opts.number("block", 256);
  dd::graph::ReadOptions read = dd::examples::graph_read_options(opts, false);
  std::string path = opts.positional(0);
  opts.finish();
  if (path.empty())
    opts.fail("no GRAPH given");
  if (block == 0 || block > 1024)
    opts.fail("--block is between 1 and 1024");

  const dd::graph::Csr a = dd::examples::read_graph_or_exit(path, read);
  std::uint64_t n = a.num_vertices(), nnz = a.num_edges();

  std::vector<unsigned> rows(nnz), cols(a.col_indices.begin(), a.col_indices.end());
  std::vector<int> vals(nnz), x(n);
  for (std::uint64_t r = 0; r < n; ++r)
    for (std::uint64_t e = a.row_offsets[r]; e < a.row_offsets[r + 1]; ++e)
      rows[e] = unsigned(r);
  for (std::uint64_t e = 0; e < nnz; ++e)
    vals[e] = int(dd::examples::mix64(seed ^ (e << 1)) % 201) - 100;
  for (std::uint64_t v = 0; v < n; ++v)
    x[v] = int(dd::examples::mix64(seed ^ ((v << 1) | 1)) % 21) - 10;

  unsigned *dRows, *dCols;
  int *dVals, *dX;
  unsigned long long *dY;
  DD_CUDA_CHECK(cudaMalloc(&dRows, nnz * sizeof(unsigned) + 4));
  DD_CUDA_CHECK(cudaMalloc(&dCols, nnz * sizeof(unsigned) + 4));
  DD_CUDA_CHECK(cudaMalloc(&dVals, nnz * sizeof(int) + 4));
  DD_CUDA_CHECK(cudaMalloc(&dX, n * sizeof(int) + 4));
  DD_CUDA_CHECK(cudaMalloc(&dY, n * sizeof(unsigned long long) + 8));
  DD_CUDA_CHECK(cudaMemcpy(dRows, rows.data(), nnz * sizeof(unsigned), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(dCols, cols.data(), nnz * sizeof(unsigned), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(dVals, vals.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(dX, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemset(dY, 0, n * sizeof(unsigned long long)));
  if (nnz > 0) {
    unsigned long long blocks = (nnz + block - 1) / block;
    spmv_coo_kernel<<<unsigned(blocks), unsigned(block)>>>(dRows, dCols, dVals, dX, dY, nnz);
    DD_CUDA_CHECK(cudaGetLastError());
  }
  std::vector<unsigned long long> y(n);
  DD_CUDA_CHECK(cudaMemcpy(y.data(), dY, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));

  // The same product on the CPU: the program checks itself.
  std::vector<long long> expected(n, 0);
  for (std::uint64_t e = 0; e < nnz; ++e)
    expected[rows[e]] += (long long)vals[e] * x[cols[e]];
  bool ok = true;
  for (std::uint64_t r = 0; r < n; ++r) {
    std::printf("%llu %lld\n", (unsigned long long)r, (long long)y[r]);
    ok &= (long long)y[r] == expected[r];
  }
  if (!ok)
    std::fprintf(stderr, "spmv_coo: result differs from the CPU product\n");
  DD_CUDA_CHECK(cudaFree(dRows));
  DD_CUDA_CHECK(cudaFree(dCols));
  DD_CUDA_CHECK(cudaFree(dVals));
  DD_CUDA_CHECK(cudaFree(dX));
  DD_CUDA_CHECK(cudaFree(dY));
  return ok ? 0 : 1;
}
