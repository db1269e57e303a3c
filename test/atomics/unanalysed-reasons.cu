// An atomic that the analysis did not classify stays as written, and the
// remark says why: it is in a template nothing instantiates, only a kernel
// of an included file reaches it, or no kernel calls it (a member function
// too). An atomic in an included .cu file is left alone
// with a remark too: only the main file is rewritten (issue 13, class 14).
// RUN: %decoupler --passes=atomics -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not='no kernel of this file reaches it'
// RUN: diff %s %t.cu
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -I%S -c %t.cu -o %t.o

// A template nothing instantiates (templates that are instantiated are
// decided per instantiation: test/atomics/templates.cu).
template <int N> __device__ void add_n(int *p) {
  // CHECK-DAG: unanalysed-reasons.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: it is in a template that nothing in this file instantiates: the analysis classifies instantiations only [-Rdecoupler]
  atomicAdd(p, N);
}

// Member functions and lambdas are followed from kernels
// (test/atomics/members-lambdas.cu); one no kernel calls stays.
struct Counter {
  int *slot;
  __device__ void bump() {
    // CHECK-DAG: unanalysed-reasons.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: no kernel of this file calls 'Counter::bump' [-Rdecoupler]
    atomicAdd(slot, 1);
  }
};

__device__ void main_file_helper(int *p) {
  // CHECK-DAG: unanalysed-reasons.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: only kernels outside the main file reach it (kernel 'included_kernel' in {{.*}}included-kernels.cu), and the analysis and the rewrite cover the main file's kernels only [-Rdecoupler]
  atomicAdd(p, 1);
}

__device__ void never_called(int *p) {
  // CHECK-DAG: unanalysed-reasons.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: no kernel of this file calls 'never_called' [-Rdecoupler]
  atomicAdd(p, 1);
}

// A constructor a kernel runs by constructing its type: the kernel reaches
// it, and the remark says the analysis does not follow that call (before,
// it said that no kernel calls 'Scope::Scope'; the member initializers
// are followed too).
__device__ int bins[256];
struct Scope {
  int b;
  __device__ Scope(int v) : b(v & 255) {
    // CHECK-DAG: unanalysed-reasons.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the analysis does not follow every call on the way from kernel 'tally' (a constructor, a call through a function pointer, calls nested deeper than 8, or recursion) [-Rdecoupler]
    atomicAdd(&bins[b], 1);
  }
};
__device__ int bucket(int v) {
  // CHECK-DAG: unanalysed-reasons.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: the analysis does not follow every call on the way from kernel 'tally'
  atomicAdd(&bins[0], 1);
  return v & 255;
}
struct Bucketed {
  int b;
  __device__ Bucketed(int v) : b(bucket(v)) {}
};
__global__ void tally(const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Scope s(in[i]);
    Bucketed t(in[i]);
  }
}

// CHECK-DAG: included-kernels.cu:4:3: remark: atomicAdd left unchanged: it is in an included source file (kernel 'included_kernel'), and only the main file is rewritten [-Rdecoupler]
#include "Inputs/included-kernels.cu"
