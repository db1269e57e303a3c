//===- affine/CudaBuiltins.h - Reads of threadIdx, blockIdx, ... -*- C++ -*-===//
//
// clang's CUDA headers spell threadIdx, blockIdx, blockDim and gridDim as
// MS properties (`__declspec(property)`), so a read of `threadIdx.x` is a
// PseudoObjectExpr around an MSPropertyRefExpr. One recognizer for the
// analysis and the passes.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_AFFINE_CUDABUILTINS_H
#define DECOUPLER_AFFINE_CUDABUILTINS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace decoupler {

/// A read of one component of a CUDA builtin variable.
struct CudaBuiltinRead {
  llvm::StringRef Var; ///< "threadIdx", "blockIdx", "blockDim" or "gridDim"
  unsigned Dim;        ///< 0, 1, 2 for x, y, z

  /// "threadIdx.x", "blockDim.y", ...
  std::string name() const { return (Var + "." + llvm::StringRef(&"xyz"[Dim], 1)).str(); }
};

/// The builtin component \p E reads (parentheses ignored), if it is one.
std::optional<CudaBuiltinRead> cudaBuiltinRead(const clang::Expr *E);

/// Its name ("threadIdx.x"), if \p E reads one.
inline std::optional<std::string> cudaBuiltinName(const clang::Expr *E) {
  if (std::optional<CudaBuiltinRead> B = cudaBuiltinRead(E))
    return B->name();
  return std::nullopt;
}

} // namespace decoupler

#endif // DECOUPLER_AFFINE_CUDABUILTINS_H
