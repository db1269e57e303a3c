//===- split/SplitPlan.cpp - Slicing and costing one decoupled loop -------===//
//
// The facts come from two places: the affine analysis (the class and thread
// strides of every address and condition) and a few syntactic questions the
// analysis does not answer (does a value depend on blockIdx, on a load, on a
// loop's induction; how an index changes from one iteration to the next),
// answered here by following the definitions of the kernel's locals.
//
//===----------------------------------------------------------------------===//
#include "split/SplitPlan.h"

#include "split/SplitModel.h"
#include "support/Allocations.h"
#include "support/Callees.h"
#include "support/CudaFacts.h"
#include "support/MemoryRoots.h"
#include "support/SourceText.h"
#include "support/ThreadOrder.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <functional>
#include <map>

using namespace clang;
using namespace llvm;

namespace decoupler::split {

namespace {

using CM = CostModel;

//===----------------------------------------------------------------------===//
// Small syntactic helpers
//===----------------------------------------------------------------------===//

void forEachStmt(const Stmt *S, const std::function<void(const Stmt *)> &Fn) {
  if (!S)
    return;
  Fn(S);
  for (const Stmt *C : S->children())
    forEachStmt(C, Fn);
}

/// The memory lvalue an rvalue reads, when \p E is a load from memory.
const Expr *loadedLValue(const Stmt *S) {
  const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
  if (!ICE || ICE->getCastKind() != CK_LValueToRValue)
    return nullptr;
  const Expr *Sub = ICE->getSubExpr()->IgnoreParens();
  if (isa<ArraySubscriptExpr>(Sub))
    return Sub;
  if (const auto *U = dyn_cast<UnaryOperator>(Sub);
      U && U->getOpcode() == UO_Deref)
    return Sub;
  if (const auto *M = dyn_cast<MemberExpr>(Sub); M && M->isArrow())
    return Sub;
  return nullptr;
}

bool isMemoryLValue(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref;
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() || isMemoryLValue(M->getBase());
  return false;
}

const VarDecl *refVar(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// The statement around \p S, looking through declarations (the parent of
/// an initializer is its VarDecl, whose parent is the DeclStmt).
const Stmt *parentOfNode(ASTContext &Ctx, const DynTypedNode &N) {
  DynTypedNodeList Parents = Ctx.getParents(N);
  if (Parents.empty())
    return nullptr;
  if (const Stmt *P = Parents[0].get<Stmt>())
    return P;
  if (const Decl *D = Parents[0].get<Decl>(); D && !isa<FunctionDecl>(D))
    return parentOfNode(Ctx, Parents[0]);
  return nullptr;
}

const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S) {
  return parentOfNode(Ctx, DynTypedNode::create(*S));
}

std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(S->getSourceRange());
  return Lexer::getSourceText(
             Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts()), SM,
             Ctx.getLangOpts())
      .str();
}

std::string lineOf(const Stmt *S, const ASTContext &Ctx) {
  return std::to_string(
      Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc()));
}

//===----------------------------------------------------------------------===//
// Definitions of the kernel's locals
//===----------------------------------------------------------------------===//

struct Def {
  const Expr *Value = nullptr; // null: ++/--, or a compound assignment's
                               // old value (recorded as the variable itself)
  const Stmt *At = nullptr;
  bool IsInit = false;
};

class KernelFacts {
public:
  KernelFacts(const FunctionDecl &Kernel, ASTContext &Ctx) : Ctx(Ctx) {
    forEachStmt(Kernel.getBody(), [&](const Stmt *S) { record(S); });
  }

  ArrayRef<Def> defs(const VarDecl *V) const {
    auto It = Defs.find(V);
    return It == Defs.end() ? ArrayRef<Def>() : ArrayRef<Def>(It->second);
  }
  bool addressTaken(const VarDecl *V) const { return AddressTaken.contains(V); }

  /// A local defined once, by its initializer.
  const Expr *singleInit(const VarDecl *V) const {
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || addressTaken(V))
      return nullptr;
    ArrayRef<Def> D = defs(V);
    if (D.size() != 1 || !D[0].IsInit)
      return nullptr;
    return D[0].Value;
  }

  /// True when \p S is inside \p Outer (source position).
  bool inside(const Stmt *Outer, SourceLocation Loc) const {
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation B = SM.getExpansionLoc(Outer->getBeginLoc());
    SourceLocation E = SM.getExpansionLoc(Outer->getEndLoc());
    Loc = SM.getExpansionLoc(Loc);
    return !SM.isBeforeInTranslationUnit(Loc, B) &&
           !SM.isBeforeInTranslationUnit(E, Loc);
  }

  /// The first memory load \p E depends on (through locals), or null.
  const Expr *loadIn(const Expr *E) const {
    DenseSet<const VarDecl *> Seen;
    return loadIn(E, Seen);
  }

  /// Whether \p E depends on blockIdx (through locals and loaded values).
  bool dependsOnBlockIdx(const Expr *E) const {
    DenseSet<const VarDecl *> Seen;
    return blockIdxIn(E, Seen);
  }

  /// Whether \p E may change from one iteration of \p Loop to the next.
  bool variesIn(const Expr *E, const Stmt *Loop) const {
    DenseSet<const VarDecl *> Seen;
    return varies(E, Loop, Seen);
  }

private:
  ASTContext &Ctx;
  DenseMap<const VarDecl *, std::vector<Def>> Defs;
  DenseSet<const VarDecl *> AddressTaken;

  void record(const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
          Defs[V].push_back({V->getInit(), DS, true});
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (!BO->isAssignmentOp())
        return;
      if (const VarDecl *V = refVar(BO->getLHS())) {
        Defs[V].push_back({BO->getRHS(), BO, false});
        if (BO->isCompoundAssignmentOp())
          Defs[V].push_back({nullptr, BO, false});
      }
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp()) {
        if (const VarDecl *V = refVar(UO->getSubExpr()))
          Defs[V].push_back({nullptr, UO, false});
      } else if (UO->getOpcode() == UO_AddrOf) {
        if (const VarDecl *V = refVar(UO->getSubExpr()))
          AddressTaken.insert(V);
      }
    }
  }

  const Expr *loadIn(const Stmt *S, DenseSet<const VarDecl *> &Seen) const {
    if (!S)
      return nullptr;
    if (const Expr *LV = loadedLValue(S))
      return LV;
    if (const auto *E = dyn_cast<Expr>(S))
      if (const VarDecl *V = refVar(E);
          V && isa<DeclRefExpr>(E->IgnoreParens()))
        if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
            Seen.insert(V).second) {
          if (addressTaken(V))
            return E;
          for (const Def &D : defs(V))
            if (const Expr *L = loadIn(D.Value, Seen))
              return L;
        }
    for (const Stmt *C : S->children())
      if (const Expr *L = loadIn(C, Seen))
        return L;
    return nullptr;
  }

  bool blockIdxIn(const Stmt *S, DenseSet<const VarDecl *> &Seen) const {
    if (!S)
      return false;
    if (const auto *E = dyn_cast<Expr>(S))
      if (std::optional<std::string> B = cudaBuiltinName(E))
        return StringRef(*B).starts_with("blockIdx.");
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const ValueDecl *D = DRE->getDecl();
      if (const auto *V = dyn_cast<VarDecl>(D);
          V && isCudaBuiltinVariable(V) && V->getName() == "blockIdx")
        return true;
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
            Seen.insert(V).second)
          for (const Def &Df : defs(V))
            if (blockIdxIn(Df.Value, Seen))
              return true;
      return false;
    }
    for (const Stmt *C : S->children())
      if (blockIdxIn(C, Seen))
        return true;
    return false;
  }

  /// True when \p S is in the body, condition or increment of a loop
  /// nested in \p Loop (runs several times per iteration of \p Loop); the
  /// init of a nested 'for' runs once per iteration and does not count.
  bool nestedIn(const Stmt *Loop, const Stmt *S) const {
    const Stmt *Child = S;
    while (Child != Loop) {
      const Stmt *Parent = parentStmt(Ctx, Child);
      if (!Parent)
        return false;
      if (Parent != Loop &&
          isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Parent)) {
        const auto *FS = dyn_cast<ForStmt>(Parent);
        if (!FS || FS->getInit() != Child)
          return true;
      }
      Child = Parent;
    }
    return false;
  }

  /// A variable varies in \p Loop when it is assigned at the loop's own level,
  /// declared in it from a varying value, or updated in a nested loop without
  /// being re-initialized in \p Loop (the nested loop's counter, re-set each
  /// iteration, does not make \p Loop's addresses change).
  bool varies(const Stmt *S, const Stmt *Loop,
              DenseSet<const VarDecl *> &Seen) const {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V || !V->hasLocalStorage() || !Seen.insert(V).second)
        return false;
      if (addressTaken(V))
        return true;
      bool Reinitialized = false, NestedUpdate = false;
      for (const Def &D : defs(V)) {
        if (!inside(Loop, D.At->getBeginLoc()))
          continue;
        if (D.IsInit) {
          if (varies(D.Value, Loop, Seen))
            return true;
          Reinitialized = true;
          continue;
        }
        if (!nestedIn(Loop, D.At))
          return true;
        NestedUpdate = true;
      }
      return NestedUpdate && !Reinitialized;
    }
    for (const Stmt *C : S->children())
      if (varies(C, Loop, Seen))
        return true;
    return false;
  }
};

//===----------------------------------------------------------------------===//
// Integer polynomials over the kernel's variables, for index arithmetic
//===----------------------------------------------------------------------===//

/// A sum of integer multiples of products of atoms (locals that are not
/// single definitions, parameters, blockIdx.x, ...). Invalid when an index
/// is not a polynomial (a division, a call, a load).
class Poly {
public:
  using Monomial = std::vector<std::string>; // sorted atom keys
  static Poly constant(int64_t C) {
    Poly P;
    if (C)
      P.Terms[{}] = C;
    return P;
  }
  static Poly atom(std::string Key) {
    Poly P;
    P.Terms[{std::move(Key)}] = 1;
    return P;
  }
  static Poly invalid() {
    Poly P;
    P.Valid = false;
    return P;
  }
  bool valid() const { return Valid; }
  /// Whether the value is >= 0 for every thread whatever the kernel's
  /// arguments: a sum of non-negative multiples of products of CUDA
  /// builtins (threadIdx, blockIdx, blockDim, gridDim; a variable's atom
  /// has an '@' in its key) and a non-negative constant.
  bool nonNegativeOverBuiltins() const {
    if (!Valid)
      return false;
    for (const auto &[M, C] : Terms) {
      if (C < 0)
        return false;
      for (const std::string &A : M)
        if (A.find('@') != std::string::npos)
          return false;
    }
    return true;
  }
  std::optional<int64_t> asConstant() const {
    if (!Valid)
      return std::nullopt;
    if (Terms.empty())
      return 0;
    if (Terms.size() == 1 && Terms.begin()->first.empty())
      return Terms.begin()->second;
    return std::nullopt;
  }
  friend Poly operator+(const Poly &A, const Poly &B) {
    if (!A.Valid || !B.Valid)
      return invalid();
    Poly R = A;
    for (const auto &[M, C] : B.Terms)
      R.addTerm(M, C);
    return R;
  }
  friend Poly operator*(const Poly &A, const Poly &B) {
    if (!A.Valid || !B.Valid)
      return invalid();
    Poly R;
    for (const auto &[MA, CA] : A.Terms)
      for (const auto &[MB, CB] : B.Terms) {
        Monomial M = MA;
        M.insert(M.end(), MB.begin(), MB.end());
        llvm::sort(M);
        R.addTerm(M, CA * CB);
      }
    return R;
  }
  friend Poly operator-(const Poly &A) { return A * constant(-1); }
  friend Poly operator-(const Poly &A, const Poly &B) { return A + (-B); }
  friend bool operator==(const Poly &A, const Poly &B) {
    return A.Valid && B.Valid && A.Terms == B.Terms;
  }

  /// d/d(Atom); invalid when the atom appears squared.
  Poly derivative(const std::string &Atom) const {
    if (!Valid)
      return invalid();
    Poly R;
    for (const auto &[M, C] : Terms) {
      auto N = llvm::count(M, Atom);
      if (N == 0)
        continue;
      if (N > 1)
        return invalid();
      Monomial Rest;
      for (const std::string &A : M)
        if (A != Atom)
          Rest.push_back(A);
      R.addTerm(Rest, C);
    }
    return R;
  }

  /// The value with every atom given by \p Value (nullopt: unknown).
  std::optional<int64_t> evaluate(
      const std::function<std::optional<int64_t>(const std::string &)> &Value)
      const {
    if (!Valid)
      return std::nullopt;
    int64_t Sum = 0;
    for (const auto &[M, C] : Terms) {
      int64_t Prod = C;
      for (const std::string &A : M) {
        std::optional<int64_t> V = Value(A);
        if (!V)
          return std::nullopt;
        Prod *= *V;
      }
      Sum += Prod;
    }
    return Sum;
  }

private:
  std::map<Monomial, int64_t> Terms;
  bool Valid = true;

  void addTerm(const Monomial &M, int64_t C) {
    int64_t &Slot = Terms[M];
    Slot += C;
    if (!Slot)
      Terms.erase(M);
  }
};

std::string atomKey(const VarDecl *V) {
  std::string Key;
  raw_string_ostream OS(Key);
  OS << V->getName() << "@" << static_cast<const void *>(V);
  return Key;
}

Poly linearize(const Expr *E, const KernelFacts &F, const ASTContext &Ctx,
               unsigned Depth = 0) {
  if (!E || Depth > 16)
    return Poly::invalid();
  E = E->IgnoreParens();
  if (std::optional<std::string> B = cudaBuiltinName(E))
    return Poly::atom(*B);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getType()->isIntegerType() &&
        Cast->getSubExpr()->getType()->isIntegerType())
      return linearize(Cast->getSubExpr(), F, Ctx, Depth + 1);
    if (Cast->getCastKind() == CK_LValueToRValue ||
        Cast->getCastKind() == CK_NoOp)
      return linearize(Cast->getSubExpr(), F, Ctx, Depth + 1);
    return Poly::invalid();
  }
  if (!E->isValueDependent() && E->getType()->isIntegerType()) {
    Expr::EvalResult R;
    // A name folds when it cannot change: an enumerator, a const variable.
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const VarDecl *RefVar = Ref ? refVar(E) : nullptr;
    if (!Ref || isa<EnumConstantDecl>(Ref->getDecl()) ||
        (RefVar && RefVar->getType().isConstQualified()))
      if (E->EvaluateAsInt(R, Ctx))
        return Poly::constant(R.Val.getInt().getExtValue());
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return Poly::invalid();
    if (const Expr *Init = F.singleInit(V))
      return linearize(Init, F, Ctx, Depth + 1);
    return Poly::atom(atomKey(V));
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    Poly L = linearize(BO->getLHS(), F, Ctx, Depth + 1);
    Poly R = linearize(BO->getRHS(), F, Ctx, Depth + 1);
    switch (BO->getOpcode()) {
    case BO_Add:
      return L + R;
    case BO_Sub:
      return L - R;
    case BO_Mul:
      return L * R;
    case BO_Shl:
      if (std::optional<int64_t> C = R.asConstant(); C && *C >= 0 && *C < 62)
        return L * Poly::constant(int64_t(1) << *C);
      return Poly::invalid();
    default:
      return Poly::invalid();
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus)
      return -linearize(UO->getSubExpr(), F, Ctx, Depth + 1);
    if (UO->getOpcode() == UO_Plus)
      return linearize(UO->getSubExpr(), F, Ctx, Depth + 1);
  }
  return Poly::invalid();
}

/// Element index of a memory lvalue relative to its base pointer variable:
/// p[i] -> i, *(p + i) -> i. Invalid when the base is not a plain variable.
Poly indexOf(const Expr *LV, const KernelFacts &F, const ASTContext &Ctx) {
  LV = LV->IgnoreParens();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LV)) {
    if (!refVar(AS->getBase()))
      return Poly::invalid();
    return linearize(AS->getIdx(), F, Ctx);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(LV);
      UO && UO->getOpcode() == UO_Deref) {
    const Expr *P = UO->getSubExpr()->IgnoreParenImpCasts();
    if (refVar(P))
      return Poly::constant(0);
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->isAdditiveOp() && refVar(BO->getLHS()))
      return BO->getOpcode() == BO_Add ? linearize(BO->getRHS(), F, Ctx)
                                       : -linearize(BO->getRHS(), F, Ctx);
  }
  return Poly::invalid();
}

//===----------------------------------------------------------------------===//
// Accesses of the loop
//===----------------------------------------------------------------------===//

enum class Space { Global, Shared, Local };

struct Access {
  const Expr *LV = nullptr; // the memory lvalue
  const Stmt *At = nullptr; // the expression reading or writing it
  const ValueDecl *Root = nullptr;
  bool RootUnknown = false;
  Space Where = Space::Global;
  AffineValue Address;
  unsigned ElemBytes = 0;
  Poly Index = Poly::invalid();
};

const ValueDecl *syntacticRoot(const Expr *E, const KernelFacts &F,
                               unsigned Depth = 0) {
  if (Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return syntacticRoot(AS->getBase(), F, Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return syntacticRoot(UO->getSubExpr(), F, Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return syntacticRoot(ME->getBase(), F, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getLHS()->getType()->isPointerType())
      return syntacticRoot(BO->getLHS(), F, Depth + 1);
    if (BO->getRHS()->getType()->isPointerType())
      return syntacticRoot(BO->getRHS(), F, Depth + 1);
    return nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && V->getType()->isPointerType())
      if (const Expr *Init = F.singleInit(V))
        return syntacticRoot(Init, F, Depth + 1);
    return DRE->getDecl();
  }
  return nullptr;
}

Access makeAccess(const Expr *LV, const Stmt *At, const KernelAnalysis &K,
                  const KernelFacts &F, const ASTContext &Ctx) {
  Access A;
  A.LV = LV;
  A.At = At;
  A.Address = K.addressOf(LV);
  A.Root = A.Address.root();
  if (!A.Root)
    A.Root = syntacticRoot(LV, F);
  A.RootUnknown = !A.Root;
  if (const auto *V = dyn_cast_or_null<VarDecl>(A.Root)) {
    if (V->hasAttr<CUDASharedAttr>())
      A.Where = Space::Shared;
    else if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
             !V->getType()->isPointerType())
      A.Where = Space::Local;
  }
  QualType T = LV->getType();
  if (!T->isIncompleteType() && !T->isDependentType())
    A.ElemBytes = Ctx.getTypeSizeInChars(T).getQuantity();
  A.Index = indexOf(LV, F, Ctx);
  return A;
}

/// Loads and stores under \p S.
void collectAccesses(const Stmt *S, const KernelAnalysis &K,
                     const KernelFacts &F, const ASTContext &Ctx,
                     std::vector<Access> &Loads, std::vector<Access> &Stores) {
  forEachStmt(S, [&](const Stmt *N) {
    if (const Expr *LV = loadedLValue(N)) {
      Loads.push_back(makeAccess(LV, N, K, F, Ctx));
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(N)) {
      if (BO->isAssignmentOp() && isMemoryLValue(BO->getLHS())) {
        Stores.push_back(
            makeAccess(BO->getLHS()->IgnoreParens(), BO, K, F, Ctx));
        if (BO->isCompoundAssignmentOp())
          Loads.push_back(
              makeAccess(BO->getLHS()->IgnoreParens(), BO, K, F, Ctx));
      }
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(N)) {
      if (UO->isIncrementDecrementOp() && isMemoryLValue(UO->getSubExpr())) {
        Stores.push_back(
            makeAccess(UO->getSubExpr()->IgnoreParens(), UO, K, F, Ctx));
        Loads.push_back(
            makeAccess(UO->getSubExpr()->IgnoreParens(), UO, K, F, Ctx));
      }
      return;
    }
    // A call may write through any pointer it is given (atomics included).
    if (const auto *CE = dyn_cast<CallExpr>(N)) {
      for (const Expr *Arg : CE->arguments()) {
        QualType T = Arg->getType();
        if (!T->isPointerType() || T->getPointeeType().isConstQualified())
          continue;
        Access A;
        A.At = CE;
        A.LV = Arg;
        A.Root = syntacticRoot(Arg, F);
        A.RootUnknown = !A.Root;
        Stores.push_back(A);
      }
      // And the function, or what it calls, may write globals: thread 0's
      // fill_row() before the loop writes the streamed global table.
      const MemoryRootSet Written = writtenByCallee(CE);
      auto Store = [&](const VarDecl *Root) {
        Access A;
        A.At = CE;
        A.LV = CE;
        A.Root = Root;
        A.RootUnknown = !Root;
        Stores.push_back(A);
      };
      if (Written.Unknown)
        Store(nullptr);
      for (const VarDecl *V : Written.Vars)
        if (!V->hasLocalStorage())
          Store(V);
    }
  });
}

bool isRestrict(const ValueDecl *D) {
  return D && D->getType().isRestrictQualified();
}

/// May a write to \p Store change what \p Load reads? With \p Promise (an
/// annotated loop), distinct named objects do not alias; without it, only
/// when one of them is __restrict__ or they are distinct arrays.
bool mayAlias(const Access &Store, const Access &Load, bool Promise) {
  if (Store.RootUnknown || Load.RootUnknown)
    return true;
  if (Store.Root == Load.Root)
    return true;
  // A thread's own array or the block's __shared__ one (a named object, not
  // a pointer) is never where a pointer parameter points: the kernel's
  // arguments were fixed before either existed. (ggml's mul_mat_vec keeps
  // its sums in `float sumf[ncols_dst]` and streams a parameter's rows.)
  auto ObjectAgainstParam = [](const Access &Object, const Access &Param) {
    return Object.Where != Space::Global &&
           isa_and_nonnull<ParmVarDecl>(Param.Root) &&
           Param.Root->getType()->isPointerType();
  };
  if (ObjectAgainstParam(Store, Load) || ObjectAgainstParam(Load, Store))
    return false;
  if (Promise)
    return false;
  if (isRestrict(Store.Root) || isRestrict(Load.Root))
    return false;
  auto IsArray = [](const ValueDecl *D) { return D->getType()->isArrayType(); };
  return !(IsArray(Store.Root) && IsArray(Load.Root));
}

//===----------------------------------------------------------------------===//
// Launches: the block size
//===----------------------------------------------------------------------===//

std::optional<int64_t> evalInt(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  return std::nullopt;
}

/// Threads per block of a launch configuration argument (an integer or a
/// dim3), when it is a compile-time constant.
std::optional<int64_t> blockThreads(const Expr *E, const ASTContext &Ctx,
                                    unsigned Depth = 0) {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    return blockThreads(FC->getSubExpr(), Ctx, Depth + 1);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return blockThreads(MT->getSubExpr(), Ctx, Depth + 1);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 1 && CE->getArg(0)->getType()->isRecordType())
      return blockThreads(CE->getArg(0), Ctx, Depth + 1); // copy of a dim3
    int64_t Product = 1;
    for (const Expr *Arg : CE->arguments()) {
      std::optional<int64_t> V = evalInt(Arg, Ctx);
      if (!V)
        return std::nullopt;
      Product *= *V;
    }
    return Product;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->getType()->isRecordType() && V->getInit())
        return blockThreads(V->getInit(), Ctx, Depth + 1);
  if (E->getType()->isIntegerType())
    return evalInt(E, Ctx);
  return std::nullopt;
}

struct BlockSize {
  std::optional<int64_t> Threads; // every launch agrees on this constant
  const Expr *Bad = nullptr; // a launch whose block is not a multiple of 32
  int64_t BadThreads = 0;
};

BlockSize launchBlockSize(const FunctionDecl *Kernel, ASTContext &Ctx) {
  BlockSize Result;
  bool Unknown = false, Any = false;
  const FunctionDecl *Canon = Kernel->getCanonicalDecl();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->hasBody())
      continue;
    forEachStmt(FD->getBody(), [&](const Stmt *S) {
      const auto *Call = dyn_cast<CUDAKernelCallExpr>(S);
      if (!Call || !Call->getDirectCallee() ||
          Call->getDirectCallee()->getCanonicalDecl() != Canon)
        return;
      const CallExpr *Config = Call->getConfig();
      std::optional<int64_t> T = Config && Config->getNumArgs() > 1
                                     ? blockThreads(Config->getArg(1), Ctx)
                                     : std::nullopt;
      if (!T) {
        Unknown = true;
        return;
      }
      if (*T % 32 && !Result.Bad) {
        Result.Bad = Config->getArg(1);
        Result.BadThreads = *T;
      }
      if (Any && Result.Threads != T)
        Unknown = true;
      Any = true;
      Result.Threads = T;
    });
  }
  if (Unknown)
    Result.Threads.reset();
  return Result;
}

uint64_t staticSharedBytes(const FunctionDecl *Kernel, const ASTContext &Ctx) {
  uint64_t Bytes = 0;
  forEachStmt(Kernel->getBody(), [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->hasAttr<CUDASharedAttr>() &&
              !V->getType()->isIncompleteType() &&
              !V->getType()->isDependentType())
            Bytes += Ctx.getTypeSizeInChars(V->getType()).getQuantity();
  });
  return Bytes;
}

//===----------------------------------------------------------------------===//
// The planner
//===----------------------------------------------------------------------===//

/// Every place where \p S, or a function it calls (by the call), waits for
/// or publishes to other threads: a volatile read, a fence, an atomic whose
/// value is used or that swaps (a lock, a flag, a ticket), an atomic
/// object's load or wait, an atomic that releases, a grid barrier, inline
/// assembly. What such code reads after it may be written by another thread
/// before it, so no warp may read it ahead.
std::vector<std::pair<const Stmt *, std::string>>
findSynchronization(const Stmt *S, ASTContext &Ctx,
                    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Ctx;
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen;
    std::vector<std::pair<const Stmt *, std::string>> Found;
    Finder(ASTContext &Ctx, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen)
        : Ctx(Ctx), Seen(Seen) {}
    bool found(const Stmt *At, const std::string &What) {
      Found.push_back({At, What});
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
      if (C->getCastKind() == CK_LValueToRValue &&
          C->getSubExpr()->getType().isVolatileQualified())
        return found(C, "a volatile read of '" +
                            sourceText(C->getSubExpr(), Ctx) + "'");
      return true;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *A) { return found(A, "inline assembly"); }
    bool VisitCallExpr(CallExpr *C) {
      // A call through a pointer or a virtual call decided at run time is
      // declined by the rewrite (SplitRewrite: checkKernel, usesBlock).
      const FunctionDecl *F = calledFunction(C);
      if (!F)
        return true;
      const std::string Name = callName(C);
      if (cudaSync(C) == SyncKind::Fence || ordersForOtherBlocks(C))
        return found(C, "'" + Name + "'");
      if (std::optional<AtomicCall> A = cudaAtomic(C))
        if (A->Operation == AtomicCall::Op::CAS ||
            A->Operation == AtomicCall::Op::Exch || !resultUnused(Ctx, C))
          return found(C, "'" + Name + "', whose value is used");
      if (const auto *M = dyn_cast<CXXMethodDecl>(F);
          M && M->getParent()->getIdentifier() &&
          M->getParent()->getName().contains("atomic") &&
          Ctx.getSourceManager().isInSystemHeader(
              Ctx.getSourceManager().getExpansionLoc(M->getLocation())))
        return found(C, "an atomic object's '" + Name + "'");
      if (StringRef(Name).starts_with("__nv_atomic_"))
        return found(C, "'" + Name + "'");
      const FunctionDecl *Def = nullptr;
      if (F->hasBody(Def) && Seen.insert(Def).second)
        if (auto Inner = findSynchronization(Def->getBody(), Ctx, Seen);
            !Inner.empty())
          return found(C, Inner.front().second + " in '" + Name + "'");
      return true;
    }
  } F(Ctx, Seen);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

class Planner {
public:
  Planner(const Stmt *Loop, const KernelAnalysis &K, ASTContext &Ctx,
          const PlanOptions &Options)
      : Loop(Loop), K(K), Ctx(Ctx), Options(Options), F(*K.Kernel, Ctx) {
    P.Loop = Loop;
    P.Kernel = K.Kernel;
  }

  LoopPlan run() {
    if (checkKernelShape() && checkLoopControl() && checkGuards() &&
        checkExits() && checkSynchronization() && chooseStreams() &&
        checkWrites() && checkBlock() && shape())
      cost();
    return std::move(P);
  }

private:
  const Stmt *Loop;
  const KernelAnalysis &K;
  ASTContext &Ctx;
  const PlanOptions &Options;
  KernelFacts F;
  LoopPlan P;

  // Loop control.
  const VarDecl *IV = nullptr;
  Poly Init = Poly::invalid(), Bound = Poly::invalid(), Step = Poly::invalid();
  bool Inclusive = false;
  std::vector<Access> Loads, Stores;
  std::vector<unsigned> StreamLoads; // indices into Loads
  std::vector<bool> Covered;         // per load: brings no new bytes
  std::map<std::pair<const ParmVarDecl *, const ParmVarDecl *>,
           std::optional<std::string>>
      Distinct;                     // distinctBuffers(), per pair of parameters
  std::optional<ThreadOrder> Order; // order(), built on first use

  bool refuse(const Twine &Reason, SourceLocation Loc = SourceLocation()) {
    P.Result = Outcome::Refused;
    P.Reason = Reason.str();
    P.ReasonLoc = Loc.isValid() ? Loc : Loop->getBeginLoc();
    return false;
  }
  bool decline(const Twine &Reason) {
    P.Result = Outcome::Declined;
    P.Declines.push_back(Reason.str());
    P.Reason = join(P.Declines, "; ");
    P.ReasonLoc = Loop->getBeginLoc();
    return false;
  }

  /// The class of a value or condition (nonaffine when never reached).
  AffineValue classOf(const Expr *E) const {
    for (const Expr *X : {E, E->IgnoreParenImpCasts()}) {
      if (auto It = K.Conditions.find(X); It != K.Conditions.end())
        return It->second;
      if (auto It = K.Values.find(X); It != K.Values.end())
        return It->second;
    }
    return AffineValue::nonAffine();
  }

  std::string text(const Stmt *S) const { return sourceText(S, Ctx); }

  /// Refuses when \p E (loop control) depends on a value loaded from memory.
  bool checkNoLoad(const Expr *E, StringRef What) {
    if (!E)
      return true;
    if (const Expr *L = F.loadIn(E))
      return refuse(
          "the " + What + " is computed from a value loaded from memory ('" +
              text(L) + "'); the producer warp cannot run ahead of it",
          L->getBeginLoc());
    return true;
  }

  /// What the split kernel cannot keep as written, wherever it is in the
  /// kernel: local types (the producer's copy of the address arithmetic
  /// comes before their declaration), cooperative groups (block-wide sizes,
  /// ranks and collectives that would count the producer warp), blockDim
  /// used whole (only its components are renumbered for the consumers), and
  /// an overloaded kernel (the launcher names the kernel alone).
  bool checkKernelShape() {
    const FunctionDecl *Kernel = K.Kernel;
    unsigned Overloads = 0;
    for (const NamedDecl *D :
         Kernel->getDeclContext()->lookup(Kernel->getDeclName()))
      Overloads +=
          isa<FunctionDecl, FunctionTemplateDecl>(D->getUnderlyingDecl());
    if (Overloads > 1)
      return refuse("the kernel '" + Kernel->getNameAsString() +
                        "' is overloaded: the launcher could not name it alone",
                    Kernel->getLocation());
    struct Finder : RecursiveASTVisitor<Finder> {
      ASTContext &Ctx;
      std::string Why;
      SourceLocation Where;
      explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
      bool found(SourceLocation Loc, std::string Reason) {
        Where = Loc;
        Why = std::move(Reason);
        return false;
      }
      bool VisitTagDecl(TagDecl *D) {
        return found(D->getLocation(),
                     "the kernel declares a local type" +
                         (D->getIdentifier() ? " '" + D->getName().str() + "'"
                                             : std::string()) +
                         ", which the split kernel's producer warp would use "
                         "before its declaration");
      }
      bool VisitTypedefNameDecl(TypedefNameDecl *D) {
        return found(D->getLocation(),
                     "the kernel declares the local type '" +
                         D->getName().str() +
                         "', which the split kernel's producer warp would use "
                         "before its declaration");
      }
      /// A group of the whole block or more (thread_block, grid_group,
      /// ...): its sizes, ranks and collectives count the producer warp;
      /// a warp tile's (thread_block_tile) do not.
      static bool blockWide(QualType T) {
        T = T.getNonReferenceType();
        if (T->isPointerType())
          T = T->getPointeeType();
        return blockWideRecord(T->getAsCXXRecordDecl());
      }
      static bool blockWideRecord(const CXXRecordDecl *R) {
        return R && inCooperativeGroups(R) &&
               llvm::is_contained(
                   {StringRef("thread_block"), StringRef("grid_group"),
                    StringRef("multi_grid_group"), StringRef("cluster_group")},
                   R->getName());
      }
      bool groups(SourceLocation Loc, const NamedDecl *D) {
        return found(Loc, "the kernel uses cooperative groups' '" +
                              D->getNameAsString() +
                              "' on a group of the whole block or grid, whose "
                              "sizes, ranks and collectives would count the "
                              "producer warp");
      }
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        // blockDim whole: its type is the CUDA headers' builtin struct,
        // and no property access (blockDim.x) reads it.
        if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
          if (const auto *R = V->getType()->getAsCXXRecordDecl();
              R && R->getName() == "__cuda_builtin_blockDim_t" &&
              !ByComponent.count(E))
            return found(E->getBeginLoc(),
                         "the kernel uses 'blockDim' whole, not by "
                         "component: the split kernel's consumers would see "
                         "the producer warp's threads in it");
        return true;
      }
      // blockDim.x: a property access, visited before the name it reads.
      llvm::SmallPtrSet<const DeclRefExpr *, 8> ByComponent;
      bool VisitMSPropertyRefExpr(MSPropertyRefExpr *E) {
        const Expr *Base = E->getBaseExpr()->IgnoreParens();
        if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
          Base = O->getSourceExpr();
        if (const auto *D = dyn_cast_or_null<DeclRefExpr>(Base))
          ByComponent.insert(D);
        return true;
      }
      // A block's or grid's sync is checkSynchronization's, with its own
      // reason; a tile made from the block (tiled_partition) is the
      // consumers' own; the block's and thread's indices are unchanged.
      static bool allowed(StringRef Name) {
        return Name == "sync" || Name == "tiled_partition" ||
               Name == "this_thread_block" || Name == "group_index" ||
               Name == "thread_index";
      }
      bool VisitCallExpr(CallExpr *C) {
        const FunctionDecl *F = C->getDirectCallee();
        if (!F || isa<CXXMemberCallExpr>(C) || !inCooperativeGroups(F) ||
            !F->getIdentifier() || allowed(F->getName()))
          return true;
        // A static member (thread_block::size() is one): its class says.
        if (const auto *M = dyn_cast<CXXMethodDecl>(F)) {
          if (M->getName() == "meta_group_size" ||
              M->getName() == "meta_group_rank" ||
              blockWideRecord(M->getParent()))
            return groups(C->getBeginLoc(), M);
          return true;
        }
        if (F->getName() == "this_grid" || F->getName() == "this_multi_grid" ||
            F->getName() == "this_cluster")
          return groups(C->getBeginLoc(), F);
        for (const Expr *A : C->arguments())
          if (blockWide(A->getType()))
            return groups(C->getBeginLoc(), F);
        return true;
      }
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
        const CXXMethodDecl *M = C->getMethodDecl();
        if (!M || !inCooperativeGroups(M) || !M->getIdentifier() ||
            allowed(M->getName()))
          return true;
        // A tile's place among the block's warps counts the producer's.
        if (M->getName() == "meta_group_size" ||
            M->getName() == "meta_group_rank" ||
            blockWide(C->getImplicitObjectArgument()->getType()))
          return groups(C->getBeginLoc(), M);
        return true;
      }
    } Find(Ctx);
    Find.TraverseStmt(Kernel->getBody());
    if (!Find.Why.empty())
      return refuse(Find.Why, Find.Where);
    return true;
  }

  /// A comparison in \p Cond made in unsigned arithmetic of a signed value
  /// that may be negative (a parameter in it, a negative constant): a
  /// negative index wraps to a large one, so the threads that pass are not
  /// those of the comparison the split assumes (a prefix of the block, a
  /// trip count from the bounds). Null when there is none.
  const BinaryOperator *signedMayWrap(const Expr *Cond) {
    const BinaryOperator *Found = nullptr;
    forEachStmt(Cond, [&](const Stmt *S) {
      const auto *BO = dyn_cast<BinaryOperator>(S);
      if (Found || !BO || !BO->isComparisonOp() ||
          !BO->getLHS()->getType()->isUnsignedIntegerType())
        return;
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
        // Through the conversions, implicit or written, to the signed value.
        const Expr *E = Side->IgnoreParens();
        while (const auto *Cast = dyn_cast<CastExpr>(E)) {
          if (!Cast->getSubExpr()->getType()->isIntegerType())
            break;
          E = Cast->getSubExpr()->IgnoreParens();
        }
        if (!E->getType()->isSignedIntegerType())
          continue;
        // The induction variable: its initial value, then up by its step.
        if (IV && refVar(E) == IV) {
          std::optional<int64_t> StepValue = Step.asConstant();
          if (!Init.nonNegativeOverBuiltins() ||
              !(Step.nonNegativeOverBuiltins() ||
                (StepValue && *StepValue >= 0)))
            Found = BO;
          continue;
        }
        if (!linearize(E, F, Ctx).nonNegativeOverBuiltins())
          Found = BO;
      }
    });
    return Found;
  }

  bool checkLoopControl() {
    const auto *FS = dyn_cast<ForStmt>(Loop);
    if (!FS)
      return refuse(
          "only 'for' loops with an induction variable can be decoupled");
    // The induction variable and its initial value.
    const Expr *InitValue = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit())) {
      if (DS->isSingleDecl())
        if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl())) {
          IV = V;
          InitValue = V->getInit();
        }
    } else if (const auto *BO =
                   dyn_cast_or_null<BinaryOperator>(FS->getInit())) {
      if (BO->getOpcode() == BO_Assign) {
        IV = refVar(BO->getLHS());
        InitValue = BO->getRHS();
      }
    }
    if (!IV || !InitValue || !IV->getType()->isIntegerType())
      return refuse(
          "the loop has no integer induction variable initialized in its "
          "'for' header");
    // The step.
    const Expr *Inc = FS->getInc() ? FS->getInc()->IgnoreParens() : nullptr;
    const Expr *StepExpr = nullptr;
    bool Negative = false;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc)) {
      if (UO->isIncrementDecrementOp() && refVar(UO->getSubExpr()) == IV) {
        Step = Poly::constant(UO->isIncrementOp() ? 1 : -1);
        Negative = UO->isDecrementOp();
      }
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc)) {
      if (refVar(BO->getLHS()) == IV) {
        if (BO->getOpcode() == BO_AddAssign ||
            BO->getOpcode() == BO_SubAssign) {
          StepExpr = BO->getRHS();
          Negative = BO->getOpcode() == BO_SubAssign;
        } else if (BO->getOpcode() == BO_Assign) {
          const auto *Sum =
              dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
          if (Sum && Sum->getOpcode() == BO_Add) {
            if (refVar(Sum->getLHS()) == IV)
              StepExpr = Sum->getRHS();
            else if (refVar(Sum->getRHS()) == IV)
              StepExpr = Sum->getLHS();
          }
        }
      }
      if (StepExpr) {
        Step = linearize(StepExpr, F, Ctx);
        if (Negative)
          Step = -Step;
      }
    }
    if (!Step.valid() && !StepExpr)
      return refuse(
          "the loop's step is not an increment of its induction variable '" +
          IV->getName() + "'");
    // The condition: iv < bound, iv <= bound, iv != bound (or mirrored; > and
    // >= when counting down).
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
    const Expr *BoundExpr = nullptr;
    bool CountUp = false;
    if (Cond && Cond->isComparisonOp()) {
      BinaryOperatorKind Op = Cond->getOpcode();
      if (refVar(Cond->getLHS()) == IV) {
        BoundExpr = Cond->getRHS();
      } else if (refVar(Cond->getRHS()) == IV) {
        BoundExpr = Cond->getLHS();
        Op = BinaryOperator::reverseComparisonOp(Op);
      }
      bool Up = Op == BO_LT || Op == BO_LE, Down = Op == BO_GT || Op == BO_GE;
      Inclusive = Op == BO_LE || Op == BO_GE;
      CountUp = Up && !Negative;
      if (!CountUp && !(Down && Negative) && Op != BO_NE)
        BoundExpr = nullptr;
    }
    // Loads first: they are the clearest reason.
    if (!checkNoLoad(InitValue,
                     "initial value of '" + IV->getName().str() + "'") ||
        !checkNoLoad(FS->getCond(), "loop condition (the trip count)") ||
        !checkNoLoad(StepExpr, "loop step"))
      return false;
    if (!BoundExpr)
      return refuse(
          "the loop condition is not a comparison of the induction variable '" +
              IV->getName() + "' with a bound",
          FS->getCond() ? FS->getCond()->getBeginLoc() : SourceLocation());
    if (FS->getCond()) {
      if (classOf(FS->getCond()).isNonAffine())
        return refuse(
            "the trip count is not block-uniform: the loop condition is "
            "nonaffine",
            FS->getCond()->getBeginLoc());
    }
    if (!classOf(BoundExpr).isUniform())
      return refuse("the trip count is not block-uniform: the bound '" +
                        text(BoundExpr) + "' differs between threads",
                    BoundExpr->getBeginLoc());
    if (StepExpr && !classOf(StepExpr).isUniform())
      return refuse("the trip count is not block-uniform: the step '" +
                        text(StepExpr) + "' differs between threads",
                    StepExpr->getBeginLoc());
    if (classOf(InitValue).isNonAffine())
      return refuse("the initial value of '" + IV->getName() +
                        "' is neither scalar nor affine",
                    InitValue->getBeginLoc());
    // The body must leave the induction variable alone.
    for (const Def &D : F.defs(IV))
      if (D.At != FS->getInit() && D.At != FS->getInc() &&
          !(D.IsInit && isa<DeclStmt>(FS->getInit())) &&
          F.inside(FS->getBody(), D.At->getBeginLoc()))
        return refuse("the induction variable '" + IV->getName() +
                          "' is changed in the loop body",
                      D.At->getBeginLoc());
    Init = linearize(InitValue, F, Ctx);
    Bound = linearize(BoundExpr, F, Ctx);
    if (const BinaryOperator *Wrap = signedMayWrap(FS->getCond()))
      return refuse("the loop condition '" + text(Wrap) +
                        "' compares in unsigned arithmetic a signed value "
                        "that may be negative: the trip count the split "
                        "computes would not be the loop's",
                    Wrap->getBeginLoc());
    if (!CountUp || Cond->getOpcode() == BO_NE)
      Bound = Poly::invalid(); // no trip count computed for these
    return true;
  }

  /// The conditions the loop runs under (if/loop conditions of the kernel
  /// between its body and the loop) must not depend on loaded values: the
  /// producer evaluates them too.
  bool checkGuards() {
    const Stmt *Child = Loop;
    while (true) {
      const Stmt *Parent = parentStmt(Ctx, Child);
      if (!Parent)
        break;
      const Expr *Cond = nullptr;
      if (const auto *If = dyn_cast<IfStmt>(Parent);
          If && If->getCond() != Child)
        Cond = If->getCond();
      else if (const auto *FS = dyn_cast<ForStmt>(Parent);
               FS && FS->getBody() == Child)
        Cond = FS->getCond();
      else if (const auto *WS = dyn_cast<WhileStmt>(Parent);
               WS && WS->getBody() == Child)
        Cond = WS->getCond();
      if (Cond) {
        if (const Expr *L = F.loadIn(Cond))
          return refuse(
              "the loop runs under a condition computed from a value loaded "
              "from memory ('" +
                  text(L) + "'); the producer warp cannot evaluate it",
              Cond->getBeginLoc());
        if (const BinaryOperator *Wrap = signedMayWrap(Cond))
          return refuse("the loop runs under the condition '" + text(Wrap) +
                            "', which compares in unsigned arithmetic a "
                            "signed value that may be negative: the threads "
                            "that pass need not be a prefix of the block",
                        Wrap->getBeginLoc());
        if (!classOf(Cond).isUniform())
          ++P.Guards;
      }
      Child = Parent;
    }
    return true;
  }

  /// Exits (break, return, goto) must be decided by block-uniform values
  /// the producer can compute.
  bool checkExits() {
    const Stmt *Body = cast<ForStmt>(Loop)->getBody();
    const Stmt *Bad = nullptr;
    std::string Why;
    std::function<void(const Stmt *, bool, std::vector<const Expr *> &)> Walk =
        [&](const Stmt *S, bool InBreakable, std::vector<const Expr *> &Conds) {
          if (!S || Bad)
            return;
          bool IsExit = isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(S) ||
                        (isa<BreakStmt>(S) && !InBreakable);
          if (IsExit) {
            for (const Expr *C : Conds) {
              if (const Expr *L = F.loadIn(C)) {
                Bad = S;
                Why = "the loop has a data-dependent exit: this '" +
                      exitName(S) +
                      "' depends on a value loaded from memory ('" + text(L) +
                      "')";
                return;
              }
              if (!classOf(C).isUniform()) {
                Bad = S;
                Why = "the loop has a data-dependent exit: this '" +
                      exitName(S) + "' depends on the per-thread condition '" +
                      text(C) + "'";
                return;
              }
            }
            return;
          }
          if (const auto *If = dyn_cast<IfStmt>(S)) {
            Conds.push_back(If->getCond());
            Walk(If->getThen(), InBreakable, Conds);
            Walk(If->getElse(), InBreakable, Conds);
            Conds.pop_back();
            return;
          }
          bool Breakable =
              InBreakable ||
              isa<ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S);
          const Expr *LoopCond = loopCondition(S);
          if (const auto *SW = dyn_cast<SwitchStmt>(S))
            LoopCond = SW->getCond();
          if (LoopCond)
            Conds.push_back(LoopCond);
          for (const Stmt *C : S->children())
            Walk(C, Breakable, Conds);
          if (LoopCond)
            Conds.pop_back();
        };
    std::vector<const Expr *> Conds;
    Walk(Body, false, Conds);
    if (Bad)
      return refuse(Why, Bad->getBeginLoc());
    return true;
  }

  static std::string exitName(const Stmt *S) {
    if (isa<ReturnStmt>(S))
      return "return";
    if (isa<BreakStmt>(S))
      return "break";
    return "goto";
  }

  /// The innermost if condition (inside the decoupled loop) around \p S.
  const Expr *conditionAround(const Stmt *S) {
    const Stmt *Child = S;
    while (Child != Loop) {
      const Stmt *Parent = parentStmt(Ctx, Child);
      if (!Parent)
        return nullptr;
      if (const auto *If = dyn_cast<IfStmt>(Parent);
          If && If->getCond() != Child) {
        if (F.loadIn(If->getCond()) || classOf(If->getCond()).isNonAffine())
          return If->getCond();
      }
      if (const auto *CO = dyn_cast<ConditionalOperator>(Parent);
          CO && CO->getCond() != Child)
        if (F.loadIn(CO->getCond()) || classOf(CO->getCond()).isNonAffine())
          return CO->getCond();
      Child = Parent;
    }
    return nullptr;
  }

  /// The loops of the kernel around \p S (innermost first), up to and
  /// beyond the decoupled loop.
  std::vector<const Stmt *> loopsAround(const Stmt *S) {
    std::vector<const Stmt *> Loops;
    const Stmt *Child = S;
    while (true) {
      const Stmt *Parent = parentStmt(Ctx, Child);
      if (!Parent)
        break;
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Parent))
        Loops.push_back(Parent);
      Child = Parent;
    }
    return Loops;
  }

  void consumer(const Access &A, const Twine &Why) {
    P.Consumers.push_back({A.At, text(A.LV), Why.str()});
  }

  /// Rule 2: which loads the producer streams.
  bool chooseStreams() {
    collectAccesses(cast<ForStmt>(Loop)->getBody(), K, F, Ctx, Loads, Stores);
    for (unsigned I = 0; I < Loads.size(); ++I) {
      const Access &A = Loads[I];
      if (A.Where != Space::Global)
        continue;
      if (A.Address.isNonAffine()) {
        consumer(A, "address not affine");
        continue;
      }
      if (!F.dependsOnBlockIdx(A.LV)) {
        consumer(A, "no blockIdx term: every block reads it (L1/L2 reuse)");
        continue;
      }
      const Stmt *Invariant = nullptr;
      for (const Stmt *L : loopsAround(A.LV))
        if (!F.variesIn(A.LV, L)) {
          Invariant = L;
          break;
        }
      if (Invariant) {
        consumer(A, "invariant in the loop at line " + lineOf(Invariant, Ctx) +
                        ": re-read, L1 serves it");
        continue;
      }
      if (A.ElemBytes != 4 && A.ElemBytes != 8 && A.ElemBytes != 16) {
        consumer(A, "element size " + Twine(A.ElemBytes) +
                        " (the ring copies 4, 8 or 16-byte elements)");
        continue;
      }
      if (const Expr *C = conditionAround(A.At)) {
        consumer(A, "under the data-dependent condition '" + text(C) + "'");
        continue;
      }
      if (const Expr *L = F.loadIn(A.LV))
        return refuse("the address of '" + text(A.LV) +
                          "' is computed from a value loaded from memory ('" +
                          text(L) +
                          "'); the producer warp cannot run ahead of it",
                      L->getBeginLoc());
      StreamLoads.push_back(I);
    }
    if (StreamLoads.empty()) {
      P.NoStream = true;
      decline("no stream: no affine load in the loop has a blockIdx term and "
              "changes "
              "in every loop around it");
      return false;
    }
    return true;
  }

  /// Why \p S cannot write what \p L reads although mayAlias() allows it:
  /// both are the kernel's pointer parameters and the file's launches give
  /// them distinct allocations. The proof is about this file's launches, so
  /// it serves code they launch instead of the kernel (the split), never a
  /// change to the kernel itself (rule 5's __restrict__).
  std::optional<std::string> distinctBuffers(const Access &S, const Access &L) {
    if (S.RootUnknown || L.RootUnknown || S.Root == L.Root)
      return std::nullopt;
    const auto *PS = dyn_cast<ParmVarDecl>(S.Root);
    const auto *PL = dyn_cast<ParmVarDecl>(L.Root);
    if (!PS || !PL)
      return std::nullopt;
    auto Key = std::make_pair(std::min(PS, PL), std::max(PS, PL));
    auto [It, New] = Distinct.try_emplace(Key);
    if (New)
      It->second = distinctAllocations(K.Kernel, PL, PS, Ctx);
    return It->second;
  }

  void noteDistinct(const std::string &Why) {
    if (!is_contained(P.DistinctBuffers, Why))
      P.DistinctBuffers.push_back(Why);
  }

  /// The producer warp reads the streams ahead of the consumers, from the
  /// kernel's entry on: a loop that waits for other threads (a flag, a lock,
  /// a fence after a flag's read), or a kernel that does so before the loop,
  /// would have its streams read before the data is ready.
  bool checkSynchronization() {
    llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
    for (const auto &[At, What] :
         findSynchronization(K.Kernel->getBody(), Ctx, Seen)) {
      if (!beforeLoopReads(At))
        continue;
      const bool Inside = inLoop(At);
      return refuse(
          Twine(Inside ? "the loop" : "the kernel, before the loop,") +
              " synchronizes with other threads (" + What +
              "): the producer warp would read the streams ahead "
              "of it",
          At->getBeginLoc());
    }
    return true;
  }

  /// Whether \p S may run before some of the loop's reads: it is in the
  /// loop, before it in the kernel's text, or in a loop around it.
  bool beforeLoopReads(const Stmt *S) {
    return order().mayRunBefore(S->getBeginLoc(), Loop);
  }

  /// Whether \p S lies in the loop's text.
  bool inLoop(const Stmt *S) { return order().within(S->getBeginLoc(), Loop); }

  const ThreadOrder &order() {
    if (!Order)
      Order.emplace(K.Kernel->getBody(), Ctx.getSourceManager());
    return *Order;
  }

  /// Where the kernel first binds an element of each array to a non-const
  /// reference (a reference variable's initializer, or a call's argument
  /// for a reference parameter), by the array's root.
  DenseMap<const ValueDecl *, const Stmt *> referenceBindings() {
    DenseMap<const ValueDecl *, const Stmt *> Found;
    auto Writable = [](QualType T) {
      return T->isReferenceType() &&
             !T.getNonReferenceType().isConstQualified();
    };
    auto Bind = [&](const Expr *E, const Stmt *At) {
      if (E && E->isGLValue())
        if (const ValueDecl *Root = syntacticRoot(E, F))
          Found.try_emplace(Root, At);
    };
    forEachStmt(K.Kernel->getBody(), [&](const Stmt *S) {
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D); V && Writable(V->getType()))
            Bind(V->getInit(), DS);
        return;
      }
      const FunctionDecl *Callee = nullptr;
      ArrayRef<const Expr *> Args;
      if (const auto *C = dyn_cast<CallExpr>(S)) {
        Callee = C->getDirectCallee();
        Args = ArrayRef(C->getArgs(), C->getNumArgs());
        // An operator member's object is its first argument.
        if (isa<CXXOperatorCallExpr>(C) &&
            isa_and_nonnull<CXXMethodDecl>(Callee))
          Args = Args.drop_front();
      } else if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
        Callee = C->getConstructor();
        Args = ArrayRef(C->getArgs(), C->getNumArgs());
      }
      if (!Callee)
        return;
      for (unsigned I = 0; I < Args.size() && I < Callee->getNumParams(); ++I)
        if (Writable(Callee->getParamDecl(I)->getType()))
          Bind(Args[I], S);
    });
    return Found;
  }

  /// Legality: no streamed array written in the loop, or before it.
  bool checkWrites() {
    // The producer copies from the kernel's entry on: a store the consumers
    // make before the loop (thread 0 initializes the row, then a barrier)
    // would come after the copy.
    std::vector<Access> Before, Unused;
    collectAccesses(K.Kernel->getBody(), K, F, Ctx, Unused, Before);
    std::vector<Access> All = Stores;
    for (const Access &S : Before)
      if (!inLoop(S.At) && beforeLoopReads(S.At))
        All.push_back(S);
    // An element bound to a non-const reference (a local reference, a
    // callee's reference parameter) may be written through it, where no
    // store names the array: refused like a store of that array.
    const DenseMap<const ValueDecl *, const Stmt *> Bound = referenceBindings();
    for (unsigned I : StreamLoads) {
      const Access &L = Loads[I];
      if (const Stmt *Ref = L.Root ? Bound.lookup(L.Root) : nullptr;
          Ref && (inLoop(Ref) || beforeLoopReads(Ref)))
        return refuse("the streamed array '" + L.Root->getNameAsString() +
                          "' may be written through a non-const reference "
                          "to its element, so the producer warp could copy "
                          "stale data",
                      Ref->getBeginLoc());
    }
    for (const Access &S : All)
      for (unsigned I : StreamLoads) {
        const Access &L = Loads[I];
        if (!mayAlias(S, L, Options.Annotated))
          continue;
        if (std::optional<std::string> Why = distinctBuffers(S, L)) {
          noteDistinct(*Why);
          continue;
        }
        std::string Array = L.Root ? L.Root->getNameAsString() : text(L.LV);
        if (Options.Annotated || S.Root == L.Root || S.RootUnknown)
          return refuse("the streamed array '" + Array + "' may be written " +
                            (inLoop(S.At) ? "in the loop" : "before the loop") +
                            ", so the producer warp could copy stale data",
                        S.At->getBeginLoc());
        decline("the store '" + text(S.At) +
                "' may alias the streamed array '" + Array +
                "' (no '#pragma dd decouple' promise, no __restrict__)");
        return false;
      }
    return true;
  }

  bool checkBlock() {
    BlockSize B = launchBlockSize(K.Kernel, Ctx);
    if (B.Bad)
      return refuse(
          "the kernel is launched with " + Twine(B.BadThreads) +
              " threads per block, not a multiple of 32: the producer warp "
              "and the consumer warps need whole warps",
          B.Bad->getBeginLoc());
    P.BlockKnown = B.Threads.has_value();
    P.BlockThreads = B.Threads ? unsigned(*B.Threads) : CM::AssumedBlockThreads;
    return true;
  }

  std::optional<int64_t> atomValue(const std::string &Atom) const {
    if (Atom == "blockDim.x")
      return P.BlockThreads;
    if (Atom == "blockDim.y" || Atom == "blockDim.z")
      return 1;
    if (StringRef(Atom).starts_with("threadIdx."))
      return 0; // thread 0: the longest trip count of the block
    return std::nullopt;
  }

  /// Index delta of a load per iteration of the decoupled loop.
  Poly perIteration(const Access &A) const {
    if (!Step.valid())
      return Poly::invalid();
    return A.Index.derivative(atomKey(IV)) * Step;
  }

  /// Rule 3, with the covering analysis that rules 3 and 4 share.
  bool shape() {
    const unsigned B = P.BlockThreads;
    // Which loads bring no new bytes (a small constant offset from another
    // load of the same array in this or a recent iteration).
    Covered.assign(Loads.size(), false);
    std::vector<bool> HaloBase(Loads.size(), false);
    std::vector<bool> SharesTile(Loads.size(), false);
    for (unsigned L = 0; L < Loads.size(); ++L)
      for (unsigned M = 0; M < Loads.size() && !Covered[L]; ++M) {
        if (L == M || Loads[L].RootUnknown || Loads[L].Root != Loads[M].Root ||
            Loads[L].ElemBytes != Loads[M].ElemBytes)
          continue;
        Poly Diff = Loads[L].Index - Loads[M].Index;
        Poly Delta = perIteration(Loads[M]);
        for (int64_t KIt = 0; KIt <= CM::MaxReuseIterations; ++KIt) {
          if (KIt && !Delta.valid())
            break;
          Poly Shifted = KIt ? Diff + Delta * Poly::constant(KIt) : Diff;
          std::optional<int64_t> C = Shifted.asConstant();
          if (!C || std::abs(*C) > CM::MaxNeighbourElements)
            continue;
          if (KIt == 0 && M > L)
            continue; // same iteration: the earlier load keeps the bytes
          Covered[L] = true;
          if (KIt == 0 && *C != 0) {
            SharesTile[L] = true;
            HaloBase[M] = true;
          }
          if (KIt == 0 && *C == 0)
            SharesTile[L] = true;
          break;
        }
      }
    // The streams' tiles.
    uint64_t TileBytesPerIteration = 0;
    for (unsigned I : StreamLoads) {
      const Access &A = Loads[I];
      Stream S;
      S.Load = A.At;
      S.Text = text(A.LV);
      S.ElemBytes = A.ElemBytes;
      std::optional<int64_t> SX = A.Address.strides()[0];
      S.ThreadStrideBytes = SX ? *SX : 0;
      S.Halo = HaloBase[I];
      S.RingBytes = SharesTile[I] ? 0 : A.ElemBytes;
      // One copy of U iterations when the stream is contiguous across the
      // block and advances by exactly its tile per iteration.
      Poly Delta = perIteration(A);
      bool Contiguous = SX && *SX == int64_t(A.ElemBytes);
      S.Merged =
          Contiguous && (Delta == Poly::atom("blockDim.x") ||
                         (P.BlockKnown && Delta.asConstant() == int64_t(B)));
      TileBytesPerIteration += uint64_t(S.RingBytes) * B;
      P.Streams.push_back(S);
    }
    TileBytesPerIteration = std::max<uint64_t>(TileBytesPerIteration, 1);
    P.U = unsigned(
        std::max<uint64_t>(1, (CM::MinStageBytes + TileBytesPerIteration - 1) /
                                  TileBytesPerIteration));
    P.StageBytes = P.U * TileBytesPerIteration;
    P.CopyBytes = UINT64_MAX;
    for (const Stream &S : P.Streams)
      if (S.RingBytes)
        P.CopyBytes = std::min<uint64_t>(
            P.CopyBytes, uint64_t(S.RingBytes) * B * (S.Merged ? P.U : 1));
    if (Options.Depth) {
      P.Depth = *Options.Depth;
      P.DepthGiven = true;
    } else {
      uint64_t D = (CM::TargetRingBytes + P.StageBytes / 2) / P.StageBytes;
      P.Depth = unsigned(std::clamp<uint64_t>(D, CM::MinDepth, CM::MaxDepth));
    }
    // Shared memory: the formula of split-study.md section 1.
    uint64_t Own = staticSharedBytes(K.Kernel, Ctx);
    auto SharedFor = [&](unsigned Depth) {
      uint64_t Bytes = Own;
      for (const Stream &S : P.Streams) {
        if (!S.RingBytes)
          continue;
        uint64_t Elems = uint64_t(B) * (S.Merged ? P.U : 1) +
                         (S.Halo ? 2 * CM::MaxNeighbourElements : 0);
        unsigned Tiles = S.Merged ? 1 : P.U;
        Bytes +=
            uint64_t(CM::BarrierBytesPerSlot) * Depth +
            uint64_t(Depth) * Tiles * CM::tileSlotBytes(S.ElemBytes, Elems);
      }
      return Bytes;
    };
    P.SharedBytes = SharedFor(P.Depth);
    while (!P.DepthGiven && P.SharedBytes > CM::maxSharedBytesPerBlock() &&
           P.Depth > CM::MinDepth)
      P.SharedBytes = SharedFor(--P.Depth);
    if (P.SharedBytes > CM::maxSharedBytesPerBlock())
      return refuse("the shared memory would not fit: " + Twine(P.SharedBytes) +
                        " bytes per block (ring of depth " + Twine(P.Depth) +
                        ", U=" + Twine(P.U) + ") exceed 227 KiB / " +
                        Twine(CM::SplitBlocksPerSM) + " = " +
                        Twine(CM::maxSharedBytesPerBlock()) + " bytes",
                    P.DepthGiven ? Options.DepthLoc : SourceLocation());
    return true;
  }

  static unsigned sectors(const Access &A) {
    if (A.Address.isNonAffine())
      return CM::GatherSectors;
    std::optional<int64_t> SX = A.Address.strides()[0];
    if (!SX)
      return CM::GatherSectors;
    if (*SX == 0)
      return 1;
    return unsigned(std::min<int64_t>(CM::GatherSectors, std::abs(*SX)));
  }

  /// Bytes per thread and iteration that must come from DRAM.
  static double compulsory(const Access &A) {
    if (A.Address.isNonAffine())
      return 0; // a gather: its data is shared between threads (spmv's x)
    std::optional<int64_t> SX = A.Address.strides()[0];
    if (!SX)
      return CM::SectorBytes;
    if (*SX == 0)
      return 0;
    return double(std::min<int64_t>(CM::SectorBytes, std::abs(*SX)));
  }

  /// Rules 4 and 5.
  void cost() {
    // MLP of the original: 1 when nvcc cannot unroll (a step that is not a
    // compile-time constant) or a store may alias a load of the loop.
    bool ConstantStep = Step.asConstant().has_value();
    // nvcc sees what the kernel says, so the launches' distinct buffers do
    // not unroll the original. But where they rule out every pair of
    // distinct pointers that may alias, the in-place restrict rewrite,
    // which they cannot license (distinctBuffers()), is not the better
    // choice to wait for: an access aliasing only itself (an accumulator's
    // `y[j] +=`) is the same with or without restrict's promise.
    bool Aliased = false, AliasedUnproven = false;
    for (const Access &S : Stores)
      for (const Access &L : Loads)
        if (L.Where == Space::Global && S.Where == Space::Global &&
            mayAlias(S, L, /*Promise=*/false)) {
          Aliased = true;
          if (Options.Annotated ||
              (S.Root != L.Root && !distinctBuffers(S, L)) || S.RootUnknown ||
              L.RootUnknown)
            AliasedUnproven = true;
        }
    P.MLP = ConstantStep && !Aliased ? CM::UnrolledMLP : 1;
    P.PreferHoist = ConstantStep && AliasedUnproven;

    double NewBytes = 0, InFlightPerWarp = 0, RingBytes = 0;
    for (unsigned I = 0; I < Loads.size(); ++I) {
      const Access &A = Loads[I];
      if (A.Where != Space::Global || Covered[I] || !F.dependsOnBlockIdx(A.LV))
        continue;
      InFlightPerWarp += sectors(A) * CM::SectorBytes;
      NewBytes += compulsory(A);
    }
    for (const Access &S : Stores)
      if (S.Where == Space::Global && S.ElemBytes && F.dependsOnBlockIdx(S.LV))
        NewBytes += compulsory(S);
    for (const Stream &S : P.Streams)
      RingBytes += S.RingBytes;
    if (NewBytes <= 0)
      NewBytes =
          RingBytes; // nothing else counted: the ring's bytes are the traffic
    P.InFlightBytes =
        uint64_t(CM::OriginalWarpsPerSM) * P.MLP * uint64_t(InFlightPerWarp);

    const double BW = CM::CopyCeilingBytesPerSec;
    P.RingRate = RingBytes / NewBytes * CM::SplitEfficiency * BW;
    double Original =
        NewBytes /
        std::min(BW, CM::SMs * double(P.InFlightBytes) / CM::LoadedLatencySec);
    double Split = std::max(NewBytes / (CM::SplitEfficiency * BW),
                            RingBytes / CM::ringRate(double(P.CopyBytes)));
    P.Gain = Original / Split;

    // Trip count per block, when the source fixes it.
    P.MinTripCount = uint64_t(CM::MinStagesPerDepth) * P.Depth * P.U;
    auto Value = [&](const std::string &A) { return atomValue(A); };
    std::optional<int64_t> I0 = Init.evaluate(Value), N = Bound.evaluate(Value),
                           S = Step.evaluate(Value);
    if (I0 && N && S && *S > 0)
      P.TripCount =
          *N + (Inclusive ? 1 : 0) > *I0
              ? uint64_t((*N + (Inclusive ? 1 : 0) - *I0 + *S - 1) / *S)
              : 0;

    if (P.CopyBytes < CM::MinStageBytes &&
        P.RingRate > CM::MaxSmallStageRingRate)
      decline(
          formatv(
              "small stages: {0} B copies, and the ring would have to carry "
              "{1:f1} TB/s (> {2:f1}) to reach {3}% of the copy ceiling",
              P.CopyBytes, P.RingRate / 1e12, CM::MaxSmallStageRingRate / 1e12,
              unsigned(CM::SplitEfficiency * 100))
              .str());
    if (any_of(P.Streams, [](const Stream &S) { return S.Halo; }))
      decline(
          "small stages: tiles with halo edges (loads of one array at small "
          "constant offsets) need per-lane edge copies");
    if (P.InFlightBytes >= CM::BandwidthBoundInFlightBytes)
      decline(
          formatv(
              "already bandwidth-bound: the original keeps {0} KiB in flight "
              "per SM (>= {1} KiB)",
              P.InFlightBytes / 1024, CM::BandwidthBoundInFlightBytes / 1024)
              .str());
    if (P.TripCount && *P.TripCount < P.MinTripCount)
      decline(
          formatv(
              "short blocks: {0} iterations per block make {1} stage{2}, fewer "
              "than {3} x depth {4}",
              *P.TripCount, (*P.TripCount + P.U - 1) / P.U,
              (*P.TripCount + P.U - 1) / P.U == 1 ? "" : "s",
              CM::MinStagesPerDepth, P.Depth)
              .str());
    if (P.Gain < CM::MinGain)
      decline(formatv("predicted gain {0:f2}x is below {1:f1}x", P.Gain,
                      CM::MinGain)
                  .str());
    if (P.Result != Outcome::Declined)
      P.Result = Outcome::Accepted;
  }
};

std::string bytesText(uint64_t Bytes) {
  if (Bytes % 1024 == 0)
    return std::to_string(Bytes / 1024) + " KiB";
  return std::to_string(Bytes) + " B";
}

} // namespace

LoopPlan planLoop(const Stmt *Loop, const KernelAnalysis &K, ASTContext &Ctx,
                  const PlanOptions &Options) {
  return Planner(Loop, K, Ctx, Options).run();
}

std::string describe(const LoopPlan &P) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "streams ";
  bool First = true;
  for (const Stream &S : P.Streams) {
    if (!S.RingBytes)
      continue;
    OS << (First ? "" : ", ") << S.Text
       << (S.Merged ? " (one copy per stage)" : "")
       << (S.Halo ? " (halo)" : "");
    First = false;
  }
  OS << " (" << bytesText(P.StageBytes) << " stages x depth " << P.Depth
     << ", U=" << P.U << "), " << P.SharedBytes << " B shared memory per block";
  if (!P.BlockKnown)
    OS << " for " << P.BlockThreads << " threads (block size assumed)";
  return Out;
}

} // namespace decoupler::split
