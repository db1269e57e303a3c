// Code that compiles with nvcc and uses nvcc's version macros outside #if,
// as CUTLASS's examples do (splitk_gemm.cu: `if (__CUDACC_VER_MAJOR__ < 11
// ...)` in main). clang defines none of them; the tool must parse this.
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) ||       \
    !defined(__CUDACC_VER_BUILD__)
#error "nvcc's version macros are not defined"
#endif
#if __CUDACC_VER_MAJOR__ == 1
#error "the command's own __CUDACC_VER_MAJOR__ (1) won"
#endif

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && __CUDACC_VER_MAJOR__ >= 11)
    x[i] *= 2.0f;
}

int version() {
  return __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 +
         0 * __CUDACC_VER_BUILD__;
}
