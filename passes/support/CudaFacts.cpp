//===- support/CudaFacts.cpp - What CUDA's functions and variables are ----===//

#include "support/CudaFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

/// Whether \p D is declared in a system header: the CUDA toolkit's and
/// clang's CUDA wrappers are, the user's own files are not.
bool inSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
  return Loc.isValid() && SM.isInSystemHeader(Loc);
}

/// Whether \p DC is the translation unit, possibly through extern "C"/"C++"
/// blocks: where the CUDA headers declare their functions.
bool atGlobalScope(const DeclContext *DC) {
  while (DC && isa<LinkageSpecDecl>(DC))
    DC = DC->getParent();
  return DC && DC->isTranslationUnit();
}

/// The canonical spelling of the group a cooperative-groups sync call
/// synchronizes (`g.sync()` or `cg::sync(g)`); empty for a static or
/// internal sync of the headers' own.
std::string syncGroupSpelling(const CallExpr *Call) {
  QualType Group;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call))
    Group = M->getObjectType();
  else if (Call->getNumArgs() == 1)
    Group = Call->getArg(0)->getType().getNonReferenceType();
  return Group.isNull() ? std::string()
                        : Group.getCanonicalType().getAsString();
}

/// The object a member call (or member operator) \p Call is made on, as
/// written, and the index of its first argument after the object; null when
/// it is no member call.
const Expr *calledObject(const CallExpr *Call, unsigned &FirstArg) {
  FirstArg = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  if (isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() > 0) {
    FirstArg = 1;
    return Call->getArg(0);
  }
  return nullptr;
}

/// \p E's value when it folds to an integer (an enumerator included).
std::optional<int64_t> constantValue(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

} // namespace

bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() && NS->getName() == "cooperative_groups")
        return inSystemHeader(D);
  return false;
}

bool isCudaFunction(const FunctionDecl *F) {
  if (!F)
    return false;
  if (F->getBuiltinID() != 0)
    return true;
  // Every redeclaration must come from CUDA: a user may not add a body or
  // an overload and have it taken for the toolkit's (an overload is a
  // different FunctionDecl and fails here on its own).
  F = F->getCanonicalDecl();
  if (!F->getIdentifier() || !atGlobalScope(F->getDeclContext()))
    return false;
  for (const FunctionDecl *R : F->redecls())
    if (!inSystemHeader(R))
      return false;
  return true;
}

StringRef cudaFunctionName(const FunctionDecl *F) {
  return isCudaFunction(F) ? F->getName() : StringRef();
}

const FunctionDecl *cudaCallee(const CallExpr *Call) {
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  return isCudaFunction(F) ? F : nullptr;
}

StringRef toString(AtomicCall::Op Op) {
  switch (Op) {
  case AtomicCall::Op::Add:
    return "add";
  case AtomicCall::Op::Sub:
    return "sub";
  case AtomicCall::Op::Min:
    return "min";
  case AtomicCall::Op::Max:
    return "max";
  case AtomicCall::Op::And:
    return "and";
  case AtomicCall::Op::Or:
    return "or";
  case AtomicCall::Op::Xor:
    return "xor";
  case AtomicCall::Op::Inc:
    return "inc";
  case AtomicCall::Op::Dec:
    return "dec";
  case AtomicCall::Op::Exch:
    return "exch";
  case AtomicCall::Op::CAS:
    return "cas";
  }
  llvm_unreachable("unknown atomic operation");
}

std::optional<AtomicCall> cudaAtomic(const CallExpr *Call) {
  const FunctionDecl *F = cudaCallee(Call);
  if (!F || Call->getNumArgs() < 2)
    return std::nullopt;
  std::optional<AtomicCall> A = cudaAtomicFunction(F);
  if (!A || !Call->getArg(0)->getType()->isPointerType())
    return std::nullopt;
  return A;
}

bool asmMayStore(StringRef Text) {
  return Text.contains("st.") || Text.contains("atom") || Text.contains("red.");
}

std::string describeFunction(const FunctionDecl *F) {
  return (F->hasAttr<CUDAGlobalAttr>() ? "kernel '" : "function '") +
         F->getNameAsString() + "'";
}

std::optional<AtomicCall> cudaAtomicFunction(const FunctionDecl *F) {
  if (!isCudaFunction(F) || !F->getIdentifier())
    return std::nullopt;
  StringRef Name = F->getName();
  StringRef Rest = Name;
  if (!Rest.consume_front("atomic"))
    return std::nullopt;
  AtomicCall A{AtomicCall::Op::Add, AtomicCall::Scope::Device, Name};
  if (Rest.consume_back("_block"))
    A.Extent = AtomicCall::Scope::Block;
  else if (Rest.consume_back("_system"))
    A.Extent = AtomicCall::Scope::System;
  std::optional<AtomicCall::Op> Op =
      StringSwitch<std::optional<AtomicCall::Op>>(Rest)
          .Case("Add", AtomicCall::Op::Add)
          .Case("Sub", AtomicCall::Op::Sub)
          .Case("Min", AtomicCall::Op::Min)
          .Case("Max", AtomicCall::Op::Max)
          .Case("And", AtomicCall::Op::And)
          .Case("Or", AtomicCall::Op::Or)
          .Case("Xor", AtomicCall::Op::Xor)
          .Case("Inc", AtomicCall::Op::Inc)
          .Case("Dec", AtomicCall::Op::Dec)
          .Case("Exch", AtomicCall::Op::Exch)
          .Case("CAS", AtomicCall::Op::CAS)
          .Default(std::nullopt);
  if (!Op)
    return std::nullopt;
  A.Operation = *Op;
  return A;
}

SyncKind cudaSync(const CallExpr *Call) {
  if (!Call)
    return SyncKind::None;
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F)
    return SyncKind::None;
  // Cooperative groups: g.sync() or cg::sync(g); a thread_block_tile of
  // at most 32 threads (or a coalesced group) synchronizes a warp at most.
  if (inCooperativeGroups(F) && F->getIdentifier() &&
      (F->getName() == "sync" || F->getName() == "barrier_wait" ||
       F->getName() == "barrier_arrive")) {
    const std::string Spelled = syncGroupSpelling(Call);
    if (Spelled.empty()) // a static or internal sync of the headers' own
      return SyncKind::Barrier;
    if (StringRef(Spelled).contains("tile") ||
        StringRef(Spelled).contains("coalesced"))
      return SyncKind::WarpBarrier;
    return SyncKind::Barrier;
  }
  StringRef Name = cudaFunctionName(F);
  if (Name.empty())
    return SyncKind::None;
  if (Name == "__syncwarp" || Name.starts_with("__nvvm_bar_warp_sync"))
    return SyncKind::WarpBarrier;
  if (Name.starts_with("__syncthreads") || Name.starts_with("__barrier_sync") ||
      Name.starts_with("__nvvm_barrier") || Name.starts_with("__nvvm_bar"))
    return SyncKind::Barrier;
  if (Name.starts_with("__threadfence") || Name.starts_with("__nvvm_membar") ||
      Name.starts_with("__nvvm_fence") || Name == "__nv_atomic_thread_fence")
    return SyncKind::Fence;
  return SyncKind::None;
}

namespace {

bool isMemoryOrder(QualType T) {
  const auto *E = T.getCanonicalType()->getAs<EnumType>();
  return E && E->getDecl()->getIdentifier() &&
         E->getDecl()->getName() == "memory_order";
}

/// Whether a libcu++ or standard atomic object's member call \p Call
/// writes with release semantics (any order but relaxed, consume and
/// acquire; seq_cst when none is given) at more than block scope.
bool atomicObjectReleases(const CallExpr *Call, const CXXMethodDecl *M) {
  if (!inSystemHeader(M) || !M->getParent()->getIdentifier() ||
      !M->getParent()->getName().contains("atomic"))
    return false;
  unsigned FirstArg;
  const Expr *Object = calledObject(Call, FirstArg);
  if (!Object)
    return false;
  static const StringSet<> Writes = {"store",
                                     "exchange",
                                     "compare_exchange_weak",
                                     "compare_exchange_strong",
                                     "fetch_add",
                                     "fetch_sub",
                                     "fetch_and",
                                     "fetch_or",
                                     "fetch_xor",
                                     "fetch_min",
                                     "fetch_max"};
  const OverloadedOperatorKind Op = M->getOverloadedOperator();
  const bool Write =
      M->getIdentifier()
          ? Writes.contains(M->getName())
          : (Op == OO_Equal || Op == OO_PlusPlus || Op == OO_MinusMinus ||
             Op == OO_PlusEqual || Op == OO_MinusEqual || Op == OO_AmpEqual ||
             Op == OO_PipeEqual || Op == OO_CaretEqual);
  if (!Write)
    return false;
  const std::string Type =
      Object->IgnoreImpCasts()->getType().getCanonicalType().getAsString();
  if (StringRef(Type).contains("thread_scope_block") ||
      StringRef(Type).contains("thread_scope_thread"))
    return false;
  bool AnyOrder = false;
  for (unsigned I = FirstArg; I < Call->getNumArgs(); ++I) {
    if (!isMemoryOrder(Call->getArg(I)->getType()))
      continue;
    AnyOrder = true;
    // 0 relaxed, 1 consume, 2 acquire, 3 release, 4 acq_rel, 5 seq_cst (the
    // enumerators' order in libcu++ and the standard library).
    std::optional<int64_t> Order =
        constantValue(Call->getArg(I), M->getASTContext());
    if (!Order || *Order >= 3)
      return true;
  }
  return !AnyOrder; // seq_cst
}

/// Whether one of nvcc's `__nv_atomic_*` builtins (by declaration) writes
/// with release semantics at more than block scope: its order arguments and
/// its scope, the last one, as the prelude declares them.
bool nvAtomicReleases(const CallExpr *Call, StringRef Name) {
  if (!Name.consume_front("__nv_atomic_") || Name.starts_with("load") ||
      Name == "thread_fence" || Call->getNumArgs() == 0)
    return false;
  const ASTContext &Ctx = Call->getCalleeDecl()->getASTContext();
  auto Value = [&](unsigned I) -> std::optional<int64_t> {
    if (I < Call->getNumArgs())
      return constantValue(Call->getArg(I), Ctx);
    return std::nullopt;
  };
  // __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK.
  if (std::optional<int64_t> Scope = Value(Call->getNumArgs() - 1);
      Scope && *Scope <= 1)
    return false;
  std::vector<unsigned> Orders;
  if (Name.starts_with("compare_exchange"))
    Orders = {4, 5};
  else if (Name == "exchange" || Name == "store")
    Orders = {Name == "store" ? 2u : 3u};
  else
    Orders = {2};
  for (unsigned I : Orders) {
    std::optional<int64_t> Order = Value(I);
    // __NV_ATOMIC_RELAXED, _CONSUME, _ACQUIRE do not release.
    if (!Order || *Order >= 3)
      return true;
  }
  return false;
}

} // namespace

bool resultUnused(ASTContext &Ctx, const CallExpr *Call) {
  const Stmt *Child = Call;
  DynTypedNodeList Parents = Ctx.getParents(*Call);
  while (Parents.size() == 1) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (isa<ParenExpr, ExprWithCleanups>(P) ||
        (isa<CastExpr>(P) && cast<CastExpr>(P)->getCastKind() == CK_ToVoid)) {
      Child = P;
      Parents = Ctx.getParents(*P);
      continue;
    }
    // A label or attribute passes the value of its statement on.
    if (isa<LabelStmt, AttributedStmt>(P)) {
      Child = P;
      Parents = Ctx.getParents(*P);
      continue;
    }
    if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
      DynTypedNodeList Up = Ctx.getParents(*Block);
      const auto *SE = Up.size() == 1 ? Up[0].get<StmtExpr>() : nullptr;
      if (SE && !Block->body_empty() && Block->body_back() == Child) {
        Child = SE;
        Parents = Ctx.getParents(*SE);
        continue;
      }
      return true;
    }
    if (isa<CaseStmt, DefaultStmt>(P))
      return true;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getThen() == Child || If->getElse() == Child;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getBody() == Child;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return D->getBody() == Child;
    if (const auto *F = dyn_cast<ForStmt>(P))
      return F->getBody() == Child || F->getInc() == Child;
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->getOpcode() == BO_Comma && BO->getLHS() == Child;
    return false;
  }
  return false;
}

bool ordersForOtherBlocks(const CallExpr *Call) {
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  if (!F)
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && atomicObjectReleases(Call, M))
    return true;
  if (!F->getIdentifier())
    return false;
  if (StringRef Name = cudaFunctionName(F);
      !Name.empty() && nvAtomicReleases(Call, Name))
    return true;
  if (cudaSync(Call) == SyncKind::Barrier && inCooperativeGroups(F))
    return StringRef(syncGroupSpelling(Call)).contains("grid");
  if (cudaSync(Call) == SyncKind::Fence) {
    StringRef Name = F->getName();
    return Name != "__threadfence_block" && !Name.contains("cta");
  }
  // libcu++'s and the standard library's fences; their scope is an
  // argument the pass does not evaluate, so any scope counts.
  return F->getName() == "atomic_thread_fence" && inSystemHeader(F);
}

std::string callName(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F)
    return "";
  std::string Name = F->getNameAsString();
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  if (!M)
    return Name;
  const CXXRecordDecl *Class = M->getParent();
  unsigned FirstArg;
  if (const Expr *Object = calledObject(Call, FirstArg))
    if (const CXXRecordDecl *R =
            Object->IgnoreImpCasts()->getType()->getAsCXXRecordDecl())
      Class = R;
  return Class->getNameAsString() + "::" + Name;
}

bool readsThreadIdentity(const CallExpr *Call) {
  StringRef Name = cudaFunctionName(Call ? Call->getDirectCallee() : nullptr);
  if (Name.empty())
    return false;
  return Name.starts_with("__shfl") || Name.starts_with("__ballot") ||
         Name.starts_with("__any") || Name.starts_with("__all") ||
         Name.starts_with("__match") || Name.starts_with("__reduce") ||
         Name.starts_with("__activemask") || Name.starts_with("__vote") ||
         Name == "clock" || Name == "clock64" || Name.starts_with("__lane") ||
         Name.starts_with("__globaltimer") || Name.starts_with("curand") ||
         Name.starts_with("__nvvm_read_ptx_sreg") ||
         Name.starts_with("__nvvm_shfl") || Name.starts_with("__nvvm_vote") ||
         Name.starts_with("__nvvm_match");
}

CudaCallKind cudaCallKind(const CallExpr *Call) {
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  StringRef Name = cudaFunctionName(F);
  // std::min, std::abs, ... from the C++ library's system headers behave as
  // their CUDA namesakes.
  if (Name.empty() && F && F->getIdentifier() && F->isInStdNamespace() &&
      inSystemHeader(F))
    Name = F->getName();
  if (Name.empty())
    return CudaCallKind::Other;
  static const StringSet<> MinMax = {"min",   "max",   "umin",   "umax",
                                     "llmin", "llmax", "ullmin", "ullmax",
                                     "fminf", "fmaxf", "fmin",   "fmax"};
  static const StringSet<> Pure = {"abs",
                                   "labs",
                                   "llabs",
                                   "fabs",
                                   "fabsf",
                                   "sqrt",
                                   "sqrtf",
                                   "rsqrt",
                                   "rsqrtf",
                                   "cbrt",
                                   "cbrtf",
                                   "exp",
                                   "expf",
                                   "exp2",
                                   "exp2f",
                                   "log",
                                   "logf",
                                   "log2",
                                   "log2f",
                                   "log10",
                                   "log10f",
                                   "sin",
                                   "sinf",
                                   "cos",
                                   "cosf",
                                   "tan",
                                   "tanf",
                                   "pow",
                                   "powf",
                                   "floor",
                                   "floorf",
                                   "ceil",
                                   "ceilf",
                                   "trunc",
                                   "truncf",
                                   "round",
                                   "roundf",
                                   "fma",
                                   "fmaf",
                                   "__popc",
                                   "__popcll",
                                   "__clz",
                                   "__clzll",
                                   "__ffs",
                                   "__ffsll",
                                   "__brev",
                                   "__brevll",
                                   "__mul24",
                                   "__umul24",
                                   "__mulhi",
                                   "__umulhi",
                                   "__float2int_rn",
                                   "__float2int_rz",
                                   "__int2float_rn",
                                   "__fdividef",
                                   "__expf",
                                   "__logf",
                                   "__sinf",
                                   "__cosf",
                                   "__powf",
                                   "__saturatef",
                                   "__sad",
                                   "__usad",
                                   "ilogb",
                                   "copysign",
                                   "copysignf"};
  static const StringSet<> Void = {"__syncthreads",
                                   "__syncwarp",
                                   "__threadfence",
                                   "__threadfence_block",
                                   "__threadfence_system",
                                   "__trap",
                                   "__nanosleep",
                                   "printf",
                                   "assert",
                                   "__assertfail",
                                   "__brkpt",
                                   "__prof_trigger"};
  if (MinMax.contains(Name))
    return CudaCallKind::MinMax;
  if (Pure.contains(Name))
    return CudaCallKind::Pure;
  if (Void.contains(Name))
    return CudaCallKind::Void;
  if (Name == "__builtin_expect")
    return CudaCallKind::Expect;
  // Every other NVVM builtin is taken as per-thread: they read special
  // registers, shuffle or vote.
  if (readsThreadIdentity(Call) || Name.starts_with("__nvvm_"))
    return CudaCallKind::Divergent;
  return CudaCallKind::Other;
}

bool isCudaBuiltinVariable(const VarDecl *V) {
  if (!V || !V->getIdentifier() || !atGlobalScope(V->getDeclContext()) ||
      !inSystemHeader(V))
    return false;
  return StringSwitch<bool>(V->getName())
      .Cases({"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}, true)
      .Default(false);
}

std::optional<CudaBuiltinRead> cudaBuiltinRead(const Expr *E) {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E->IgnoreParens());
  if (!POE)
    return std::nullopt;
  const auto *Prop =
      dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
  if (!Prop)
    return std::nullopt;
  const Expr *Base = Prop->getBaseExpr()->IgnoreParens();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    Base = OVE->getSourceExpr()->IgnoreParens();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!isCudaBuiltinVariable(V) || V->getName() == "warpSize")
    return std::nullopt;
  StringRef Member = Prop->getPropertyDecl()->getName();
  unsigned Dim = StringSwitch<unsigned>(Member)
                     .Case("x", 0)
                     .Case("y", 1)
                     .Case("z", 2)
                     .Default(3);
  if (Dim > 2)
    return std::nullopt;
  return CudaBuiltinRead{V->getName(), Dim};
}

} // namespace decoupler
