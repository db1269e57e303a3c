// Under --split=auto, a loop that stores through one pointer parameter and
// streams another may be split only when the two cannot overlap. Without
// __restrict__ or an annotation, the pass looks at the file's launches: when
// every launch passes two distinct local variables that only cudaMalloc (or
// its family) ever sets, the buffers are distinct allocations
// (support/Allocations.h). PolyBench and Rodinia pass their buffers so.
// Anything else leaves the loop as written, with the reason as a remark.
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.dd.cu -o %t.o
#include <cstdio>
#include <cstring>
#include <utility>

// Each block scales one row and sums it (in integers: any order of the
// atomic additions gives the same sums); the kernels differ in how they
// are launched (main, below).

// Launched with two cudaMalloc buffers: split.
// REMARK: distinct-allocations.cu:[[@LINE+7]]:3: remark: --split=auto: split plan for loop: streams x[i] {{.*}}; no store writes a stream: 'in' and 'out' get distinct buffers of cudaMalloc or its family at the launch of this file; rewritten: scale_rows_split
// CHECK: __global__ void {{.*}}scale_rows_split(
// CHECK: static void scale_rows_launch(
__global__ void scale_rows(const float *in, float *out, unsigned *sums, int C) {
  const float *x = in + blockIdx.x * C;
  float *y = out + blockIdx.x * C;
  unsigned s = 0;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = x[i];
    y[i] = 2.0f * v;
    s += unsigned(v * 8.0f);
  }
  atomicAdd(&sums[blockIdx.x], s);
}

// Managed memory, launched twice: split.
// REMARK: distinct-allocations.cu:[[@LINE+5]]:3: remark: --split=auto: split plan for loop: {{.*}}; no store writes a stream: 'in' and 'out' get distinct buffers of cudaMalloc or its family at all 2 launches of this file; rewritten: scale_managed_split
__global__ void scale_managed(const float *in, float *out, unsigned *sums, int C) {
  const float *x = in + blockIdx.x * C;
  float *y = out + blockIdx.x * C;
  unsigned s = 0;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = x[i];
    y[i] = 2.0f * v;
    s += unsigned(v * 8.0f);
  }
  atomicAdd(&sums[blockIdx.x], s);
}

// Ping-pong buffers, swapped between launches: they trade places.
// REMARK: distinct-allocations.cu:[[@LINE+5]]:3: remark: --split=auto: not splitting this loop: the store 'y[i] = 2.0f * v' may alias the streamed array 'in' (no '#pragma dd decouple' promise, no __restrict__)
__global__ void scale_swapped(const float *in, float *out, unsigned *sums, int C) {
  const float *x = in + blockIdx.x * C;
  float *y = out + blockIdx.x * C;
  unsigned s = 0;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = x[i];
    y[i] = 2.0f * v;
    s += unsigned(v * 8.0f);
  }
  atomicAdd(&sums[blockIdx.x], s);
}

// Two halves of one buffer.
// REMARK: distinct-allocations.cu:[[@LINE+5]]:3: remark: --split=auto: not splitting this loop: the store 'y[i] = 2.0f * v' may alias the streamed array 'in' (no '#pragma dd decouple' promise, no __restrict__)
__global__ void scale_halves(const float *in, float *out, unsigned *sums, int C) {
  const float *x = in + blockIdx.x * C;
  float *y = out + blockIdx.x * C;
  unsigned s = 0;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = x[i];
    y[i] = 2.0f * v;
    s += unsigned(v * 8.0f);
  }
  atomicAdd(&sums[blockIdx.x], s);
}

// One launch in place.
// REMARK: distinct-allocations.cu:[[@LINE+5]]:3: remark: --split=auto: not splitting this loop: the store 'y[i] = 2.0f * v' may alias the streamed array 'in' (no '#pragma dd decouple' promise, no __restrict__)
__global__ void scale_in_place(const float *in, float *out, unsigned *sums, int C) {
  const float *x = in + blockIdx.x * C;
  float *y = out + blockIdx.x * C;
  unsigned s = 0;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = x[i];
    y[i] = 2.0f * v;
    s += unsigned(v * 8.0f);
  }
  atomicAdd(&sums[blockIdx.x], s);
}

// Launched from a function that takes the buffers as parameters.
// REMARK: distinct-allocations.cu:[[@LINE+5]]:3: remark: --split=auto: not splitting this loop: the store 'y[i] = 2.0f * v' may alias the streamed array 'in' (no '#pragma dd decouple' promise, no __restrict__)
__global__ void scale_given(const float *in, float *out, unsigned *sums, int C) {
  const float *x = in + blockIdx.x * C;
  float *y = out + blockIdx.x * C;
  unsigned s = 0;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = x[i];
    y[i] = 2.0f * v;
    s += unsigned(v * 8.0f);
  }
  atomicAdd(&sums[blockIdx.x], s);
}

// A buffer variable whose address is kept elsewhere.
// REMARK: distinct-allocations.cu:[[@LINE+5]]:3: remark: --split=auto: not splitting this loop: the store 'y[i] = 2.0f * v' may alias the streamed array 'in' (no '#pragma dd decouple' promise, no __restrict__)
__global__ void scale_escaped(const float *in, float *out, unsigned *sums, int C) {
  const float *x = in + blockIdx.x * C;
  float *y = out + blockIdx.x * C;
  unsigned s = 0;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = x[i];
    y[i] = 2.0f * v;
    s += unsigned(v * 8.0f);
  }
  atomicAdd(&sums[blockIdx.x], s);
}

// The kernel itself points a parameter at the other buffer.
// REMARK: distinct-allocations.cu:[[@LINE+6]]:3: remark: --split=auto: not splitting this loop: the store 'y[i] = 2.0f * x[i]' may alias the streamed array 'in'
__global__ void scale_redirected(const float *in, float *out, unsigned *sums, int C) {
  if (C < 0)
    in = out;
  const float *x = in + blockIdx.x * C;
  float *y = out + blockIdx.x * C;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    y[i] = 2.0f * x[i];
}

void launch_given(const float *in, float *out, unsigned *sums, int rows, int C) {
  scale_given<<<rows, 128>>>(in, out, sums, C);
}

// The program, for the GPU differential run (docs/split-pass.md): prints a
// hash of every output, the same as written and rewritten.
static unsigned long long hash(const float *d, size_t n, unsigned long long h) {
  float *h_buf = new float[n];
  cudaMemcpy(h_buf, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < n; ++i) {
    unsigned bits;
    std::memcpy(&bits, &h_buf[i], 4);
    h = h * 1099511628211ull ^ bits;
  }
  delete[] h_buf;
  return h;
}

int main() {
  const int rows = 512, C = 4096;
  const size_t n = size_t(rows) * C;
  float *d_in = nullptr, *d_out = NULL, *d_m_in, *d_m_out, *d_buf, *d_escaped;
  cudaMalloc((void **)&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  unsigned *d_sums;
  cudaMalloc(&d_sums, rows * sizeof(unsigned));
  cudaMallocManaged(&d_m_in, n * sizeof(float));
  cudaMallocManaged(&d_m_out, n * sizeof(float));
  cudaMalloc(&d_buf, 2 * n * sizeof(float));
  cudaMalloc(&d_escaped, n * sizeof(float));
  float **slot = &d_escaped;
  float *h_in = new float[n];
  for (size_t i = 0; i < n; ++i)
    h_in[i] = float((i * 2654435761u) % 1000) / 8.0f;
  cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_m_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_buf, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_escaped, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  unsigned long long h = 1469598103934665603ull;
  for (int block : {64, 128, 256}) {
    // Several launches per block size, so that the launcher runs both ways.
    for (int rep = 0; rep < 3; ++rep) {
      cudaMemset(d_sums, 0, rows * sizeof(unsigned));
      scale_rows<<<rows, block>>>(d_in, d_out, d_sums, C);
      h = hash(d_out, n, hash((const float *)d_sums, rows, h));
      scale_managed<<<rows, block>>>(d_m_in, d_m_out, d_sums, C);
      scale_managed<<<rows, block>>>(d_m_out, d_m_in, d_sums, C);
      h = hash(d_m_in, n, h);
    }
  }
  float *ping = d_in, *pong = d_out;
  for (int step = 0; step < 4; ++step) {
    scale_swapped<<<rows, 128>>>(ping, pong, d_sums, C);
    std::swap(ping, pong);
  }
  scale_halves<<<rows, 128>>>(d_buf, d_buf + n, d_sums, C);
  scale_in_place<<<rows, 128>>>(d_out, d_out, d_sums, C);
  launch_given(d_in, d_out, d_sums, rows, C);
  scale_escaped<<<rows, 128>>>(d_escaped, d_out, d_sums, C);
  (void)slot;
  scale_redirected<<<rows, 128>>>(d_in, d_out, d_sums, C);
  h = hash(d_out, n, hash(d_buf, 2 * n, hash((const float *)d_sums, rows, h)));
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("CUDA error\n");
    return 1;
  }
  std::printf("hash %llx\n", h);
  return 0;
}
