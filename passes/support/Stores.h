//===- support/Stores.h - Where a statement writes ---------------*- C++
//-*-===//
//
// The writes the rewrite passes need to know about before they move code:
// the left side of an assignment (compound ones too), the operand of ++ and
// --, and the pointer argument of an atomic* call; the variable such a
// write lands in; the variables a statement changes by name.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_STORES_H
#define DECOUPLER_SUPPORT_STORES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace decoupler {

/// Calls \p Fn for every write in \p S, in source order: with the written
/// lvalue and false, or with an atomic* call's pointer argument and true;
/// \p Writer is the assignment, increment, decrement or atomic call.
void forEachStore(
    const clang::Stmt *S,
    llvm::function_ref<void(const clang::Expr *Target, bool AtomicPointer,
                            const clang::Stmt *Writer)>
        Fn);

/// The variable at the base of an lvalue or pointer expression: `a` of
/// a[i], a.f[i], a->f, *a, *(a + i), &a[i]; null when there is none.
const clang::VarDecl *baseVar(const clang::Expr *E);

/// Adds to \p Out the variables that \p S may change: those it assigns,
/// increments or takes the address of by name (`x = ...`, `x++`, `&x`), and
/// those clang's ExprMutationAnalyzer finds changed any other way: bound to
/// a non-const reference (`bump(x)` with `void bump(int &)`, `int &r = x;
/// r++`), captured by reference, a non-const member called, an asm output.
/// Not stores through memory (`p[i] = ...` changes no variable `p`).
void modifiedVars(const clang::Stmt *S, clang::ASTContext &Ctx,
                  llvm::SmallPtrSetImpl<const clang::VarDecl *> &Out);

/// Whether \p S may change \p V, by the rules of modifiedVars; asks the
/// mutation analysis about \p V alone.
bool mayModify(const clang::Stmt *S, const clang::VarDecl *V,
               clang::ASTContext &Ctx);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_STORES_H
