//===- support/SameExpr.h - Expressions written alike -----------*- C++ -*-===//
//
// Whether two expressions name the same thing: the delegate pass compares
// lock references (the same lock in two critical sections), the atomics pass
// an atomic's word with the one its check reads.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_SAMEEXPR_H
#define DECOUPLER_SUPPORT_SAMEEXPR_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace decoupler {

/// Whether \p A and \p B are written alike, up to parentheses and implicit
/// conversions: the same declarations, operators and constants
/// (Stmt::Profile, canonical). Null equals only null.
bool sameExpr(const clang::Expr *A, const clang::Expr *B,
              const clang::ASTContext &Ctx);

/// sameExpr, and neither has side effects, so that both evaluate to the same
/// value or object at the same point of the program.
bool samePureExpr(const clang::Expr *A, const clang::Expr *B,
                  const clang::ASTContext &Ctx);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_SAMEEXPR_H
