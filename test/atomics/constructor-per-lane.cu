// A value a constructor sets is each lane's own: a default member
// initializer that reads threadIdx, a user constructor, a library pair
// built from per-lane values. Before, the analysis took both objects'
// fields for one value in every lane (the object was built from no
// per-lane argument, or read from a local's uniform address as if the
// threads shared it), and the atomics became dd::atomic_add_uniform, which
// sends the whole warp's sum to the first lane's word. Now they combine
// only the lanes that hit the same word (found by an adversarial round,
// 2026-11-29).
// RUN: %decoupler --passes=atomics -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=uniform
// RUN: grep -v "^ *// [A-Z]" %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda/std/utility>

struct Lane {
  unsigned id = threadIdx.x % 8;
};
struct Slot {
  unsigned id;
  __device__ Slot() : id(threadIdx.x / 4) {}
};

__global__ void count(unsigned long long *c) {
  Lane l;
  // REMARK: constructor-per-lane.cu:[[@LINE+2]]:3: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address
  // CHECK: dd::atomic_add_vr(&c[l.id], 1ull);
  atomicAdd(&c[l.id], 1ull);
  Slot s;
  // REMARK: constructor-per-lane.cu:[[@LINE+2]]:3: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address
  // CHECK: dd::atomic_add_vr(&c[16 + s.id], 1ull);
  atomicAdd(&c[16 + s.id], 1ull);
  cuda::std::pair<unsigned, unsigned> p(threadIdx.x % 8, 0u);
  // REMARK: constructor-per-lane.cu:[[@LINE+2]]:3: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address
  // CHECK: dd::atomic_add_vr(&c[8 + p.first], 1ull);
  atomicAdd(&c[8 + p.first], 1ull);
}
