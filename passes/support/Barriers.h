//===- support/Barriers.h - Returns and block barriers in code -*- C++ -*-===//
//
// A pass that adds a __syncthreads() to a kernel (a delegate client's, a
// privatized array's flush) must know whether every thread of the block
// reaches it: a kernel that returns early skips it, and one that also
// synchronizes on the way would pair its threads' barriers wrongly. These
// answer both questions, looking through the functions the code calls.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_BARRIERS_H
#define DECOUPLER_SUPPORT_BARRIERS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>
#include <string>
#include <vector>

namespace decoupler {

/// Every return of \p Body (outside lambdas, which return from themselves),
/// in source order.
std::vector<const clang::ReturnStmt *> returnsOf(const clang::Stmt *Body);

/// The first of returnsOf(), if any.
const clang::ReturnStmt *firstReturn(const clang::Stmt *Body);

inline bool hasReturn(const clang::Stmt *Body) {
  return firstReturn(Body) != nullptr;
}

/// A block barrier that code reaches: where (in the code scanned), what it
/// is, and where it lies when that is in a function called.
struct BarrierSite {
  clang::SourceLocation Loc;
  std::string What;
  clang::SourceLocation Inner;
};

/// The first block barrier (cudaSync: Barrier) that \p Body executes,
/// itself or in a function it calls (transitively); a call that cannot be
/// followed (no body in the file, through a pointer) counts as one.
std::optional<BarrierSite>
findBarrier(const clang::Stmt *Body,
            llvm::SmallPtrSetImpl<const clang::FunctionDecl *> &Seen);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_BARRIERS_H
