//===- delegate/DelegatePass.cpp - Critical sections to server blocks -----===//

#include "delegate/DelegatePass.h"
#include "delegate/CriticalSection.h"
#include "support/Barriers.h"
#include "support/CudaFacts.h"
#include "support/Includes.h"
#include "support/LaunchRewriter.h"
#include "support/MemoryRoots.h"
#include "support/SourceText.h"
#include "support/Stores.h"
#include "support/ThreadOrder.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

/// Server blocks keep the lock table and the receiver's buffers in static
/// shared memory, which CUDA caps at 48 KB.
constexpr unsigned MaxLocks = 8192;
constexpr unsigned DefaultLocks = 4096;

/// One try-lock loop the pass will rewrite (or was asked to).
struct Candidate {
  const Stmt *Loop = nullptr;
  const FunctionDecl *Kernel = nullptr;
  const Annotation *Pragma = nullptr; // null: found by --delegate=auto
};

/// A value of the message: a variable of the kernel, a lock index that is
/// not one (computed by the client, named dd_idN), or a component of a CUDA
/// builtin variable the critical section reads (dd_threadIdx_x: Builtin is
/// what the client sends, "threadIdx.x").
struct Field {
  std::string Type;
  std::string Name;
  const ValueDecl *Decl = nullptr;
  const Expr *Computed = nullptr;
  std::string Builtin = {};
};

std::string text(SourceRange Range, const SourceManager &SM,
                 const LangOptions &LO) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Range), SM, LO)
      .str();
}

bool within(SourceLocation L, SourceRange Range, const SourceManager &SM) {
  return !SM.isBeforeInTranslationUnit(L, Range.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Range.getEnd(), L);
}

/// References to \p V in \p Root, optionally only those outside \p Skip.
SmallVector<const DeclRefExpr *, 4>
refsTo(const ValueDecl *V, const Stmt *Root, const SourceManager &SM,
       std::optional<SourceRange> Skip = std::nullopt) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *V;
    const SourceManager &SM;
    std::optional<SourceRange> Skip;
    SmallVector<const DeclRefExpr *, 4> Out;
    Finder(const ValueDecl *V, const SourceManager &SM,
           std::optional<SourceRange> Skip)
        : V(V), SM(SM), Skip(Skip) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      if (D->getDecl() == V && !(Skip && within(D->getLocation(), *Skip, SM)))
        Out.push_back(D);
      return true;
    }
  } F(V, SM, Skip);
  F.TraverseStmt(const_cast<Stmt *>(Root));
  return F.Out;
}

/// The first use of field \p F in \p Root outside \p Skip, if any (through
/// any object: another element's lock is the same lock array).
const MemberExpr *fieldUseOutside(const FieldDecl *F, const Stmt *Root,
                                  SourceRange Skip) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FieldDecl *F;
    SourceRange Skip;
    const SourceManager *SM = nullptr;
    const MemberExpr *Found = nullptr;
    bool VisitMemberExpr(MemberExpr *M) {
      if (M->getMemberDecl() == F &&
          !(SM->isBeforeInTranslationUnit(Skip.getBegin(), M->getMemberLoc()) &&
            SM->isBeforeInTranslationUnit(M->getMemberLoc(), Skip.getEnd())))
        Found = M;
      return !Found;
    }
  } Find;
  Find.F = F;
  Find.Skip = Skip;
  Find.SM = &F->getASTContext().getSourceManager();
  Find.TraverseStmt(const_cast<Stmt *>(Root));
  return Find.Found;
}

/// Parameters of \p Kernel the kernel may change (support/Stores: assigned,
/// incremented, their address taken, bound to a non-const reference, ...):
/// their value at the critical section is the client's, so they travel in
/// the message rather than as server arguments.
bool paramModified(const ParmVarDecl *P, const FunctionDecl &Kernel) {
  return mayModify(Kernel.getBody(), P, Kernel.getASTContext());
}

/// The statement after \p S in its enclosing block, or null.
const Stmt *nextStatement(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  const auto *C = Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
  if (!C)
    return nullptr;
  for (auto It = C->body_begin(); It != C->body_end(); ++It)
    if (*It == S)
      return std::next(It) == C->body_end() ? nullptr : *std::next(It);
  return nullptr;
}

/// \p Text (lines of code starting at column \p Column) re-indented by
/// \p Indent spaces.
std::string reindent(StringRef Text, unsigned Column, StringRef Indent) {
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I].rtrim();
    if (I > 0) {
      size_t Strip = 0;
      while (Strip < Column && Strip < L.size() && L[Strip] == ' ')
        ++Strip;
      L = L.drop_front(Strip);
    }
    Out += L.empty() ? "" : (Indent + L).str();
    Out += "\n";
  }
  return Out;
}

/// Try-lock-shaped loops of the main file's kernels that carry no delegate
/// annotation (for --delegate=auto).
std::vector<Candidate> unannotatedLoops(ASTContext &Ctx,
                                        const AnnotationSet &Annotations) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Ctx;
    const AnnotationSet &Annotations;
    const FunctionDecl *Kernel = nullptr;
    std::vector<Candidate> Out;
    Finder(ASTContext &Ctx, const AnnotationSet &A)
        : Ctx(Ctx), Annotations(A) {}
    bool TraverseFunctionDecl(FunctionDecl *F) {
      const SourceManager &SM = Ctx.getSourceManager();
      if (!F->hasAttr<CUDAGlobalAttr>() || !F->doesThisDeclarationHaveABody() ||
          !SM.isInMainFile(SM.getExpansionLoc(F->getLocation())))
        return true;
      Kernel = F;
      TraverseStmt(F->getBody());
      Kernel = nullptr;
      return true;
    }
    bool visitLoop(Stmt *S) {
      if (Kernel && !Annotations.find(Directive::Delegate, S))
        Out.push_back({S, Kernel, nullptr});
      return true;
    }
    bool VisitDoStmt(DoStmt *S) { return visitLoop(S); }
    bool VisitWhileStmt(WhileStmt *S) { return visitLoop(S); }
  } F(Ctx, Annotations);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Out;
}

/// One critical section of a kernel being rewritten, and what the rewrite
/// derives from it.
struct Section {
  const Candidate *C = nullptr;
  const CriticalSection *CS = nullptr;
  /// Appended to the names generated for it: "" when the kernel has one
  /// critical section, "_0", "_1", ... when it has several.
  std::string Sfx;
  SmallVector<Field, 8> Fields;                   // its message
  SmallVector<const ValueDecl *, 8> Reads;        // its parameters
  SmallVector<const ParmVarDecl *, 8> ServerArgs; // kernel parameters it reads
  SmallVector<std::string, 4> BuiltinFields;      // parameters after Reads
  SmallVector<std::string, 2> Ids; // per lock: the field holding its data id
  /// The client waits for the server's reply: the section writes locals
  /// the kernel uses after it (CS->Replies), or the kernel uses afterwards
  /// memory the section writes.
  bool Waits = false;
  /// For the remark: the first use after the section of memory it writes
  /// ("uses 'x' (line 9), which ..."), or (with WaitsPublish) the point
  /// where the kernel then publishes its writes to other blocks.
  std::string WaitsFor;
  bool WaitsPublish = false;

  bool nested() const { return CS->Kind == CriticalSection::Shape::Nested; }
  bool isReply(const ValueDecl *D) const {
    return is_contained(CS->Replies, D);
  }
  std::string fieldOf(const ValueDecl *D) const {
    for (const Field &F : Fields)
      if (F.Decl == D)
        return F.Name;
    return "";
  }
};

/// The rewrite of one kernel and its critical sections.
class KernelRewrite {
public:
  KernelRewrite(
      ASTContext &Ctx, Rewriter &R, const FunctionDecl &K,
      ArrayRef<std::pair<const Candidate *, const CriticalSection *>> Found)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), R(R), K(K),
        Name(K.getNameAsString()),
        Launcher(Ctx, K, LaunchRewriter::Policy::ReplaceAll) {
    Policy.SuppressTagKeyword = true;
    Policy.SuppressScope = false;
    for (const auto &[C, CS] : Found) {
      Section S;
      S.C = C;
      S.CS = CS;
      if (Found.size() > 1)
        S.Sfx = "_" + std::to_string(Secs.size());
      Nested |= S.nested();
      Secs.push_back(std::move(S));
    }
  }

  /// Checks everything the rewrite needs; the first problem, if any, and
  /// the section it concerns.
  std::optional<std::pair<Refusal, unsigned>> check();
  /// Emits the rewrite (after a successful check()).
  void emit(std::vector<SourceRange> &Replaced);
  /// Every section takes its outer lock from one array and its inner lock
  /// from another (after check()): dd::LockIds::TwoArrays.
  bool twoArrays() const { return TwoArrays; }
  /// Why section \p I's client waits for a reply (empty: it does not).
  std::string whyWait(unsigned I) const;
  unsigned sections() const { return Secs.size(); }

private:
  std::optional<Refusal> checkLaunches();
  /// Whether every section is nested and takes its outer lock from one
  /// array and its inner lock from another, the same two throughout (the
  /// arrays' roots: two distinct parameters or globals, which the pass
  /// takes not to overlap, MemoryRoots.h). Then user 7 and item 7 need not
  /// share a lock word, and the inner lock can always be the server's own.
  bool twoLockArrays() const;
  std::optional<Refusal> checkSection(Section &S);
  std::optional<Refusal> collectFields(Section &S);
  std::string typeOf(const ValueDecl *D) const {
    return D->getType().getNonReferenceType().getUnqualifiedType().getAsString(
        Policy);
  }
  /// Parameter \p I declared as the kernel declares it (its own text, so
  /// that typedefs and qualifiers read as written).
  std::string paramDecl(unsigned I) const {
    const ParmVarDecl *P = K.getParamDecl(I);
    if (!P->getName().empty() && !P->hasDefaultArg() &&
        !inMacro(P->getSourceRange()))
      return text(P->getSourceRange(), SM, LO);
    return P->getType().getAsString(Policy) + " " + paramName(I);
  }
  unsigned paramIndex(const ParmVarDecl *P) const {
    for (unsigned I = 0; I < K.getNumParams(); ++I)
      if (K.getParamDecl(I) == P)
        return I;
    return 0;
  }
  /// The launcher's name for parameter \p I (the client's too).
  std::string paramName(unsigned I) const { return Launcher.paramName(I); }
  static std::string builtinField(const CudaBuiltinRead &B) {
    return "dd_" + B.Var.str() + "_" + std::string(1, "xyz"[B.Dim]);
  }
  /// Data id \p I of \p S read from the message \p M as IdPair's type (a
  /// braced initializer does not narrow from `int`).
  std::string wideId(const Section &S, unsigned I, StringRef M) const {
    for (const Field &F : S.Fields)
      if (F.Name == S.Ids[I])
        return F.Type == "unsigned long long"
                   ? M.str() + F.Name
                   : "(unsigned long long)" + M.str() + F.Name;
    return M.str() + S.Ids[I];
  }
  /// The data id(s) of \p S as the server's id function returns them.
  std::string idOf(const Section &S, StringRef M) const;
  /// What the server runs for a message \p M of \p S.
  std::string handler(const Section &S, StringRef M, StringRef Indent) const;
  /// Every section's client waits for its reply, so every send is
  /// unstaged (ReplyBox::call): the client gets no message stages
  /// (dd::Unstaged*Delegate), which frees its shared memory.
  bool unstaged() const {
    return all_of(Secs, [](const Section &S) { return S.Waits; });
  }
  std::string messages() const;
  std::string outlined(const Section &S) const;
  std::string preamble() const;
  std::string asWritten() const;
  std::string serverAndLaunch() const;
  std::string send(const Section &S, StringRef Indent) const;
  void rewriteKernel();
  void rewriteLaunches();
  void removePragmas();
  void removeFlags();
  /// Loop flags whose declarations removeFlags() removed (no `= true`
  /// after the send: nothing reads them).
  SmallVector<const VarDecl *, 4> RemovedFlags;
  bool inAnySection(SourceLocation L) const {
    return any_of(Secs, [&](const Section &S) {
      return within(L, S.CS->Loop->getSourceRange(), SM);
    });
  }
  /// Server arguments of all sections, each once, in order.
  SmallVector<const ParmVarDecl *, 8> serverArgs() const {
    SmallVector<const ParmVarDecl *, 8> Out;
    for (const Section &S : Secs)
      for (const ParmVarDecl *P : S.ServerArgs)
        if (!is_contained(Out, P))
          Out.push_back(P);
    return Out;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  Rewriter &R;
  const FunctionDecl &K;
  std::string Name;
  SmallVector<Section, 2> Secs;
  /// Any section takes two locks: the kernel's servers are nested ones (a
  /// one-lock section sends the same data id twice).
  bool Nested = false;
  /// See twoLockArrays().
  bool TwoArrays = false;
  PrintingPolicy Policy{Ctx.getLangOpts()};
  unsigned Locks = DefaultLocks;
  unsigned Servers = 0;
  LaunchRewriter Launcher; // k<<<...>>> -> k_launch(...)
};

std::optional<Refusal> KernelRewrite::checkLaunches() {
  // Every use must be a launch the launcher replaces: the kernel becomes the
  // client.
  if (std::optional<LaunchProblem> P = Launcher.check())
    return Refusal{RefusalKind::KernelNotRewritable, P->Loc, P->Message};
  if (Launcher.launches().empty())
    return Refusal{
        RefusalKind::KernelNotRewritable, K.getLocation(),
        "kernel '" + Name +
            "' is not launched in this file; the delegate rewrite replaces its "
            "launches and cannot rewrite one in another translation unit"};
  for (const CUDAKernelCallExpr *L : Launcher.launches()) {
    const CallExpr *Config = L->getConfig();
    if (Config && Config->getNumArgs() > 2) {
      const Expr *Shared = Config->getArg(2);
      Expr::EvalResult V;
      const bool Zero = isa<CXXDefaultArgExpr>(Shared) ||
                        (Shared->EvaluateAsInt(V, Ctx) && V.Val.getInt() == 0);
      if (!Zero)
        return Refusal{
            RefusalKind::KernelNotRewritable, Shared->getBeginLoc(),
            "this launch of '" + Name +
                "' gives the kernel dynamic shared memory; the delegate client "
                "needs it for its message stages"};
    }
  }
  return std::nullopt;
}

std::optional<Refusal> KernelRewrite::collectFields(Section &S) {
  const CriticalSection &CS = *S.CS;
  // The data ids: a lock index that is a variable travels as itself, any
  // other index is computed by the client.
  for (const LockRef &L : CS.Locks) {
    if (!L.Index)
      return Refusal{
          RefusalKind::SectionShape, L.Loc,
          "the lock is not an element of a lock array (&locks[i]); the "
          "delegate rewrite routes by its index"};
    const Expr *Index = L.Index->IgnoreParenImpCasts();
    const auto *D = dyn_cast<DeclRefExpr>(Index);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (V && V->hasLocalStorage()) {
      if (S.fieldOf(V).empty())
        S.Fields.push_back({typeOf(V), V->getNameAsString(), V, nullptr});
      S.Ids.push_back(V->getNameAsString());
    } else {
      // The client evaluates it for the route and for the message.
      if (L.Index->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
        return Refusal{
            RefusalKind::SectionShape, L.Index->getBeginLoc(),
            "the lock index '" + text(L.Index->getSourceRange(), SM, LO) +
                "' has side effects; the rewrite evaluates it more than once"};
      std::string N = "dd_id" + std::to_string(S.Ids.size());
      S.Fields.push_back({"unsigned long long", N, nullptr, L.Index});
      S.Ids.push_back(N);
    }
  }
  // What the critical section reads: locals (and parameters the kernel
  // changes) in the message, other parameters as server arguments.
  SmallPtrSet<const ValueDecl *, 8> Read;
  for (const Stmt *St : CS.Body) {
    struct Finder : RecursiveASTVisitor<Finder> {
      SmallPtrSet<const ValueDecl *, 8> &Read;
      explicit Finder(SmallPtrSet<const ValueDecl *, 8> &R) : Read(R) {}
      bool VisitDeclRefExpr(DeclRefExpr *D) {
        Read.insert(D->getDecl());
        return true;
      }
    } F(Read);
    F.TraverseStmt(const_cast<Stmt *>(St));
  }
  for (const ValueDecl *D : CS.Message) {
    if (!Read.contains(D))
      continue;
    S.Reads.push_back(D);
    if (!S.fieldOf(D).empty())
      continue;
    QualType T = D->getType();
    if (T->isReferenceType() || T->isArrayType() ||
        !T.isTriviallyCopyableType(Ctx))
      return Refusal{
          RefusalKind::ServerCannotRun, D->getLocation(),
          "the critical section reads '" + D->getNameAsString() +
              "', which cannot travel in a message (a reference, an array or "
              "not trivially copyable)"};
    S.Fields.push_back({typeOf(D), D->getNameAsString(), D, nullptr});
  }
  for (const ValueDecl *D : CS.Arguments) {
    const auto *P = dyn_cast<ParmVarDecl>(D);
    if (!P || !Read.contains(D))
      continue;
    S.Reads.push_back(D);
    if (paramModified(P, K)) {
      if (S.fieldOf(P).empty())
        S.Fields.push_back({typeOf(P), P->getNameAsString(), P, nullptr});
    } else {
      S.ServerArgs.push_back(P);
    }
  }
  // threadIdx.x and friends: the client's values, which the server's
  // differ from; the outlined section reads the parameter instead.
  for (const CriticalSection::BuiltinUse &U : CS.Builtins) {
    const std::string Spelled = U.Read.name();
    if (inMacro(U.E->getSourceRange()) || !SM.isInMainFile(U.E->getBeginLoc()))
      return Refusal{
          RefusalKind::KernelNotRewritable,
          SM.getExpansionLoc(U.E->getBeginLoc()),
          "the critical section reads '" + Spelled +
              "' through a macro; the rewrite passes the client's value in the "
              "message and cannot replace this read"};
    const std::string N = builtinField(U.Read);
    if (none_of(S.Fields, [&](const Field &F) { return F.Name == N; })) {
      S.Fields.push_back({"unsigned int", N, nullptr, nullptr, Spelled});
      S.BuiltinFields.push_back(N);
    }
  }
  for (size_t I = 0; I < S.Fields.size(); ++I)
    for (size_t J = 0; J < I; ++J)
      if (S.Fields[I].Name == S.Fields[J].Name)
        return Refusal{RefusalKind::KernelNotRewritable,
                       S.Fields[I].Decl ? S.Fields[I].Decl->getLocation()
                                        : CS.Loop->getBeginLoc(),
                       "the critical section reads two variables named '" +
                           S.Fields[I].Name + "'; rename one"};
  return std::nullopt;
}

std::optional<Refusal> KernelRewrite::checkSection(Section &S) {
  const CriticalSection &CS = *S.CS;
  const Candidate &C = *S.C;
  const SourceLocation At = CS.Loop->getBeginLoc();
  if (inMacro(CS.Loop->getSourceRange()))
    return Refusal{RefusalKind::KernelNotRewritable, SM.getExpansionLoc(At),
                   "the kernel or its try-lock loop is written "
                   "through a macro; it cannot be rewritten"};
  // One server table per kernel: its sections must agree on its size.
  if (C.Pragma && C.Pragma->Locks) {
    if (*C.Pragma->Locks > MaxLocks)
      return Refusal{RefusalKind::KernelNotRewritable, C.Pragma->Loc,
                     "locks(" + std::to_string(*C.Pragma->Locks) +
                         "): a server block holds at most " +
                         std::to_string(MaxLocks) +
                         " lock words in its static shared memory (48 KB)"};
    if (Locks != DefaultLocks && Locks != *C.Pragma->Locks)
      return Refusal{RefusalKind::KernelNotRewritable, C.Pragma->Loc,
                     "locks(" + std::to_string(*C.Pragma->Locks) +
                         ") differs from another critical section's locks(" +
                         std::to_string(Locks) + ") in kernel '" + Name +
                         "'; its sections share one server lock table"};
    Locks = *C.Pragma->Locks;
  }
  if (C.Pragma && C.Pragma->Servers) {
    if (Servers != 0 && Servers != *C.Pragma->Servers)
      return Refusal{RefusalKind::KernelNotRewritable, C.Pragma->Loc,
                     "servers(" + std::to_string(*C.Pragma->Servers) +
                         ") differs from another critical section's servers(" +
                         std::to_string(Servers) + ") in kernel '" + Name +
                         "'; its sections share the server blocks"};
    Servers = *C.Pragma->Servers;
  }

  if (std::optional<Refusal> P = collectFields(S))
    return P;

  // The locks are gone after the rewrite: nothing else may take them (the
  // kernel's other critical sections may: their locks are replaced too). A
  // lock that is a field of a struct element: no other use of that field
  // (the element's other fields are data, used anywhere).
  for (const LockRef &L : CS.Locks)
    if (L.Field) {
      if (const MemberExpr *M =
              fieldUseOutside(L.Field, K.getBody(), CS.Loop->getSourceRange());
          M && !inAnySection(M->getMemberLoc()))
        return Refusal{RefusalKind::KernelNotRewritable, M->getMemberLoc(),
                       "the lock field '" + L.Field->getNameAsString() +
                           "' is used outside the critical section; the "
                           "rewrite replaces its locks by the servers' and "
                           "cannot keep this use consistent"};
    } else if (const VarDecl *A = baseVar(L.Array))
      for (const DeclRefExpr *D :
           refsTo(A, K.getBody(), SM, CS.Loop->getSourceRange()))
        if (!inAnySection(D->getLocation()))
          return Refusal{
              RefusalKind::KernelNotRewritable, D->getLocation(),
              "the lock array '" + A->getNameAsString() +
                  "' is used outside the critical section; the rewrite "
                  "replaces its locks by the servers' and cannot keep this "
                  "use consistent"};

  // A plain send does not wait for the critical section: where the kernel
  // uses afterwards (or in a later iteration of a loop around it) memory
  // the section may write, the client waits for the server's reply. The
  // kernel's later critical sections count: they run on servers too, and
  // without the wait the server could run them first.
  S.Waits = !CS.Replies.empty();
  const MemoryRootSet Written = writtenMemory(CS.Body, K);
  const ThreadOrder Order(K.getBody(), SM);
  if (!Written.empty()) {
    MemoryRoots Roots(K);
    struct Finder : RecursiveASTVisitor<Finder> {
      SmallVector<const DeclRefExpr *, 16> Refs;
      bool VisitDeclRefExpr(DeclRefExpr *D) {
        Refs.push_back(D);
        return true;
      }
    } F;
    F.TraverseStmt(K.getBody());
    for (const DeclRefExpr *D : F.Refs) {
      const auto *W = dyn_cast<VarDecl>(D->getDecl());
      // Memory: what a pointer or reference reaches (a struct's pointer
      // fields too), and globals; a client's other locals are its own.
      if (!W || (W->hasLocalStorage() && !holdsPointers(W->getType())))
        continue;
      const SourceLocation L = D->getLocation();
      if (Order.within(L, CS.Loop) || !Order.mayRunAfter(CS.Loop, L))
        continue;
      MemoryRootSet Used;
      Roots.ofVar(W, Used);
      if (!Used.overlaps(Written))
        continue;
      S.Waits = true;
      const bool Fields = !W->getType()->isPointerType() &&
                          !W->getType()->isReferenceType() &&
                          holdsPointers(W->getType());
      S.WaitsFor = "uses '" + W->getNameAsString() + "' (line " +
                   std::to_string(SM.getExpansionLineNumber(L)) + "), " +
                   (Fields ? "whose pointers may reach memory the critical "
                             "section writes"
                           : "which the critical section writes") +
                   ", after it";
      break;
    }
    // A function called afterwards may read what the section wrote
    // through a global (its arguments are the references above).
    for (const Expr *Site : nonAtomicCalls(K.getBody())) {
      if (S.Waits)
        break;
      const SourceLocation L = Site->getBeginLoc();
      if (Order.within(L, CS.Loop) || !Order.mayRunAfter(CS.Loop, L))
        continue;
      if (!readByCallee(Site).overlaps(Written))
        continue;
      const FunctionDecl *Callee = calleeOf(Site);
      std::string What =
          !Callee ? "calls a function through a pointer"
          : isa<CXXConstructExpr>(Site)
              ? "constructs a '" +
                    cast<CXXConstructExpr>(Site)->getType().getAsString() + "'"
              : "calls '" + Callee->getNameAsString() + "'";
      S.Waits = true;
      S.WaitsFor = What + " (line " +
                   std::to_string(SM.getExpansionLineNumber(L)) +
                   "), which may read memory the critical section writes, "
                   "after it";
    }
  }
  // A point after the section where the kernel publishes its writes to
  // other blocks (the last-block pattern: a fence, a counter, the last block
  // reads the totals through any pointer; a grid-wide barrier): the
  // section must have run by then. Points inside sections move to the
  // servers with them.
  if (!S.Waits) {
    SmallPtrSet<const FunctionDecl *, 8> Seen;
    for (const auto &[L, What] :
         publishingPoints(K.getBody(), Seen, /*First=*/false)) {
      if (inAnySection(L) || !Order.mayRunAfter(CS.Loop, L))
        continue;
      S.Waits = true;
      S.WaitsPublish = true;
      S.WaitsFor =
          What + " (line " + std::to_string(SM.getExpansionLineNumber(L)) + ")";
      break;
    }
  }
  if (S.Waits) {
    if (any_of(S.Fields, [](const Field &F) { return F.Name == "dd_reply"; }))
      return Refusal{RefusalKind::KernelNotRewritable, CS.Loop->getBeginLoc(),
                     "the critical section reads a variable named "
                     "'dd_reply'; rename it"};
    S.Fields.push_back({"unsigned long long", "dd_reply", nullptr, nullptr,
                        "dd_replies" + S.Sfx + ".slot()"});
  }
  return std::nullopt;
}

std::optional<std::pair<Refusal, unsigned>> KernelRewrite::check() {
  auto Whole = [&](Refusal R) {
    return std::optional<std::pair<Refusal, unsigned>>({std::move(R), 0u});
  };
  const SourceLocation At = Secs.front().CS->Loop->getBeginLoc();
  if (!K.hasAttr<CUDAGlobalAttr>())
    return Whole(Refusal{
        RefusalKind::KernelNotRewritable, At,
        "the critical section is in '" + Name +
            "', not a kernel; the delegate rewrite replaces a kernel and its "
            "launches"});
  if (K.isTemplated() || K.isTemplateInstantiation() || isa<CXXMethodDecl>(K))
    return Whole(Refusal{RefusalKind::KernelNotRewritable, K.getLocation(),
                         "kernel '" + Name +
                             "' is a template or a member; the delegate "
                             "rewrite handles plain kernels"});
  if (K.getLocation().isMacroID() || inMacro(K.getBody()->getSourceRange()))
    return Whole(Refusal{RefusalKind::KernelNotRewritable,
                         SM.getExpansionLoc(At),
                         "the kernel or its try-lock loop is written "
                         "through a macro; it cannot be rewritten"});

  // Dynamic shared memory is the client's message stages.
  struct SharedFinder : RecursiveASTVisitor<SharedFinder> {
    const VarDecl *Found = nullptr;
    bool VisitVarDecl(VarDecl *V) {
      if (!Found && V->hasAttr<CUDASharedAttr>() && V->hasExternalStorage())
        Found = V;
      return !Found;
    }
  } Shared;
  Shared.TraverseStmt(K.getBody());
  if (Shared.Found)
    return Whole(
        Refusal{RefusalKind::KernelNotRewritable, Shared.Found->getLocation(),
                "kernel '" + Name +
                    "' uses dynamic shared memory ('extern __shared__'), "
                    "which the delegate client needs for its message stages"});

  for (unsigned I = 0; I < Secs.size(); ++I)
    if (std::optional<Refusal> P = checkSection(Secs[I]))
      return std::pair{std::move(*P), I};

  // A thread that returns early still reaches finish() in the client (its
  // body runs in a lambda); finish() starts with __syncthreads(), which
  // would pair with a barrier of the kernel that the others wait at.
  if (const ReturnStmt *Ret = firstReturn(K.getBody())) {
    SmallPtrSet<const FunctionDecl *, 8> Seen;
    if (std::optional<BarrierSite> B = findBarrier(K.getBody(), Seen)) {
      Refusal R{
          RefusalKind::KernelNotRewritable, B->Loc,
          "kernel '" + Name + "' returns early for some threads and " +
              B->What +
              "; in the delegated client a thread that returns does not exit "
              "but "
              "waits in dd_tx.finish(), whose __syncthreads() would pair with "
              "this "
              "barrier of the threads that did not return (in the original the "
              "returned threads have exited and the barrier waits only for the "
              "others): the barriers would no longer match, or deadlock"};
      if (B->Inner.isValid())
        R.Notes.push_back({B->Inner, "the block synchronizes here"});
      R.Notes.push_back({Ret->getBeginLoc(), "a thread returns here"});
      return Whole(std::move(R));
    }
  }
  if (std::optional<Refusal> P = checkLaunches())
    return Whole(std::move(*P));
  TwoArrays = twoLockArrays();
  return std::nullopt;
}

bool KernelRewrite::twoLockArrays() const {
  if (Locks < 2) // each array needs a word of its own
    return false;
  MemoryRoots Roots(K);
  // The one variable the lock array's address derives from, if one.
  auto Root = [&](const Expr *Array) -> const VarDecl * {
    MemoryRootSet S;
    Roots.ofPointer(Array, S);
    return !S.Unknown && S.Vars.size() == 1 ? *S.Vars.begin() : nullptr;
  };
  const VarDecl *Outer = nullptr, *Inner = nullptr;
  for (const Section &S : Secs) {
    if (!S.nested())
      return false;
    const VarDecl *A = Root(S.CS->Locks[0].Array);
    const VarDecl *B = Root(S.CS->Locks[1].Array);
    if (!A || !B || A == B || (Outer && (A != Outer || B != Inner)))
      return false;
    Outer = A;
    Inner = B;
  }
  return true;
}

std::string KernelRewrite::messages() const {
  std::string Str;
  raw_string_ostream OS(Str);
  for (const Section &S : Secs) {
    if (Secs.size() == 1)
      OS << "/// What a client sends per critical section: the data id"
         << (S.nested() ? "s" : "") << " of its lock" << (S.nested() ? "s" : "")
         << "\n/// and the values the critical section reads.\n";
    else
      OS << "/// What a client sends for the critical section at line "
         << SM.getExpansionLineNumber(S.CS->Loop->getBeginLoc())
         << ": the data id" << (S.nested() ? "s" : "") << " of its lock"
         << (S.nested() ? "s" : "") << "\n/// and the values it reads.\n";
    OS << "struct " << Name << "_message" << S.Sfx << " {\n";
    for (const Field &F : S.Fields)
      OS << "  " << F.Type << (StringRef(F.Type).ends_with("*") ? "" : " ")
         << F.Name << ";\n";
    OS << "};\n";
  }
  if (Secs.size() > 1) {
    OS << "/// One channel carries every critical section's message: which "
          "section, then its\n/// message.\n";
    OS << "struct " << Name
       << "_message {\n  unsigned dd_section;\n  union {\n";
    for (unsigned I = 0; I < Secs.size(); ++I)
      OS << "    " << Name << "_message" << Secs[I].Sfx << " dd" << Secs[I].Sfx
         << ";\n";
    OS << "  };\n";
    for (unsigned I = 0; I < Secs.size(); ++I)
      OS << "  __host__ __device__ static " << Name << "_message of(const "
         << Name << "_message" << Secs[I].Sfx << " &dd_m) {\n    " << Name
         << "_message dd_r;\n    dd_r.dd_section = " << I << ";\n    dd_r.dd"
         << Secs[I].Sfx << " = dd_m;\n    return dd_r;\n  }\n";
    OS << "};\n";
  }
  if (TwoArrays)
    OS << "/// The two locks come from two arrays: each gets its own lock "
          "words, and the\n"
          "/// inner lock's server runs the section "
          "(dd::LockIds::TwoArrays).\n";
  // A client whose every send waits for its reply sends unstaged: the
  // stages would only take shared memory (MaxFlow's push: one client block
  // per SM beside 132 servers instead of three).
  if (unstaged())
    OS << "/// Every send waits for its reply, unstaged: the client needs no "
          "message stages.\n";
  OS << "using " << Name << "_delegate = dd::" << (unstaged() ? "Unstaged" : "")
     << (TwoArrays ? "NestedDelegateTwoArrays"
         : Nested  ? "NestedDelegate"
                   : "Delegate")
     << "<" << Name << "_message"
     << (Locks != DefaultLocks ? ", " + std::to_string(Locks) : "") << ">;\n\n";
  for (const Section &S : Secs) {
    if (!S.Waits)
      continue;
    OS << "/// What the server sends back to the waiting client"
       << (S.CS->Replies.empty()
               ? " (that the critical section has run)"
               : ": the locals the\n/// critical section writes")
       << ".\n";
    OS << "struct " << Name << "_reply" << S.Sfx << " {\n";
    for (const VarDecl *V : S.CS->Replies)
      OS << "  " << typeOf(V) << " " << V->getName() << ";\n";
    OS << "};\n\n";
  }
  return Str;
}

std::string KernelRewrite::outlined(const Section &S) const {
  const CriticalSection &CS = *S.CS;
  std::string Str;
  raw_string_ostream OS(Str);
  OS << "/// The critical section of '" << Name << "'";
  if (Secs.size() > 1)
    OS << " at line " << SM.getExpansionLineNumber(CS.Loop->getBeginLoc());
  OS << ", outlined: a server thread runs it\n"
     << "/// holding the lock" << (S.nested() ? "s" : "") << " of ";
  for (size_t I = 0; I < CS.Locks.size(); ++I)
    OS << (I ? " and " : "") << "'"
       << text(CS.Locks[I].Array->getSourceRange(), SM, LO) << "["
       << text(CS.Locks[I].Index->getSourceRange(), SM, LO) << "]"
       << (CS.Locks[I].Field ? "." + CS.Locks[I].Field->getNameAsString() : "")
       << "'";
  OS << ".\n__device__ void " << Name << "_critical_section" << S.Sfx << "(";
  bool First = true;
  for (const ValueDecl *D : S.Reads) {
    const auto *P = dyn_cast<ParmVarDecl>(D);
    OS << (First ? "" : ", ")
       << (P && P->getDeclContext() == &K ? paramDecl(paramIndex(P))
           : S.isReply(D) // the server's copy, sent back after the section
               ? typeOf(D) + " &" + D->getNameAsString()
               : typeOf(D) + (StringRef(typeOf(D)).ends_with("*") ? "" : " ") +
                     D->getNameAsString());
    First = false;
  }
  for (const std::string &B : S.BuiltinFields) {
    OS << (First ? "" : ", ") << "unsigned int " << B;
    First = false;
  }
  OS << ") {\n";
  if (!CS.Body.empty()) {
    SourceLocation Begin = SM.getExpansionLoc(CS.Body.front()->getBeginLoc());
    const Stmt *Next = nextStatement(Ctx, CS.Body.back());
    SourceLocation End = Next ? SM.getExpansionLoc(Next->getBeginLoc())
                              : SM.getExpansionLoc(CS.Body.back()->getEndLoc());
    std::string Body =
        Lexer::getSourceText(CharSourceRange::getCharRange(Begin, End), SM, LO)
            .rtrim()
            .str();
    // The builtin reads become the parameters holding the client's values
    // (from the last, so that earlier offsets stay valid).
    const unsigned Base = SM.getFileOffset(Begin);
    for (const CriticalSection::BuiltinUse &U : reverse(CS.Builtins)) {
      const unsigned From = SM.getFileOffset(U.E->getBeginLoc());
      const unsigned To = SM.getFileOffset(
          Lexer::getLocForEndOfToken(U.E->getEndLoc(), 0, SM, LO));
      Body.replace(From - Base, To - From, builtinField(U.Read));
    }
    OS << reindent(Body, SM.getExpansionColumnNumber(Begin) - 1, "  ");
  }
  OS << "}\n\n";
  return Str;
}

std::string KernelRewrite::preamble() const {
  std::string Str;
  raw_string_ostream OS(Str);
  OS << "// decoupler: kernel '" << Name << "' hands its critical section"
     << (Secs.size() > 1 ? "s" : "") << " (line"
     << (Secs.size() > 1 ? "s " : " ");
  for (unsigned I = 0; I < Secs.size(); ++I)
    OS << (I ? ", " : "")
       << SM.getExpansionLineNumber(Secs[I].CS->Loop->getBeginLoc());
  OS << ") to server blocks\n"
     << "// (delegate pass, dissertation ch. 4):\n"
     << "//   " << Name << "_client  the kernel as written, its try-lock loop"
     << (Secs.size() > 1 ? "s" : "") << " now a message send\n"
     << "//   " << Name
     << "_server  runs the critical section under a lock in shared memory\n"
     << "//   " << Name << "_launch  starts both in place of " << Name
     << "<<<grid, block>>>(...)\n\n";
  OS << messages();
  for (const Section &S : Secs)
    OS << outlined(S);
  OS << "/// decoupler: '" << Name << "' as written, global locks and all. "
     << Name << "_launch runs it instead\n"
     << "/// of delegating where that measures faster (low contention; "
        "DD_DELEGATE_POLICY).\n";
  OS << asWritten() << "\n\n";
  return Str;
}

std::string KernelRewrite::idOf(const Section &S, StringRef M) const {
  if (S.nested())
    return "dd::IdPair{" + wideId(S, 0, M) + ", " + wideId(S, 1, M) + "}";
  if (Nested) // a one-lock section among nested ones: the same id twice
    return "dd::IdPair{" + wideId(S, 0, M) + ", " + wideId(S, 0, M) + "}";
  if (Secs.size() > 1) // one return type for every case
    return wideId(S, 0, M);
  return M.str() + S.Ids[0];
}

std::string KernelRewrite::handler(const Section &S, StringRef M,
                                   StringRef Indent) const {
  std::string Str;
  raw_string_ostream OS(Str);
  if (S.Waits) {
    OS << Indent << Name << "_reply" << S.Sfx << " dd_r{";
    for (size_t I = 0; I < S.CS->Replies.size(); ++I)
      OS << (I ? ", " : "") << M << S.fieldOf(S.CS->Replies[I]);
    OS << "};\n";
  }
  OS << Indent << Name << "_critical_section" << S.Sfx << "(";
  bool First = true;
  for (const ValueDecl *V : S.Reads) {
    std::string F = S.fieldOf(V);
    OS << (First ? "" : ", ")
       << (S.isReply(V) ? "dd_r." + V->getNameAsString()
           : F.empty()  ? V->getNameAsString()
                        : M.str() + F);
    First = false;
  }
  for (const std::string &B : S.BuiltinFields) {
    OS << (First ? "" : ", ") << M << B;
    First = false;
  }
  OS << ");\n";
  if (S.Waits)
    OS << Indent << "dd_replies" << S.Sfx << ".post(" << M
       << "dd_reply, dd_r);\n";
  return Str;
}

std::string KernelRewrite::serverAndLaunch() const {
  const std::string D = Name + "_delegate";
  std::string Str;
  raw_string_ostream OS(Str);
  auto Args = [&](ArrayRef<const ParmVarDecl *> Ps) {
    std::string A;
    for (const ParmVarDecl *P : Ps)
      A += ", " + P->getNameAsString();
    return A;
  };
  const SmallVector<const ParmVarDecl *, 8> ServerArgs = serverArgs();
  // The server kernel.
  OS << "\n\n/// decoupler: the server blocks of '" << Name
     << "': each takes the messages for the data ids it owns\n"
     << "/// and runs " << Name << "_critical_section"
     << (Secs.size() > 1 ? "_N" : "") << " under the id"
     << (Nested ? "s'" : "'s") << " lock" << (Nested ? "s" : "")
     << " in its shared memory"
     << (Nested ? " (a lock another server owns\n/// is taken through it: the "
                  "§4.4 "
                  "request/reply/unlock protocol)"
                : "")
     << ".\n";
  std::string Boxes, BoxArgs;
  for (const Section &S : Secs)
    if (S.Waits) {
      Boxes +=
          ", dd::ReplyBox<" + Name + "_reply" + S.Sfx + "> dd_replies" + S.Sfx;
      BoxArgs += ", dd_reply_slots" + S.Sfx + ".box(\"" + Name +
                 "\", dd_grid, dd_block)";
    }
  OS << "__global__ void " << Name << "_server(" << D
     << "::channel_type dd_channel"
     << (Nested ? ", " + D + "::sides_type dd_sides" : "") << Boxes;
  for (const ParmVarDecl *P : ServerArgs)
    OS << ", " << paramDecl(paramIndex(P));
  OS << ") {\n";
  OS << "  __shared__ " << D << "::server_type::TempStorage dd_temp;\n";
  OS << "  " << D << "::server_type dd_server(dd_channel"
     << (Nested ? ", dd_sides" : "") << ", dd_temp);\n";
  if (Secs.size() == 1) {
    const Section &S = Secs.front();
    OS << "  dd_server.run([](const " << Name << "_message &dd_m) { return "
       << idOf(S, "dd_m.") << "; },\n";
    OS << "                [&](const " << Name << "_message &dd_m) {";
    if (S.Waits) {
      OS << "\n"
         << handler(S, "dd_m.", "                  ")
         << "                });\n}\n\n";
    } else {
      std::string H = handler(S, "dd_m.", "");
      OS << " " << StringRef(H).rtrim() << " });\n}\n\n";
    }
  } else {
    OS << "  dd_server.run(\n      [](const " << Name
       << "_message &dd_m) {\n        switch (dd_m.dd_section) {\n";
    for (unsigned I = 0; I < Secs.size(); ++I)
      OS << "        "
         << (I + 1 < Secs.size() ? "case " + std::to_string(I) : "default")
         << ":\n          return "
         << idOf(Secs[I], "dd_m.dd" + Secs[I].Sfx + ".") << ";\n";
    OS << "        }\n      },\n";
    OS << "      [&](const " << Name
       << "_message &dd_m) {\n        switch (dd_m.dd_section) {\n";
    for (unsigned I = 0; I < Secs.size(); ++I)
      OS << "        "
         << (I + 1 < Secs.size() ? "case " + std::to_string(I) : "default")
         << ": {\n"
         << handler(Secs[I], "dd_m.dd" + Secs[I].Sfx + ".", "          ")
         << "          break;\n        }\n";
    OS << "        }\n      });\n}\n\n";
  }

  // The host launch (support/LaunchRewriter.h: the launchers' convention).
  OS << "/// decoupler: in place of " << Name
     << "<<<grid, block, 0, stream>>>(...): runs " << Name
     << "_client with that\n"
     << "/// grid and block and " << Name
     << "_server beside it (as many server blocks as stay resident),\n"
     << "/// and waits for both; or " << Name
     << " as written on the stream, where that measured faster.\n";
  OS << Launcher.definitionHead() << " {\n";
  OS << "  (void)dd_shmem; // decoupler: 0: launches with dynamic shared "
        "memory are not "
        "delegated\n";
  for (const Section &S : Secs)
    if (S.Waits)
      OS << "  static dd::ReplySlots<" << Name << "_reply" << S.Sfx
         << "> dd_reply_slots" << S.Sfx
         << "; // decoupler: one per client thread, "
            "allocated when first delegated\n";
  OS << "  " << D << "::launch(\n";
  OS << "      \"" << Name << "\", " << Servers << ", " << Name << "_server, "
     << Name << "_client, " << Name << ", dd_grid, dd_block, dd_stream,\n";
  OS << "      [&](const " << D << "::channel_type &dd_channel, "
     << (Nested ? "const " + D + "::sides_type &dd_sides, " : "")
     << "dim3 dd_g, dim3 dd_b, size_t dd_shared, cudaStream_t dd_stream) {\n";
  OS << "        " << Name
     << "_server<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel"
     << (Nested ? ", dd_sides" : "") << BoxArgs << Args(ServerArgs) << ");\n";
  OS << "      },\n";
  OS << "      [&](const " << D
     << "::channel_type &dd_channel, dim3 dd_g, dim3 dd_b, size_t dd_shared, "
        "cudaStream_t "
        "dd_stream) {\n";
  OS << "        " << Name
     << "_client<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel" << BoxArgs;
  const std::string LaunchArgs = Launcher.arguments();
  if (!LaunchArgs.empty())
    OS << ", " << LaunchArgs;
  OS << ");\n      },\n";
  OS << "      [&](dim3 dd_g, dim3 dd_b, cudaStream_t dd_s) {\n";
  OS << "        " << Name << "<<<dd_g, dd_b, 0, dd_s>>>(" << LaunchArgs;
  OS << ");\n      });\n}";
  return Str;
}

std::string KernelRewrite::send(const Section &S, StringRef Indent) const {
  const CriticalSection &CS = *S.CS;
  std::string Str;
  raw_string_ostream OS(Str);
  const std::string Box = "dd_replies" + S.Sfx;
  if (S.Waits)
    OS << "// decoupler: delegated; " << Name
       << "_server runs the critical section and replies, the client waits "
          "for it\n"
       << Indent
       << (CS.Replies.size() == 1  ? CS.Replies[0]->getNameAsString() + " = "
           : CS.Replies.size() > 1 ? "[&] {\n" + Indent.str() + "  const " +
                                         Name + "_reply" + S.Sfx + " dd_r = "
                                   : "")
       << Box << ".call(dd_channel, " << Name << "_delegate::route(dd_channel";
  else
    OS << "// decoupler: delegated; " << Name
       << "_server runs the critical section\n"
       << Indent << "dd_tx.send(" << Name << "_delegate::route(dd_channel";
  for (unsigned I = 0; I < (Nested ? 2u : 1u); ++I) {
    // A one-lock section among nested ones names its id twice.
    const std::string &Id = S.Ids[S.nested() ? I : 0];
    const Field *F =
        find_if(S.Fields, [&](const Field &X) { return X.Name == Id; });
    OS << ", "
       << (F->Computed ? "(unsigned long long)(" +
                             text(F->Computed->getSourceRange(), SM, LO) + ")"
                       : Id);
  }
  OS << "), " << (Secs.size() > 1 ? Name + "_message::of(" : "") << Name
     << "_message" << S.Sfx << "{";
  for (size_t I = 0; I < S.Fields.size(); ++I) {
    const Field &F = S.Fields[I];
    OS << (I ? ", " : "")
       << (F.Computed ? "(unsigned long long)(" +
                            text(F.Computed->getSourceRange(), SM, LO) + ")"
           : !F.Builtin.empty() ? F.Builtin
                                : F.Name);
  }
  OS << "}" << (Secs.size() > 1 ? ")" : "") << ")";
  if (S.Waits && CS.Replies.size() == 1)
    OS << "." << CS.Replies[0]->getName();
  if (CS.Replies.size() > 1) {
    OS << ";\n";
    for (const VarDecl *V : CS.Replies)
      OS << Indent << "  " << V->getName() << " = dd_r." << V->getName()
         << ";\n";
    OS << Indent << "}()";
  }
  // The loop's flags are true after it: kept so for code that reads them
  // (and flags whose declaration stays, so that it is not unused).
  for (const VarDecl *Flag : CS.Flags)
    if (!is_contained(RemovedFlags, Flag))
      OS << ";\n" << Indent << Flag->getName() << " = true";
  return Str;
}

/// The declarations of the loops' flags that nothing but the loops uses:
/// removed with the loops (a declaration that also declares something else
/// stays). Kernel-wide: one flag may serve two loops, and one declaration
/// may declare the flags of two (`bool done = false, again = false;`).
void KernelRewrite::removeFlags() {
  auto IsFlag = [&](const VarDecl *V) {
    return any_of(
        Secs, [&](const Section &S) { return is_contained(S.CS->Flags, V); });
  };
  // A use in a loop whose flag it is goes with the loop; a use anywhere else
  // (another section's body moves to the server and reads it) keeps it.
  auto InOwnLoop = [&](const VarDecl *V, SourceLocation L) {
    return any_of(Secs, [&](const Section &S) {
      return is_contained(S.CS->Flags, V) &&
             within(L, S.CS->Loop->getSourceRange(), SM);
    });
  };
  for (const Section &S : Secs)
    for (const VarDecl *Flag : S.CS->Flags) {
      if (is_contained(RemovedFlags, Flag))
        continue;
      DynTypedNodeList Parents = Ctx.getParents(*Flag);
      const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
      if (!DS || inMacro(DS->getSourceRange()))
        continue;
      const bool OnlyUnusedFlags = all_of(DS->decls(), [&](const Decl *D) {
        const auto *V = dyn_cast<VarDecl>(D);
        return V && IsFlag(V) &&
               all_of(refsTo(V, K.getBody(), SM), [&](const DeclRefExpr *Ref) {
                 return InOwnLoop(V, Ref->getLocation());
               });
      });
      if (!OnlyUnusedFlags)
        continue;
      for (const Decl *D : DS->decls())
        RemovedFlags.push_back(cast<VarDecl>(D));
      // The whole line when the declaration is alone on it.
      SourceLocation B = DS->getBeginLoc(), E = DS->getEndLoc();
      FileID F = SM.getFileID(B);
      StringRef Buf = SM.getBufferData(F);
      unsigned Begin = SM.getFileOffset(B), End = SM.getFileOffset(E) + 1;
      size_t LineBegin = Buf.rfind('\n', Begin);
      LineBegin = LineBegin == StringRef::npos ? 0 : LineBegin + 1;
      size_t LineEnd = Buf.find('\n', End);
      if (Buf.slice(LineBegin, Begin).trim().empty() &&
          LineEnd != StringRef::npos &&
          Buf.slice(End, LineEnd).trim().empty()) {
        Begin = LineBegin;
        End = LineEnd + 1;
      }
      R.RemoveText(SM.getLocForStartOfFile(F).getLocWithOffset(Begin),
                   End - Begin);
    }
}

void KernelRewrite::removePragmas() {
  for (const Section &S : Secs)
    if (S.C->Pragma)
      if (std::optional<std::pair<unsigned, unsigned>> Line =
              annotationLine(S.C->Pragma->Loc, SM))
        R.RemoveText(SM.getLocForStartOfFile(SM.getMainFileID())
                         .getLocWithOffset(Line->first),
                     Line->second - Line->first);
}

/// The kernel as written (without its annotations), kept beside the client:
/// the launcher runs it where it measures faster than delegating.
std::string KernelRewrite::asWritten() const {
  const SourceLocation Begin = SM.getExpansionLoc(K.getOuterLocStart());
  const SourceLocation End = SM.getExpansionLoc(K.getEndLoc());
  const unsigned B = SM.getFileOffset(Begin);
  const unsigned E = SM.getFileOffset(End) + 1; // the closing brace
  StringRef Buf = SM.getBufferData(SM.getFileID(Begin));
  std::string Text = Buf.slice(B, E).str();
  // From the last, so that earlier offsets stay valid.
  SmallVector<std::pair<unsigned, unsigned>, 2> Lines;
  for (const Section &S : Secs)
    if (S.C->Pragma)
      if (std::optional<std::pair<unsigned, unsigned>> Line =
              annotationLine(S.C->Pragma->Loc, SM);
          Line && Line->first >= B && Line->second <= E)
        Lines.push_back(*Line);
  sort(Lines);
  for (const auto &Line : reverse(Lines))
    Text.erase(Line.first - B, Line.second - Line.first);
  return Text;
}

void KernelRewrite::rewriteKernel() {
  const std::string D = Name + "_delegate";
  // Generated declarations go before the kernel (and its doc comment).
  SourceLocation Start = SM.getExpansionLoc(K.getOuterLocStart());
  if (const RawComment *RC = Ctx.getRawCommentForDeclNoCache(&K))
    Start = SM.getExpansionLoc(RC->getBeginLoc());
  R.InsertTextBefore(Start, preamble());

  // The kernel becomes the client: renamed, the channel first (and the
  // reply boxes of the sections that wait).
  R.ReplaceText(K.getLocation(), Name.size(), Name + "_client");
  std::string Param = D + "::channel_type dd_channel";
  for (const Section &S : Secs)
    if (S.Waits)
      Param +=
          ", dd::ReplyBox<" + Name + "_reply" + S.Sfx + "> dd_replies" + S.Sfx;
  if (K.getNumParams() > 0) {
    R.InsertTextBefore(K.getParamDecl(0)->getBeginLoc(), Param + ", ");
  } else if (FunctionTypeLoc TL = K.getFunctionTypeLoc()) {
    R.ReplaceText(SourceRange(TL.getLParenLoc().getLocWithOffset(1),
                              TL.getRParenLoc().getLocWithOffset(-1)),
                  Param);
    if (TL.getLParenLoc().getLocWithOffset(1) == TL.getRParenLoc())
      R.InsertTextBefore(TL.getRParenLoc(), Param);
  }
  const auto *Body = cast<CompoundStmt>(K.getBody());
  const bool Returns = hasReturn(Body);
  const bool Unstaged = unstaged();
  std::string Open =
      Unstaged
          ? "\n  // decoupler: every send waits for its reply; dd_tx only "
            "marks the block done.\n  " +
                D + "::sender_type dd_tx(dd_channel, nullptr);"
          : "\n  // decoupler: message stages in shared memory, one per server "
            "block.\n"
            "  extern __shared__ __align__(16) unsigned char dd_stage[];\n  " +
                D + "::sender_type dd_tx(dd_channel, dd_stage);";
  if (Returns)
    Open += "\n  // decoupler: the body as written, in a lambda, so that its "
            "returns still "
            "reach\n  // dd_tx.finish(), which every thread of the block must "
            "call.\n  [&] {";
  R.InsertTextAfterToken(Body->getLBracLoc(), Open);
  R.InsertTextBefore(Body->getRBracLoc(),
                     std::string(Returns ? "  }();\n" : "") +
                         "  dd_tx.finish(); // decoupler: " +
                         (Unstaged ? "" : "flush the stages; ") +
                         "this block is done\n");

  // Each try-lock loop becomes its send.
  removeFlags();
  for (Section &S : Secs) {
    SourceRange Loop = S.CS->Loop->getSourceRange();
    std::string Indent(SM.getExpansionColumnNumber(Loop.getBegin()) - 1, ' ');
    R.ReplaceText(Loop, send(S, Indent) + (isa<DoStmt>(S.CS->Loop) ? "" : ";"));
  }

  R.InsertTextAfterToken(SM.getExpansionLoc(K.getEndLoc()), serverAndLaunch());
}

void KernelRewrite::rewriteLaunches() { Launcher.rewrite(R); }

std::string KernelRewrite::whyWait(unsigned I) const {
  const Section &S = Secs[I];
  if (!S.Waits)
    return "";
  std::string Why;
  for (const VarDecl *V : S.CS->Replies)
    Why += (Why.empty() ? "'" : ", '") + V->getNameAsString() + "'";
  if (!Why.empty())
    return "; each client waits for the server's reply, which brings back " +
           Why;
  if (S.WaitsPublish)
    return "; each client waits for the server's reply, since after the "
           "critical section the kernel lets other blocks see its writes "
           "at " +
           S.WaitsFor;
  return "; each client waits for the server's reply, since the kernel " +
         S.WaitsFor;
}

void KernelRewrite::emit(std::vector<SourceRange> &Replaced) {
  removePragmas();
  rewriteKernel();
  rewriteLaunches();
  for (const Section &S : Secs)
    Replaced.push_back(S.CS->Loop->getSourceRange());
}

} // namespace

bool runDelegatePass(PassContext &P) {
  ASTContext &Ctx = P.Ctx;
  const AnnotationSet &Annotations = P.Annotations;
  Rewriter &R = P.R;
  PassDiagnostics &Diags = P.Diags;
  std::vector<SourceRange> &Replaced = P.Claimed;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Candidate> Candidates;
  for (const Annotation &A : Annotations.all())
    if (A.Kind == Directive::Delegate && A.TargetStmt && A.Enclosing)
      Candidates.push_back({A.TargetStmt, A.Enclosing, &A});
  if (P.Options.DelegateAuto)
    append_range(Candidates, unannotatedLoops(Ctx, Annotations));

  // In auto mode a loop that is no try-lock loop at all says nothing, unless
  // it takes a lock (a spin lock, a loop that tries one at its own level);
  // a lock or try-lock loop left as written is a warning, shown by default.
  auto Refuse = [&](const Candidate &C, const Refusal &Why) {
    if (C.Pragma) {
      Diags.error(Why.Loc,
                  "cannot delegate this critical section: " + Why.Message);
    } else if (Why.Kind == RefusalKind::SpinLock ||
               Why.Kind == RefusalKind::UnknownLockLoop) {
      Diags.declined(Why.Loc,
                     "--delegate=auto: lock not delegated: " + Why.Message);
    } else if (Why.Kind != RefusalKind::NotTryLockLoop) {
      Diags.declined(Why.Loc, "--delegate=auto: try-lock loop not delegated: " +
                                  Why.Message);
    } else {
      return;
    }
    for (const auto &[Loc, Note] : Why.Notes)
      Diags.note(Loc, Note);
  };

  // Recognition first; then each kernel with the critical sections found in
  // it, in source order, rewritten together (one channel, one server).
  std::vector<std::pair<const Candidate *, CriticalSection>> Recognized;
  for (const Candidate &C : Candidates) {
    std::variant<CriticalSection, Refusal> M =
        matchCriticalSection(C.Loop, *C.Kernel, Ctx);
    if (const auto *Why = std::get_if<Refusal>(&M)) {
      Refuse(C, *Why);
      continue;
    }
    Recognized.emplace_back(&C, std::move(std::get<CriticalSection>(M)));
  }
  using Found = std::pair<const Candidate *, const CriticalSection *>;
  std::vector<const FunctionDecl *> Kernels;
  std::map<const FunctionDecl *, std::vector<Found>> ByKernel;
  for (const auto &[C, CS] : Recognized) {
    const FunctionDecl *K = C->Kernel->getCanonicalDecl();
    if (!ByKernel.count(K))
      Kernels.push_back(K);
    ByKernel[K].emplace_back(C, &CS);
  }

  bool Changed = false;
  for (const FunctionDecl *KD : Kernels) {
    std::vector<Found> &Group = ByKernel[KD];
    llvm::sort(Group, [&](const Found &A, const Found &B) {
      return SM.isBeforeInTranslationUnit(A.second->Loop->getBeginLoc(),
                                          B.second->Loop->getBeginLoc());
    });
    const FunctionDecl &K = *Group.front().first->Kernel;
    const std::string Name = K.getNameAsString();
    KernelRewrite Rewrite(Ctx, R, K, Group);
    std::optional<std::pair<Refusal, unsigned>> Why = Rewrite.check();
    // The sections, their messages and the server are cut from the host
    // view of the kernel: it must be the code the GPU compiles.
    if (!Why)
      if (std::optional<DeviceView::Divergence> D = P.Device.divergence(&K))
        Why = {Refusal{RefusalKind::KernelNotRewritable,
                       Group.front().second->Loop->getBeginLoc(),
                       D->Message,
                       {{D->Loc, "the device compilation differs from here"}}},
               0u};
    if (!Why)
      if (std::optional<std::string> Arch = P.Device.archBelow(70))
        Why = {Refusal{RefusalKind::KernelNotRewritable,
                       Group.front().second->Loop->getBeginLoc(),
                       "the file is also compiled for " + *Arch +
                           ", and the servers' channel (dd/channel.cuh) "
                           "needs sm_70 or newer"},
               0u};
    if (Why) {
      const unsigned At = Why->second;
      // The kernel's sections go to its servers together or not at all;
      // each hears why, in source order.
      for (unsigned I = 0; I < Group.size(); ++I)
        if (I == At)
          Refuse(*Group[At].first, Why->first);
        else
          Refuse(*Group[I].first,
                 Refusal{RefusalKind::KernelNotRewritable,
                         Group[I].second->Loop->getBeginLoc(),
                         "kernel '" + Name +
                             "' also has the critical section at line " +
                             std::to_string(SM.getExpansionLineNumber(
                                 Group[At].second->Loop->getBeginLoc())) +
                             ", which cannot be delegated; a kernel's "
                             "critical sections are delegated together"});
      continue;
    }
    if (Diags.hadError())
      continue; // nothing is written anyway
    Rewrite.emit(Replaced);
    for (unsigned I = 0; I < Group.size(); ++I) {
      const Candidate &C = *Group[I].first;
      const CriticalSection &CS = *Group[I].second;
      const std::string What =
          (CS.Kind == CriticalSection::Shape::Single
               ? "critical section (one lock)"
           : Rewrite.twoArrays() ? "critical section (two nested locks, "
                                   "two lock arrays)"
                                 : "critical section (two nested locks)");
      const std::string Which = Group.size() > 1
                                    ? " (" + std::to_string(I + 1) + " of " +
                                          std::to_string(Group.size()) + ")"
                                    : "";
      const std::string Tail = "' to server blocks: " + Name + "_client, " +
                               Name + "_server, " + Name + "_launch" +
                               Rewrite.whyWait(I);
      if (C.Pragma)
        Diags.rewritten(CS.Loop->getBeginLoc(), "delegated the " + What +
                                                    Which + " of '" + Name +
                                                    Tail);
      else
        Diags.rewritten(CS.Loop->getBeginLoc(),
                        "--delegate=auto: delegated the unannotated " + What +
                            Which + " of '" + Name + Tail,
                        /*Always=*/true);
    }
    Changed = true;
    ++P.Rewrites;
  }
  if (Changed)
    P.Includes.ensure("dd/delegate.cuh");
  return Changed;
}

} // namespace decoupler
