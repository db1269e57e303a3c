//===- atomics/AtomicsPass.cpp - Contended atomics to aggregated ones -----===//

#include "atomics/AtomicsPass.h"
#include "atomics/Privatize.h"
#include "support/CudaFacts.h"
#include "support/Includes.h"
#include "support/MemoryRoots.h"
#include "support/SameExpr.h"
#include "support/SourceText.h"
#include "support/Stores.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"
#include <functional>
#include <map>
#include <set>

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

/// The object whose conversion operator gives \p Call's address argument
/// (`atomicAdd(c, 1)` with `struct DevPtr { operator T *(); } c`), if it
/// is one; null for a pointer.
const Expr *convertedToPointer(const CallExpr *Call) {
  if (Call->getNumArgs() == 0)
    return nullptr;
  const Expr *E = Call->getArg(0)->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() == CK_UserDefinedConversion) {
      const Expr *Sub = Cast->getSubExpr()->IgnoreParens();
      if (const auto *M = dyn_cast<CXXMemberCallExpr>(Sub))
        return M->getImplicitObjectArgument();
      return Sub;
    }
    E = Cast->getSubExpr()->IgnoreParens();
  }
  return nullptr;
}

/// Whether \p E reads the word the atomic's address \p Address points to:
/// `M` for `&M`, `*p` or `p[0]` for `p`, `p[i]` for `p + i` or `i + p`.
bool readsTarget(ASTContext &Ctx, const Expr *E, const Expr *Address) {
  E = E->IgnoreParenImpCasts();
  Address = Address->IgnoreParenImpCasts();
  // A cast that names the same word by another pointer type of its size
  // (ECL-MST's `if (minv[r] > val) atomicMin((ull*)&minv[r], val)`).
  while (const auto *Cast = dyn_cast<ExplicitCastExpr>(Address)) {
    const Expr *Sub = Cast->getSubExpr()->IgnoreParenImpCasts();
    const auto *To = Cast->getType()->getAs<clang::PointerType>();
    const auto *From = Sub->getType()->getAs<clang::PointerType>();
    if (!To || !From || To->getPointeeType()->isIncompleteType() ||
        From->getPointeeType()->isIncompleteType() ||
        Ctx.getTypeSize(To->getPointeeType()) !=
            Ctx.getTypeSize(From->getPointeeType()))
      break;
    Address = Sub;
  }
  // A load through a function of the address alone that returns the word's
  // type (ECL's `atomicRead(&minv[r])`, a relaxed cuda::atomic load). What
  // the function does is not checked: a misread check only leaves the
  // atomic as written.
  if (const auto *Load = dyn_cast<CallExpr>(E);
      Load && Load->getNumArgs() == 1 && Load->getDirectCallee()) {
    const auto *Ptr = Address->getType()->getAs<clang::PointerType>();
    if (Ptr &&
        Ctx.hasSameUnqualifiedType(Load->getType(), Ptr->getPointeeType()) &&
        samePureExpr(Load->getArg(0)->IgnoreParenImpCasts(), Address, Ctx))
      return true;
  }
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(Address);
      AddrOf && AddrOf->getOpcode() == UO_AddrOf)
    return samePureExpr(E, AddrOf->getSubExpr(), Ctx);
  if (const auto *Deref = dyn_cast<UnaryOperator>(E);
      Deref && Deref->getOpcode() == UO_Deref)
    return samePureExpr(Deref->getSubExpr(), Address, Ctx);
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    if (const auto *Add = dyn_cast<BinaryOperator>(Address);
        Add && Add->getOpcode() == BO_Add) {
      const Expr *Ptr = Add->getLHS(), *Idx = Add->getRHS();
      if (!Ptr->getType()->isPointerType())
        std::swap(Ptr, Idx);
      if (samePureExpr(Sub->getBase(), Ptr, Ctx) &&
          samePureExpr(Sub->getIdx(), Idx, Ctx))
        return true;
    }
    Expr::EvalResult Index;
    return Sub->getIdx()->EvaluateAsInt(Index, Ctx) &&
           Index.Val.getInt() == 0 &&
           samePureExpr(Sub->getBase(), Address, Ctx);
  }
  return false;
}

/// A comparison in \p Cond (itself, or a conjunct of an `&&`) that is false
/// where the word is already at or past the value: `v < M`, `v <= M`,
/// `M > v`, `M >= v` for a minimum, the reverse for a maximum.
const BinaryOperator *findCheck(ASTContext &Ctx, const Expr *Cond,
                                const CallExpr *Call, bool IsMax) {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LAnd) {
    if (const BinaryOperator *L = findCheck(Ctx, BO->getLHS(), Call, IsMax))
      return L;
    return findCheck(Ctx, BO->getRHS(), Call, IsMax);
  }
  auto IsValue = [&](const Expr *E) {
    return samePureExpr(E, Call->getArg(1), Ctx);
  };
  auto IsWord = [&](const Expr *E) {
    return readsTarget(Ctx, E, Call->getArg(0));
  };
  // Normalized to "smaller < larger".
  const Expr *Small = nullptr, *Large = nullptr;
  switch (BO->getOpcode()) {
  case BO_LT:
  case BO_LE:
    Small = BO->getLHS(), Large = BO->getRHS();
    break;
  case BO_GT:
  case BO_GE:
    Small = BO->getRHS(), Large = BO->getLHS();
    break;
  default:
    return nullptr;
  }
  if (IsMax ? IsWord(Small) && IsValue(Large) : IsValue(Small) && IsWord(Large))
    return BO;
  return nullptr;
}

/// The check of an enclosing `if` that already skips this atomicMin/Max
/// where the word is at or past the value (`if (nd < dist[v])
/// atomicMin(&dist[v], nd);`): the call is the `if`'s then-branch or a
/// statement of a block that is. A filter in front of the atomic would only
/// load the word a second time (measured: 0.89x on wiki-Vote's SSSP).
const BinaryOperator *ownCheck(ASTContext &Ctx, const CallExpr *Call,
                               bool IsMax) {
  if (Call->getNumArgs() != 2)
    return nullptr;
  const Stmt *Child = Call;
  DynTypedNodeList Parents = Ctx.getParents(*Call);
  while (Parents.size() == 1) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return nullptr;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getThen() == Child && !If->isConsteval()
                 ? findCheck(Ctx, If->getCond(), Call, IsMax)
                 : nullptr;
    if (!isa<ParenExpr, ExprWithCleanups, CastExpr, CompoundStmt,
             AttributedStmt, LabelStmt>(P))
      return nullptr;
    Child = P;
    Parents = Ctx.getParents(*P);
  }
  return nullptr;
}

/// A write to the words a monotonic min/max updates that is not an atomic
/// of the same operation: the annotation states that such words only move
/// one way while the kernel runs, and the filtered atomic (or the guarded
/// store) is exact only then. So the kernel's body is searched for another
/// write whose memory roots (MemoryRoots: through local pointers and
/// references; a pointer of unknown origin may be anything) meet the
/// atomic's: an assignment, an increment, an atomic of another kind
/// (atomicMax beside atomicMin, atomicExch, ...), or a pointer or
/// reference passed to a function as non-const (which may write it).
struct OtherWrite {
  SourceLocation Loc;
  std::string What;
};

std::optional<OtherWrite> otherWrite(const FunctionDecl *Kernel,
                                     const CallExpr *Call, AtomicCall::Op Op) {
  if (!Kernel || !Kernel->getBody())
    return std::nullopt;
  MemoryRoots Roots(*Kernel);
  MemoryRootSet Words;
  Roots.ofPointer(Call->getArg(0), Words);
  const VarDecl *Base = baseVar(Call->getArg(0));
  if (!Base || Words.Unknown)
    return OtherWrite{Call->getArg(0)->getExprLoc(),
                      "its address is not based on a variable, so the "
                      "kernel's other writes to its words cannot be found"};
  const std::string Name = "'" + Base->getNameAsString() + "'";

  std::optional<OtherWrite> Found;
  forEachStore(Kernel->getBody(), [&](const Expr *Target, bool AtomicPointer,
                                      const Stmt *Writer) {
    if (Found || Writer == Call)
      return;
    // Assigning a pointer variable itself writes no word it points to.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
        Ref && !AtomicPointer && Ref->getType()->isPointerType())
      return;
    std::string How;
    SourceLocation Loc = Writer->getBeginLoc();
    if (const auto *C = dyn_cast<CallExpr>(Writer)) {
      std::optional<AtomicCall> Other = cudaAtomic(C);
      // The same operation at any scope moves the words the same way.
      if (Other->Operation == Op)
        return;
      How = Other->Name.str();
    } else if (const auto *B = dyn_cast<BinaryOperator>(Writer)) {
      How = ("an assignment '" + B->getOpcodeStr() + "'").str();
      Loc = B->getOperatorLoc();
    } else {
      const auto *U = cast<UnaryOperator>(Writer);
      How = U->isIncrementOp() ? "an increment" : "a decrement";
      Loc = U->getOperatorLoc();
    }
    MemoryRootSet Written;
    if (AtomicPointer)
      Roots.ofPointer(Target, Written);
    else
      Roots.ofLValue(Target, Written);
    if (Written.overlaps(Words))
      Found = OtherWrite{Loc, "writes " + Name + " by " + How};
  });
  if (Found)
    return Found;

  // Inline assembly that stores (st., atom., red.): what its pointer
  // operands point to; a store whose address is no pointer operand (an
  // integer register) may be anywhere.
  struct AsmStores : RecursiveASTVisitor<AsmStores> {
    SmallVector<const GCCAsmStmt *, 2> Found;
    bool VisitGCCAsmStmt(GCCAsmStmt *S) {
      if (asmMayStore(S->getAsmString()))
        Found.push_back(S);
      return true;
    }
  } Stores;
  Stores.TraverseStmt(const_cast<Stmt *>(Kernel->getBody()));
  for (const GCCAsmStmt *Asm : Stores.Found) {
    MemoryRootSet Written;
    bool AnyPointer = false;
    auto Add = [&](const Expr *Operand) {
      const Expr *E = Operand->IgnoreParenCasts();
      if (!E->getType()->isPointerType())
        return;
      AnyPointer = true;
      Roots.ofPointer(E, Written);
    };
    for (const Expr *Operand : Asm->inputs())
      Add(Operand);
    for (const Expr *Operand : Asm->outputs())
      Add(Operand);
    if (!AnyPointer)
      Written.Unknown = true;
    if (Written.overlaps(Words))
      return OtherWrite{Asm->getAsmLoc(),
                        "writes " + Name + " by inline assembly that stores"};
  }

  for (const Expr *Other : nonAtomicCalls(Kernel->getBody())) {
    std::string Callee = "a call";
    if (const auto *K = dyn_cast<CXXConstructExpr>(Other))
      Callee = "a constructor of '" +
               K->getConstructor()->getParent()->getNameAsString() + "'";
    else if (const FunctionDecl *F = calleeOf(Other))
      Callee = "'" + F->getNameAsString() + "'";
    MemoryRootSet Written;
    writtenThroughArguments(Other, Roots, Written);
    if (Written.overlaps(Words))
      return OtherWrite{Other->getBeginLoc(), "passes " + Name + " to " +
                                                  Callee +
                                                  ", which may write it"};
    MemoryRootSet Object;
    bool ThroughMembers = false;
    const Expr *On = writtenObject(Other, Roots, Object, ThroughMembers);
    if (!On)
      continue;
    if (Object.overlaps(Words))
      return OtherWrite{Other->getBeginLoc(), "calls " + Callee + " on " +
                                                  Name +
                                                  ", which may write it"};
    // Through the object's pointers it may write anything.
    if (!ThroughMembers || Words.empty())
      continue;
    std::string OnName = "an object";
    if (const auto *D = dyn_cast<DeclRefExpr>(On->IgnoreParenImpCasts()))
      OnName = "'" + D->getDecl()->getNameAsString() + "'";
    return OtherWrite{Other->getBeginLoc(),
                      "calls " + Callee + " on " + OnName +
                          ", which may write " + Name +
                          " through the pointers the object holds"};
  }
  return std::nullopt;
}

/// The element type the atomic updates, as the runtime names it; none when
/// the runtime has no variant for it.
struct ValueType {
  bool Supported = false;
  bool Floating = false;
  /// int or unsigned: the types nvcc reduces in one REDUX instruction.
  bool Word32 = false;
  std::string Spelling;
};

ValueType valueTypeOf(const CallExpr *Call, StringRef Op) {
  ValueType V;
  if (Call->getNumArgs() < 1)
    return V;
  QualType Ptr = Call->getArg(0)->getType();
  if (!Ptr->isPointerType())
    return V;
  QualType T = Ptr->getPointeeType().getUnqualifiedType();
  V.Spelling = T.getAsString();
  const auto *B = T.getCanonicalType()->getAs<BuiltinType>();
  if (!B)
    return V;
  switch (B->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
    V.Supported = Op != "inc" || B->getKind() == BuiltinType::UInt;
    V.Word32 = true;
    break;
  case BuiltinType::ULongLong:
    V.Supported = Op != "sub" && Op != "inc";
    break;
  case BuiltinType::LongLong:
    V.Supported = Op == "min" || Op == "max";
    break;
  case BuiltinType::Float:
  case BuiltinType::Double:
    V.Supported = Op == "add";
    V.Floating = true;
    break;
  default:
    break;
  }
  return V;
}

/// Statements annotated `#pragma dd atomic(...)`, by the position of the
/// calls they hold (a template's instantiations share its text, so a call
/// of an instantiation finds its pattern's annotation by position).
std::map<unsigned, const Annotation *>
annotatedCalls(const AnnotationSet &Annotations) {
  struct Collector : RecursiveASTVisitor<Collector> {
    std::map<unsigned, const Annotation *> &Out;
    const Annotation *A;
    Collector(std::map<unsigned, const Annotation *> &Out, const Annotation *A)
        : Out(Out), A(A) {}
    bool VisitCallExpr(CallExpr *C) {
      Out.emplace(C->getBeginLoc().getRawEncoding(), A);
      return true;
    }
  };
  std::map<unsigned, const Annotation *> Out;
  for (const Annotation &A : Annotations.all())
    if (A.Kind == Directive::Atomic && A.TargetStmt)
      Collector(Out, &A).TraverseStmt(const_cast<Stmt *>(A.TargetStmt));
  return Out;
}

/// Every atomic call written in the main file, in source order.
std::vector<const CallExpr *> atomicCallsInMainFile(ASTContext &Ctx) {
  struct Collector : RecursiveASTVisitor<Collector> {
    SourceManager &SM;
    std::vector<const CallExpr *> Out;
    explicit Collector(SourceManager &SM) : SM(SM) {}
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitCallExpr(CallExpr *C) {
      if (cudaAtomic(C) &&
          SM.isInMainFile(SM.getExpansionLoc(C->getBeginLoc())))
        Out.push_back(C);
      return true;
    }
  } Collect(Ctx.getSourceManager());
  Collect.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Collect.Out;
}

/// Atomic calls of the main file that the pass never sees resolved: in a
/// generic lambda (`[&](auto i) { atomicAdd(...); }`), whose call
/// operator's instantiations live in the lambda's class, which the pass's
/// traversals do not enter. The call in the lambda's own text names the
/// atomic through an unresolved lookup; with \p Name, the atomic's name.
std::vector<std::pair<const CallExpr *, std::string>>
atomicCallsInGenericLambdas(ASTContext &Ctx) {
  struct Collector : RecursiveASTVisitor<Collector> {
    SourceManager &SM;
    std::vector<std::pair<const CallExpr *, std::string>> Out;
    unsigned InGeneric = 0;
    explicit Collector(SourceManager &SM) : SM(SM) {}
    bool TraverseLambdaExpr(LambdaExpr *L) {
      const bool Generic = L->isGenericLambda();
      InGeneric += Generic;
      bool R = RecursiveASTVisitor::TraverseLambdaExpr(L);
      InGeneric -= Generic;
      return R;
    }
    bool VisitCallExpr(CallExpr *C) {
      if (!InGeneric || !SM.isInMainFile(SM.getExpansionLoc(C->getBeginLoc())))
        return true;
      const auto *Lookup =
          dyn_cast<UnresolvedLookupExpr>(C->getCallee()->IgnoreParenImpCasts());
      if (!Lookup)
        return true;
      for (const NamedDecl *D : Lookup->decls())
        if (std::optional<AtomicCall> A =
                cudaAtomicFunction(D->getAsFunction())) {
          Out.push_back({C, A->Name.str()});
          break;
        }
      return true;
    }
  } Collect(Ctx.getSourceManager());
  Collect.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Collect.Out);
}

/// Atomic calls written in `.cu` files the main file includes (kernels kept
/// in a second source file), in source order: only the main file is
/// rewritten, so these stay, with a remark.
std::vector<const CallExpr *> atomicCallsInIncludedSources(ASTContext &Ctx) {
  struct Collector : RecursiveASTVisitor<Collector> {
    SourceManager &SM;
    std::vector<const CallExpr *> Out;
    explicit Collector(SourceManager &SM) : SM(SM) {}
    bool VisitCallExpr(CallExpr *C) {
      SourceLocation Loc = SM.getExpansionLoc(C->getBeginLoc());
      if (cudaAtomic(C) && !SM.isInMainFile(Loc) && !SM.isInSystemHeader(Loc) &&
          SM.getFilename(Loc).ends_with(".cu"))
        Out.push_back(C);
      return true;
    }
  } Collect(Ctx.getSourceManager());
  Collect.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Collect.Out;
}

/// The atomic calls of template instantiations written in the main file,
/// by position (each position's calls in the order of the instantiations).
/// A template's text serves all of them: the pass rewrites it only where
/// every instantiation gets the same rewrite.
std::map<unsigned, std::vector<const CallExpr *>>
atomicCallsInInstantiations(ASTContext &Ctx) {
  struct Collector : RecursiveASTVisitor<Collector> {
    SourceManager &SM;
    std::map<unsigned, std::vector<const CallExpr *>> Out;
    explicit Collector(SourceManager &SM) : SM(SM) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCallExpr(CallExpr *C) {
      SourceLocation Loc = SM.getExpansionLoc(C->getBeginLoc());
      if (cudaAtomic(C) && SM.isInMainFile(Loc) && Depth > 0)
        Out[Loc.getRawEncoding()].push_back(C);
      return true;
    }
    /// Above 0 while traversing a template instantiation.
    unsigned Depth = 0;
    bool TraverseFunctionDecl(FunctionDecl *D) {
      bool Inst = D->isTemplateInstantiation();
      Depth += Inst;
      bool R = RecursiveASTVisitor::TraverseFunctionDecl(D);
      Depth -= Inst;
      return R;
    }
    bool TraverseCXXMethodDecl(CXXMethodDecl *D) {
      bool Inst = D->isTemplateInstantiation() ||
                  D->getParent()->getTemplateSpecializationKind() ==
                      TSK_ImplicitInstantiation;
      Depth += Inst;
      bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(D);
      Depth -= Inst;
      return R;
    }
  } Collect(Ctx.getSourceManager());
  Collect.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Collect.Out);
}

/// Where the loop's verdicts on one call go: the pass's diagnostics, or,
/// for a call of a template instantiation, a record that is compared with
/// the other instantiations' before anything is said or rewritten.
class Verdict {
public:
  enum Kind { None, Rewritten, Unchanged, Declined, Error };

  explicit Verdict(PassDiagnostics *Out) : Out(Out) {}

  void rewritten(SourceLocation Loc, const Twine &Message) {
    if (Out)
      Out->rewritten(Loc, Message);
    else
      set(Rewritten, Message);
  }
  void remark(SourceLocation Loc, const Twine &Message) {
    if (Out)
      Out->remark(Loc, Message);
    else
      set(Unchanged, Message);
  }
  void declined(SourceLocation Loc, const Twine &Message) {
    if (Out)
      Out->declined(Loc, Message);
    else
      set(Declined, Message);
  }
  void error(SourceLocation Loc, const Twine &Message) {
    if (Out)
      Out->error(Loc, Message);
    else
      set(Error, Message);
  }
  void note(SourceLocation Loc, const Twine &Message) {
    if (Out)
      Out->note(Loc, Message);
  }

  Kind What = None;
  std::string Message;
  /// The callee's new name, for Rewritten.
  std::string Replacement;

private:
  void set(Kind K, const Twine &M) {
    What = K;
    Message = M.str();
  }
  PassDiagnostics *Out;
};

/// Whether the lanes of a warp hold distinct values of \p Value (for an
/// address, update distinct words): affine with a known, non-zero x stride,
/// under no condition.
bool distinctWords(const AffineValue &Value) {
  return Value.valueClass() == ValueClass::Affine &&
         Value.conditions().empty() && Value.strides()[0] &&
         *Value.strides()[0] != 0;
}

/// The analysis's values of the kernels' expressions, joined over the
/// kernels that reach them; looked up only for the few conditions asked
/// about, not copied.
using KernelValues = ArrayRef<std::unique_ptr<KernelAnalysis>>;

std::optional<AffineValue> valueIn(const KernelValues &Kernels, const Expr *E) {
  for (const Expr *Form : {E, E->IgnoreParenImpCasts()}) {
    std::optional<AffineValue> Joined;
    for (const std::unique_ptr<KernelAnalysis> &K : Kernels)
      if (auto It = K->Values.find(Form); It != K->Values.end())
        Joined = Joined ? AffineValue::join(*Joined, It->second) : It->second;
    if (Joined)
      return Joined;
  }
  return std::nullopt;
}

/// Whether the lanes of a warp hold distinct values of \p E, an integer of
/// \p F: an affine value with a known, non-zero x stride (while a warp lies
/// in one row of the block, as for distinctWords), such a value of odd
/// stride modulo a power of two of at least 32 (`tid % 32`, `tid & 31`, the
/// lane), or a local initialized to one and never changed.
bool distinctPerLane(const Expr *E, const KernelValues &Values,
                     const FunctionDecl *F, unsigned Depth = 0) {
  if (Depth > 8 || !E->getType()->isIntegerType())
    return false;
  E = E->IgnoreParenImpCasts();
  if (std::optional<AffineValue> V = valueIn(Values, E); V && distinctWords(*V))
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    Expr::EvalResult R;
    if ((B->getOpcode() != BO_Rem && B->getOpcode() != BO_And) ||
        !B->getRHS()->EvaluateAsInt(R, F->getASTContext()))
      return false;
    const llvm::APSInt &M = R.Val.getInt();
    const uint64_t Modulus =
        M.isNegative() || M.getActiveBits() > 62
            ? 0
            : M.getZExtValue() + (B->getOpcode() == BO_And ? 1 : 0);
    if (Modulus < 32 || !llvm::isPowerOf2_64(Modulus))
      return false;
    std::optional<AffineValue> X = valueIn(Values, B->getLHS());
    return X && distinctWords(*X) && (*X->strides()[0] & 1) != 0;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
           !V->getType()->isReferenceType() &&
           !mayModify(F->getBody(), V, F->getASTContext()) &&
           distinctPerLane(V->getInit(), Values, F, Depth + 1);
  }
  return false;
}

/// Whether `L == R` holds in at most one lane of a warp: one side's values
/// are distinct across the lanes (distinctPerLane), the other's the same.
bool oneLaneEquality(const Expr *L, const Expr *R, const KernelValues &Values,
                     const FunctionDecl *F) {
  auto Uniform = [&](const Expr *E) {
    if (E->isIntegerConstantExpr(F->getASTContext()))
      return true;
    std::optional<AffineValue> V = valueIn(Values, E);
    return V && V->valueClass() == ValueClass::Scalar;
  };
  return (distinctPerLane(L, Values, F) && Uniform(R)) ||
         (distinctPerLane(R, Values, F) && Uniform(L));
}

/// A condition in \p Cond (itself, or a conjunct of an `&&`) that at most
/// one lane of a warp passes: `E == u` or `!E` with the lanes' values of E
/// distinct (distinctPerLane) and u the same in every lane.
const Expr *oneLaneCondition(const Expr *Cond, const KernelValues &Values,
                             const FunctionDecl *F) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond))
    return U->getOpcode() == UO_LNot &&
                   distinctPerLane(U->getSubExpr(), Values, F)
               ? Cond
               : nullptr;
  const auto *B = dyn_cast<BinaryOperator>(Cond);
  if (!B)
    return nullptr;
  if (B->getOpcode() == BO_LAnd) {
    if (const Expr *L = oneLaneCondition(B->getLHS(), Values, F))
      return L;
    return oneLaneCondition(B->getRHS(), Values, F);
  }
  return B->getOpcode() == BO_EQ &&
                 oneLaneEquality(B->getLHS(), B->getRHS(), Values, F)
             ? Cond
             : nullptr;
}

/// A condition in \p Cond (itself, or a disjunct of an `||`) whose
/// failing lanes are at most one of a warp: `E != u` or `E` itself, with E
/// as for oneLaneCondition. The lanes that go on past `if (Cond) return;`.
const Expr *allButOneLaneCondition(const Expr *Cond, const KernelValues &Values,
                                   const FunctionDecl *F) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    if (B->getOpcode() == BO_LOr) {
      if (const Expr *L = allButOneLaneCondition(B->getLHS(), Values, F))
        return L;
      return allButOneLaneCondition(B->getRHS(), Values, F);
    }
    if (B->getOpcode() == BO_NE) // fails where `E == u` holds
      return oneLaneEquality(B->getLHS(), B->getRHS(), Values, F) ? Cond
                                                                  : nullptr;
  }
  return distinctPerLane(Cond, Values, F) ? Cond : nullptr;
}

/// Whether \p S does nothing but return.
bool onlyReturns(const Stmt *S) {
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return C->size() == 1 && onlyReturns(C->body_front());
  return isa<ReturnStmt>(S);
}

/// Walks out from \p Call to its function, calling \p Visit(Parent, Child)
/// on each statement around it until Visit returns a condition; stops at a
/// lambda.
template <class VisitFn>
const Expr *walkOut(ASTContext &Ctx, const CallExpr *Call, VisitFn Visit) {
  const Stmt *Child = Call;
  DynTypedNodeList Parents = Ctx.getParents(*Call);
  while (Parents.size() == 1) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || isa<LambdaExpr>(P))
      return nullptr;
    if (const Expr *C = Visit(P, Child))
      return C;
    Child = P;
    Parents = Ctx.getParents(*P);
  }
  return nullptr;
}

/// The condition of \p P when it is an `if` whose then-branch is \p Child.
const Expr *thenCondition(const Stmt *P, const Stmt *Child) {
  const auto *If = dyn_cast<IfStmt>(P);
  return If && If->getThen() == Child && !If->isConsteval() ? If->getCond()
                                                            : nullptr;
}

/// The condition that lets at most one lane of a warp reach \p Call, in its
/// function \p F: an enclosing `if` (`if (threadIdx.x == 0)`, `if (lane ==
/// 0)`), or an earlier `if (threadIdx.x != 0) return;` in an enclosing
/// block. With one lane there is nothing to combine, and a reduction only
/// adds latency (HeCBench's pad, whose thread 0 chains the blocks through a
/// flag, ran 0.92-0.97x with the vote).
const Expr *oneLaneGuard(ASTContext &Ctx, const CallExpr *Call,
                         const KernelValues &Values, const FunctionDecl *F) {
  if (!F)
    return nullptr;
  return walkOut(
      Ctx, Call, [&](const Stmt *P, const Stmt *Child) -> const Expr * {
        if (const Expr *Cond = thenCondition(P, Child))
          if (const Expr *C = oneLaneCondition(Cond, Values, F))
            return C;
        if (const auto *Block = dyn_cast<CompoundStmt>(P))
          for (const Stmt *Before : Block->body()) {
            if (Before == Child)
              break;
            const auto *If = dyn_cast<IfStmt>(Before);
            if (If && !If->getElse() && !If->isConsteval() && !If->getInit() &&
                !If->getConditionVariable() && onlyReturns(If->getThen()))
              if (const Expr *C =
                      allButOneLaneCondition(If->getCond(), Values, F))
                return C;
          }
        return nullptr;
      });
}

/// Whether \p E is computed from the value an atomic returned: an atomic
/// call in it, or a local of \p F whose initializer or an assignment to it
/// (anywhere in F) is.
bool fromAtomicResult(const Expr *E, const FunctionDecl *F,
                      SmallPtrSetImpl<const VarDecl *> &Seen) {
  if (!E)
    return false;
  if (const auto *C = dyn_cast<CallExpr>(E); C && cudaAtomic(C))
    return true;
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
        !Seen.insert(V).second)
      return false;
    if (fromAtomicResult(V->getInit(), F, Seen))
      return true;
    // Assignments to V in F.
    bool Assigned = false;
    forEachStore(F->getBody(), [&](const Expr *Target, bool AtomicPointer,
                                   const Stmt *Writer) {
      const auto *L = dyn_cast<DeclRefExpr>(Target->IgnoreParens());
      const auto *B = dyn_cast<BinaryOperator>(Writer);
      if (!Assigned && !AtomicPointer && L && L->getDecl() == V && B)
        Assigned = fromAtomicResult(B->getRHS(), F, Seen);
    });
    return Assigned;
  }
  return any_of(E->children(), [&](const Stmt *C) {
    const auto *CE = dyn_cast_or_null<Expr>(C);
    return CE && fromAtomicResult(CE, F, Seen);
  });
}

/// A conjunct of \p Cond that holds where one value came back from an
/// atomic: `E == c`, `c == E` or `!E` with E computed from an atomic's
/// result and c not.
const Expr *atomicResultCondition(const Expr *Cond, const FunctionDecl *F) {
  Cond = Cond->IgnoreParenImpCasts();
  auto From = [&](const Expr *E) {
    SmallPtrSet<const VarDecl *, 8> Seen;
    return fromAtomicResult(E, F, Seen);
  };
  if (const auto *U = dyn_cast<UnaryOperator>(Cond))
    return U->getOpcode() == UO_LNot && From(U->getSubExpr()) ? Cond : nullptr;
  const auto *B = dyn_cast<BinaryOperator>(Cond);
  if (!B)
    return nullptr;
  if (B->getOpcode() == BO_LAnd) {
    if (const Expr *L = atomicResultCondition(B->getLHS(), F))
      return L;
    return atomicResultCondition(B->getRHS(), F);
  }
  return B->getOpcode() == BO_EQ && From(B->getLHS()) != From(B->getRHS())
             ? Cond
             : nullptr;
}

/// The condition of an `if` inside \p Loop's body that ends the loop for
/// the lanes that take it (a `break` of this loop, not of a switch or an
/// inner loop, or a `return`) and that each lane evaluates on its own data,
/// the first that \p Accept takes (every one, by default); null if there
/// is none.
const Expr *perLaneExit(
    const Stmt *Loop, const KernelValues &Values,
    function_ref<bool(const Expr *)> Accept = [](const Expr *) {
      return true;
    }) {
  std::vector<const Expr *> Conds;
  std::function<const Expr *(const Stmt *, bool)> Walk =
      [&](const Stmt *S, bool InBreakable) -> const Expr * {
    if (!S || isa<LambdaExpr>(S))
      return nullptr;
    if (isa<ReturnStmt>(S) || (isa<BreakStmt>(S) && !InBreakable)) {
      for (const Expr *C : llvm::reverse(Conds))
        if (std::optional<AffineValue> V = valueIn(Values, C);
            V && V->valueClass() == ValueClass::NonAffine && Accept(C))
          return C;
      return nullptr;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      Conds.push_back(If->getCond());
      const Expr *Found = Walk(If->getThen(), InBreakable);
      if (!Found)
        Found = Walk(If->getElse(), InBreakable);
      Conds.pop_back();
      return Found;
    }
    const bool Breakable =
        InBreakable ||
        isa<ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S);
    for (const Stmt *C : S->children())
      if (const Expr *Found = Walk(C, Breakable))
        return Found;
    return nullptr;
  };
  return Walk(loopBody(Loop), false);
}

/// Whether \p Cond, a loop's condition, is absent or always true
/// (`for (;;)`, `while (true)`, `do ... while (1)`): only the body's exits
/// end the loop.
bool neverEnds(ASTContext &Ctx, const Expr *Cond) {
  if (!Cond)
    return true;
  bool Value = false;
  return !Cond->isValueDependent() &&
         Cond->EvaluateAsBooleanCondition(Value, Ctx) && Value;
}

/// Calls \p Fn for every variable \p E names (lambdas' bodies aside); with
/// \p ValuesOnly, only those whose value \p E computes with, not those
/// that only say where it loads (`i` of `part + i * n`, not of `keys[i]`).
void forEachVarRef(const Stmt *E, function_ref<void(const VarDecl *)> Fn,
                   bool ValuesOnly = false) {
  if (!E || isa<LambdaExpr>(E))
    return;
  if (ValuesOnly && isa<ArraySubscriptExpr, CallExpr, MemberExpr>(E))
    return;
  if (const auto *Deref = dyn_cast<UnaryOperator>(E);
      ValuesOnly && Deref && Deref->getOpcode() == UO_Deref)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      Fn(V);
  for (const Stmt *C : E->children())
    forEachVarRef(C, Fn, ValuesOnly);
}

/// Whether \p Exit, the condition of an exit of \p Loop, bounds one of the
/// loop's counters: computes with a variable that \p Cond, the loop's
/// condition, reads and the loop changes (its increment or its body). The
/// data at a counter (`if (keys[i] < 0) break;`) is no bound: an early exit
/// on bad data.
bool boundsCounter(ASTContext &Ctx, const Stmt *Loop, const Expr *Cond,
                   const Expr *Exit) {
  SmallPtrSet<const VarDecl *, 4> InCond;
  forEachVarRef(Cond, [&](const VarDecl *V) { InCond.insert(V); });
  const auto *For = dyn_cast<ForStmt>(Loop);
  bool Bounds = false;
  forEachVarRef(
      Exit,
      [&](const VarDecl *V) {
        Bounds = Bounds || (InCond.contains(V) &&
                            ((For && mayModify(For->getInc(), V, Ctx)) ||
                             mayModify(loopBody(Loop), V, Ctx)));
      },
      /*ValuesOnly=*/true);
  return Bounds;
}

/// The loop around \p Call, inside its function, whose condition each lane
/// evaluates on its own data: a value class of NonAffine (a row walk
/// `for (i = nindex[v]; i < nindex[v + 1]; ++i)` over each lane's vertex
/// `v`), or, in a loop with no condition of its own (`for (;;)`), the
/// condition of a `break` or `return` that ends it (`if (dist[u] == INF)
/// break;`). Lanes leave such a loop at different iterations, so the vote
/// mostly runs on part of a warp, and the words of different lanes' rows
/// seldom meet: Indigo's pull-style SSSP and CC (atomicMin on each
/// neighbour's word) ran 0.61-0.78x of as written through the vote on
/// Kronecker graphs and 0.89-0.96x on road networks (docs/corpus.md, "ECL
/// and Indigo2, checked and run on the GPU"). A loop whose condition the
/// analysis has no value for is not counted, nor a per-lane exit of a loop
/// that also has a condition, unless the exit bounds the loop's counter: a
/// bound on it is the trip count, however it is spelled (Tigr's virtual
/// nodes, `for (i = 0; i < 8; i++) { if (part + i * parts >= degree)
/// break; ... }`: its BC kernel ran 0.93-1.00x of as written through the
/// vote on five graphs, H200; docs/corpus.md, "Graph frameworks and four
/// more codes"). Another exit is an early exit on bad data: the trip count
/// is still the condition's.
struct PerLaneLoop {
  const Stmt *Loop = nullptr;
  const Expr *Exit = nullptr; ///< the exit's condition, where that decides
};
std::optional<PerLaneLoop> perLaneLoop(ASTContext &Ctx, const CallExpr *Call,
                                       const KernelValues &Values) {
  // enclosingLoop stops at the function's body: the call's own function's
  // loops only.
  for (const Stmt *S = enclosingLoop(Ctx, Call); S; S = enclosingLoop(Ctx, S)) {
    if (isa<CXXForRangeStmt>(S))
      continue;
    const Expr *Cond = loopCondition(S);
    if (neverEnds(Ctx, Cond)) {
      if (const Expr *Exit = perLaneExit(S, Values))
        return PerLaneLoop{S, Exit};
      continue;
    }
    if (std::optional<AffineValue> V = valueIn(Values, Cond);
        V && V->valueClass() == ValueClass::NonAffine)
      return PerLaneLoop{S, nullptr};
    if (const Expr *Exit = perLaneExit(S, Values, [&](const Expr *E) {
          return boundsCounter(Ctx, S, Cond, E);
        }))
      return PerLaneLoop{S, Exit};
  }
  return std::nullopt;
}

/// The condition of an enclosing `if` that lets \p Call run only where an
/// atomic returned one particular value: a counter reaching its end, a
/// packed bin overflowing (Parboil's histo adds to global memory where a
/// shared-memory atomicAdd returned 0xFF in its byte). Each value a word
/// passes through comes back to one lane, so the lanes there are seldom
/// several of a warp, and at one word fewer still: the vote has nothing to
/// combine (bench/atomics/threshold_bench.cu, Parboil's shape: 0.99-1.00x
/// of as written), so the code stays as it is.
const Expr *atomicResultGuard(ASTContext &Ctx, const CallExpr *Call,
                              const FunctionDecl *F) {
  if (!F || !F->getBody())
    return nullptr;
  return walkOut(Ctx, Call, [&](const Stmt *P, const Stmt *Child) {
    const Expr *Cond = thenCondition(P, Child);
    return Cond ? atomicResultCondition(Cond, F) : nullptr;
  });
}

std::string describeStride(const AffineValue &Address) {
  std::optional<int64_t> X = Address.strides()[0];
  return X ? "stride " + std::to_string(*X) + " bytes" : "unknown stride";
}

/// Where the function holding \p Call, or a kernel whose analysis gave its
/// address, is other code in the device compilation.
std::optional<DeviceView::Divergence> deviceDivergence(PassContext &P,
                                                       const CallExpr *Call) {
  if (const FunctionDecl *Fn = enclosingFunction(P.Ctx, Call))
    if (std::optional<DeviceView::Divergence> D = P.Device.divergence(Fn))
      return D;
  for (const std::unique_ptr<KernelAnalysis> &K : P.Kernels)
    if (K->Kernel && K->Addresses.count(Call))
      if (std::optional<DeviceView::Divergence> D =
              P.Device.divergence(K->Kernel))
        return D;
  return std::nullopt;
}

} // namespace

bool runAtomicsPass(PassContext &P) {
  ASTContext &Ctx = P.Ctx;
  const AnnotationSet &Annotations = P.Annotations;
  Rewriter &R = P.R;
  PassDiagnostics &Diags = P.Diags;

  // The address of each atomic, joined over every kernel that reaches it,
  // and whether some context (a call of the function it is in) gives lanes
  // distinct words.
  std::map<const CallExpr *, AffineValue> Addresses;
  std::map<const CallExpr *, AffineValue> DistinctContext;
  const KernelValues Values = P.Kernels;
  for (const std::unique_ptr<KernelAnalysis> &K : P.Kernels) {
    for (const auto &[E, Address] : K->Addresses)
      if (const auto *Call = dyn_cast<CallExpr>(E)) {
        auto [It, New] = Addresses.try_emplace(Call, Address);
        if (!New)
          It->second = AffineValue::join(It->second, Address);
      }
    for (const auto &[E, Contexts] : K->AddressContexts)
      if (const auto *Call = dyn_cast<CallExpr>(E))
        for (const AffineValue &Address : Contexts)
          if (distinctWords(Address))
            DistinctContext.try_emplace(Call, Address);
  }
  std::map<unsigned, const Annotation *> Forced = annotatedCalls(Annotations);

  bool Changed = false;
  bool Aggregated = false; // a call now names <dd/atomics.cuh>
  std::set<const Annotation *> MonotonicSeen;
  Privatizer Private(P);
  // The calls of template instantiations are decided one by one like the
  // others, then per position of the template's text (below); a call in a
  // template's own text that has instantiations is decided through them.
  std::map<unsigned, std::vector<const CallExpr *>> Instantiated =
      atomicCallsInInstantiations(Ctx);
  std::vector<const CallExpr *> Calls;
  for (const CallExpr *C : atomicCallsInMainFile(Ctx))
    if (!Instantiated.count(Ctx.getSourceManager()
                                .getExpansionLoc(C->getBeginLoc())
                                .getRawEncoding()))
      Calls.push_back(C);
  size_t Written = Calls.size();
  for (const auto &[Pos, InstCalls] : Instantiated)
    Calls.insert(Calls.end(), InstCalls.begin(), InstCalls.end());
  std::map<const CallExpr *, Verdict> InstVerdicts;
  // Two rounds over the atomics. The first, silent, offers the candidates
  // for privatization, which is decided per array once all of its atomics
  // are known; the second decides and reports each atomic in source order.
  PassDiagnostics Quiet(Ctx.getDiagnostics(), /*Remarks=*/false);
  Quiet.silence();
  for (bool Planning : {true, false}) {
    if (!Planning)
      Private.plan();
    for (size_t Index = 0; Index < Calls.size(); ++Index) {
      const CallExpr *Call = Calls[Index];
      const bool InTemplate = Index >= Written;
      Verdict Local(Planning ? &Quiet : &Diags);
      Verdict &D = InTemplate && !Planning
                       ? InstVerdicts.try_emplace(Call, nullptr).first->second
                       : Local;
      AtomicCall Atomic = *cudaAtomic(Call);
      StringRef Name = Atomic.Name;
      StringRef Op = toString(Atomic.Operation);
      SourceLocation Loc = Call->getBeginLoc();
      auto ForcedIt = Forced.find(Loc.getRawEncoding());
      const Annotation *Pragma =
          ForcedIt == Forced.end() ? nullptr : ForcedIt->second;
      // The min/max of a kernel annotated monotonic, which the user says
      // only moves its word one way.
      const FunctionDecl *Fn = enclosingFunction(Ctx, Call);
      if (Fn && Fn->getTemplateInstantiationPattern())
        Fn = Fn->getTemplateInstantiationPattern();
      const Annotation *Monotonic =
          Fn && !Pragma && (Op == "min" || Op == "max")
              ? Annotations.find(Directive::Monotonic, Fn)
              : nullptr;
      if (llvm::any_of(P.Claimed, [&](SourceRange S) {
            return !Ctx.getSourceManager().isBeforeInTranslationUnit(
                       Loc, S.getBegin()) &&
                   !Ctx.getSourceManager().isBeforeInTranslationUnit(S.getEnd(),
                                                                     Loc);
          })) {
        // An annotated atomic in code another pass replaced stays as written.
        bool MonotonicCovered = Monotonic && resultUnused(Ctx, Call);
        if (MonotonicCovered)
          MonotonicSeen.insert(Monotonic);
        if ((Pragma && Pragma->Variant != AtomicVariant::None) ||
            MonotonicCovered)
          D.declined(Loc, Name + " left unchanged: it is in code the split or "
                                 "delegate pass rewrote");
        continue;
      }

      // The line of a check, as the user's file numbers it.
      auto lineOf = [&](const Stmt *Check) {
        const SourceManager &SM = Ctx.getSourceManager();
        const auto *E = dyn_cast<Expr>(Check);
        return SM
            .getPresumedLoc(
                SM.getExpansionLoc(E ? E->getExprLoc() : Check->getBeginLoc()))
            .getLine();
      };

      // What cannot be rewritten: an annotation asking for it is an error, a
      // monotonic kernel's min/max a warning (but for one whose result is
      // used, which monotonic does not cover), otherwise a remark says why it
      // stays.
      auto Refuse = [&](const Twine &Why, bool Covered = true) {
        if (Pragma && Pragma->Variant != AtomicVariant::None) {
          D.error(Pragma->Loc, "cannot apply '#pragma dd atomic(" +
                                   toString(Pragma->Variant) + ")' to " + Name +
                                   ": " + Why);
          D.note(Loc, "the atomic is here");
          return;
        }
        if (Monotonic && Covered) {
          MonotonicSeen.insert(Monotonic);
          D.declined(Loc, Name + " not made monotonic: " + Why);
          D.note(Monotonic->Loc,
                 "the kernel is annotated '#pragma dd monotonic' here");
          return;
        }
        D.remark(Loc, Name + " left unchanged: " + Why);
      };

      if (Pragma && Pragma->Variant == AtomicVariant::None) {
        D.remark(Loc, Name + " left unchanged: annotated atomic(none)");
        continue;
      }
      if (Pragma && Pragma->Variant == AtomicVariant::SS) {
        D.error(Pragma->Loc,
                "'#pragma dd atomic(ss)' cannot be applied by the pass: "
                "sort-and-scatter reorders whole warps through a host-side "
                "remap (dd::scatter_remap in <dd/scatter_remap.h>); use it "
                "in the program");
        continue;
      }
      if (Atomic.Extent != AtomicCall::Scope::Device) {
        Refuse(Twine(Atomic.Extent == AtomicCall::Scope::Block ? "block"
                                                               : "system") +
               "-scoped atomics are not rewritten");
        continue;
      }
      if (Op == "cas" || Op == "exch" || Op == "dec") {
        Refuse("not an update that can be combined across lanes");
        continue;
      }
      if (!resultUnused(Ctx, Call)) {
        Refuse("its result is used", /*Covered=*/false);
        continue;
      }
      // The runtime's variants deduce the pointer's type from the argument:
      // an object that converts to a pointer (`operator T *()`) would not.
      if (const Expr *Object = convertedToPointer(Call)) {
        Refuse("its address is an object converted to a pointer ('" +
               Object->getType().getAsString(Ctx.getPrintingPolicy()) +
               "'), from which the runtime's variants cannot take the type");
        continue;
      }
      ValueType Type = valueTypeOf(Call, Op);
      if (!Type.Supported) {
        Refuse("no aggregated variant for " + Type.Spelling);
        continue;
      }
      SourceRange CalleeRange =
          Call->getCallee()->IgnoreImpCasts()->getSourceRange();
      if (CalleeRange.getBegin().isMacroID() ||
          CalleeRange.getEnd().isMacroID()) {
        Refuse("it is written through a macro");
        continue;
      }
      auto AddressIt = Addresses.find(Call);
      if (AddressIt == Addresses.end()) {
        // Templates, lambdas, member functions, kernels of included files:
        // the analysis says which and why.
        Refuse(whyNotAnalysed(Ctx, Call));
        continue;
      }
      const AffineValue &Address = AddressIt->second;
      // The address, and every check around the atomic, were read from the
      // host view of the kernels that reach it: that must be the code the GPU
      // compiles (support/DeviceView.h).
      if (std::optional<DeviceView::Divergence> Div =
              deviceDivergence(P, Call)) {
        Refuse(Div->Message);
        D.note(Div->Loc, "the device compilation differs from here");
        continue;
      }
      if (std::optional<std::string> Arch = P.Device.archBelow(70)) {
        Refuse("the file is also compiled for " + *Arch +
               ", and the rewritten atomics (dd/atomics.cuh) need sm_70 or "
               "newer (__match_any_sync)");
        continue;
      }

      // Where the lanes' words lie: shared-memory atomics are native and
      // cheap, so only a provably uniform address is worth a reduction there.
      const AddressSpace Space = addressSpaceOf(Address);
      const bool Distinct = distinctWords(Address);
      // Distinct words in one context but not in all: one text serves every
      // call of its function, so a rewrite would make those lanes pay the
      // vote too (HeCBench's bincount: its shared-memory variant, whose
      // merge goes through the same helper, ran 2x slower).
      auto SomeContext =
          Distinct ? DistinctContext.end() : DistinctContext.find(Call);
      const bool DistinctSomewhere = SomeContext != DistinctContext.end();
      const bool Scalar = Address.valueClass() == ValueClass::Scalar;
      const bool WantsPrivate =
          Pragma && Pragma->Variant == AtomicVariant::Privatize;
      if (WantsPrivate && Type.Floating && !P.Options.AtomicsFloat) {
        Refuse("privatizing reorders floating-point additions (--atomics-float "
               "allows it)");
        continue;
      }
      std::string NotPrivate;
      if (WantsPrivate ||
          (!Pragma && !Monotonic && Op != "inc" && !Scalar && !Distinct &&
           !DistinctSomewhere && Space == AddressSpace::Global &&
           (!Type.Floating || P.Options.AtomicsFloat))) {
        if (Planning) {
          Private.offer(Call, Atomic, Type.Spelling, Pragma);
          continue;
        }
        if (std::optional<std::string> Done = Private.privatized(Call)) {
          D.rewritten(Loc, Name + " -> " + *Done);
          ++P.Rewrites;
          continue;
        }
        if (WantsPrivate) {
          Refuse(Private.whyNot(Call));
          continue;
        }
        NotPrivate = " (not privatized: " + Private.whyNot(Call) + ")";
      }

      // A monotonic kernel's min/max: the atomic behind a load that skips it
      // where it would change nothing (exact when the word only moves one
      // way), or, on request, the papers' guarded plain store.
      std::string Replacement;
      std::string Why;
      if (Monotonic) {
        MonotonicSeen.insert(Monotonic);
        // The body as instantiated: its calls are resolved.
        if (std::optional<OtherWrite> W = otherWrite(
                enclosingFunction(Ctx, Call), Call, Atomic.Operation)) {
          const bool Based = baseVar(Call->getArg(0)) != nullptr;
          D.declined(Loc, Name + " left as written: " +
                              (Based ? "the kernel also " : "") + W->What +
                              ", so its words may not move one way as "
                              "'#pragma dd monotonic' states");
          if (Based)
            D.note(W->Loc, "the other write is here");
          D.note(Monotonic->Loc,
                 "the kernel is annotated '#pragma dd monotonic' here");
          continue;
        }
        if (Monotonic->Monotonic == MonotonicVariant::Store) {
          Replacement = ("dd::monotonic_" + Op).str();
          Why = "in a monotonic(store) kernel: a guarded plain write";
        } else if (const BinaryOperator *Check =
                       ownCheck(Ctx, Call, Op == "max")) {
          D.declined(Loc, Name + " left as written: the check on line " +
                              Twine(lineOf(Check)) +
                              " already skips it where the word is past the "
                              "value; a filter would load the word again");
          D.note(Monotonic->Loc,
                 "the kernel is annotated '#pragma dd monotonic' here");
          continue;
        } else {
          Replacement = ("dd::atomic_" + Op + "_filtered").str();
          Why = "in a monotonic kernel: skipped where the word is already "
                "past the value";
        }
      } else if (Type.Floating && !P.Options.AtomicsFloat) {
        Refuse("aggregating reorders floating-point additions (--atomics-float "
               "allows it)");
        continue;
      } else if (Pragma) {
        Replacement =
            ("dd::atomic_" + Op + "_" + toString(Pragma->Variant)).str();
        Why = ("annotated atomic(" + toString(Pragma->Variant) + ")").str();
      } else if (Op == "inc") {
        // Combining increments that wrap needs a compare-and-swap, which other
        // warps' increments make fail: measured slower than plain atomicInc on
        // the H200 (docs/PERF.md). Only on request.
        D.remark(Loc, Name + " left unchanged: combined wrapping increments "
                             "need a compare-and-swap that loses under "
                             "contention (atomic(sr|vr) forces it)");
        continue;
      } else if (const Expr *Guard = oneLaneGuard(
                     Ctx, Call, Values, enclosingFunction(Ctx, Call))) {
        D.remark(Loc, Name +
                          " left unchanged: only one lane of a warp "
                          "reaches it (the condition on line " +
                          Twine(lineOf(Guard)) +
                          "), so there is nothing to combine");
        continue;
      } else if (Scalar && Type.Word32 &&
                 !(Fn && Fn->hasAttr<NoInlineAttr>())) {
        // ptxas (CUDA 13, sm_90) already turns an int atomic at an address
        // it proves warp-uniform into VOTEU.ANY, REDUX and one atomic per
        // warp, and its proof reads through loads (bench/atomics/
        // uniform_probe.cu); 64-bit and floating types it leaves per lane.
        // Measured: the rewrite 0.98-1.00x on global counters, 0.88x on a
        // shared one, 0.76x on HeCBench's all-pairs-distance (docs/PERF.md).
        D.remark(Loc, Name +
                          " left unchanged: the address is the same in "
                          "every lane, and nvcc already combines the "
                          "lanes of a warp at such an address for " +
                          Type.Spelling + " (one reduction, one atomic)");
        continue;
      } else if (Scalar) {
        Replacement = ("dd::atomic_" + Op + "_uniform").str();
        Why = "scalar address: one atomic per warp";
      } else if (Distinct) {
        D.remark(Loc, Name + " left unchanged: affine address (" +
                          describeStride(Address) +
                          "): the lanes of a warp update distinct words");
        continue;
      } else if (DistinctSomewhere) {
        D.remark(Loc, Name +
                          " left unchanged: in one of the contexts it is "
                          "reached in, its address is affine (" +
                          describeStride(SomeContext->second) +
                          ") and the lanes of a warp update distinct words; "
                          "one rewrite for every call would make them pay "
                          "the vote (atomic(vr) forces it)");
        continue;
      } else if (Space == AddressSpace::Shared) {
        // Measured: a per-warp shared-memory histogram ran 10x slower through
        // the vote than as written on the H200 (docs/PERF.md).
        D.remark(Loc, Name + " left unchanged: the address is in shared "
                             "memory, whose atomics are native and cheaper "
                             "than combining lanes");
        continue;
      } else if (const Expr *Guard = atomicResultGuard(
                     Ctx, Call, enclosingFunction(Ctx, Call))) {
        D.remark(Loc, Name +
                          " left unchanged: it runs where an atomic "
                          "returned one value (the condition on line " +
                          Twine(lineOf(Guard)) +
                          "), which seldom brings several lanes of a warp "
                          "together (atomic(vr) forces the vote)");
        continue;
      } else if (const BinaryOperator *Check =
                     (Op == "min" || Op == "max")
                         ? ownCheck(Ctx, Call, Op == "max")
                         : nullptr) {
        // Only lanes that would lower (raise) the word reach the atomic, and
        // seldom several of a warp on one word: combining them measured
        // 0.94-1.01x on SSSP's checked relaxations (docs/PERF.md), as
        // LonestarGPU writes them.
        D.remark(Loc, Name + " left unchanged: the check on line " +
                          Twine(lineOf(Check)) +
                          " lets only lanes that change the word reach it, "
                          "too few together to gain from combining "
                          "(atomic(vr) forces it)");
        continue;
      } else if (std::optional<PerLaneLoop> Loop =
                     perLaneLoop(Ctx, Call, Values)) {
        std::string Exit;
        if (Loop->Exit)
          Exit = " (it ends at the condition on line " +
                 std::to_string(lineOf(Loop->Exit)) + ")";
        D.remark(Loc, Name + " left unchanged: the loop on line " +
                          Twine(lineOf(Loop->Loop)) + " runs a trip count " +
                          "of each lane's own" + Exit +
                          ", so the lanes that reach it together are seldom "
                          "a whole warp or on one word (atomic(vr) forces the "
                          "vote)");
        continue;
      } else if (Space != AddressSpace::Global) {
        Replacement = ("dd::atomic_" + Op + "_auto").str();
        Why = (toString(Address.valueClass()) +
               " address in memory the pass cannot place: in global memory "
               "lanes that hit the same word are combined, in shared memory "
               "the atomic stays as written (decided at run time)")
                  .str();
      } else {
        // Vote first: a few sampled addresses and a ballot cost almost nothing
        // when lanes hit distinct words, and lanes that share one are combined
        // (match and reduce). Plain match-and-reduce costs 2.3x at 64K bins
        // (docs/PERF.md).
        Replacement = ("dd::atomic_" + Op + "_vr").str();
        Why = (toString(Address.valueClass()) +
               " address: lanes that hit the same word are combined "
               "(vote, then match and reduce)")
                  .str();
      }

      if (Planning)
        continue;
      D.rewritten(Loc, Name + " -> " + Replacement + ": " + Why + NotPrivate);
      if (InTemplate) {
        D.Replacement = Replacement;
        continue;
      }
      R.ReplaceText(CharSourceRange::getTokenRange(CalleeRange), Replacement);
      Changed = true;
      Aggregated = true;
      ++P.Rewrites;
    }
  }
  // The kernels of the privatized arrays, rewritten as a whole.
  if (Private.rewrite())
    Changed = true;
  // One text, several instantiations: rewritten where all agree.
  for (const auto &[Pos, InstCalls] : Instantiated) {
    const CallExpr *First = InstCalls.front();
    SourceLocation Loc = First->getBeginLoc();
    StringRef Name = cudaAtomic(First)->Name;
    auto NameOf = [&](const CallExpr *C) {
      const FunctionDecl *F = enclosingFunction(Ctx, C);
      std::string Out;
      llvm::raw_string_ostream OS(Out);
      if (F)
        F->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(),
                                /*Qualified=*/false);
      return Out;
    };
    const Verdict &V0 = InstVerdicts.at(First);
    bool Same = all_of(InstCalls, [&](const CallExpr *C) {
      const Verdict &V = InstVerdicts.at(C);
      return V.What == V0.What && V.Replacement == V0.Replacement &&
             (V.What == Verdict::Rewritten || V.Message == V0.Message);
    });
    std::string Where = " (in every instantiation: ";
    for (const CallExpr *C : InstCalls)
      Where += (C == First ? "" : ", ") + NameOf(C);
    Where += ")";
    if (Same && V0.What == Verdict::Rewritten) {
      R.ReplaceText(CharSourceRange::getTokenRange(
                        First->getCallee()->IgnoreImpCasts()->getSourceRange()),
                    V0.Replacement);
      Diags.rewritten(Loc, V0.Message + Where);
      Changed = Aggregated = true;
      ++P.Rewrites;
      continue;
    }
    if (Same) {
      if (V0.What == Verdict::Error)
        Diags.error(Loc, V0.Message + Where);
      else if (V0.What == Verdict::Declined)
        Diags.declined(Loc, V0.Message + Where);
      else
        Diags.remark(Loc, V0.Message + Where);
      continue;
    }
    // The instantiations disagree: one text cannot serve them all.
    std::string Each;
    for (const CallExpr *C : InstCalls) {
      const Verdict &V = InstVerdicts.at(C);
      std::string Reason = V.Message;
      StringRef Prefix = " left unchanged: ";
      if (size_t At = Reason.find(Prefix); At != std::string::npos)
        Reason = Reason.substr(At + Prefix.size());
      Each += (C == First ? "" : "; ") + NameOf(C) + ": " +
              (V.What == Verdict::Rewritten ? V.Replacement
                                            : "as written, " + Reason);
    }
    bool AnyError = any_of(InstCalls, [&](const CallExpr *C) {
      return InstVerdicts.at(C).What == Verdict::Error;
    });
    std::string Message = (Name +
                           " left unchanged: its template's "
                           "instantiations need different rewrites (" +
                           Each + ")")
                              .str();
    if (AnyError)
      Diags.error(Loc, Message);
    else
      Diags.remark(Loc, Message);
  }
  for (const auto &[Call, Name] : atomicCallsInGenericLambdas(Ctx))
    Diags.remark(Call->getBeginLoc(),
                 Name + " left unchanged: it is in a generic lambda, whose "
                        "instantiations the pass does not follow");
  for (const CallExpr *Call : atomicCallsInIncludedSources(Ctx)) {
    const FunctionDecl *Fn = enclosingFunction(Ctx, Call);
    std::string Where = Fn ? describeFunction(Fn) : "file scope";
    Diags.remark(Call->getBeginLoc(),
                 cudaAtomic(Call)->Name +
                     " left unchanged: it is in an included "
                     "source file (" +
                     Where + "), and only the main file is rewritten");
  }
  // A monotonic kernel without a min/max atomic of its own has nothing the
  // annotation could change. (One in an included file never reaches a pass:
  // the pipeline warns and drops it.)
  for (const Annotation &A : Annotations.all()) {
    if (A.Kind != Directive::Monotonic || !A.TargetFunction ||
        MonotonicSeen.count(&A))
      continue;
    Diags.declined(A.Loc, "'#pragma dd monotonic' has no effect: kernel '" +
                              A.TargetFunction->getNameAsString() +
                              "' has no atomicMin or atomicMax whose result "
                              "is unused in its body");
  }
  if (Aggregated)
    P.Includes.ensure("dd/atomics.cuh");
  return Changed;
}

} // namespace decoupler
