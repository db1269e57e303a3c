// A GPU older than a pass's code needs, among those the file is compiled
// for: the atomics pass leaves the atomic as written (a remark), and an
// annotated critical section is an error; each names the GPU. (nvcc 13
// compiles for sm_75 and newer, so this shows with clang's spellings.)
// RUN: %decoupler --no-line-directives --passes=atomics -Rdecoupler --cuda-gpu-arch=sm_60,sm_90 %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=ATOMICS
// RUN: not %decoupler --no-line-directives --passes=delegate %s -o %t2.cu -- --cuda-gpu-arch=sm_60 --cuda-gpu-arch=sm_90 2>&1 | FileCheck %s --check-prefix=DELEGATE
// RUN: %decoupler --no-line-directives --passes=atomics,delegate -Rdecoupler --cuda-gpu-arch=sm_70 %s -o %t3.cu 2>&1 | FileCheck %s --check-prefix=SM70

__global__ void count(const int *in, int n, unsigned *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // ATOMICS: target-architectures-old.cu:[[@LINE+3]]:5: remark: atomicAdd left unchanged: the file is also compiled for sm_60, and the rewritten atomics (dd/atomics.cuh) need sm_70 or newer (__match_any_sync)
  // SM70-DAG: target-architectures-old.cu:[[@LINE+2]]:5: remark: atomicAdd -> 
  if (i < n)
    atomicAdd(&total[in[i] & 255], 1u);
}

__global__ void insert(const int *keys, int n, int *table, int *locks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int b = keys[i] & 1023;
  bool done = false;
  // DELEGATE: target-architectures-old.cu:[[@LINE+3]]:3: error: {{.*}}the file is also compiled for sm_60, and the servers' channel (dd/channel.cuh) needs sm_70 or newer
  // SM70-DAG: target-architectures-old.cu:[[@LINE+2]]:3: remark: delegated the critical section
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      __threadfence();
      table[b] += 1;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

void run(const int *keys, int n, int *table, int *locks, unsigned *total) {
  count<<<(n + 255) / 256, 256>>>(keys, n, total);
  insert<<<(n + 255) / 256, 256>>>(keys, n, table, locks);
}
