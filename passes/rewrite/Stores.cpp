//===- rewrite/Stores.cpp - Where a statement writes ----------------------===//

#include "rewrite/Stores.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

void forEachStore(const Stmt *S, function_ref<void(const Expr *Target, bool AtomicPointer)> Fn) {
  struct Finder : RecursiveASTVisitor<Finder> {
    function_ref<void(const Expr *, bool)> Fn;
    explicit Finder(function_ref<void(const Expr *, bool)> Fn) : Fn(Fn) {}
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp())
        Fn(B->getLHS(), false);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp())
        Fn(U->getSubExpr(), false);
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      if (F && F->getIdentifier() && F->getName().starts_with("atomic") && C->getNumArgs() > 0)
        Fn(C->getArg(0), true);
      return true;
    }
  } Finder(Fn);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
}

} // namespace decoupler
