//===- support/MemoryRoots.cpp - Memory a kernel may reach ------------===//

#include "support/MemoryRoots.h"
#include "support/CudaFacts.h"
#include "support/Stores.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

bool MemoryRootSet::overlaps(const MemoryRootSet &O) const {
  if ((Unknown && !O.empty()) || (O.Unknown && !empty()))
    return true;
  for (const VarDecl *V : Vars)
    if (O.Vars.contains(V))
      return true;
  return false;
}

namespace {

const VarDecl *localVar(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) ? V : nullptr;
}

bool isPointerOrReference(QualType T) {
  return T->isPointerType() || T->isReferenceType();
}

} // namespace

MemoryRoots::MemoryRoots(const FunctionDecl &F) {
  struct Collector : RecursiveASTVisitor<Collector> {
    MemoryRoots &M;
    explicit Collector(MemoryRoots &M) : M(M) {}
    bool VisitVarDecl(VarDecl *V) {
      if (V->hasLocalStorage() && V->getInit() &&
          isPointerOrReference(V->getType()))
        M.Values[V].push_back(V->getInit());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->getOpcode() == BO_Assign)
        if (const VarDecl *V = localVar(B->getLHS());
            V && V->getType()->isPointerType())
          M.Values[V].push_back(B->getRHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      // Its address taken, a pointer may be changed through it anywhere.
      if (U->getOpcode() == UO_AddrOf)
        if (const VarDecl *V = localVar(U->getSubExpr());
            V && V->getType()->isPointerType())
          M.Escaped.insert(V);
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      // A pointer bound to a reference parameter may be changed by the callee.
      const FunctionDecl *Callee = C->getDirectCallee();
      for (unsigned I = 0; I < C->getNumArgs(); ++I)
        if (const VarDecl *V = localVar(C->getArg(I));
            V && V->getType()->isPointerType() &&
            (!Callee || I >= Callee->getNumParams() ||
             Callee->getParamDecl(I)->getType()->isReferenceType()))
          M.Escaped.insert(V);
      return true;
    }
  } C(*this);
  C.TraverseStmt(F.getBody());
}

void MemoryRoots::ofLValue(const Expr *E, MemoryRootSet &Out) {
  E = E->IgnoreParens();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return ofPointer(A->getBase(), Out);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() ? ofPointer(M->getBase(), Out)
                        : ofLValue(M->getBase(), Out);
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    return ofPointer(U->getSubExpr(), Out);
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl())) {
      if (V->getType()->isReferenceType())
        return ofVar(V, Out);
      Out.Vars.insert(V);
      return;
    }
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E);
      C && C->getCastKind() == CK_NoOp)
    return ofLValue(C->getSubExpr(), Out);
  Out.Unknown = true;
}

void MemoryRoots::ofPointer(const Expr *E, MemoryRootSet &Out) {
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    switch (C->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return ofLValue(C->getSubExpr(), Out);
    case CK_LValueToRValue:
      // Reading a variable follows it; reading a pointer from memory does
      // not.
      if (const auto *D =
              dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
        if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
          return ofVar(V, Out);
      Out.Unknown = true;
      return;
    case CK_NoOp:
    case CK_BitCast:
    case CK_NullToPointer:
      return ofPointer(C->getSubExpr(), Out);
    default:
      break;
    }
    if (isa<ExplicitCastExpr>(C) && C->getSubExpr()->getType()->isPointerType())
      return ofPointer(C->getSubExpr(), Out);
    Out.Unknown = true;
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    return ofLValue(U->getSubExpr(), Out);
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAdditiveOp())
      return ofPointer(B->getLHS()->getType()->isPointerType() ? B->getLHS()
                                                               : B->getRHS(),
                       Out);
    if (B->isAssignmentOp() || B->getOpcode() == BO_Comma)
      return ofPointer(B->getRHS(), Out);
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    ofPointer(C->getTrueExpr(), Out);
    return ofPointer(C->getFalseExpr(), Out);
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return ofVar(V, Out);
  if (isa<CXXNullPtrLiteralExpr, IntegerLiteral, GNUNullExpr>(E))
    return;
  Out.Unknown = true;
}

void MemoryRoots::ofVar(const VarDecl *V, MemoryRootSet &Out) {
  // Parameters and globals are roots of their own (a pointer's pointee: the
  // memory it was given); so is a local's own storage.
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      !isPointerOrReference(V->getType())) {
    Out.Vars.insert(V);
    return;
  }
  if (Escaped.contains(V)) {
    Out.Unknown = true;
    return;
  }
  if (!Visiting.insert(V).second)
    return; // a cycle of assignments adds nothing new
  for (const Expr *E : Values.lookup(V)) {
    if (V->getType()->isReferenceType())
      ofLValue(E, Out);
    else
      ofPointer(E, Out);
  }
  Visiting.erase(V);
}

void writtenThroughArguments(const CallExpr *C, MemoryRoots &Roots,
                             MemoryRootSet &Out) {
  const FunctionDecl *Callee = C->getDirectCallee();
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    const Expr *A = C->getArg(I);
    QualType PT = Callee && I < Callee->getNumParams()
                      ? Callee->getParamDecl(I)->getType()
                      : A->getType();
    if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
      Roots.ofLValue(A, Out);
    else if (PT->isPointerType() && !PT->getPointeeType().isConstQualified())
      Roots.ofPointer(A, Out);
  }
}

SmallVector<const CallExpr *, 4> nonAtomicCalls(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SmallVector<const CallExpr *, 4> Calls;
    bool VisitCallExpr(CallExpr *C) {
      if (!cudaAtomic(C))
        Calls.push_back(C);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return std::move(F.Calls);
}

namespace {

/// Collects what statements of one function write into Out, following
/// calls into the functions they call (each once).
class WriteCollector {
public:
  WriteCollector(MemoryRootSet &Out) : Out(Out) {}

  void function(const FunctionDecl &F, ArrayRef<const Stmt *> Body,
                bool KeepLocals) {
    MemoryRoots Roots(F);
    for (const Stmt *S : Body) {
      forEachStore(S,
                   [&](const Expr *Target, bool AtomicPointer, const Stmt *) {
                     MemoryRootSet R;
                     if (AtomicPointer)
                       Roots.ofPointer(Target, R);
                     else
                       Roots.ofLValue(Target, R);
                     add(R, KeepLocals);
                   });
      calls(S, Roots, KeepLocals);
    }
  }

private:
  void add(const MemoryRootSet &R, bool KeepLocals) {
    Out.Unknown |= R.Unknown;
    for (const VarDecl *V : R.Vars)
      // In a callee, its parameters stand for the caller's arguments (added
      // at the call) and its locals are its own.
      if (!V->hasLocalStorage() || (KeepLocals && isa<ParmVarDecl>(V)))
        Out.Vars.insert(V);
  }

  void calls(const Stmt *S, MemoryRoots &Roots, bool KeepLocals) {
    for (const CallExpr *C : nonAtomicCalls(S)) {
      const FunctionDecl *Callee = C->getDirectCallee();
      MemoryRootSet R;
      writtenThroughArguments(C, Roots, R);
      add(R, KeepLocals);
      // What it writes to globals itself (its own parameters' memory is the
      // arguments', above).
      if (isa<CXXMemberCallExpr>(C))
        Out.Unknown = true; // `this` is not followed
      if (Callee && Callee->hasBody() && Seen.insert(Callee).second) {
        const FunctionDecl *Def = nullptr;
        if (Callee->hasBody(Def))
          function(*Def, {Def->getBody()}, /*KeepLocals=*/false);
      }
    }
  }

  MemoryRootSet &Out;
  SmallPtrSet<const FunctionDecl *, 8> Seen;
};

} // namespace

MemoryRootSet writtenMemory(ArrayRef<const Stmt *> Body,
                            const FunctionDecl &F) {
  MemoryRootSet Out;
  WriteCollector(Out).function(F, Body, /*KeepLocals=*/true);
  return Out;
}

} // namespace decoupler
