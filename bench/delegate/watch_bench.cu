// What watching a launch costs a program that waits for every launch.
//
// The adaptive launchers (<dd/delegate.cuh>, <dd/privatize_launch.h>) time
// some untimed launches with a pair of events and read the time at a later
// launch (dd/detail/launch_watch.h). A program that synchronizes after each
// launch (push-relabel's rounds, the examples' --time loops) leaves the GPU
// idle while the host prepares the next launch, so every host call made
// between the program's own start event and the kernel shows in its time.
// This program measures that, per way of wrapping one launch, with the
// program's own loop around it (memsets, start event, launch, stop event,
// synchronize), on kernels of about 20 and 100 us:
//
//   plain          the launch alone
//   pair           event, launch, event
//   capture+pair   cudaStreamIsCapturing, then pair (the launcher's watched launch)
//   read-before    the last pair's query and elapsed time, then the launch
//   read-after     the launch, then the last pair's query and elapsed time
//   pair+read-before / pair+read-after   both: a watched launch whose
//                  predecessor was watched too
//
// and the host time of each call on its own. Ways run in turn, 20 launches
// at a time, so drift of the GPU's clock reaches all of them alike; medians.
//
//   watch_bench [--reps R]        (R turns of 20 launches per way, default 25)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    const cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// Dependent arithmetic per thread, then one store: a kernel whose length is
// set by `iters` and that the compiler cannot drop.
__global__ void spin(float *out, int iters) {
  float x = threadIdx.x * 1e-3f, y = blockIdx.x * 1e-3f;
  for (int i = 0; i < iters; ++i) {
    x = fmaf(x, 0.999f, y);
    y = fmaf(y, 0.999f, x);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}

namespace {

enum Way { Plain, Pair, CapturePair, ReadBefore, ReadAfter, PairReadBefore, PairReadAfter, kWays };
const char *const kNames[kWays] = {"plain",        "pair",           "capture+pair",  "read-before",
                                   "read-after",   "pair+read-before", "pair+read-after"};

struct Watch {
  cudaEvent_t ev[2][2];
  int slot = 0;
  bool pending[2] = {false, false};
  float last = 0;
  Watch() {
    for (auto &pair : ev)
      for (auto &e : pair)
        CHECK(cudaEventCreate(&e));
  }
  void record(int s, cudaStream_t stream, bool begin) { CHECK(cudaEventRecord(ev[s][begin ? 0 : 1], stream)); }
  // Reads slot s if complete (never waits), as LaunchWatch::observe does.
  void read(int s) {
    if (!pending[s])
      return;
    const cudaError_t done = cudaEventQuery(ev[s][1]);
    if (done == cudaErrorNotReady)
      return;
    CHECK(done);
    pending[s] = false;
    CHECK(cudaEventElapsedTime(&last, ev[s][0], ev[s][1]));
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  int reps = 25;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
      reps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: watch_bench [--reps R]\n");
      return 2;
    }
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned blocks = 4u * unsigned(sms), threads = 256;
  float *out = nullptr, *scratch = nullptr;
  const size_t scratch_bytes = size_t(12) << 20; // the examples' three 4 MB memsets
  CHECK(cudaMalloc(&out, size_t(blocks) * threads * sizeof(float)));
  CHECK(cudaMalloc(&scratch, scratch_bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  cudaStream_t stream = 0;

  // Kernel lengths: calibrate iters for about 20 and 100 us.
  auto time_once = [&](int iters) {
    CHECK(cudaEventRecord(start, stream));
    spin<<<blocks, threads, 0, stream>>>(out, iters);
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    return double(ms) * 1e3;
  };
  time_once(1000);
  const double per_iter = time_once(20000) / 20000;
  const int targets_us[2] = {20, 100};

  std::printf("device SMs %d, grid %u x %u, %d turns of 20 launches per way\n", sms, blocks, threads, reps);
  std::printf("%-18s %12s %12s %12s %12s\n", "way", "20us: us", "+us vs plain", "100us: us", "+us vs plain");
  double results[2][kWays];
  for (int t = 0; t < 2; ++t) {
    const int iters = std::max(1, int(targets_us[t] / per_iter));
    std::vector<double> times[kWays];
    Watch watch;
    for (int rep = 0; rep < reps; ++rep)
      for (int w = 0; w < kWays; ++w)
        for (int k = 0; k < 21; ++k) {
          // As a program's loop: reset its buffers, then the timed launch.
          CHECK(cudaMemsetAsync(scratch, 0, scratch_bytes, stream));
          CHECK(cudaEventRecord(start, stream));
          const int s = watch.slot;
          const bool pair = w == Pair || w == CapturePair || w == PairReadBefore || w == PairReadAfter;
          const bool before = w == ReadBefore || w == PairReadBefore;
          const bool after = w == ReadAfter || w == PairReadAfter;
          if (before)
            watch.read(1 - s);
          if (w == CapturePair) {
            cudaStreamCaptureStatus capture;
            CHECK(cudaStreamIsCapturing(stream, &capture));
          }
          if (pair)
            watch.record(s, stream, true);
          spin<<<blocks, threads, 0, stream>>>(out, iters);
          if (pair) {
            watch.record(s, stream, false);
            watch.pending[s] = true;
          }
          if (after)
            watch.read(1 - s);
          CHECK(cudaEventRecord(stop, stream));
          CHECK(cudaEventSynchronize(stop));
          float ms = 0;
          CHECK(cudaEventElapsedTime(&ms, start, stop));
          // The read ways need something to read: a pair recorded outside
          // the timed region when the way records none itself.
          if ((before || after) && !pair) {
            watch.record(1 - s, stream, true);
            spin<<<1, 32, 0, stream>>>(out, 1);
            watch.record(1 - s, stream, false);
            watch.pending[1 - s] = true;
            CHECK(cudaStreamSynchronize(stream));
          } else {
            watch.slot = 1 - s;
          }
          if (k != 0)
            times[w].push_back(double(ms) * 1e3);
        }
    for (int w = 0; w < kWays; ++w)
      results[t][w] = median(times[w]);
  }
  for (int w = 0; w < kWays; ++w)
    std::printf("%-18s %12.2f %12.2f %12.2f %12.2f\n", kNames[w], results[0][w], results[0][w] - results[0][Plain],
                results[1][w], results[1][w] - results[1][Plain]);

  // Host time of each call alone (median of 1000, GPU idle, events complete).
  auto host_us = [](auto &&f) {
    std::vector<double> v;
    for (int i = 0; i < 1000; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      f();
      v.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    return median(v);
  };
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a, stream));
  CHECK(cudaEventRecord(b, stream));
  CHECK(cudaDeviceSynchronize());
  int device = 0;
  cudaStreamCaptureStatus capture;
  float ms = 0;
  std::printf("host us per call: cudaEventRecord %.3f, cudaEventQuery %.3f, cudaEventElapsedTime %.3f, "
              "cudaStreamIsCapturing %.3f, cudaGetDevice %.3f\n",
              host_us([&] { CHECK(cudaEventRecord(a, stream)); CHECK(cudaEventRecord(b, stream)); }) / 2,
              host_us([&] { CHECK(cudaEventQuery(b)); }),
              host_us([&] { CHECK(cudaEventElapsedTime(&ms, a, b)); }),
              host_us([&] { CHECK(cudaStreamIsCapturing(stream, &capture)); }),
              host_us([&] { CHECK(cudaGetDevice(&device)); }));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
