// A monotonic kernel kept in a header (test/atomics/monotonic-included.cu).
#pragma dd monotonic
__global__ void relax_in_header(int *dist, int v) {
  atomicMin(&dist[threadIdx.x], v);
}
