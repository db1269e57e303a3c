// The atomics pass chooses by the class of the address: scalar -> one atomic
// per warp (but for an int or unsigned word, which nvcc already combines),
// affine with a known stride -> unchanged, anything else -> vote, then match
// and reduce. The rewritten file includes the runtime header.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// The test's own comments are in the output: drop them before checking.
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// The output compiles with nvcc for sm_90.
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o

// OUT: #include <dd/atomics.cuh>
// OUT-NEXT: #include <cstdio>
#include <cstdio>

__global__ void histogram(unsigned *bins, const unsigned *keys, int n,
                          int *count, int *perThread, unsigned long long *sum) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  // Not privatized: nothing bounds a key of 32 bits.
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address: lanes that hit the same word are combined (vote, then match and reduce) (not privatized: no bound of the index is known but the type 'unsigned int', and the atomic is not in a loop (only there does a cache of its hot indices pay; write '#pragma dd atomic(privatize) range(N)' to give a bound)) [-Rdecoupler]
  // OUT: dd::atomic_add_vr(&bins[keys[tid]], 1u);
  atomicAdd(&bins[keys[tid]], 1u);
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicAdd left unchanged: the address is the same in every lane, and nvcc already combines the lanes of a warp at such an address for int (one reduction, one atomic) [-Rdecoupler]
  // OUT: {{^}}  atomicAdd(count, 1);
  atomicAdd(count, 1);
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicAdd left unchanged: affine address (stride 4 bytes): the lanes of a warp update distinct words [-Rdecoupler]
  // OUT: {{^}}  atomicAdd(&perThread[tid], 2);
  atomicAdd(&perThread[tid], 2);
  // An unknown stride (it could be 0): vote, then match and reduce.
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicSub -> dd::atomic_sub_vr: affine address: lanes that hit the same word are combined (vote, then match and reduce)
  // OUT: dd::atomic_sub_vr(&perThread[tid * n], 1);
  atomicSub(&perThread[tid * n], 1);
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicMax left unchanged: the address is the same in every lane, and nvcc already combines the lanes of a warp at such an address for int (one reduction, one atomic) [-Rdecoupler]
  // OUT: {{^}}  atomicMax(&perThread[blockIdx.x], tid);
  atomicMax(&perThread[blockIdx.x], tid);
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicAnd -> dd::atomic_and_vr
  // OUT: dd::atomic_and_vr(&perThread[keys[tid] & 7], 0xff);
  atomicAnd(&perThread[keys[tid] & 7], 0xff);
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicAdd -> dd::atomic_add_uniform: scalar address: one atomic per warp [-Rdecoupler]
  // OUT: dd::atomic_add_uniform(sum, (unsigned long long)keys[tid]);
  atomicAdd(sum, (unsigned long long)keys[tid]);
  // A divergent tuple (two addresses chosen per thread): match and reduce,
  // deciding the memory at run time (two objects: the analysis keeps one).
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicOr -> dd::atomic_or_auto: affine address
  // OUT: dd::atomic_or_auto(tid < 16 ? count : &perThread[0], 1);
  atomicOr(tid < 16 ? count : &perThread[0], 1);
  // Wrapping increments are left alone unless annotated (measured slower).
  // REMARK: choices.cu:[[@LINE+2]]:16: remark: atomicInc left unchanged: combined wrapping increments need a compare-and-swap that loses under contention (atomic(sr|vr) forces it)
  // OUT: if (tid & 1) atomicInc((unsigned *)count, 100u);
  if (tid & 1) atomicInc((unsigned *)count, 100u);
  // REMARK: choices.cu:[[@LINE+3]]:3: remark: atomicInc -> dd::atomic_inc_sr: annotated atomic(sr)
  // OUT: dd::atomic_inc_sr((unsigned *)&perThread[keys[tid]], 7u);
#pragma dd atomic(sr)
  atomicInc((unsigned *)&perThread[keys[tid]], 7u);
}

__device__ void bump(int *p) {
  // Reached from the kernel below with a nonaffine address.
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicXor -> dd::atomic_xor_vr
  // OUT: dd::atomic_xor_vr(p, 1);
  atomicXor(p, 1);
}

__global__ void viaCall(int *table, const int *idx) {
  bump(&table[idx[threadIdx.x]]);
}

// A function nvcc does not inline: inside it the address is a parameter,
// which nvcc cannot see is uniform, so the combining is the pass's to do.
__device__ __noinline__ void tally(int *counter, int v) {
  // REMARK: choices.cu:[[@LINE+2]]:3: remark: atomicAdd -> dd::atomic_add_uniform: scalar address: one atomic per warp [-Rdecoupler]
  // OUT: dd::atomic_add_uniform(counter, v);
  atomicAdd(counter, v);
}

__global__ void viaOpaqueCall(int *counters, const int *keys) {
  tally(&counters[blockIdx.x], keys[threadIdx.x]);
}
