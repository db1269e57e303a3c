//===- support/Allocations.cpp - Kernel buffers that cannot overlap -------===//
#include "support/Allocations.h"

#include "support/CudaFacts.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace llvm;

namespace decoupler {
namespace {

/// The CUDA functions that store a fresh allocation through their first
/// argument. (cudaHostGetDevicePointer is not one: it aliases a host
/// buffer.)
bool isAllocator(const CallExpr *Call) {
  static const StringSet<> Names = {"cudaMalloc",
                                    "cudaMallocManaged",
                                    "cudaMallocAsync",
                                    "cudaMallocPitch",
                                    "cudaMallocHost",
                                    "cudaHostAlloc",
                                    "cudaMallocFromPoolAsync"};
  return Names.contains(cudaFunctionName(Call->getDirectCallee()));
}

const Stmt *parentOf(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

/// The innermost statement around \p Ref that is not a parenthesis.
const Stmt *useSite(const DeclRefExpr *Ref, ASTContext &Ctx) {
  const Stmt *P = parentOf(Ref, Ctx);
  while (isa_and_nonnull<ParenExpr>(P))
    P = parentOf(P, Ctx);
  return P;
}

/// Whether the use \p Ref reads the variable's value and nothing else (or
/// is not evaluated: `sizeof(a_gpu)`).
bool onlyReads(const DeclRefExpr *Ref, ASTContext &Ctx) {
  const Stmt *P = useSite(Ref, Ctx);
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
  return (Cast && Cast->getCastKind() == CK_LValueToRValue) ||
         isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P);
}

/// Whether the use \p Ref of a buffer variable reads its value or hands its
/// address to an allocation function.
bool allocationOrRead(const DeclRefExpr *Ref, ASTContext &Ctx) {
  if (onlyReads(Ref, Ctx))
    return true;
  const auto *Addr = dyn_cast_or_null<UnaryOperator>(useSite(Ref, Ctx));
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return false;
  const Stmt *Arg = Addr;
  const Stmt *P = parentOf(Arg, Ctx);
  while (isa_and_nonnull<ParenExpr, CastExpr>(P)) {
    Arg = P;
    P = parentOf(P, Ctx);
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  return Call && Call->getNumArgs() > 0 && Call->getArg(0) == Arg &&
         isAllocator(Call);
}

/// Whether \p Allowed(use, Ctx) holds for every use of \p V in \p F's body.
bool everyUse(const FunctionDecl *F, const VarDecl *V, ASTContext &Ctx,
              bool (*Allowed)(const DeclRefExpr *, ASTContext &)) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *V;
    ASTContext &Ctx;
    bool (*Allowed)(const DeclRefExpr *, ASTContext &);
    bool Ok = true;
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      if (R->getDecl() == V && !Allowed(R, Ctx))
        Ok = false;
      return Ok;
    }
  } U{{}, V, Ctx, Allowed};
  U.TraverseStmt(F->getBody());
  return U.Ok;
}

/// Whether \p V is a local pointer that only allocation functions set.
bool onlyAllocated(const VarDecl *V, ASTContext &Ctx) {
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
      !V->getType()->isPointerType())
    return false;
  if (const Expr *Init = V->getInit();
      Init &&
      !Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return false;
  const auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
  return F && F->hasBody() && !F->isTemplated() &&
         everyUse(F, V, Ctx, allocationOrRead);
}

/// The variable an argument names, through parentheses and casts.
const VarDecl *bufferVariable(const Expr *Arg) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts());
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

} // namespace

std::optional<std::string> distinctAllocations(const FunctionDecl *Kernel,
                                               const ParmVarDecl *A,
                                               const ParmVarDecl *B,
                                               ASTContext &Ctx) {
  const FunctionDecl *Def = Kernel ? Kernel->getDefinition() : nullptr;
  // Two parameters of the kernel's definition, which never points either
  // elsewhere.
  if (!Def || !A || !B || A == B || Def->isTemplated() ||
      Def->isTemplateInstantiation() || A->getDeclContext() != Def ||
      B->getDeclContext() != Def || !everyUse(Def, A, Ctx, onlyReads) ||
      !everyUse(Def, B, Ctx, onlyReads))
    return std::nullopt;
  const unsigned IA = A->getFunctionScopeIndex();
  const unsigned IB = B->getFunctionScopeIndex();
  struct Launches : RecursiveASTVisitor<Launches> {
    const FunctionDecl *Canon;
    SmallVector<const CUDAKernelCallExpr *, 4> Found;
    bool Dependent = false;
    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Call) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (Call->isTypeDependent() || Call->isValueDependent()) {
        // A launch in a template: its callee may be this kernel.
        Dependent = true;
        return true;
      }
      if (F && F->getCanonicalDecl() == Canon)
        Found.push_back(Call);
      return true;
    }
  } L;
  L.Canon = Kernel->getCanonicalDecl();
  L.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (L.Found.empty() || L.Dependent)
    return std::nullopt;
  for (const CUDAKernelCallExpr *Call : L.Found) {
    if (Call->getNumArgs() <= std::max(IA, IB))
      return std::nullopt;
    const VarDecl *VA = bufferVariable(Call->getArg(IA));
    const VarDecl *VB = bufferVariable(Call->getArg(IB));
    if (!VA || !VB || VA->getCanonicalDecl() == VB->getCanonicalDecl() ||
        !onlyAllocated(VA, Ctx) || !onlyAllocated(VB, Ctx))
      return std::nullopt;
  }
  std::string Where =
      L.Found.size() == 1
          ? std::string("the launch")
          : "all " + std::to_string(L.Found.size()) + " launches";
  return "'" + A->getName().str() + "' and '" + B->getName().str() +
         "' get distinct buffers of cudaMalloc or its family at " + Where +
         " of this file";
}

} // namespace decoupler
