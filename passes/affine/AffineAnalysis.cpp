//===- affine/AffineAnalysis.cpp - Classifying kernel values --------------===//
//
// Structure:
//  - KernelContext: state shared by all functions analysed for one kernel
//    (memoized callee results, the collected report, the read-only objects).
//  - FunctionAnalyzer: one function body in one calling context: reaching
//    definitions over the CFG to a fixed point, with sync dependence at join
//    blocks of divergent branches and temporal divergence at the exits of
//    divergent loops; an outer fixed point adds branches found divergent.
//  - The expression evaluator (FunctionAnalyzer::eval and friends) computes an
//    AffineValue for an expression against the variable state, applying the
//    definitions it contains.
//
//===----------------------------------------------------------------------===//

#include "affine/AffineAnalysis.h"
#include "affine/JoinBlocks.h"
#include "support/Callees.h"
#include "support/CudaFacts.h"
#include "support/PassDiagnostics.h"
#include "support/SourceText.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <set>

using namespace clang;
using namespace llvm;

namespace decoupler {

std::string fileOf(const SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid())
    return {};
  SourceLocation Exp = SM.getExpansionLoc(Loc);
  if (SM.isWrittenInMainFile(Exp))
    return {};
  PresumedLoc P = SM.getPresumedLoc(Exp);
  return P.isInvalid() ? std::string() : std::string(P.getFilename());
}

Position toPosition(const SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid())
    return {};
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return {};
  return {P.getLine(), P.getColumn()};
}

AffineValue KernelAnalysis::valueOf(const Expr *E) const {
  auto It = Values.find(E);
  return It == Values.end() ? AffineValue::nonAffine() : It->second;
}

bool KernelAnalysis::reached(const Expr *E) const {
  for (const Expr *X : {E, E->IgnoreParenImpCasts()})
    if (Values.count(X) || Conditions.count(X))
      return true;
  return false;
}

AffineValue KernelAnalysis::addressOf(const Expr *E) const {
  auto It = Addresses.find(E);
  return It == Addresses.end() ? AffineValue::nonAffine() : It->second;
}

namespace {

/// Calls deeper than this (or recursive ones) give nonaffine results.
constexpr unsigned MaxCallDepth = 8;

//===----------------------------------------------------------------------===//
// Address spaces
//===----------------------------------------------------------------------===//

AddressSpace spaceOf(const ValueDecl *Root) {
  if (!Root)
    return AddressSpace::Unknown;
  if (Root->hasAttr<CUDASharedAttr>())
    return AddressSpace::Shared;
  if (Root->hasAttr<CUDAConstantAttr>())
    return AddressSpace::Global;
  if (const auto *P = dyn_cast<ParmVarDecl>(Root)) {
    // Parameters of kernels (and whatever they carry) live in or point to
    // global memory; a parameter seen as a root elsewhere was address-taken.
    if (const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext()))
      if (FD->hasAttr<CUDAGlobalAttr>())
        return AddressSpace::Global;
    return AddressSpace::Local;
  }
  if (const auto *V = dyn_cast<VarDecl>(Root)) {
    if (V->hasGlobalStorage())
      return AddressSpace::Global;
    return AddressSpace::Local;
  }
  return AddressSpace::Unknown;
}

//===----------------------------------------------------------------------===//
// Kernel-wide state
//===----------------------------------------------------------------------===//

struct AccessRecord {
  const Expr *E;
  AccessKind Kind;
  AffineValue Address;
  const FunctionDecl *Function;
};

struct ClassRecord {
  AffineValue Value;
  const FunctionDecl *Function;
};

/// Functions that code this analysis does not see may call (canonical
/// declarations): their parameters may hold anything.
using OpenFunctions = SmallPtrSet<const FunctionDecl *, 8>;

struct KernelContext {
  ASTContext &Ctx;
  const FunctionDecl *Kernel;
  KernelAnalysis &Out;
  const OpenFunctions &Open;

  // Objects of which loads at scalar addresses are scalar (second round).
  SmallPtrSet<const ValueDecl *, 8> ReadOnly;
  // Collected in every round: what the kernel writes.
  SmallPtrSet<const ValueDecl *, 8> Written;
  bool WritesUnknown = false;
  bool WritesGlobal = false;
  // The kernel's parameters kept in memory (a member function called on
  // one, its address taken): a load of a pointer field gives a pointer of
  // unknown root, so the parameter's root stands for its own storage only.
  // A tracked record's value stands for what its pointer fields reach too.
  SmallPtrSet<const VarDecl *, 8> MemoryParams;

  // Records of the round that builds the report.
  std::map<std::pair<const Expr *, AccessKind>, AccessRecord> Accesses;
  std::map<const Expr *, ClassRecord> Branches;
  std::map<const VarDecl *, ClassRecord> Variables;

  // Callee results by context.
  std::map<std::string, AffineValue> Memo;
  std::set<std::string> Recorded;
  std::set<std::string> InProgress;

  KernelContext(ASTContext &Ctx, const FunctionDecl *Kernel,
                KernelAnalysis &Out, const OpenFunctions &Open)
      : Ctx(Ctx), Kernel(Kernel), Out(Out), Open(Open) {}

  void noteWrite(const AffineValue &Address) {
    if (!Address.root()) {
      WritesUnknown = true;
      return;
    }
    Written.insert(Address.root());
    if (spaceOf(Address.root()) == AddressSpace::Global)
      WritesGlobal = true;
  }
};

//===----------------------------------------------------------------------===//
// Per-function analysis
//===----------------------------------------------------------------------===//

/// Definitions reaching a point, by the statement (or declaration) that made
/// them, sorted.
using DefSet = SmallVector<const void *, 2>;

struct VarState {
  AffineValue Value;
  DefSet Defs;
  friend bool operator==(const VarState &A, const VarState &B) {
    return A.Value == B.Value && A.Defs == B.Defs;
  }
};

/// Keyed by VarDecl, or by the FunctionDecl for its return value.
using State = std::map<const Decl *, VarState>;

/// More definitions than this reaching one point are kept as one "many"
/// marker: the sets only feed the sync and temporal divergence tests, where
/// "many" counts as differing and as defined everywhere (more divergence,
/// never less), and in goto spaghetti exact sets made every join cost the
/// size of the whole function (issue 13, class 12).
constexpr size_t MaxExactDefs = 32;
const char ManyDefsMarker = 0;

bool isManyDefs(const DefSet &D) {
  return D.size() == 1 && D.front() == &ManyDefsMarker;
}

DefSet unionDefs(const DefSet &A, const DefSet &B) {
  if (isManyDefs(A) || isManyDefs(B))
    return DefSet{&ManyDefsMarker};
  DefSet R;
  std::set_union(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(R));
  if (R.size() > MaxExactDefs)
    return DefSet{&ManyDefsMarker};
  return R;
}

/// Whether two incoming definition sets may bring different values.
bool defsMayDiffer(const DefSet &A, const DefSet &B) {
  return isManyDefs(A) || isManyDefs(B) || A != B;
}

/// Whether calls of \p F evaluate to the address F returns rather than to
/// the value there: F returns a reference to something other than its own
/// variables. `std::min`'s `return b < a ? b : a;` returns one of its
/// reference parameters, whose values the analysis tracks but not their
/// addresses, so it keeps evaluating to the value.
bool returnsAddress(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->getReturnType()->isReferenceType() || !F->hasBody(Def) || !Def)
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Memory = false;
    static bool variablesOnly(const Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
        return variablesOnly(CO->getTrueExpr()) &&
               variablesOnly(CO->getFalseExpr());
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE && isa<VarDecl>(DRE->getDecl());
    }
    bool VisitReturnStmt(ReturnStmt *R) {
      if (R->getRetValue() && !variablesOnly(R->getRetValue()))
        Memory = true;
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } Find;
  Find.TraverseStmt(Def->getBody());
  return Find.Memory;
}

class FunctionAnalyzer {
public:
  /// \p This is the address of the object a member function runs on
  /// (unknown for other functions and where the caller does not know it).
  FunctionAnalyzer(KernelContext &K, const FunctionDecl *FD,
                   std::vector<AffineValue> Params, unsigned Depth, bool Record,
                   AffineValue This = AffineValue::nonAffine().setRootUnknown())
      : K(K), Ctx(K.Ctx), FD(FD), Params(std::move(Params)),
        This(std::move(This)), Depth(Depth), Record(Record) {}

  /// Analyses the body; returns the class of the return value.
  AffineValue run();

private:
  KernelContext &K;
  ASTContext &Ctx;
  const FunctionDecl *FD;
  std::vector<AffineValue> Params;
  AffineValue This;
  unsigned Depth;
  bool Record;

  std::unique_ptr<CFG> Graph;
  std::unique_ptr<ParentMap> Parents;
  std::unique_ptr<ControlStructure> Control;
  SmallPtrSet<const VarDecl *, 16> Tracked;
  SmallPtrSet<const Stmt *, 32> TopLevel;

  std::vector<State> In, Out;
  std::vector<bool> Reached;
  DenseMap<const void *, unsigned> DefBlock;
  // Divergent branches: block ID -> tag (the condition expression).
  std::map<unsigned, const Stmt *> Divergent;
  // Per block: the divergent branches it joins (their block and tag).
  struct JoinOf {
    const CFGBlock *Branch;
    const Stmt *Tag;
  };
  std::vector<SmallVector<JoinOf, 2>> JoinsOf;
  // Per block: a join of some divergent branch in an approximated cycle
  // (ControlStructure::approximatedCycle): differing incoming definitions
  // make a value nonaffine there, whichever branch chose.
  BitVector ApproximateJoin;
  SmallPtrSet<const void *, 4> ApproximatedCyclesSeen;
  std::vector<bool> ExitsDivergentLoop;
  std::vector<BitVector> ExitedLoopSets; // per block: union of exited loops

  bool Recording = false; // inside the final pass
  unsigned CurrentBlock = 0;

  // Setup.
  void findTracked();
  void findTopLevel();
  bool escapes(const DeclRefExpr *DRE);

  // Fixed point.
  /// One fixed point from scratch; with \p MarkDivergent, branches are
  /// marked divergent as the iteration finds them. Returns whether it marked
  /// any.
  bool dataflow(bool MarkDivergent);
  State entryState(const CFGBlock *B);
  void transfer(const CFGBlock *B, State &S);
  void processElement(const Stmt *St, State &S);
  /// Marks \p B divergent when it branches on a non-uniform condition in the
  /// state leaving it, and adds the blocks whose entry state that changes
  /// (its joins, the exits of loops it diverges) to \p Affected.
  bool markIfDivergent(const CFGBlock *B, SmallVectorImpl<unsigned> &Affected);
  bool updateDivergence();
  const Stmt *conditionTag(const CFGBlock *B);
  void finalPass();

  // Evaluation.
  AffineValue eval(const Expr *E, State &S);
  AffineValue evalUncached(const Expr *E, State &S);
  AffineValue evalCast(const CastExpr *E, State &S);
  AffineValue evalUnary(const UnaryOperator *E, State &S);
  AffineValue evalBinary(const BinaryOperator *E, State &S);
  /// How the arms of `c ? a : b` are evaluated: as values, as lvalues that
  /// are read (each arm records its own load), or as addresses.
  enum class ArmMode { Value, Read, Address };
  AffineValue evalConditional(const AbstractConditionalOperator *E, State &S,
                              ArmMode Mode);
  AffineValue evalCall(const CallExpr *E, State &S);
  /// A call of a function with a body in the file, analysed for \p Args
  /// (the call's evaluated arguments) and, for a member function, the
  /// object's address \p Object; unknown when there is no body.
  AffineValue evalBody(const CallExpr *E, const FunctionDecl *Callee,
                       const std::vector<AffineValue> &Args, State &S,
                       const AffineValue &Object);
  /// The address of the object a member function call runs on.
  AffineValue evalObject(const CallExpr *E, State &S);
  AffineValue evalRead(const Expr *LValue, State &S);
  AffineValue evalAddress(const Expr *LValue, State &S);
  AffineValue loadValue(const AffineValue &Address);
  bool isReportedMemoryLocal(const VarDecl *VD) const;
  const VarDecl *trackedVar(const Expr *LValue);
  /// The address a reference variable is bound to: known for reference
  /// parameters (from the call), unknown otherwise.
  AffineValue referenceAddress(const VarDecl *VD);
  void define(const Decl *Key, AffineValue V, const void *Site, State &S,
              bool Weak = false);
  AffineValue readVar(const VarDecl *VD, State &S);
  void merge(State &Into, const State &Other, const Stmt *Cond);

  // Recording.
  void recordAccess(const Expr *E, AccessKind Kind, const AffineValue &Address);
  void recordBranch(const Expr *Cond, const AffineValue &V);
  void recordVariable(const VarDecl *VD, const AffineValue &V);
  const FunctionDecl *reportedFunction() const {
    return FD == K.Kernel ? nullptr : FD;
  }
  std::optional<int64_t> sizeOfPointee(QualType PtrTy);
};

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

bool isTrackableType(QualType T) {
  T = T.getCanonicalType();
  if (T->isReferenceType() || T->isArrayType())
    return false;
  return T->isScalarType() || T->isRecordType();
}

/// Whether constructing with \p Ctor sets a field from anything but the
/// constructor's arguments: a user-provided constructor (its body and
/// member initializers), or a defaulted one over a field's default
/// initializer or a base's or member's constructor that does.
bool initializesBeyondArguments(const CXXConstructorDecl *Ctor,
                                unsigned Depth = 0) {
  if (!Ctor || Ctor->isTrivial())
    return false;
  if (Ctor->isUserProvided() || Depth > 8)
    return true;
  const CXXRecordDecl *RD = Ctor->getParent();
  auto RecordDoes = [&](QualType T) {
    const CXXRecordDecl *R =
        T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
    if (!R || !R->hasDefinition())
      return false;
    for (const CXXConstructorDecl *C : R->ctors())
      if (C->isDefaultConstructor() && initializesBeyondArguments(C, Depth + 1))
        return true;
    return false;
  };
  for (const FieldDecl *Field : RD->fields())
    if (Field->hasInClassInitializer() || RecordDoes(Field->getType()))
      return true;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (RecordDoes(Base.getType()))
      return true;
  return false;
}

/// At an operator \p P over the lvalue \p Child: whether the object's
/// address leaves (an assignment's right side, `&`, a copy that is not
/// trivial) or not (the assignment's left side, ++ and --, a trivial copy);
/// none for anything else.
std::optional<bool> escapesAtOperator(const Stmt *P, const Stmt *Child) {
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return !(BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Child);
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return !UO->isIncrementDecrementOp();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(P))
    return !(CE->getConstructor()->isCopyOrMoveConstructor() &&
             CE->getConstructor()->isTrivial());
  return std::nullopt;
}

/// A use of a variable that only reads or writes its value keeps it in a
/// register; anything else (address taken, bound to a reference, method
/// call) makes it memory.
bool FunctionAnalyzer::escapes(const DeclRefExpr *DRE) {
  const Stmt *Child = DRE;
  const Stmt *P = Parents->getParent(Child);
  // Through an lvalue `c ? x : y` only a read keeps x in a register.
  bool ThroughConditional = false;
  while (P) {
    if (isa<ParenExpr>(P) ||
        (isa<MemberExpr>(P) && !cast<MemberExpr>(P)->isArrow())) {
      Child = P;
      P = Parents->getParent(P);
      continue;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (CO->getCond() == Child || !CO->isGLValue())
        return CO->getCond() != Child; // a prvalue ?: copies its arms
      ThroughConditional = true;
      Child = P;
      P = Parents->getParent(P);
      continue;
    }
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
      if (ICE->getCastKind() == CK_LValueToRValue)
        return false;
      if (ICE->getCastKind() == CK_NoOp) {
        Child = P;
        P = Parents->getParent(P);
        continue;
      }
      return true;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && BO->getOpcode() == BO_Comma) {
      if (BO->getLHS()->IgnoreParens() == Child)
        return false; // discarded
      Child = P;      // `(a, x)` is the lvalue x
      P = Parents->getParent(P);
      continue;
    }
    if (ThroughConditional)
      return true;
    if (std::optional<bool> Out = escapesAtOperator(P, Child))
      return *Out;
    if (isa<MaterializeTemporaryExpr>(P)) {
      // Bound to a const reference parameter: read only.
      return !cast<Expr>(Child)->getType().isConstQualified() &&
             !cast<Expr>(P)->getType().isConstQualified();
    }
    return true;
  }
  return false;
}

void FunctionAnalyzer::findTracked() {
  struct Finder : RecursiveASTVisitor<Finder> {
    FunctionAnalyzer &A;
    SmallPtrSet<const VarDecl *, 16> Escaped;
    std::vector<const VarDecl *> Locals;
    explicit Finder(FunctionAnalyzer &A) : A(A) {}
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->isLocalVarDeclOrParm() && !VD->isStaticLocal() &&
          !VD->hasAttr<CUDASharedAttr>())
        Locals.push_back(VD);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (A.escapes(DRE))
          Escaped.insert(VD);
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *L) {
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
          if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
            Escaped.insert(VD);
      return true;
    }
  } F(*this);
  F.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  for (const ParmVarDecl *P : FD->parameters())
    F.Locals.push_back(P);
  for (const VarDecl *VD : F.Locals) {
    QualType T = VD->getType();
    bool ConstRefParam = isa<ParmVarDecl>(VD) && T->isReferenceType() &&
                         T.getNonReferenceType().isConstQualified();
    if ((isTrackableType(T) || ConstRefParam) && !F.Escaped.count(VD))
      Tracked.insert(VD);
  }
}

/// The statements the CFG lists that are not part of another listed
/// statement: each is evaluated once, as a whole, in its block.
void FunctionAnalyzer::findTopLevel() {
  SmallPtrSet<const Stmt *, 32> Elements;
  SmallPtrSet<const VarDecl *, 16> DeclaredByElement;
  for (const CFGBlock *B : *Graph)
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
        Elements.insert(S->getStmt());
        if (const auto *DS = dyn_cast<DeclStmt>(S->getStmt()))
          for (const Decl *D : DS->decls())
            if (const auto *VD = dyn_cast<VarDecl>(D))
              DeclaredByElement.insert(VD);
      }
  for (const Stmt *S : Elements) {
    bool Covered = false;
    const Stmt *Child = S;
    for (const Stmt *P = Parents->getParent(S); P; P = Parents->getParent(P)) {
      if (isa<Expr>(P)) {
        if (Elements.count(P)) {
          Covered = true;
          break;
        }
        Child = P;
        continue;
      }
      if (const auto *DS = dyn_cast<DeclStmt>(P)) {
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            if (VD->getInit() == Child && DeclaredByElement.count(VD))
              Covered = true;
      } else if (isa<ReturnStmt>(P)) {
        Covered = Elements.count(P);
      }
      break;
    }
    if (!Covered)
      TopLevel.insert(S);
  }
}

//===----------------------------------------------------------------------===//
// Fixed point
//===----------------------------------------------------------------------===//

AffineValue FunctionAnalyzer::run() {
  CFG::BuildOptions Options;
  Options.AddImplicitDtors = false;
  Options.AddTemporaryDtors = false;
  Options.AddInitializers = false;
  Graph = CFG::buildCFG(FD, FD->getBody(), &Ctx, Options);
  if (!Graph)
    return AffineValue::nonAffine();
  Parents = std::make_unique<ParentMap>(FD->getBody());
  Control = std::make_unique<ControlStructure>(*Graph);
  findTracked();
  if (Depth == 0 && FD == K.Kernel)
    for (const ParmVarDecl *P : FD->parameters())
      if (!Tracked.count(P))
        K.MemoryParams.insert(P);
  findTopLevel();

  unsigned N = Graph->getNumBlockIDs();
  JoinsOf.assign(N, {});
  ApproximateJoin = BitVector(N);
  ApproximatedCyclesSeen.clear();
  ExitedLoopSets.assign(N, BitVector());
  // The first fixed point marks each branch divergent as soon as its
  // condition is, and goes on from there: the sync dependence a divergent
  // branch causes reaches the branches after it in the same sweep, so a
  // chain of N branches each made divergent by the one before costs a few
  // sweeps, not N fixed points (once per round, as before, was cubic).
  // Values only rise while the iteration runs, so each branch it marks is
  // divergent at the fixed point too. When it marked any, the result is then
  // recomputed from scratch for the final set of divergent branches, which
  // is what the report states; the check after it finds nothing new but is
  // kept as the guarantee.
  if (dataflow(/*MarkDivergent=*/true))
    do
      dataflow(/*MarkDivergent=*/false);
    while (updateDivergence());

  if (Record)
    finalPass();

  const State &Exit = In[Graph->getExit().getBlockID()];
  auto It = Exit.find(FD);
  if (It == Exit.end())
    return FD->getReturnType()->isVoidType() ? AffineValue::scalar()
                                             : AffineValue::bottom();
  return It->second.Value;
}

bool FunctionAnalyzer::dataflow(bool MarkDivergent) {
  unsigned N = Graph->getNumBlockIDs();
  In.assign(N, State());
  Out.assign(N, State());
  Reached.assign(N, false);
  const auto &Order = Control->reversePostOrder();
  // A worklist in reverse post-order: a block is evaluated again only when
  // the state leaving one of its predecessors changed, or when a branch
  // found divergent made it a join or a loop exit. Sweeps go forward: what
  // a back edge (or a new join behind the current block) brings is taken up
  // by the next sweep, so that changes around a cycle are batched.
  std::vector<unsigned> Position(N, ~0u);
  for (unsigned I = 0; I < Order.size(); ++I)
    Position[Order[I]->getBlockID()] = I;
  BitVector Pending(Order.size(), true), Next(Order.size());
  bool Marked = false;
  int I = -1;
  auto Enqueue = [&](unsigned Block) {
    unsigned P = Position[Block];
    if (P == ~0u)
      return;
    (int(P) > I ? Pending : Next).set(P);
  };
  // Bounded: each value only rises in a finite lattice; the bound guards
  // against a transfer that is not monotone through some corner of C++.
  uint64_t Budget = uint64_t(64 + 4 * N) * Order.size();
  while (Budget) {
    I = I < 0 ? Pending.find_first() : Pending.find_next(I);
    if (I < 0) {
      if (Next.none())
        break;
      std::swap(Pending, Next);
      I = Pending.find_first();
    }
    --Budget;
    Pending.reset(I);
    const CFGBlock *B = Order[I];
    unsigned ID = B->getBlockID();
    State S = entryState(B);
    In[ID] = S;
    CurrentBlock = ID;
    transfer(B, S);
    if (!Reached[ID] || S != Out[ID]) {
      Out[ID] = std::move(S);
      Reached[ID] = true;
      for (const CFGBlock::AdjacentBlock &AB : B->succs())
        if (const CFGBlock *Succ = AB.getReachableBlock())
          Enqueue(Succ->getBlockID());
    }
    if (MarkDivergent && !Divergent.count(ID)) {
      SmallVector<unsigned, 8> Affected;
      if (markIfDivergent(B, Affected)) {
        Marked = true;
        for (unsigned A : Affected)
          Enqueue(A);
      }
    }
  }
  return Marked;
}

State FunctionAnalyzer::entryState(const CFGBlock *B) {
  State S;
  unsigned ID = B->getBlockID();
  if (B == &Graph->getEntry()) {
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      const ParmVarDecl *P = FD->getParamDecl(I);
      if (!Tracked.count(P))
        continue;
      AffineValue V = I < Params.size() ? Params[I] : AffineValue::nonAffine();
      S[P] = {V, {P}};
      DefBlock[P] = ID;
    }
    return S;
  }
  std::vector<const State *> Incoming;
  std::vector<const CFGBlock *> IncomingBlocks;
  for (const CFGBlock::AdjacentBlock &AB : B->preds()) {
    const CFGBlock *P = AB.getReachableBlock();
    if (!P || !Reached[P->getBlockID()])
      continue;
    Incoming.push_back(&Out[P->getBlockID()]);
    IncomingBlocks.push_back(P);
  }
  for (const State *PS : Incoming)
    for (const auto &[Key, VS] : *PS) {
      auto [It, New] = S.try_emplace(Key, VS);
      if (!New) {
        It->second.Value = AffineValue::join(It->second.Value, VS.Value);
        It->second.Defs = unionDefs(It->second.Defs, VS.Defs);
      }
    }
  if (Incoming.size() < 2 && ExitedLoopSets[ID].none())
    return S;

  for (auto &[Key, VS] : S) {
    // Sync dependence: the incoming definitions differ at a join of a
    // divergent branch.
    // Only predecessors on the branch's own paths count: the others bring
    // values some other (maybe scalar) branch chose. Paths on which the
    // variable has no definition yet (declared without initializer, or not
    // in scope) are ignored, as LLVM ignores undef incoming values.
    // Where all incoming definitions agree no branch's paths can differ:
    // the common case, checked once instead of once per divergent branch.
    bool AnyDiffer = false;
    if (!JoinsOf[ID].empty() || ApproximateJoin.test(ID)) {
      const DefSet *First = nullptr;
      for (const State *PS : Incoming) {
        auto It = PS->find(Key);
        if (It == PS->end() || It->second.Defs.empty())
          continue;
        if (!First)
          First = &It->second.Defs;
        else if (defsMayDiffer(*First, It->second.Defs)) {
          AnyDiffer = true;
          break;
        }
      }
    }
    if (AnyDiffer && ApproximateJoin.test(ID))
      VS.Value = AffineValue::join(VS.Value, AffineValue::nonAffine());
    for (const JoinOf &J : JoinsOf[ID]) {
      if (!AnyDiffer || VS.Value.isNonAffine())
        break; // nothing to add
      const BitVector &Paths = Control->pathBlocks(J.Branch);
      bool Differ = false;
      const DefSet *First = nullptr;
      for (size_t I = 0; I < Incoming.size(); ++I) {
        const CFGBlock *P = IncomingBlocks[I];
        if (P != J.Branch && !Paths.test(P->getBlockID()))
          continue;
        auto It = Incoming[I]->find(Key);
        if (It == Incoming[I]->end() || It->second.Defs.empty())
          continue;
        if (!First)
          First = &It->second.Defs;
        else if (defsMayDiffer(*First, It->second.Defs))
          Differ = true;
      }
      if (Differ)
        VS.Value.addCondition(J.Tag);
    }
    // Temporal divergence: a definition made inside a loop that threads
    // leave at different iterations.
    if (ExitedLoopSets[ID].any()) {
      for (size_t I = 0; I < Incoming.size(); ++I) {
        auto It = Incoming[I]->find(Key);
        if (It == Incoming[I]->end())
          continue;
        if (isManyDefs(It->second.Defs)) { // may be defined in any loop
          for (unsigned L : ExitedLoopSets[ID].set_bits())
            if (Control->loopBlocks(L).test(IncomingBlocks[I]->getBlockID()))
              VS.Value = AffineValue::join(VS.Value, AffineValue::nonAffine());
          continue;
        }
        for (const void *Def : It->second.Defs) {
          auto DB = DefBlock.find(Def);
          if (DB == DefBlock.end())
            continue;
          for (unsigned L : ExitedLoopSets[ID].set_bits())
            if (Control->loopBlocks(L).test(DB->second) &&
                Control->loopBlocks(L).test(IncomingBlocks[I]->getBlockID()))
              VS.Value = AffineValue::join(VS.Value, AffineValue::nonAffine());
        }
      }
    }
  }
  return S;
}

void FunctionAnalyzer::transfer(const CFGBlock *B, State &S) {
  for (const CFGElement &E : *B)
    if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
      if (TopLevel.count(CS->getStmt()))
        processElement(CS->getStmt(), S);
}

void FunctionAnalyzer::processElement(const Stmt *St, State &S) {
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      if (Tracked.count(VD)) {
        if (VD->getInit()) {
          define(VD, eval(VD->getInit(), S), VD, S);
        } else if (VD->getType()->isRecordType()) {
          define(VD, AffineValue::scalar(), VD, S); // default-constructed
        } else {
          // Uninitialized: no definition reaches yet (reading it is
          // undefined behaviour, like LLVM's undef).
          S[VD] = VarState{AffineValue::bottom(), {}};
        }
      } else if (const Expr *Init = VD->getInit()) {
        AffineValue V = eval(Init, S);
        if (isReportedMemoryLocal(VD))
          recordVariable(VD, V);
      }
    }
    return;
  }
  if (const auto *Asm = dyn_cast<AsmStmt>(St)) {
    // Inline assembly: its inputs are read; its outputs are written with
    // values nothing here can classify.
    for (const Expr *In : Asm->inputs())
      eval(In, S);
    for (const Expr *Out : Asm->outputs()) {
      if (const VarDecl *VD = trackedVar(Out)) {
        define(VD, AffineValue::nonAffine(), Out, S);
        continue;
      }
      K.noteWrite(evalAddress(Out, S));
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Out->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (isReportedMemoryLocal(VD))
            recordVariable(VD, AffineValue::nonAffine());
    }
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
    // A function that returns a reference into memory returns the address
    // of its lvalue (returnsAddress).
    const Expr *R = RS->getRetValue();
    AffineValue V = !R                   ? AffineValue::scalar()
                    : returnsAddress(FD) ? evalAddress(R, S)
                                         : eval(R, S);
    define(FD, V, RS, S);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(St))
    eval(E, S);
}

const Stmt *FunctionAnalyzer::conditionTag(const CFGBlock *B) {
  const Stmt *T = B->getTerminatorStmt();
  if (!T)
    return nullptr;
  if (const auto *I = dyn_cast<IfStmt>(T))
    return I->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(T))
    return W->getCond();
  if (const auto *F = dyn_cast<ForStmt>(T))
    return F->getCond() ? F->getCond() : T;
  if (const auto *D = dyn_cast<DoStmt>(T))
    return D->getCond();
  if (const auto *S = dyn_cast<SwitchStmt>(T))
    return S->getCond();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(T))
    return R->getCond();
  if (isa<BinaryOperator>(T)) {
    // A short-circuit inside a condition: the whole condition decides, so
    // `if (a && b)` counts as one divergent condition, not two.
    const Stmt *Outer = T;
    for (const Stmt *P = Parents->getParent(Outer); P;
         P = Parents->getParent(P)) {
      const auto *BO = dyn_cast<BinaryOperator>(P);
      const auto *UO = dyn_cast<UnaryOperator>(P);
      if (!isa<ParenExpr, ImplicitCastExpr>(P) && !(BO && BO->isLogicalOp()) &&
          !(UO && UO->getOpcode() == UO_LNot))
        break;
      Outer = P;
    }
    return Outer;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(T))
    return CO->getCond();
  return T;
}

bool FunctionAnalyzer::markIfDivergent(const CFGBlock *B,
                                       SmallVectorImpl<unsigned> &Affected) {
  unsigned ID = B->getBlockID();
  if (Divergent.count(ID) || !Reached[ID])
    return false;
  SmallPtrSet<const CFGBlock *, 4> Succs;
  for (const CFGBlock::AdjacentBlock &AB : B->succs())
    if (const CFGBlock *S = AB.getReachableBlock())
      Succs.insert(S);
  if (Succs.size() < 2)
    return false;
  bool IsDivergent = true; // computed gotos and unknown terminators
  if (const auto *Cond = dyn_cast_or_null<Expr>(
          B->getTerminatorCondition(/*StripParens=*/false))) {
    State Copy = Out[ID];
    IsDivergent = !eval(Cond, Copy).isUniform();
  }
  if (!IsDivergent)
    return false;
  const Stmt *Tag = conditionTag(B);
  Tag = Tag ? Tag : B->getTerminatorStmt();
  Divergent[ID] = Tag;
  // Join blocks and loops left are computed once per branch (cached).
  const BitVector &Joins = Control->joinBlocks(B);
  if (int Cycle = Control->approximatedCycle(B); Cycle >= 0) {
    // All branches of the cycle share joins and exited loops: the first one
    // found divergent registers them for all (one pass over the blocks, not
    // one per branch).
    if (!ApproximatedCyclesSeen.insert(&Control->loopBlocks(Cycle)).second)
      return true;
    for (unsigned J : Joins.set_bits()) {
      ApproximateJoin.set(J);
      Affected.push_back(J);
    }
  } else {
    for (unsigned J : Joins.set_bits()) {
      JoinsOf[J].push_back({B, Tag});
      Affected.push_back(J);
    }
  }
  for (unsigned L : Control->loopsDivergedBy(B))
    for (unsigned X : Control->loopExits(L)) {
      BitVector &Set = ExitedLoopSets[X];
      if (Set.size() < Control->numLoops())
        Set.resize(Control->numLoops());
      Set.set(L);
      Affected.push_back(X);
    }
  return true;
}

bool FunctionAnalyzer::updateDivergence() {
  bool Changed = false;
  SmallVector<unsigned, 8> Affected;
  for (const CFGBlock *B : Control->reversePostOrder())
    Changed |= markIfDivergent(B, Affected);
  return Changed;
}

void FunctionAnalyzer::finalPass() {
  Recording = true;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    AffineValue V = Tracked.count(P) && I < Params.size()
                        ? Params[I]
                        : AffineValue::nonAffine();
    recordVariable(P, V);
  }
  for (const CFGBlock *B : Control->reversePostOrder()) {
    unsigned ID = B->getBlockID();
    if (!Reached[ID])
      continue;
    State S = In[ID];
    CurrentBlock = ID;
    transfer(B, S);
    // Source-level branch conditions ending this block.
    const Stmt *T = B->getTerminatorStmt();
    const Expr *Cond = loopCondition(T);
    if (const auto *I = dyn_cast_or_null<IfStmt>(T))
      Cond = I->getCond();
    else if (const auto *Sw = dyn_cast_or_null<SwitchStmt>(T))
      Cond = Sw->getCond();
    if (Cond) {
      State Copy = S;
      bool Saved = Recording;
      Recording = false; // the condition's parts were recorded in place
      AffineValue V = eval(Cond, Copy);
      Recording = Saved;
      recordBranch(Cond, V);
    }
  }
  Recording = false;
}

//===----------------------------------------------------------------------===//
// State updates
//===----------------------------------------------------------------------===//

void FunctionAnalyzer::define(const Decl *Key, AffineValue V, const void *Site,
                              State &S, bool Weak) {
  VarState &VS = S[Key];
  if (Weak) {
    VS.Value = AffineValue::join(VS.Value, V);
    VS.Defs = unionDefs(VS.Defs, DefSet{Site});
  } else {
    VS.Value = V;
    VS.Defs = DefSet{Site};
  }
  DefBlock[Site] = CurrentBlock;
  if (const auto *VD = dyn_cast<VarDecl>(Key))
    recordVariable(VD, VS.Value);
}

AffineValue FunctionAnalyzer::readVar(const VarDecl *VD, State &S) {
  auto It = S.find(VD);
  AffineValue V = It == S.end() ? AffineValue::bottom() : It->second.Value;
  recordVariable(VD, V);
  return V;
}

void FunctionAnalyzer::merge(State &Into, const State &Other,
                             const Stmt *Cond) {
  for (const auto &[Key, VS] : Other) {
    auto [It, New] = Into.try_emplace(Key, VS);
    if (New) {
      if (Cond)
        It->second.Value.addCondition(Cond);
      continue;
    }
    bool Differ = defsMayDiffer(It->second.Defs, VS.Defs);
    It->second.Value = AffineValue::join(It->second.Value, VS.Value);
    It->second.Defs = unionDefs(It->second.Defs, VS.Defs);
    if (Differ && Cond)
      It->second.Value.addCondition(Cond);
  }
}

AffineValue FunctionAnalyzer::referenceAddress(const VarDecl *VD) {
  for (unsigned I = 0; I < FD->getNumParams() && I < Params.size(); ++I)
    if (FD->getParamDecl(I) == VD && !Tracked.count(VD))
      return Params[I];
  return AffineValue::nonAffine().setRootUnknown();
}

const VarDecl *FunctionAnalyzer::trackedVar(const Expr *LValue) {
  const Expr *E = LValue->IgnoreParens();
  while (true) {
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase()->IgnoreParens();
      continue;
    }
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      if (ICE->getCastKind() == CK_NoOp) {
        E = ICE->getSubExpr()->IgnoreParens();
        continue;
      }
    break;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (Tracked.count(VD))
        return VD;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

void FunctionAnalyzer::recordAccess(const Expr *E, AccessKind Kind,
                                    const AffineValue &Address) {
  if (Kind != AccessKind::Load)
    K.noteWrite(Address);
  if (!Recording)
    return;
  auto Key = std::make_pair(E, Kind);
  auto [It, New] = K.Accesses.try_emplace(
      Key, AccessRecord{E, Kind, Address, reportedFunction()});
  if (!New)
    It->second.Address = AffineValue::join(It->second.Address, Address);
  AffineValue &A = K.Out.Addresses[E];
  A = AffineValue::join(A, Address);
  llvm::SmallVector<AffineValue, 2> &Contexts = K.Out.AddressContexts[E];
  if (!llvm::is_contained(Contexts, Address))
    Contexts.push_back(Address);
}

void FunctionAnalyzer::recordBranch(const Expr *Cond, const AffineValue &V) {
  if (!Recording)
    return;
  auto [It, New] =
      K.Branches.try_emplace(Cond, ClassRecord{V, reportedFunction()});
  if (!New)
    It->second.Value = AffineValue::join(It->second.Value, V);
  AffineValue &C = K.Out.Conditions[Cond];
  C = AffineValue::join(C, V);
}

void FunctionAnalyzer::recordVariable(const VarDecl *VD, const AffineValue &V) {
  if (!Recording)
    return;
  auto [It, New] =
      K.Variables.try_emplace(VD, ClassRecord{V, reportedFunction()});
  if (!New)
    It->second.Value = AffineValue::join(It->second.Value, V);
}

std::optional<int64_t> FunctionAnalyzer::sizeOfPointee(QualType PtrTy) {
  QualType Pointee;
  if (const auto *PT = PtrTy->getAs<PointerType>())
    Pointee = PT->getPointeeType();
  else if (const auto *AT = Ctx.getAsArrayType(PtrTy))
    Pointee = AT->getElementType();
  else
    return std::nullopt;
  if (Pointee->isVoidType())
    return 1; // GNU arithmetic on void*
  if (Pointee->isIncompleteType() || Pointee->isDependentType() ||
      !Pointee->isConstantSizeType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(Pointee).getQuantity();
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

AffineValue FunctionAnalyzer::eval(const Expr *E, State &S) {
  AffineValue V = evalUncached(E, S);
  if (Recording) {
    AffineValue &Slot = K.Out.Values[E];
    Slot = AffineValue::join(Slot, V);
  }
  return V;
}

AffineValue FunctionAnalyzer::evalUncached(const Expr *E, State &S) {
  // Integer constant expressions (literals, sizeof, constexpr, warpSize).
  if (!E->isValueDependent() && E->isPRValue() &&
      E->getType()->isIntegralOrEnumerationType() && !E->HasSideEffects(Ctx)) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx) && R.Val.getInt().getSignificantBits() <= 64)
      return AffineValue::scalar(R.Val.getInt().getExtValue());
  }
  if (std::optional<CudaBuiltinRead> B = cudaBuiltinRead(E)) {
    if (B->Var == "threadIdx")
      return AffineValue::threadIndex(B->Dim);
    return AffineValue::scalar();
  }

  switch (E->getStmtClass()) {
  case Stmt::ParenExprClass:
    return eval(cast<ParenExpr>(E)->getSubExpr(), S);
  case Stmt::IntegerLiteralClass:
  case Stmt::CharacterLiteralClass:
  case Stmt::FloatingLiteralClass:
  case Stmt::CXXBoolLiteralExprClass:
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::GNUNullExprClass:
  case Stmt::UnaryExprOrTypeTraitExprClass:
  case Stmt::SizeOfPackExprClass:
  case Stmt::LambdaExprClass:
  case Stmt::ImplicitValueInitExprClass:
  case Stmt::CXXScalarValueInitExprClass:
    return AffineValue::scalar();
  case Stmt::StringLiteralClass:
    return AffineValue::scalar().setRootUnknown();
  case Stmt::DeclRefExprClass: {
    const ValueDecl *D = cast<DeclRefExpr>(E)->getDecl();
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (Tracked.count(VD))
        return readVar(VD, S);
      return AffineValue::nonAffine().setRootUnknown();
    }
    if (isa<EnumConstantDecl, FunctionDecl>(D))
      return AffineValue::scalar();
    return AffineValue::nonAffine();
  }
  case Stmt::ConstantExprClass:
    return eval(cast<ConstantExpr>(E)->getSubExpr(), S);
  case Stmt::ExprWithCleanupsClass:
    return eval(cast<ExprWithCleanups>(E)->getSubExpr(), S);
  case Stmt::MaterializeTemporaryExprClass:
    return eval(cast<MaterializeTemporaryExpr>(E)->getSubExpr(), S);
  case Stmt::CXXBindTemporaryExprClass:
    return eval(cast<CXXBindTemporaryExpr>(E)->getSubExpr(), S);
  case Stmt::CXXDefaultArgExprClass:
    return eval(cast<CXXDefaultArgExpr>(E)->getExpr(), S);
  case Stmt::CXXDefaultInitExprClass:
    return eval(cast<CXXDefaultInitExpr>(E)->getExpr(), S);
  case Stmt::PseudoObjectExprClass:
    return eval(cast<PseudoObjectExpr>(E)->getResultExpr(), S);
  case Stmt::OpaqueValueExprClass:
    if (const Expr *Src = cast<OpaqueValueExpr>(E)->getSourceExpr())
      return eval(Src, S);
    return AffineValue::nonAffine();
  case Stmt::ImplicitCastExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXReinterpretCastExprClass:
  case Stmt::CXXConstCastExprClass:
    return evalCast(cast<CastExpr>(E), S);
  case Stmt::UnaryOperatorClass:
    return evalUnary(cast<UnaryOperator>(E), S);
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
    return evalBinary(cast<BinaryOperator>(E), S);
  case Stmt::ConditionalOperatorClass:
  case Stmt::BinaryConditionalOperatorClass:
    return evalConditional(cast<AbstractConditionalOperator>(E), S,
                           E->isGLValue() ? ArmMode::Read : ArmMode::Value);
  case Stmt::CallExprClass:
    return evalCall(cast<CallExpr>(E), S);
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
    // A member function is followed with the object's address as `this`
    // (evalObject); a lambda's call operator like any call with a body
    // (captured variables read in a lambda's body are not tracked there:
    // unknown).
    return evalCall(cast<CallExpr>(E), S);
  case Stmt::CXXThisExprClass:
    return This;
  case Stmt::InitListExprClass: {
    AffineValue V = AffineValue::bottom();
    bool Any = false;
    for (const Expr *Init : cast<InitListExpr>(E)->inits()) {
      V = AffineValue::join(V, eval(Init, S));
      Any = true;
    }
    return Any ? V : AffineValue::scalar();
  }
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass: {
    const auto *CE = cast<CXXConstructExpr>(E);
    if (CE->getConstructor()->isCopyOrMoveConstructor() &&
        CE->getNumArgs() == 1)
      return evalRead(CE->getArg(0), S);
    // Field-insensitive: an object built from these values, unless the
    // constructor sets a field from something else (a body or member
    // initializers of its own, a field's default initializer:
    // `struct Lane { unsigned id = threadIdx.x % 8; }`), which is not
    // followed: then the object's value is unknown.
    AffineValue V = AffineValue::scalar();
    for (const Expr *Arg : CE->arguments())
      V = AffineValue::join(V, eval(Arg, S));
    if (initializesBeyondArguments(CE->getConstructor()))
      return AffineValue::nonAffine().setRootUnknown();
    return V;
  }
  case Stmt::ArraySubscriptExprClass:
  case Stmt::MemberExprClass:
    // An lvalue evaluated for its value outside an lvalue-to-rvalue
    // conversion (e.g. a record copied by a constructor).
    return evalRead(E, S);
  default:
    break;
  }
  // Anything else: its sub-expressions may define variables or access
  // memory; its value is unknown.
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      eval(CE, S);
  return AffineValue::nonAffine().setRootUnknown();
}

AffineValue FunctionAnalyzer::evalCast(const CastExpr *E, State &S) {
  const Expr *Sub = E->getSubExpr();
  switch (E->getCastKind()) {
  case CK_LValueToRValue:
    return evalRead(Sub, S);
  case CK_ArrayToPointerDecay:
    return evalAddress(Sub, S);
  case CK_FunctionToPointerDecay:
  case CK_NullToPointer:
  case CK_BuiltinFnToFnPtr:
    return AffineValue::scalar();
  case CK_IntegralToBoolean:
  case CK_PointerToBoolean:
  case CK_FloatingToBoolean:
  case CK_MemberPointerToBoolean: {
    AffineValue V = eval(Sub, S);
    std::optional<int64_t> Fold;
    if (V.constant())
      Fold = *V.constant() != 0;
    return AffineValue::predicate(V, AffineValue::scalar(0), Fold);
  }
  case CK_FloatingToIntegral:
    return AffineValue::opaqueConversion(eval(Sub, S));
  case CK_IntegralCast:
  case CK_NoOp:
  case CK_BitCast:
  case CK_IntegralToPointer:
  case CK_PointerToIntegral:
  case CK_IntegralToFloating:
  case CK_FloatingCast:
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
  case CK_BaseToDerived:
  case CK_AddressSpaceConversion:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
  case CK_ToVoid:
  case CK_BooleanToSignedIntegral:
  case CK_LValueBitCast:
    return eval(Sub, S);
  default:
    return AffineValue::opaqueConversion(eval(Sub, S));
  }
}

AffineValue FunctionAnalyzer::evalUnary(const UnaryOperator *E, State &S) {
  const Expr *Sub = E->getSubExpr();
  switch (E->getOpcode()) {
  case UO_AddrOf:
    return evalAddress(Sub, S);
  case UO_Deref:
    return evalRead(E, S);
  case UO_Plus:
  case UO_Extension:
    return eval(Sub, S);
  case UO_Minus:
    return AffineValue::neg(eval(Sub, S));
  case UO_Not: {
    AffineValue V = eval(Sub, S);
    std::optional<int64_t> Fold;
    if (V.constant())
      Fold = ~*V.constant();
    return AffineValue::scalarOnly(V, AffineValue::scalar(), Fold);
  }
  case UO_LNot: {
    AffineValue V = eval(Sub, S);
    std::optional<int64_t> Fold;
    if (V.constant())
      Fold = *V.constant() == 0;
    return AffineValue::predicate(V, AffineValue::scalar(), Fold);
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    int64_t Step = E->isIncrementOp() ? 1 : -1;
    if (const VarDecl *VD = trackedVar(Sub)) {
      AffineValue Old = readVar(VD, S);
      AffineValue New =
          Sub->getType()->isPointerType()
              ? AffineValue::pointerAdd(Old, AffineValue::scalar(Step),
                                        sizeOfPointee(Sub->getType()), false)
              : AffineValue::add(Old, AffineValue::scalar(Step));
      bool Member = isa<MemberExpr>(Sub->IgnoreParens());
      define(VD, New, E, S, /*Weak=*/Member);
      return E->isPrefix() ? New : Old;
    }
    AffineValue Address = evalAddress(Sub, S);
    recordAccess(Sub, AccessKind::Load, Address);
    recordAccess(Sub, AccessKind::Store, Address);
    return loadValue(Address);
  }
  default:
    eval(Sub, S);
    return AffineValue::nonAffine();
  }
}

AffineValue FunctionAnalyzer::evalBinary(const BinaryOperator *E, State &S) {
  BinaryOperatorKind Op = E->getOpcode();
  const Expr *LHS = E->getLHS(), *RHS = E->getRHS();

  if (Op == BO_Comma) {
    eval(LHS, S);
    return eval(RHS, S);
  }
  if (Op == BO_LAnd || Op == BO_LOr) {
    AffineValue L = eval(LHS, S);
    AffineValue R;
    if (RHS->HasSideEffects(Ctx)) {
      State Taken = S;
      R = eval(RHS, Taken);
      merge(S, Taken, L.isUniform() ? nullptr : LHS);
    } else {
      R = eval(RHS, S);
    }
    std::optional<int64_t> Fold;
    if (L.constant() && R.constant())
      Fold = Op == BO_LAnd ? (*L.constant() && *R.constant())
                           : (*L.constant() || *R.constant());
    return AffineValue::predicate(L, R, Fold);
  }

  auto Arith = [&](BinaryOperatorKind K, const AffineValue &L,
                   const AffineValue &R, QualType LT, QualType RT) {
    std::optional<int64_t> A = L.constant(), B = R.constant();
    auto Fold = [&](auto F) -> std::optional<int64_t> {
      if (A && B)
        return std::optional<int64_t>(F(*A, *B));
      return std::nullopt;
    };
    switch (K) {
    case BO_Add:
    case BO_Sub: {
      bool LP = LT->isPointerType() || LT->isArrayType();
      bool RP = RT->isPointerType() || RT->isArrayType();
      if (LP && RP) {
        // Pointer difference: bytes over element size.
        AffineValue D = AffineValue::sub(L, R);
        std::optional<int64_t> Size = sizeOfPointee(LT);
        if (D.isUniform())
          return AffineValue::scalar();
        if (D.isNonAffine() || !Size || *Size == 0)
          return AffineValue::nonAffine();
        return AffineValue::exactDivide(D, *Size);
      }
      if (LP)
        return AffineValue::pointerAdd(L, R, sizeOfPointee(LT), K == BO_Sub);
      if (RP)
        return AffineValue::pointerAdd(R, L, sizeOfPointee(RT), false);
      AffineValue V =
          K == BO_Add ? AffineValue::add(L, R) : AffineValue::sub(L, R);
      return V;
    }
    case BO_Mul:
      return AffineValue::mul(L, R);
    case BO_Shl:
      return AffineValue::shl(L, R);
    case BO_Div:
      return AffineValue::scalarOnly(
          L, R, Fold([](int64_t X, int64_t Y) -> std::optional<int64_t> {
            return Y ? std::optional<int64_t>(X / Y) : std::nullopt;
          }));
    case BO_Rem:
      return AffineValue::scalarOnly(
          L, R, Fold([](int64_t X, int64_t Y) -> std::optional<int64_t> {
            return Y ? std::optional<int64_t>(X % Y) : std::nullopt;
          }));
    case BO_Shr:
      return AffineValue::scalarOnly(
          L, R, Fold([](int64_t X, int64_t Y) -> std::optional<int64_t> {
            return Y >= 0 && Y < 63 ? std::optional<int64_t>(X >> Y)
                                    : std::nullopt;
          }));
    case BO_And:
      return AffineValue::scalarOnly(
          L, R, Fold([](int64_t X, int64_t Y) { return X & Y; }));
    case BO_Or:
      return AffineValue::scalarOnly(
          L, R, Fold([](int64_t X, int64_t Y) { return X | Y; }));
    case BO_Xor:
      return AffineValue::scalarOnly(
          L, R, Fold([](int64_t X, int64_t Y) { return X ^ Y; }));
    case BO_LT:
      return AffineValue::predicate(
          L, R, Fold([](int64_t X, int64_t Y) { return int64_t(X < Y); }));
    case BO_GT:
      return AffineValue::predicate(
          L, R, Fold([](int64_t X, int64_t Y) { return int64_t(X > Y); }));
    case BO_LE:
      return AffineValue::predicate(
          L, R, Fold([](int64_t X, int64_t Y) { return int64_t(X <= Y); }));
    case BO_GE:
      return AffineValue::predicate(
          L, R, Fold([](int64_t X, int64_t Y) { return int64_t(X >= Y); }));
    case BO_EQ:
      return AffineValue::predicate(
          L, R, Fold([](int64_t X, int64_t Y) { return int64_t(X == Y); }));
    case BO_NE:
      return AffineValue::predicate(
          L, R, Fold([](int64_t X, int64_t Y) { return int64_t(X != Y); }));
    case BO_Cmp:
      return AffineValue::predicate(L, R, std::nullopt);
    default:
      return AffineValue::nonAffine();
    }
  };

  if (E->isAssignmentOp()) {
    AffineValue R = eval(RHS, S);
    const VarDecl *VD = trackedVar(LHS);
    bool Member = VD && isa<MemberExpr>(LHS->IgnoreParens());
    if (VD) {
      AffineValue New = R;
      if (const auto *CAO = dyn_cast<CompoundAssignOperator>(E)) {
        AffineValue Old = readVar(VD, S);
        New = Arith(BinaryOperator::getOpForCompoundAssignment(Op), Old, R,
                    CAO->getComputationLHSType(), RHS->getType());
      }
      define(VD, New, E, S, /*Weak=*/Member);
      return New;
    }
    AffineValue Address = evalAddress(LHS, S);
    if (Op != BO_Assign)
      recordAccess(LHS, AccessKind::Load, Address);
    recordAccess(LHS, AccessKind::Store, Address);
    if (Op == BO_Assign)
      return R;
    return Arith(BinaryOperator::getOpForCompoundAssignment(Op),
                 loadValue(Address), R, LHS->getType(), RHS->getType());
  }

  AffineValue L = eval(LHS, S);
  AffineValue R = eval(RHS, S);
  return Arith(Op, L, R, LHS->getType(), RHS->getType());
}

AffineValue
FunctionAnalyzer::evalConditional(const AbstractConditionalOperator *E,
                                  State &S, ArmMode Mode) {
  const Expr *CondE = E->getCond();
  AffineValue C = eval(CondE, S);
  recordBranch(CondE, C);
  const Expr *TrueE = E->getTrueExpr(), *FalseE = E->getFalseExpr();
  auto Arm = [&](const Expr *X, State &St) {
    switch (Mode) {
    case ArmMode::Value:
      return eval(X, St);
    case ArmMode::Read:
      return evalRead(X, St);
    case ArmMode::Address:
      return evalAddress(X, St);
    }
    llvm_unreachable("bad mode");
  };
  AffineValue A, B;
  const Stmt *Tag = C.isUniform() ? nullptr : CondE;
  if (TrueE->HasSideEffects(Ctx) || FalseE->HasSideEffects(Ctx)) {
    State Other = S;
    A = Arm(TrueE, S);
    B = Arm(FalseE, Other);
    merge(S, Other, Tag);
  } else {
    A = Arm(TrueE, S);
    B = Arm(FalseE, S);
  }
  AffineValue V = AffineValue::join(A, B);
  if (Tag)
    V.addCondition(Tag);
  return V;
}

AffineValue FunctionAnalyzer::evalObject(const CallExpr *E, State &S) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(E->getDirectCallee());
  const Expr *Object = nullptr;
  bool Arrow = false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    Object = MC->getImplicitObjectArgument();
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      Arrow = ME->isArrow();
  } else if (isa<CXXOperatorCallExpr>(E) && Method && E->getNumArgs() > 0) {
    Object = E->getArg(0);
  }
  AffineValue Unknown = AffineValue::nonAffine().setRootUnknown();
  if (!Object)
    return Unknown;
  // Inside a lambda's body `this` is the enclosing object's, not the
  // closure's; a static member has none.
  if (!Method || !Method->isInstance() ||
      Method->isExplicitObjectMemberFunction() ||
      Method->getParent()->isLambda()) {
    eval(Object, S);
    return Unknown;
  }
  return Arrow ? eval(Object, S) : evalAddress(Object, S);
}

AffineValue FunctionAnalyzer::evalCall(const CallExpr *E, State &S) {
  const FunctionDecl *Callee = calledFunction(E);
  // The object of a member call, evaluated first as C++17 sequences it; for
  // an operator it is also the first argument.
  AffineValue Object = evalObject(E, S);
  const bool ObjectIsArgument =
      isa<CXXOperatorCallExpr>(E) &&
      isa_and_nonnull<CXXMethodDecl>(E->getDirectCallee());
  std::vector<AffineValue> Args;
  for (const Expr *Arg : E->arguments())
    Args.push_back(ObjectIsArgument && Args.empty() ? Object : eval(Arg, S));

  auto WritesThroughPointers = [&] {
    for (unsigned I = 0; I < E->getNumArgs(); ++I) {
      QualType T = E->getArg(I)->getType();
      if (T->isPointerType() && !T->getPointeeType().isConstQualified())
        K.noteWrite(Args[I]);
    }
  };

  // A virtual call decided at run time may run any overrider, each of
  // which may write anything: like a call through a pointer, and more.
  // The overriders are open functions (findOpenFunctions).
  if (dispatchedAtRunTime(E)) {
    WritesThroughPointers();
    K.WritesUnknown = true;
    return AffineValue::nonAffine().setRootUnknown();
  }
  // A member operator (a lambda's operator()) has no identifier and is no
  // CUDA function: straight to its body.
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  const bool Operator =
      Method && !Callee->getIdentifier() && !Method->isStatic();
  if (!Callee || (!Callee->getIdentifier() && !Operator)) {
    WritesThroughPointers();
    return AffineValue::nonAffine().setRootUnknown();
  }
  if (Operator)
    return evalBody(E, Callee, Args, S, Object);
  if (cudaAtomic(E)) {
    recordAccess(E, AccessKind::Atomic, Args[0]);
    return AffineValue::nonAffine().setRootUnknown();
  }
  StringRef Name = cudaFunctionName(Callee);
  if (Name == "__ldg" && !Args.empty()) {
    recordAccess(E, AccessKind::Load, Args[0]);
    return loadValue(Args[0]);
  }

  auto AllUniform = [&] {
    return llvm::all_of(Args,
                        [](const AffineValue &V) { return V.isUniform(); });
  };
  switch (cudaCallKind(E)) {
  case CudaCallKind::Void:
    return AffineValue::scalar();
  case CudaCallKind::Expect:
    return Args.empty() ? AffineValue::scalar() : Args[0];
  case CudaCallKind::Pure:
    return AllUniform() ? AffineValue::scalar() : AffineValue::nonAffine();
  case CudaCallKind::Divergent:
    return AffineValue::nonAffine();
  case CudaCallKind::MinMax: {
    if (Args.size() != 2)
      return AffineValue::nonAffine();
    if (AllUniform()) {
      std::optional<int64_t> A = Args[0].constant(), B = Args[1].constant();
      std::optional<int64_t> Fold;
      if (A && B && E->getType()->isIntegerType())
        Fold = Callee->getName().contains("min") ? std::min(*A, *B)
                                                 : std::max(*A, *B);
      return AffineValue::scalar(Fold);
    }
    // min(a, b) is a < b ? a : b: a tuple chosen by the comparison.
    AffineValue V = AffineValue::join(Args[0], Args[1]);
    V.addCondition(E);
    return V;
  }
  case CudaCallKind::Other:
    break;
  }
  return evalBody(E, Callee, Args, S, Object);
}

AffineValue FunctionAnalyzer::evalBody(const CallExpr *E,
                                       const FunctionDecl *Callee,
                                       const std::vector<AffineValue> &Args,
                                       State &S, const AffineValue &Object) {
  auto WritesThroughPointers = [&] {
    for (unsigned I = 0; I < E->getNumArgs(); ++I) {
      QualType T = E->getArg(I)->getType();
      if (T->isPointerType() && !T->getPointeeType().isConstQualified())
        K.noteWrite(Args[I]);
    }
  };
  auto AllUniform = [&] {
    return llvm::all_of(Args,
                        [](const AffineValue &V) { return V.isUniform(); });
  };
  // An operator call of a member function passes the object as its first
  // argument; the function's parameters are the arguments after it.
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  const unsigned Offset = isa<CXXOperatorCallExpr>(E) && Method &&
                                  Method->isInstance() &&
                                  !Method->isExplicitObjectMemberFunction()
                              ? 1
                              : 0;

  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def) {
    WritesThroughPointers();
    if (Callee->getBuiltinID() && AllUniform())
      return AffineValue::scalar();
    return AffineValue::nonAffine().setRootUnknown();
  }

  // A __device__ function with a body: analyse it for these arguments.
  // A value for each parameter; for a non-const reference, the address of
  // the object it is bound to (the callee reads and writes through it).
  std::vector<AffineValue> ParamValues;
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const unsigned A = I + Offset;
    AffineValue V = A < Args.size() ? Args[A] : AffineValue::nonAffine();
    QualType PT = Def->getParamDecl(I)->getType();
    if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified()) {
      if (A < E->getNumArgs()) {
        State Scratch = S;
        bool Saved = Recording;
        Recording = false; // evaluated above already
        V = evalAddress(E->getArg(A), Scratch);
        Recording = Saved;
      } else {
        V = AffineValue::nonAffine().setRootUnknown();
      }
    }
    ParamValues.push_back(V);
  }
  std::string Key = std::to_string(reinterpret_cast<uintptr_t>(Def)) + "(";
  for (const AffineValue &V : ParamValues)
    Key += V.key() + ";";
  Key += ")" + Object.key();
  if (Depth + 1 > MaxCallDepth || K.InProgress.count(Key))
    return AffineValue::nonAffine().setRootUnknown();
  // A function called from code the analysis does not see (its address is
  // taken, or other translation units link to it) also runs with arguments
  // that may differ per lane: its accesses are reported for that context
  // too, joined with this call's. The return value is this call's own.
  if (Recording && K.Open.count(Def->getCanonicalDecl())) {
    std::vector<AffineValue> Unknown(Def->getNumParams(),
                                     AffineValue::nonAffine().setRootUnknown());
    std::string OpenKey =
        std::to_string(reinterpret_cast<uintptr_t>(Def)) + "(open)";
    if (!K.Recorded.count(OpenKey) && !K.InProgress.count(OpenKey)) {
      // What the function writes there is not this kernel's doing: the
      // read-only objects of the kernel stay as its own calls leave them.
      auto Written = K.Written;
      bool WritesUnknown = K.WritesUnknown, WritesGlobal = K.WritesGlobal;
      K.InProgress.insert(OpenKey);
      FunctionAnalyzer(K, Def, Unknown, Depth + 1, /*Record=*/true).run();
      K.InProgress.erase(OpenKey);
      K.Recorded.insert(OpenKey);
      K.Written = std::move(Written);
      K.WritesUnknown = WritesUnknown;
      K.WritesGlobal = WritesGlobal;
    }
  }
  bool NeedRecord = Recording && !K.Recorded.count(Key);
  auto Memo = K.Memo.find(Key);
  if (Memo != K.Memo.end() && !NeedRecord)
    return Memo->second;
  K.InProgress.insert(Key);
  FunctionAnalyzer Callee2(K, Def, ParamValues, Depth + 1, NeedRecord, Object);
  AffineValue Result = Callee2.run();
  K.InProgress.erase(Key);
  K.Memo[Key] = Result;
  if (NeedRecord)
    K.Recorded.insert(Key);
  return Result;
}

AffineValue FunctionAnalyzer::loadValue(const AffineValue &Address) {
  const ValueDecl *Root = Address.root();
  // One address read by every thread gives one value only where the
  // threads share the memory: a function's own local (a record built by a
  // constructor, whose address the call takes) is every thread's own.
  if (Address.isUniform() && !Address.isBottom() && Root &&
      K.ReadOnly.count(Root) && spaceOf(Root) != AddressSpace::Local)
    return AffineValue::scalar().setRootUnknown();
  if (Address.isBottom())
    return AffineValue::bottom();
  return AffineValue::nonAffine().setRootUnknown();
}

AffineValue FunctionAnalyzer::evalRead(const Expr *LValue, State &S) {
  const Expr *L = LValue->IgnoreParens();
  if (const VarDecl *VD = trackedVar(L))
    return readVar(VD, S);
  if (cudaBuiltinRead(L))
    return eval(L, S);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
    if (isa<EnumConstantDecl, FunctionDecl>(DRE->getDecl()))
      return eval(L, S);
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      // A reference: a load through the address it is bound to.
      if (VD->getType()->isReferenceType()) {
        AffineValue Address = referenceAddress(VD);
        recordAccess(L, AccessKind::Load, Address);
        return loadValue(Address);
      }
    }
  }
  // A call that returns a reference evaluates to its referent's address
  // (returnsAddress); reading it loads there.
  if (isa<CallExpr>(L) && returnsAddress(calledFunction(cast<CallExpr>(L)))) {
    AffineValue Address = eval(L, S);
    recordAccess(L, AccessKind::Load, Address);
    return loadValue(Address);
  }
  if (isa<PseudoObjectExpr, CallExpr, CXXMemberCallExpr, CXXOperatorCallExpr,
          MaterializeTemporaryExpr, CompoundLiteralExpr>(L))
    return eval(L, S);
  // In C++ `++x`, `x = v`, `x += v` and `(a, x)` are lvalues: reading one
  // reads what the operator left in its operand.
  if (const auto *UO = dyn_cast<UnaryOperator>(L))
    if (UO->isPrefix() && UO->isIncrementDecrementOp())
      return eval(L, S);
  if (const auto *BO = dyn_cast<BinaryOperator>(L))
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return eval(L, S);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(L))
    return evalConditional(CO, S, ArmMode::Read);
  AffineValue Address = evalAddress(L, S);
  recordAccess(L, AccessKind::Load, Address);
  AffineValue V = loadValue(Address);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (isReportedMemoryLocal(VD))
        recordVariable(VD, V);
  return V;
}

bool FunctionAnalyzer::isReportedMemoryLocal(const VarDecl *VD) const {
  // Locals kept in memory (address taken, passed by reference) are still
  // variables of the function; arrays and __shared__ objects are not.
  return VD->isLocalVarDeclOrParm() && !VD->isStaticLocal() &&
         !VD->hasAttr<CUDASharedAttr>() && !VD->getType()->isArrayType() &&
         !VD->getType()->isReferenceType() && !Tracked.count(VD);
}

AffineValue FunctionAnalyzer::evalAddress(const Expr *LValue, State &S) {
  const Expr *L = LValue->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (VD->getType()->isReferenceType())
        return referenceAddress(VD);
      return AffineValue::scalar().setRoot(VD);
    }
    return AffineValue::scalar().setRootUnknown();
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(L)) {
    AffineValue Base = eval(ASE->getBase(), S);
    AffineValue Index = eval(ASE->getIdx(), S);
    return AffineValue::pointerAdd(
        Base, Index, sizeOfPointee(ASE->getBase()->getType()), false);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(L)) {
    if (UO->getOpcode() == UO_Deref)
      return eval(UO->getSubExpr(), S);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(L)) {
    AffineValue Base =
        ME->isArrow() ? eval(ME->getBase(), S) : evalAddress(ME->getBase(), S);
    std::optional<int64_t> Offset;
    if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      if (!Field->isBitField() && !Field->getParent()->isDependentType())
        Offset =
            Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Field)).getQuantity();
    return AffineValue::pointerAdd(Base, AffineValue::scalar(Offset), 1, false);
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(L))
    if (ICE->getCastKind() == CK_NoOp ||
        ICE->getCastKind() == CK_DerivedToBase ||
        ICE->getCastKind() == CK_UncheckedDerivedToBase)
      return evalAddress(ICE->getSubExpr(), S);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(L))
    return evalConditional(CO, S, ArmMode::Address);
  if (isa<clang::StringLiteral, CompoundLiteralExpr>(L))
    return AffineValue::scalar().setRootUnknown();
  // A call returning a reference: the address its body returns.
  if (isa<CallExpr>(L) && returnsAddress(calledFunction(cast<CallExpr>(L))))
    return eval(L, S);
  // A temporary, ...: evaluate for effects.
  eval(L, S);
  return AffineValue::nonAffine().setRootUnknown();
}

//===----------------------------------------------------------------------===//
// Driving the analysis of one kernel
//===----------------------------------------------------------------------===//

std::string sourceText(const SourceManager &SM, const LangOptions &LO,
                       const Expr *E) {
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getExpansionLoc(E->getBeginLoc()), SM.getExpansionLoc(E->getEndLoc()));
  std::string Text = Lexer::getSourceText(Range, SM, LO).str();
  // One line, short.
  std::string Flat;
  bool Space = false;
  for (char C : Text) {
    if (C == '\n' || C == '\t' || C == ' ') {
      Space = true;
      continue;
    }
    if (Space && !Flat.empty())
      Flat += ' ';
    Space = false;
    Flat += C;
  }
  if (Flat.size() > 60)
    Flat = Flat.substr(0, 57) + "...";
  return Flat;
}

/// Just past the last character of \p E (expansion locations), for the HTML
/// report's highlighting.
Position endPosition(const ASTContext &Ctx, const Expr *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = SM.getExpansionRange(E->getEndLoc()).getEnd();
  return toPosition(SM,
                    Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts()));
}

/// The size of what an access reads or writes (an atomic: its value type);
/// 0 when unknown.
unsigned accessBytes(const ASTContext &Ctx, const Expr *E) {
  QualType T = E->getType();
  // A member function's callee has a placeholder type and no size.
  if (T.isNull() || T->isPlaceholderType() || T->isFunctionType() ||
      T->isDependentType() || T->isIncompleteType() || T->isSizelessType() ||
      !T->isConstantSizeType())
    return 0;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

template <typename Entry>
void fillClassified(Entry &Out, const AffineValue &V, const FunctionDecl *Fn,
                    const SourceManager &SM) {
  Out.Class = V.valueClass();
  if (Out.Class == ValueClass::Affine && V.conditions().empty() &&
      !V.isPredicate())
    Out.StrideValues = V.strides();
  std::vector<Position> Conds;
  for (const Stmt *C : V.conditions())
    Conds.push_back(toPosition(SM, C->getBeginLoc()));
  llvm::sort(Conds);
  Out.DivergentConditions = std::move(Conds);
  if (Fn)
    Out.Function = Fn->getNameAsString();
}

void buildReport(KernelContext &K, PassDiagnostics *Remarks,
                 std::set<std::pair<unsigned, std::string>> &Emitted) {
  const SourceManager &SM = K.Ctx.getSourceManager();
  const LangOptions &LO = K.Ctx.getLangOpts();
  KernelReport &R = K.Out.Report;
  std::string Name;
  llvm::raw_string_ostream NameOS(Name);
  K.Kernel->getNameForDiagnostic(NameOS, K.Ctx.getPrintingPolicy(), false);
  R.Name = Name;
  R.Pos = toPosition(SM, K.Kernel->getLocation());
  R.File = fileOf(SM, K.Kernel->getLocation());

  struct PendingRemark {
    SourceLocation Loc;
    std::string Text;
    ValueClass Class;
    bool Branch;
  };
  std::vector<PendingRemark> Pending;
  auto Describe = [](const AffineValue &V, StringRef StrideUnit) {
    std::string S = toString(V.valueClass()).str();
    if (V.valueClass() != ValueClass::Affine)
      return S;
    if (!V.conditions().empty())
      return S + " (a divergent tuple on " +
             std::to_string(V.conditions().size()) +
             (V.conditions().size() == 1 ? " condition)" : " conditions)");
    if (StrideUnit.empty() || V.isPredicate())
      return S;
    std::optional<int64_t> X = V.strides()[0];
    return S + ", stride " + (X ? std::to_string(*X) : std::string("unknown")) +
           " " + StrideUnit.str();
  };

  for (const auto &[Key, A] : K.Accesses) {
    AccessEntry E;
    fillClassified(E, A.Address, A.Function, SM);
    E.Pos = toPosition(SM, A.E->getBeginLoc());
    E.End = endPosition(K.Ctx, A.E);
    E.File = fileOf(SM, A.E->getBeginLoc());
    E.Kind = A.Kind;
    E.Bytes = accessBytes(K.Ctx, A.E);
    E.Space = spaceOf(A.Address.root());
    E.Text = sourceText(SM, LO, A.E);
    R.Accesses.push_back(E);
    if (Remarks) {
      std::string Text;
      if (A.Kind == AccessKind::Atomic)
        Text = "atomic on " + toString(E.Space).str() + " memory";
      else
        Text = (A.Kind == AccessKind::Load ? "load from " : "store to ") +
               toString(E.Space).str() + " memory";
      Pending.push_back({A.E->getBeginLoc(),
                         Text + " is " + Describe(A.Address, "bytes"),
                         A.Address.valueClass(), /*Branch=*/false});
    }
  }
  for (const auto &[Cond, B] : K.Branches) {
    BranchEntry E;
    fillClassified(E, B.Value, B.Function, SM);
    E.StrideValues.reset();
    E.Pos = toPosition(SM, Cond->getBeginLoc());
    E.End = endPosition(K.Ctx, Cond);
    E.File = fileOf(SM, Cond->getBeginLoc());
    E.Text = sourceText(SM, LO, Cond);
    R.Branches.push_back(E);
    if (Remarks)
      Pending.push_back({Cond->getBeginLoc(),
                         "branch condition is " + Describe(B.Value, ""),
                         B.Value.valueClass(), /*Branch=*/true});
  }
  for (const auto &[VD, V] : K.Variables) {
    VariableEntry E;
    fillClassified(E, V.Value, V.Function, SM);
    E.Name = VD->getNameAsString();
    E.Pos = toPosition(SM, VD->getBeginLoc());
    E.File = fileOf(SM, VD->getBeginLoc());
    E.Line = E.Pos.Line;
    R.Variables.push_back(E);
  }
  // Total orders (std::stable_sort trips a deprecation in libstdc++ 12
  // under clang 22): position, then what tells entries at one position apart.
  // The main file's entries first (File empty), then each other file's.
  llvm::sort(R.Accesses, [](const AccessEntry &X, const AccessEntry &Y) {
    return std::tie(X.File, X.Pos.Line, X.Pos.Column, X.Kind, X.Text,
                    X.Function) < std::tie(Y.File, Y.Pos.Line, Y.Pos.Column,
                                           Y.Kind, Y.Text, Y.Function);
  });
  llvm::sort(R.Branches, [](const BranchEntry &X, const BranchEntry &Y) {
    return std::tie(X.File, X.Pos.Line, X.Pos.Column, X.Text, X.Function) <
           std::tie(Y.File, Y.Pos.Line, Y.Pos.Column, Y.Text, Y.Function);
  });
  llvm::sort(R.Variables, [](const VariableEntry &X, const VariableEntry &Y) {
    return std::tie(X.File, X.Pos.Line, X.Pos.Column, X.Name, X.Function) <
           std::tie(Y.File, Y.Pos.Line, Y.Pos.Column, Y.Name, Y.Function);
  });

  if (Remarks) {
    llvm::sort(Pending, [&](const PendingRemark &X, const PendingRemark &Y) {
      SourceLocation A = SM.getExpansionLoc(X.Loc),
                     B = SM.getExpansionLoc(Y.Loc);
      if (A != B)
        return SM.isBeforeInTranslationUnit(A, B);
      return X.Text < Y.Text;
    });
    for (const PendingRemark &P : Pending) {
      SourceLocation Loc = SM.getExpansionLoc(P.Loc);
      if (!Emitted.insert({Loc.getRawEncoding(), P.Text}).second)
        continue;
      Remarks->classified(Loc, P.Class, P.Branch, P.Text);
    }
  }
}

/// The functions other code may call with any arguments: every function
/// whose address is taken anywhere in the translation unit (called through
/// a pointer), every virtual member function, and under relocatable device code
/// (-fgpu-rdc, nvcc -rdc) every
/// __device__ function with external linkage (other translation units may
/// call it).
OpenFunctions findOpenFunctions(ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SmallPtrSet<const DeclRefExpr *, 16> Callees;
    OpenFunctions Open;
    bool RDC;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitImplicitCode() const { return true; }
    bool VisitCallExpr(CallExpr *CE) {
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
        Callees.insert(DRE);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      // Children are visited after their parent: a callee is known here.
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
        if (!Callees.count(DRE))
          Open.insert(FD->getCanonicalDecl());
      return true;
    }
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (RDC && FD->hasAttr<CUDADeviceAttr>() &&
          !FD->hasAttr<CUDAGlobalAttr>() && FD->isExternallyVisible())
        Open.insert(FD->getCanonicalDecl());
      // A virtual function's address is in its class's vtable: a call
      // decided at run time may reach it from any call of the method.
      if (const auto *M = dyn_cast<CXXMethodDecl>(FD); M && M->isVirtual())
        Open.insert(FD->getCanonicalDecl());
      return true;
    }
  } F;
  F.RDC = Ctx.getLangOpts().GPURelocatableDeviceCode;
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(F.Open);
}

/// Whether code may reach the storage of kernel parameter \p P through a
/// pointer the analysis does not follow. Every use of P must only read or
/// write its value or its fields' (as FunctionAnalyzer::escapes allows), be
/// copied, or be the object of a member function (or the referent of a
/// reference parameter) whose body uses `this` (the parameter) in the same
/// ways. Anything else (`&P`, an array field decaying to a pointer, `this`
/// stored or passed on, a capture of `this`) lets the address out, and a
/// store through an unknown pointer might then land in P.
class StorageEscape {
public:
  explicit StorageEscape(ASTContext &Ctx) : Ctx(Ctx) {}

  bool escapes(const ParmVarDecl *P, const FunctionDecl *Kernel) {
    return usesEscape(Kernel->getBody(), P);
  }

private:
  ASTContext &Ctx;
  // Per member function or reference parameter: whether `this` (the
  // referent) escapes; in progress counts as not (a cycle adds no use).
  DenseMap<const Decl *, bool> Done;
  SmallVector<const Decl *, 8> Pending; // checked in the current outermost
  unsigned Depth = 0;

  /// Whether a use in \p Body of \p Object (a variable, or null for
  /// `this`) lets it out.
  bool usesEscape(const Stmt *Body, const VarDecl *Object) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const VarDecl *Object;
      SmallVector<const Expr *, 8> Uses;
      bool Captured = false; // by reference, or `this`
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        if (Object && E->getDecl() == Object)
          Uses.push_back(E);
        return true;
      }
      bool VisitCXXThisExpr(CXXThisExpr *E) {
        if (!Object)
          Uses.push_back(E);
        return true;
      }
      bool VisitLambdaExpr(LambdaExpr *L) {
        for (const LambdaCapture &C : L->captures())
          if (Object ? C.capturesVariable() && C.getCapturedVar() == Object &&
                           C.getCaptureKind() == LCK_ByRef
                     : C.capturesThis())
            Captured = true;
        return true;
      }
    } F;
    F.Object = Object;
    F.TraverseStmt(const_cast<Stmt *>(Body));
    if (F.Captured)
      return true;
    for (const Expr *Use : F.Uses)
      if (lvalueEscapes(Use))
        return true;
    return false;
  }

  /// Whether \p Key's check (a function's `this`, a reference parameter)
  /// finds an escape, computed once.
  template <typename Check> bool once(const Decl *Key, Check &&C) {
    if (auto It = Done.find(Key); It != Done.end())
      return It->second;
    if (Depth > 16)
      return true;
    Done[Key] = false;
    Pending.push_back(Key);
    ++Depth;
    bool Out = C();
    --Depth;
    Done[Key] = Out;
    // A "no" found while an enclosing check was still assumed "no" holds
    // only if that one ends "no" too: when the outermost check ends "yes",
    // forget the others' "no".
    if (Depth == 0) {
      if (Out)
        for (const Decl *D : Pending)
          if (!Done[D])
            Done.erase(D);
      Pending.clear();
    }
    return Out;
  }

  const Stmt *parentOf(const Stmt *S) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    return Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
  }

  /// \p L: an lvalue of the object, or `this` (a pointer to it).
  bool lvalueEscapes(const Expr *L) {
    const Stmt *Child = L;
    bool Pointer = isa<CXXThisExpr>(L);
    for (const Stmt *P = parentOf(Child); P; Child = P, P = parentOf(P)) {
      if (isa<ParenExpr>(P))
        continue;
      if (Pointer) {
        // `this->f` and `*this` are lvalues of the object or its field.
        if (const auto *ME = dyn_cast<MemberExpr>(P);
            ME && ME->isArrow() && ME->getBase()->IgnoreParens() == Child) {
          Pointer = false;
          if (isa<CXXMethodDecl>(ME->getMemberDecl()))
            return memberCallEscapes(ME);
          continue;
        }
        if (const auto *UO = dyn_cast<UnaryOperator>(P);
            UO && UO->getOpcode() == UO_Deref) {
          Pointer = false;
          continue;
        }
        return true;
      }
      if (const auto *ME = dyn_cast<MemberExpr>(P)) {
        if (ME->isArrow())
          return true;
        if (isa<CXXMethodDecl>(ME->getMemberDecl()))
          return memberCallEscapes(ME);
        continue; // a field: an lvalue inside the object
      }
      if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
        switch (ICE->getCastKind()) {
        case CK_LValueToRValue:
          return false;
        case CK_NoOp:
        case CK_DerivedToBase:
        case CK_UncheckedDerivedToBase:
          continue;
        case CK_ArrayToPointerDecay:
          // An array field indexed in place stays an lvalue of the object.
          if (const auto *ASE =
                  dyn_cast_or_null<ArraySubscriptExpr>(parentOf(P));
              ASE && ASE->getBase()->IgnoreParens() == P) {
            P = ASE;
            continue;
          }
          return true;
        default:
          return true;
        }
      }
      if (std::optional<bool> Out = escapesAtOperator(P, Child))
        return *Out;
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
        const auto *M = dyn_cast_or_null<CXXMethodDecl>(calledFunction(OC));
        if (OC->getNumArgs() > 0 && OC->getArg(0)->IgnoreParens() == Child &&
            M && M->isInstance() && !M->isExplicitObjectMemberFunction())
          return methodEscapes(M);
        return referenceArgumentEscapes(OC, Child);
      }
      if (const auto *C = dyn_cast<CallExpr>(P))
        return referenceArgumentEscapes(C, Child);
      return true;
    }
    return true;
  }

  /// \p ME names a member function of the object: the call must run it on
  /// the object, and its body must keep `this` in.
  bool memberCallEscapes(const MemberExpr *ME) {
    const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(parentOf(ME));
    if (!Call || Call->getCallee()->IgnoreParens() != ME)
      return true;
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(calledFunction(Call));
    if (!M)
      return true; // decided at run time
    return M->isInstance() && methodEscapes(M);
  }

  bool methodEscapes(const CXXMethodDecl *M) {
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def) || !Def ||
        isa<CXXConstructorDecl, CXXDestructorDecl>(Def))
      return true;
    return once(Def, [&] { return usesEscape(Def->getBody(), nullptr); });
  }

  /// \p Arg, an lvalue of the object, is an argument of \p Call: bound to a
  /// reference parameter whose uses in the callee keep it in, or copied.
  bool referenceArgumentEscapes(const CallExpr *Call, const Stmt *Arg) {
    const FunctionDecl *F = calledFunction(Call);
    const FunctionDecl *Def = nullptr;
    if (!F || !F->hasBody(Def) || !Def)
      return true;
    const auto *M = dyn_cast<CXXMethodDecl>(F);
    unsigned Offset = isa<CXXOperatorCallExpr>(Call) && M && M->isInstance() &&
                              !M->isExplicitObjectMemberFunction()
                          ? 1
                          : 0;
    for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
      if (Call->getArg(I)->IgnoreParens() != Arg)
        continue;
      if (I - Offset >= Def->getNumParams())
        return true; // through an ellipsis
      const ParmVarDecl *Param = Def->getParamDecl(I - Offset);
      if (!Param->getType()->isReferenceType())
        return true;
      return once(Param, [&] { return usesEscape(Def->getBody(), Param); });
    }
    return true;
  }
};

void analyzeKernel(ASTContext &Ctx, const FunctionDecl *Kernel,
                   KernelAnalysis &Out, PassDiagnostics *Remarks,
                   std::set<std::pair<unsigned, std::string>> &Emitted,
                   const OpenFunctions &Open) {
  std::vector<AffineValue> Params;
  for (const ParmVarDecl *P : Kernel->parameters())
    Params.push_back(AffineValue::scalar().setRoot(P));

  // Round one finds what the kernel writes; round two knows which objects
  // are read-only and builds the report.
  KernelContext First(Ctx, Kernel, Out, Open);
  FunctionAnalyzer(First, Kernel, Params, 0, /*Record=*/false).run();

  KernelContext Second(Ctx, Kernel, Out, Open);
  if (!First.WritesUnknown) {
    SmallPtrSet<const ValueDecl *, 8> Candidates;
    // Every object named in the kernel or in a function it calls.
    struct Collector : RecursiveASTVisitor<Collector> {
      SmallPtrSet<const ValueDecl *, 8> &C;
      SmallPtrSet<const FunctionDecl *, 8> Seen;
      explicit Collector(SmallPtrSet<const ValueDecl *, 8> &C) : C(C) {}
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          C.insert(VD);
        return true;
      }
      bool VisitCallExpr(CallExpr *CE) {
        const FunctionDecl *Def = nullptr;
        if (const FunctionDecl *F = calledFunction(CE))
          if (F->hasBody(Def) && Def && Seen.insert(Def).second)
            TraverseStmt(Def->getBody());
        return true;
      }
    } Collect(Candidates);
    Collect.TraverseStmt(const_cast<Stmt *>(Kernel->getBody()));
    for (const ParmVarDecl *P : Kernel->parameters())
      Candidates.insert(P);
    for (const ValueDecl *D : Candidates) {
      if (First.Written.count(D))
        continue;
      QualType T = D->getType();
      bool Constant = D->hasAttr<CUDAConstantAttr>();
      bool Restrict = T.isRestrictQualified();
      bool ConstPointee =
          T->isPointerType() && T->getPointeeType().isConstQualified();
      // A __device__ variable written by no one in the kernel is reached by
      // a pointer only through cudaGetSymbolAddress: taken as read-only.
      const auto *VD = dyn_cast<VarDecl>(D);
      bool NamedGlobal = VD && !isa<ParmVarDecl>(VD) && VD->hasGlobalStorage();
      // A kernel parameter kept in memory that is no pointer (a record
      // passed by value) is its own storage, which no other pointer
      // reaches: a write to it has it as its root, so Written holds it.
      bool OwnStorage = isa<ParmVarDecl>(D) && !T->isPointerType() &&
                        !T->isReferenceType() &&
                        First.MemoryParams.count(cast<ParmVarDecl>(D));
      // A non-const global object may be written through another pointer to
      // it: trust it only while the kernel writes no global memory. Data
      // behind a const or __restrict__ pointer is taken at its word, as nvcc
      // does for __ldg.
      if (spaceOf(D) == AddressSpace::Global && !Constant && !Restrict &&
          !ConstPointee && !NamedGlobal && !OwnStorage && First.WritesGlobal)
        continue;
      Second.ReadOnly.insert(D);
    }
  } else {
    // A store through an unknown pointer may hit anything but constant
    // memory, and the storage of a parameter passed by value whose address
    // never leaves the code the analysis follows.
    StorageEscape Escape(Ctx);
    for (const ParmVarDecl *P : Kernel->parameters()) {
      QualType T = P->getType();
      if (!T->isPointerType() && !T->isReferenceType() &&
          First.MemoryParams.count(P) && !First.Written.count(P) &&
          !Escape.escapes(P, Kernel))
        Second.ReadOnly.insert(P);
    }
    struct Collector : RecursiveASTVisitor<Collector> {
      SmallPtrSet<const ValueDecl *, 8> &C;
      explicit Collector(SmallPtrSet<const ValueDecl *, 8> &C) : C(C) {}
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        if (DRE->getDecl()->hasAttr<CUDAConstantAttr>())
          C.insert(DRE->getDecl());
        return true;
      }
    } Collect(Second.ReadOnly);
    Collect.TraverseStmt(const_cast<Stmt *>(Kernel->getBody()));
  }
  FunctionAnalyzer(Second, Kernel, Params, 0, /*Record=*/true).run();
  buildReport(Second, Remarks, Emitted);
}

} // namespace

AddressSpace addressSpaceOf(const AffineValue &Address) {
  return Address.rootUnknown() ? AddressSpace::Unknown
                               : spaceOf(Address.root());
}

std::string whyNotAnalysed(ASTContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Fn = enclosingFunction(Ctx, S);
  if (!Fn)
    return "it is not in a function body";
  // An instantiation, a member function or a lambda goes on like any
  // function: why no kernel reaches it.
  if (Fn->isDependentContext())
    return "it is in a template that nothing in this file instantiates: the "
           "analysis classifies instantiations only";
  std::string Name;
  llvm::raw_string_ostream NameOS(Name);
  Fn->getNameForDiagnostic(NameOS, Ctx.getPrintingPolicy(), true);
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
      Method && Method->getParent()->isLambda())
    Name = "a lambda";

  // Which kernels call Fn, directly or through other functions' bodies; a
  // construction calls its constructor, which runs its member
  // initializers before its body.
  struct Calls : RecursiveASTVisitor<Calls> {
    const FunctionDecl *Target;
    SmallPtrSet<const FunctionDecl *, 16> Seen;
    bool Found = false;
    bool shouldVisitTemplateInstantiations() const { return true; }
    void follow(const FunctionDecl *F) {
      const FunctionDecl *Def = nullptr;
      if (!F || !F->hasBody(Def) || !Def || !Seen.insert(Def).second)
        return;
      if (Def->getCanonicalDecl() == Target) {
        Found = true;
        return;
      }
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (!Found)
            TraverseStmt(Init->getInit());
      if (!Found)
        TraverseStmt(Def->getBody());
    }
    bool VisitCallExpr(CallExpr *CE) {
      follow(calledFunction(CE));
      return !Found;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
      follow(CE->getConstructor());
      return !Found;
    }
  };
  struct Kernels : RecursiveASTVisitor<Kernels> {
    std::vector<const FunctionDecl *> All;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
          !FD->isDependentContext())
        All.push_back(FD);
      return true;
    }
  } K;
  K.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *Kernel : K.All) {
    Calls C;
    C.Target = Fn->getCanonicalDecl();
    C.TraverseStmt(Kernel->getBody());
    if (!C.Found)
      continue;
    SourceLocation Loc = SM.getExpansionLoc(Kernel->getLocation());
    if (SM.isInMainFile(Loc))
      return "the analysis does not follow every call on the way from "
             "kernel '" +
             Kernel->getNameAsString() +
             "' (a constructor, a call through a function pointer, calls "
             "nested deeper than " +
             std::to_string(MaxCallDepth) + ", or recursion)";
    return "only kernels outside the main file reach it (kernel '" +
           Kernel->getNameAsString() + "' in " +
           std::string(SM.getFilename(Loc)) +
           "), and the analysis and the rewrite cover the main file's "
           "kernels only";
  }
  if (Name == "a lambda")
    return "no kernel of this file calls the lambda";
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
      Method && Method->isVirtual())
    return "no kernel of this file calls the virtual function '" + Name +
           "' but through its object's dynamic type, which the analysis "
           "does not know";
  return "no kernel of this file calls '" + Name + "'";
}

std::vector<std::unique_ptr<KernelAnalysis>>
analyzeKernels(ASTContext &Ctx, PassDiagnostics *Remarks) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const FunctionDecl *> Kernels;
  auto Consider = [&](const FunctionDecl *FD) {
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
        FD->isDependentContext())
      return;
    if (!SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      return;
    Kernels.push_back(FD);
  };
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      Consider(FD);
    else if (const auto *TD = dyn_cast<FunctionTemplateDecl>(D))
      for (const FunctionDecl *Spec : TD->specializations())
        Consider(Spec);
  }
  // Also kernels in namespaces.
  struct NamespaceWalker : RecursiveASTVisitor<NamespaceWalker> {
    std::function<void(const FunctionDecl *)> F;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (!FD->getDeclContext()->isTranslationUnit())
        F(FD);
      return true;
    }
  } Walker;
  Walker.F = Consider;
  Walker.TraverseDecl(Ctx.getTranslationUnitDecl());

  std::set<std::pair<unsigned, std::string>> Emitted;
  std::vector<std::unique_ptr<KernelAnalysis>> Result;
  OpenFunctions Open;
  if (!Kernels.empty())
    Open = findOpenFunctions(Ctx);
  for (const FunctionDecl *K : Kernels) {
    auto A = std::make_unique<KernelAnalysis>();
    A->Kernel = K;
    analyzeKernel(Ctx, K, *A, Remarks, Emitted, Open);
    Result.push_back(std::move(A));
  }
  return Result;
}

} // namespace decoupler
