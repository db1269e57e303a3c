// An atomic in a __device__ function that code the analysis cannot see may
// call (its address is taken; or, under -fgpu-rdc, it has external linkage)
// is classified for unknown arguments too: its per-lane address is never
// taken for a scalar one, so it gets the vote-first variant, not
// atomic_add_uniform, which would add once per warp (issue 13, class 4).
// RUN: %decoupler --passes=atomics -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %decoupler --passes=atomics -Rdecoupler %s -o %t.rdc.cu -- -fgpu-rdc 2>&1 | FileCheck %s --check-prefix=RDC
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// RUN: %nvcc -Werror all-warnings -rdc=true -c %t.rdc.cu -o %t.rdc.o

typedef void (*Op)(int *, int);

// Nor is it known which memory p points to: the variant that decides at
// run time (vote and reduce on global memory, the plain atomic on shared).
// REMARK: open-context.cu:[[@LINE+2]]:39: remark: atomicAdd -> dd::atomic_add_auto: nonaffine address in memory the pass cannot place
// OUT: __device__ void bump(int *p, int i) { dd::atomic_add_auto(&p[i], 1); }
__device__ void bump(int *p, int i) { atomicAdd(&p[i], 1); }
__device__ Op table[] = {bump};

// Without -fgpu-rdc only its caller reaches it: scalar, one atomic per warp
// (a 64-bit word, which nvcc does not combine itself). With it, other
// translation units may pass a per-lane address.
// REMARK: open-context.cu:[[@LINE+3]]:55: remark: atomicAdd -> dd::atomic_add_uniform: scalar address
// RDC: open-context.cu:[[@LINE+2]]:55: remark: atomicAdd -> dd::atomic_add_auto: nonaffine address
// OUT: __device__ void count(unsigned long long *p, int i) { dd::atomic_add_uniform(&p[i], 1ull); }
__device__ void count(unsigned long long *p, int i) { atomicAdd(&p[i], 1ull); }

__global__ void calls(int *p, unsigned long long *q) {
  bump(p, 0);
  count(q, 0);
}
