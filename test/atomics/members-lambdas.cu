// Member functions and lambdas called from kernels are followed by the
// analysis like free functions: their atomics are decided for the arguments
// of every call. `this` is the object the call runs on (test/atomics/
// accessors.cu); a lambda's captured variables are not tracked (unknown:
// never a scalar address); parameters are known.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

struct Counter {
  unsigned *slots;
  // Through `this`: `slots` is the same in every thread (the kernel's
  // parameter), the key each lane's own; the memory is not known.
  // REMARK-DAG: members-lambdas.cu:[[@LINE+2]]:38: remark: atomicAdd -> dd::atomic_add_auto: nonaffine address in memory the pass cannot place
  // CHECK: __device__ void bump(unsigned k) { dd::atomic_add_auto(&slots[k], 1u); }
  __device__ void bump(unsigned k) { atomicAdd(&slots[k], 1u); }
  // Through a parameter: the call's argument decides (a kernel parameter:
  // scalar, one atomic per warp for a 64-bit word).
  // REMARK-DAG: members-lambdas.cu:[[@LINE+2]]:56: remark: atomicAdd -> dd::atomic_add_uniform: scalar address: one atomic per warp
  // CHECK: __device__ void total(unsigned long long *t) const { dd::atomic_add_uniform(t, 1ull); }
  __device__ void total(unsigned long long *t) const { atomicAdd(t, 1ull); }
};

__global__ void members(Counter c, const unsigned *keys, unsigned long long *t) {
  c.bump(keys[threadIdx.x]);
  c.total(t);
}

__global__ void lambdas(const unsigned *keys, unsigned *bins, unsigned long long *t) {
  // A captured pointer: not tracked in the lambda (nonaffine, memory
  // unknown: decided at run time).
  // REMARK-DAG: members-lambdas.cu:[[@LINE+2]]:32: remark: atomicAdd -> dd::atomic_add_auto: nonaffine address in memory the pass cannot place
  // CHECK: auto add = [&](unsigned k) { dd::atomic_add_auto(&bins[k], 1u); };
  auto add = [&](unsigned k) { atomicAdd(&bins[k], 1u); };
  add(keys[threadIdx.x]);
  // A parameter: as the call passes it.
  // REMARK-DAG: members-lambdas.cu:[[@LINE+2]]:44: remark: atomicAdd -> dd::atomic_add_uniform: scalar address: one atomic per warp
  // CHECK: auto count = [](unsigned long long *p) { dd::atomic_add_uniform(p, 1ull); };
  auto count = [](unsigned long long *p) { atomicAdd(p, 1ull); };
  count(t);
}
