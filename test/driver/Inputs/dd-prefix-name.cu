// A local named like the privatization's shared copy (dd_private_<array>):
// the rewrite declares its own in the same kernel, which the local shadows.
__global__ void bins256(const int *keys, int n, unsigned *bins) {
  int dd_private_bins = 3;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[(keys[i] + dd_private_bins) & 255], 1u);
}
