// A virtual call decided at run time runs the overrider of the object's
// dynamic type, which the source does not show: in the loop, or in a
// function the loop calls, it may write anything (the streamed array too)
// and synchronize the block, like a call through a pointer, and the loop is
// not split. A call the static type decides (a final class) is followed:
// its overrider here only computes, so the loop is split as if the call
// were written out.
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.dd.cu -o %t.o

struct Scale {
  __device__ virtual float of(float x) const { return x; }
};
struct Twice final : Scale {
  __device__ float of(float x) const override { return 2 * x; }
};

// REMARK: refuse-virtual-calls.cu:[[@LINE+4]]:3: remark: --split=auto: loop not eligible: the streamed array 'a' may be written in the loop, so the producer warp could copy stale data
// CHECK-NOT: in_loop_split
__global__ void in_loop(const Scale *sc, const float *__restrict__ a, float *__restrict__ out, int n) {
  float s = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += sc->of(a[blockIdx.x * n + j]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__device__ float scaled(const Scale *sc, float x) { return sc->of(x); }

// REMARK: refuse-virtual-calls.cu:[[@LINE+4]]:3: remark: --split=auto: loop not eligible: the streamed array 'a' may be written in the loop, so the producer warp could copy stale data
// CHECK-NOT: in_callee_split
__global__ void in_callee(const Scale *sc, const float *__restrict__ a, float *__restrict__ out, int n) {
  float s = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += scaled(sc, a[blockIdx.x * n + j]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// REMARK: refuse-virtual-calls.cu:[[@LINE+4]]:3: remark: --split=auto: split plan for loop: streams a[blockIdx.x * n + j]
// CHECK: final_class_split
__global__ void final_class(const Twice *tw, const float *__restrict__ a, float *__restrict__ out, int n) {
  float s = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += tw->of(a[blockIdx.x * n + j]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

void launch(const Scale *sc, const Twice *tw, const float *a, float *out, int n, int rows) {
  in_loop<<<rows, 256>>>(sc, a, out, n);
  in_callee<<<rows, 256>>>(sc, a, out, n);
  final_class<<<rows, 256>>>(tw, a, out, n);
}
