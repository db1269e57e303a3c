// Only in `first`, whose compile options ask for C++20.
#include "util.h"

#ifndef UTIL_FROM_SOURCE_FOLDER
#error "include directories"
#endif

template <class T>
concept Counter = requires(T v) { v + 1u; };

template <Counter T> __device__ T one() { return T(1); }

__global__ void other_kernel(unsigned long long *count) { atomicAdd(count, one<unsigned long long>()); }
