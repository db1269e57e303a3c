// The shapes an adversarial round found the atomics pass getting wrong
// (2026-11-29), as one program that checks every result against the CPU:
// per-lane values set by constructors, assembly that exits a thread or a
// libcu++ fence before a last-block read, a callee's default argument that
// reads blockIdx, an index computed by a local class. The differential test
// (test/gpu/lit-programs-differential.sh) runs it as written and as
// rewritten, and compares what it prints.
// RUN: %decoupler --passes=atomics -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s --implicit-check-not=atomic_add_uniform
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings %t.cu -o %t.out
#include <cstdio>
#include <cstdlib>
#include <cuda/ptx>
#include <cuda/std/utility>
#include <vector>

struct Lane {
  unsigned id = threadIdx.x % 8;
};
struct Slot {
  unsigned id;
  __device__ Slot() : id(threadIdx.x / 4 % 8) {}
};

__global__ void lanes(unsigned long long *c) {
  Lane l;
  // CHECK: dd::atomic_add_vr(&c[l.id], 1ull);
  // REMARK: adversarial-program.cu:[[@LINE+1]]:3: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address
  atomicAdd(&c[l.id], 1ull);
  Slot s;
  // CHECK: dd::atomic_add_vr(&c[8 + s.id], 1ull);
  atomicAdd(&c[8 + s.id], 1ull);
  cuda::std::pair<unsigned, unsigned> p(threadIdx.x % 8, 0u);
  // CHECK: dd::atomic_add_vr(&c[16 + p.first], 1ull);
  atomicAdd(&c[16 + p.first], 1ull);
}

__global__ void exits(const unsigned *keys, unsigned n, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK: dd::atomic_add_vr(&bins[keys[i] & 255], 1u);
  // REMARK: adversarial-program.cu:[[@LINE+1]]:3: remark: {{.*}}(not privatized: kernel 'exits' has inline assembly that may end the thread
  atomicAdd(&bins[keys[i] & 255], 1u);
  if (keys[i] % 7 == 0)
    asm volatile("exit;");
}

__global__ void last_block(const unsigned *keys, unsigned n, unsigned *bins,
                           const unsigned *view, unsigned *done,
                           unsigned *total) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    // CHECK: dd::atomic_add_vr(&bins[keys[i] & 255], 1u);
    // REMARK: adversarial-program.cu:[[@LINE+1]]:5: remark: {{.*}}(not privatized: kernel 'last_block' has 'cuda::ptx::fence'
    atomicAdd(&bins[keys[i] & 255], 1u);
  cuda::ptx::fence(cuda::ptx::sem_sc, cuda::ptx::scope_gpu);
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0)
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0) {
    unsigned s = 0;
    for (int b = 0; b < 256; ++b)
      s += static_cast<const volatile unsigned *>(view)[b];
    *total = s;
  }
}

__device__ unsigned key_at(const unsigned *keys, unsigned b = blockIdx.x) {
  return keys[b * blockDim.x + threadIdx.x];
}

__global__ void default_block(const unsigned *keys, unsigned n,
                              unsigned *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // CHECK: dd_private_bins.update(key_at(keys) & 255, 1u);
  // REMARK: adversarial-program.cu:[[@LINE+1]]:3: remark: {{.*}}(one block may not run the threads of several: a default argument or member initializer it uses reads blockIdx
  atomicAdd(&bins[key_at(keys) & 255], 1u);
}

__global__ void local_class(const unsigned *keys, unsigned n, unsigned *bins) {
  struct Idx {
    __device__ static unsigned of() {
      return blockIdx.x * blockDim.x + threadIdx.x;
    }
  };
  // CHECK: return blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned i = Idx::of();
  if (i >= n)
    return;
  // CHECK: dd_private_bins.update(keys[i] & 255, 1u);
  atomicAdd(&bins[keys[i] & 255], 1u);
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

static int failures = 0;

template <typename T>
static void compare(const char *name, const std::vector<T> &got,
                    const std::vector<T> &want) {
  unsigned long long hash = 1469598103934665603ull;
  for (T v : got)
    hash = (hash ^ static_cast<unsigned long long>(v)) * 1099511628211ull;
  const bool ok = got == want;
  failures += !ok;
  std::printf("%s %s %016llx\n", name, ok ? "ok" : "WRONG", hash);
}

int main() {
  const unsigned n = 1u << 20, threads = 256, blocks = n / threads;
  std::vector<unsigned> keys(n);
  unsigned x = 12345;
  for (unsigned &k : keys) {
    x = x * 1664525u + 1013904223u;
    k = (x >> 8) % 64; // 64 hot bins of 256: contended
  }
  std::vector<unsigned> want(256, 0);
  for (unsigned k : keys)
    ++want[k & 255];

  unsigned *d_keys, *d_bins, *d_done, *d_total;
  unsigned long long *d_c;
  check(cudaMalloc(&d_keys, n * sizeof(unsigned)), "cudaMalloc");
  check(cudaMalloc(&d_bins, 256 * sizeof(unsigned)), "cudaMalloc");
  check(cudaMalloc(&d_done, sizeof(unsigned)), "cudaMalloc");
  check(cudaMalloc(&d_total, sizeof(unsigned)), "cudaMalloc");
  check(cudaMalloc(&d_c, 24 * sizeof(unsigned long long)), "cudaMalloc");
  check(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned),
                   cudaMemcpyHostToDevice),
        "upload");
  std::vector<unsigned> bins(256);
  auto run_bins = [&](const char *name, auto launch) {
    check(cudaMemset(d_bins, 0, 256 * sizeof(unsigned)), "cudaMemset");
    launch();
    check(cudaGetLastError(), name);
    check(cudaMemcpy(bins.data(), d_bins, 256 * sizeof(unsigned),
                     cudaMemcpyDeviceToHost),
          name);
    compare(name, bins, want);
  };

  check(cudaMemset(d_c, 0, 24 * sizeof(unsigned long long)), "cudaMemset");
  lanes<<<blocks, threads>>>(d_c);
  check(cudaGetLastError(), "lanes");
  std::vector<unsigned long long> c(24), c_want(24, 0);
  for (unsigned t = 0; t < threads; ++t) {
    c_want[t % 8] += blocks;
    c_want[8 + t / 4 % 8] += blocks;
    c_want[16 + t % 8] += blocks;
  }
  check(cudaMemcpy(c.data(), d_c, c.size() * sizeof(c[0]),
                   cudaMemcpyDeviceToHost),
        "lanes");
  compare("lanes", c, c_want);

  run_bins("exits", [&] { exits<<<blocks, threads>>>(d_keys, n, d_bins); });
  run_bins("default_block",
           [&] { default_block<<<blocks, threads>>>(d_keys, n, d_bins); });
  run_bins("local_class",
           [&] { local_class<<<blocks, threads>>>(d_keys, n, d_bins); });

  check(cudaMemset(d_done, 0, sizeof(unsigned)), "cudaMemset");
  run_bins("last_block", [&] {
    last_block<<<264, threads>>>(d_keys, n, d_bins, d_bins, d_done, d_total);
  });
  unsigned total = 0;
  check(cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost),
        "last_block");
  // Every block's updates are in the totals the last block read.
  compare("last_block_total", std::vector<unsigned>{total},
          std::vector<unsigned>{n});
  std::printf("%s\n", failures ? "FAILED" : "all ok");
  return failures ? 1 : 0;
}
