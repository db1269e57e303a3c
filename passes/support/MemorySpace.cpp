//===- support/MemorySpace.cpp - Which memory a pointer points to ---------===//

#include "support/MemorySpace.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

/// Deep enough for a pointer passed down a few helper functions; beyond it
/// the answer is Unknown, which costs speed, not correctness.
constexpr unsigned MaxDepth = 8;

MemorySpace join(MemorySpace A, MemorySpace B) {
  return A == B ? A : MemorySpace::Unknown;
}

/// Whether every use of \p V in \p Body reads it: then the variable holds
/// its initializer's value wherever it is used.
bool onlyRead(ASTContext &Ctx, const VarDecl *V, const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Ctx;
    const VarDecl *V;
    bool Written = false;
    Finder(ASTContext &Ctx, const VarDecl *V) : Ctx(Ctx), V(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() != V)
        return true;
      DynTypedNodeList Parents = Ctx.getParents(*E);
      const auto *Cast =
          Parents.size() == 1 ? Parents[0].get<ImplicitCastExpr>() : nullptr;
      if (!Cast || (Cast->getCastKind() != CK_LValueToRValue &&
                    Cast->getCastKind() != CK_ArrayToPointerDecay))
        Written = true;
      return !Written;
    }
  } F(Ctx, V);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return !F.Written;
}

} // namespace

StringRef toString(MemorySpace S) {
  switch (S) {
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Shared:
    return "shared";
  case MemorySpace::Unknown:
    return "unknown";
  }
  llvm_unreachable("bad memory space");
}

MemorySpace MemorySpaces::of(const Expr *Address) {
  return pointer(Address, 0);
}

void MemorySpaces::indexCalls() {
  Indexed = true;
  struct Indexer : RecursiveASTVisitor<Indexer> {
    MemorySpaces &M;
    explicit Indexer(MemorySpaces &M) : M(M) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCallExpr(CallExpr *C) {
      if (const FunctionDecl *F = C->getDirectCallee())
        M.Calls[F->getCanonicalDecl()].push_back(C);
      return true;
    }
    // A function named other than as a direct callee may be called through
    // a pointer, with arguments no call here shows.
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *F = dyn_cast<FunctionDecl>(E->getDecl());
      if (!F)
        return true;
      DynTypedNodeList Parents = M.Ctx.getParents(*E);
      const auto *Cast =
          Parents.size() == 1 ? Parents[0].get<ImplicitCastExpr>() : nullptr;
      if (!Cast || Cast->getCastKind() != CK_FunctionToPointerDecay)
        M.AddressTaken[F->getCanonicalDecl()] = true;
      else {
        DynTypedNodeList Up = M.Ctx.getParents(*Cast);
        const auto *Call = Up.size() == 1 ? Up[0].get<CallExpr>() : nullptr;
        if (!Call || Call->getCallee() != Cast)
          M.AddressTaken[F->getCanonicalDecl()] = true;
      }
      return true;
    }
  } I(*this);
  I.TraverseDecl(Ctx.getTranslationUnitDecl());
}

MemorySpace MemorySpaces::variable(const VarDecl *V, bool AsPointer,
                                   unsigned Depth) {
  if (!AsPointer) {
    // The variable is the object: where it is declared says where it lives.
    if (V->hasAttr<CUDASharedAttr>())
      return MemorySpace::Shared;
    if (V->hasGlobalStorage() && !V->isStaticLocal())
      return MemorySpace::Global;
    if (V->hasAttr<CUDADeviceAttr>() || V->hasAttr<CUDAConstantAttr>())
      return MemorySpace::Global;
    return MemorySpace::Unknown; // a local array, a reference
  }
  // The variable holds a pointer.
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
    if (!F)
      return MemorySpace::Unknown;
    if (const FunctionDecl *Def = F->getDefinition();
        Def && !onlyRead(Ctx, Def->getParamDecl(P->getFunctionScopeIndex()),
                         Def->getBody()))
      return MemorySpace::Unknown;
    if (F->hasAttr<CUDAGlobalAttr>())
      return MemorySpace::Global;
    if (!Indexed)
      indexCalls();
    const FunctionDecl *Canon = F->getCanonicalDecl();
    auto It = Calls.find(Canon);
    if (AddressTaken.lookup(Canon) || It == Calls.end() ||
        (F->isExternallyVisible() && F->hasAttr<CUDADeviceAttr>() &&
         Ctx.getLangOpts().GPURelocatableDeviceCode))
      return MemorySpace::Unknown;
    std::optional<MemorySpace> Joined;
    unsigned Index = P->getFunctionScopeIndex();
    for (const CallExpr *C : It->second) {
      if (Index >= C->getNumArgs())
        return MemorySpace::Unknown;
      MemorySpace S = pointer(C->getArg(Index), Depth + 1);
      Joined = Joined ? join(*Joined, S) : S;
      if (*Joined == MemorySpace::Unknown)
        break;
    }
    return Joined.value_or(MemorySpace::Unknown);
  }
  if (V->hasLocalStorage() && V->getInit()) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
    if (F && F->getBody() && onlyRead(Ctx, V, F->getBody()))
      return pointer(V->getInit(), Depth + 1);
  }
  return MemorySpace::Unknown;
}

MemorySpace MemorySpaces::pointer(const Expr *E, unsigned Depth) {
  if (Depth > MaxDepth)
    return MemorySpace::Unknown;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return object(Cast->getSubExpr(), Depth);
    case CK_NoOp:
    case CK_BitCast:
    case CK_LValueToRValue:
      if (Cast->getCastKind() == CK_LValueToRValue) {
        const Expr *Sub = Cast->getSubExpr()->IgnoreParens();
        if (const auto *D = dyn_cast<DeclRefExpr>(Sub))
          if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
            return variable(V, /*AsPointer=*/true, Depth);
        return MemorySpace::Unknown; // a pointer loaded from memory
      }
      return pointer(Cast->getSubExpr(), Depth);
    default:
      return MemorySpace::Unknown;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_AddrOf ? object(U->getSubExpr(), Depth)
                                       : MemorySpace::Unknown;
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) {
      if (B->getLHS()->getType()->isPointerType())
        return pointer(B->getLHS(), Depth);
      if (B->getRHS()->getType()->isPointerType())
        return pointer(B->getRHS(), Depth);
    }
    if (B->getOpcode() == BO_Comma)
      return pointer(B->getRHS(), Depth);
    return MemorySpace::Unknown;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return join(pointer(C->getTrueExpr(), Depth),
                pointer(C->getFalseExpr(), Depth));
  return MemorySpace::Unknown;
}

MemorySpace MemorySpaces::object(const Expr *E, unsigned Depth) {
  E = E->IgnoreParens();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return pointer(A->getBase(), Depth);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() ? pointer(M->getBase(), Depth)
                        : object(M->getBase(), Depth);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref ? pointer(U->getSubExpr(), Depth)
                                      : MemorySpace::Unknown;
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return V->getType()->isReferenceType()
                 ? MemorySpace::Unknown
                 : variable(V, /*AsPointer=*/false, Depth);
  return MemorySpace::Unknown;
}

} // namespace decoupler
