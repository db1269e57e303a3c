// Arrays reached through accessor member functions of a parameter struct
// (Kaldi's CUDA decoder: `cst_dev_params.d_histograms.lane(ilane)[bin]`).
// `this` is the parameter, whose fields every thread reads alike, so an
// accessor's pointer is as uniform as its arguments: a block's flush of its
// shared histogram, one bin per thread, updates distinct words and stays as
// written; a per-lane counter all threads of a block update is one word,
// which nvcc already combines for int and the pass combines for 64-bit
// words. Before `this` was followed, all three became dd::atomic_*_auto.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

template <typename T> struct LaneMatrixView {
  T *data_;
  int ncols_;
  __host__ __device__ T *lane(int ilane) { return &data_[ilane * ncols_]; }
};

struct LaneCounters {
  int min_cost;
  unsigned long long visited;
};

struct DeviceParams {
  LaneMatrixView<int> d_histograms;
  LaneMatrixView<LaneCounters> d_lanes_counters;
};

constexpr int kBins = 255;

__global__ void histogram_flush(DeviceParams params, int nlanes, const int *cost, int n) {
  __shared__ int smem_histogram[kBins];
  for (int ilane = blockIdx.y; ilane < nlanes; ilane += gridDim.y) {
    for (int b = threadIdx.x; b < kBins; b += blockDim.x)
      smem_histogram[b] = 0;
    __syncthreads();
    // CHECK: accessors.cu:[[@LINE+2]]:7: remark: atomicAdd left unchanged: the address is in shared memory
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      atomicAdd(&smem_histogram[cost[i] % kBins], 1);
    __syncthreads();
    for (int bin = threadIdx.x; bin < kBins; bin += blockDim.x) {
      // CHECK: accessors.cu:[[@LINE+2]]:7: remark: atomicAdd left unchanged: affine address (stride 4 bytes): the lanes of a warp update distinct words
      // OUT: atomicAdd(&params.d_histograms.lane(ilane)[bin], smem_histogram[bin]);
      atomicAdd(&params.d_histograms.lane(ilane)[bin], smem_histogram[bin]);
    }
    __syncthreads();
  }
}

__global__ void lane_counters(DeviceParams params, int nlanes, const int *cost) {
  for (int ilane = blockIdx.y; ilane < nlanes; ilane += gridDim.y) {
    LaneCounters *counters = params.d_lanes_counters.lane(ilane);
    // CHECK: accessors.cu:[[@LINE+2]]:5: remark: atomicMin left unchanged: the address is the same in every lane, and nvcc already combines the lanes of a warp at such an address for int
    // OUT: atomicMin(&counters->min_cost, cost[threadIdx.x]);
    atomicMin(&counters->min_cost, cost[threadIdx.x]);
    // CHECK: accessors.cu:[[@LINE+2]]:5: remark: atomicAdd -> dd::atomic_add_uniform: scalar address: one atomic per warp
    // OUT: dd::atomic_add_uniform(&counters->visited, 1ull);
    atomicAdd(&counters->visited, 1ull);
  }
}

// On the GPU (test/gpu/lit-programs-differential.sh): every result is
// checked against the CPU.
#include <cstdio>
#include <cstdlib>
#include <vector>

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main() {
  const int nlanes = 6, n = 100000, threads = 256;
  std::vector<int> cost(n);
  unsigned x = 7;
  for (int &c : cost) {
    x = x * 1664525u + 1013904223u;
    c = int(x >> 9);
  }
  int *d_cost, *d_hist;
  LaneCounters *d_counters;
  check(cudaMalloc(&d_cost, n * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&d_hist, nlanes * kBins * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&d_counters, nlanes * sizeof(LaneCounters)), "cudaMalloc");
  check(cudaMemcpy(d_cost, cost.data(), n * sizeof(int), cudaMemcpyHostToDevice), "upload");
  check(cudaMemset(d_hist, 0, nlanes * kBins * sizeof(int)), "cudaMemset");
  std::vector<LaneCounters> init(nlanes, LaneCounters{0x7fffffff, 0});
  check(cudaMemcpy(d_counters, init.data(), nlanes * sizeof(LaneCounters),
                   cudaMemcpyHostToDevice),
        "upload");
  DeviceParams params{{d_hist, kBins}, {d_counters, 1}};
  // Three blocks of lanes in y, each block of 5 x 256 threads flushing its
  // own histogram of all of `cost` into each of its lanes.
  histogram_flush<<<dim3(5, 3), threads>>>(params, nlanes, d_cost, n);
  lane_counters<<<dim3(1, 4), threads>>>(params, nlanes, d_cost);
  check(cudaGetLastError(), "launch");
  std::vector<int> hist(nlanes * kBins);
  std::vector<LaneCounters> counters(nlanes);
  check(cudaMemcpy(hist.data(), d_hist, hist.size() * sizeof(int), cudaMemcpyDeviceToHost),
        "download");
  check(cudaMemcpy(counters.data(), d_counters, nlanes * sizeof(LaneCounters),
                   cudaMemcpyDeviceToHost),
        "download");
  std::vector<int> want(kBins, 0);
  for (int c : cost)
    want[c % kBins] += 5; // five blocks in x
  int min_cost = 0x7fffffff;
  for (int t = 0; t < threads; ++t)
    min_cost = cost[t] < min_cost ? cost[t] : min_cost;
  int bad = 0;
  long long total = 0;
  for (int l = 0; l < nlanes; ++l) {
    for (int b = 0; b < kBins; ++b) {
      bad += hist[l * kBins + b] != want[b];
      total += hist[l * kBins + b];
    }
    bad += counters[l].min_cost != min_cost;
    bad += counters[l].visited != static_cast<unsigned long long>(threads);
  }
  std::printf("histogram total %lld, min cost %d, visited %llu, %d wrong\n", total,
              counters[0].min_cost, counters[0].visited, bad);
  return bad ? 1 : 0;
}
