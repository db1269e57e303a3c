// Two locks in the release-and-retry spelling: take the first, try the
// second, and when it is busy give the first back and go round again. The
// pass delegates it like Listing 4.3 (the critical section runs holding both
// locks; the client sends to the server of the first lock in place of the
// loop, whose flag goes with it). A failure branch that does anything but release
// the first lock is refused, in --analyze too.
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// RUN: %decoupler --analyze %S/Inputs/retry-refused.cu | FileCheck %S/Inputs/retry-refused.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

// CHECK: using transfer_delegate = dd::NestedDelegate<transfer_message>;
// CHECK: __device__ void transfer_critical_section(
// CHECK-NEXT:   balance[from] -= amount;
// CHECK-NEXT:   balance[to] += amount;
// CHECK-NEXT: }
__global__ void transfer(const int *src, const int *dst, int n, long long *balance,
                         long long amount, int *locks) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int from = src[t], to = dst[t];
  bool done = false;
  // REMARK: rewrite-retry.cu:[[@LINE+2]]:3: remark: delegated the critical section (two nested locks) of 'transfer' to server blocks: transfer_client, transfer_server, transfer_launch [-Rdecoupler]
  #pragma dd delegate
  while (!done) {
    if (atomicCAS(&locks[from < to ? from : to], 0, 1) == 0) {
      if (atomicCAS(&locks[from < to ? to : from], 0, 1) == 0) {
        balance[from] -= amount;
        balance[to] += amount;
        __threadfence();
        atomicExch(&locks[from < to ? to : from], 0);
        atomicExch(&locks[from < to ? from : to], 0);
        done = true;
      } else {
        __threadfence();
        atomicExch(&locks[from < to ? from : to], 0);
      }
    }
  }
}
// CHECK-LABEL: __global__ void transfer_client(
// CHECK-NOT: bool done
// CHECK: dd_tx.send(transfer_delegate::route(dd_channel, (unsigned long long)(from < to ? from : to), (unsigned long long)(from < to ? to : from)), transfer_message{
// CHECK-NOT: while (!done)
// CHECK: dd_tx.finish();

void run(const int *src, const int *dst, int n, long long *balance, long long amount,
         int *locks) {
  transfer<<<(n + 255) / 256, 256>>>(src, dst, n, balance, amount, locks);
}
