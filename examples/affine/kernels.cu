// A few kernels that show what the affine analysis sees:
//   decoupler --analyze examples/affine/kernels.cu
// The program itself runs each kernel once and checks the results, so it is
// also an ordinary CUDA program: nvcc -arch=sm_90 -I runtime/include kernels.cu
#include <cstdio>
#include <cstdlib>
#include <dd/annotate.h>
#include <dd/cuda_check.h>
#include <vector>

// Figure 3.3 of the dissertation: the addresses A[i*num+tid] and B[i*num+tid]
// are affine (stride 4 bytes), the loop predicate i < dim is scalar.
__global__ void example_kernel(int A[], int B[], int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  DD_PRAGMA(decouple depth(4))
  for (int i = 0; i < dim; i++) {
    int tmp = A[i * num + tid];
    B[i * num + tid] = tmp + 1;
  }
}

// A 32x32 shared-memory tile: x stride 4 bytes, y stride 132 bytes (padded).
__global__ void transpose(float *out, const float *in, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < n && y < n)
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < n && y < n)
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// A histogram: the bin address is loaded (nonaffine), so the atomic is a
// candidate for warp aggregation.
__global__ void histogram(unsigned *bins, const unsigned char *keys, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[keys[i]], 1u);
}


int main() {
  const int Dim = 8, Num = 1 << 12, N = 256;
  std::vector<int> A(Dim * Num);
  for (int i = 0; i < Dim * Num; ++i)
    A[i] = i * 7 - 3;
  int *dA, *dB;
  DD_CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(int)));
  DD_CUDA_CHECK(cudaMalloc(&dB, A.size() * sizeof(int)));
  DD_CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(int), cudaMemcpyHostToDevice));
  example_kernel<<<Num / 256, 256>>>(dA, dB, Dim, Num);
  DD_CUDA_CHECK(cudaGetLastError());
  std::vector<int> B(A.size());
  DD_CUDA_CHECK(cudaMemcpy(B.data(), dB, B.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < B.size(); ++i)
    if (B[i] != A[i] + 1) {
      std::fprintf(stderr, "example_kernel: wrong value at %zu\n", i);
      return 1;
    }

  std::vector<float> In(N * N), Out(N * N);
  for (int i = 0; i < N * N; ++i)
    In[i] = float(i % 977);
  float *dIn, *dOut;
  DD_CUDA_CHECK(cudaMalloc(&dIn, In.size() * sizeof(float)));
  DD_CUDA_CHECK(cudaMalloc(&dOut, Out.size() * sizeof(float)));
  DD_CUDA_CHECK(cudaMemcpy(dIn, In.data(), In.size() * sizeof(float), cudaMemcpyHostToDevice));
  transpose<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(dOut, dIn, N);
  DD_CUDA_CHECK(cudaGetLastError());
  DD_CUDA_CHECK(cudaMemcpy(Out.data(), dOut, Out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      if (Out[y * N + x] != In[x * N + y]) {
        std::fprintf(stderr, "transpose: wrong value at (%d, %d)\n", x, y);
        return 1;
      }

  std::vector<unsigned char> Keys(1 << 16);
  std::vector<unsigned> Expected(256, 0), Bins(256);
  for (size_t i = 0; i < Keys.size(); ++i) {
    Keys[i] = (unsigned char)((i * 2654435761u) >> 24);
    ++Expected[Keys[i]];
  }
  unsigned char *dKeys;
  unsigned *dBins;
  DD_CUDA_CHECK(cudaMalloc(&dKeys, Keys.size()));
  DD_CUDA_CHECK(cudaMalloc(&dBins, 256 * sizeof(unsigned)));
  DD_CUDA_CHECK(cudaMemcpy(dKeys, Keys.data(), Keys.size(), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemset(dBins, 0, 256 * sizeof(unsigned)));
  histogram<<<64, 256>>>(dBins, dKeys, (int)Keys.size());
  DD_CUDA_CHECK(cudaGetLastError());
  DD_CUDA_CHECK(cudaMemcpy(Bins.data(), dBins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  if (Bins != Expected) {
    std::fprintf(stderr, "histogram: wrong counts\n");
    return 1;
  }
  std::printf("all kernels correct\n");
  return 0;
}
