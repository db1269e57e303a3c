// CUDA that nvcc compiles and clang (host side) does not parse: a
// __shared__ libcu++ barrier (its default constructor is not empty by
// clang's rule) and a braced launch configuration. By default the file
// fails with the tool's reason after clang's errors; --unparsed=copy
// writes it unchanged so that a build goes on with nvcc.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu
// RUN: %decoupler --unparsed=copy %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: cmp %s %t.dd.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
// COPY: decoupler: warning: '{{.*}}unparsed-nvcc-code.cu' did not parse (the errors above): its output is the input, unchanged (--unparsed=copy)
#include <cuda/barrier>

__global__ void staged(const int *in, int *out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ int tile[256];
  // CHECK: unparsed-nvcc-code.cu:[[@LINE+1]]:54: error: initialization is not supported for __shared__ variables
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = i < n ? in[i] : 0;
  bar.arrive_and_wait();
  if (i < n)
    out[i] = tile[(threadIdx.x + 1) % blockDim.x];
}

void launch(const int *in, int *out, unsigned n) {
  // CHECK: unparsed-nvcc-code.cu:[[@LINE+1]]:12: error: expected expression
  staged<<<{(n + 255u) / 256u, 1u, 1u}, {256u, 1u, 1u}>>>(in, out, n);
}

// The tool's error follows clang's.
// CHECK: decoupler: error: '{{.*}}unparsed-nvcc-code.cu' did not parse (the errors above), so nothing is written for it.
