// The split copies and edits the host compilation's view of a kernel. A
// kernel that is other code when compiled for the device (a macro defined
// under __CUDA_ARCH__ in its loop, or a callee with a device-only branch) is
// left as written: a warning for an annotated loop, a remark under
// --split=auto, each naming where the two compilations part. (A directive
// inside the kernel's own body is declined earlier, by the copy's text
// rules: test/split/decline-directive.cu.)
// RUN: %decoupler --passes=split -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=ANNOTATED
// RUN: cmp %s %t.cu
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t2.cu -- -DNO_PRAGMA 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: cmp %s %t2.cu
#ifdef NO_PRAGMA
#define DECOUPLE
#else
#define DECOUPLE _Pragma("dd decouple")
#endif

#ifdef __CUDA_ARCH__
#define SCALE 2.0f
#else
#define SCALE 1.0f
#endif

__device__ float weight(float x) {
#ifdef __CUDA_ARCH__
  return x * 0.5f;
#else
  return x;
#endif
}

__global__ void row_sum_macro(const float *__restrict__ a,
                              float *__restrict__ out, int m) {
  int row = blockIdx.x;
  float s = 0;
  // ANNOTATED: device-view.cu:[[@LINE+5]]:3: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: kernel 'row_sum_macro' is not the same code when compiled for the device (sm_90) as in the host compilation decoupler analyses (from line [[@LINE+6]]: a preprocessor condition on __CUDA_ARCH__, or a macro defined under one) [-Wdecoupler-declined]
  // ANNOTATED: device-view.cu:[[@LINE+5]]:27: note: here
  // AUTO: device-view.cu:[[@LINE+3]]:3: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: kernel 'row_sum_macro' is not the same code when compiled for the device (sm_90)
  // AUTO-NOT: rewritten: row_sum_macro_split
  DECOUPLE
  for (int j = threadIdx.x; j < m; j += blockDim.x)
    s += a[row * m + j] * SCALE;
  out[row * blockDim.x + threadIdx.x] = s;
}

__global__ void row_sum_callee(const float *__restrict__ a,
                               float *__restrict__ out, int m) {
  int row = blockIdx.x;
  float s = 0;
  // ANNOTATED: device-view.cu:[[@LINE+4]]:3: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: kernel 'row_sum_callee' calls 'weight', which is not the same code when compiled for the device (sm_90) as in the host compilation decoupler analyses (from line 26: a preprocessor
  // ANNOTATED: device-view.cu:26:3: note: here
  // AUTO: device-view.cu:[[@LINE+2]]:3: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: kernel 'row_sum_callee' calls 'weight'
  DECOUPLE
  for (int j = threadIdx.x; j < m; j += blockDim.x)
    s += weight(a[row * m + j]);
  out[row * blockDim.x + threadIdx.x] = s;
}
