//===- CudaPath.h - Finding the CUDA installation ---------------*- C++ -*-===//
//
// Clang parses CUDA against a CUDA toolkit's headers. The installation is the
// one given with --cuda-path, else $CUDA_PATH, else /usr/local/cuda; it is
// valid when it holds include/cuda_runtime.h.
//
// nvcc defines __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__ and
// __CUDACC_VER_BUILD__ and clang does not, so code that compiles with nvcc
// and uses them outside #if (CUTLASS's examples do) would not parse. The
// parse gets them from the installation's version (nvccVersionMacros).
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_CUDAPATH_H
#define DECOUPLER_TOOL_CUDAPATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace decoupler::tool {

/// \p Explicit is --cuda-path (empty when not given): only it is tried then.
llvm::Expected<std::string> findCudaPath(llvm::StringRef Explicit);

/// -D options giving nvcc's version macros for the installation at
/// \p CudaPath: major and minor from include/cuda.h's CUDA_VERSION, the
/// build from version.json's cuda_nvcc version or an
/// nvidia_cuda_nvcc-M.m.B.dist-info folder (0 when neither is there). Empty
/// when cuda.h has no CUDA_VERSION.
std::vector<std::string> nvccVersionMacros(llvm::StringRef CudaPath);

/// CUDA_VERSION of the installation at \p CudaPath (13000 for CUDA 13.0),
/// from its include/cuda.h; none when that cannot be read.
std::optional<unsigned> cudaVersion(llvm::StringRef CudaPath);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_CUDAPATH_H
