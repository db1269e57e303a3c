// The delegate rewrite of a critical section under two nested locks
// (Listing 4.3): the client sends to the server that owns the lower lock
// (NestedDelegate::route), which takes the other through its owner (§4.4).
// A kernel parameter the section reads is a server argument (amount).
// The lock indices are not variables here: the client computes the data ids
// into the message (dd_id0, dd_id1). A kernel without a return needs no
// lambda around its body.
// RUN: %decoupler --no-line-directives --passes=delegate %s -o %t.cu
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

// CHECK: struct transfer_message {
// CHECK-NEXT:   unsigned long long dd_id0;
// CHECK-NEXT:   unsigned long long dd_id1;
// CHECK-NEXT:   int from;
// CHECK-NEXT:   int to;
// CHECK-NEXT: };
// CHECK-NEXT: using transfer_delegate = dd::NestedDelegate<transfer_message, 1024>;
// CHECK: /// holding the locks of 'locks[from < to ? from : to]' and 'locks[from < to ? to : from]'.
// CHECK-NEXT: __device__ void transfer_critical_section(int from, int to, long long *balance, long long amount) {
// CHECK-NEXT:   balance[from] -= amount;
// CHECK-NEXT:   balance[to] += amount;
// CHECK-NEXT: }
// CHECK: /// decoupler: 'transfer' as written, global locks and all.
// CHECK-NEXT: /// of delegating where
// CHECK-NEXT: __global__ void transfer(long long *balance, int *locks, const int2 *pairs, long long amount) {
// CHECK: } while (!(success1 && success2));
// CHECK-NEXT: }
__global__ void transfer(long long *balance, int *locks, const int2 *pairs, long long amount) {
  // CHECK: __global__ void transfer_client(transfer_delegate::channel_type dd_channel, long long *balance, int *locks, const int2 *pairs, long long amount) {
  // CHECK-NEXT: // decoupler: message stages in shared memory, one per server block.
  // CHECK-NEXT: extern __shared__ __align__(16) unsigned char dd_stage[];
  // CHECK-NEXT: transfer_delegate::sender_type dd_tx(dd_channel, dd_stage);
  // CHECK-NOT: [&]
  int2 p = pairs[blockIdx.x * blockDim.x + threadIdx.x];
  int from = p.x, to = p.y;
  bool success1 = false, success2 = false;
  // CHECK: dd_tx.send(transfer_delegate::route(dd_channel, (unsigned long long)(from < to ? from : to), (unsigned long long)(from < to ? to : from)), transfer_message{(unsigned long long)(from < to ? from : to), (unsigned long long)(from < to ? to : from), from, to});
  // CHECK-NEXT: dd_tx.finish();
  // CHECK-NEXT: }
  #pragma dd delegate locks(1024)
  do {
    if (!success1) {
      if (atomicExch(&locks[from < to ? from : to], 1) == 0)
        success1 = true;
    }
    if (success1) {
      if (atomicExch(&locks[from < to ? to : from], 1) == 0) {
        balance[from] -= amount;
        balance[to] += amount;
        __threadfence();
        atomicExch(&locks[from < to ? from : to], 0);
        atomicExch(&locks[from < to ? to : from], 0);
        success2 = true;
      }
    }
  } while (!(success1 && success2));
}
// CHECK: __global__ void transfer_server(transfer_delegate::channel_type dd_channel, transfer_delegate::sides_type dd_sides, long long *balance, long long amount) {
// CHECK-NEXT:   __shared__ transfer_delegate::server_type::TempStorage dd_temp;
// CHECK-NEXT:   transfer_delegate::server_type dd_server(dd_channel, dd_sides, dd_temp);
// CHECK-NEXT:   dd_server.run([](const transfer_message &dd_m) { return dd::IdPair{dd_m.dd_id0, dd_m.dd_id1}; },
// CHECK-NEXT:                 [&](const transfer_message &dd_m) { transfer_critical_section(dd_m.from, dd_m.to, balance, amount); });
// CHECK-NEXT: }
// CHECK: transfer_server<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel, dd_sides, balance, amount);
// CHECK: transfer<<<dd_g, dd_b, 0, dd_s>>>(balance, locks, pairs, amount);
// CHECK-NOT: success1

void run(long long *balance, int *locks, const int2 *pairs, int n) {
  // CHECK: transfer_launch(n / 128, 128, 0, 0, balance, locks, pairs, 5);
  transfer<<<n / 128, 128>>>(balance, locks, pairs, 5);
}
