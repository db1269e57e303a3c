// <dd/delegate.cuh>: one-lock and nested servers for every architecture nvcc
// has (the nested server's reductions use shuffles below sm_80); sm_70 and
// up, as the channel under it says.
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: %arch_clang --cuda-gpu-arch=sm_70 %s
// RUN: not %arch_clang --cuda-gpu-arch=sm_60 %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed {{.*}}needs sm_70 or newer for __nanosleep
#include <dd/delegate.cuh>

constexpr unsigned kCapacity = 1024;
struct OneMsg {
  unsigned item, msg;
};
struct TwoMsg {
  unsigned a, b, amount, msg;
};

__global__ void one_client(dd::Channel<OneMsg, kCapacity> ch, unsigned n) {
  extern __shared__ __align__(16) unsigned char stage[];
  dd::ChannelSender<OneMsg, kCapacity> tx(ch, stage);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tx.send(dd::DelegateMap<64>{ch.servers}.server(i), OneMsg{i, i});
  tx.finish();
}

__global__ void one_server(dd::Channel<OneMsg, kCapacity> ch, unsigned *counts) {
  using Server = dd::DelegateServer<OneMsg, 64, kCapacity>;
  __shared__ typename Server::TempStorage temp;
  Server server(ch, temp);
  server.run([](const OneMsg &m) { return m.item; },
             [&](const OneMsg &m) { ++counts[m.item]; });
}

__global__ void two_server(dd::Channel<TwoMsg, kCapacity> ch,
                           typename dd::NestedDelegateServer<TwoMsg, 64, kCapacity>::sides_type sides,
                           unsigned *balances) {
  using Server = dd::NestedDelegateServer<TwoMsg, 64, kCapacity>;
  __shared__ typename Server::TempStorage temp;
  Server server(ch, sides, temp);
  server.run([](const TwoMsg &m) { return dd::IdPair{m.a, m.b}; },
             [&](const TwoMsg &m) {
               balances[m.a] -= m.amount;
               balances[m.b] += m.amount;
             });
}
