// A library header: kernels declared in namespaces, with default arguments;
// the tests including it define them after launching them.
#ifndef KERNELS_H
#define KERNELS_H

namespace lib {
__global__ void tally(int *hits, int *locks, int stride = 1);
} // namespace lib

namespace lin {
__global__ void matvec(const float *A, const float *x, float *y, int n, float alpha = 1.0f);
} // namespace lin

extern "C" {
__global__ void c_tally(int *hits, int *locks);
}

#endif
