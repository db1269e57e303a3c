// The host headers and annotate.h, for every architecture.
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: %arch_clang --cuda-gpu-arch=sm_60 %s
#include <dd/annotate.h>
#include <dd/cuda_check.h>
#include <dd/launch_choice.h>
#include <dd/scatter_remap.h>

#include <vector>

std::vector<std::uint32_t> remap(const std::vector<unsigned> &keys) {
  return dd::scatter_remap(keys);
}

bool rewrite_first(dd::AdaptiveChoice &choice) {
  return choice.which() == dd::AdaptiveChoice::Rewrite;
}

__global__ void annotated(float *x) {
  DD_PRAGMA(decouple)
  for (int i = 0; i < 4; ++i)
    x[i] = 0;
}

void check() { DD_CUDA_CHECK(cudaDeviceSynchronize()); }
