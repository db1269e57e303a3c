//===- support/Stores.cpp - Where a statement writes ----------------------===//

#include "support/Stores.h"
#include "support/CudaFacts.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

void forEachStore(const Stmt *S,
                  function_ref<void(const Expr *Target, bool AtomicPointer,
                                    const Stmt *Writer)>
                      Fn) {
  using Callback = function_ref<void(const Expr *, bool, const Stmt *)>;
  struct Finder : RecursiveASTVisitor<Finder> {
    Callback Fn;
    explicit Finder(Callback Fn) : Fn(Fn) {}
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp())
        Fn(B->getLHS(), false, B);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp())
        Fn(U->getSubExpr(), false, U);
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      if (cudaAtomic(C))
        Fn(C->getArg(0), true, C);
      return true;
    }
  } Finder(Fn);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
}

const VarDecl *baseVar(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase();
    else if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase();
    else if (const auto *U = dyn_cast<UnaryOperator>(E);
             U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf))
      E = U->getSubExpr();
    else if (const auto *B = dyn_cast<BinaryOperator>(E);
             B && B->isAdditiveOp())
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    else if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(D->getDecl());
    else
      return nullptr;
  }
  return nullptr;
}

namespace {

/// The variables \p S assigns, increments or takes the address of by name;
/// every variable it names goes to \p Named.
void modifiedByName(const Stmt *S, SmallPtrSetImpl<const VarDecl *> &Out,
                    SmallPtrSetImpl<const VarDecl *> &Named) {
  if (!S)
    return;
  auto Var = [](const Expr *E) -> const VarDecl * {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  };
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      Named.insert(V);
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    if (const VarDecl *V = Var(B->getLHS()))
      Out.insert(V);
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
    if (const VarDecl *V = Var(U->getSubExpr()))
      Out.insert(V);
  for (const Stmt *C : S->children())
    modifiedByName(C, Out, Named);
}

} // namespace

void modifiedVars(const Stmt *S, ASTContext &Ctx,
                  SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  SmallPtrSet<const VarDecl *, 16> Named;
  modifiedByName(S, Out, Named);
  // Legality may not hang on the spelling: a parameter advanced through
  // `void advance(int *&p)` must travel in a delegated message like one
  // advanced by `p += n`.
  ExprMutationAnalyzer Mutations(*S, Ctx);
  for (const VarDecl *V : Named)
    if (!Out.contains(V) && Mutations.isMutated(V))
      Out.insert(V);
}

bool mayModify(const Stmt *S, const VarDecl *V, ASTContext &Ctx) {
  if (!S)
    return false;
  SmallPtrSet<const VarDecl *, 16> ByName, Named;
  modifiedByName(S, ByName, Named);
  return ByName.contains(V) ||
         (Named.contains(V) && ExprMutationAnalyzer(*S, Ctx).isMutated(V));
}

} // namespace decoupler
