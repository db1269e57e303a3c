#include "util.h"
// Line 2. A macro continued over two lines:
#define TWICE(x) \
  ((x) + (x))
/* A block comment
   over two lines. */
__global__ void hist(const int *in, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i] % BINS], TWICE(1));
}
const char *raw = R"x(
# inside a raw string: text, "quoted" \ and /* not a comment
)x";
__global__ void total(unsigned long long *sum) {
  atomicAdd(sum, 1ull);
}

void run(const int *in, int *bins, unsigned long long *sum, int n) {
  hist<<<(n + 255) / 256, 256>>>(in, bins, n);
  total<<<1, 32>>>(sum);
}
