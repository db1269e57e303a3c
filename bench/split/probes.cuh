// Probes: what the ring itself costs, apart from any kernel of the study.
//   latency    one block alone on the GPU: cycles per iteration of a loop
//              whose next load waits for the previous one (a load, then a
//              store that may alias it), against the same loop through the
//              ring with Depth 1, 2, 4 (Depth 1: every stage is a full round
//              trip producer -> copy -> consumer -> release -> producer)
//   stream     the whole GPU: GB/s of a read-only stream through the ring
//              (tiles of 1, 4, 16 KiB) against plain loads, from DRAM and
//              from the L2
//   resident   blocks of 288 threads and the split kernels' shared memory
//              actually resident per SM, launched right after a kernel
//              without shared memory (what the occupancy API cannot see:
//              the shared-memory carveout the driver picks)
#ifndef DD_BENCH_SPLIT_PROBES_CUH
#define DD_BENCH_SPLIT_PROBES_CUH

#include "common.cuh"
#include "matvec.cuh"

namespace split {

__device__ __forceinline__ int load_cg(const int *p) { // L2, never L1, never hoisted
  int v;
  asm volatile("ld.global.cg.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ long long globaltimer_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void probe_ldg_latency(int *A, int *B, int iters, int stride, int from_l2,
                                  long long *cycles) {
  const int t = threadIdx.x;
  __syncthreads();
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    const int *p = A + (from_l2 ? 0 : i * stride) + t;
    const int v = from_l2 ? load_cg(p) : *p;
    B[i * stride + t] = v + 1;
  }
  __syncthreads();
  if (t == 0)
    *cycles = clock64() - t0;
}

template <unsigned Depth>
__global__ void __launch_bounds__(kSplitThreads)
    probe_ring_latency(const int *A, int *B, int iters, int stride, int from_l2,
                       long long *cycles) {
  using Queue = dd::AffineQueue<int, kBlock, Depth>;
  __shared__ typename Queue::Storage storage;
  Queue q(storage);
  q.init(kConsumerWarps);
  typename Queue::Cursor c;
  if (threadIdx.x >= kBlock) {
    for (int i = 0; i < iters; ++i, c.advance()) {
      q.acquire(c);
      q.copy_tile_async(c, 0, A + (from_l2 ? 0 : i * stride), 0, kBlock);
      q.commit(c);
    }
  } else {
    const int t = threadIdx.x;
    const long long t0 = clock64();
    for (int i = 0; i < iters; ++i, c.advance()) {
      q.wait(c);
      const int v = q.tile(c)[t];
      q.release(c);
      B[i * stride + t] = v + 1;
    }
    dd::consumer_sync(kBlock);
    if (t == 0)
      *cycles = clock64() - t0;
  }
}

template <unsigned Depth, unsigned Tile>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    probe_ring_stream(const float *src, std::size_t mask, int tiles, float *out) {
  using Queue = dd::AffineQueue<float, Tile, Depth>;
  __shared__ typename Queue::Storage storage;
  Queue q(storage);
  q.init(kConsumerWarps);
  typename Queue::Cursor c;
  if (threadIdx.x >= kBlock) {
    for (int k = 0; k < tiles; ++k, c.advance()) {
      q.acquire(c);
      const std::size_t base = ((std::size_t(blockIdx.x) * tiles + k) * Tile) & mask;
      q.copy_tile_async(c, 0, src + base, 0, Tile);
      q.commit(c);
    }
  } else {
    float sum = 0.0f;
    for (int k = 0; k < tiles; ++k, c.advance()) {
      q.wait(c);
      float v[Tile / kBlock];
#pragma unroll
      for (unsigned e = 0; e < Tile / kBlock; ++e)
        v[e] = q.tile(c)[e * kBlock + threadIdx.x];
      q.release(c);
#pragma unroll
      for (unsigned e = 0; e < Tile / kBlock; ++e)
        sum += v[e];
    }
    out[blockIdx.x * kBlock + threadIdx.x] = sum;
  }
}

template <unsigned Tile>
__global__ void probe_ldg_stream(const float *__restrict__ src, std::size_t mask, int tiles,
                                 float *out) {
  float sum = 0.0f;
#pragma unroll 8
  for (int k = 0; k < tiles; ++k) {
    const std::size_t base = ((std::size_t(blockIdx.x) * tiles + k) * Tile) & mask;
#pragma unroll
    for (unsigned e = 0; e < Tile / kBlock; ++e)
      sum += src[base + e * kBlock + threadIdx.x];
  }
  out[blockIdx.x * kBlock + threadIdx.x] = sum;
}

template <unsigned SmemBytes>
__global__ void probe_resident(unsigned *count, unsigned *peak, long long spin_ns) {
  __shared__ volatile unsigned pad[SmemBytes / 4];
  if (threadIdx.x == 0) {
    pad[threadIdx.x] = 1;
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    const unsigned now = atomicAdd(&count[smid], 1u) + 1;
    atomicMax(&peak[smid], now);
    const long long t0 = globaltimer_ns();
    while (globaltimer_ns() - t0 < spin_ns) {
    }
    atomicSub(&count[smid], 1u);
  }
  __syncthreads();
}

struct ProbeRow {
  std::string probe, config;
  double value;
  std::string unit;
};

inline double median_of(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median event time of `reps` launches (after 2 warm-ups).
template <class F> double time_ms(F &&launch, int reps) {
  cudaEvent_t s, e;
  DD_CUDA_CHECK(cudaEventCreate(&s));
  DD_CUDA_CHECK(cudaEventCreate(&e));
  std::vector<float> ms;
  for (int r = 0; r < reps + 2; ++r) {
    DD_CUDA_CHECK(cudaEventRecord(s));
    launch();
    DD_CUDA_CHECK(cudaEventRecord(e));
    DD_CUDA_CHECK(cudaEventSynchronize(e));
    DD_CUDA_CHECK(cudaGetLastError());
    float t;
    DD_CUDA_CHECK(cudaEventElapsedTime(&t, s, e));
    if (r >= 2)
      ms.push_back(t);
  }
  DD_CUDA_CHECK(cudaEventDestroy(s));
  DD_CUDA_CHECK(cudaEventDestroy(e));
  return median_of(ms);
}

inline void probes_bench(Bench &b, std::vector<ProbeRow> &out, int carveout) {
  if (!b.wants("probes") || b.quick)
    return;
  cudaDeviceProp prop;
  DD_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;

  // ---- latency: one block ----
  {
    // Rows 64 KiB apart, and fresh rows for every repetition (the rows one
    // run touches would otherwise sit in the L2 for the next).
    const int iters = 512, stride = 16384, reps = 5;
    const std::size_t per_rep = std::size_t(iters) * stride;
    DeviceArray<int> A(per_rep * reps), B(per_rep * reps);
    fill_random(A.ptr, A.n, 21);
    DeviceArray<long long> cyc(1);
    for (int l2 = 0; l2 < 2; ++l2) {
      auto run = [&](auto launch, const char *name) {
        std::vector<float> v;
        for (int r = 0; r < reps; ++r) {
          launch(A.ptr + r * per_rep, B.ptr + r * per_rep);
          DD_CUDA_CHECK(cudaGetLastError());
          long long h;
          DD_CUDA_CHECK(cudaMemcpy(&h, cyc.ptr, sizeof h, cudaMemcpyDeviceToHost));
          v.push_back(float(h) / iters);
        }
        out.push_back({"latency", fmt("%s, %s", name, l2 ? "L2" : "DRAM"), median_of(v),
                       "cycles/iter"});
      };
      run([&](int *a, int *b) { probe_ldg_latency<<<1, kBlock>>>(a, b, iters, stride, l2, cyc.ptr); },
          "load->store (original)");
      run([&](int *a, int *b) {
        probe_ring_latency<1><<<1, kSplitThreads>>>(a, b, iters, stride, l2, cyc.ptr);
      }, "ring D1");
      run([&](int *a, int *b) {
        probe_ring_latency<2><<<1, kSplitThreads>>>(a, b, iters, stride, l2, cyc.ptr);
      }, "ring D2");
      run([&](int *a, int *b) {
        probe_ring_latency<4><<<1, kSplitThreads>>>(a, b, iters, stride, l2, cyc.ptr);
      }, "ring D4");
    }
  }

  // ---- streaming throughput: whole GPU ----
  {
    const std::size_t dram_elems = std::size_t(1) << 28; // 1 GiB
    const std::size_t l2_elems = std::size_t(1) << 22;   // 16 MiB
    DeviceArray<float> src(dram_elems);
    fill_random(src.ptr, src.n, 22);
    const double total_bytes = double(std::size_t(1) << 30);
    auto stream = [&](auto kernel, unsigned threads, unsigned tile, const char *name) {
      if (carveout >= 0 && threads == kSplitThreads)
        DD_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel),
                                        cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
      int per_sm = 0;
      DD_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, reinterpret_cast<const void *>(kernel), int(threads), 0));
      const int blocks = sms * per_sm;
      const int tiles = int(total_bytes / (double(blocks) * tile * 4));
      DeviceArray<float> o(std::size_t(blocks) * kBlock);
      for (int l2 = 0; l2 < 2; ++l2) {
        const std::size_t mask = (l2 ? l2_elems : dram_elems) - 1;
        const double ms = time_ms([&] { kernel<<<blocks, threads>>>(src.ptr, mask, tiles, o.ptr); }, 10);
        out.push_back({"stream", fmt("%s, %s", name, l2 ? "L2" : "DRAM"),
                       double(blocks) * tiles * tile * 4 / ms * 1e-6, "GB/s"});
      }
    };
    stream(probe_ldg_stream<256>, kBlock, 256, "plain loads, unroll 8");
    stream(probe_ring_stream<16, 256>, kSplitThreads, 256, "ring 1 KiB tiles D16");
    stream(probe_ring_stream<4, 1024>, kSplitThreads, 1024, "ring 4 KiB tiles D4");
    stream(probe_ring_stream<2, 4096>, kSplitThreads, 4096, "ring 16 KiB tiles D2");
  }

  // ---- residency after a kernel without shared memory ----
  {
    DeviceArray<unsigned> count(1024), peak(1024);
    DeviceArray<float> A(std::size_t(8192) * 8192), x(8192), y(8192);
    auto resident = [&](auto kernel, unsigned smem) {
      if (carveout >= 0)
        DD_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel),
                                        cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
      DD_CUDA_CHECK(cudaMemset(count.ptr, 0, count.bytes()));
      DD_CUDA_CHECK(cudaMemset(peak.ptr, 0, peak.bytes()));
      matvec_original<<<8192, kBlock>>>(A.ptr, x.ptr, y.ptr, 8192); // leaves L1-heavy config
      kernel<<<sms * 16, kSplitThreads>>>(count.ptr, peak.ptr, 20000);
      DD_CUDA_CHECK(cudaDeviceSynchronize());
      DD_CUDA_CHECK(cudaGetLastError());
      std::vector<unsigned> h(sms);
      DD_CUDA_CHECK(cudaMemcpy(h.data(), peak.ptr, sms * sizeof(unsigned), cudaMemcpyDeviceToHost));
      const auto mm = std::minmax_element(h.begin(), h.end());
      int api = 0;
      DD_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &api, reinterpret_cast<const void *>(kernel), int(kSplitThreads), 0));
      out.push_back({"resident", fmt("288 threads, %u B shared: API says %d/SM; min over SMs", smem, api),
                     double(*mm.first), "blocks/SM"});
      out.push_back({"resident", fmt("288 threads, %u B shared: max over SMs", smem),
                     double(*mm.second), "blocks/SM"});
    };
    resident(probe_resident<8512>, 8512);
    resident(probe_resident<17088>, 17088);
    resident(probe_resident<25520>, 25520);
    resident(probe_resident<33824>, 33824);
  }
  for (auto &r : out)
    std::printf("probe %-9s %-62s %10.1f %s\n", r.probe.c_str(), r.config.c_str(), r.value,
                r.unit.c_str());
}

} // namespace split

#endif // DD_BENCH_SPLIT_PROBES_CUH
