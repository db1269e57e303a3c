// Kernels kept in a second source file that the main file includes
// (test/atomics/unanalysed-reasons.cu).
__global__ void included_kernel(int *p) {
  atomicAdd(&p[0], 1);
  main_file_helper(p);
}
