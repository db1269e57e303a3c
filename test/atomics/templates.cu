// Atomics in templates: each instantiation is decided on its own (the
// analysis classifies instantiations), and the template's text is rewritten
// only where every instantiation gets the same rewrite; otherwise it stays,
// with a remark naming what each would need.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

// CHECK: #include <dd/atomics.cuh>

// Every instantiation has a scalar address: one text for both.
// REMARK-DAG: templates.cu:[[@LINE+2]]:65: remark: atomicAdd -> dd::atomic_add_uniform: scalar address: one atomic per warp (in every instantiation: count<1>, count<2>) [-Rdecoupler]
// CHECK: __global__ void count(unsigned long long *c) { dd::atomic_add_uniform(c, 1ull); }
template <int B> __global__ void count(unsigned long long *c) { atomicAdd(c, 1ull); }

// unsigned and int: both vote and reduce.
template <class T>
__global__ void hist(const unsigned *keys, unsigned n, T *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // REMARK-DAG: templates.cu:[[@LINE+2]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: the kernel is a template) (in every instantiation: hist<unsigned int>, hist<int>) [-Rdecoupler]
    // CHECK: dd::atomic_add_vr(&bins[keys[i]], T(1));
    atomicAdd(&bins[keys[i]], T(1));
}

// unsigned and float: float sums are not aggregated without --atomics-float,
// so one text cannot serve both.
template <class T>
__global__ void weigh(const unsigned *keys, unsigned n, T *sums) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // REMARK-DAG: templates.cu:[[@LINE+2]]:5: remark: atomicAdd left unchanged: its template's instantiations need different rewrites (weigh<unsigned int>: dd::atomic_add_vr; weigh<float>: as written, aggregating reorders floating-point additions (--atomics-float allows it)) [-Rdecoupler]
    // CHECK: {{^}}    atomicAdd(&sums[keys[i]], T(2));
    atomicAdd(&sums[keys[i]], T(2));
}

// A device-function template reached from a kernel: decided in that context.
// An int at a scalar address stays (nvcc combines it), a 64-bit word does
// not, so one text cannot serve both.
template <class T> __device__ void add_one(T *p) {
  // REMARK-DAG: templates.cu:[[@LINE+2]]:3: remark: atomicAdd left unchanged: its template's instantiations need different rewrites (add_one<int>: as written, the address is the same in every lane, and nvcc already combines the lanes of a warp at such an address for int (one reduction, one atomic); add_one<unsigned long long>: dd::atomic_add_uniform) [-Rdecoupler]
  // CHECK: {{^}}  atomicAdd(p, T(1));
  atomicAdd(p, T(1));
}
__global__ void uses(int *p, unsigned long long *q) {
  add_one(p);
  add_one(q);
}

void host(const unsigned *k, unsigned *u, int *s, float *f, unsigned long long *c) {
  count<1><<<1, 32>>>(c);
  count<2><<<1, 32>>>(c);
  hist<<<1, 32>>>(k, 32, u);
  hist<<<1, 32>>>(k, 32, s);
  weigh<<<1, 32>>>(k, 32, u);
  weigh<<<1, 32>>>(k, 32, f);
}
