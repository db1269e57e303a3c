// Compiles only with the target's whole compile line.
#include "util.h"
#include "dep.h"

#if !defined(UTIL_FROM_SOURCE_FOLDER) || !defined(DEP_H)
#error "include directories"
#endif
#if !defined(ONLY_CUDA) || defined(ONLY_CXX)
#error "compile definitions meant for CUDA"
#endif
#if !defined(FROM_DEPS) || !defined(FROM_XCOMPILER)
#error "compile definitions of linked targets and -Xcompiler"
#endif
static_assert(sizeof(QUOTED) == 4, "a quoted definition");
#ifndef FROM_CUDA_FLAGS
#error "CMAKE_CUDA_FLAGS"
#endif

__global__ void src_kernel(unsigned long long *count) { atomicAdd(count, 1ull); }
