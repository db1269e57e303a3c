// A kernel template's loop is planned in each instantiation; under
// --split=auto a reason that is the same in all of them is said once (the
// NVIDIA blog's GUPS benchmark instantiates its kernel five times).
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: cmp %s %t.cu

template <int M>
__global__ void walk(const int *__restrict__ a, const int *len, int *out) {
  int s = 0;
  // CHECK: auto-template-remarks.cu:[[@LINE+1]]:3: remark: --split=auto: loop not eligible: the loop condition (the trip count) is computed from a value loaded from memory
  for (int j = threadIdx.x; j < len[threadIdx.x]; j += blockDim.x)
    s += a[blockIdx.x * 1024 + j] * M;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template __global__ void walk<1>(const int *, const int *, int *);
template __global__ void walk<2>(const int *, const int *, int *);
template __global__ void walk<3>(const int *, const int *, int *);
