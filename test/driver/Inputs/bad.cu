// Does not compile.
__global__ void broken(int *a) {
  a[threadIdx.x] = undeclared;
}
