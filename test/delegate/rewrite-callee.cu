// Critical sections the delegate rewrite now accepts because it looks
// through them (issue 13): functions the section calls, transitively, with
// their bodies in the file (global memory through their pointer
// parameters, their own locals, a __host__ __device__ helper, warpSize);
// components of threadIdx, blockIdx, blockDim and gridDim read in the
// section's own text, which the client sends in the message; pointer locals
// derived from kernel parameters. The output compiles without warnings.
// RUN: %decoupler --passes=delegate %s -o %t.cu 2>&1 | count 0
// RUN: %decoupler --analyze %s | FileCheck %s --check-prefix=ANALYZE
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <dd/annotate.h>

__host__ __device__ inline unsigned long long mix(unsigned long long x) {
  x ^= x >> 31;
  return x * 0x9e3779b97f4a7c15ull;
}
__device__ void bump(unsigned *count, unsigned a) {
  unsigned before = count[a];
  count[a] = before + 1;
}
__device__ void credit(long long *balance, unsigned *count, unsigned a, unsigned v) {
  balance[a] += v;
  bump(count, a);
}

// CHECK-LABEL: struct deposit_message {
// CHECK-NEXT:   unsigned int a;
// CHECK-NEXT:   unsigned int v;
// CHECK-NEXT:   unsigned int dd_blockIdx_x;
// CHECK-NEXT:   unsigned int dd_blockDim_x;
// CHECK-NEXT:   unsigned int dd_threadIdx_x;
// CHECK-NEXT: };
// CHECK:      __device__ void deposit_critical_section(unsigned int a, unsigned int v, long long *balance, unsigned *count, unsigned long long *sig, unsigned int dd_blockIdx_x, unsigned int dd_blockDim_x, unsigned int dd_threadIdx_x) {
// CHECK-NEXT:   credit(balance, count, a, v);
// CHECK-NEXT:   sig[a] ^= mix(dd_blockIdx_x * dd_blockDim_x + dd_threadIdx_x);
// CHECK-NEXT:   if (dd_threadIdx_x % warpSize == 0)
// CHECK-NEXT:     sig[a] += 1;
// CHECK-NEXT: }
// The kernel as written keeps its builtin reads.
// CHECK:      sig[a] ^= mix(blockIdx.x * blockDim.x + threadIdx.x);
__global__ void deposit(const unsigned *account, unsigned n, long long *balance, unsigned *count,
                        unsigned long long *sig, int *locks) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned a = account[t], v = t % 7 + 1;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[a], 0, 1) == 0) {
      credit(balance, count, a, v);
      sig[a] ^= mix(blockIdx.x * blockDim.x + threadIdx.x);
      if (threadIdx.x % warpSize == 0)
        sig[a] += 1;
      __threadfence();
      atomicExch(&locks[a], 0);
      done = true;
    }
  } while (!done);
}
// ANALYZE-LABEL: critical sections (#pragma dd delegate):
// ANALYZE-NEXT: in 'deposit': single lock locks[a], 3 statements
// ANALYZE-NEXT: message: a, v, blockIdx.x, blockDim.x, threadIdx.x
// ANALYZE-NEXT: server arguments: locks, balance, count, sig
// CHECK:      dd_tx.send(deposit_delegate::route(dd_channel, a), deposit_message{a, v, blockIdx.x, blockDim.x, threadIdx.x});
// CHECK:      deposit_critical_section(dd_m.a, dd_m.v, balance, count, sig, dd_m.dd_blockIdx_x, dd_m.dd_blockDim_x, dd_m.dd_threadIdx_x); });

// Two nested locks, a y component and gridDim; a pointer local derived
// from a parameter travels in the message; a callee takes the address of
// its own local.
__device__ void swap_through(long long *x, long long *y) {
  long long tmp = *x;
  long long *p = &tmp;
  *x = *y;
  *y = *p;
}

// CHECK-LABEL: struct exchange_message {
// CHECK-NEXT:   unsigned int lo;
// CHECK-NEXT:   unsigned int hi;
// CHECK-NEXT:   long long *row;
// CHECK-NEXT:   unsigned int dd_gridDim_x;
// CHECK-NEXT:   unsigned int dd_threadIdx_y;
// CHECK-NEXT: };
// CHECK:      __device__ void exchange_critical_section(unsigned int lo, unsigned int hi, long long *row, unsigned *last, unsigned int dd_gridDim_x, unsigned int dd_threadIdx_y) {
// CHECK-NEXT: swap_through(&row[lo], &row[hi]);
// CHECK-NEXT: last[lo] = dd_gridDim_x + dd_threadIdx_y;
__global__ void exchange(const unsigned *pairs, unsigned n, long long *table, unsigned width,
                         unsigned *last, int *locks) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned x = pairs[2 * t], y = pairs[2 * t + 1];
  const unsigned lo = x < y ? x : y, hi = x < y ? y : x;
  long long *row = table + (t % 4) * width;
  bool s1 = false, s2 = false;
  #pragma dd delegate
  do {
    if (!s1) {
      if (atomicCAS(&locks[lo], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&locks[hi], 0, 1) == 0) {
        swap_through(&row[lo], &row[hi]);
        last[lo] = gridDim.x + threadIdx.y;
        __threadfence();
        atomicExch(&locks[lo], 0);
        atomicExch(&locks[hi], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}
// CHECK: dd_tx.send(exchange_delegate::route(dd_channel, lo, hi), exchange_message{lo, hi, row, gridDim.x, threadIdx.y});

void run(const unsigned *account, unsigned n, long long *balance, unsigned *count,
         unsigned long long *sig, int *locks, const unsigned *pairs, long long *table,
         unsigned *last) {
  // CHECK: deposit_launch((n + 255) / 256, 256, 0, 0, account, n, balance, count, sig, locks);
  deposit<<<(n + 255) / 256, 256>>>(account, n, balance, count, sig, locks);
  // CHECK: exchange_launch(dim3(n / 64, 1), dim3(32, 2), 0, 0, pairs, n, table, 16, last, locks);
  exchange<<<dim3(n / 64, 1), dim3(32, 2)>>>(pairs, n, table, 16, last, locks);
}
