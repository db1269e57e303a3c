//===- support/MemoryRoots.cpp - Memory a kernel may reach ------------===//

#include "support/MemoryRoots.h"
#include "support/Callees.h"
#include "support/CudaFacts.h"
#include "support/Stores.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

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

/// The arguments of a call or constructor call that bind to its parameters,
/// each with the parameter's type (the argument's own where the callee is
/// unknown or the argument is variadic), and the object a member function
/// is called on (null for a free function). A member operator's first
/// argument is that object, not its first parameter's.
struct CallArguments {
  const FunctionDecl *Callee = nullptr;
  const Expr *Object = nullptr;
  ArrayRef<const Expr *> Args;
  QualType paramType(unsigned I) const {
    return Callee && I < Callee->getNumParams()
               ? Callee->getParamDecl(I)->getType()
               : Args[I]->getType();
  }
};

CallArguments argumentsOf(const Expr *Site) {
  CallArguments A;
  if (const auto *K = dyn_cast<CXXConstructExpr>(Site)) {
    A.Callee = K->getConstructor();
    A.Args = ArrayRef(K->getArgs(), K->getNumArgs());
    return A;
  }
  const auto *C = cast<CallExpr>(Site);
  A.Callee = C->getDirectCallee();
  A.Args = ArrayRef(C->getArgs(), C->getNumArgs());
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(A.Callee);
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(C)) {
    A.Object = M->getImplicitObjectArgument();
  } else if (isa<CXXOperatorCallExpr>(C) && Method && !Method->isStatic() &&
             !A.Args.empty()) {
    A.Object = A.Args.front();
    A.Args = A.Args.drop_front();
  }
  return A;
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
      escape(C);
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      escape(C);
      return true;
    }
    // A pointer bound to a reference parameter may be changed by the callee
    // (or, for a constructor, by the object it makes).
    void escape(const Expr *Site) {
      CallArguments A = argumentsOf(Site);
      for (unsigned I = 0; I < A.Args.size(); ++I)
        if (const VarDecl *V = localVar(A.Args[I]);
            V && V->getType()->isPointerType() &&
            (!A.Callee || I >= A.Callee->getNumParams() ||
             A.paramType(I)->isReferenceType()))
          M.Escaped.insert(V);
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

bool holdsPointers(QualType T, unsigned Depth) {
  while (const auto *A = dyn_cast<ArrayType>(T.getCanonicalType()))
    T = A->getElementType();
  const auto *R = T->getAsCXXRecordDecl();
  if (!R || !R->hasDefinition() || Depth > 8)
    return T->isPointerType() || T->isReferenceType();
  for (const CXXBaseSpecifier &B : R->bases())
    if (holdsPointers(B.getType(), Depth + 1))
      return true;
  for (const FieldDecl *F : R->fields())
    if (holdsPointers(F->getType(), Depth + 1))
      return true;
  return false;
}

void MemoryRoots::ofVar(const VarDecl *V, MemoryRootSet &Out) {
  // Parameters and globals are roots of their own (a pointer's pointee: the
  // memory it was given); so is a local's own storage.
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      !isPointerOrReference(V->getType())) {
    Out.Vars.insert(V);
    // A struct's pointer fields (`View v{sums}; v.p[b]`) are not followed.
    if (!isPointerOrReference(V->getType()) && holdsPointers(V->getType()))
      Out.Unknown = true;
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

const FunctionDecl *calleeOf(const Expr *Site) {
  if (const auto *K = dyn_cast<CXXConstructExpr>(Site))
    return K->getConstructor();
  return calledFunction(cast<CallExpr>(Site));
}

void writtenThroughArguments(const Expr *Site, MemoryRoots &Roots,
                             MemoryRootSet &Out) {
  CallArguments A = argumentsOf(Site);
  for (unsigned I = 0; I < A.Args.size(); ++I) {
    const Expr *Arg = A.Args[I];
    QualType PT = A.paramType(I);
    // A temporary bound to a reference is no one else's memory.
    if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified()) {
      if (!isa<MaterializeTemporaryExpr>(Arg->IgnoreParenImpCasts()) &&
          Arg->isGLValue())
        Roots.ofLValue(Arg, Out);
    } else if (PT->isPointerType() &&
               !PT->getPointeeType().isConstQualified()) {
      Roots.ofPointer(Arg, Out);
    }
  }
}

const Expr *writtenObject(const Expr *Site, MemoryRoots &Roots,
                          MemoryRootSet &Storage, bool &ThroughMembers) {
  ThroughMembers = false;
  CallArguments A = argumentsOf(Site);
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(A.Callee);
  if (!A.Object || (Method && Method->isConst()))
    return nullptr;
  QualType T = A.Object->getType();
  if (T->isPointerType()) {
    Roots.ofPointer(A.Object, Storage);
    T = T->getPointeeType();
  } else if (A.Object->isGLValue()) {
    Roots.ofLValue(A.Object, Storage);
  }
  ThroughMembers = holdsPointers(T);
  return A.Object;
}

SmallVector<const Expr *, 4> nonAtomicCalls(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SmallVector<const Expr *, 4> Calls;
    bool VisitCallExpr(CallExpr *C) {
      if (!cudaAtomic(C))
        Calls.push_back(C);
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      Calls.push_back(C);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return std::move(F.Calls);
}

bool libraryFunction(const FunctionDecl *F) {
  if (isCudaFunction(F) || F->getBuiltinID())
    return true;
  const SourceManager &SM = F->getASTContext().getSourceManager();
  if (!SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
    return false;
  // A library template instantiated with the program's own type (a functor,
  // a lambda) may call the program's code, which may write anything.
  auto OwnType = [&](const TemplateArgumentList *Args) {
    for (const TemplateArgument &A :
         Args ? Args->asArray() : ArrayRef<TemplateArgument>())
      if (A.getKind() == TemplateArgument::Type)
        if (const auto *R = A.getAsType()->getAsCXXRecordDecl())
          if (!SM.isInSystemHeader(SM.getExpansionLoc(R->getLocation())))
            return true;
    return false;
  };
  if (OwnType(F->getTemplateSpecializationArgs()))
    return false;
  if (const auto *Spec =
          dyn_cast<ClassTemplateSpecializationDecl>(F->getDeclContext()))
    if (OwnType(&Spec->getTemplateArgs()))
      return false;
  return true;
}

namespace {

bool pseudoDestructor(const Expr *Site) {
  const auto *C = dyn_cast<CallExpr>(Site);
  return C &&
         isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParenImpCasts());
}

/// The definition the function \p Site calls, to follow; null when there
/// is none to follow, Out.Unknown then set where the call may reach
/// anything (through a pointer, or no body in the file). A library function
/// or a trivial constructor reaches nothing of the program's.
const FunctionDecl *definitionToFollow(const Expr *Site, MemoryRootSet &Out) {
  const FunctionDecl *F = calleeOf(Site);
  if (!F) {
    Out.Unknown |= !pseudoDestructor(Site);
    return nullptr;
  }
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F);
      (Ctor && Ctor->isTrivial()) || libraryFunction(F))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def)) {
    // Defined elsewhere (relocatable device code): it may do anything.
    Out.Unknown = true;
    return nullptr;
  }
  return Def;
}

/// Collects what statements of one function write into Out, following
/// calls into the functions they call (each once).
class WriteCollector {
public:
  WriteCollector(MemoryRootSet &Out) : Out(Out) {}

  void function(const FunctionDecl &F, ArrayRef<const Stmt *> Body,
                bool KeepLocals) {
    MemoryRoots Roots(F);
    const bool Constructor = isa<CXXConstructorDecl>(F);
    for (const Stmt *S : Body) {
      forEachStore(S,
                   [&](const Expr *Target, bool AtomicPointer, const Stmt *) {
                     // A constructor's stores into its own object's fields
                     // write the object being made, no one else's memory.
                     if (Constructor && !AtomicPointer && ownField(Target))
                       return;
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
  static bool ownField(const Expr *Target) {
    const auto *M = dyn_cast<MemberExpr>(Target->IgnoreParens());
    for (; M; M = dyn_cast<MemberExpr>(M->getBase()->IgnoreParens())) {
      if (M->getMemberDecl()->getType()->isReferenceType())
        return false; // a reference field: the store writes its referent
      if (M->isArrow())
        return isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts());
    }
    return false;
  }

  void add(const MemoryRootSet &R, bool KeepLocals) {
    Out.Unknown |= R.Unknown;
    for (const VarDecl *V : R.Vars)
      // In a callee, its parameters stand for the caller's arguments (added
      // at the call) and its locals are its own.
      if (!V->hasLocalStorage() || (KeepLocals && isa<ParmVarDecl>(V)))
        Out.Vars.insert(V);
  }

  void calls(const Stmt *S, MemoryRoots &Roots, bool KeepLocals) {
    for (const Expr *C : nonAtomicCalls(S)) {
      const FunctionDecl *Callee = calleeOf(C);
      MemoryRootSet R;
      writtenThroughArguments(C, Roots, R);
      bool ThroughMembers = false;
      writtenObject(C, Roots, R, ThroughMembers);
      R.Unknown |= ThroughMembers;
      add(R, KeepLocals);
      // What it writes to globals itself (its own parameters' memory is the
      // arguments', above).
      // `this` is not followed, but a library's member functions write
      // only their object (above).
      if (isa<CXXMemberCallExpr>(C) && !(Callee && libraryFunction(Callee)))
        Out.Unknown = true;
      callee(C);
    }
  }

public:
  /// What the function \p Site calls writes to globals, transitively.
  void callee(const Expr *Site) {
    if (const FunctionDecl *Def = definitionToFollow(Site, Out);
        Def && Seen.insert(Def).second)
      function(*Def, {Def->getBody()}, /*KeepLocals=*/false);
  }

private:
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

MemoryRootSet writtenByCallee(const Expr *Site) {
  MemoryRootSet Out;
  WriteCollector(Out).callee(Site);
  return Out;
}

namespace {

/// Collects the globals the functions a call reaches name, each function
/// once.
class ReadCollector : public RecursiveASTVisitor<ReadCollector> {
public:
  explicit ReadCollector(MemoryRootSet &Out) : Out(Out) {}

  void callee(const Expr *Site) {
    const FunctionDecl *Def = definitionToFollow(Site, Out);
    if (!Def || !Seen.insert(Def).second)
      return;
    MemoryRoots Roots(*Def);
    MemoryRoots *Caller = std::exchange(Current, &Roots);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : Ctor->inits())
        TraverseStmt(I->getInit());
    TraverseStmt(Def->getBody());
    Current = Caller;
  }

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
        V && !V->hasLocalStorage())
      Current->ofVar(V, Out);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    callee(C);
    return !Out.Unknown;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    callee(C);
    return !Out.Unknown;
  }

private:
  MemoryRootSet &Out;
  MemoryRoots *Current = nullptr; // the roots of the function visited
  SmallPtrSet<const FunctionDecl *, 8> Seen;
};

} // namespace

MemoryRootSet readByCallee(const Expr *Site) {
  MemoryRootSet Out;
  ReadCollector(Out).callee(Site);
  return Out;
}

} // namespace decoupler
