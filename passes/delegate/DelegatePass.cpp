//===- delegate/DelegatePass.cpp - Critical sections to server blocks -----===//

#include "delegate/DelegatePass.h"
#include "delegate/CriticalSection.h"
#include "delegate/MemoryRoots.h"
#include "support/Barriers.h"
#include "support/CudaFacts.h"
#include "support/Includes.h"
#include "support/LaunchRewriter.h"
#include "support/SourceText.h"
#include "support/Stores.h"
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

/// Parameters of \p Kernel the kernel assigns, increments or takes the
/// address of: their value at the critical section is the client's, so they
/// travel in the message rather than as server arguments.
bool paramModified(const ParmVarDecl *P, const FunctionDecl &Kernel) {
  SmallPtrSet<const VarDecl *, 8> Modified;
  modifiedVars(Kernel.getBody(), Modified);
  return Modified.contains(P);
}

/// The innermost loop around \p S inside the kernel, if any.
const Stmt *enclosingLoop(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return nullptr;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return P;
    Parents = Ctx.getParents(*P);
  }
  return nullptr;
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

/// The rewrite of one kernel and its critical section.
class KernelRewrite {
public:
  KernelRewrite(ASTContext &Ctx, Rewriter &R, const Candidate &C,
                const CriticalSection &CS)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), R(R), C(C),
        CS(CS), K(*C.Kernel), Name(K.getNameAsString()),
        Nested(CS.Kind == CriticalSection::Shape::Nested),
        Launcher(Ctx, K, LaunchRewriter::Policy::ReplaceAll) {
    Policy.SuppressTagKeyword = true;
    Policy.SuppressScope = false;
  }

  /// Checks everything the rewrite needs; the first problem, if any.
  std::optional<Refusal> check();
  /// Emits the rewrite (after a successful check()).
  void emit(std::vector<SourceRange> &Replaced);
  /// Why the client waits for a reply (empty: it does not).
  std::string whyWait() const;

private:
  std::optional<Refusal> checkLaunches();
  std::optional<Refusal> collectFields();
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
  /// Data id \p I read from the message as IdPair's type (a braced
  /// initializer does not narrow from `int`).
  std::string wideId(unsigned I) const {
    for (const Field &F : Fields)
      if (F.Name == Ids[I])
        return F.Type == "unsigned long long"
                   ? "dd_m." + F.Name
                   : "(unsigned long long)dd_m." + F.Name;
    return "dd_m." + Ids[I];
  }
  bool isReply(const ValueDecl *D) const { return is_contained(CS.Replies, D); }
  std::string fieldOf(const ValueDecl *D) const {
    for (const Field &F : Fields)
      if (F.Decl == D)
        return F.Name;
    return "";
  }
  std::string preamble() const;
  std::string asWritten() const;
  std::string serverAndLaunch() const;
  std::optional<std::pair<unsigned, unsigned>> pragmaLine() const;
  std::string send(StringRef Indent) const;
  void rewriteKernel();
  void rewriteLaunches();
  void removePragma();
  void removeFlags();

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  Rewriter &R;
  const Candidate &C;
  const CriticalSection &CS;
  const FunctionDecl &K;
  std::string Name;
  bool Nested;
  /// The client waits for the server's reply: the section writes locals
  /// the kernel uses after it (CS.Replies), or the kernel reads afterwards
  /// memory the section writes.
  bool Waits = false;
  /// The first use after the section of memory it writes, for the remark.
  std::string WaitsFor;
  PrintingPolicy Policy{Ctx.getLangOpts()};

  unsigned Locks = DefaultLocks;
  unsigned Servers = 0;
  SmallVector<Field, 8> Fields; // the message
  SmallVector<const ValueDecl *, 8>
      Reads; // what the critical section reads: its parameters
  SmallVector<const ParmVarDecl *, 8> ServerArgs;
  SmallVector<std::string, 4>
      BuiltinFields; // the section's parameters after Reads
  SmallVector<std::string, 2>
      Ids;                 // per lock: the message field holding its data id
  LaunchRewriter Launcher; // k<<<...>>> -> k_launch(...)
  SmallVector<const VarDecl *, 2> RemovedFlags;
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

std::optional<Refusal> KernelRewrite::collectFields() {
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
      if (fieldOf(V).empty())
        Fields.push_back({typeOf(V), V->getNameAsString(), V, nullptr});
      Ids.push_back(V->getNameAsString());
    } else {
      // The client evaluates it for the route and for the message.
      if (L.Index->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
        return Refusal{
            RefusalKind::SectionShape, L.Index->getBeginLoc(),
            "the lock index '" + text(L.Index->getSourceRange(), SM, LO) +
                "' has side effects; the rewrite evaluates it more than once"};
      std::string N = "dd_id" + std::to_string(Ids.size());
      Fields.push_back({"unsigned long long", N, nullptr, L.Index});
      Ids.push_back(N);
    }
  }
  // What the critical section reads: locals (and parameters the kernel
  // changes) in the message, other parameters as server arguments.
  SmallPtrSet<const ValueDecl *, 8> Read;
  for (const Stmt *S : CS.Body) {
    struct Finder : RecursiveASTVisitor<Finder> {
      SmallPtrSet<const ValueDecl *, 8> &Read;
      explicit Finder(SmallPtrSet<const ValueDecl *, 8> &R) : Read(R) {}
      bool VisitDeclRefExpr(DeclRefExpr *D) {
        Read.insert(D->getDecl());
        return true;
      }
    } F(Read);
    F.TraverseStmt(const_cast<Stmt *>(S));
  }
  for (const ValueDecl *D : CS.Message) {
    if (!Read.contains(D))
      continue;
    Reads.push_back(D);
    if (!fieldOf(D).empty())
      continue;
    QualType T = D->getType();
    if (T->isReferenceType() || T->isArrayType() ||
        !T.isTriviallyCopyableType(Ctx))
      return Refusal{
          RefusalKind::ServerCannotRun, D->getLocation(),
          "the critical section reads '" + D->getNameAsString() +
              "', which cannot travel in a message (a reference, an array or "
              "not trivially copyable)"};
    Fields.push_back({typeOf(D), D->getNameAsString(), D, nullptr});
  }
  for (const ValueDecl *D : CS.Arguments) {
    const auto *P = dyn_cast<ParmVarDecl>(D);
    if (!P || !Read.contains(D))
      continue;
    Reads.push_back(D);
    if (paramModified(P, K)) {
      if (fieldOf(P).empty())
        Fields.push_back({typeOf(P), P->getNameAsString(), P, nullptr});
    } else {
      ServerArgs.push_back(P);
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
    if (none_of(Fields, [&](const Field &F) { return F.Name == N; })) {
      Fields.push_back({"unsigned int", N, nullptr, nullptr, Spelled});
      BuiltinFields.push_back(N);
    }
  }
  for (size_t I = 0; I < Fields.size(); ++I)
    for (size_t J = 0; J < I; ++J)
      if (Fields[I].Name == Fields[J].Name)
        return Refusal{RefusalKind::KernelNotRewritable,
                       Fields[I].Decl ? Fields[I].Decl->getLocation()
                                      : CS.Loop->getBeginLoc(),
                       "the critical section reads two variables named '" +
                           Fields[I].Name + "'; rename one"};
  return std::nullopt;
}

std::optional<Refusal> KernelRewrite::check() {
  const SourceLocation At = CS.Loop->getBeginLoc();
  if (!K.hasAttr<CUDAGlobalAttr>())
    return Refusal{
        RefusalKind::KernelNotRewritable, At,
        "the critical section is in '" + Name +
            "', not a kernel; the delegate rewrite replaces a kernel and its "
            "launches"};
  if (K.isTemplated() || K.isTemplateInstantiation() || isa<CXXMethodDecl>(K))
    return Refusal{RefusalKind::KernelNotRewritable, K.getLocation(),
                   "kernel '" + Name +
                       "' is a template or a member; the delegate rewrite "
                       "handles plain kernels"};
  if (inMacro(CS.Loop->getSourceRange()) || K.getLocation().isMacroID() ||
      inMacro(K.getBody()->getSourceRange()))
    return Refusal{RefusalKind::KernelNotRewritable, SM.getExpansionLoc(At),
                   "the kernel or its try-lock loop is written "
                   "through a macro; it cannot be rewritten"};
  if (C.Pragma && C.Pragma->Locks) {
    if (*C.Pragma->Locks > MaxLocks)
      return Refusal{RefusalKind::KernelNotRewritable, C.Pragma->Loc,
                     "locks(" + std::to_string(*C.Pragma->Locks) +
                         "): a server block holds at most " +
                         std::to_string(MaxLocks) +
                         " lock words in its static shared memory (48 KB)"};
    Locks = *C.Pragma->Locks;
  }
  if (C.Pragma && C.Pragma->Servers)
    Servers = *C.Pragma->Servers;

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
    return Refusal{
        RefusalKind::KernelNotRewritable, Shared.Found->getLocation(),
        "kernel '" + Name +
            "' uses dynamic shared memory ('extern __shared__'), "
            "which the delegate client needs for its message stages"};

  if (std::optional<Refusal> P = collectFields())
    return P;

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
      return R;
    }
  }

  // The locks are gone after the rewrite: nothing else may take them. A
  // lock that is a field of a struct element: no other use of that field
  // (the element's other fields are data, used anywhere).
  for (const LockRef &L : CS.Locks)
    if (L.Field) {
      if (const MemberExpr *M =
              fieldUseOutside(L.Field, K.getBody(), CS.Loop->getSourceRange()))
        return Refusal{RefusalKind::KernelNotRewritable, M->getMemberLoc(),
                       "the lock field '" + L.Field->getNameAsString() +
                           "' is used outside the critical section; the "
                           "rewrite replaces its locks by the servers' and "
                           "cannot keep this use consistent"};
    } else if (const VarDecl *A = baseVar(L.Array))
      for (const DeclRefExpr *D :
           refsTo(A, K.getBody(), SM, CS.Loop->getSourceRange()))
        return Refusal{
            RefusalKind::KernelNotRewritable, D->getLocation(),
            "the lock array '" + A->getNameAsString() +
                "' is used outside the critical section; the rewrite replaces "
                "its "
                "locks by the servers' and cannot keep this use consistent"};

  // A plain send does not wait for the critical section: where the kernel
  // uses afterwards (or in a later iteration of a loop around it) memory
  // the section may write, the client waits for the server's reply.
  Waits = !CS.Replies.empty();
  const MemoryRootSet Written = writtenMemory(CS.Body, K);
  if (!Written.empty()) {
    const SourceRange LoopRange = CS.Loop->getSourceRange();
    const Stmt *Around = enclosingLoop(Ctx, CS.Loop);
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
      // Memory: what a pointer or reference reaches, and globals; a
      // client's other locals are its own.
      if (!W || !(W->getType()->isPointerType() ||
                  W->getType()->isReferenceType() || !W->hasLocalStorage()))
        continue;
      const SourceLocation L = D->getLocation();
      if (within(L, LoopRange, SM))
        continue;
      const bool After = SM.isBeforeInTranslationUnit(LoopRange.getEnd(), L);
      const bool SameLoop = Around && within(L, Around->getSourceRange(), SM);
      if (!After && !SameLoop)
        continue;
      MemoryRootSet Used;
      Roots.ofVar(W, Used);
      if (!Used.overlaps(Written))
        continue;
      Waits = true;
      WaitsFor = "'" + W->getNameAsString() + "' (line " +
                 std::to_string(SM.getExpansionLineNumber(L)) + ")";
      break;
    }
  }
  if (Waits) {
    if (any_of(Fields, [](const Field &F) { return F.Name == "dd_reply"; }))
      return Refusal{RefusalKind::KernelNotRewritable, CS.Loop->getBeginLoc(),
                     "the critical section reads a variable named "
                     "'dd_reply'; rename it"};
    Fields.push_back({"unsigned long long", "dd_reply", nullptr, nullptr,
                      "dd_replies.slot()"});
  }
  return checkLaunches();
}

std::string KernelRewrite::preamble() const {
  const unsigned Line = SM.getExpansionLineNumber(CS.Loop->getBeginLoc());
  std::string S;
  raw_string_ostream OS(S);
  OS << "// decoupler: kernel '" << Name
     << "' hands its critical section (line " << Line << ") to server blocks\n"
     << "// (delegate pass, dissertation ch. 4):\n"
     << "//   " << Name
     << "_client  the kernel as written, its try-lock loop now a message send\n"
     << "//   " << Name
     << "_server  runs the critical section under a lock in shared memory\n"
     << "//   " << Name << "_launch  starts both in place of " << Name
     << "<<<grid, block>>>(...)\n\n";
  OS << "/// What a client sends per critical section: the data id"
     << (Nested ? "s" : "") << " of its lock" << (Nested ? "s" : "")
     << "\n/// and the values the critical section reads.\n";
  OS << "struct " << Name << "_message {\n";
  for (const Field &F : Fields)
    OS << "  " << F.Type << (StringRef(F.Type).ends_with("*") ? "" : " ")
       << F.Name << ";\n";
  OS << "};\n";
  OS << "using " << Name
     << "_delegate = dd::" << (Nested ? "NestedDelegate" : "Delegate") << "<"
     << Name << "_message"
     << (Locks != DefaultLocks ? ", " + std::to_string(Locks) : "") << ">;\n\n";
  if (Waits) {
    OS << "/// What the server sends back to the waiting client"
       << (CS.Replies.empty() ? " (that the critical section has run)"
                              : ": the locals the\n/// critical section writes")
       << ".\n";
    OS << "struct " << Name << "_reply {\n";
    for (const VarDecl *V : CS.Replies)
      OS << "  " << typeOf(V) << " " << V->getName() << ";\n";
    OS << "};\n\n";
  }

  // The critical section, outlined.
  OS << "/// The critical section of '" << Name
     << "', outlined: a server thread runs it\n"
     << "/// holding the lock" << (Nested ? "s" : "") << " of ";
  for (size_t I = 0; I < CS.Locks.size(); ++I)
    OS << (I ? " and " : "") << "'"
       << text(CS.Locks[I].Array->getSourceRange(), SM, LO) << "["
       << text(CS.Locks[I].Index->getSourceRange(), SM, LO) << "]"
       << (CS.Locks[I].Field ? "." + CS.Locks[I].Field->getNameAsString() : "")
       << "'";
  OS << ".\n__device__ void " << Name << "_critical_section(";
  bool First = true;
  for (const ValueDecl *D : Reads) {
    const auto *P = dyn_cast<ParmVarDecl>(D);
    OS << (First ? "" : ", ")
       << (P && P->getDeclContext() == &K ? paramDecl(paramIndex(P))
           : isReply(D) // the server's copy, sent back after the section
               ? typeOf(D) + " &" + D->getNameAsString()
               : typeOf(D) + (StringRef(typeOf(D)).ends_with("*") ? "" : " ") +
                     D->getNameAsString());
    First = false;
  }
  for (const std::string &B : BuiltinFields) {
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

  OS << "/// decoupler: '" << Name << "' as written, global locks and all. "
     << Name << "_launch runs it instead\n"
     << "/// of delegating where that measures faster (low contention; "
        "DD_DELEGATE_POLICY).\n";
  OS << asWritten() << "\n\n";
  return S;
}

std::string KernelRewrite::serverAndLaunch() const {
  const std::string D = Name + "_delegate";
  std::string S;
  raw_string_ostream OS(S);
  auto Args = [&](ArrayRef<const ParmVarDecl *> Ps) {
    std::string A;
    for (const ParmVarDecl *P : Ps)
      A += ", " + P->getNameAsString();
    return A;
  };
  // The server kernel.
  OS << "\n\n/// decoupler: the server blocks of '" << Name
     << "': each takes the messages for the data ids it owns\n"
     << "/// and runs " << Name << "_critical_section under the id"
     << (Nested ? "s'" : "'s") << " lock" << (Nested ? "s" : "")
     << " in its shared memory"
     << (Nested ? " (a lock another server owns\n/// is taken through it: the "
                  "§4.4 "
                  "request/reply/unlock protocol)"
                : "")
     << ".\n";
  OS << "__global__ void " << Name << "_server(" << D
     << "::channel_type dd_channel"
     << (Nested ? ", " + D + "::sides_type dd_sides" : "")
     << (Waits ? ", dd::ReplyBox<" + Name + "_reply> dd_replies" : "");
  for (const ParmVarDecl *P : ServerArgs)
    OS << ", " << paramDecl(paramIndex(P));
  OS << ") {\n";
  OS << "  __shared__ " << D << "::server_type::TempStorage dd_temp;\n";
  OS << "  " << D << "::server_type dd_server(dd_channel"
     << (Nested ? ", dd_sides" : "") << ", dd_temp);\n";
  OS << "  dd_server.run([](const " << Name << "_message &dd_m) { return "
     << (Nested ? "dd::IdPair{" + wideId(0) + ", " + wideId(1) + "}"
                : "dd_m." + Ids[0])
     << "; },\n";
  OS << "                [&](const " << Name << "_message &dd_m) {";
  if (Waits) {
    OS << "\n                  " << Name << "_reply dd_r{";
    for (size_t I = 0; I < CS.Replies.size(); ++I)
      OS << (I ? ", " : "") << "dd_m." << fieldOf(CS.Replies[I]);
    OS << "};\n                 ";
  }
  OS << " " << Name << "_critical_section(";
  bool First = true;
  for (const ValueDecl *V : Reads) {
    std::string F = fieldOf(V);
    OS << (First ? "" : ", ")
       << (isReply(V)  ? "dd_r." + V->getNameAsString()
           : F.empty() ? V->getNameAsString()
                       : "dd_m." + F);
    First = false;
  }
  for (const std::string &B : BuiltinFields) {
    OS << (First ? "" : ", ") << "dd_m." << B;
    First = false;
  }
  if (Waits)
    OS << ");\n                  dd_replies.post(dd_m.dd_reply, dd_r);\n"
       << "                });\n}\n\n";
  else
    OS << "); });\n}\n\n";

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
  const std::string Box =
      Waits ? ", dd_reply_slots.box(\"" + Name + "\", dd_grid, dd_block)" : "";
  if (Waits)
    OS << "  static dd::ReplySlots<" << Name
       << "_reply> dd_reply_slots; // decoupler: one per client thread, "
          "allocated when first delegated\n";
  OS << "  " << D << "::launch(\n";
  OS << "      \"" << Name << "\", " << Servers << ", " << Name << "_server, "
     << Name << "_client, " << Name << ", dd_grid, dd_block, dd_stream,\n";
  OS << "      [&](const " << D << "::channel_type &dd_channel, "
     << (Nested ? "const " + D + "::sides_type &dd_sides, " : "")
     << "dim3 dd_g, dim3 dd_b, size_t dd_shared, cudaStream_t dd_stream) {\n";
  OS << "        " << Name
     << "_server<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel"
     << (Nested ? ", dd_sides" : "") << Box << Args(ServerArgs) << ");\n";
  OS << "      },\n";
  OS << "      [&](const " << D
     << "::channel_type &dd_channel, dim3 dd_g, dim3 dd_b, size_t dd_shared, "
        "cudaStream_t "
        "dd_stream) {\n";
  OS << "        " << Name
     << "_client<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel" << Box;
  for (unsigned I = 0; I < K.getNumParams(); ++I)
    OS << ", " << paramName(I);
  OS << ");\n      },\n";
  OS << "      [&](dim3 dd_g, dim3 dd_b, cudaStream_t dd_s) {\n";
  OS << "        " << Name << "<<<dd_g, dd_b, 0, dd_s>>>(";
  for (unsigned I = 0; I < K.getNumParams(); ++I)
    OS << (I ? ", " : "") << paramName(I);
  OS << ");\n      });\n}";
  return S;
}

std::string KernelRewrite::send(StringRef Indent) const {
  std::string S;
  raw_string_ostream OS(S);
  if (Waits)
    OS << "// decoupler: delegated; " << Name
       << "_server runs the critical section and replies, the client waits "
          "for it\n"
       << Indent
       << (CS.Replies.size() == 1 ? CS.Replies[0]->getNameAsString() + " = "
           : CS.Replies.size() > 1
               ? "[&] {\n" + Indent + "  const " + Name + "_reply dd_r = "
               : "")
       << "dd_replies.call(dd_channel, " << Name
       << "_delegate::route(dd_channel";
  else
    OS << "// decoupler: delegated; " << Name
       << "_server runs the critical section\n"
       << Indent << "dd_tx.send(" << Name << "_delegate::route(dd_channel";
  for (const std::string &Id : Ids) {
    const Field *F =
        find_if(Fields, [&](const Field &X) { return X.Name == Id; });
    OS << ", "
       << (F->Computed ? "(unsigned long long)(" +
                             text(F->Computed->getSourceRange(), SM, LO) + ")"
                       : Id);
  }
  OS << "), " << Name << "_message{";
  for (size_t I = 0; I < Fields.size(); ++I) {
    const Field &F = Fields[I];
    OS << (I ? ", " : "")
       << (F.Computed ? "(unsigned long long)(" +
                            text(F.Computed->getSourceRange(), SM, LO) + ")"
           : !F.Builtin.empty() ? F.Builtin
                                : F.Name);
  }
  OS << "})";
  if (Waits && CS.Replies.size() == 1)
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
  return S;
}

/// The declarations of the loop's flags that nothing but the loop uses:
/// removed with the loop (a declaration that also declares something else
/// stays).
void KernelRewrite::removeFlags() {
  for (const VarDecl *Flag : CS.Flags) {
    if (is_contained(RemovedFlags, Flag))
      continue;
    DynTypedNodeList Parents = Ctx.getParents(*Flag);
    const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    if (!DS || inMacro(DS->getSourceRange()))
      continue;
    const bool OnlyUnusedFlags = all_of(DS->decls(), [&](const Decl *D) {
      const auto *V = dyn_cast<VarDecl>(D);
      return V && is_contained(CS.Flags, V) &&
             refsTo(V, K.getBody(), SM, CS.Loop->getSourceRange()).empty();
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
        LineEnd != StringRef::npos && Buf.slice(End, LineEnd).trim().empty()) {
      Begin = LineBegin;
      End = LineEnd + 1;
    }
    R.RemoveText(SM.getLocForStartOfFile(F).getLocWithOffset(Begin),
                 End - Begin);
  }
}

/// The annotation's line (rewrite/SourceText.h), when it has one.
std::optional<std::pair<unsigned, unsigned>> KernelRewrite::pragmaLine() const {
  if (!C.Pragma)
    return std::nullopt;
  return annotationLine(C.Pragma->Loc, SM);
}

void KernelRewrite::removePragma() {
  if (std::optional<std::pair<unsigned, unsigned>> Line = pragmaLine())
    R.RemoveText(SM.getLocForStartOfFile(SM.getMainFileID())
                     .getLocWithOffset(Line->first),
                 Line->second - Line->first);
}

/// The kernel as written (without its annotation), kept beside the client:
/// the launcher runs it where it measures faster than delegating.
std::string KernelRewrite::asWritten() const {
  const SourceLocation Begin = SM.getExpansionLoc(K.getOuterLocStart());
  const SourceLocation End = SM.getExpansionLoc(K.getEndLoc());
  const unsigned B = SM.getFileOffset(Begin);
  const unsigned E = SM.getFileOffset(End) + 1; // the closing brace
  StringRef Buf = SM.getBufferData(SM.getFileID(Begin));
  std::string Text = Buf.slice(B, E).str();
  if (std::optional<std::pair<unsigned, unsigned>> Line = pragmaLine();
      Line && Line->first >= B && Line->second <= E)
    Text.erase(Line->first - B, Line->second - Line->first);
  return Text;
}

void KernelRewrite::rewriteKernel() {
  const std::string D = Name + "_delegate";
  // Generated declarations go before the kernel (and its doc comment).
  SourceLocation Start = SM.getExpansionLoc(K.getOuterLocStart());
  if (const RawComment *RC = Ctx.getRawCommentForDeclNoCache(&K))
    Start = SM.getExpansionLoc(RC->getBeginLoc());
  R.InsertTextBefore(Start, preamble());

  // The kernel becomes the client: renamed, the channel first.
  R.ReplaceText(K.getLocation(), Name.size(), Name + "_client");
  const std::string Param =
      D + "::channel_type dd_channel" +
      (Waits ? ", dd::ReplyBox<" + Name + "_reply> dd_replies" : "");
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
  std::string Open =
      "\n  // decoupler: message stages in shared memory, one per server "
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
                         "  dd_tx.finish(); // decoupler: flush the stages; "
                         "this block is done\n");

  // The try-lock loop becomes the send.
  removeFlags();
  SourceRange Loop = CS.Loop->getSourceRange();
  std::string Indent(SM.getExpansionColumnNumber(Loop.getBegin()) - 1, ' ');
  R.ReplaceText(Loop, send(Indent) + (isa<DoStmt>(CS.Loop) ? "" : ";"));

  R.InsertTextAfterToken(SM.getExpansionLoc(K.getEndLoc()), serverAndLaunch());
}

void KernelRewrite::rewriteLaunches() { Launcher.rewrite(R); }

std::string KernelRewrite::whyWait() const {
  if (!Waits)
    return "";
  std::string Why;
  for (const VarDecl *V : CS.Replies)
    Why += (Why.empty() ? "'" : ", '") + V->getNameAsString() + "'";
  if (!Why.empty())
    return "; each client waits for the server's reply, which brings back " +
           Why;
  return "; each client waits for the server's reply, since the kernel "
         "uses " +
         WaitsFor + ", which the critical section writes, after it";
}

void KernelRewrite::emit(std::vector<SourceRange> &Replaced) {
  removePragma();
  rewriteKernel();
  rewriteLaunches();
  Replaced.push_back(CS.Loop->getSourceRange());
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

  // In auto mode a loop that is no try-lock loop at all says nothing; a
  // try-lock loop left as written is a warning, shown by default.
  auto Refuse = [&](const Candidate &C, const Refusal &Why) {
    if (C.Pragma) {
      Diags.error(Why.Loc,
                  "cannot delegate this critical section: " + Why.Message);
    } else if (Why.Kind != RefusalKind::NotTryLockLoop) {
      Diags.declined(Why.Loc, "--delegate=auto: try-lock loop not delegated: " +
                                  Why.Message);
    } else {
      return;
    }
    for (const auto &[Loc, Note] : Why.Notes)
      Diags.note(Loc, Note);
  };

  // Recognition first: a kernel with two critical sections is refused as a
  // whole (one channel and one message type per kernel), at the second.
  std::vector<std::pair<const Candidate *, CriticalSection>> Recognized;
  std::map<const FunctionDecl *, unsigned> PerKernel;
  for (const Candidate &C : Candidates) {
    std::variant<CriticalSection, Refusal> M =
        matchCriticalSection(C.Loop, *C.Kernel, Ctx);
    if (const auto *Why = std::get_if<Refusal>(&M)) {
      Refuse(C, *Why);
      continue;
    }
    Recognized.emplace_back(&C, std::move(std::get<CriticalSection>(M)));
    ++PerKernel[C.Kernel->getCanonicalDecl()];
  }

  bool Changed = false;
  std::map<const FunctionDecl *, const Stmt *> First;
  for (const auto &[CP, CS] : Recognized) {
    const Candidate &C = *CP;
    if (PerKernel[C.Kernel->getCanonicalDecl()] > 1) {
      auto [It, New] = First.try_emplace(C.Kernel->getCanonicalDecl(), CS.Loop);
      if (!New)
        Refuse(C,
               Refusal{RefusalKind::KernelNotRewritable, CS.Loop->getBeginLoc(),
                       "kernel '" + C.Kernel->getNameAsString() +
                           "' also has a critical section at line " +
                           std::to_string(SM.getExpansionLineNumber(
                               It->second->getBeginLoc())) +
                           "; the delegate rewrite handles one per kernel"});
      continue;
    }
    KernelRewrite Rewrite(Ctx, R, C, CS);
    if (std::optional<Refusal> Why = Rewrite.check()) {
      Refuse(C, *Why);
      continue;
    }
    if (Diags.hadError())
      continue; // nothing is written anyway
    Rewrite.emit(Replaced);
    const std::string Name = C.Kernel->getNameAsString();
    const std::string What = (CS.Kind == CriticalSection::Shape::Single
                                  ? "critical section (one lock)"
                                  : "critical section (two nested locks)");
    const std::string Wait = Rewrite.whyWait();
    if (C.Pragma)
      Diags.rewritten(CS.Loop->getBeginLoc(),
                      "delegated the " + What + " of '" + Name +
                          "' to server blocks: " + Name + "_client, " + Name +
                          "_server, " + Name + "_launch" + Wait);
    else
      Diags.rewritten(CS.Loop->getBeginLoc(),
                      "--delegate=auto: delegated the unannotated " + What +
                          " of '" + Name + "' to server blocks: " + Name +
                          "_client, " + Name + "_server, " + Name + "_launch" +
                          Wait,
                      /*Always=*/true);
    Changed = true;
    ++P.Rewrites;
  }
  if (Changed)
    P.Includes.ensure("dd/delegate.cuh");
  return Changed;
}

} // namespace decoupler
