// When the file cannot be preprocessed for the device (an #error for the
// architecture the tool parses for), no function can be shown to be the same
// code there: nothing is rewritten, and the reason quotes the error.
// RUN: %decoupler --no-line-directives -Rdecoupler --cuda-gpu-arch=sm_75 %s -o %t.cu 2>&1 | FileCheck %s
// RUN: cmp %s %t.cu
// For sm_90 the file preprocesses, and the atomic is rewritten.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t2.cu 2>&1 | FileCheck %s --check-prefix=SM90
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "this file needs sm_80 or newer"
#endif

__global__ void count(const int *in, int n, unsigned *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // CHECK: device-view-error.cu:[[@LINE+2]]:5: remark: atomicAdd left unchanged: the file could not be preprocessed for the device (sm_75) to check that kernel 'count' is the same code in both compilations: {{.*}}device-view-error.cu:9: "this file needs sm_80 or newer" [-Rdecoupler]
    // SM90: device-view-error.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd_private_h.update
    atomicAdd(&h[in[i] & 7], 1u);
}
