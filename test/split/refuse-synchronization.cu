// The producer warp reads a loop's streams ahead of the consumers. A loop
// that waits for or publishes to other threads (a volatile flag, a fence,
// a lock's compare-and-swap, an atomic whose value is used, an atomic
// object's load, a grid barrier), itself or in a function it calls, may
// read data another thread writes just before: it is not split. Annotated,
// that is an error at the loop with a note at the cause; under
// --split=auto, a remark. An atomic whose value is thrown away (a count)
// does not synchronize. The producer warp starts at the kernel's entry and
// skips what the consumers run before the loop, so a flag the kernel waits
// for before the loop counts too, and so does a store to a stream there.
// RUN: not %decoupler --passes=split %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=ANNOTATED
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t2.cu -- -DNO_PRAGMA 2>&1 | FileCheck %s --check-prefix=AUTO
#include <cuda/atomic>
#ifdef NO_PRAGMA
#define DECOUPLE
#else
#define DECOUPLE _Pragma("dd decouple")
#endif

__device__ bool ready(const volatile int *flags, int j) {
  return flags[j / 1024] != 0;
}

__global__ void flag_spin(const float *a, float *out, int n,
                          const volatile int *flags) {
  float s = 0;
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+4]]:3: error: cannot decouple this loop: the loop synchronizes with other threads (a volatile read of 'flags[j / 1024]'): the producer warp would read the streams ahead of it
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+4]]:12: note: here
  // AUTO: refuse-synchronization.cu:[[@LINE+2]]:3: remark: --split=auto: loop not eligible: the loop synchronizes with other threads (a volatile read of 'flags[j / 1024]')
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    while (flags[j / 1024] == 0) {
    }
    s += a[blockIdx.x * n + j];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void flag_in_callee(const float *a, float *out, int n,
                               const volatile int *flags) {
  float s = 0;
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the loop synchronizes with other threads (a volatile read of 'flags[j / 1024]' in 'ready')
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    if (ready(flags, j))
      s += a[blockIdx.x * n + j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void fenced(const float *a, float *out, int n, unsigned *seen) {
  float s = 0;
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the loop synchronizes with other threads ('__threadfence')
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    s += a[blockIdx.x * n + j];
    __threadfence();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void ticket(const float *a, float *out, int n, unsigned *next) {
  float s = 0;
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the loop synchronizes with other threads ('atomicAdd', whose value is used)
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += a[blockIdx.x * n + j] * atomicAdd(next, 1u);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void atomic_load(const float *a, float *out, int n, int *flag) {
  float s = 0;
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the loop synchronizes with other threads (an atomic object's 'atomic_ref::load')
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    if (cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).load(
            cuda::memory_order_acquire))
      s += a[blockIdx.x * n + j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void wait_then_stream(const float *a, float *out, int n,
                                 const volatile int *flag) {
  if (threadIdx.x == 0)
    while (*flag == 0) {
    }
  __syncthreads();
  float s = 0;
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the kernel, before the loop, synchronizes with other threads (a volatile read of '*flag')
  // AUTO: refuse-synchronization.cu:[[@LINE+2]]:3: remark: --split=auto: loop not eligible: the kernel, before the loop, synchronizes with other threads (a volatile read of '*flag')
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += a[blockIdx.x * n + j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void init_then_stream(float *a, float *out, int n) {
  if (threadIdx.x == 0)
    a[blockIdx.x * n] = 1.0f;
  __syncthreads();
  float s = 0;
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the streamed array 'a' may be written before the loop, so the producer warp could copy stale data
  // AUTO: refuse-synchronization.cu:[[@LINE+2]]:3: remark: --split=auto: loop not eligible: the streamed array 'a' may be written before the loop
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += a[blockIdx.x * n + j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A goto back to before the loop: the wait after it runs before the loop's
// next reads.
__global__ void wait_then_goto(const float *a, float *out, int n,
                               const volatile int *flag) {
  int pass = 0;
again:
  float s = 0;
  // ANNOTATED: refuse-synchronization.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the kernel, before the loop, synchronizes with other threads (a volatile read of '*flag')
  // AUTO: refuse-synchronization.cu:[[@LINE+2]]:3: remark: --split=auto: loop not eligible: the kernel, before the loop, synchronizes with other threads (a volatile read of '*flag')
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += a[(pass * gridDim.x + blockIdx.x) * n + j];
  out[blockIdx.x * blockDim.x + threadIdx.x] += s;
  if (++pass < 2) {
    if (threadIdx.x == 0)
      while (*flag == 0) {
      }
    __syncthreads();
    goto again;
  }
}

// A count whose value is thrown away: split as before.
__global__ void counted(const float *__restrict__ a, float *__restrict__ out,
                        int n, unsigned *__restrict__ count) {
  float s = 0;
  // ANNOTATED-NOT: refuse-synchronization.cu:[[@LINE+2]]:3: error
  // AUTO: refuse-synchronization.cu:[[@LINE+2]]:3: remark: --split=auto: split plan for loop: {{.*}}rewritten: counted_split
  DECOUPLE
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    s += a[blockIdx.x * n + j];
    atomicAdd(count, 1u);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

void run(const float *a, float *out, int n, const volatile int *flags,
         unsigned *u, int *f) {
  flag_spin<<<64, 256>>>(a, out, n, flags);
  flag_in_callee<<<64, 256>>>(a, out, n, flags);
  fenced<<<64, 256>>>(a, out, n, u);
  ticket<<<64, 256>>>(a, out, n, u);
  atomic_load<<<64, 256>>>(a, out, n, f);
  counted<<<64, 256>>>(a, out, n, u);
  wait_then_goto<<<64, 256>>>(a, out, n, flags);
  wait_then_stream<<<64, 256>>>(a, out, n, flags);
  init_then_stream<<<64, 256>>>(const_cast<float *>(a), out, n);
}
