// A kernel no pass changes: its rewrite is byte-identical. It also checks
// what every parse gets: __DECOUPLER__ and the runtime headers without -I.
#include <dd/annotate.h>

#ifndef __DECOUPLER__
#error "__DECOUPLER__ is not defined"
#endif

__global__ void scale(float *out, const float *in, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = k * in[i];
}
