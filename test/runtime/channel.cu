// <dd/channel.cuh> needs sm_70 (__nanosleep) and says so below.
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: %arch_clang --cuda-gpu-arch=sm_70 %s
// RUN: not %arch_clang --cuda-gpu-arch=sm_60 %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed {{.*}}<dd/channel.cuh> (dd::Channel, dd::Context, dd::DelegateServer) needs sm_70 or newer for __nanosleep
#include <dd/channel.cuh>

struct Msg {
  unsigned a, b;
};
using Chan = dd::Channel<Msg, 1024>;

__global__ void client(Chan ch) {
  extern __shared__ __align__(16) unsigned char stage[];
  dd::ChannelSender<Msg, 1024> tx(ch, stage);
  tx.send(0, Msg{threadIdx.x, 1});
  tx.finish();
}

__global__ void direct(Chan ch) {
  ch.send_direct(0, Msg{threadIdx.x, 2});
  __syncthreads();
  if (threadIdx.x == 0)
    ch.client_done();
}

__global__ void server(Chan ch, unsigned *sum) {
  __shared__ typename dd::ChannelReceiver<Msg, 1024>::TempStorage temp;
  dd::ChannelReceiver<Msg, 1024> rx(ch, temp);
  rx.run([&](const Msg &m) { atomicAdd(sum, m.b); });
}
