//===- dd/cuda_check.h - Ending a host program on a CUDA error ----*- C++ -*-===//
//
// DD_CUDA_CHECK(call): evaluates a CUDA runtime call and, on failure, prints
// the file, the line, the call and CUDA's message to stderr and exits with
// status 2. For test programs, benchmarks and examples, where an error has
// no one to be handed to; library code returns errors instead (dd::Context).
//
//===----------------------------------------------------------------------===//
#ifndef DD_CUDA_CHECK_H
#define DD_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define DD_CUDA_CHECK(call)                                                    \
  do {                                                                         \
    cudaError_t dd_cuda_check_err_ = (call);                                   \
    if (dd_cuda_check_err_ != cudaSuccess) {                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
                   cudaGetErrorString(dd_cuda_check_err_));                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

#endif // DD_CUDA_CHECK_H
