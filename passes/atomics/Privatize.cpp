//===- atomics/Privatize.cpp - Block-private copies of global arrays ------===//

#include "atomics/Privatize.h"
#include "support/Barriers.h"
#include "support/Callees.h"
#include "support/LaunchRewriter.h"
#include "support/SourceText.h"
#include "support/ThreadOrder.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

/// Shared-memory bytes one privatized array may take (DD_PRIVATE_BYTES of
/// <dd/privatize.cuh>: the capacity declared for a range known at launch).
constexpr uint64_t PrivateBytes = 16384;
/// A kernel's static shared memory may not exceed 48 KiB.
constexpr uint64_t StaticSharedLimit = 48 * 1024;
/// Clearing and merging a copy costs `range / block size` shared-memory
/// words per thread. Measured on an H100 (docs/PERF.md), even one key per
/// thread pays up to 16 words per thread (4096 bins, 256 threads: 1.35x over
/// the atomics as written; 256 bins: 5.9x), loop or not.
constexpr unsigned PerThread = 16;

//===-- Index bounds ------------------------------------------------------===//

/// Integers far beyond any shared-memory array; arithmetic saturates here.
constexpr int64_t Huge = int64_t(1) << 40;

struct Interval {
  int64_t Lo;
  int64_t Hi;
  std::string How;
};

int64_t clampHuge(__int128 V) {
  return V > Huge ? Huge : V < -Huge ? -Huge : static_cast<int64_t>(V);
}

std::optional<Interval> typeRange(ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (!T->isIntegerType())
    return std::nullopt;
  if (T->isBooleanType())
    return Interval{0, 1, "the type 'bool'"};
  unsigned W = Ctx.getIntWidth(T);
  std::string How = "the type '" + T.getAsString() + "'";
  if (W >= 40)
    return Interval{T->isSignedIntegerOrEnumerationType() ? -Huge : 0, Huge,
                    How};
  if (T->isSignedIntegerOrEnumerationType())
    return Interval{-(int64_t(1) << (W - 1)), (int64_t(1) << (W - 1)) - 1, How};
  return Interval{0, (int64_t(1) << W) - 1, How};
}

/// The first mention of \p V in \p S (in source order) that neither reads
/// it (an lvalue-to-rvalue conversion; with \p ThroughFields, also of a
/// field reached from it by `.`) nor, with \p Assigns, assigns it (`=`, a
/// compound assignment, ++, --); null when there is none. An address taken
/// or a reference bound is such a mention: through it, the variable could
/// be read or written under another name.
const DeclRefExpr *otherMention(ASTContext &Ctx, const Stmt *S,
                                const VarDecl *V, bool Assigns,
                                bool ThroughFields = false) {
  if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == V) {
    auto ParentOf = [&](const Stmt *E) -> const Stmt * {
      DynTypedNodeList Parents = Ctx.getParents(*E);
      return Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
    };
    const Stmt *At = R;
    const Stmt *Up = ParentOf(At);
    while (
        ThroughFields &&
        (isa_and_nonnull<ParenExpr>(Up) ||
         (isa_and_nonnull<MemberExpr>(Up) && !cast<MemberExpr>(Up)->isArrow() &&
          isa<FieldDecl>(cast<MemberExpr>(Up)->getMemberDecl())))) {
      At = Up;
      Up = ParentOf(At);
    }
    bool Fine = false;
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up))
      Fine = C->getCastKind() == CK_LValueToRValue;
    else if (const auto *U = dyn_cast_or_null<UnaryOperator>(Up))
      Fine = Assigns && U->isIncrementDecrementOp();
    else if (const auto *B = dyn_cast_or_null<BinaryOperator>(Up))
      Fine = Assigns && B->isAssignmentOp() && B->getLHS() == At;
    return Fine ? nullptr : R;
  }
  for (const Stmt *C : S->children())
    if (C)
      if (const DeclRefExpr *M =
              otherMention(Ctx, C, V, Assigns, ThroughFields))
        return M;
  return nullptr;
}

/// Whether every mention of local \p V in \p Body reads it or, with
/// \p Assigns, also assigns it (otherMention()), so that nothing reads or
/// writes it under another name.
bool onlyReadOrAssigned(ASTContext &Ctx, const Stmt *Body, const VarDecl *V,
                        bool Assigns = false) {
  return Body && !otherMention(Ctx, Body, V, Assigns);
}

/// The initializer of \p V when it is a local variable of \p Kernel (not a
/// parameter) that is never assigned and whose address is never taken, so
/// that its value is the initializer's wherever it is read; else null.
const Expr *setOnceInit(ASTContext &Ctx, const VarDecl *V,
                        const FunctionDecl *Kernel) {
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
      !onlyReadOrAssigned(Ctx, Kernel->getBody(), V))
    return nullptr;
  return V->getInit();
}

class Bounds {
public:
  Bounds(ASTContext &Ctx, const FunctionDecl *Kernel)
      : Ctx(Ctx), Kernel(Kernel) {}

  std::optional<Interval> of(const Expr *E, unsigned Depth = 0) {
    if (Depth > 16)
      return typeRange(Ctx, E->getType());
    E = E->IgnoreParens();
    if (!E->isValueDependent() && !E->isTypeDependent())
      if (std::optional<APSInt> C = E->getIntegerConstantExpr(Ctx)) {
        if (C->getSignificantBits() > 40)
          return typeRange(Ctx, E->getType());
        int64_t V = C->getExtValue();
        return Interval{V, V, "the constant " + std::to_string(V)};
      }
    std::optional<Interval> Type = typeRange(Ctx, E->getType());
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      switch (Cast->getCastKind()) {
      case CK_LValueToRValue:
        if (const auto *D =
                dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
          if (const Expr *Init =
                  setOnceInit(Ctx, dyn_cast<VarDecl>(D->getDecl()), Kernel))
            return narrower(of(Init, Depth + 1), Type);
        return Type;
      case CK_IntegralCast:
      case CK_NoOp: {
        std::optional<Interval> Sub = of(Cast->getSubExpr(), Depth + 1);
        if (Sub && Type && Sub->Lo >= Type->Lo && Sub->Hi <= Type->Hi)
          return Sub;
        return Type;
      }
      default:
        return Type;
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() == BO_Comma)
        return of(B->getRHS(), Depth + 1);
      std::optional<Interval> L = of(B->getLHS(), Depth + 1);
      std::optional<Interval> R = of(B->getRHS(), Depth + 1);
      if (!L || !R)
        return Type;
      auto Const = [](const Interval &I) { return I.Lo == I.Hi; };
      std::optional<Interval> Out;
      switch (B->getOpcode()) {
      case BO_And:
        if (L->Lo >= 0 && R->Lo >= 0)
          Out = Interval{0, std::min(L->Hi, R->Hi),
                         L->Hi <= R->Hi ? L->How : R->How};
        else if (L->Lo >= 0 || R->Lo >= 0) {
          const Interval &NonNeg = L->Lo >= 0 ? *L : *R;
          Out = Interval{0, NonNeg.Hi, NonNeg.How};
        }
        if (Out && Const(*R) && R->Hi == Out->Hi)
          Out->How = "'& " + std::to_string(R->Hi) + "'";
        break;
      case BO_Rem:
        if (Const(*R) && R->Hi > 0) {
          int64_t M = R->Hi - 1;
          Out = L->Lo >= 0 ? Interval{0, std::min(L->Hi, M), ""}
                           : Interval{-M, M, ""};
          Out->How = "'% " + std::to_string(R->Hi) + "'";
        }
        break;
      case BO_Shr:
        if (Const(*R) && R->Hi >= 0 && R->Hi < 63 && L->Lo >= 0)
          Out = Interval{L->Lo >> R->Hi, L->Hi >> R->Hi,
                         "'>> " + std::to_string(R->Hi) + "' of " + L->How};
        break;
      case BO_Div:
        if (Const(*R) && R->Hi > 0 && L->Lo >= 0)
          Out = Interval{L->Lo / R->Hi, L->Hi / R->Hi,
                         "'/ " + std::to_string(R->Hi) + "' of " + L->How};
        break;
      case BO_Add:
      case BO_Sub:
      case BO_Mul: {
        __int128 A[2] = {L->Lo, L->Hi}, C[2] = {R->Lo, R->Hi};
        __int128 Lo = 0, Hi = 0;
        bool First = true;
        for (__int128 X : A)
          for (__int128 Y : C) {
            __int128 V = B->getOpcode() == BO_Add   ? X + Y
                         : B->getOpcode() == BO_Sub ? X - Y
                                                    : X * Y;
            Lo = First || V < Lo ? V : Lo;
            Hi = First || V > Hi ? V : Hi;
            First = false;
          }
        // Outside the result type it wraps: only the type is known then.
        if (Type && Lo >= Type->Lo && Hi <= Type->Hi)
          Out = Interval{clampHuge(Lo), clampHuge(Hi),
                         "arithmetic on " + L->How + " and " + R->How};
        break;
      }
      default:
        break;
      }
      return narrower(Out, Type);
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      std::optional<Interval> T = of(C->getTrueExpr(), Depth + 1);
      std::optional<Interval> F = of(C->getFalseExpr(), Depth + 1);
      if (T && F)
        return narrower(Interval{std::min(T->Lo, F->Lo), std::max(T->Hi, F->Hi),
                                 T->Hi >= F->Hi ? T->How : F->How},
                        Type);
      return Type;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && Call->getNumArgs() == 2 &&
        cudaCallKind(Call) == CudaCallKind::MinMax) {
      StringRef Name = cudaFunctionName(Call->getDirectCallee());
      std::optional<Interval> A = of(Call->getArg(0), Depth + 1);
      std::optional<Interval> C = of(Call->getArg(1), Depth + 1);
      if (A && C && Name.contains("min"))
        return narrower(Interval{std::min(A->Lo, C->Lo), std::min(A->Hi, C->Hi),
                                 "'" + Name.str() + "' with " +
                                     (A->Hi <= C->Hi ? A->How : C->How)},
                        Type);
      if (A && C && Name.contains("max"))
        return narrower(Interval{std::max(A->Lo, C->Lo), std::max(A->Hi, C->Hi),
                                 "'" + Name.str() + "'"},
                        Type);
    }
    return Type;
  }

private:
  static std::optional<Interval> narrower(std::optional<Interval> A,
                                          std::optional<Interval> B) {
    if (!A)
      return B;
    if (!B)
      return A;
    return A->Hi - A->Lo <= B->Hi - B->Lo ? A : B;
  }

private:
  ASTContext &Ctx;
  const FunctionDecl *Kernel;
};

/// A parameter of \p Kernel read by \p E (casts and parentheses ignored).
const ParmVarDecl *kernelParam(const Expr *E, const FunctionDecl *Kernel) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  return P && P->getDeclContext() == Kernel ? P : nullptr;
}

//===-- Kernel facts ------------------------------------------------------===//

/// Every function \p Body calls, transitively, with a body in this file
/// (\p Body's own function included by the caller); \p Opaque is set when
/// a call cannot be followed.
void callees(const Stmt *Body, SmallPtrSetImpl<const FunctionDecl *> &Seen,
             bool &Opaque) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SmallPtrSetImpl<const FunctionDecl *> &Seen;
    bool &Opaque;
    Finder(SmallPtrSetImpl<const FunctionDecl *> &Seen, bool &Opaque)
        : Seen(Seen), Opaque(Opaque) {}
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = calledFunction(C);
      if (!F) {
        if (!isa<CXXPseudoDestructorExpr>(
                C->getCallee()->IgnoreParenImpCasts()))
          Opaque = true;
        return true;
      }
      if (isCudaFunction(F) || F->getBuiltinID())
        return true;
      const FunctionDecl *Def = nullptr;
      if (!F->hasBody(Def)) {
        Opaque = true;
        return true;
      }
      if (Seen.insert(Def).second)
        callees(Def->getBody(), Seen, Opaque);
      return true;
    }
  } F(Seen, Opaque);
  F.TraverseStmt(const_cast<Stmt *>(Body));
}

/// `__shared__` variables declared in \p Body: the bytes of those of fixed
/// size, and whether one is sized at launch (extern, unsized).
void sharedVariables(ASTContext &Ctx, const Stmt *Body, uint64_t &Bytes,
                     bool &Dynamic) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Ctx;
    uint64_t &Bytes;
    bool &Dynamic;
    Finder(ASTContext &Ctx, uint64_t &Bytes, bool &Dynamic)
        : Ctx(Ctx), Bytes(Bytes), Dynamic(Dynamic) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      // An extern __shared__ array declared at file scope and used here.
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
        if (V->hasAttr<CUDASharedAttr>() && V->getType()->isIncompleteType())
          Dynamic = true;
      return true;
    }
    bool VisitVarDecl(VarDecl *V) {
      if (!V->hasAttr<CUDASharedAttr>())
        return true;
      if (V->getType()->isIncompleteType() || V->hasExternalStorage())
        Dynamic = true;
      else if (!V->getType()->isDependentType())
        Bytes += Ctx.getTypeSizeInChars(V->getType()).getQuantity();
      return true;
    }
  } F(Ctx, Bytes, Dynamic);
  F.TraverseStmt(const_cast<Stmt *>(Body));
}

/// The blanks before \p Loc on its line, when nothing else precedes it
/// there.
std::optional<StringRef> blanksBefore(const SourceManager &SM,
                                      SourceLocation Loc) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Text = SM.getBufferData(File);
  unsigned Start = Offset;
  while (Start > 0 && (Text[Start - 1] == ' ' || Text[Start - 1] == '\t'))
    --Start;
  if (Start > 0 && Text[Start - 1] != '\n')
    return std::nullopt;
  return Text.substr(Start, Offset - Start);
}

/// The operation tag of <dd/atomic_ops.cuh> for \p Op: the runtime's
/// spelling (toString()), with `and`, `or`, `xor` as bit_and, ... (C++
/// keywords); empty for what a private copy cannot combine.
std::string opTag(AtomicCall::Op Op) {
  switch (Op) {
  case AtomicCall::Op::And:
  case AtomicCall::Op::Or:
  case AtomicCall::Op::Xor:
    return ("bit_" + toString(Op)).str();
  case AtomicCall::Op::Add:
  case AtomicCall::Op::Sub:
  case AtomicCall::Op::Min:
  case AtomicCall::Op::Max:
    return toString(Op).str();
  default:
    return "";
  }
}

//===-- Pipelined loads ---------------------------------------------------===//

/// Iterations dd::pipelined_updates loads ahead (DD_PIPELINE_DEPTH of
/// <dd/pipelined_updates.cuh>), for the remark.
constexpr unsigned PipelineDepth = 4;

/// What an expression without side effects may read (readsOnly).
struct ReadRules {
  /// threadIdx and blockIdx (blockDim and gridDim always).
  bool ThreadIndex = true;
  /// Memory through pointers, arrays and `->`.
  bool Memory = true;
  /// Which variables, beyond the rule that none is volatile or a reference
  /// (null: every other one).
  function_ref<bool(const VarDecl *)> Var = nullptr;
  /// Subexpressions taken as allowed, whatever they read (element reads).
  ArrayRef<const ArraySubscriptExpr *> Allowed = {};
};

/// Whether evaluating \p E has no effect besides its value and reads only
/// what \p Rules allow: reads of variables, memory and CUDA's builtin
/// variables, arithmetic, casts, and CUDA's math functions. Stores,
/// increments, calls of other functions, volatile reads, `this` and
/// lambdas are not.
bool readsOnly(const Expr *E, const ReadRules &Rules, unsigned Depth = 0) {
  if (!E || Depth > 64 || E->isTypeDependent() || E->isValueDependent())
    return false;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E);
      A && is_contained(Rules.Allowed, A))
    return true;
  if (std::optional<CudaBuiltinRead> B = cudaBuiltinRead(E))
    return Rules.ThreadIndex || (B->Var != "threadIdx" && B->Var != "blockIdx");
  if (E->getType().isVolatileQualified())
    return false;
  auto Children = [&] {
    return all_of(E->children(), [&](const Stmt *C) {
      return readsOnly(dyn_cast_or_null<Expr>(C), Rules, Depth + 1);
    });
  };
  switch (E->getStmtClass()) {
  case Stmt::IntegerLiteralClass:
  case Stmt::CharacterLiteralClass:
  case Stmt::FloatingLiteralClass:
  case Stmt::CXXBoolLiteralExprClass:
  case Stmt::UnaryExprOrTypeTraitExprClass:
    return true;
  case Stmt::DeclRefExprClass: {
    const ValueDecl *D = cast<DeclRefExpr>(E)->getDecl();
    if (isa<EnumConstantDecl>(D))
      return true;
    const auto *V = dyn_cast<VarDecl>(D);
    return V && !V->getType().isVolatileQualified() &&
           !V->getType()->isReferenceType() && (!Rules.Var || Rules.Var(V));
  }
  case Stmt::ImplicitCastExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass: {
    const auto *C = cast<CastExpr>(E);
    if (C->getCastKind() == CK_UserDefinedConversion ||
        C->getCastKind() == CK_ConstructorConversion)
      return false;
    if (C->getCastKind() == CK_LValueToRValue) {
      const Expr *Read = C->getSubExpr()->IgnoreParens();
      if (Read->getType().isVolatileQualified())
        return false;
      // Without memory, only variables may be read (the DeclRefExpr case
      // decides which) and the allowed subexpressions.
      if (!Rules.Memory && !isa<DeclRefExpr>(Read) &&
          !(isa<ArraySubscriptExpr>(Read) &&
            is_contained(Rules.Allowed, cast<ArraySubscriptExpr>(Read))))
        return false;
    }
    return Children();
  }
  case Stmt::ParenExprClass:
  case Stmt::ConditionalOperatorClass:
    return Children();
  case Stmt::ArraySubscriptExprClass:
    return Rules.Memory && Children();
  case Stmt::MemberExprClass:
    return isa<FieldDecl>(cast<MemberExpr>(E)->getMemberDecl()) &&
           (Rules.Memory || !cast<MemberExpr>(E)->isArrow()) && Children();
  case Stmt::UnaryOperatorClass: {
    const auto *U = cast<UnaryOperator>(E);
    if (U->isIncrementDecrementOp())
      return false;
    if ((U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf) &&
        !Rules.Memory)
      return false;
    return Children();
  }
  case Stmt::BinaryOperatorClass:
    return !cast<BinaryOperator>(E)->isAssignmentOp() &&
           cast<BinaryOperator>(E)->getOpcode() != BO_Comma && Children();
  case Stmt::CallExprClass: {
    const auto *Call = cast<CallExpr>(E);
    CudaCallKind K = cudaCallKind(Call);
    return (K == CudaCallKind::Pure || K == CudaCallKind::MinMax) &&
           all_of(Call->arguments(), [&](const Expr *A) {
             return readsOnly(A, Rules, Depth + 1);
           });
  }
  default:
    return false;
  }
}

/// Whether evaluating \p E has no effect besides its value, so that the
/// pipelined loop may evaluate it earlier than the loop as written.
bool isPure(const Expr *E) { return readsOnly(E, ReadRules()); }

bool refersTo(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == V)
    return true;
  return any_of(S->children(), [&](const Stmt *C) { return refersTo(C, V); });
}

/// A loop whose body is a privatized update, in a shape
/// dd::pipelined_updates runs:
///   for (T v = first; cond; step) { decls; update; }
///   for (v = first; cond; step) { decls; update; }   (or `for (; ...`)
///   while (cond) { decls; update; step; }
/// In the last two, v is a variable declared before the loop, which gets
/// the value the loop would leave in it.
struct PipelinedLoop {
  const Stmt *Loop;
  const Stmt *Body;
  const VarDecl *Var;
  /// The loop declares Var (the first shape).
  bool Declares;
  /// The initial value: Var's initializer, the `v = first` of a for, or
  /// none (Var's value before the loop).
  const Expr *First;
  const Expr *Cond;
  const Expr *Step;
  const Expr *Value;
  /// Local variables the body declares before the update (`const unsigned
  /// k = keys[i];`), in order.
  SmallVector<const DeclStmt *, 2> Decls;
};

/// Whether \p D declares only local variables whose initializers are pure,
/// so that a lambda may repeat the declaration.
bool isPureDecl(const DeclStmt *D) {
  for (const Decl *Each : D->decls()) {
    const auto *V = dyn_cast<VarDecl>(Each);
    if (!V || !V->hasLocalStorage() || !V->hasInit() ||
        V->getInitStyle() != VarDecl::CInit || V->isStaticLocal() ||
        V->getType()->isReferenceType() || V->getType().isVolatileQualified() ||
        !isPure(V->getInit()))
      return false;
  }
  return true;
}

/// The variable \p E advances, if it is a step the pipelined loop can
/// repeat: ++v, v++, --v, v--, v += e, v -= e or v = e, with e pure.
const VarDecl *steppedVariable(const Expr *E) {
  E = E->IgnoreParens();
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  };
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->isIncrementDecrementOp() ? VarOf(U->getSubExpr()) : nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    if ((B->getOpcode() == BO_Assign || B->getOpcode() == BO_AddAssign ||
         B->getOpcode() == BO_SubAssign) &&
        isPure(B->getRHS()))
      return VarOf(B->getLHS());
  return nullptr;
}

/// The loop \p Call (a privatized atomic, index \p Index, in \p Kernel) may
/// be pipelined in, if any: the body holds declarations of variables with
/// pure initializers, then the atomic (then, in a while loop, the step);
/// the loop variable is an integer; the condition, index and value are
/// pure (isPure) and the step only advances the variable; nothing of it is
/// written through a macro or carries a loop pragma.
std::optional<PipelinedLoop> pipelinable(ASTContext &Ctx, const CallExpr *Call,
                                         const Expr *Index,
                                         const FunctionDecl *Kernel) {
  DynTypedNodeList Parents = Ctx.getParents(*Call);
  if (Parents.size() != 1)
    return std::nullopt;
  PipelinedLoop L{};
  L.Value = Call->getArg(1);
  const Stmt *Body = Call;
  const Expr *TrailingStep = nullptr;
  if (const auto *Block = Parents[0].get<CompoundStmt>()) {
    Body = Block;
    bool Seen = false;
    for (const Stmt *S : Block->body()) {
      if (S == Call) {
        Seen = true;
        continue;
      }
      if (Seen) {
        if (TrailingStep || !isa<Expr>(S))
          return std::nullopt;
        TrailingStep = cast<Expr>(S);
        continue;
      }
      const auto *D = dyn_cast<DeclStmt>(S);
      if (!D || !isPureDecl(D))
        return std::nullopt;
      L.Decls.push_back(D);
    }
  }
  DynTypedNodeList Up = Ctx.getParents(*Body);
  if (Up.size() != 1)
    return std::nullopt;
  if (const auto *For = Up[0].get<ForStmt>()) {
    if (For->getBody() != Body || TrailingStep || !For->getCond() ||
        !For->getInc() || For->getConditionVariable())
      return std::nullopt;
    L.Loop = For;
    L.Cond = For->getCond();
    L.Step = For->getInc();
    L.Var = steppedVariable(L.Step);
    if (!L.Var)
      return std::nullopt;
    if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit())) {
      if (!Init->isSingleDecl() || Init->getSingleDecl() != L.Var ||
          !L.Var->hasInit() || L.Var->getInitStyle() != VarDecl::CInit)
        return std::nullopt;
      L.Declares = true;
      L.First = L.Var->getInit();
    } else if (const auto *Init =
                   dyn_cast_or_null<BinaryOperator>(For->getInit())) {
      const auto *R = dyn_cast<DeclRefExpr>(Init->getLHS()->IgnoreParens());
      if (Init->getOpcode() != BO_Assign || !R || R->getDecl() != L.Var)
        return std::nullopt;
      L.First = Init->getRHS();
    } else if (For->getInit()) {
      return std::nullopt;
    }
  } else if (const auto *While = Up[0].get<WhileStmt>()) {
    if (While->getBody() != Body || !TrailingStep ||
        While->getConditionVariable())
      return std::nullopt;
    L.Loop = While;
    L.Cond = While->getCond();
    L.Step = TrailingStep;
    L.Var = steppedVariable(L.Step);
    if (!L.Var)
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  L.Body = Body;
  const VarDecl *Var = L.Var;
  if (DynTypedNodeList Outer = Ctx.getParents(*L.Loop);
      Outer.size() != 1 || Outer[0].get<AttributedStmt>())
    return std::nullopt; // `#pragma unroll` and friends belong to a loop
  if (!Var->hasLocalStorage() || Var->isStaticLocal())
    return std::nullopt;
  QualType T = Var->getType();
  if (!T->isIntegerType() || T->isBooleanType() || T->isEnumeralType() ||
      T.isConstQualified() || T.isVolatileQualified())
    return std::nullopt;
  // A variable that outlives the loop is assigned its final value after
  // it; nothing may read it through a pointer or reference meanwhile.
  if (!L.Declares &&
      !onlyReadOrAssigned(Ctx, Kernel->getBody(), Var, /*Assigns=*/true))
    return std::nullopt;
  if (!isPure(L.Cond) || !isPure(Index) || !isPure(L.Value))
    return std::nullopt;
  SmallVector<SourceRange, 8> Ranges = {
      L.Loop->getSourceRange(), L.Cond->getSourceRange(),
      L.Step->getSourceRange(), Index->getSourceRange(),
      L.Value->getSourceRange()};
  if (L.First)
    Ranges.push_back(L.First->getSourceRange());
  for (const DeclStmt *D : L.Decls)
    Ranges.push_back(D->getSourceRange());
  for (SourceRange R : Ranges)
    if (R.isInvalid() || inMacro(R))
      return std::nullopt;
  return L;
}

//===-- Vector loads ------------------------------------------------------===//

/// A pipelinable loop that is the grid-stride walk over one array of narrow
/// elements, which dd::grid_stride_updates runs with 16-byte vector loads:
///   for (I i = <thread's x index>; i < n; i += <grid's x threads>)
///     update(index(elems[i]), value(elems[i]));
/// where the loop variable appears in the index, the value and the body's
/// declarations only as the subscript of reads of `elems`, and everything
/// else they read is the same in every thread of the grid.
struct VectorLoop {
  const VarDecl *Elems;
  /// The elements' type, unqualified.
  QualType Elem;
  /// The `n` of `i < n`, and the type the comparison converts both sides to.
  const Expr *Limit;
  QualType Compared;
  /// The reads `elems[i]`, each replaced by the lambdas' parameter.
  SmallVector<const ArraySubscriptExpr *, 4> Reads;
};

/// Elements of at most this many bytes get vector loads: 1-, 2- and 4-byte
/// keys were measured (docs/PERF.md, "Vector loads"); 8-byte ones, two to a
/// vector, were not.
constexpr uint64_t VectorMaxElemBytes = 4;

/// \p E with parentheses and integer casts to at least 32 bits removed, and
/// a local variable set once (never assigned, no address taken) replaced by
/// its initializer, as far as they go.
const Expr *throughIntCasts(ASTContext &Ctx, const Expr *E,
                            const FunctionDecl *Kernel) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      CastKind K = C->getCastKind();
      if (K == CK_LValueToRValue) {
        const auto *R = dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens());
        const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
        const Expr *Init = setOnceInit(Ctx, V, Kernel);
        if (!Init || V->getInitStyle() != VarDecl::CInit ||
            V->getType().isVolatileQualified())
          return E;
        E = Init;
        continue;
      }
      if ((K == CK_IntegralCast || K == CK_NoOp) &&
          C->getType()->isIntegerType() &&
          Ctx.getIntWidth(C->getType()) >= 32) {
        E = C->getSubExpr();
        continue;
      }
    }
    return E;
  }
  return E;
}

bool isBuiltinX(ASTContext &Ctx, const Expr *E, StringRef Var,
                const FunctionDecl *Kernel) {
  std::optional<CudaBuiltinRead> B =
      cudaBuiltinRead(throughIntCasts(Ctx, E, Kernel));
  return B && B->Var == Var && B->Dim == 0;
}

/// Whether \p E is `A * B` with {A, B} the builtins \p X and \p Y (in
/// either order; integer casts and set-once locals looked through).
bool isProductX(ASTContext &Ctx, const Expr *E, StringRef X, StringRef Y,
                const FunctionDecl *Kernel) {
  const auto *M = dyn_cast<BinaryOperator>(throughIntCasts(Ctx, E, Kernel));
  if (!M || M->getOpcode() != BO_Mul)
    return false;
  return (isBuiltinX(Ctx, M->getLHS(), X, Kernel) &&
          isBuiltinX(Ctx, M->getRHS(), Y, Kernel)) ||
         (isBuiltinX(Ctx, M->getLHS(), Y, Kernel) &&
          isBuiltinX(Ctx, M->getRHS(), X, Kernel));
}

/// `blockIdx.x * blockDim.x + threadIdx.x`, in any order.
bool isThreadIndexX(ASTContext &Ctx, const Expr *E,
                    const FunctionDecl *Kernel) {
  const auto *A = dyn_cast<BinaryOperator>(throughIntCasts(Ctx, E, Kernel));
  if (!A || A->getOpcode() != BO_Add)
    return false;
  auto Is = [&](const Expr *T, const Expr *B) {
    return isBuiltinX(Ctx, T, "threadIdx", Kernel) &&
           isProductX(Ctx, B, "blockIdx", "blockDim", Kernel);
  };
  return Is(A->getLHS(), A->getRHS()) || Is(A->getRHS(), A->getLHS());
}

/// Whether \p E has the same value in every thread of the grid, and
/// reads no memory: literals, sizeof, kernel parameters and set-once
/// locals of such values, blockDim and gridDim, arithmetic, casts,
/// conditionals and CUDA's math functions. \p Also names further
/// variables taken as such (the loop body's declarations), \p Reads
/// subexpressions that are (the element reads).
bool isGridUniform(ASTContext &Ctx, const Expr *E, const FunctionDecl *Kernel,
                   ArrayRef<const VarDecl *> Also = {},
                   ArrayRef<const ArraySubscriptExpr *> Reads = {},
                   unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  auto Uniform = [&](const VarDecl *V) {
    if (is_contained(Also, V))
      return true;
    if (const auto *P = dyn_cast<ParmVarDecl>(V))
      return P->getDeclContext() == Kernel &&
             onlyReadOrAssigned(Ctx, Kernel->getBody(), P);
    const Expr *Init = setOnceInit(Ctx, V, Kernel);
    return Init && V->getInitStyle() == VarDecl::CInit &&
           isGridUniform(Ctx, Init, Kernel, Also, Reads, Depth + 1);
  };
  ReadRules Rules;
  Rules.ThreadIndex = false;
  Rules.Memory = false;
  Rules.Var = Uniform;
  Rules.Allowed = Reads;
  return readsOnly(E, Rules);
}

/// The reads `elems[v]` in \p S (all of one array), or false when \p S
/// mentions \p V otherwise.
bool collectReads(ASTContext &Ctx, const Stmt *S, const VarDecl *V,
                  const VarDecl *&Elems,
                  SmallVectorImpl<const ArraySubscriptExpr *> &Reads) {
  if (!S)
    return true;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
    const auto *I = dyn_cast<DeclRefExpr>(A->getIdx()->IgnoreParenImpCasts());
    if (I && I->getDecl() == V) {
      const auto *B =
          dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
      const auto *Array = B ? dyn_cast<VarDecl>(B->getDecl()) : nullptr;
      DynTypedNodeList Up = Ctx.getParents(*A);
      const auto *Read =
          Up.size() == 1 ? Up[0].get<ImplicitCastExpr>() : nullptr;
      if (!Array || Array == V || (Elems && Elems != Array) || !Read ||
          Read->getCastKind() != CK_LValueToRValue)
        return false;
      Elems = Array;
      Reads.push_back(A);
      return true;
    }
  }
  if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == V)
    return false;
  return all_of(S->children(), [&](const Stmt *C) {
    return collectReads(Ctx, C, V, Elems, Reads);
  });
}

/// Whether a return, goto or inline assembly lies in \p S: a thread could
/// leave the kernel, or jump, there.
bool mayLeave(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, AsmStmt>(S))
    return true;
  return any_of(S->children(), [](const Stmt *C) { return mayLeave(C); });
}

/// Whether \p S may write memory: an assignment or increment of anything
/// but a local variable, a call other than CUDA's pure, vote, shuffle and
/// barrier functions (an atomic, a function of the program), assembly.
bool mayWriteMemory(const Stmt *S) {
  if (!S)
    return false;
  // threadIdx.x and friends are calls of their getters underneath.
  if (const auto *E = dyn_cast<Expr>(S); E && cudaBuiltinRead(E))
    return false;
  auto Local = [](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType();
  };
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->isAssignmentOp() && !Local(B->getLHS()))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp() && !Local(U->getSubExpr()))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && cudaCallKind(Call) == CudaCallKind::Other)
    return true;
  if (isa<AsmStmt>(S))
    return true;
  return any_of(S->children(), [](const Stmt *C) { return mayWriteMemory(C); });
}

/// Whether every thread of the grid runs \p Loop and finds memory as the
/// kernel's launch left it: the loop lies in the kernel's body, under no
/// condition or other loop, and nothing before it may leave the kernel
/// (then which thread visits which index of a grid-stride walk does not
/// change the indices visited) or write memory (a thread's own earlier
/// store to `elems[i]` would not be ordered before another thread's read of
/// it).
bool runByEveryThread(ASTContext &Ctx, const Stmt *Loop,
                      const FunctionDecl *Kernel) {
  const Stmt *At = Loop;
  while (At != Kernel->getBody()) {
    DynTypedNodeList Up = Ctx.getParents(*At);
    const auto *Block = Up.size() == 1 ? Up[0].get<CompoundStmt>() : nullptr;
    if (!Block)
      return false;
    for (const Stmt *S : Block->body()) {
      if (S == At)
        break;
      if (mayLeave(S) || mayWriteMemory(S))
        return false;
    }
    At = Block;
  }
  return true;
}

/// Whether \p L (a pipelinable loop of \p Kernel updating with \p Index) is
/// the grid-stride walk dd::grid_stride_updates may run instead (see
/// VectorLoop and <dd/grid_stride_updates.cuh>).
std::optional<VectorLoop> vectorizable(ASTContext &Ctx, const PipelinedLoop &L,
                                       const Expr *Index,
                                       const FunctionDecl *Kernel) {
  const VarDecl *V = L.Var;
  if (!runByEveryThread(Ctx, L.Loop, Kernel))
    return std::nullopt;
  // Where the variable starts: the thread's index in the grid's x dimension.
  if (L.First) {
    if (!isThreadIndexX(Ctx, L.First, Kernel))
      return std::nullopt;
  } else {
    // `T v = <thread index>; ...; while (v < n)`: v's declaration precedes
    // the loop in the same block, and nothing between them mentions it.
    DynTypedNodeList Up = Ctx.getParents(*L.Loop);
    const auto *Block = Up.size() == 1 ? Up[0].get<CompoundStmt>() : nullptr;
    if (!Block || !V->getInit() || V->getInitStyle() != VarDecl::CInit ||
        !isThreadIndexX(Ctx, V->getInit(), Kernel))
      return std::nullopt;
    bool Declared = false, Reached = false;
    for (const Stmt *S : Block->body()) {
      if (S == L.Loop) {
        Reached = true;
        break;
      }
      if (const auto *D = dyn_cast<DeclStmt>(S);
          D && is_contained(D->decls(), V)) {
        Declared = true;
        continue;
      }
      if (Declared && refersTo(S, V))
        return std::nullopt;
    }
    if (!Declared || !Reached)
      return std::nullopt;
  }
  // The step: the grid's x size in threads.
  const auto *Step = dyn_cast<BinaryOperator>(L.Step->IgnoreParens());
  if (!Step)
    return std::nullopt;
  const Expr *By = nullptr;
  if (Step->getOpcode() == BO_AddAssign) {
    By = Step->getRHS();
  } else if (Step->getOpcode() == BO_Assign) {
    const auto *Sum =
        dyn_cast<BinaryOperator>(Step->getRHS()->IgnoreParenImpCasts());
    auto IsV = [&](const Expr *E) {
      const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return R && R->getDecl() == V;
    };
    if (Sum && Sum->getOpcode() == BO_Add)
      By = IsV(Sum->getLHS())   ? Sum->getRHS()
           : IsV(Sum->getRHS()) ? Sum->getLHS()
                                : nullptr;
  }
  if (!By || !isProductX(Ctx, By, "gridDim", "blockDim", Kernel))
    return std::nullopt;
  // The condition: `v < n`, n the same in every thread.
  const auto *Cond = dyn_cast<BinaryOperator>(L.Cond->IgnoreParens());
  if (!Cond || Cond->getOpcode() != BO_LT)
    return std::nullopt;
  const auto *Left =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!Left || Left->getDecl() != V ||
      !Cond->getLHS()->getType()->isIntegerType() ||
      !Cond->getRHS()->getType()->isIntegerType() ||
      Ctx.getTypeSize(Cond->getLHS()->getType()) > 64 ||
      refersTo(Cond->getRHS(), V) ||
      !isGridUniform(Ctx, Cond->getRHS(), Kernel))
    return std::nullopt;
  VectorLoop Out{};
  Out.Limit = Cond->getRHS();
  Out.Compared = Cond->getLHS()->getType().getUnqualifiedType();
  // The variable only subscripts reads of one array, in the index, the
  // value and the body's declarations.
  const VarDecl *Elems = nullptr;
  SmallVector<const VarDecl *, 4> Locals;
  for (const DeclStmt *D : L.Decls) {
    if (!collectReads(Ctx, D, V, Elems, Out.Reads))
      return std::nullopt;
    for (const Decl *Each : D->decls())
      Locals.push_back(cast<VarDecl>(Each));
  }
  if (!collectReads(Ctx, Index, V, Elems, Out.Reads) ||
      !collectReads(Ctx, L.Value, V, Elems, Out.Reads) || !Elems)
    return std::nullopt;
  // The array: the same in every thread, of narrow arithmetic elements.
  QualType ElemsType = Elems->getType();
  if (ElemsType.isVolatileQualified() || ElemsType->isReferenceType() ||
      !isGridUniform(Ctx, Out.Reads.front()->getBase(), Kernel))
    return std::nullopt;
  QualType Elem = Out.Reads.front()->getType();
  if (Elem.isVolatileQualified() || !Elem->isArithmeticType() ||
      Elem->isBooleanType() || Elem->isEnumeralType())
    return std::nullopt;
  uint64_t Bytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
  if (Bytes > VectorMaxElemBytes || (Bytes & (Bytes - 1)) != 0)
    return std::nullopt;
  for (const ArraySubscriptExpr *A : Out.Reads)
    if (A->getBeginLoc().isMacroID() || A->getEndLoc().isMacroID())
      return std::nullopt;
  Out.Elems = Elems;
  Out.Elem = Elem.getUnqualifiedType();
  // What else the index, value and declarations read is the same in every
  // thread: which thread loads which element must not matter.
  for (const DeclStmt *D : L.Decls)
    for (const Decl *Each : D->decls())
      if (!isGridUniform(Ctx, cast<VarDecl>(Each)->getInit(), Kernel, Locals,
                         Out.Reads))
        return std::nullopt;
  if (!isGridUniform(Ctx, Index, Kernel, Locals, Out.Reads) ||
      !isGridUniform(Ctx, L.Value, Kernel, Locals, Out.Reads))
    return std::nullopt;
  return Out;
}

/// The body's declarations \p E needs, and those they need in turn, in
/// order (a lambda that repeats the others would warn of unused variables).
SmallVector<const Stmt *, 4> neededDecls(const PipelinedLoop &L,
                                         const Expr *E) {
  SmallVector<const Stmt *, 4> Uses = {E};
  SmallVector<bool, 4> Needed(L.Decls.size(), false);
  for (size_t K = L.Decls.size(); K-- > 0;) {
    for (const Decl *D : L.Decls[K]->decls())
      Needed[K] = Needed[K] || any_of(Uses, [&](const Stmt *U) {
                    return refersTo(U, cast<VarDecl>(D));
                  });
    if (Needed[K])
      Uses.push_back(L.Decls[K]);
  }
  SmallVector<const Stmt *, 4> Out;
  for (size_t K = 0; K < L.Decls.size(); ++K)
    if (Needed[K])
      Out.push_back(L.Decls[K]);
  return Out;
}

/// Replaces the loop of \p L by dd::pipelined_updates on \p Object.
/// With \p Vector, the loop is dd::grid_stride_updates first, the pipelined
/// loop where that cannot run.
void rewritePipelined(PassContext &P, const PipelinedLoop &L, StringRef Object,
                      const Expr *Index,
                      const std::optional<VectorLoop> &Vector) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  const LangOptions &LO = P.Ctx.getLangOpts();
  auto Text = [&](SourceRange R) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO)
        .str();
  };
  std::string Indent =
      blanksBefore(SM, L.Loop->getBeginLoc()).value_or("").str();
  std::string Type = L.Var->getType().getAsString(P.Ctx.getPrintingPolicy());
  std::string Name = L.Var->getNameAsString();
  // `[&](T p) { decls; return E; }`, with the body's declarations that E
  // needs (the others would warn as unused), each spelled by \p Spell, and
  // the parameter unnamed where \p Uses says nothing uses it.
  auto LambdaOf = [&](const Expr *E, StringRef ParamType, StringRef Param,
                      function_ref<std::string(SourceRange)> Spell,
                      function_ref<bool(const Stmt *)> Uses) {
    SmallVector<const Stmt *, 4> Parts = neededDecls(L, E);
    std::string Body;
    for (const Stmt *D : Parts)
      Body += Spell(D->getSourceRange()) + " ";
    Parts.push_back(E);
    bool Used = any_of(Parts, Uses);
    return "[&](" + ParamType.str() + (Used ? " " + Param.str() : "") + ") { " +
           Body + "return " + Spell(E->getSourceRange()) + "; }";
  };
  auto Lambda = [&](const Expr *E) {
    return LambdaOf(E, Type, Name, Text,
                    [&](const Stmt *U) { return refersTo(U, L.Var); });
  };
  // A variable declared before the loop gets the value the loop leaves.
  std::string In = Indent + (Vector ? "  " : "");
  std::string Call =
      (L.Declares ? "" : Name + " = ") +
      "dd::pipelined_updates<DD_PIPELINE_DEPTH, " + Type + ">(\n" + In +
      "    " + Object.str() + ", " +
      (L.First ? Text(L.First->getSourceRange()) : Name) + ",\n" + In + "    " +
      Lambda(L.Cond) + ",\n" + In + "    [&](" + Type + " &" + Name + ") { " +
      Text(L.Step->getSourceRange()) + "; },\n" + In + "    " + Lambda(Index) +
      ",\n" + In + "    " + Lambda(L.Value) + ")";
  const std::string Pipelined = "the loop as written, each " +
                                std::to_string(PipelineDepth) +
                                " iterations' loads issued before their "
                                "updates (dd/pipelined_updates.cuh)\n";
  std::string Out = "// decoupler: " + Pipelined + Indent + Call;
  if (Vector) {
    // `[&](E dd_elem) { decls; return E; }`: the element lambdas, each read
    // `elems[i]` replaced by the parameter.
    auto Replaced = [&](SourceRange R) {
      std::string T = Text(R);
      unsigned Begin = SM.getFileOffset(R.getBegin());
      SmallVector<std::pair<unsigned, unsigned>, 4> Spans;
      for (const ArraySubscriptExpr *A : Vector->Reads) {
        unsigned At = SM.getFileOffset(A->getBeginLoc());
        unsigned Size = Text(A->getSourceRange()).size();
        if (SM.getFileID(A->getBeginLoc()) == SM.getFileID(R.getBegin()) &&
            At >= Begin && At + Size <= Begin + T.size())
          Spans.push_back({At - Begin, Size});
      }
      llvm::sort(Spans, [](auto A, auto B) { return A.first > B.first; });
      for (auto [At, Size] : Spans)
        T.replace(At, Size, "dd_elem");
      return T;
    };
    std::string Elem = Vector->Elem.getAsString(P.Ctx.getPrintingPolicy());
    auto ElemLambda = [&](const Expr *E) {
      return LambdaOf(E, Elem, "dd_elem", Replaced, [&](const Stmt *U) {
        return any_of(Vector->Reads, [&](const ArraySubscriptExpr *A) {
          return U->getSourceRange().fullyContains(A->getSourceRange());
        });
      });
    };
    std::string Compared =
        Vector->Compared.getAsString(P.Ctx.getPrintingPolicy());
    Out = "// decoupler: each thread loads 16-byte vectors of '" +
          Vector->Elems->getNameAsString() +
          "' (dd/grid_stride_updates.cuh); where that cannot run, " +
          Pipelined + Indent + "if (!dd::grid_stride_updates<" + Type + ", " +
          Compared + ">(\n" + Indent + "        " + Object.str() + ", " +
          Vector->Elems->getNameAsString() + ", " +
          Text(Vector->Limit->getSourceRange()) + ",\n" + Indent + "        " +
          ElemLambda(Index) + ",\n" + Indent + "        " +
          ElemLambda(L.Value) + (L.Declares ? "" : ", &" + Name) + "))\n" + In +
          Call;
  }
  // A braced body's range ends at its '}'; an unbraced one's before its ';'.
  if (isa<CompoundStmt>(L.Body))
    Out += ";";
  P.R.ReplaceText(CharSourceRange::getTokenRange(L.Loop->getSourceRange()),
                  Out);
}

//===-- One block for several ---------------------------------------------===//

/// Puts \p Indent before each line of \p Body's statements, which go one
/// level deeper (blank lines and directives stay as written), unless a
/// token spans lines there (a raw string or a continued literal, whose
/// text would change).
void indentLines(Rewriter &R, const SourceManager &SM, const LangOptions &LO,
                 const CompoundStmt *Body, StringRef Indent) {
  if (Body->body_empty())
    return;
  SourceLocation Begin = SM.getExpansionLoc(Body->getLBracLoc());
  SourceLocation End = SM.getExpansionLoc(Body->getRBracLoc());
  FileID File = SM.getFileID(Begin);
  if (File != SM.getFileID(End))
    return;
  StringRef Text = SM.getBufferData(File);
  unsigned From = SM.getFileOffset(Begin), To = SM.getFileOffset(End);
  Lexer Lex(SM.getLocForStartOfFile(File), LO, Text.begin(),
            Text.begin() + From, Text.end());
  Lex.SetKeepWhitespaceMode(false);
  Token T;
  while (!Lex.LexFromRawLexer(T) && SM.getFileOffset(T.getLocation()) < To)
    if (T.getLength() > 0 &&
        Text.substr(SM.getFileOffset(T.getLocation()), T.getLength())
            .contains('\n'))
      return;
  unsigned First = SM.getSpellingLineNumber(Begin) + 1;
  unsigned Last = SM.getSpellingLineNumber(End) - 1;
  for (unsigned Line = First; Line <= Last; ++Line) {
    SourceLocation At = SM.translateLineCol(File, Line, 1);
    unsigned Offset = SM.getFileOffset(At);
    // Directives stay where they are written, at the line's start.
    if (Offset < Text.size() && !StringRef("\r\n#").contains(Text[Offset]))
      R.InsertTextBefore(At, Indent);
  }
}

/// The line of \p Loc, for a reason's text.
std::string lineOf(const SourceManager &SM, SourceLocation Loc) {
  return "line " +
         std::to_string(SM.getPresumedLoc(SM.getExpansionLoc(Loc)).getLine());
}

/// Whether \p Call is one of CUDA's loads through a cache (__ldg, __ldcs,
/// ...): a read, nothing more.
bool isCudaLoad(const CallExpr *Call) {
  StringRef Name = cudaFunctionName(Call->getDirectCallee());
  return Name.starts_with("__ld");
}

/// Why the threads of \p Kernel may not be run by fewer blocks, each
/// running the threads of consecutive blocks one block after another
/// (dd::coarse_blocks), if they may not. They may when no thread waits for
/// another or shares memory with it (no loop, barrier, warp function,
/// shared or static variable, assembly, jump) in the kernel or what it
/// calls, the functions it calls do not read blockIdx, the kernel reads its
/// own blockIdx by that name (not `::blockIdx`), and it changes no
/// parameter: then running the bodies one after another is one of the
/// orders the grid as launched could run them in.
std::optional<std::string> coarsenBlocker(ASTContext &Ctx,
                                          const FunctionDecl *Kernel) {
  const SourceManager &SM = Ctx.getSourceManager();
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    SmallPtrSet<const FunctionDecl *, 8> Seen;
    const FunctionDecl *In = nullptr; ///< the callee being scanned, if any
    std::optional<std::string> Why;
    explicit Finder(const SourceManager &SM) : SM(SM) {}

    bool stop(SourceLocation Loc, const std::string &What) {
      Why = What + " (" + lineOf(SM, Loc) +
            (In ? ", in function '" + In->getNameAsString() + "'" : "") + ")";
      return false;
    }
    bool shouldVisitLambdaBody() const { return false; }
    // threadIdx.x and friends: the variable as written, not the getter
    // underneath.
    bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
      const auto *Prop =
          dyn_cast<MSPropertyRefExpr>(E->getSyntacticForm()->IgnoreParens());
      if (!Prop)
        return RecursiveASTVisitor::TraversePseudoObjectExpr(E);
      Expr *Base = Prop->getBaseExpr()->IgnoreParens();
      if (auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
        Base = OVE->getSourceExpr()->IgnoreParens();
      return TraverseStmt(Base);
    }
    bool VisitStmt(Stmt *S) {
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
        return stop(S->getBeginLoc(),
                    "it has a loop, whose threads could wait for one "
                    "another");
      if (isa<GotoStmt, IndirectGotoStmt, LabelStmt>(S))
        return stop(S->getBeginLoc(), "it jumps");
      if (isa<AsmStmt>(S))
        return stop(S->getBeginLoc(), "it has inline assembly");
      if (isa<LambdaExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, CXXTryStmt>(
              S))
        return stop(S->getBeginLoc(),
                    "it has a lambda, new, delete or exceptions");
      return true;
    }
    bool VisitVarDecl(VarDecl *V) {
      if (V->hasAttr<CUDASharedAttr>())
        return stop(V->getLocation(), "it declares the __shared__ variable '" +
                                          V->getNameAsString() + "'");
      if (V->isStaticLocal())
        return stop(V->getLocation(), "it declares the static variable '" +
                                          V->getNameAsString() + "'");
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *V = dyn_cast<VarDecl>(E->getDecl());
      if (!isCudaBuiltinVariable(V) || V->getName() != "blockIdx")
        return true;
      if (InDefault)
        return stop(E->getBeginLoc(), "a default argument or member "
                                      "initializer it uses reads blockIdx");
      if (In)
        return stop(E->getBeginLoc(), "a function it calls reads blockIdx");
      if (E->hasQualifier())
        return stop(E->getBeginLoc(), "it names '::blockIdx'");
      return true;
    }
    bool follow(const Expr *At, const FunctionDecl *F) {
      const FunctionDecl *Def = nullptr;
      if (!F->hasBody(Def))
        return stop(At->getBeginLoc(), "it calls '" + F->getNameAsString() +
                                           "', whose code is not in this file");
      if (!Seen.insert(Def).second)
        return true;
      const FunctionDecl *Outer = In;
      In = Def;
      bool Go = true;
      // A constructor's member initializers run before its body.
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (Go && Init->isWritten())
            Go = TraverseStmt(Init->getInit());
      Go = Go && TraverseStmt(Def->getBody());
      In = Outer;
      return Go;
    }
    // A default argument or default member initializer is written outside
    // the kernel, so the rewrite does not replace its blockIdx: it reads the
    // block that runs, not the one it stands for.
    bool InDefault = false;
    bool outside(Expr *Inner) {
      const bool Outer = InDefault;
      InDefault = true;
      const bool Go = TraverseStmt(Inner);
      InDefault = Outer;
      return Go;
    }
    bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
      return outside(E->getExpr());
    }
    bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
      return outside(E->getExpr());
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (cudaAtomic(Call) || isCudaLoad(Call))
        return true;
      switch (cudaSync(Call)) {
      case SyncKind::Fence:
        return true;
      case SyncKind::Barrier:
      case SyncKind::WarpBarrier:
        return stop(Call->getBeginLoc(), "it synchronizes its threads");
      case SyncKind::None:
        break;
      }
      switch (cudaCallKind(Call)) {
      case CudaCallKind::Pure:
      case CudaCallKind::MinMax:
      case CudaCallKind::Expect:
      case CudaCallKind::Void:
        return true;
      case CudaCallKind::Divergent:
        return stop(Call->getBeginLoc(),
                    "it calls '" +
                        cudaFunctionName(Call->getDirectCallee()).str() +
                        "', whose result depends on the thread's warp");
      case CudaCallKind::Other:
        break;
      }
      const FunctionDecl *F = calledFunction(Call);
      if (!F)
        return stop(Call->getBeginLoc(),
                    dispatchedAtRunTime(Call)
                        ? "it makes a virtual call decided at run time"
                        : "it calls a function through a pointer");
      if (isCudaFunction(F) || F->getBuiltinID())
        return stop(Call->getBeginLoc(),
                    "it calls '" + F->getNameAsString() + "'");
      return follow(Call, F);
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      const CXXConstructorDecl *C = E->getConstructor();
      if (C->isTrivial() || isCudaFunction(C))
        return true;
      return follow(E, C);
    }
  } F(SM);
  F.Seen.insert(Kernel);
  F.TraverseStmt(Kernel->getBody());
  if (F.Why)
    return F.Why;
  // Each parameter only read, so that every coarse iteration finds it as
  // the launch passed it: directly or through `.` to a field.
  for (const ParmVarDecl *Param : Kernel->parameters())
    if (const DeclRefExpr *R =
            otherMention(Ctx, Kernel->getBody(), Param, /*Assigns=*/false,
                         /*ThroughFields=*/true))
      return "it changes, or takes the address of, parameter '" +
             Param->getNameAsString() + "' (" + lineOf(SM, R->getBeginLoc()) +
             ")";
  return std::nullopt;
}

} // namespace

std::optional<IndexBound> boundOf(ASTContext &Ctx, const Expr *Index,
                                  const FunctionDecl *Kernel) {
  // `i % n`, n a parameter of the kernel: known at launch; also through
  // locals set once from it (`const unsigned bin = k % n;`) and no narrower.
  const Expr *Stripped = Index->IgnoreParenImpCasts();
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Stripped);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    const Expr *Init = setOnceInit(Ctx, V, Kernel);
    if (!Init || !V->getType()->isIntegerType() ||
        !Init->IgnoreParenImpCasts()->getType()->isIntegerType() ||
        Ctx.getIntWidth(V->getType()) <
            Ctx.getIntWidth(Init->IgnoreParenImpCasts()->getType()))
      break;
    Stripped = Init->IgnoreParenImpCasts();
  }
  if (const auto *B = dyn_cast<BinaryOperator>(Stripped);
      B && B->getOpcode() == BO_Rem) {
    if (const ParmVarDecl *N = kernelParam(B->getRHS(), Kernel);
        N && N->getType()->isIntegerType()) {
      std::optional<Interval> L = Bounds(Ctx, Kernel).of(B->getLHS());
      if (L && L->Lo >= 0)
        return IndexBound{std::nullopt, N, "'% " + N->getNameAsString() + "'"};
    }
  }
  std::optional<Interval> I = Bounds(Ctx, Kernel).of(Index);
  if (!I || I->Hi < 0 || I->Hi >= Huge)
    return std::nullopt;
  return IndexBound{static_cast<uint64_t>(I->Hi), nullptr, I->How};
}

//===-- The privatizer ----------------------------------------------------===//

struct Privatizer::Member {
  const CallExpr *Call;
  const Expr *Index;
  const DeclRefExpr *BaseRef;
  IndexBound Bound;
  const Annotation *Pragma;
};

struct Privatizer::Array {
  const FunctionDecl *Kernel;
  const VarDecl *Base;
  AtomicCall::Op Op;
  std::string Type;
  uint64_t ElementBytes;
  std::vector<Member> Members;
  // Decided by checkArray:
  std::optional<uint64_t> Range; ///< constant range (exclusive)
  const ParmVarDecl *RangeParam = nullptr;
  /// Some atomic's index has no usable bound: a cache of hot indices.
  bool Unbounded = false;
  uint64_t Capacity = 0;
  bool Ok = false;
};

/// LaunchRewriter's note on a launch it leaves alone ("the launch at line
/// N is written through a macro and keeps the original") without its end:
/// here that launch runs the privatized kernel.
static StringRef withoutKeepsOriginal(StringRef Kept) {
  Kept.consume_back(" and keeps the original");
  return Kept;
}

/// A kernel's choice at launch between its privatized self and a copy as
/// written (<dd/privatize_launch.h>).
struct Privatizer::Launch {
  std::unique_ptr<LaunchRewriter> Rewriter; ///< null: no choice (WhyNot)
  std::string WhyNot;
};

Privatizer::Privatizer(PassContext &P) : P(P) {}
Privatizer::~Privatizer() = default;

void Privatizer::offer(const CallExpr *Call, const AtomicCall &Atomic,
                       StringRef TypeSpelling, const Annotation *Pragma) {
  if (std::optional<std::string> Why =
          consider(Call, Atomic, TypeSpelling, Pragma))
    Declined[Call] = *Why;
}

std::optional<std::string> Privatizer::consider(const CallExpr *Call,
                                                const AtomicCall &Atomic,
                                                StringRef TypeSpelling,
                                                const Annotation *Pragma) {
  ASTContext &Ctx = P.Ctx;
  const FunctionDecl *Kernel = enclosingFunction(Ctx, Call);
  if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>())
    return std::string("privatization needs the atomic in the kernel's own "
                       "body (it is in a device function or a lambda)");
  if (Kernel->isTemplated() || Kernel->isTemplateInstantiation())
    return std::string("the kernel is a template");
  if (opTag(Atomic.Operation).empty())
    return std::string("not an operation a private copy can combine");

  // &Base[Index], Base + Index, Index + Base.
  const Expr *Address = Call->getArg(0)->IgnoreParenImpCasts();
  const Expr *BaseExpr = nullptr;
  const Expr *Index = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(Address);
      U && U->getOpcode() == UO_AddrOf) {
    if (const auto *A =
            dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens())) {
      BaseExpr = A->getBase();
      Index = A->getIdx();
    }
  } else if (const auto *B = dyn_cast<BinaryOperator>(Address);
             B && B->getOpcode() == BO_Add) {
    bool LeftIsPointer = B->getLHS()->getType()->isPointerType();
    BaseExpr = LeftIsPointer ? B->getLHS() : B->getRHS();
    Index = LeftIsPointer ? B->getRHS() : B->getLHS();
  }
  const auto *BaseRef =
      BaseExpr ? dyn_cast<DeclRefExpr>(BaseExpr->IgnoreParenImpCasts())
               : nullptr;
  const auto *Base = BaseRef ? dyn_cast<VarDecl>(BaseRef->getDecl()) : nullptr;
  if (!Base || !Index)
    return std::string("the address is not 'array[index]' or 'array + "
                       "index' of a named array");
  bool IsParam = isa<ParmVarDecl>(Base) && Base->getDeclContext() == Kernel &&
                 Base->getType()->isPointerType();
  bool IsDeviceArray =
      Base->hasGlobalStorage() && Base->hasAttr<CUDADeviceAttr>() &&
      !Base->hasAttr<CUDASharedAttr>() &&
      isa<ConstantArrayType>(Ctx.getAsArrayType(Base->getType()));
  if (Base->hasAttr<CUDASharedAttr>())
    return "'" + Base->getNameAsString() + "' is in shared memory already";
  if (!IsParam && !IsDeviceArray)
    return "'" + Base->getNameAsString() +
           "' is neither a pointer parameter of the kernel nor a __device__ "
           "array";
  if (inMacro(Index->getSourceRange()) || inMacro(Call->getSourceRange()))
    return std::string("it is written through a macro");

  // The range: the annotation's, the index's, the array's extent.
  std::optional<IndexBound> Bound;
  if (Pragma && Pragma->RangeValue) {
    Bound = IndexBound{*Pragma->RangeValue - 1, nullptr,
                       "'range(" + std::to_string(*Pragma->RangeValue) + ")'"};
  } else if (Pragma && !Pragma->RangeName.empty()) {
    const ParmVarDecl *N = nullptr;
    for (const ParmVarDecl *Param : Kernel->parameters())
      if (Param->getName() == Pragma->RangeName)
        N = Param;
    if (!N || !N->getType()->isIntegerType())
      return "'range(" + Pragma->RangeName +
             ")' names no integer parameter of kernel '" +
             Kernel->getNameAsString() + "'";
    Bound = IndexBound{std::nullopt, N, "'range(" + Pragma->RangeName + ")'"};
  } else {
    Bound = boundOf(Ctx, Index, Kernel);
  }
  if (IsDeviceArray) {
    uint64_t Extent =
        cast<ConstantArrayType>(Ctx.getAsArrayType(Base->getType()))
            ->getZExtSize();
    if (Extent > 0 &&
        (!Bound || (Bound->Constant && *Bound->Constant >= Extent)))
      Bound = IndexBound{Extent - 1, nullptr,
                         "the extent of '" + Base->getNameAsString() + "'"};
  }
  QualType Element =
      Base->getType()->isPointerType()
          ? Base->getType()->getPointeeType()
          : Ctx.getAsArrayType(Base->getType())->getElementType();
  uint64_t ElementBytes = Ctx.getTypeSizeInChars(Element).getQuantity();
  // No usable bound: the block keeps a cache of hot indices instead of a
  // copy of the array, where the atomic runs in a loop (a cache pays only
  // where a block updates the array many times).
  std::optional<std::string> NoCopy;
  if (!Bound)
    NoCopy = "no bound of the index is known";
  else if (Bound->Constant && *Bound->Constant >= (uint64_t(1) << 20))
    NoCopy = "no bound of the index is known but " + Bound->How;
  else if (Bound->Constant &&
           (*Bound->Constant + 1) * ElementBytes > PrivateBytes)
    NoCopy = "its range (" + std::to_string(*Bound->Constant + 1) +
             " words, from " + Bound->How + ") does not fit the " +
             std::to_string(PrivateBytes / 1024) +
             " KiB of shared memory a private copy may take";
  if (NoCopy) {
    if (!enclosingLoop(Ctx, Call))
      return *NoCopy +
             ", and the atomic is not in a loop (only there does a cache of "
             "its hot indices pay; write '#pragma dd atomic(privatize) "
             "range(N)' to give a bound)";
    Bound = IndexBound{std::nullopt, nullptr, *NoCopy};
  }

  // One array per kernel and base.
  Array *A = nullptr;
  for (auto &Existing : Arrays)
    if (Existing->Kernel == Kernel && Existing->Base == Base)
      A = Existing.get();
  if (!A) {
    Arrays.push_back(std::make_unique<Array>());
    A = Arrays.back().get();
    A->Kernel = Kernel;
    A->Base = Base;
    A->Op = Atomic.Operation;
    A->Type = TypeSpelling.str();
    A->ElementBytes = ElementBytes;
  }
  // A second operation or type on the same array: checkArray refuses.
  A->Members.push_back(Member{Call, Index, BaseRef, *Bound, Pragma});
  return std::nullopt;
}

std::optional<std::string> Privatizer::checkArray(Array &A) {
  ASTContext &Ctx = P.Ctx;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Name = "'" + A.Base->getNameAsString() + "'";
  for (const Member &M : A.Members) {
    AtomicCall Atomic = *cudaAtomic(M.Call);
    if (Atomic.Operation != A.Op || M.Call->getArg(0)
                                            ->getType()
                                            ->getPointeeType()
                                            .getUnqualifiedType()
                                            .getAsString() != A.Type)
      return "kernel '" + A.Kernel->getNameAsString() + "' updates " + Name +
             " with more than one operation or type";
  }

  // The range of the array: constants combine to the largest; a range known
  // at launch must be the same parameter for every atomic; one atomic
  // without a bound makes the whole array a cache of hot indices.
  for (const Member &M : A.Members) {
    if (M.Bound.Param) {
      if (A.RangeParam && A.RangeParam != M.Bound.Param)
        return "the atomics on " + Name +
               " have ranges of different parameters";
      A.RangeParam = M.Bound.Param;
    } else if (M.Bound.Constant) {
      A.Range = std::max(A.Range.value_or(0), *M.Bound.Constant + 1);
    } else {
      A.Unbounded = true;
    }
  }
  if (!A.Unbounded && A.RangeParam && A.Range &&
      *A.Range * A.ElementBytes > PrivateBytes)
    // A constant next to a launch-time range: the launch-time capacity
    // must hold the constant.
    return "the atomics on " + Name + " have ranges of different kinds";
  if (A.Unbounded) {
    A.Range.reset();
    A.RangeParam = nullptr;
    A.Capacity = PrivateBytes / A.ElementBytes;
  } else {
    if (A.RangeParam)
      A.Range.reset();
    A.Capacity = A.Range ? *A.Range : PrivateBytes / A.ElementBytes;
  }

  // Every use of the base in the kernel is one of these atomics: the merged
  // values appear only at the end, so nothing else may read or write it
  // meanwhile (or change the pointer).
  SmallPtrSet<const DeclRefExpr *, 8> Ours;
  for (const Member &M : A.Members)
    Ours.insert(M.BaseRef);
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *Base;
    const DeclRefExpr *Other = nullptr;
    SmallPtrSetImpl<const DeclRefExpr *> &Ours;
    Uses(const VarDecl *Base, SmallPtrSetImpl<const DeclRefExpr *> &Ours)
        : Base(Base), Ours(Ours) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() == Base && !Ours.count(E))
        Other = E;
      return !Other;
    }
  } U(A.Base, Ours);
  U.TraverseStmt(A.Kernel->getBody());
  if (U.Other) {
    return "kernel '" + A.Kernel->getNameAsString() + "' also uses " + Name +
           " otherwise (" + lineOf(SM, U.Other->getBeginLoc()) +
           "), which would not see the block's updates until its end";
  }
  SmallPtrSet<const FunctionDecl *, 8> Called;
  bool Opaque = false;
  callees(A.Kernel->getBody(), Called, Opaque);
  if (!isa<ParmVarDecl>(A.Base)) {
    // A __device__ array: the functions the kernel calls must not touch it.
    if (Opaque)
      return "kernel '" + A.Kernel->getNameAsString() +
             "' calls functions whose code is not in this file, which may "
             "use " +
             Name;
    for (const FunctionDecl *F : Called) {
      Uses InCallee(A.Base, Ours);
      InCallee.TraverseStmt(F->getBody());
      if (InCallee.Other)
        return "function '" + F->getNameAsString() +
               "', which the kernel calls, also uses " + Name;
    }
  }

  // The merge comes at the kernel's end. A kernel that lets other blocks
  // see its writes before then (the last-block pattern: a fence, a counter,
  // the last block reads the totals; a grid-wide barrier) may read them
  // after that point through any pointer, so the updates made before it
  // (in the text, or in a loop around both) must be there.
  SmallPtrSet<const FunctionDecl *, 8> Visited;
  const ThreadOrder Order(A.Kernel->getBody(), SM);
  for (const auto &O : publishingPoints(A.Kernel->getBody(), Visited,
                                        /*First=*/false))
    if (llvm::any_of(A.Members, [&](const Member &M) {
          return Order.mayRunAfter(M.Call->getBeginLoc(), O.first);
        }))
      return "kernel '" + A.Kernel->getNameAsString() +
             "' lets other blocks see its writes before it ends (" + O.second +
             ", " + lineOf(SM, O.first) +
             "): a block-private copy would hold back the updates of " + Name +
             " past that point";

  // Inline assembly may leave the kernel (`exit`), wait at a barrier
  // (`bar.sync`) or publish its writes (`st.release.gpu`, `atom.acq_rel`,
  // libcu++'s cuda::ptx wrappers of them), none of which the rules below
  // read: a thread that exits never merges, one that waits pairs with the
  // merge's barrier, a published total would miss the block's updates.
  struct Assembly : RecursiveASTVisitor<Assembly> {
    const Stmt *At = nullptr;
    std::string What;
    static bool inPtx(const Decl *D) {
      for (const DeclContext *C = D ? D->getDeclContext() : nullptr; C;
           C = C->getParent())
        if (const auto *N = dyn_cast<NamespaceDecl>(C);
            N && N->getName() == "ptx")
          if (const auto *Up = dyn_cast<NamespaceDecl>(N->getParent());
              Up && Up->getName() == "cuda")
            return true;
      return false;
    }
    // Instructions that end a thread, wait for others or order memory;
    // assembly with none of them (`mov.u32 %0, %%laneid;`) reads registers.
    static bool mayLeaveWaitOrPublish(StringRef Text) {
      if (asmMayStore(Text))
        return true;
      for (StringRef Word :
           {"exit", "trap", "brkpt", "ret", "bar", "fence", "membar", "release",
            "acq_rel", "mbarrier", "griddepcontrol"})
        if (Text.contains(Word))
          return true;
      return false;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *S) {
      if (!mayLeaveWaitOrPublish(S->getAsmString()))
        return true;
      At = S;
      What = "inline assembly that may end the thread, wait or publish";
      return false;
    }
    bool VisitCallExpr(CallExpr *C) {
      if (const FunctionDecl *F = C->getDirectCallee(); F && inPtx(F)) {
        At = C;
        What = "'cuda::ptx::" + F->getNameAsString() + "'";
        return false;
      }
      return true;
    }
  };
  {
    Assembly InKernel;
    InKernel.TraverseStmt(A.Kernel->getBody());
    const FunctionDecl *Where = nullptr; // the callee it is in, if any
    for (const FunctionDecl *F : Called) {
      if (InKernel.At)
        break;
      InKernel.TraverseStmt(F->getBody());
      if (InKernel.At)
        Where = F;
    }
    if (InKernel.At)
      return (Where ? "function '" + Where->getNameAsString() +
                          "', which kernel '" + A.Kernel->getNameAsString() +
                          "' calls,"
                    : "kernel '" + A.Kernel->getNameAsString() + "'") +
             " has " + InKernel.What + " (" +
             lineOf(SM, InKernel.At->getBeginLoc()) +
             "), where a block-private copy of " + Name +
             " could not follow: a thread that ends there never merges, one "
             "that waits pairs with the merge's barrier, a published total "
             "misses the block's updates";
  }

  // Every thread must reach the merge.
  std::vector<const ReturnStmt *> Returns = returnsOf(A.Kernel->getBody());
  if (!Returns.empty()) {
    SmallPtrSet<const FunctionDecl *, 8> Seen;
    if (std::optional<BarrierSite> B = findBarrier(A.Kernel->getBody(), Seen))
      return "kernel '" + A.Kernel->getNameAsString() + "' returns early and " +
             B->What + ": the merge's barrier would pair with it";
    for (const ReturnStmt *R : Returns)
      if (inMacro(R->getSourceRange()))
        return std::string("the kernel returns through a macro");
  }

  // Shared memory: ours comes on top of the kernel's.
  uint64_t Bytes = 0;
  bool Dynamic = false;
  sharedVariables(Ctx, A.Kernel->getBody(), Bytes, Dynamic);
  for (const FunctionDecl *F : Called)
    sharedVariables(Ctx, F->getBody(), Bytes, Dynamic);
  if (Dynamic)
    return "kernel '" + A.Kernel->getNameAsString() +
           "' uses dynamic shared memory, which the launch sizes: a private "
           "copy could make the launch fail";
  uint64_t Ours2 = 0;
  for (auto &Other : Arrays)
    if (Other->Kernel == A.Kernel && Other->Ok)
      Ours2 += Other->Capacity * Other->ElementBytes;
  if (Bytes + Ours2 + A.Capacity * A.ElementBytes > StaticSharedLimit)
    return "kernel '" + A.Kernel->getNameAsString() + "' would need " +
           std::to_string(Bytes + Ours2 + A.Capacity * A.ElementBytes) +
           " bytes of static shared memory (at most 49152)";

  const auto *Body = dyn_cast_or_null<CompoundStmt>(A.Kernel->getBody());
  if (!Body || Body->getLBracLoc().isMacroID() ||
      Body->getRBracLoc().isMacroID() || !SM.isInMainFile(Body->getLBracLoc()))
    return std::string("the kernel's body is written through a macro");
  for (SourceRange S : P.Claimed)
    if (!SM.isBeforeInTranslationUnit(S.getEnd(), Body->getLBracLoc()) &&
        !SM.isBeforeInTranslationUnit(Body->getRBracLoc(), S.getBegin()))
      return "kernel '" + A.Kernel->getNameAsString() +
             "' holds code the split or delegate pass rewrote";
  return std::nullopt;
}

void Privatizer::plan() {
  for (auto &A : Arrays) {
    if (std::optional<std::string> Why = checkArray(*A)) {
      for (const Member &M : A->Members)
        Declined[M.Call] = *Why;
      continue;
    }
    A->Ok = true;
  }
  forEachKernel([&](const FunctionDecl *K, ArrayRef<Array *> InKernel) {
    planLaunch(K, InKernel);
  });
}

void Privatizer::forEachKernel(
    function_ref<void(const FunctionDecl *, ArrayRef<Array *>)> Visit) const {
  std::vector<const FunctionDecl *> Kernels;
  for (const auto &A : Arrays)
    if (A->Ok && !is_contained(Kernels, A->Kernel))
      Kernels.push_back(A->Kernel);
  for (const FunctionDecl *K : Kernels) {
    std::vector<Array *> InKernel;
    for (const auto &A : Arrays)
      if (A->Ok && A->Kernel == K)
        InKernel.push_back(A.get());
    Visit(K, InKernel);
  }
}

/// Where the privatized kernel may lose (a range known only at launch, or a
/// cache: a block's indices may seldom repeat), plans the launcher that
/// measures it against a copy of the kernel as written.
void Privatizer::planLaunch(const FunctionDecl *Kernel,
                            ArrayRef<Array *> InKernel) {
  if (none_of(InKernel,
              [](const Array *A) { return A->Unbounded || A->RangeParam; }))
    return;
  const SourceManager &SM = P.Ctx.getSourceManager();
  const std::string Name = Kernel->getNameAsString();
  auto L = std::make_unique<Launch>();
  auto Why = [&]() -> std::optional<std::string> {
    const SourceLocation Begin = SM.getExpansionLoc(Kernel->getBeginLoc());
    if (Kernel->getLocation().isMacroID() || !SM.isInMainFile(Begin) ||
        !SM.isBeforeInTranslationUnit(Begin, Kernel->getLocation()))
      return std::string("its head is written through a macro");
    if (Kernel->getStorageClass() == SC_Extern)
      return std::string("it is declared 'extern'");
    const DeclContext *Scope = Kernel->getDeclContext()->getRedeclContext();
    for (const NamedDecl *D : Scope->lookup(Kernel->getDeclName()))
      if (D->getAsFunction() &&
          D->getAsFunction()->getCanonicalDecl() != Kernel->getCanonicalDecl())
        return "its name '" + Name + "' is overloaded";
    if (!Scope->lookup(&P.Ctx.Idents.get(Name + "_as_written")).empty())
      return "the file already declares '" + Name +
             "_as_written', the name of the copy as written";
    auto R = std::make_unique<LaunchRewriter>(
        P.Ctx, *Kernel, LaunchRewriter::Policy::KeepOthers);
    if (std::optional<LaunchProblem> Problem = R->check())
      return Problem->Message;
    if (R->launches().empty() && !R->kept().empty())
      return "none of its launches can go through a launcher: " +
             withoutKeepsOriginal(R->kept().front()).str();
    if (R->launches().empty())
      return std::string("it is not launched in this file");
    L->Rewriter = std::move(R);
    return std::nullopt;
  }();
  if (Why)
    L->WhyNot = *Why;
  Launches[Kernel] = std::move(L);
}

const std::optional<std::string> &
Privatizer::coarseBlocker(const FunctionDecl *Kernel) const {
  auto It = CoarseBlockers.find(Kernel);
  if (It == CoarseBlockers.end())
    It = CoarseBlockers.emplace(Kernel, coarsenBlocker(P.Ctx, Kernel)).first;
  return It->second;
}

const Privatizer::Array *Privatizer::arrayOf(const CallExpr *Call) const {
  for (const auto &A : Arrays)
    for (const Member &M : A->Members)
      if (M.Call == Call)
        return A.get();
  return nullptr;
}

std::optional<std::string> Privatizer::privatized(const CallExpr *Call) const {
  const Array *A = arrayOf(Call);
  if (!A || !A->Ok)
    return std::nullopt;
  const Member &M =
      *find_if(A->Members, [&](const Member &M) { return M.Call == Call; });
  std::string Base = A->Base->getNameAsString();
  std::string Text;
  if (A->Unbounded) {
    Text = "dd_private_" + Base + ".update: a cache of the hot indices of '" +
           Base + "' in shared memory (" +
           (M.Bound.Constant || M.Bound.Param
                ? std::string("another atomic on it has no usable bound")
                : M.Bound.How) +
           ")";
  } else {
    std::string Range = A->RangeParam ? A->RangeParam->getNameAsString()
                                      : std::to_string(*A->Range);
    Text = "dd_private_" + Base + ".update: a block-private copy of '" + Base +
           "' in shared memory, indices [0, " + Range + ") (from " +
           M.Bound.How + ")";
  }
  if (std::optional<PipelinedLoop> L =
          A->Unbounded ? std::nullopt
                       : pipelinable(P.Ctx, Call, M.Index, A->Kernel)) {
    std::string Ahead = std::to_string(PipelineDepth) +
                        " iterations ahead of their updates "
                        "(dd::pipelined_updates)";
    if (std::optional<VectorLoop> V =
            vectorizable(P.Ctx, *L, M.Index, A->Kernel))
      Text += "; its grid-stride loop loads 16-byte vectors of '" +
              V->Elems->getNameAsString() +
              "' (dd::grid_stride_updates), or where that cannot run, " + Ahead;
    else
      Text += "; its loop loads " + Ahead;
  }
  if (!A->Unbounded && !enclosingLoop(P.Ctx, Call)) {
    if (const std::optional<std::string> &Why = coarseBlocker(A->Kernel))
      Text += "; each block merges it after one update per thread (one "
              "block may not run the threads of several: " +
              *Why + ")";
    else
      Text += "; one block runs the threads of several consecutive blocks "
              "(dd::coarse_blocks), so it is merged once for them all";
  }
  if (auto It = Launches.find(A->Kernel); It != Launches.end()) {
    const Launch &L = *It->second;
    const std::string K = A->Kernel->getNameAsString();
    if (L.Rewriter) {
      const size_t N = L.Rewriter->launches().size();
      Text +=
          "; where a block's indices seldom repeat that may be slower "
          "than the atomics as written, so the " +
          (N == 1 ? std::string("launch") : std::to_string(N) + " launches") +
          " of '" + K + (N == 1 ? "' goes" : "' go") + " through " + K +
          "_launch, which runs it or " + K +
          "_as_written (the kernel as written), whichever measures faster "
          "(dd/privatize_launch.h)";
      // Those launches call the kernel by its name, which is now the
      // privatized one.
      for (StringRef Kept : L.Rewriter->kept())
        Text += "; " + withoutKeepsOriginal(Kept).str() +
                " and always runs it privatized";
    } else {
      Text += "; where a block's indices seldom repeat that may be slower "
              "than the atomics as written, and its launches cannot choose (" +
              L.WhyNot + ")";
    }
  }
  return Text;
}

std::string Privatizer::whyNot(const CallExpr *Call) const {
  auto It = Declined.find(Call);
  return It == Declined.end() ? "not offered" : It->second;
}

bool Privatizer::rewrite() {
  bool Any = false;
  forEachKernel([&](const FunctionDecl *K, ArrayRef<Array *> InKernel) {
    rewriteKernel(K, InKernel);
    if (auto It = Launches.find(K);
        It != Launches.end() && It->second->Rewriter)
      emitLaunch(K, InKernel, *It->second);
    Any = true;
  });
  if (Any)
    P.Includes.ensure("dd/privatize.cuh");
  return Any;
}

void Privatizer::rewriteKernel(const FunctionDecl *Kernel,
                               ArrayRef<Array *> InKernel) {
  ASTContext &Ctx = P.Ctx;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const auto *Body = cast<CompoundStmt>(Kernel->getBody());
  std::string Indent =
      Body->body_empty()
          ? "  "
          : blanksBefore(SM,
                         SM.getExpansionLoc(Body->body_front()->getBeginLoc()))
                .value_or("  ")
                .str();
  std::vector<const ReturnStmt *> Returns = returnsOf(Body);
  // One block runs the threads of several, so that each copy (or cache of a
  // range beyond the copy's capacity) is cleared and merged once for them
  // all; a kernel that may has no loop, so its atomics run once per thread.
  // Not with no bound: one index per thread through a cache made SpMV's
  // rows 1.3-4x slower than vr (docs/PERF.md, "One block for several").
  const bool Coarse =
      !coarseBlocker(Kernel) &&
      none_of(InKernel, [](const Array *A) { return A->Unbounded; });
  std::string Prologue, Epilogue;
  if (Coarse) {
    std::string Names;
    for (const Array *A : InKernel)
      Names += (Names.empty() ? "'" : ", '") + A->Base->getNameAsString() + "'";
    Prologue += "\n" + Indent +
                "// decoupler: one block runs the threads of several "
                "consecutive blocks, so that " +
                Names +
                " is merged once for them all (dd/coarse_blocks.cuh)\n" +
                Indent + "const dd::coarse_blocks dd_blocks;\n" + Indent +
                "if (dd_blocks.empty())\n" + Indent +
                "  return; // another block runs this block's threads";
  }
  bool Pipelined = false, Vectorized = false;
  for (const Array *A : InKernel) {
    std::string Base = A->Base->getNameAsString();
    std::string Storage = "dd_private_storage_" + Base;
    std::string Object = "dd_private_" + Base;
    std::string Capacity = std::to_string(A->Capacity);
    std::string Range = A->Unbounded    ? "dd::unknown_range"
                        : A->RangeParam ? A->RangeParam->getNameAsString()
                                        : std::to_string(*A->Range);
    Prologue +=
        "\n" + Indent + "// decoupler: '" + Base +
        (A->Unbounded ? "' is updated through a cache of its hot indices in "
                        "shared memory, merged at the end (dd/privatize.cuh)\n"
                      : "' is updated through a block-private copy in shared "
                        "memory, merged at the end (dd/privatize.cuh)\n");
    Prologue += Indent + "__shared__ " + A->Type + " " + Storage + "[" +
                Capacity + "];\n";
    Prologue += Indent + "dd::block_private<dd::ops::" + opTag(A->Op) + ", " +
                A->Type + "> " + Object + "(" + Storage + ", " + Capacity +
                ", " + Base + ", " + Range + ", " + std::to_string(PerThread) +
                (Coarse ? ", dd_blocks.count()" : "") + ");";
    Epilogue += Indent + Object + ".flush();\n";

    for (const Member &M : A->Members) {
      CharSourceRange IndexText =
          CharSourceRange::getTokenRange(M.Index->getSourceRange());
      if (std::optional<PipelinedLoop> L =
              A->Unbounded ? std::nullopt
                           : pipelinable(Ctx, M.Call, M.Index, Kernel)) {
        std::optional<VectorLoop> V = vectorizable(Ctx, *L, M.Index, Kernel);
        rewritePipelined(P, *L, Object, M.Index, V);
        Pipelined = true;
        Vectorized = Vectorized || V.has_value();
        continue;
      }
      std::string Text =
          Object + ".update(" + Lexer::getSourceText(IndexText, SM, LO).str();
      P.R.ReplaceText(
          CharSourceRange::getTokenRange(M.Call->getBeginLoc(),
                                         M.Call->getArg(0)->getEndLoc()),
          Text);
    }
  }
  if (Coarse) {
    // The body runs once per block this one stands for; an early return
    // goes on to the next. The loop variable shadows the builtin blockIdx.
    Prologue += "\n" + Indent + "for (const uint3 blockIdx : dd_blocks) {";
    for (const ReturnStmt *R : Returns)
      P.R.ReplaceText(CharSourceRange::getTokenRange(R->getSourceRange()),
                      "continue");
    Epilogue = Indent + "}\n" + Epilogue;
    indentLines(P.R, SM, LO, Body, "  ");
    P.Includes.ensure("dd/coarse_blocks.cuh");
  } else if (!Returns.empty()) {
    // Early returns jump to the merge, out of the original body's scope.
    Prologue += "\n" + Indent + "{";
    for (const ReturnStmt *R : Returns)
      P.R.ReplaceText(CharSourceRange::getTokenRange(R->getSourceRange()),
                      "goto dd_private_merge");
    Epilogue = Indent + "}\ndd_private_merge:\n" + Epilogue;
  }
  if (Pipelined)
    P.Includes.ensure("dd/pipelined_updates.cuh");
  if (Vectorized)
    P.Includes.ensure("dd/grid_stride_updates.cuh");
  P.R.InsertTextAfterToken(Body->getLBracLoc(), Prologue);
  if (std::optional<StringRef> Blanks = blanksBefore(SM, Body->getRBracLoc()))
    P.R.InsertTextBefore(
        Body->getRBracLoc().getLocWithOffset(-static_cast<int>(Blanks->size())),
        Epilogue);
  else
    P.R.InsertTextBefore(Body->getRBracLoc(), "\n" + Epilogue);
}

/// \p Text without its `#pragma dd` lines (a copy as written needs no
/// annotation, and a plain compiler would warn of it).
static std::string withoutAnnotations(StringRef Text) {
  std::string Out;
  bool Continued = false; // the previous dropped line ended in a backslash
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    const bool Last = Rest.empty() && !Text.ends_with("\n");
    StringRef Code = Line.rtrim("\r");
    StringRef Words = Code.ltrim(" \t");
    bool Drop = Continued;
    if (!Drop && Words.consume_front("#")) {
      Words = Words.ltrim(" \t");
      if (Words.consume_front("pragma")) {
        Words = Words.ltrim(" \t");
        Drop = Words.consume_front("dd") &&
               (Words.empty() || Words.front() == ' ' || Words.front() == '\t');
      }
    }
    Continued = Drop && Code.ends_with("\\");
    if (!Drop)
      Out += Line.str() + (Last ? "" : "\n");
    Text = Rest;
  }
  return Out;
}

void Privatizer::emitLaunch(const FunctionDecl *Kernel,
                            ArrayRef<Array *> InKernel, const Launch &L) {
  const SourceManager &SM = P.Ctx.getSourceManager();
  const LangOptions &LO = P.Ctx.getLangOpts();
  const LaunchRewriter &R = *L.Rewriter;
  const auto *Body = cast<CompoundStmt>(Kernel->getBody());
  const std::string Name = Kernel->getNameAsString();
  const std::string Copy = Name + "_as_written";
  StringRef Buf = SM.getBufferData(SM.getMainFileID());
  const unsigned Begin =
      SM.getFileOffset(SM.getExpansionLoc(Kernel->getBeginLoc()));
  const unsigned NameAt = SM.getFileOffset(Kernel->getLocation());
  const unsigned NameEnd =
      NameAt + Lexer::MeasureTokenLength(Kernel->getLocation(), SM, LO);
  const unsigned End = SM.getFileOffset(Body->getRBracLoc()) + 1;

  const std::string Args = R.arguments();
  // The choice is measured per range too: a copy of 256 bins wins where
  // one of a million may not, at the same grid.
  std::string Key;
  std::vector<const ParmVarDecl *> Ranges;
  for (const Array *A : InKernel)
    if (A->RangeParam && !is_contained(Ranges, A->RangeParam))
      Ranges.push_back(A->RangeParam);
  for (const ParmVarDecl *Range : Ranges) {
    std::string Value = "(unsigned long long)(" +
                        R.paramName(Range->getFunctionScopeIndex()) + ")";
    Key = Key.empty() ? Value : "(" + Key + ") * 1000003ull ^ " + Value;
  }
  if (Key.empty())
    Key = "0ull";

  std::string Out;
  raw_string_ostream OS(Out);
  OS << "\n\n// decoupler: '" << Name
     << "' as written, for the launches where it measures faster than "
        "the privatized one ("
     << R.name() << ").\n";
  if (Kernel->getStorageClass() != SC_Static)
    OS << "static ";
  OS << Buf.slice(Begin, NameAt) << Copy
     << withoutAnnotations(Buf.slice(NameEnd, End)) << "\n\n";
  OS << "/// decoupler: in place of " << Name
     << "<<<grid, block, shmem, stream>>>(...): runs " << Name
     << " (privatized) or " << Copy << ",\n"
     << "/// whichever measured faster for the launch's shape and range "
        "(<dd/privatize_launch.h>).\n";
  OS << R.definitionHead() << " {\n"
     << "  static dd::PrivatizeLaunchState dd_state;\n"
     << "  dd::privatize_launch(\n"
     << "      dd_state, \"" << Name << "\", (const void *)" << Name
     << ", (const void *)" << Copy << ",\n"
     << "      dd_grid, dd_block, dd_shmem, dd_stream, " << Key << ",\n"
     << "      [&](dim3 dd_g, dim3 dd_b, size_t dd_s, cudaStream_t dd_st) {\n"
     << "        " << Name << "<<<dd_g, dd_b, dd_s, dd_st>>>(" << Args << ");\n"
     << "      },\n"
     << "      [&](dim3 dd_g, dim3 dd_b, size_t dd_s, cudaStream_t dd_st) {\n"
     << "        " << Copy << "<<<dd_g, dd_b, dd_s, dd_st>>>(" << Args << ");\n"
     << "      });\n"
     << "}";
  P.R.InsertTextAfterToken(Body->getRBracLoc(), Out);
  R.rewrite(P.R);
  P.Includes.ensure("dd/privatize_launch.h");
}

} // namespace decoupler
