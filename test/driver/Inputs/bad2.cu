// Does not compile either, differently.
__global__ void broken2(int *a) {
  a[threadIdx.x] = 1
}
