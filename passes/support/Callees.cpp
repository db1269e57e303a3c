//===- support/Callees.cpp - The function a call runs ---------------------===//

#include "support/Callees.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace decoupler {

namespace {

/// The object expression of a call of member function \p M, and whether
/// the call names the function with a qualifier (which never dispatches).
const Expr *objectOf(const CallExpr *Call, bool &Qualified) {
  Qualified = false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (!ME)
      return nullptr; // a pointer to member: decided by the pointer
    Qualified = ME->hasQualifier();
    return ME->getBase();
  }
  if (isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() > 0)
    return Call->getArg(0);
  return nullptr;
}

} // namespace

const FunctionDecl *calledFunction(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(F);
  if (!M || !M->isVirtual())
    return F;
  bool Qualified = false;
  const Expr *Object = objectOf(Call, Qualified);
  if (!Object)
    return nullptr;
  if (Qualified)
    return F;
  return M->getDevirtualizedMethod(Object, /*IsAppleKext=*/false);
}

bool dispatchedAtRunTime(const CallExpr *Call) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  return M && M->isVirtual() && !calledFunction(Call);
}

} // namespace decoupler
