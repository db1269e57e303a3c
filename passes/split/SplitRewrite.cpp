//===- split/SplitRewrite.cpp - Code generation for accepted plans
//---------===//

#include "split/SplitRewrite.h"
#include "support/Callees.h"
#include "support/CudaFacts.h"
#include "support/LaunchRewriter.h"
#include "support/SourceText.h"
#include "support/Stores.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace clang;
using namespace llvm;

namespace decoupler::split {

namespace {

/// Source text as one line of a comment: an expression written over
/// several lines (a `//` comment in it too) would end a `//` comment at its
/// first line break and leave the rest as code.
std::string commentText(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\n' || Text[I] == '\r') {
      while (!Out.empty() && (Out.back() == ' ' || Out.back() == '\t'))
        Out.pop_back();
      while (I + 1 < Text.size() &&
             isspace(static_cast<unsigned char>(Text[I + 1])))
        ++I;
      Out += ' ';
      continue;
    }
    // Nor may it close a block comment.
    if (Text[I] == '*' && I + 1 < Text.size() && Text[I + 1] == '/') {
      Out += "* ";
      continue;
    }
    Out += Text[I];
  }
  return Out;
}

RewriteResult decline(std::string Why, SourceLocation Loc = SourceLocation()) {
  RewriteResult R;
  R.Message = std::move(Why);
  R.Loc = Loc;
  return R;
}

/// The pointer parameter at the base of an lvalue or pointer expression: `a`
/// of a[i], *(a + i), a->f, &a[i]; null when it is not a parameter.
const ParmVarDecl *baseParam(const Expr *E) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(baseVar(E));
  return P && P->getType()->isPointerType() ? P : nullptr;
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

/// Pointer parameters that \p S stores through (assignments, increments,
/// atomic* calls), in order of first appearance.
SmallVector<const ParmVarDecl *, 4> storedParams(const Stmt *S) {
  SmallVector<const ParmVarDecl *, 4> Out;
  forEachStore(S, [&](const Expr *E, bool AtomicPointer, const Stmt *) {
    if (!AtomicPointer && !isMemoryLValue(E))
      return;
    if (const ParmVarDecl *P = baseParam(E); P && !is_contained(Out, P))
      Out.push_back(P);
  });
  return Out;
}

/// Whether \p Loop already carries an unroll pragma (#pragma unroll, clang
/// loop unroll hints).
bool hasUnrollPragma(const Stmt *Loop, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*Loop);
  while (!Parents.empty()) {
    const auto *A = Parents[0].get<AttributedStmt>();
    if (!A)
      return false;
    for (const Attr *At : A->getAttrs())
      if (isa<LoopHintAttr>(At))
        return true;
    Parents = Ctx.getParents(*A);
  }
  return false;
}

/// The offset in \p Buf where the line holding offset \p Off begins.
size_t lineBegin(StringRef Buf, unsigned Off) {
  size_t Begin = Buf.rfind('\n', Off ? Off - 1 : 0);
  return Begin == StringRef::npos ? 0 : Begin + 1;
}

/// Whether only blanks precede \p Loc on its line.
bool startsLine(SourceLocation Loc, const SourceManager &SM) {
  StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
  unsigned Off = SM.getFileOffset(Loc);
  return Buf.slice(lineBegin(Buf, Off), Off).trim().empty();
}

std::string names(ArrayRef<const ParmVarDecl *> Params) {
  std::string S;
  for (size_t I = 0; I < Params.size(); ++I)
    S += (I ? ", " : "") + Params[I]->getNameAsString();
  return S;
}

} // namespace

RewriteResult rewriteHoist(const LoopPlan &P, const Annotation &A,
                           ASTContext &Ctx, Rewriter &R, RewriteState &State) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl &K = *P.Kernel;
  const Stmt *Loop = P.Loop;
  if (auto It = State.Rewritten.find(K.getCanonicalDecl());
      It != State.Rewritten.end())
    return decline("kernel '" + K.getNameAsString() +
                   "' was already rewritten for the loop "
                   "at line " +
                   std::to_string(It->second) + " (one rewrite per kernel)");
  if (inMacro(Loop->getSourceRange()) || K.getLocation().isMacroID())
    return decline("the kernel or the loop is written through a macro");
  std::optional<std::pair<unsigned, unsigned>> Line = annotationLine(A.Loc, SM);
  if (!Line)
    return decline(
        "the annotation is not alone on its line, so it cannot be removed",
        A.Loc);

  // The pointers the promise covers: the streamed arrays and every array the
  // loop stores through.
  SmallVector<const ParmVarDecl *, 4> Params;
  for (const Stream &S : P.Streams)
    if (const ParmVarDecl *Q = baseParam(cast<Expr>(S.Load));
        Q && !is_contained(Params, Q))
      Params.push_back(Q);
  if (Params.empty())
    return decline(
        "no streamed array is a pointer parameter of the kernel; __restrict__ "
        "cannot be put on it");
  for (const ParmVarDecl *Q : storedParams(Loop))
    if (!is_contained(Params, Q))
      Params.push_back(Q);
  if (Params.size() < 2)
    return decline(
        "the loop stores through no pointer parameter other than the streamed "
        "one; __restrict__ would not separate the store from the loads");

  // Plan every edit first: a decline must leave the file untouched.
  struct Edit {
    SourceRange Range;
    std::string Text;
    bool InsertAfter; // after the token at Range's begin, else replace Range
  };
  SmallVector<Edit, 4> Edits;
  SmallVector<const ParmVarDecl *, 4> Added;
  PrintingPolicy Policy(Ctx.getLangOpts());
  for (const ParmVarDecl *Q : Params) {
    if (Q->getType().isRestrictQualified())
      continue;
    if (inMacro(Q->getSourceRange()))
      return decline("parameter '" + Q->getNameAsString() +
                         "' is written through a macro",
                     Q->getLocation());
    TypeLoc TL = Q->getTypeSourceInfo() ? Q->getTypeSourceInfo()->getTypeLoc()
                                        : TypeLoc();
    if (auto PTL = TL.getAsAdjusted<PointerTypeLoc>();
        PTL && PTL.getStarLoc().isFileID()) {
      Edits.push_back({SourceRange(PTL.getStarLoc()), "__restrict__ ", true});
    } else {
      // `int A[]`: written as the pointer it is.
      std::string Type = Q->getType().getAsString(Policy);
      if (Q->getName().empty() || !StringRef(Type).ends_with("*"))
        return decline("cannot spell parameter '" + Q->getNameAsString() +
                           "' with __restrict__",
                       Q->getLocation());
      Edits.push_back({Q->getSourceRange(),
                       Type + "__restrict__ " + Q->getNameAsString(), false});
    }
    Added.push_back(Q);
  }
  const bool Unroll = !hasUnrollPragma(Loop, Ctx);
  const bool LoopAnnotated = A.TargetStmt != nullptr;
  if (Unroll && !LoopAnnotated && !startsLine(Loop->getBeginLoc(), SM))
    return decline(
        "the loop does not begin its line; '#pragma unroll 4' cannot be put "
        "before it");

  for (const Edit &E : Edits) {
    if (E.InsertAfter)
      R.InsertTextAfterToken(E.Range.getBegin(), E.Text);
    else
      R.ReplaceText(CharSourceRange::getTokenRange(E.Range), E.Text);
  }
  // The annotation's line becomes the unroll pragma (a loop annotation) or
  // goes (a kernel annotation; the pragma then goes before the loop).
  const SourceLocation FileStart = SM.getLocForStartOfFile(SM.getMainFileID());
  StringRef Buf = SM.getBufferData(SM.getMainFileID());
  const std::string Indent =
      Buf.slice(Line->first, Line->second)
          .take_while([](char C) { return C == ' ' || C == '\t'; })
          .str();
  const std::string Why =
      " // decoupler: rule 5, keep several loads in flight\n";
  if (State.RemovedPragmas.insert(Line->first).second) {
    if (Unroll && LoopAnnotated)
      R.ReplaceText(FileStart.getLocWithOffset(Line->first),
                    Line->second - Line->first,
                    Indent + "#pragma unroll 4" + Why);
    else
      R.RemoveText(FileStart.getLocWithOffset(Line->first),
                   Line->second - Line->first);
  }
  if (Unroll && !LoopAnnotated)
    R.InsertTextBefore(
        Loop->getBeginLoc(),
        "#pragma unroll 4" + Why +
            std::string(SM.getExpansionColumnNumber(Loop->getBeginLoc()) - 1,
                        ' '));

  State.Rewritten[K.getCanonicalDecl()] =
      SM.getExpansionLineNumber(Loop->getBeginLoc());
  RewriteResult Out;
  Out.Done = true;
  Out.Message =
      "restrict/hoist rewrite (split-study.md rule 5) instead of a split: ";
  if (!Added.empty())
    Out.Message += "__restrict__ on " + names(Added) +
                   " (the annotation promises that " + names(Params) +
                   " do not alias)";
  else
    Out.Message += names(Params) + " are already __restrict__";
  Out.Message += Unroll ? "; '#pragma unroll 4' on the loop"
                        : "; the loop's own unroll pragma kept";
  return Out;
}

//===----------------------------------------------------------------------===//
// The producer/consumer split
//===----------------------------------------------------------------------===//

namespace {

bool isBuiltin(const Expr *E, StringRef Name) {
  std::optional<std::string> B = cudaBuiltinName(E->IgnoreParenImpCasts());
  return B && *B == Name;
}

/// Every builtin read in \p S (not looking into lambdas), with its node.
void builtinReads(const Stmt *S,
                  SmallVectorImpl<std::pair<std::string, const Expr *>> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<std::string> B = cudaBuiltinName(E)) {
      Out.emplace_back(*B, E);
      return;
    }
  for (const Stmt *C : S->children())
    builtinReads(C, Out);
}

/// Calls in \p S, with the callee's name.
void callsIn(const Stmt *S, SmallVectorImpl<const CallExpr *> &Out) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S); E && cudaBuiltinName(E))
    return;
  if (const auto *C = dyn_cast<CallExpr>(S))
    Out.push_back(C);
  for (const Stmt *Child : S->children())
    callsIn(Child, Out);
}

void declRefs(const Stmt *S, SmallVectorImpl<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S); E && cudaBuiltinName(E))
    return;
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    Out.push_back(D);
  for (const Stmt *C : S->children())
    declRefs(C, Out);
}

template <class T> bool contains(const Stmt *S) {
  if (!S)
    return false;
  if (isa<T>(S))
    return true;
  return any_of(S->children(), [](const Stmt *C) { return contains<T>(C); });
}

/// A textual edit of the main file: [Begin, End) becomes Text.
struct TextEdit {
  unsigned Begin, End;
  std::string Text;
};

/// Whether \p S holds a break that leaves the loop whose body it is (not
/// one of a switch or an inner loop, which leaves only that).
bool breaksOut(const Stmt *S) {
  if (!S ||
      isa<SwitchStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(
          S))
    return false;
  if (isa<BreakStmt>(S))
    return true;
  return any_of(S->children(), [](const Stmt *C) { return breaksOut(C); });
}

class SplitRewrite {
public:
  SplitRewrite(const LoopPlan &P, const KernelAnalysis &KA, const Annotation *A,
               ASTContext &Ctx, Rewriter &R, RewriteState &State)
      : P(P), KA(KA), A(A), Ctx(Ctx), SM(Ctx.getSourceManager()),
        LO(Ctx.getLangOpts()), R(R), State(State), K(*P.Kernel),
        Name(K.getNameAsString()), Policy(Ctx.getLangOpts()) {
    Policy.SuppressTagKeyword = true;
  }

  RewriteResult run();

private:
  std::optional<RewriteResult> check();
  std::optional<RewriteResult> checkLoopControl();
  std::optional<RewriteResult> checkOuterInductionVariable();
  std::optional<RewriteResult> findGuard();
  std::optional<RewriteResult> checkGuard();
  std::optional<RewriteResult> checkStreams();
  std::optional<RewriteResult> checkKernel();
  /// \p ThreadOK: the producer recomputes thread 0's value (a tile's
  /// address), so locals may read threadIdx.x and blockDim.x.
  std::optional<RewriteResult> addSlice(const Stmt *S, SourceLocation Why,
                                        bool ThreadOK = false);
  bool uniform(const Expr *E) const;
  /// The text of \p S as thread 0 of the consumers computes it: threadIdx.x
  /// is 0, blockDim.x the consumer count.
  std::string threadZero(const Stmt *S) const;
  /// The main file's text range of \p S, through macros that expand to
  /// all of it (`_PB_NY`); none when it has none.
  std::optional<std::pair<unsigned, unsigned>> fileRange(const Stmt *S) const;
  std::optional<RewriteResult> collectEdits();
  void emit();
  /// The consumers' text in place of the guard: the guard once, the
  /// statements before and after the loop under it, the split loop \p Loop
  /// for every consumer.
  std::string guarded(const std::string &Loop,
                      const std::vector<TextEdit> &Edits) const;
  /// The producer's count of the consumers that pass the guard.
  std::string guardCount() const;
  /// An edit that removes \p S, with its line when it stands alone there.
  TextEdit wholeLines(const Stmt *S) const;

  std::string text(const Stmt *S) const {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(S->getSourceRange()), SM, LO)
        .str();
  }
  unsigned beginOf(const Stmt *S) const {
    return SM.getFileOffset(S->getBeginLoc());
  }
  unsigned endOf(const Stmt *S) const {
    return SM.getFileOffset(
        Lexer::getLocForEndOfToken(S->getEndLoc(), 0, SM, LO));
  }
  /// End of \p S including the `;` that ends it when the statement itself
  /// does not (an expression statement, or a loop/if whose body is one).
  unsigned stmtEnd(const Stmt *S) const {
    unsigned E = endOf(S);
    StringRef Buf = SM.getBufferData(SM.getMainFileID());
    size_t I = E;
    while (I < Buf.size() &&
           (Buf[I] == ' ' || Buf[I] == '\t' || Buf[I] == '\n'))
      ++I;
    return I < Buf.size() && Buf[I] == ';' && !Buf.slice(E, I).contains('\n')
               ? I + 1
               : E;
  }
  std::string edited(unsigned Begin, unsigned End,
                     std::vector<TextEdit> Edits) const;
  /// The kernel's parameters as written; one written through a macro
  /// (`DATA_TYPE *A`) as its type prints.
  std::string params() const {
    std::string S;
    for (unsigned I = 0; I < K.getNumParams(); ++I) {
      const ParmVarDecl *Q = K.getParamDecl(I);
      S += I ? ", " : "";
      if (!inMacro(Q->getSourceRange())) {
        S += Lexer::getSourceText(
                 CharSourceRange::getTokenRange(Q->getSourceRange()), SM, LO)
                 .str();
        continue;
      }
      raw_string_ostream OS(S);
      Q->getType().print(OS, Policy, Q->getName());
    }
    return S;
  }

  const LoopPlan &P;
  const KernelAnalysis &KA;
  const Annotation *A; // null: a loop found by --split=auto
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  Rewriter &R;
  RewriteState &State;
  const FunctionDecl &K;
  std::string Name;
  PrintingPolicy Policy;

  const ForStmt *Loop = nullptr;
  const CompoundStmt *Body = nullptr;
  const VarDecl *IV = nullptr;  // the induction variable
  const Expr *IVInit = nullptr; // its start as written
  /// `int i; for (i = 0; ...)`: the induction variable's own declaration
  /// before the loop, which the consumers' copy drops (the split loop
  /// declares it).
  const DeclStmt *IVDecl = nullptr;
  std::string IVType;
  std::string Start0; // the induction variable's start in thread 0
  std::string Bound;  // the loop runs while IV < Bound
  const Expr *Start0Expr = nullptr, *BoundExpr = nullptr;
  /// A loop whose control is the same in every thread (`i = s; i < b; i +=
  /// step`): each iteration reads one tile of the block's consumers per
  /// stream, U tiles per stage. Otherwise the merged shape (`j =
  /// threadIdx.x; j < b; j += blockDim.x`).
  bool Tiles = false;
  std::string Step = "1";
  const Expr *StepExpr = nullptr;
  /// `if (cond) { before; loop; after }` at the top of the kernel: the
  /// consumers evaluate cond once (dd_guard) and all run the loop, the body
  /// predicated; the producer copies only what the threads that pass read.
  const IfStmt *Guard = nullptr;
  const CompoundStmt *GuardThen = nullptr; // null: `if (cond) loop`
  /// A conjunct of the guard: block-uniform (Index null), or `Index < Bound`
  /// (`<=` when Inclusive) with Index = thread 0's value + threadIdx.x.
  struct GuardTerm {
    const Expr *Cond = nullptr;
    const Expr *Index = nullptr, *Limit = nullptr;
    bool Inclusive = false;
    std::string Type; // the comparison's operand type
  };
  std::vector<GuardTerm> GuardTerms;
  bool GuardPerThread = false; // a conjunct differs between threads
  std::pair<unsigned, unsigned> PragmaLine;
  bool PragmaInBody = false;
  unsigned LoopBegin = 0, LoopEnd = 0;

  struct StreamGen {
    const Stream *S;
    const Expr *Load;
    std::string Type;
    std::string Address; // &(lvalue as written)
  };
  std::vector<StreamGen> Streams;
  std::vector<const Stmt *>
      Slice; // declarations the producer recomputes, in order
  SmallPtrSet<const VarDecl *, 8> SliceVars;
  SmallPtrSet<const VarDecl *, 16> Modified; // anywhere in the kernel

  std::vector<TextEdit> Outer;  // the kernel body outside the loop
  std::vector<TextEdit> InLoop; // the loop body
  LaunchRewriter Launcher{Ctx, K, LaunchRewriter::Policy::KeepOthers};
  std::vector<std::string> Notes; // what the remark says besides
};

RewriteResult declineAt(const std::string &Why, SourceLocation Loc) {
  return decline(Why, Loc);
}

std::string SplitRewrite::edited(unsigned Begin, unsigned End,
                                 std::vector<TextEdit> Edits) const {
  sort(Edits,
       [](const TextEdit &X, const TextEdit &Y) { return X.Begin < Y.Begin; });
  StringRef Buf = SM.getBufferData(SM.getMainFileID());
  std::string Out;
  unsigned At = Begin;
  for (const TextEdit &E : Edits) {
    if (E.Begin < At || E.End > End)
      continue; // outside, or inside an edit already applied
    Out += Buf.slice(At, E.Begin).str() + E.Text;
    At = E.End;
  }
  Out += Buf.slice(At, End).str();
  return Out;
}

/// Whether \p E is the same in every thread of a block: by the affine
/// analysis, or because it reads only parameters, globals, enumerators,
/// blockIdx/gridDim and locals (whose own definitions addSlice checks).
bool SplitRewrite::uniform(const Expr *E) const {
  if (KA.valueOf(E).isUniform())
    return true;
  SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
  builtinReads(E, Reads);
  SmallVector<const CallExpr *, 2> Calls;
  callsIn(E, Calls);
  if (!Calls.empty() || any_of(Reads, [](const auto &B) {
        return !StringRef(B.first).starts_with("blockIdx") &&
               !StringRef(B.first).starts_with("gridDim");
      }))
    return false;
  SmallVector<const DeclRefExpr *, 4> Refs;
  declRefs(E, Refs);
  return all_of(Refs, [&](const DeclRefExpr *D) {
    return D->getDecl() != IV &&
           (isa<VarDecl>(D->getDecl()) || isa<EnumConstantDecl>(D->getDecl()));
  });
}

std::string SplitRewrite::threadZero(const Stmt *S) const {
  SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
  builtinReads(S, Reads);
  std::vector<TextEdit> Edits;
  for (const auto &[B, E] : Reads)
    if (B == "threadIdx.x" || B == "blockDim.x")
      Edits.push_back(
          {beginOf(E), endOf(E), B == "threadIdx.x" ? "0u" : "dd_consumers"});
  if (isa<Expr>(S))
    if (std::optional<std::pair<unsigned, unsigned>> F = fileRange(S))
      return edited(F->first, F->second, Edits);
  return edited(beginOf(S), isa<Expr>(S) ? endOf(S) : stmtEnd(S), Edits);
}

std::optional<std::pair<unsigned, unsigned>>
SplitRewrite::fileRange(const Stmt *S) const {
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM, LO);
  if (R.isInvalid() || !SM.isWrittenInMainFile(R.getBegin()))
    return std::nullopt;
  return std::make_pair(SM.getFileOffset(R.getBegin()),
                        SM.getFileOffset(R.getEnd()));
}

/// The declaration of \p V at the top level of the kernel body before the
/// loop, which the producer recomputes (and, first, the ones it reads).
std::optional<RewriteResult>
SplitRewrite::addSlice(const Stmt *S, SourceLocation Why, bool ThreadOK) {
  SmallVector<const DeclRefExpr *, 8> Refs;
  declRefs(S, Refs);
  for (const DeclRefExpr *D : Refs) {
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V) {
      if (isa<FunctionDecl>(D->getDecl()))
        return declineAt(
            "the producer would have to call '" +
                D->getDecl()->getNameAsString() +
                "' to compute the loop control or a streamed address",
            D->getLocation());
      continue; // enumerators
    }
    if (isa<ParmVarDecl>(V)) {
      if (Modified.contains(V))
        return declineAt(
            "parameter '" + V->getNameAsString() +
                "', which the loop control or a streamed address reads, is "
                "modified in the kernel",
            D->getLocation());
      continue;
    }
    if (V == IV || SliceVars.contains(V) || !V->hasLocalStorage())
      continue; // globals and constants are the same for the producer
    if (Modified.contains(V) || !V->getInit())
      return declineAt(
          "'" + V->getNameAsString() +
              "', which the loop control or a streamed address reads, is not "
              "defined once by its declaration",
          D->getLocation());
    DynTypedNodeList Parents = Ctx.getParents(*V);
    const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    if (!DS || !DS->isSingleDecl() || !is_contained(Body->body(), DS) ||
        inMacro(DS->getSourceRange()) || beginOf(DS) > LoopBegin ||
        V->hasAttr<CUDASharedAttr>())
      return declineAt(
          "'" + V->getNameAsString() +
              "', which the loop control or a streamed address reads, is not "
              "declared alone at the top of the kernel before the loop",
          V->getLocation());
    if (!ThreadOK && !uniform(V->getInit()))
      return declineAt("'" + V->getNameAsString() + "' differs between threads",
                       V->getLocation());
    SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
    builtinReads(V->getInit(), Reads);
    for (const auto &[B, E] : Reads)
      if ((StringRef(B).starts_with("threadIdx") ||
           StringRef(B).starts_with("blockDim")) &&
          !(ThreadOK && (B == "threadIdx.x" || B == "blockDim.x")))
        return declineAt("'" + V->getNameAsString() + "' is computed from " + B,
                         E->getBeginLoc());
      else if (inMacro(E->getSourceRange()))
        return declineAt("'" + V->getNameAsString() + "' reads " + B +
                             " through a macro",
                         E->getBeginLoc());
    SmallVector<const CallExpr *, 2> Calls;
    callsIn(V->getInit(), Calls);
    if (!Calls.empty())
      return declineAt("'" + V->getNameAsString() + "' is computed by a call",
                       Calls.front()->getBeginLoc());
    SliceVars.insert(V);
    if (std::optional<RewriteResult> No = addSlice(V->getInit(), Why, ThreadOK))
      return No;
    Slice.push_back(DS);
  }
  return std::nullopt;
}

/// `int i; for (i = s; ...)`: the loop assigns a local declared before it
/// (C style, PolyBench). Taken as the induction variable when nothing but
/// the loop reads or writes it, so the split loop may declare its own.
std::optional<RewriteResult> SplitRewrite::checkOuterInductionVariable() {
  const auto *InitExpr = dyn_cast_or_null<Expr>(Loop->getInit());
  const auto *Assign =
      InitExpr ? dyn_cast<BinaryOperator>(InitExpr->IgnoreParens()) : nullptr;
  const auto *Ref =
      Assign && Assign->getOpcode() == BO_Assign
          ? dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts())
          : nullptr;
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() ||
      !V->getType()->isIntegerType())
    return std::nullopt; // declined below with the usual reason
  DynTypedNodeList Parents = Ctx.getParents(*V);
  const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!DS || !DS->isSingleDecl() || beginOf(DS) > LoopBegin ||
      inMacro(DS->getSourceRange()) ||
      (V->getInit() && V->getInit()->HasSideEffects(Ctx)))
    return declineAt("the induction variable '" + V->getNameAsString() +
                         "' is not declared alone before the loop",
                     V->getLocation());
  SmallVector<const DeclRefExpr *, 8> Refs;
  declRefs(Body, Refs);
  for (const DeclRefExpr *D : Refs)
    if (D->getDecl() == V && (beginOf(D) < LoopBegin || beginOf(D) >= LoopEnd))
      return declineAt("the induction variable '" + V->getNameAsString() +
                           "' is used outside the loop",
                       D->getLocation());
  IV = V;
  IVInit = Assign->getRHS();
  IVDecl = DS;
  return std::nullopt;
}

std::optional<RewriteResult> SplitRewrite::checkLoopControl() {
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  IV = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl())
                                    : nullptr;
  IVInit = IV ? IV->getInit() : nullptr;
  if (!Init)
    if (std::optional<RewriteResult> No = checkOuterInductionVariable())
      return No;
  if (!IV || !IVInit || !IV->getType()->isIntegerType())
    return declineAt(
        "the loop does not declare its induction variable in its header",
        Loop->getBeginLoc());
  IVType = IV->getType().getUnqualifiedType().getAsString(Policy);
  const Expr *I = IVInit->IgnoreParenImpCasts();
  if (isBuiltin(I, "threadIdx.x")) {
    Start0 = "0";
  } else if (const auto *B = dyn_cast<BinaryOperator>(I);
             B && B->getOpcode() == BO_Add &&
             (isBuiltin(B->getLHS(), "threadIdx.x") ||
              isBuiltin(B->getRHS(), "threadIdx.x"))) {
    Start0Expr =
        isBuiltin(B->getLHS(), "threadIdx.x") ? B->getRHS() : B->getLHS();
    Start0 = text(Start0Expr);
  }
  if (Start0.empty()) {
    SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
    builtinReads(IVInit, Reads);
    if (any_of(Reads, [](const auto &B) {
          return StringRef(B.first).starts_with("threadIdx") ||
                 StringRef(B.first).starts_with("blockDim");
        }))
      return declineAt(
          "the induction variable does not start at threadIdx.x (+ a "
          "block-uniform "
          "value) nor at a value the same in every thread; the code generator "
          "handles 'j = threadIdx.x; j < n; j += blockDim.x' and 'i = s; i < "
          "n; "
          "i += step'",
          IVInit->getBeginLoc());
    Tiles = true;
    Start0Expr = IVInit;
    Start0 = text(Start0Expr);
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
  const auto *CondVar =
      Cond ? dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts())
           : nullptr;
  if (!Cond || Cond->getOpcode() != BO_LT || !CondVar ||
      CondVar->getDecl() != IV)
    return declineAt(
        "the loop condition is not '" + IV->getNameAsString() + " < bound'",
        Loop->getCond() ? Loop->getCond()->getBeginLoc() : Loop->getBeginLoc());
  BoundExpr = Cond->getRHS();
  Bound = text(BoundExpr);
  const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Loop->getInc());
  const auto *IncVar =
      Inc ? dyn_cast<DeclRefExpr>(Inc->getLHS()->IgnoreParenImpCasts())
          : nullptr;
  const bool AddAssign = Inc && Inc->getOpcode() == BO_AddAssign && IncVar &&
                         IncVar->getDecl() == IV;
  if (!Tiles && (!AddAssign || !isBuiltin(Inc->getRHS(), "blockDim.x")))
    return declineAt(
        "the loop step is not '" + IV->getNameAsString() + " += blockDim.x'",
        Loop->getInc() ? Loop->getInc()->getBeginLoc() : Loop->getBeginLoc());
  if (Tiles) {
    const auto *U = dyn_cast_or_null<UnaryOperator>(Loop->getInc());
    const auto *UVar =
        U ? dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts())
          : nullptr;
    if (U && U->isIncrementOp() && UVar && UVar->getDecl() == IV) {
      Step = "1";
    } else if (AddAssign) {
      StepExpr = Inc->getRHS();
      Step = text(StepExpr);
    } else {
      return declineAt("the loop step is not '" + IV->getNameAsString() +
                           "++' or '" + IV->getNameAsString() + " += step'",
                       Loop->getInc() ? Loop->getInc()->getBeginLoc()
                                      : Loop->getBeginLoc());
    }
  }
  for (const Expr *E : {Start0Expr, BoundExpr, StepExpr}) {
    if (!E)
      continue;
    SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
    builtinReads(E, Reads);
    for (const auto &[B, At] : Reads)
      if (StringRef(B).starts_with("threadIdx") ||
          StringRef(B).starts_with("blockDim"))
        return declineAt("the loop's start, bound or step reads " + B,
                         At->getBeginLoc());
    if (!uniform(E))
      return declineAt(
          "the loop's start, bound or step differs between threads",
          E->getBeginLoc());
    if (std::optional<RewriteResult> No = addSlice(E, E->getBeginLoc()))
      return No;
  }
  return std::nullopt;
}

/// The loop is not a statement of the kernel body: it may be the guarded
/// statement of an `if` there, `if (i < n) { ...; loop; ... }`.
std::optional<RewriteResult> SplitRewrite::findGuard() {
  DynTypedNodeList Parents = Ctx.getParents(*Loop);
  const Stmt *Up = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
  const auto *Then = dyn_cast_or_null<CompoundStmt>(Up);
  if (Then) {
    Parents = Ctx.getParents(*Then);
    Up = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
  }
  const auto *If = dyn_cast_or_null<IfStmt>(Up);
  if (!If || If->getThen() != (Then ? static_cast<const Stmt *>(Then) : Loop) ||
      !is_contained(Body->body(), If))
    return declineAt(
        "the loop is neither a statement of the kernel body itself nor the "
        "guarded statement of an if there (it is under another loop, a "
        "pragma or nested ifs): the consumers must all reach it",
        SourceLocation());
  if (If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConstexpr() || If->isConsteval())
    return declineAt("the if around the loop has an else branch, an init "
                     "statement or a declaration in its condition",
                     If->getBeginLoc());
  if (inMacro(If->getSourceRange()))
    return declineAt("the if around the loop is written through a macro",
                     If->getBeginLoc());
  Guard = If;
  GuardThen = Then;
  return std::nullopt;
}

/// The guard's conjuncts, left to right, through parentheses and `&&`.
void conjuncts(const Expr *E, SmallVectorImpl<const Expr *> &Out) {
  const Expr *S = E->IgnoreParens();
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->getOpcode() == BO_LAnd) {
    conjuncts(B->getLHS(), Out);
    conjuncts(B->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

/// Whether \p S names memory anywhere (isMemoryLValue: a subscript, a
/// dereference, an arrow).
bool readsMemory(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && isMemoryLValue(E))
    return true;
  return any_of(S->children(), [](const Stmt *C) { return readsMemory(C); });
}

/// The guard: each conjunct is the same in every thread, or `index < bound`
/// (`<=`, or `bound > index`, `bound >= index`) with the index growing by one
/// per thread and the bound the same in every thread. The threads that pass
/// are then a prefix of the block (as everywhere in the analysis, a thread's
/// index does not wrap around), which the producer counts and copies.
std::optional<RewriteResult> SplitRewrite::checkGuard() {
  if (!Guard)
    return std::nullopt;
  // Declarations before the loop stay under the guard, in a block of their
  // own: nothing from the loop on may read them.
  if (GuardThen) {
    SmallVector<const DeclRefExpr *, 8> Refs;
    declRefs(GuardThen, Refs);
    for (const Stmt *S : GuardThen->body()) {
      if (S == Loop)
        break;
      const auto *DS = dyn_cast<DeclStmt>(S);
      if (!DS || DS == IVDecl)
        continue;
      for (const DeclRefExpr *D : Refs)
        if (beginOf(D) >= LoopBegin && is_contained(DS->decls(), D->getDecl()))
          return declineAt("'" + D->getDecl()->getNameAsString() +
                               "' is declared under the if around the loop "
                               "and used from the loop on: the split runs the "
                               "loop outside the if",
                           D->getLocation());
    }
  }
  if (!fileRange(Guard->getCond()))
    return declineAt("the condition of the if around the loop is written "
                     "partly through a macro",
                     Guard->getCond()->getBeginLoc());
  const std::string Shape =
      "the if around the loop is not a conjunction of conditions the same "
      "in every thread and of 'index < bound' with the index growing by "
      "one per thread (threadIdx.x + a block-uniform value)";
  // A thread's index: affine, one more per thread along x.
  auto ThreadIndex = [&](const Expr *E) {
    AffineValue V = KA.valueOf(E);
    if (V.kind() != AffineValue::Kind::Affine)
      V = KA.valueOf(E->IgnoreParenImpCasts());
    const Strides &St = V.strides();
    return V.kind() == AffineValue::Kind::Affine && V.conditions().empty() &&
           St[0] == std::optional<int64_t>(1) &&
           St[1] == std::optional<int64_t>(0) &&
           St[2] == std::optional<int64_t>(0);
  };
  SmallVector<const Expr *, 4> Conj;
  conjuncts(Guard->getCond(), Conj);
  for (const Expr *C : Conj) {
    SmallVector<const CallExpr *, 2> Calls;
    callsIn(C, Calls);
    if (!Calls.empty() || readsMemory(C))
      return declineAt("the if around the loop reads memory or calls a "
                       "function: the producer evaluates it too",
                       C->getBeginLoc());
    SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
    builtinReads(C, Reads);
    for (const auto &[B, E] : Reads)
      if (inMacro(E->getSourceRange()))
        return declineAt("the if around the loop reads " + B +
                             " through a macro",
                         E->getBeginLoc());
    if (!fileRange(C))
      return declineAt("a condition of the if around the loop is written "
                       "partly through a macro",
                       C->getBeginLoc());
    GuardTerm T;
    T.Cond = C;
    const auto *B = dyn_cast<BinaryOperator>(C->IgnoreParens());
    if (B && B->isRelationalOp()) {
      const bool Less = B->getOpcode() == BO_LT || B->getOpcode() == BO_LE;
      if (ThreadIndex(Less ? B->getLHS() : B->getRHS())) {
        T.Index = Less ? B->getLHS() : B->getRHS();
        T.Limit = Less ? B->getRHS() : B->getLHS();
        T.Inclusive = B->getOpcode() == BO_LE || B->getOpcode() == BO_GE;
      } else if (ThreadIndex(Less ? B->getRHS() : B->getLHS())) {
        return declineAt("the if around the loop passes the threads above "
                         "an index (not a prefix of the block)",
                         C->getBeginLoc());
      }
    }
    if (!T.Index) {
      if (!KA.valueOf(C).isUniform())
        return declineAt(Shape, C->getBeginLoc());
      if (std::optional<RewriteResult> No = addSlice(C, C->getBeginLoc()))
        return No;
      GuardTerms.push_back(T);
      continue;
    }
    if (!Tiles)
      return declineAt("the if around the loop differs between threads, and "
                       "each stage of this loop's stream spreads a thread's "
                       "elements over the block",
                       C->getBeginLoc());
    const QualType Type = B->getLHS()->getType();
    if (!Type->isIntegerType() || Type->isBooleanType() || !uniform(T.Limit))
      return declineAt(Shape, C->getBeginLoc());
    if (!fileRange(T.Index) || !fileRange(T.Limit))
      return declineAt("a condition of the if around the loop is written "
                       "partly through a macro",
                       C->getBeginLoc());
    if (std::optional<RewriteResult> No =
            addSlice(T.Index, T.Index->getBeginLoc(), true))
      return No;
    if (std::optional<RewriteResult> No =
            addSlice(T.Limit, T.Limit->getBeginLoc()))
      return No;
    T.Type = Type.getCanonicalType().getUnqualifiedType().getAsString(Policy);
    GuardTerms.push_back(T);
    GuardPerThread = true;
  }
  return std::nullopt;
}

/// The additive terms of an integer index, through parentheses and integer
/// casts; false when a term is subtracted from another one that holds
/// \p IV (only `+ IV` is understood).
void additiveTerms(const Expr *E, SmallVectorImpl<const Expr *> &Out) {
  const Expr *S = E->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<CStyleCastExpr>(S);
      C && C->getType()->isIntegerType() &&
      C->getSubExpr()->getType()->isIntegerType())
    S = C->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->getOpcode() == BO_Add) {
    additiveTerms(B->getLHS(), Out);
    additiveTerms(B->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

std::optional<RewriteResult> SplitRewrite::checkStreams() {
  for (const Stream &S : P.Streams) {
    const auto *Load = cast<Expr>(S.Load);
    if (inMacro(Load->getSourceRange()))
      return declineAt("stream " + S.Text + " is written through a macro",
                       Load->getBeginLoc());
    // Read in every iteration, unconditionally: the producer copies every
    // element the loop control reaches, which must be exactly what the loop
    // as written reads (a guard such as `if (row < rows)` may be what keeps
    // those reads in bounds). Not inside a nested loop or lambda either.
    const std::string Conditional =
        "stream " + S.Text +
        " is read under a condition in the loop; the producer would copy "
        "elements the loop as written may not read";
    for (const Stmt *At = Load;;) {
      DynTypedNodeList Parents = Ctx.getParents(*At);
      const Stmt *Up = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
      if (!Up) {
        // A declaration's initializer: go through the declaration.
        if (const auto *V =
                Parents.empty() ? nullptr : Parents[0].get<VarDecl>()) {
          DynTypedNodeList DeclParents = Ctx.getParents(*V);
          Up = DeclParents.empty() ? nullptr : DeclParents[0].get<Stmt>();
        }
      }
      if (!Up)
        return declineAt("cannot follow stream " + S.Text + " up to the loop",
                         Load->getBeginLoc());
      if (Up == Loop)
        break;
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(Up))
        return declineAt("stream " + S.Text +
                             " is read in a loop nested in the decoupled one",
                         Load->getBeginLoc());
      if (const auto *If = dyn_cast<IfStmt>(Up); If && If->getCond() != At)
        return declineAt(Conditional, Load->getBeginLoc());
      if (const auto *C = dyn_cast<AbstractConditionalOperator>(Up);
          C && C->getCond() != At)
        return declineAt(Conditional, Load->getBeginLoc());
      if (const auto *B = dyn_cast<BinaryOperator>(Up);
          B && B->isLogicalOp() && B->getRHS() == At)
        return declineAt(Conditional, Load->getBeginLoc());
      if (isa<SwitchStmt, SwitchCase>(Up))
        return declineAt(Conditional, Load->getBeginLoc());
      At = Up;
    }
    // A continue before the read skips it in some iterations.
    struct Continues : RecursiveASTVisitor<Continues> {
      SmallVector<const ContinueStmt *, 2> Out;
      bool VisitContinueStmt(ContinueStmt *C) {
        Out.push_back(C);
        return true;
      }
    } Conts;
    Conts.TraverseStmt(const_cast<Stmt *>(Loop->getBody()));
    for (const ContinueStmt *Cont : Conts.Out)
      if (beginOf(Cont) < beginOf(Load))
        return declineAt(Conditional, Cont->getBeginLoc());
    const auto *Sub = dyn_cast<ArraySubscriptExpr>(Load->IgnoreParenImpCasts());
    if (!Sub)
      return declineAt("stream " + S.Text + " is not an array subscript a[i]",
                       Load->getBeginLoc());
    if (!Sub->getBase()->getType()->isPointerType() || !uniform(Sub->getBase()))
      return declineAt("the base of stream " + S.Text +
                           " differs between threads",
                       Load->getBeginLoc());
    if (Tiles) {
      // One tile per iteration: the block's consumers read consecutive
      // elements (thread stride one element, the plan's), so the tile is
      // thread 0's address and the next dd_consumers elements. The producer
      // recomputes thread 0's address.
      SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
      builtinReads(Load, Reads);
      for (const auto &[B, E] : Reads)
        if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
          return declineAt("stream " + S.Text + " reads " + B +
                               " through a macro",
                           Load->getBeginLoc());
      if (std::optional<RewriteResult> No =
              addSlice(Sub, Load->getBeginLoc(), true))
        return No;
      Streams.push_back(
          {&S, Load, Load->getType().getUnqualifiedType().getAsString(Policy),
           "&(" + threadZero(Load) + ")"});
      continue;
    }
    // index = IV + (terms invariant in the loop, the same in every thread):
    // element k of a stage is what thread k % consumers reads in iteration
    // k / consumers of the stage.
    SmallVector<const Expr *, 4> Terms;
    additiveTerms(Sub->getIdx(), Terms);
    unsigned IVTerms = 0;
    for (const Expr *T : Terms) {
      const auto *D = dyn_cast<DeclRefExpr>(T->IgnoreParenImpCasts());
      if (D && D->getDecl() == IV) {
        ++IVTerms;
        continue;
      }
      SmallVector<const DeclRefExpr *, 4> Refs;
      declRefs(T, Refs);
      SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
      builtinReads(T, Reads);
      const bool Varies =
          any_of(Refs,
                 [&](const DeclRefExpr *R) { return R->getDecl() == IV; }) ||
          any_of(Reads, [](const auto &B) {
            return StringRef(B.first).starts_with("threadIdx") ||
                   StringRef(B.first).starts_with("blockDim");
          });
      if (Varies || !uniform(T))
        return declineAt("the index of stream " + S.Text + " is not '" +
                             IV->getNameAsString() +
                             " + a block-uniform value'",
                         T->getBeginLoc());
    }
    if (IVTerms != 1)
      return declineAt("the index of stream " + S.Text + " is not '" +
                           IV->getNameAsString() + " + a block-uniform value'",
                       Sub->getIdx()->getBeginLoc());
    if (std::optional<RewriteResult> No = addSlice(Sub, Load->getBeginLoc()))
      return No;
    Streams.push_back({&S, Load,
                       Load->getType().getUnqualifiedType().getAsString(Policy),
                       "&(" + text(Load) + ")"});
  }
  return std::nullopt;
}

/// Calls to functions whose bodies the rewrite cannot see into would keep
/// __syncthreads() (the producer has left) or blockDim.x (the block is one
/// warp larger): every callee with a body is checked, transitively, a
/// system header's too (a vendored helper under -isystem, CUB's block
/// collectives). Cooperative groups are checkKernelShape's: their groups,
/// not their implementation, say what counts the producer warp.
std::optional<std::string>
usesBlock(const FunctionDecl *F, const SourceManager &SM,
          SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!F || !Seen.insert(F->getCanonicalDecl()).second)
    return std::nullopt;
  const FunctionDecl *Def = F->getDefinition();
  if (!Def || !Def->getBody() || inCooperativeGroups(Def))
    return std::nullopt;
  SmallVector<std::pair<std::string, const Expr *>, 4> Reads;
  builtinReads(Def->getBody(), Reads);
  for (const auto &[B, E] : Reads)
    if (StringRef(B).starts_with("blockDim") || B == "threadIdx.y" ||
        B == "threadIdx.z")
      return B;
  SmallVector<const CallExpr *, 8> Calls;
  callsIn(Def->getBody(), Calls);
  for (const CallExpr *C : Calls) {
    const FunctionDecl *G = calledFunction(C);
    if (cudaSync(C) == SyncKind::Barrier)
      return C->getDirectCallee()->getNameAsString() + "()";
    if (!G && !isa<CXXOperatorCallExpr>(C) &&
        !isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParenImpCasts()))
      return std::string(dispatchedAtRunTime(C)
                             ? "a virtual call, whose overrider may"
                             : "a call through a pointer, whose callee may") +
             " synchronize the block";
    if (std::optional<std::string> B = usesBlock(G, SM, Seen))
      return B;
  }
  return std::nullopt;
}

std::optional<RewriteResult> SplitRewrite::checkKernel() {
  // Every return before the end of the loop would leave the consumers
  // short of a warp at a wait or a consumer_sync.
  struct Returns : RecursiveASTVisitor<Returns> {
    SmallVector<const ReturnStmt *, 2> Out;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitReturnStmt(ReturnStmt *S) {
      Out.push_back(S);
      return true;
    }
  } Rets;
  Rets.TraverseStmt(const_cast<CompoundStmt *>(Body));
  for (const ReturnStmt *Ret : Rets.Out)
    if (beginOf(Ret) < LoopEnd)
      return declineAt(
          "a return before the end of the loop: every consumer warp must reach "
          "every stage",
          Ret->getBeginLoc());
  // A switch's or an inner loop's break stays in the iteration: the body
  // is copied into the consumers' per-iteration loop whole, so it leaves
  // the same statement there (test/split/inner-break.cu runs them).
  if (breaksOut(Loop->getBody()))
    return declineAt("the loop body has a break", Loop->getBeginLoc());
  if (contains<GotoStmt>(Body) || contains<IndirectGotoStmt>(Body))
    return declineAt("the kernel has a goto", K.getLocation());
  // The rewrite of blockDim.x and __syncthreads() does not look into
  // lambdas.
  if (contains<LambdaExpr>(Body))
    return declineAt("the kernel has a lambda", K.getLocation());
  // The split kernel is the kernel's text copied in pieces around the
  // edits; an #if/#else/#endif in the body could end up in one piece and
  // its partner in another, a #define in both. A #pragma stands alone.
  {
    StringRef Buf = SM.getBufferData(SM.getMainFileID());
    const unsigned Begin = beginOf(Body),
                   End = std::min<size_t>(endOf(Body), Buf.size());
    for (size_t At = Begin; At < End;) {
      size_t LineStart = At;
      size_t First = Buf.find_first_not_of(" \t", LineStart);
      if (First < End && Buf[First] == '#' &&
          !Buf.substr(First + 1).ltrim(" \t").starts_with("pragma"))
        return declineAt("the kernel's body holds a preprocessor directive: "
                         "the split kernel "
                         "copies the body's text in pieces",
                         SM.getLocForStartOfFile(SM.getMainFileID())
                             .getLocWithOffset(First));
      size_t NewLine = Buf.find('\n', LineStart);
      if (NewLine == StringRef::npos)
        break;
      At = NewLine + 1;
    }
  }

  SmallVector<std::pair<std::string, const Expr *>, 8> Reads;
  builtinReads(Body, Reads);
  for (const auto &[B, E] : Reads) {
    if (B == "threadIdx.y" || B == "threadIdx.z" || B == "blockDim.y" ||
        B == "blockDim.z")
      return declineAt("the kernel reads " + B +
                           ": the code generator handles 1-D blocks",
                       E->getBeginLoc());
    if (B == "blockDim.x") {
      if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
        return declineAt("blockDim.x written through a macro",
                         SM.getExpansionLoc(E->getBeginLoc()));
      if (Loop->getInc()->getSourceRange().fullyContains(E->getSourceRange()))
        continue;
      TextEdit T{beginOf(E), endOf(E), "dd_consumers"};
      (beginOf(E) >= LoopBegin && beginOf(E) < LoopEnd ? InLoop : Outer)
          .push_back(T);
    }
  }
  SmallVector<const CallExpr *, 8> Calls;
  callsIn(Body, Calls);
  SmallPtrSet<const FunctionDecl *, 8> Seen;
  for (const CallExpr *C : Calls) {
    const FunctionDecl *F = calledFunction(C);
    if (!F) {
      if (dispatchedAtRunTime(C))
        return declineAt("a virtual call decided at run time: the code "
                         "generator cannot see whether its overrider "
                         "synchronizes the block",
                         C->getBeginLoc());
      if (!isa<CXXOperatorCallExpr>(C))
        return declineAt(
            "an indirect call: the code generator cannot see whether it "
            "synchronizes the block",
            C->getBeginLoc());
      continue;
    }
    if (cudaFunctionName(F) == "__syncthreads") {
      const bool InBody = beginOf(C) >= LoopBegin && beginOf(C) < LoopEnd;
      // §3.3.2's barrier replication, in software: the producer warp never
      // waits at a consumer barrier (it is decoupled through the ring and
      // touches no other shared memory), so a barrier of the loop becomes
      // one of the consumers alone. That needs every consumer to run the
      // same iterations: row tiles (the same loop control in every thread)
      // do, matvec's per-thread `j < n` does not.
      if (InBody && !Tiles)
        return declineAt(
            "__syncthreads() inside a loop whose iterations differ between "
            "threads: the consumers' barrier would be divergent",
            C->getBeginLoc());
      if (InBody && GuardPerThread)
        return declineAt("__syncthreads() inside a loop under an if that "
                         "differs between threads: the consumers' barrier "
                         "would be divergent",
                         C->getBeginLoc());
      if (inMacro(C->getSourceRange()))
        return declineAt("__syncthreads() written through a macro",
                         SM.getExpansionLoc(C->getBeginLoc()));
      (InBody ? InLoop : Outer)
          .push_back({beginOf(C), endOf(C), "dd::consumer_sync(dd_consumers)"});
      continue;
    }
    if (cudaSync(C) == SyncKind::Barrier)
      return declineAt(F->getNameAsString() +
                           "(): the code generator replaces only "
                           "__syncthreads()",
                       C->getBeginLoc());
    if (std::optional<std::string> B = usesBlock(F, SM, Seen))
      return declineAt(
          "'" + F->getNameAsString() + "' uses " + *B +
              " (the split block has one more warp, which leaves after the "
              "loop); only the kernel's own code is rewritten",
          C->getBeginLoc());
  }
  return std::nullopt;
}

std::optional<RewriteResult> SplitRewrite::check() {
  if (auto It = State.Rewritten.find(K.getCanonicalDecl());
      It != State.Rewritten.end())
    return declineAt(
        "kernel '" + Name + "' was already rewritten for the loop at line " +
            std::to_string(It->second) + " (one rewrite per kernel)",
        SourceLocation());
  Loop = dyn_cast<ForStmt>(P.Loop);
  Body = dyn_cast_or_null<CompoundStmt>(K.getBody());
  if (!Loop || !Body)
    return declineAt("not a for loop", SourceLocation());
  if (K.isTemplated() || isa<CXXMethodDecl>(K))
    return declineAt("kernel '" + Name + "' is a template or a member",
                     K.getLocation());
  if (inMacro(Loop->getSourceRange()) || inMacro(Body->getSourceRange()) ||
      K.getLocation().isMacroID() || !SM.isInMainFile(K.getLocation()))
    return declineAt("the kernel or the loop is written through a macro",
                     SourceLocation());
  if (!is_contained(Body->body(), Loop))
    if (std::optional<RewriteResult> No = findGuard())
      return No;
  for (const ParmVarDecl *Q : K.parameters())
    if (Q->getName().empty())
      return declineAt("parameter " +
                           std::to_string(Q->getFunctionScopeIndex() + 1) +
                           " is unnamed",
                       Q->getLocation());
  LoopBegin = beginOf(Loop);
  LoopEnd = stmtEnd(Loop);
  if (A) {
    std::optional<std::pair<unsigned, unsigned>> Line =
        annotationLine(A->Loc, SM);
    if (!Line)
      return declineAt(
          "the annotation is not alone on its line, so it cannot be removed",
          A->Loc);
    PragmaLine = *Line;
    PragmaInBody =
        PragmaLine.first > beginOf(Body) && PragmaLine.first < endOf(Body);
    if (PragmaInBody && PragmaLine.second > LoopBegin)
      return declineAt("the annotation is not alone on its line", A->Loc);
  }
  if (P.BlockThreads + 32 > 1024)
    return declineAt(
        "a block of " + std::to_string(P.BlockThreads) +
            " threads leaves no room for the producer warp (1024 at most)",
        SourceLocation());
  for (const Stream &S : P.Streams)
    if (S.Halo || S.RingBytes == 0 ||
        S.ThreadStrideBytes != int64_t(S.ElemBytes))
      return declineAt(
          "stream " + S.Text +
              " is not one contiguous tile of the block per iteration (a halo, "
              "a "
              "shared tile or a thread stride other than one element)",
          S.Load->getBeginLoc());
  modifiedVars(Body, Ctx, Modified);
  if (std::optional<RewriteResult> No = checkLoopControl())
    return No;
  if (std::optional<RewriteResult> No = checkGuard())
    return No;
  if (!Tiles)
    for (const Stream &S : P.Streams)
      if (!S.Merged)
        return declineAt(
            "stream " + S.Text +
                " is not one contiguous copy per stage although the loop steps "
                "by blockDim.x",
            S.Load->getBeginLoc());
  if (std::optional<RewriteResult> No = checkStreams())
    return No;
  if (std::optional<RewriteResult> No = checkKernel())
    return No;
  for (const StreamGen &G : Streams)
    InLoop.push_back({beginOf(G.Load), endOf(G.Load),
                      "dd_s" + std::to_string(&G - Streams.data()) + "[dd_u]"});

  // The launches this file makes from host code; others keep the original
  // (support/LaunchRewriter.h).
  if (std::optional<LaunchProblem> No = Launcher.check())
    return declineAt(No->Message, No->Loc);
  append_range(Notes, Launcher.kept());
  if (Launcher.launches().empty())
    return declineAt("kernel '" + Name +
                         "' has no host launch in this file to replace",
                     K.getLocation());
  return std::nullopt;
}

TextEdit SplitRewrite::wholeLines(const Stmt *S) const {
  StringRef Buf = SM.getBufferData(SM.getMainFileID());
  unsigned Begin = beginOf(S), End = stmtEnd(S);
  const size_t LineBegin = lineBegin(Buf, Begin);
  size_t LineEnd = Buf.find('\n', End);
  if (Buf.slice(LineBegin, Begin).trim().empty() &&
      LineEnd != StringRef::npos && Buf.slice(End, LineEnd).trim().empty())
    return {unsigned(LineBegin), unsigned(LineEnd + 1), ""};
  return {Begin, End, ""};
}

std::string SplitRewrite::guarded(const std::string &LoopText,
                                  const std::vector<TextEdit> &Edits) const {
  StringRef Buf = SM.getBufferData(SM.getMainFileID());
  const unsigned IfBegin = beginOf(Guard);
  const std::string Indent =
      Buf.slice(lineBegin(Buf, IfBegin), IfBegin)
          .take_while([](char C) { return C == ' ' || C == '\t'; })
          .str();
  const std::pair<unsigned, unsigned> Cond = *fileRange(Guard->getCond());
  std::string Out =
      "// decoupler: the if around the loop, once; every consumer "
      "runs the loop, the\n" +
      Indent + "// threads that do not pass skip its body.\n" + Indent +
      "const bool dd_guard = " + edited(Cond.first, Cond.second, Edits) + ";\n";
  if (GuardThen) {
    std::string Before =
                    StringRef(edited(beginOf(GuardThen) + 1, LoopBegin, Edits))
                        .rtrim()
                        .str(),
                After =
                    StringRef(edited(LoopEnd,
                                     SM.getFileOffset(GuardThen->getRBracLoc()),
                                     Edits))
                        .rtrim()
                        .str();
    // Statements go under the guard; comments alone stay as they are.
    bool CodeBefore = false;
    for (const Stmt *S : GuardThen->body()) {
      if (S == Loop)
        break;
      CodeBefore |= S != IVDecl;
    }
    const bool CodeAfter = GuardThen->body_back() != Loop;
    if (CodeBefore)
      Out += Indent + "if (dd_guard) {" + Before + "\n" + Indent + "}\n";
    else if (!StringRef(Before).trim().empty())
      Out += Indent + StringRef(Before).ltrim().str() + "\n";
    Out += Indent + LoopText;
    if (CodeAfter)
      Out += "\n" + Indent + "if (dd_guard) {" + After + "\n" + Indent + "}";
    else if (!StringRef(After).trim().empty())
      Out += "\n" + Indent + StringRef(After).ltrim().str();
    return Out;
  }
  return Out + Indent + LoopText;
}

std::string SplitRewrite::guardCount() const {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "    // decoupler: the consumers that pass the if around the loop, a "
        "prefix of the block\n"
     << "    // (its conjuncts in order, each evaluated where the one before "
        "held for a thread).\n"
     << "    unsigned dd_guarded = dd_consumers;\n";
  for (const GuardTerm &T : GuardTerms) {
    if (!T.Index) {
      OS << "    if (dd_guarded != 0 && !(" << threadZero(T.Cond) << "))\n"
         << "      dd_guarded = 0;\n";
      continue;
    }
    OS << "    if (dd_guarded != 0)\n"
       << "      dd_guarded = dd::guard_prefix<" << T.Type << ">((" << T.Type
       << ")(" << threadZero(T.Index) << "), (" << T.Type << ")("
       << threadZero(T.Limit) << "), " << (T.Inclusive ? "true" : "false")
       << ", dd_guarded);\n";
  }
  return Out;
}

/// The trip count of a block (thread 0's iterations) as an expression of
/// the launcher's parameters, when the start and bound read parameters and
/// constants only.
std::string tripCount(const Expr *Start0, const Expr *Bound, const Expr *Step,
                      const std::string &Start0Text,
                      const std::string &BoundText) {
  for (const Expr *E : {Start0, Bound, Step}) {
    if (!E)
      continue;
    SmallVector<const DeclRefExpr *, 4> Refs;
    declRefs(E, Refs);
    SmallVector<std::pair<std::string, const Expr *>, 2> Reads;
    builtinReads(E, Reads);
    SmallVector<const CallExpr *, 2> Calls;
    callsIn(E, Calls);
    if (!Reads.empty() || !Calls.empty())
      return "";
    for (const DeclRefExpr *D : Refs) {
      const auto *V = dyn_cast<VarDecl>(D->getDecl());
      if (!isa<EnumConstantDecl>(D->getDecl()) &&
          !isa<ParmVarDecl>(D->getDecl()) &&
          !(V && !V->hasLocalStorage() && V->getType().isConstQualified()))
        return "";
    }
  }
  return "(long long)(" + BoundText + ") - (long long)(" + Start0Text + ")";
}

void SplitRewrite::emit() {
  const std::string U = std::to_string(P.U), D = std::to_string(P.Depth);
  const std::string Cap = std::to_string(P.U * P.BlockThreads);
  const std::string Line =
      std::to_string(SM.getExpansionLineNumber(Loop->getBeginLoc()));
  const std::string J = IV->getNameAsString();
  auto Cast = [&](const std::string &E) {
    return "(" + IVType + ")(" + E + ")";
  };
  // Merged: iteration u of a stage is thread t's j = dd_j0 + u * C + t and
  // reads element u * C + t of the stage's one tile. Tiles: iteration u is
  // i = dd_j0 + u * step for every thread, and thread t reads element t of
  // the stage's tile u.
  const std::string StepText = Tiles ? Step : "dd_consumers";
  const std::string Stride = U + " * " + Cast(StepText);
  const std::string Iter =
      Tiles ? "dd_j0 + " + Cast("dd_u") + " * " + Cast(StepText)
            : "dd_j0 + " + Cast("dd_u") + " * " + Cast("dd_consumers") + " + " +
                  Cast("threadIdx.x");

  // The consumers' loop, in place of the loop in the copy of the body; the
  // body re-indented from the loop's column to its new place.
  const bool Compound = isa<CompoundStmt>(Loop->getBody());
  const std::string Indent = Compound ? "        " : "          ";
  std::string LoopBody;
  {
    const unsigned Column =
        SM.getExpansionColumnNumber(Loop->getBeginLoc()) - 1;
    SmallVector<StringRef, 16> Lines;
    const std::string Raw =
        edited(beginOf(Loop->getBody()), stmtEnd(Loop->getBody()), InLoop);
    StringRef(Raw).split(Lines, '\n');
    for (size_t I = 0; I < Lines.size(); ++I) {
      StringRef L = Lines[I].rtrim();
      if (I > 0) {
        size_t Strip = 0;
        while (Strip < Column && Strip < L.size() && L[Strip] == ' ')
          ++Strip;
        L = L.drop_front(Strip);
        LoopBody += "\n" + (L.empty() ? std::string() : Indent + L.str());
      } else {
        LoopBody += L.str();
      }
    }
  }
  // Locals that only the streamed addresses read (directly, or through
  // other such locals) are now the producer's: the consumers' copy drops
  // their declarations. A `(void)v;` would not do: nvcc still warns that a
  // pointer so used was set but never used (#550), an error under -Werror.
  // addSlice took only declarations without calls or stores, so dropping
  // one drops no effect.
  SmallVector<const DeclRefExpr *, 16> BodyRefs;
  declRefs(Body, BodyRefs);
  SmallPtrSet<const Stmt *, 4> ProducerOnly;
  auto Within = [&](const DeclRefExpr *D, const Stmt *S) {
    return beginOf(D) >= beginOf(S) && beginOf(D) < stmtEnd(S);
  };
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const Stmt *S : Slice) {
      const auto *V = cast<VarDecl>(cast<DeclStmt>(S)->getSingleDecl());
      if (ProducerOnly.contains(S))
        continue;
      const bool Used = any_of(BodyRefs, [&](const DeclRefExpr *D) {
        return D->getDecl() == V && !Within(D, S) &&
               none_of(Streams,
                       [&](const StreamGen &G) {
                         return beginOf(D) >= beginOf(G.Load) &&
                                beginOf(D) < endOf(G.Load);
                       }) &&
               none_of(ProducerOnly,
                       [&](const Stmt *P) { return Within(D, P); });
      });
      if (!Used)
        Grew = ProducerOnly.insert(S).second;
    }
  }
  std::string C;
  raw_string_ostream CS(C);
  CS << "// decoupler: the loop, split: block-uniform stages of " << U
     << " iterations (thread 0's); every\n"
     << "  // consumer warp waits for and releases every stage, each lane runs "
        "the iterations\n"
     << "  // the loop as written gave it, reading the streamed elements from "
        "the stage.\n"
     << "  {\n"
     << "    dd::StageCursor<" << D << "> dd_c;\n"
     << "    for (" << IVType << " dd_j0 = " << Start0 << "; dd_j0 < " << Bound
     << "; dd_j0 += " << Stride << ", dd_c.advance()) {\n"
     << "      dd_ring.wait(dd_c);\n";
  for (const StreamGen &G : Streams)
    CS << "      " << G.Type << " dd_s" << (&G - Streams.data()) << "[" << U
       << "];\n";
  const std::string Pass = Guard ? "dd_guard && " : "";
  CS << "#pragma unroll\n"
     << "      for (int dd_u = 0; dd_u < " << U << "; ++dd_u)\n"
     << "        if (" << Pass << Iter << " < " << Bound << ") {\n";
  for (const StreamGen &G : Streams) {
    const std::string I = std::to_string(&G - Streams.data());
    CS << "          dd_s" << I << "[dd_u] = dd_stages[dd_c.slot].s" << I
       << (Tiles ? "[dd_u][threadIdx.x];\n"
                 : "[dd_u * dd_consumers + threadIdx.x];\n");
  }
  CS << "        }\n"
     << "      dd_ring.release(dd_c); // decoupler: the stage is in registers\n"
     << "#pragma unroll\n"
     << "      for (int dd_u = 0; dd_u < " << U << "; ++dd_u) {\n"
     << "        " << IVType << " " << J << " = " << Iter << ";\n"
     << "        if (" << Pass << J << " < " << Bound << ")"
     << (Compound ? " " : "\n" + Indent) << LoopBody << "\n"
     << "      }\n"
     << "    }\n"
     << "  }";

  std::vector<TextEdit> BodyEdits = Outer;
  if (PragmaInBody)
    BodyEdits.push_back({PragmaLine.first, PragmaLine.second, ""});
  if (IVDecl)
    BodyEdits.push_back(wholeLines(IVDecl));
  for (const Stmt *S : Slice) {
    if (!ProducerOnly.contains(S))
      continue;
    TextEdit E = wholeLines(S);
    const std::string Note =
        "decoupler: '" +
        cast<VarDecl>(cast<DeclStmt>(S)->getSingleDecl())->getNameAsString() +
        "' is the producer's (only streamed addresses read it)";
    StringRef Buf = SM.getBufferData(SM.getMainFileID());
    E.Text = E.Begin == beginOf(S)
                 ? "/* " + Note + " */"
                 : Buf.slice(E.Begin, beginOf(S)).str() + "// " + Note + "\n";
    BodyEdits.push_back(E);
  }
  if (Guard)
    BodyEdits.push_back(
        {beginOf(Guard), stmtEnd(Guard), guarded(C, BodyEdits)});
  else
    BodyEdits.push_back({LoopBegin, LoopEnd, C});
  const std::string Consumers = edited(
      beginOf(Body) + 1, SM.getFileOffset(Body->getRBracLoc()), BodyEdits);

  std::string Out;
  raw_string_ostream OS(Out);
  OS << "\n\n// decoupler: the split of '" << Name
     << "' (docs/split-pass.md): the loop at line " << Line << " streams\n// ";
  for (const StreamGen &G : Streams)
    OS << (&G == Streams.data() ? "" : ", ") << commentText(G.S->Text);
  OS << " through a ring of " << D << " stages of " << U
     << " iterations. One producer warp (the\n"
     << "// last) runs the loop control and copies; the consumer warps run the "
        "kernel as\n"
     << "// written (blockDim.x -> dd_consumers, __syncthreads() -> "
        "dd::consumer_sync) and\n"
     << "// read the stream from the ring. " << Name << "_launch picks it or "
     << Name << " per launch.\n";
  OS << "__global__ void __launch_bounds__(" << P.BlockThreads + 32 << ") "
     << Name << "_split(" << params() << ") {\n";
  OS << "  // decoupler: the ring; a stage holds " << U
     << " iterations of each stream"
     << (Tiles ? ", one tile each.\n" : " as one tile.\n")
     << "  struct dd_stage {\n";
  for (const StreamGen &G : Streams)
    OS << "    dd::TileSlot<" << G.Type << ", "
       << (Tiles ? std::to_string(P.BlockThreads) : Cap) << "> s"
       << (&G - Streams.data()) << (Tiles ? "[" + U + "]" : std::string())
       << "; // " << commentText(G.S->Text) << "\n";
  OS << "  };\n"
     << "  __shared__ dd::StageRing<" << D << ">::Storage dd_ring_storage;\n"
     << "  __shared__ dd_stage dd_stages[" << D << "];\n"
     << "  dd::StageRing<" << D << "> dd_ring(dd_ring_storage);\n"
     << "  // decoupler: launched with the original block + 32 threads ("
     << Name << "_launch).\n"
     << "  const unsigned dd_consumers = blockDim.x - 32;\n"
     << "  dd_ring.init(dd_consumers / 32);\n"
     << "  if (threadIdx.x >= dd_consumers) {\n"
     << "    // decoupler: the producer warp: the loop control and the "
        "streamed addresses\n"
     << "    // as thread 0 computes them; stage k copies iterations [" << U
     << "k, " << U << "k + " << U << ")\n";
  if (Tiles)
    OS << "    // of the loop, one tile of dd_consumers elements per stream "
          "and iteration.\n";
  else
    OS << "    // of every consumer, " << J << " in [dd_j0, dd_j0 + " << U
       << " * dd_consumers) clipped to the bound.\n";
  for (const Stmt *S : Slice)
    OS << "    " << threadZero(S) << "\n";
  if (Guard)
    OS << guardCount();
  OS << "    dd::StageCursor<" << D << "> dd_c;\n"
     << "    for (" << IVType << " dd_j0 = " << Start0 << "; dd_j0 < " << Bound
     << "; dd_j0 += " << Stride << ", dd_c.advance()) {\n"
     << "      dd_ring.acquire(dd_c);\n";
  if (Tiles) {
    OS << "      for (int dd_u = 0; dd_u < " << U << "; ++dd_u) {\n"
       << "        const " << IVType << " " << J << " = " << Iter << ";\n"
       << "        if (" << J << " < " << Bound << ") {\n";
    for (const StreamGen &G : Streams)
      OS << "          dd::copy_tile_async(dd_stages[dd_c.slot].s"
         << (&G - Streams.data()) << "[dd_u], " << G.Address << ", 0, "
         << (Guard ? "dd_guarded" : "dd_consumers")
         << ", dd_ring.full(dd_c));\n";
    OS << "        }\n"
       << "      }\n";
  } else {
    OS << "      const long long dd_left = (long long)(" << Bound
       << ") - (long long)dd_j0;\n"
       << "      const unsigned dd_count =\n"
       << (Guard ? "          dd_guarded == 0 ? 0u :\n" : "")
       << "          dd_left < " << U
       << "LL * dd_consumers ? (unsigned)dd_left : " << U
       << "u * dd_consumers;\n"
       << "      const " << IVType << " " << J << " = dd_j0;\n";
    for (const StreamGen &G : Streams)
      OS << "      dd::copy_tile_async(dd_stages[dd_c.slot].s"
         << (&G - Streams.data()) << ", " << G.Address
         << ", 0, dd_count, dd_ring.full(dd_c));\n";
  }
  OS << "      dd_ring.commit(dd_c);\n"
     << "    }\n"
     << "    return;\n"
     << "  }\n"
     << "  // decoupler: the consumer warps: the kernel as written.";
  OS << Consumers << "}\n\n";

  // The launcher.
  const std::string Trips =
      tripCount(Start0Expr, BoundExpr, StepExpr, Start0, Bound);
  OS << "/// decoupler: in place of " << Name
     << "<<<grid, block, shmem, stream>>>(...): runs " << Name << "_split\n"
     << "/// (block + 32 threads) where the launch-time checks pass "
        "(<dd/split_launch.h>)\n"
     << "/// and it measured faster, else " << Name << " as written.\n";
  OS << Launcher.definitionHead() << " {\n"
     << "  static dd::SplitLaunchState dd_state;\n";
  if (!Trips.empty())
    OS << "  // decoupler: iterations per block (thread 0's), for the minimum "
          "of "
       << P.MinTripCount << ".\n"
       << "  const long long dd_span = " << Trips << ";\n";
  if (!Trips.empty() && !Tiles)
    OS << "  const long long dd_trips =\n"
       << "      dd_span <= 0 || dd_block.x == 0 ? 0 : (dd_span + dd_block.x - "
          "1) / dd_block.x;\n";
  else if (!Trips.empty())
    OS << "  const long long dd_step = " << Step << ";\n"
       << "  const long long dd_trips =\n"
       << "      dd_step <= 0 ? -1 : dd_span <= 0 ? 0 : (dd_span + dd_step - "
          "1) / dd_step;\n";
  else
    OS << "  const long long dd_trips = -1; // decoupler: not known from the "
          "arguments\n";
  OS << "  dd::split_launch(\n"
     << "      dd_state, dd::SplitKernelInfo{\"" << Name << "\", "
     << P.BlockThreads << ", " << P.MinTripCount << "}, (const void *)" << Name
     << "_split,\n"
     << "      (const void *)" << Name
     << ", dd_grid, dd_block, dd_shmem, dd_stream, dd_trips,\n"
     << "      [&](dim3 dd_g, dim3 dd_b, size_t dd_s, cudaStream_t dd_st) {\n"
     << "        " << Name << "_split<<<dd_g, dd_b, dd_s, dd_st>>>("
     << Launcher.arguments() << ");\n"
     << "      },\n"
     << "      [&](dim3 dd_g, dim3 dd_b, size_t dd_s, cudaStream_t dd_st) {\n"
     << "        " << Name << "<<<dd_g, dd_b, dd_s, dd_st>>>("
     << Launcher.arguments() << ");\n"
     << "      });\n"
     << "}";

  // The original loses its annotation; the split and the launcher follow it.
  if (A && State.RemovedPragmas.insert(PragmaLine.first).second)
    R.RemoveText(SM.getLocForStartOfFile(SM.getMainFileID())
                     .getLocWithOffset(PragmaLine.first),
                 PragmaLine.second - PragmaLine.first);
  R.InsertTextAfterToken(K.getEndLoc(), Out);
  Launcher.rewrite(R);
}

RewriteResult SplitRewrite::run() {
  if (std::optional<RewriteResult> No = check())
    return *No;
  emit();
  State.Rewritten[K.getCanonicalDecl()] =
      SM.getExpansionLineNumber(Loop->getBeginLoc());
  State.NeedsRuntime = true;
  RewriteResult Out;
  Out.Done = true;
  Out.Message = Name + "_split (one producer warp, " + std::to_string(P.Depth) +
                " stages of " + std::to_string(P.U) + " iterations) and " +
                Name + "_launch for " +
                std::to_string(Launcher.launches().size()) + " launch" +
                (Launcher.launches().size() == 1 ? "" : "es");
  for (const std::string &N : Notes)
    Out.Message += "; " + N;
  return Out;
}

} // namespace

RewriteResult rewriteSplit(const LoopPlan &P, const KernelAnalysis &K,
                           const Annotation *A, ASTContext &Ctx, Rewriter &R,
                           RewriteState &State) {
  return SplitRewrite(P, K, A, Ctx, R, State).run();
}

} // namespace decoupler::split
