//===- delegate/CriticalSection.cpp - Try-lock critical sections ----------===//

#include "delegate/CriticalSection.h"
#include "support/Callees.h"
#include "support/CudaFacts.h"
#include "support/SameExpr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

/// A helper's parameters in the caller's terms (no helper: empty).
struct Substitution {
  const FunctionDecl *Helper = nullptr;
  DenseMap<const ParmVarDecl *, const Expr *> Args;
};

const Expr *strip(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

const Stmt *stripStmt(const Stmt *S) {
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    return strip(E);
  return S;
}

/// The statements of \p S: its children when it is a block, else itself.
SmallVector<const Stmt *, 8> statements(const Stmt *S) {
  SmallVector<const Stmt *, 8> Out;
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(S))
    Out.append(C->body_begin(), C->body_end());
  else if (S)
    Out.push_back(S);
  return Out;
}

/// The one statement of \p S (a block of one, or a statement); null
/// otherwise.
const Stmt *single(const Stmt *S) {
  SmallVector<const Stmt *, 8> All = statements(S);
  return All.size() == 1 ? All.front() : nullptr;
}

const FunctionDecl *callee(const Expr *E, const CallExpr *&Call) {
  Call = dyn_cast_or_null<CallExpr>(strip(E));
  return Call ? Call->getDirectCallee() : nullptr;
}

/// Whether \p F is the CUDA function of one of these names (by declaration:
/// a user's function of the same name is not).
bool isNamed(const FunctionDecl *F, std::initializer_list<StringRef> Names) {
  StringRef Name = cudaFunctionName(F);
  return !Name.empty() && is_contained(Names, Name);
}

std::optional<int64_t> intValue(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  return std::nullopt;
}

/// \p E with a helper's parameter replaced by the caller's argument (only
/// a bare parameter can be replaced; anything else stays as written).
const Expr *substitute(const Expr *E, const Substitution &Subst) {
  if (const auto *D = dyn_cast<DeclRefExpr>(strip(E)))
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
      if (const Expr *A = Subst.Args.lookup(P))
        return A;
  return E;
}

/// Whether \p E mentions a parameter of the helper (then it cannot be
/// written in the caller's terms: only a bare parameter is replaced).
bool mentionsHelperParam(const Expr *E, const Substitution &Subst) {
  if (!Subst.Helper || !E)
    return false;
  if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
      return P->getDeclContext() == Subst.Helper;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (mentionsHelperParam(CE, Subst))
        return true;
  return false;
}

bool lockLValue(const Expr *E, const Substitution &Subst, LockRef &L);

/// The lock that address \p Addr names: &A[i], &A[i].f, A + i, or a
/// pointer A (index none).
bool lockAt(const Expr *Addr, const Substitution &Subst, LockRef &L) {
  Addr = strip(Addr);
  if (const auto *U = dyn_cast<UnaryOperator>(Addr);
      U && U->getOpcode() == UO_AddrOf) {
    if (!lockLValue(U->getSubExpr(), Subst, L) || !L.Index)
      return false;
  } else if (const auto *B = dyn_cast<BinaryOperator>(Addr);
             B && B->getOpcode() == BO_Add) {
    const bool LeftIsPointer = B->getLHS()->getType()->isPointerType();
    L.Array = substitute(LeftIsPointer ? B->getLHS() : B->getRHS(), Subst);
    L.Index = substitute(LeftIsPointer ? B->getRHS() : B->getLHS(), Subst);
  } else if (Addr->getType()->isPointerType()) {
    // A helper's pointer parameter: the caller's argument (&A[i], A + i)
    // names the lock, already in the caller's terms.
    if (const Expr *Arg = substitute(Addr, Subst); Arg != Addr)
      return lockAt(Arg, Substitution(), L);
    L.Array = Addr;
    L.Index = nullptr;
  } else {
    return false;
  }
  return !mentionsHelperParam(L.Array, Subst) &&
         !mentionsHelperParam(L.Index, Subst);
}

/// The lock that lvalue \p E names: A[i], A[i].f (a field of a struct
/// element), or *p.
bool lockLValue(const Expr *E, const Substitution &Subst, LockRef &L) {
  E = strip(E);
  if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    const auto *A = dyn_cast<ArraySubscriptExpr>(strip(M->getBase()));
    if (!F || !A)
      return false;
    L.Field = F;
    E = A;
  }
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    L.Array = substitute(A->getBase(), Subst);
    L.Index = substitute(A->getIdx(), Subst);
  } else if (const auto *U = dyn_cast<UnaryOperator>(E);
             U && U->getOpcode() == UO_Deref) {
    return lockAt(U->getSubExpr(), Subst, L);
  } else {
    return false;
  }
  return !mentionsHelperParam(L.Array, Subst) &&
         !mentionsHelperParam(L.Index, Subst);
}

/// The caller's substitution for a call of a one-statement helper.
bool helperBody(const CallExpr *Call, const FunctionDecl *F,
                const Substitution &Outer, Substitution &Inner,
                SmallVectorImpl<const Stmt *> &Body) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def->hasAttr<CUDADeviceAttr>())
    return false;
  if (Call->getNumArgs() != Def->getNumParams())
    return false;
  Inner.Helper = Def;
  for (unsigned I = 0; I < Def->getNumParams(); ++I)
    Inner.Args[Def->getParamDecl(I)] = substitute(Call->getArg(I), Outer);
  Body = statements(Def->getBody());
  return true;
}

/// The side of \p B compared with the constant 0 (`x == 0`, `0 != x`, ...);
/// null when neither side is 0.
const Expr *comparedWithZero(const BinaryOperator *B, const ASTContext &Ctx) {
  return intValue(B->getRHS(), Ctx) == 0   ? B->getLHS()
         : intValue(B->getLHS(), Ctx) == 0 ? B->getRHS()
                                           : nullptr;
}

/// A call that takes a lock when it returns 0: atomicCAS(addr, 0, v) or
/// atomicExch(addr, v), v a nonzero constant.
bool matchAcquireCall(const Expr *Call, const Substitution &Subst,
                      const ASTContext &Ctx, LockRef &L) {
  const CallExpr *CE = nullptr;
  const FunctionDecl *F = Call ? callee(Call, CE) : nullptr;
  if (isNamed(F, {"atomicCAS"}) && CE->getNumArgs() == 3 &&
      intValue(CE->getArg(1), Ctx) == 0 &&
      intValue(CE->getArg(2), Ctx).value_or(0) != 0)
    return lockAt(CE->getArg(0), Subst, L);
  if (isNamed(F, {"atomicExch"}) && CE->getNumArgs() == 2 &&
      intValue(CE->getArg(1), Ctx).value_or(0) != 0)
    return lockAt(CE->getArg(0), Subst, L);
  return false;
}

/// try_lock: atomicCAS(addr, 0, 1) == 0, atomicExch(addr, 1) == 0, their
/// negations with !, or a call of a __device__ helper whose body returns one
/// of them.
bool matchTryLock(const Expr *Cond, const Substitution &Subst,
                  const ASTContext &Ctx, LockRef &L, unsigned Depth = 0) {
  Cond = strip(Cond);
  const Expr *Call = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond);
      B && B->getOpcode() == BO_EQ)
    Call = comparedWithZero(B, Ctx);
  else if (const auto *U = dyn_cast<UnaryOperator>(Cond);
           U && U->getOpcode() == UO_LNot)
    Call = U->getSubExpr();
  if (Call)
    return matchAcquireCall(Call, Subst, Ctx, L);
  // A helper: bool try_lock(...) { return <try-lock>; }
  const CallExpr *CE = nullptr;
  const FunctionDecl *F = callee(Cond, CE);
  if (!F || Depth > 2)
    return false;
  Substitution Inner;
  SmallVector<const Stmt *, 8> Body;
  if (!helperBody(CE, F, Subst, Inner, Body) || Body.size() != 1)
    return false;
  const auto *R = dyn_cast<ReturnStmt>(Body.front());
  return R && matchTryLock(R->getRetValue(), Inner, Ctx, L, Depth + 1);
}

/// A loop condition that holds while a lock is busy, the loop of a spin
/// lock: atomicCAS(addr, 0, v) != 0 (or the call alone, v != 0),
/// atomicExch(addr, v) != 0, or !try_lock(...).
bool matchBusyLock(const Expr *Cond, const ASTContext &Ctx, LockRef &L) {
  Cond = strip(Cond);
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return matchTryLock(U->getSubExpr(), Substitution(), Ctx, L);
  const Expr *Call = Cond;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond))
    Call = B->getOpcode() == BO_NE ? comparedWithZero(B, Ctx) : nullptr;
  return matchAcquireCall(Call, Substitution(), Ctx, L);
}

bool isFence(const Stmt *S) {
  const CallExpr *CE = nullptr;
  return isNamed(callee(dyn_cast_or_null<Expr>(S), CE),
                 {"__threadfence", "__threadfence_system"});
}

/// unlock: atomicExch(addr, 0), A[i] = 0, *p = 0, or a call of a __device__
/// helper made of one of them (after an optional fence).
bool matchUnlock(const Stmt *S, const Substitution &Subst,
                 const ASTContext &Ctx, LockRef &L, unsigned Depth = 0) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return false;
  E = strip(E);
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Assign)
    return intValue(B->getRHS(), Ctx) == 0 && lockLValue(B->getLHS(), Subst, L);
  const CallExpr *CE = nullptr;
  const FunctionDecl *F = callee(E, CE);
  if (!F)
    return false;
  if (isNamed(F, {"atomicExch"}))
    return CE->getNumArgs() == 2 && intValue(CE->getArg(1), Ctx) == 0 &&
           lockAt(CE->getArg(0), Subst, L);
  if (Depth > 2)
    return false;
  Substitution Inner;
  SmallVector<const Stmt *, 8> Body;
  if (!helperBody(CE, F, Subst, Inner, Body))
    return false;
  if (Body.size() == 2 && isFence(Body.front()))
    Body.erase(Body.begin());
  return Body.size() == 1 &&
         matchUnlock(Body.front(), Inner, Ctx, L, Depth + 1);
}

/// `Flag = true` (or 1) for a local bool/int variable.
const VarDecl *flagSet(const Stmt *S, const ASTContext &Ctx) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(stripStmt(S));
  if (!B || B->getOpcode() != BO_Assign || intValue(B->getRHS(), Ctx) != 1)
    return nullptr;
  const auto *D = dyn_cast<DeclRefExpr>(strip(B->getLHS()));
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) ? V : nullptr;
}

/// `!Flag`, or `Flag == false` (`== 0`, either side).
const VarDecl *notFlag(const Expr *E, const ASTContext &Ctx) {
  const Expr *Ref = nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(strip(E));
      U && U->getOpcode() == UO_LNot)
    Ref = U->getSubExpr();
  else if (const auto *B = dyn_cast_or_null<BinaryOperator>(strip(E));
           B && B->getOpcode() == BO_EQ)
    Ref = comparedWithZero(B, Ctx);
  const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(Ref));
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// `Flag` (a reference to it).
const VarDecl *flagRef(const Expr *E) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(E));
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// The try-lock of an `if` condition that may assign it to a variable
/// (`if (done = try_lock(L))`, a z-buffer's spelling): the assigned
/// expression, and in \p Assigned the variable (else null).
const Expr *tryOfCondition(const Expr *Cond, const VarDecl *&Assigned) {
  Assigned = nullptr;
  if (const auto *A = dyn_cast<BinaryOperator>(strip(Cond));
      A && A->getOpcode() == BO_Assign) {
    Assigned = flagRef(A->getLHS());
    return A->getRHS();
  }
  return Cond;
}

bool sameLock(const LockRef &A, const LockRef &B, const ASTContext &Ctx) {
  return A.Field == B.Field && sameExpr(A.Array, B.Array, Ctx) &&
         sameExpr(A.Index, B.Index, Ctx);
}

/// Why a loop does not match a try-lock shape. An empty message with
/// NotTryLockLoop is the plain "no try-lock loop here" of either listing.
struct Mismatch {
  RefusalKind Kind;
  std::string Message;
};

/// Splits the statements of the branch that holds every lock into the
/// critical section and its end (an optional fence, the unlocks of \p Held,
/// the flag set). Returns why not, nothing on success.
std::optional<Mismatch> splitTail(const Stmt *Branch, ArrayRef<LockRef> Held,
                                  const ASTContext &Ctx, CriticalSection &CS,
                                  const VarDecl *&Flag,
                                  const VarDecl *Preset = nullptr) {
  SmallVector<const Stmt *, 8> All = statements(Branch);
  SmallVector<bool, 2> Unlocked(Held.size(), false);
  Flag = nullptr;
  size_t End = All.size();
  while (End > 0) {
    const Stmt *S = All[End - 1];
    if (const VarDecl *F = flagSet(S, Ctx); F && !Flag) {
      Flag = F;
    } else if (LockRef L; matchUnlock(S, Substitution(), Ctx, L)) {
      bool Matched = false;
      for (size_t I = 0; I < Held.size() && !Matched; ++I)
        if (!Unlocked[I] && sameLock(L, Held[I], Ctx))
          Unlocked[I] = Matched = true;
      if (!Matched)
        return Mismatch{RefusalKind::SectionShape,
                        "the critical section releases a lock it did not take"};
    } else if (!isFence(S)) {
      break;
    }
    --End;
  }
  if (!Flag)
    Flag = Preset; // the try-lock's condition set it
  if (!Flag)
    return Mismatch{RefusalKind::SectionShape,
                    "the branch that takes the lock does not end by setting "
                    "the loop's flag"};
  if (!llvm::all_of(Unlocked, [](bool U) { return U; }))
    return Mismatch{
        RefusalKind::SectionShape,
        "the critical section does not release every lock it takes at its end"};
  CS.Body.assign(All.begin(), All.begin() + End);
  return std::nullopt;
}

/// do { BODY } while (COND) / while (COND) { BODY }.
bool loopParts(const Stmt *Loop, const Expr *&Cond, const Stmt *&Body) {
  if (const auto *D = dyn_cast<DoStmt>(Loop)) {
    Cond = D->getCond();
    Body = D->getBody();
    return true;
  }
  if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    Cond = W->getCond();
    Body = W->getBody();
    return true;
  }
  return false;
}

/// Listing 4.1: while (!done) { if (try_lock(L)) { CS; fence; unlock(L); done =
/// true; } }, or with the flag assigned by the condition, as z-buffers
/// write it: do { if (done = try_lock(L)) { CS; fence; unlock(L); } } while
/// (!done).
std::optional<Mismatch> matchSingle(const Expr *Cond, const Stmt *Body,
                                    const ASTContext &Ctx,
                                    CriticalSection &CS) {
  const VarDecl *Flag = notFlag(Cond, Ctx);
  const auto *If = dyn_cast_or_null<IfStmt>(single(Body));
  if (!Flag || !If || If->getElse() || If->getInit() ||
      If->getConditionVariable())
    return Mismatch{RefusalKind::NotTryLockLoop, ""};
  const VarDecl *Preset = nullptr;
  const Expr *Try = tryOfCondition(If->getCond(), Preset);
  if (Try != If->getCond() && Preset != Flag)
    return Mismatch{RefusalKind::NotTryLockLoop, ""};
  LockRef L;
  if (!matchTryLock(Try, Substitution(), Ctx, L))
    return Mismatch{RefusalKind::NotTryLockLoop, ""};
  L.Loc = Try->getExprLoc();
  CS.Kind = CriticalSection::Shape::Single;
  CS.Locks = {L};
  CS.FlagInCondition = Preset != nullptr;
  const VarDecl *Set = nullptr;
  if (std::optional<Mismatch> Why =
          splitTail(If->getThen(), CS.Locks, Ctx, CS, Set, Preset))
    return Why;
  if (Set != Flag)
    return Mismatch{RefusalKind::SectionShape,
                    "the critical section sets a flag other than the loop's"};
  CS.Flags = {Flag};
  return std::nullopt;
}

/// The end of a match of two locks taken in order (Listing 4.3 and the
/// release-and-retry spelling): distinct locks, and \p Branch, which holds
/// both, splits into the critical section and its tail; \p Set is the flag
/// the tail sets.
std::optional<Mismatch> twoLocks(const LockRef &L1, const LockRef &L2,
                                 const Stmt *Branch, const ASTContext &Ctx,
                                 CriticalSection &CS, const VarDecl *&Set) {
  if (sameLock(L1, L2, Ctx))
    return Mismatch{
        RefusalKind::SectionShape,
        "the two locks of a nested critical section are the same lock"};
  CS.Kind = CriticalSection::Shape::Nested;
  CS.Locks = {L1, L2};
  return splitTail(Branch, CS.Locks, Ctx, CS, Set);
}

/// Listing 4.3:
///   do {
///     if (!s1) { if (try_lock(L1)) s1 = true; }
///     if (s1) { if (try_lock(L2)) { CS; fence; unlock(L1); unlock(L2); s2 =
///     true; } }
///   } while (!(s1 && s2));
std::optional<Mismatch> matchNested(const Expr *Cond, const Stmt *Body,
                                    const ASTContext &Ctx,
                                    CriticalSection &CS) {
  const auto *Not = dyn_cast_or_null<UnaryOperator>(strip(Cond));
  const auto *And = Not && Not->getOpcode() == UO_LNot
                        ? dyn_cast<BinaryOperator>(strip(Not->getSubExpr()))
                        : nullptr;
  if (!And || And->getOpcode() != BO_LAnd)
    return Mismatch{RefusalKind::NotTryLockLoop, ""};
  const VarDecl *S1 = flagRef(And->getLHS()), *S2 = flagRef(And->getRHS());
  SmallVector<const Stmt *, 8> Parts = statements(Body);
  if (!S1 || !S2 || S1 == S2 || Parts.size() != 2)
    return Mismatch{RefusalKind::NotTryLockLoop, ""};
  // if (!s1) { if (try_lock(L1)) s1 = true; }
  const auto *First = dyn_cast<IfStmt>(Parts[0]);
  const auto *Take1 =
      First ? dyn_cast_or_null<IfStmt>(single(First->getThen())) : nullptr;
  LockRef L1, L2;
  if (!First || First->getElse() || notFlag(First->getCond(), Ctx) != S1 ||
      !Take1 || Take1->getElse() ||
      !matchTryLock(Take1->getCond(), Substitution(), Ctx, L1) ||
      flagSet(single(Take1->getThen()), Ctx) != S1)
    return Mismatch{RefusalKind::NotTryLockLoop,
                    "not a nested try-lock loop (Listing 4.3's first lock)"};
  // if (s1) { if (try_lock(L2)) { ... } }
  const auto *Second = dyn_cast<IfStmt>(Parts[1]);
  const auto *Take2 =
      Second ? dyn_cast_or_null<IfStmt>(single(Second->getThen())) : nullptr;
  if (!Second || Second->getElse() || flagRef(Second->getCond()) != S1 ||
      !Take2 || Take2->getElse() ||
      !matchTryLock(Take2->getCond(), Substitution(), Ctx, L2))
    return Mismatch{RefusalKind::NotTryLockLoop,
                    "not a nested try-lock loop (Listing 4.3's second lock)"};
  L1.Loc = Take1->getCond()->getExprLoc();
  L2.Loc = Take2->getCond()->getExprLoc();
  const VarDecl *Set = nullptr;
  if (std::optional<Mismatch> Why =
          twoLocks(L1, L2, Take2->getThen(), Ctx, CS, Set))
    return Why;
  if (Set != S2)
    return Mismatch{
        RefusalKind::SectionShape,
        "the critical section sets a flag other than the loop's second flag"};
  CS.Flags = {S1, S2};
  return std::nullopt;
}

/// Two locks, the second tried while holding the first, the first released
/// when the second is busy (the common spelling besides Listing 4.3):
///   while (!done) {
///     if (try_lock(L1)) {
///       if (try_lock(L2)) { CS; fence; unlock(L2); unlock(L1); done = true; }
///       else { [fence;] unlock(L1); }
///     }
///   }
/// The critical section runs holding both, as in Listing 4.3.
std::optional<Mismatch> matchRetry(const Expr *Cond, const Stmt *Body,
                                   const ASTContext &Ctx, CriticalSection &CS) {
  const VarDecl *Flag = notFlag(Cond, Ctx);
  const auto *Outer = dyn_cast_or_null<IfStmt>(single(Body));
  if (!Flag || !Outer || Outer->getElse() || Outer->getInit() ||
      Outer->getConditionVariable())
    return Mismatch{RefusalKind::NotTryLockLoop, ""};
  LockRef L1, L2;
  if (!matchTryLock(Outer->getCond(), Substitution(), Ctx, L1))
    return Mismatch{RefusalKind::NotTryLockLoop, ""};
  const auto *Inner = dyn_cast_or_null<IfStmt>(single(Outer->getThen()));
  if (!Inner || !Inner->getElse() || Inner->getInit() ||
      Inner->getConditionVariable() ||
      !matchTryLock(Inner->getCond(), Substitution(), Ctx, L2))
    return Mismatch{RefusalKind::NotTryLockLoop, ""};
  // The else branch gives the first lock back, and does nothing else.
  SmallVector<const Stmt *, 8> Else = statements(Inner->getElse());
  LockRef Released;
  if (Else.empty() || Else.size() > 2 ||
      (Else.size() == 2 && !isFence(Else[0])) ||
      !matchUnlock(Else.back(), Substitution(), Ctx, Released) ||
      !sameLock(Released, L1, Ctx))
    return Mismatch{RefusalKind::SectionShape,
                    "when the second lock is busy the loop must release the "
                    "first lock and do nothing else (release and retry)"};
  L1.Loc = Outer->getCond()->getExprLoc();
  L2.Loc = Inner->getCond()->getExprLoc();
  const VarDecl *Set = nullptr;
  if (std::optional<Mismatch> Why =
          twoLocks(L1, L2, Inner->getThen(), Ctx, CS, Set))
    return Why;
  if (Set != Flag)
    return Mismatch{RefusalKind::SectionShape,
                    "the critical section sets a flag other than the loop's"};
  CS.Flags = {Flag};
  return std::nullopt;
}

bool isThreadBuiltin(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  return isCudaBuiltinVariable(V) && V->getName() != "warpSize";
}

/// Records that the critical section reads \p V, a variable of the kernel:
/// a parameter is a server argument, a local part of the message.
void addInput(const VarDecl *V, CriticalSection &CS) {
  auto &List = isa<ParmVarDecl>(V) ? CS.Arguments : CS.Message;
  if (!is_contained(List, V))
    List.push_back(V);
}

/// The variable whose storage an lvalue names, through `.member` and
/// subscripts of arrays (the variable's own storage), or through subscripts
/// of pointers (ViaPointer: the storage is wherever the pointer points).
/// Whole: the lvalue is the variable itself.
struct LValueRoot {
  const VarDecl *Var = nullptr;
  bool ViaPointer = false;
  bool Whole = false;
};

LValueRoot lvalueRoot(const Expr *LValue) {
  LValueRoot R;
  const Expr *E = LValue->IgnoreParenImpCasts();
  while (true) {
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = A->getBase()->IgnoreParenImpCasts();
      R.ViaPointer |= !Base->getType()->isArrayType();
      E = Base;
    } else if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
      E = M->getBase()->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  const auto *D = dyn_cast<DeclRefExpr>(E);
  R.Var = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  R.Whole = R.Var && E == LValue->IgnoreParenImpCasts();
  return R;
}

/// What makes code unfit to run on a server thread in the client's place,
/// found in the critical section or in a function it calls (transitively).
struct Cause {
  /// Where, in the function named last in Chain (or in the section).
  SourceLocation Loc;
  /// "reads 'threadIdx.x'": what the code does.
  std::string Verb;
  /// ", which differs on the server": why the server cannot do it.
  std::string Why;
  /// The note at Loc when the cause is in a callee ("reads 'threadIdx.x'
  /// here"); empty: "<Verb> here".
  std::string NoteText;
  /// The functions called on the way, the section's callee first.
  SmallVector<std::string, 2> Chain;

  std::string message(StringRef Subject = "the critical section ") const {
    std::string S = Subject.str();
    for (const std::string &F : Chain)
      S += "calls '" + F + "', which ";
    return S + Verb + Why;
  }
  /// The note at the cause, when it is in a callee.
  std::optional<std::pair<SourceLocation, std::string>> note() const {
    if (Chain.empty())
      return std::nullopt;
    return std::make_pair(Loc, NoteText.empty()
                                   ? "'" + Chain.back() + "' " + Verb + " here"
                                   : NoteText);
  }
  Refusal refusal(SourceLocation At) const {
    Refusal R{RefusalKind::ServerCannotRun, At, message()};
    if (auto N = note())
      R.Notes.push_back(*N);
    return R;
  }
};

Cause readsBuiltin(SourceLocation Loc, StringRef Name) {
  return {Loc,
          "reads '" + Name.str() + "'",
          ", which differs on the server (it would read the server thread's)",
          "",
          {}};
}

Cause usesShared(SourceLocation Loc, const VarDecl *V) {
  return {Loc,
          "uses shared memory ('" + V->getName().str() + "')",
          "; on the server that is the server block's shared memory, which "
          "holds its lock "
          "table",
          "",
          {}};
}

Cause inlineAsm(SourceLocation Loc) {
  return {Loc,
          "contains inline assembly",
          ", which the delegate pass cannot check",
          "",
          {}};
}

/// Decides whether the functions a critical section calls can run on a
/// server thread: transitively, over their bodies in the translation unit.
class CalleeChecker {
public:
  /// The first cause in what \p Call does (the CUDA function it calls, or
  /// the body of the user's function, followed).
  std::optional<Cause> call(const CallExpr *Call);
  std::optional<Cause> construct(const CXXConstructExpr *E);

private:
  std::optional<Cause> callee(const FunctionDecl *F, SourceLocation CallLoc);

  DenseMap<const FunctionDecl *, std::optional<Cause>> Done;
  SmallPtrSet<const FunctionDecl *, 8> Active;
};

/// Scans one callee's body for causes (its calls through the checker).
class FunctionScan : public RecursiveASTVisitor<FunctionScan> {
public:
  explicit FunctionScan(CalleeChecker &Checker) : Checker(Checker) {}
  std::optional<Cause> Found;

  bool TraverseStmt(Stmt *S) {
    if (Found)
      return false;
    if (const auto *E = dyn_cast_or_null<Expr>(S))
      if (std::optional<CudaBuiltinRead> B = cudaBuiltinRead(E)) {
        Found = readsBuiltin(E->getBeginLoc(), B->name());
        return false;
      }
    return RecursiveASTVisitor::TraverseStmt(S);
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (isCudaBuiltinVariable(V) && V->getName() != "warpSize")
      Found = readsBuiltin(D->getBeginLoc(), V->getName());
    else if (V && V->hasAttr<CUDASharedAttr>())
      Found = usesShared(D->getBeginLoc(), V);
    return !Found;
  }
  bool VisitAsmStmt(AsmStmt *A) {
    Found = inlineAsm(A->getAsmLoc());
    return false;
  }
  bool VisitCallExpr(CallExpr *C) {
    Found = Checker.call(C);
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Found = Checker.construct(E);
    return !Found;
  }
  // A default argument or default member initializer runs where it is
  // used, but is not a child in the AST: scan it there.
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    TraverseStmt(E->getExpr());
    return !Found;
  }
  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
    TraverseStmt(E->getExpr());
    return !Found;
  }
  bool VisitInitListExpr(InitListExpr *E) {
    forEachDefaultInit(E, [&](CXXDefaultInitExpr *D) {
      if (!Found)
        TraverseStmt(D->getExpr());
    });
    return !Found;
  }

  /// The default member initializers an aggregate initialization uses:
  /// only its semantic form holds them, and the visitor walks the
  /// syntactic one.
  template <class Fn> static void forEachDefaultInit(InitListExpr *E, Fn &&F) {
    InitListExpr *Sem = E->isSemanticForm() ? E : E->getSemanticForm();
    if (!Sem || Sem == E->getSyntacticForm())
      return;
    for (Expr *Init : Sem->inits()) {
      if (auto *D = dyn_cast_or_null<CXXDefaultInitExpr>(Init))
        F(D);
      else if (auto *L = dyn_cast_or_null<InitListExpr>(Init))
        forEachDefaultInit(L, F);
    }
  }

private:
  CalleeChecker &Checker;
};

std::optional<Cause> CalleeChecker::call(const CallExpr *Call) {
  const FunctionDecl *F = calledFunction(Call);
  // `dim3 t = threadIdx`: clang's headers convert the variable as a whole
  // through a member function.
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call))
    if (const auto *D = dyn_cast<DeclRefExpr>(
            M->getImplicitObjectArgument()->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
          isCudaBuiltinVariable(V) && V->getName() != "warpSize")
        return readsBuiltin(D->getBeginLoc(), V->getName());
  if (SyncKind K = cudaSync(Call);
      K == SyncKind::Barrier || K == SyncKind::WarpBarrier)
    return Cause{Call->getBeginLoc(),
                 "synchronizes threads ('" + (F ? F->getName().str() : "sync") +
                     "')",
                 "; the client's block is not on the server",
                 "",
                 {}};
  if (readsThreadIdentity(Call))
    return Cause{
        Call->getBeginLoc(),
        "reads the thread's identity ('" + F->getName().str() + "')",
        ", which differs on the server (it would read the server thread's)",
        "",
        {}};
  if (!F) {
    if (isa<CXXPseudoDestructorExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      return std::nullopt;
    if (dispatchedAtRunTime(Call))
      return Cause{Call->getBeginLoc(),
                   "makes a virtual call decided at run time",
                   ", whose overrider the delegate pass cannot check",
                   "",
                   {}};
    return Cause{Call->getBeginLoc(),
                 "calls a function through a pointer",
                 ", which the delegate pass cannot check",
                 "",
                 {}};
  }
  if (isCudaFunction(F) || F->getBuiltinID())
    return std::nullopt;
  return callee(F, Call->getBeginLoc());
}

std::optional<Cause> CalleeChecker::construct(const CXXConstructExpr *E) {
  const CXXConstructorDecl *Ctor = E->getConstructor();
  if (!Ctor || Ctor->isTrivial() ||
      (Ctor->isDefaulted() && !Ctor->isUserProvided() &&
       Ctor->getParent()->hasTrivialDefaultConstructor()))
    return std::nullopt;
  return callee(Ctor, E->getBeginLoc());
}

std::optional<Cause> CalleeChecker::callee(const FunctionDecl *F,
                                           SourceLocation CallLoc) {
  const FunctionDecl *Def = nullptr;
  const std::string Name = F->getNameAsString();
  if (!F->hasBody(Def))
    return Cause{F->getLocation(),
                 "has no body in this file",
                 "; what it does on the server cannot be checked",
                 "'" + Name + "' is declared here",
                 {Name}};
  if (Active.contains(Def))
    return Cause{CallLoc,
                 "calls '" + Name + "' recursively",
                 "; the delegate pass does not follow recursion",
                 "",
                 {}};
  if (auto It = Done.find(Def); It != Done.end())
    return It->second;
  Active.insert(Def);
  FunctionScan Scan(*this);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (!Scan.Found)
        Scan.TraverseStmt(Init->getInit());
  if (!Scan.Found)
    Scan.TraverseStmt(Def->getBody());
  Active.erase(Def);
  std::optional<Cause> Result = Scan.Found;
  if (Result)
    Result->Chain.insert(Result->Chain.begin(), Name);
  Done[Def] = Result;
  return Result;
}

/// Where a pointer may point, as far as the delegate rewrite cares: global
/// memory (what kernel parameters and globals address) is the server's too;
/// a client local, the client block's shared memory, or an address the pass
/// cannot follow are not.
struct Origins {
  bool Global = false;
  const VarDecl *Local = nullptr;
  const VarDecl *Shared = nullptr;
  const Expr *Unknown = nullptr;
  SourceLocation LocalAt, SharedAt;

  bool merge(const Origins &O) {
    bool Changed = false;
    if (O.Global && !Global)
      Global = Changed = true;
    if (O.Local && !Local) {
      Local = O.Local;
      LocalAt = O.LocalAt;
      Changed = true;
    }
    if (O.Shared && !Shared) {
      Shared = O.Shared;
      SharedAt = O.SharedAt;
      Changed = true;
    }
    if (O.Unknown && !Unknown) {
      Unknown = O.Unknown;
      Changed = true;
    }
    return Changed;
  }
};

/// Whether a value of type \p T holds a pointer (itself, or a field of a
/// class).
bool holdsPointer(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isPointerType())
    return true;
  if (const auto *A = dyn_cast<ConstantArrayType>(T.getTypePtr()))
    return holdsPointer(A->getElementType());
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    if (!RD->hasDefinition())
      return false;
    for (const FieldDecl *F : RD->fields())
      if (holdsPointer(F->getType()))
        return true;
    for (const CXXBaseSpecifier &B : RD->bases())
      if (holdsPointer(B.getType()))
        return true;
  }
  return false;
}

/// A flow-insensitive points-to of the kernel's pointer variables (locals
/// and parameters): each may hold what any assignment to it in the kernel
/// stores. A pointer whose own address is taken or bound to a reference may
/// be changed through memory: its origin is unknown.
class PointerOrigins {
public:
  explicit PointerOrigins(const FunctionDecl &Kernel) : Kernel(Kernel) {
    for (const ParmVarDecl *P : Kernel.parameters())
      if (P->getType()->isPointerType())
        Map[P].Global = true;
    struct Collector : RecursiveASTVisitor<Collector> {
      PointerOrigins &O;
      explicit Collector(PointerOrigins &O) : O(O) {}
      bool VisitVarDecl(VarDecl *V) {
        if (O.tracked(V) && V->getInit())
          O.Assigns.push_back({V, V->getInit()});
        if (V->getType()->isReferenceType() &&
            !V->getType().getNonReferenceType().isConstQualified() &&
            V->getInit())
          O.escape(V->getInit());
        return true;
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        if (B->getOpcode() == BO_Assign)
          if (const VarDecl *V = O.var(B->getLHS()); V && O.tracked(V))
            O.Assigns.push_back({V, B->getRHS()});
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        if (U->getOpcode() == UO_AddrOf)
          O.escape(U->getSubExpr());
        return true;
      }
      bool VisitCallExpr(CallExpr *C) {
        const FunctionDecl *F = C->getDirectCallee();
        for (unsigned I = 0; F && I < C->getNumArgs() && I < F->getNumParams();
             ++I) {
          QualType T = F->getParamDecl(I)->getType();
          if (T->isReferenceType() &&
              !T.getNonReferenceType().isConstQualified())
            O.escape(C->getArg(I));
        }
        return true;
      }
    } C(*this);
    C.TraverseStmt(Kernel.getBody());
    // Sets only grow, each by at most four facts per variable.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const auto &[V, E] : Assigns)
        Changed |= Map[V].merge(eval(E));
    }
  }

  Origins of(const VarDecl *V) {
    if (tracked(V))
      return Map.lookup(V);
    return Origins();
  }

private:
  bool tracked(const VarDecl *V) const {
    return V && V->hasLocalStorage() && V->getType()->isPointerType() &&
           V->getDeclContext() == &Kernel;
  }
  static const VarDecl *var(const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  }
  void escape(const Expr *E) {
    if (const VarDecl *V = var(E); V && tracked(V)) {
      Origins U;
      U.Unknown = E;
      Map[V].merge(U);
    }
  }

  /// Where the object lvalue \p LV designates lives.
  Origins storage(const Expr *LV) {
    LV = LV->IgnoreParens();
    Origins O;
    if (const VarDecl *V = var(LV)) {
      if (V->hasAttr<CUDASharedAttr>()) {
        O.Shared = V;
        O.SharedAt = LV->getBeginLoc();
      } else if (V->getType()->isReferenceType()) {
        O.Unknown = LV;
      } else if (V->hasLocalStorage()) {
        O.Local = V;
        O.LocalAt = LV->getBeginLoc();
      } else {
        O.Global = true;
      }
      return O;
    }
    if (const auto *M = dyn_cast<MemberExpr>(LV))
      return M->isArrow() ? eval(M->getBase()) : storage(M->getBase());
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(LV)) {
      const Expr *Base = A->getBase()->IgnoreParenImpCasts();
      return Base->getType()->isArrayType() ? storage(Base)
                                            : eval(A->getBase());
    }
    if (const auto *U = dyn_cast<UnaryOperator>(LV);
        U && U->getOpcode() == UO_Deref)
      return eval(U->getSubExpr());
    O.Unknown = LV;
    return O;
  }

  /// Where the pointer value \p E may point.
  Origins eval(const Expr *E) {
    Origins O;
    E = E->IgnoreParens();
    if (E->isNullPointerConstant(Kernel.getASTContext(),
                                 Expr::NPC_ValueDependentIsNotNull))
      return O;
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      const Expr *Sub = C->getSubExpr();
      switch (C->getCastKind()) {
      case CK_LValueToRValue: {
        if (const VarDecl *V = var(Sub)) {
          if (tracked(V))
            return Map.lookup(V);
          if (!V->hasLocalStorage() && !V->getType()->isReferenceType()) {
            O.Global = true; // a global pointer variable
            return O;
          }
        }
        // A pointer loaded from memory: memory the kernel's parameters and
        // globals reach holds pointers to global memory (a kernel
        // parameter's fields are the host's pointers).
        Origins Where = storage(Sub);
        const bool ParamField = Where.Local && isa<ParmVarDecl>(Where.Local) &&
                                Where.Local->getDeclContext() == &Kernel;
        if ((!Where.Local || ParamField) && !Where.Shared && !Where.Unknown) {
          O.Global = true;
          return O;
        }
        O.Unknown = E;
        return O;
      }
      case CK_ArrayToPointerDecay:
        return storage(Sub);
      case CK_NoOp:
      case CK_BitCast:
      case CK_AddressSpaceConversion:
      case CK_UncheckedDerivedToBase:
      case CK_DerivedToBase:
      case CK_BaseToDerived:
        return eval(Sub);
      default:
        O.Unknown = E;
        return O;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_AddrOf)
        return storage(U->getSubExpr());
      if (U->isIncrementDecrementOp())
        return eval(U->getSubExpr());
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAdditiveOp())
        return eval(B->getLHS()->getType()->isPointerType() ? B->getLHS()
                                                            : B->getRHS());
      if (B->getOpcode() == BO_Comma || B->isAssignmentOp())
        return eval(B->getRHS());
    }
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E)) {
      O = eval(C->getTrueExpr());
      O.merge(eval(C->getFalseExpr()));
      return O;
    }
    if (const VarDecl *V = var(E); V && tracked(V))
      return Map.lookup(V);
    O.Unknown = E;
    return O;
  }

  const FunctionDecl &Kernel;
  DenseMap<const VarDecl *, Origins> Map;
  SmallVector<std::pair<const VarDecl *, const Expr *>, 8> Assigns;
};

/// The first reference to \p V in \p Body (else the loop's start).
SourceLocation firstUse(const ValueDecl *V, ArrayRef<const Stmt *> Body,
                        SourceLocation Else) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *V;
    SourceLocation Found;
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      if (D->getDecl() == V && Found.isInvalid())
        Found = D->getBeginLoc();
      return Found.isInvalid();
    }
  } F;
  F.V = V;
  for (const Stmt *S : Body)
    F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found.isValid() ? F.Found : Else;
}

/// The checks of the critical section's statements; adds what they read to
/// the section's inputs.
class BodyChecker : public RecursiveASTVisitor<BodyChecker> {
public:
  BodyChecker(CriticalSection &CS, const SourceManager &SM) : CS(CS), SM(SM) {}

  std::optional<Refusal> Problem;
  /// A local of the kernel the section changes: the store, and how
  /// (empty: assigned; else a phrase in which "%" stands for the local's
  /// name: "takes the address of %").
  struct Write {
    const VarDecl *Var;
    SourceLocation Loc;
    std::string How;
  };
  SmallVector<Write, 4> Written;

  bool TraverseStmt(Stmt *S) {
    if (Problem)
      return false;
    // threadIdx.x and friends: the client's value travels in the message.
    if (const auto *E = dyn_cast_or_null<Expr>(S))
      if (std::optional<CudaBuiltinRead> B = cudaBuiltinRead(E)) {
        // The tokens `threadIdx.y` themselves, not the parentheses around
        // them (`sizeof(threadIdx.y)` keeps its own).
        const Expr *Spelled = E->IgnoreParens();
        if (const auto *POE = dyn_cast<PseudoObjectExpr>(Spelled))
          Spelled = POE->getSyntacticForm()->IgnoreParens();
        CS.Builtins.push_back({*B, Spelled});
        return true;
      }
    const bool Loop =
        S && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
    LoopDepth += Loop;
    const bool Continue = RecursiveASTVisitor::TraverseStmt(S);
    LoopDepth -= Loop;
    return Continue;
  }
  // A lambda's body is another function: its `return` is not the
  // section's, and its captures are not followed.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    return refuse(L->getBeginLoc(),
                  "the critical section defines a lambda, which the delegate "
                  "pass does not follow");
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    return refuse(R->getBeginLoc(), "the critical section returns",
                  RefusalKind::SectionShape);
  }
  bool VisitGotoStmt(GotoStmt *G) {
    // A jump within the section would move with it; the pass does not
    // carry labels over, so both are refused, each for what it is.
    const LabelStmt *Target = G->getLabel()->getStmt();
    const bool Inside = Target && llvm::any_of(CS.Body, [&](const Stmt *S) {
                          return !SM.isBeforeInTranslationUnit(
                                     Target->getBeginLoc(), S->getBeginLoc()) &&
                                 !SM.isBeforeInTranslationUnit(
                                     S->getEndLoc(), Target->getBeginLoc());
                        });
    return refuse(G->getBeginLoc(),
                  Inside ? "the critical section jumps with 'goto', which "
                           "the delegate pass does not move"
                         : "the critical section leaves by 'goto'",
                  RefusalKind::SectionShape);
  }
  bool VisitBreakStmt(BreakStmt *B) {
    return LoopDepth > 0 || refuse(B->getBeginLoc(),
                                   "the critical section leaves the try-lock "
                                   "loop with 'break'",
                                   RefusalKind::SectionShape);
  }
  bool VisitContinueStmt(ContinueStmt *C) {
    return LoopDepth > 0 || refuse(C->getBeginLoc(),
                                   "the critical section leaves the try-lock "
                                   "loop with 'continue'",
                                   RefusalKind::SectionShape);
  }
  bool VisitAsmStmt(AsmStmt *A) {
    Problem = inlineAsm(A->getAsmLoc()).refusal(A->getAsmLoc());
    return false;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (std::optional<Cause> Why = Callees.call(C)) {
      Problem = Why->refusal(C->getBeginLoc());
      return false;
    }
    // A local bound to a non-const reference parameter (or the object of a
    // non-const member function) is the server's copy, changed there.
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return true;
    const std::string Name = F->getNameAsString();
    unsigned First = 0;
    const auto *M = dyn_cast<CXXMethodDecl>(F);
    if (M && M->isInstance() && !M->isConst()) {
      const Expr *Object = nullptr;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
        Object = MC->getImplicitObjectArgument();
      else if (isa<CXXOperatorCallExpr>(C) && C->getNumArgs() > 0)
        Object = C->getArg(0);
      if (Object && isa<CXXOperatorCallExpr>(C))
        First = 1;
      if (Object)
        changed(Object, "calls '" + Name + "' on %");
    }
    for (unsigned I = First;
         I < C->getNumArgs() && I - First < F->getNumParams(); ++I) {
      QualType T = F->getParamDecl(I - First)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        changed(C->getArg(I), "passes % by reference to '" + Name + "'");
    }
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (std::optional<Cause> Why = Callees.construct(E)) {
      Problem = Why->refusal(E->getBeginLoc());
      return false;
    }
    return true;
  }
  // Default arguments and default member initializers are evaluated in the
  // section (on the server), but written elsewhere: the rewrite cannot pass
  // the client's value into them, so what they read must be the same there.
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    return defaulted(E->getExpr(), E->getUsedLocation(), "a default argument");
  }
  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
    return defaulted(E->getExpr(), E->getUsedLocation(),
                     "a default member initializer");
  }
  bool VisitInitListExpr(InitListExpr *E) {
    FunctionScan::forEachDefaultInit(E, [&](CXXDefaultInitExpr *D) {
      if (!Problem)
        defaulted(D->getExpr(), E->getBeginLoc(),
                  "a default member initializer");
    });
    return !Problem;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      return wrote(B->getLHS(), B->getOperatorLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      return wrote(U->getSubExpr(), U->getOperatorLoc());
    if (U->getOpcode() == UO_AddrOf)
      changed(U->getSubExpr(), "takes the address of %", U->getBeginLoc());
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    QualType T = V->getType();
    if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified() &&
        V->getInit())
      changed(V->getInit(),
              "binds the reference '" + V->getNameAsString() + "' to %");
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    // threadIdx as a whole (its components are read above).
    if (isThreadBuiltin(D))
      return refuse(D->getBeginLoc(), "the critical section reads a thread or "
                                      "block index, which differs on "
                                      "the server; compute it before the loop");
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (V && V->hasAttr<CUDASharedAttr>())
      return refuse(D->getBeginLoc(),
                    "the critical section reads shared memory ('" +
                        V->getName().str() + "'), which is the client block's");
    if (V && V->hasLocalStorage() && !declaredInside(V))
      addInput(V, CS);
    return true;
  }

private:
  /// Checks \p Default, the expression of a default argument or member
  /// initializer (\p What) that the section uses at \p At.
  bool defaulted(const Expr *Default, SourceLocation At, StringRef What) {
    FunctionScan Scan(Callees);
    Scan.TraverseStmt(const_cast<Expr *>(Default));
    if (!Scan.Found)
      return true;
    const std::string Subject =
        "the critical section evaluates " + What.str() + " that ";
    Refusal R{RefusalKind::ServerCannotRun,
              At.isValid() ? At : Default->getBeginLoc(),
              Scan.Found->message(Subject)};
    R.Notes.push_back({Default->getBeginLoc(), What.str() + " written here"});
    if (auto N = Scan.Found->note())
      R.Notes.push_back(*N);
    Problem = std::move(R);
    return false;
  }
  bool refuse(SourceLocation Loc, std::string Message,
              RefusalKind Kind = RefusalKind::ServerCannotRun) {
    Problem = Refusal{Kind, Loc, std::move(Message)};
    return false;
  }
  bool declaredInside(const VarDecl *V) const {
    SourceRange R = CS.Loop->getSourceRange();
    SourceLocation L = V->getLocation();
    return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
           !SM.isBeforeInTranslationUnit(R.getEnd(), L);
  }
  /// The local of the kernel (declared before the loop) whose own storage
  /// lvalue \p E designates: `v`, `v.f`, `v[i]` of an array; not memory
  /// reached through a pointer.
  const VarDecl *clientLocal(const Expr *E) const {
    LValueRoot R = lvalueRoot(E);
    const VarDecl *V = R.ViaPointer ? nullptr : R.Var;
    if (!V || !V->hasLocalStorage() || declaredInside(V) ||
        is_contained(CS.Flags, V) || V->getType()->isReferenceType())
      return nullptr;
    return V;
  }
  /// \p E (an lvalue) may be changed through an address or a reference.
  void changed(const Expr *E, std::string How, SourceLocation At = {}) {
    if (const VarDecl *V = clientLocal(E))
      Written.push_back(
          {V, At.isValid() ? At : E->getBeginLoc(), std::move(How)});
  }
  /// A store to \p LHS: memory is the server's to write (except shared
  /// memory, which is the client block's); a local of the kernel is
  /// recorded and checked against its uses outside.
  bool wrote(const Expr *LHS, SourceLocation Loc) {
    LValueRoot R = lvalueRoot(LHS);
    if (!R.Var || R.ViaPointer)
      return true; // through a pointer: memory the server can reach
    const VarDecl *V = R.Var;
    if (V->hasAttr<CUDASharedAttr>())
      return refuse(Loc, "the critical section writes shared memory ('" +
                             V->getName().str() +
                             "'), which the server cannot reach");
    // A part (`v.f = x`, `a[i] = x`) changes the local as much as a whole.
    if (V->hasLocalStorage() && !declaredInside(V) &&
        !is_contained(CS.Flags, V))
      Written.push_back({V, Loc, ""});
    return true;
  }

  CriticalSection &CS;
  const SourceManager &SM;
  CalleeChecker Callees;
  unsigned LoopDepth = 0;
};

/// Whether \p V is referenced in \p Function outside \p Range.
bool usedOutside(const VarDecl *V, SourceRange Range,
                 const FunctionDecl &Function, const SourceManager &SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    SourceRange Range;
    const SourceManager &SM;
    bool Found = false;
    Finder(const VarDecl *V, SourceRange R, const SourceManager &SM)
        : V(V), Range(R), SM(SM) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      if (D->getDecl() != V)
        return true;
      SourceLocation L = D->getLocation();
      if (SM.isBeforeInTranslationUnit(L, Range.getBegin()) ||
          SM.isBeforeInTranslationUnit(Range.getEnd(), L))
        Found = true;
      return !Found;
    }
  } F(V, Range, SM);
  F.TraverseStmt(Function.getBody());
  return F.Found;
}

/// Adds the locals and parameters that \p E (a lock's array or index)
/// reads to \p CS.
void addReads(const Expr *E, CriticalSection &CS) {
  if (!E)
    return;
  if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
        V && V->hasLocalStorage())
      addInput(V, CS);
  for (const Stmt *Child : E->children())
    addReads(dyn_cast_or_null<Expr>(Child), CS);
}

/// The function whose body holds \p S: the kernel, or a lambda's call
/// operator or a local class's method inside it (null if none is found).
const Decl *enclosingFunctionOf(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const DynTypedNode &N = Parents[0];
    if (const auto *L = N.get<LambdaExpr>())
      return L->getCallOperator();
    if (const auto *F = N.get<FunctionDecl>())
      return F;
    Parents = Ctx.getParents(N);
  }
  return nullptr;
}

} // namespace

std::variant<CriticalSection, Refusal>
matchCriticalSection(const Stmt *Loop, const FunctionDecl &Function,
                     ASTContext &Ctx) {
  while (const auto *L = dyn_cast<LabelStmt>(Loop))
    Loop = L->getSubStmt();
  CriticalSection CS;
  CS.Loop = Loop;
  const Expr *Cond = nullptr;
  const Stmt *Body = nullptr;
  if (!loopParts(Loop, Cond, Body))
    return Refusal{RefusalKind::NotTryLockLoop, Loop->getBeginLoc(),
                   "a delegated critical section must be a do/while or while "
                   "try-lock loop"};
  // The release-and-retry spelling first: its outer `if` would otherwise
  // read as Listing 4.1 with a critical section that does not end right.
  CriticalSection Retry;
  Retry.Loop = Loop;
  std::optional<Mismatch> RetryWhy = matchRetry(Cond, Body, Ctx, Retry);
  std::optional<Mismatch> Why;
  if (!RetryWhy)
    CS = std::move(Retry);
  else if (RetryWhy->Kind != RefusalKind::NotTryLockLoop)
    Why = std::move(RetryWhy);
  else
    Why = matchSingle(Cond, Body, Ctx, CS);
  if (Why) {
    CriticalSection Nested;
    Nested.Loop = Loop;
    std::optional<Mismatch> NestedWhy = matchNested(Cond, Body, Ctx, Nested);
    if (!NestedWhy) {
      CS = std::move(Nested);
      Why.reset();
    } else if (Why->Kind == RefusalKind::NotTryLockLoop &&
               Why->Message.empty()) {
      // Not Listing 4.1 at all: what Listing 4.3 found says more.
      Why = std::move(NestedWhy);
    }
  }
  if (Why && Why->Kind == RefusalKind::NotTryLockLoop && Why->Message.empty()) {
    // A spin lock is a lock too: say so, and how to write it.
    const bool TriesLock = any_of(statements(Body), [&](const Stmt *S) {
      const auto *If = dyn_cast<IfStmt>(S);
      const VarDecl *Assigned;
      LockRef Tried;
      return If && matchTryLock(tryOfCondition(If->getCond(), Assigned),
                                Substitution(), Ctx, Tried);
    });
    if (TriesLock)
      Why->Kind = RefusalKind::UnknownLockLoop;
    if (LockRef L; matchBusyLock(Cond, Ctx, L)) {
      Why->Kind = RefusalKind::SpinLock;
      Why->Message =
          "a spin lock: the loop only waits for the lock, and the critical "
          "section follows it; only try-lock loops are delegated (written "
          "as Listing 4.1, do { if (try_lock(L)) { ...; __threadfence(); "
          "unlock(L); done = true; } } while (!done), it would be)";
    }
  }
  if (Why) {
    if (Why->Message.empty())
      Why->Message =
          "not a try-lock loop (Listing 4.1: do { if (try_lock(L)) { ...; "
          "__threadfence(); unlock(L); done = true; } } while (!done), "
          "Listing 4.3's two nested locks, or two locks with release and "
          "retry)";
    return Refusal{Why->Kind, Loop->getBeginLoc(), std::move(Why->Message)};
  }

  // A try-lock loop in a lambda or a local class is in another function,
  // whose parameters and captures the outlining does not see.
  if (const Decl *In = enclosingFunctionOf(Loop, Ctx); In && In != &Function) {
    Refusal R{RefusalKind::SectionShape, Loop->getBeginLoc(),
              "the critical section is in a lambda or a local class's "
              "function inside the kernel; the delegate pass outlines "
              "sections of the kernel's own body"};
    R.Notes.push_back({In->getLocation(), "that function starts here"});
    return R;
  }

  // The data ids first (every lock index), then what the body reads.
  for (const LockRef &L : CS.Locks) {
    addReads(L.Index, CS);
    addReads(L.Array, CS);
  }
  BodyChecker Check(CS, Ctx.getSourceManager());
  for (const Stmt *S : CS.Body) {
    Check.TraverseStmt(const_cast<Stmt *>(S));
    if (Check.Problem)
      return *Check.Problem;
  }
  // The message carries the flag's value before the loop (false); in the
  // original the condition has set it by the time the section runs.
  if (CS.FlagInCondition) {
    const VarDecl *Flag = CS.Flags.front();
    if (SourceLocation Use = firstUse(Flag, CS.Body, SourceLocation());
        Use.isValid())
      return Refusal{RefusalKind::SectionShape, Use,
                     "the critical section reads '" + Flag->getName().str() +
                         "', which the try-lock's condition sets: on the "
                         "server it would still read as before the loop"};
  }
  const SourceManager &SM = Ctx.getSourceManager();
  for (const BodyChecker::Write &W : Check.Written) {
    if (!usedOutside(W.Var, Loop->getSourceRange(), Function, SM))
      continue;
    const std::string V = W.Var->getName().str();
    // A plain local comes back in the reply (the client waits for it); the
    // server works on its copy, which starts as the client's value.
    QualType T = W.Var->getType();
    if (!isa<ParmVarDecl>(W.Var) && !T->isArrayType() && !holdsPointer(T) &&
        T.isTriviallyCopyableType(Ctx)) {
      addInput(W.Var, CS);
      if (!is_contained(CS.Replies, W.Var))
        CS.Replies.push_back(W.Var);
      continue;
    }
    if (W.How.empty())
      return Refusal{
          RefusalKind::ServerCannotRun, W.Loc,
          "the critical section writes '" + V +
              "', which the kernel uses outside it; only a local of the "
              "client that is no parameter, array or pointer can come back "
              "in the server's reply"};
    std::string How = W.How;
    How.replace(How.find('%'), 1, "'" + V + "'");
    return Refusal{
        RefusalKind::ServerCannotRun, W.Loc,
        "the critical section " + How +
            ", a local of the client that the kernel uses outside it; on "
            "the server that is the server thread's copy, and the "
            "client's '" +
            V +
            "' would not change (only a local that is no parameter, "
            "array or pointer comes back in the reply)"};
  }

  // What the message carries must mean the same on the server: a pointer
  // into the client thread's locals or its block's shared memory does not.
  PointerOrigins Pointers(Function);
  for (const ValueDecl *D : CS.Message) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !holdsPointer(V->getType()))
      continue;
    const SourceLocation At = firstUse(V, CS.Body, Loop->getBeginLoc());
    const std::string Name = V->getName().str();
    if (!V->getType()->isPointerType())
      return Refusal{
          RefusalKind::ServerCannotRun, At,
          "the critical section reads '" + Name +
              "', which holds a pointer the delegate pass does not follow; "
              "it could address the client thread's locals or its block's "
              "shared memory, which the server cannot reach"};
    Origins O = Pointers.of(V);
    if (O.Local) {
      Refusal R{
          RefusalKind::ServerCannotRun, At,
          "the critical section uses '" + Name + "', which may point to '" +
              O.Local->getName().str() +
              "', a local of the client; on the server it would address the "
              "server thread's own memory"};
      R.Notes.push_back({O.LocalAt, "'" + Name + "' may take the address of '" +
                                        O.Local->getName().str() + "' here"});
      return R;
    }
    if (O.Shared) {
      Refusal R{
          RefusalKind::ServerCannotRun, At,
          "the critical section uses '" + Name +
              "', which may point to shared memory ('" +
              O.Shared->getName().str() +
              "'); on the server it would address the server block's shared "
              "memory, which holds its lock table"};
      R.Notes.push_back(
          {O.SharedAt, "'" + Name + "' may take this address here"});
      return R;
    }
    if (O.Unknown) {
      Refusal R{RefusalKind::ServerCannotRun, At,
                "the critical section uses '" + Name +
                    "', a pointer of an origin the delegate pass cannot "
                    "follow; it could "
                    "address the client thread's locals or its block's shared "
                    "memory, "
                    "which the server cannot reach"};
      R.Notes.push_back(
          {O.Unknown->getBeginLoc(), "'" + Name + "' may be set from this"});
      return R;
    }
  }
  return CS;
}

} // namespace decoupler
