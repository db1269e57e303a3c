//===- rewrite/Stores.h - Where a statement writes ---------------*- C++ -*-===//
//
// The writes the rewrite passes need to know about before they move code:
// the left side of an assignment (compound ones too), the operand of ++ and
// --, and the pointer argument of an atomic* call.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_REWRITE_STORES_H
#define DECOUPLER_REWRITE_STORES_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace decoupler {

/// Calls \p Fn for every write in \p S, in source order: with the written
/// lvalue and false, or with an atomic* call's pointer argument and true.
void forEachStore(const clang::Stmt *S,
                  llvm::function_ref<void(const clang::Expr *Target, bool AtomicPointer)> Fn);

} // namespace decoupler

#endif // DECOUPLER_REWRITE_STORES_H
