//===- support/SameExpr.cpp - Expressions written alike ------------------===//

#include "support/SameExpr.h"
#include "llvm/ADT/FoldingSet.h"

namespace decoupler {

using namespace clang;

bool sameExpr(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  if (!A || !B)
    return A == B;
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

bool samePureExpr(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  if (!A || !B || A->IgnoreParenImpCasts()->HasSideEffects(Ctx) ||
      B->IgnoreParenImpCasts()->HasSideEffects(Ctx))
    return false;
  return sameExpr(A, B, Ctx);
}

} // namespace decoupler
