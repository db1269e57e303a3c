//===- support/MemorySpace.h - Which memory a pointer points to -*- C++ -*-===//
//
// Shared-memory and global-memory atomics cost differently: shared-memory
// atomics are native instructions of the SM, and warp aggregation that pays
// for a contended global word makes a shared-memory histogram 10x slower. So
// the atomics pass asks where an address points. The answer follows the
// pointer back through arithmetic, subscripts, member accesses, local
// variables that are set once, and the parameters of device functions (to
// every call of the function in the file); a kernel's pointer parameters
// point to global memory (a launch cannot pass a shared-memory pointer).
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_MEMORYSPACE_H
#define DECOUPLER_SUPPORT_MEMORYSPACE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace decoupler {

enum class MemorySpace {
  Global,  ///< __device__ / __managed__ variables, kernel parameters' memory
  Shared,  ///< __shared__ variables
  Unknown, ///< several, a local array, or not traceable
};

llvm::StringRef toString(MemorySpace S);

/// Answers memorySpace() questions for one translation unit, with an index
/// of the calls of every function built on first use.
class MemorySpaces {
public:
  explicit MemorySpaces(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Where the pointer \p Address points.
  MemorySpace of(const clang::Expr *Address);

private:
  MemorySpace pointer(const clang::Expr *E, unsigned Depth);
  MemorySpace object(const clang::Expr *E, unsigned Depth);
  MemorySpace variable(const clang::VarDecl *V, bool AsPointer, unsigned Depth);
  void indexCalls();

  clang::ASTContext &Ctx;
  bool Indexed = false;
  /// Every direct call of each function defined in the file; functions
  /// whose address is taken map to an empty list and are in AddressTaken.
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::CallExpr *>>
      Calls;
  llvm::DenseMap<const clang::FunctionDecl *, bool> AddressTaken;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_MEMORYSPACE_H
