//===- support/Barriers.h - Returns and block barriers in code -*- C++ -*-===//
//
// A pass that adds a __syncthreads() to a kernel (a delegate client's, a
// privatized array's flush) must know whether every thread of the block
// reaches it: a kernel that returns early skips it, and one that also
// synchronizes on the way would pair its threads' barriers wrongly. These
// answer both questions, looking through the functions the code calls, and
// say where a kernel publishes its writes to other blocks mid-kernel.
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

/// The calls and inline assembly of \p Body after which other blocks may see
/// what the thread wrote before the kernel ends: a fence of more than block
/// scope, an atomic that releases beyond the block, a grid-wide barrier
/// (ordersForOtherBlocks), themselves or in a function they call
/// (transitively, \p Seen holding those already looked at): where in
/// \p Body, and what. With \p First, only the first one. A rewrite that
/// defers a thread's writes (a block-private copy merged at the end, a
/// critical section sent to a server) must not defer them past one.
std::vector<std::pair<clang::SourceLocation, std::string>>
publishingPoints(const clang::Stmt *Body,
                 llvm::SmallPtrSetImpl<const clang::FunctionDecl *> &Seen,
                 bool First);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_BARRIERS_H
