//===- CudaPath.h - Finding the CUDA installation ---------------*- C++ -*-===//
//
// Clang parses CUDA against a CUDA toolkit's headers. The installation is the
// one given with --cuda-path, else $CUDA_PATH, else /usr/local/cuda; it is
// valid when it holds include/cuda_runtime.h.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_CUDAPATH_H
#define DECOUPLER_TOOL_CUDAPATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace decoupler::tool {

/// \p Explicit is --cuda-path (empty when not given): only it is tried then.
llvm::Expected<std::string> findCudaPath(llvm::StringRef Explicit);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_CUDAPATH_H
