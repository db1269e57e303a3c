//===- split/SplitRewrite.cpp - Code generation for accepted plans ---------===//

#include "split/SplitRewrite.h"
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

RewriteResult decline(std::string Why, SourceLocation Loc = SourceLocation()) {
  RewriteResult R;
  R.Message = std::move(Why);
  R.Loc = Loc;
  return R;
}

bool inMacro(SourceRange Range) {
  return Range.getBegin().isMacroID() || Range.getEnd().isMacroID();
}

/// The pointer parameter at the base of an lvalue or pointer expression: `a`
/// of a[i], *(a + i), a->f, &a[i]; null when it is not a parameter.
const ParmVarDecl *baseParam(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase();
    else if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase();
    else if (const auto *U = dyn_cast<UnaryOperator>(E);
             U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf))
      E = U->getSubExpr();
    else if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp())
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    else if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
      return P && P->getType()->isPointerType() ? P : nullptr;
    } else
      return nullptr;
  }
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

/// Pointer parameters that \p S stores through (assignments, increments,
/// atomic* calls), in order of first appearance.
SmallVector<const ParmVarDecl *, 4> storedParams(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SmallVector<const ParmVarDecl *, 4> Out;
    void add(const Expr *E) {
      if (!isMemoryLValue(E))
        return;
      if (const ParmVarDecl *P = baseParam(E); P && !is_contained(Out, P))
        Out.push_back(P);
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp())
        add(B->getLHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp())
        add(U->getSubExpr());
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      if (F && F->getIdentifier() && F->getName().starts_with("atomic") && C->getNumArgs() > 0)
        if (const ParmVarDecl *P = baseParam(C->getArg(0)); P && !is_contained(Out, P))
          Out.push_back(P);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Out;
}

/// The annotation's line, [begin, end) offsets in the main file with its
/// newline, when the directive is alone on it (`#pragma dd ...` or
/// DD_PRAGMA(...)).
std::optional<std::pair<unsigned, unsigned>> pragmaLine(const Annotation &A,
                                                        const SourceManager &SM) {
  SourceLocation L = SM.getExpansionLoc(A.Loc);
  if (!SM.isInMainFile(L))
    return std::nullopt;
  StringRef Buf = SM.getBufferData(SM.getFileID(L));
  unsigned Off = SM.getFileOffset(L);
  size_t Begin = Buf.rfind('\n', Off);
  Begin = Begin == StringRef::npos ? 0 : Begin + 1;
  size_t End = Buf.find('\n', Off);
  End = End == StringRef::npos ? Buf.size() : End + 1;
  StringRef Line = Buf.slice(Begin, End).trim();
  if (!(Line.starts_with("#") || (Line.starts_with("DD_PRAGMA(") && Line.ends_with(")"))))
    return std::nullopt;
  return std::make_pair(unsigned(Begin), unsigned(End));
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

/// Whether only blanks precede \p Loc on its line.
bool startsLine(SourceLocation Loc, const SourceManager &SM) {
  StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
  unsigned Off = SM.getFileOffset(Loc);
  size_t Begin = Buf.rfind('\n', Off ? Off - 1 : 0);
  Begin = Begin == StringRef::npos ? 0 : Begin + 1;
  return Buf.slice(Begin, Off).trim().empty();
}

std::string names(ArrayRef<const ParmVarDecl *> Params) {
  std::string S;
  for (size_t I = 0; I < Params.size(); ++I)
    S += (I ? ", " : "") + Params[I]->getNameAsString();
  return S;
}

} // namespace

RewriteResult rewriteHoist(const LoopPlan &P, const Annotation &A, ASTContext &Ctx,
                           Rewriter &R, RewriteState &State) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl &K = *P.Kernel;
  const Stmt *Loop = P.Loop;
  if (auto It = State.Rewritten.find(K.getCanonicalDecl()); It != State.Rewritten.end())
    return decline("kernel '" + K.getNameAsString() + "' was already rewritten for the loop "
                   "at line " + std::to_string(It->second) + " (one rewrite per kernel)");
  if (inMacro(Loop->getSourceRange()) || K.getLocation().isMacroID())
    return decline("the kernel or the loop is written through a macro");
  std::optional<std::pair<unsigned, unsigned>> Line = pragmaLine(A, SM);
  if (!Line)
    return decline("the annotation is not alone on its line, so it cannot be removed",
                   A.Loc);

  // The pointers the promise covers: the streamed arrays and every array the
  // loop stores through.
  SmallVector<const ParmVarDecl *, 4> Params;
  for (const Stream &S : P.Streams)
    if (const ParmVarDecl *Q = baseParam(cast<Expr>(S.Load)); Q && !is_contained(Params, Q))
      Params.push_back(Q);
  if (Params.empty())
    return decline("no streamed array is a pointer parameter of the kernel; __restrict__ "
                   "cannot be put on it");
  for (const ParmVarDecl *Q : storedParams(Loop))
    if (!is_contained(Params, Q))
      Params.push_back(Q);
  if (Params.size() < 2)
    return decline("the loop stores through no pointer parameter other than the streamed "
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
      return decline("parameter '" + Q->getNameAsString() + "' is written through a macro",
                     Q->getLocation());
    TypeLoc TL = Q->getTypeSourceInfo() ? Q->getTypeSourceInfo()->getTypeLoc() : TypeLoc();
    if (auto PTL = TL.getAsAdjusted<PointerTypeLoc>(); PTL && PTL.getStarLoc().isFileID()) {
      Edits.push_back({SourceRange(PTL.getStarLoc()), "__restrict__ ", true});
    } else {
      // `int A[]`: written as the pointer it is.
      std::string Type = Q->getType().getAsString(Policy);
      if (Q->getName().empty() || !StringRef(Type).ends_with("*"))
        return decline("cannot spell parameter '" + Q->getNameAsString() +
                           "' with __restrict__",
                       Q->getLocation());
      Edits.push_back({Q->getSourceRange(), Type + "__restrict__ " + Q->getNameAsString(), false});
    }
    Added.push_back(Q);
  }
  const bool Unroll = !hasUnrollPragma(Loop, Ctx);
  const bool LoopAnnotated = A.TargetStmt != nullptr;
  if (Unroll && !LoopAnnotated && !startsLine(Loop->getBeginLoc(), SM))
    return decline("the loop does not begin its line; '#pragma unroll 4' cannot be put "
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
      Buf.slice(Line->first, Line->second).take_while([](char C) { return C == ' ' || C == '\t'; }).str();
  const std::string Why = " // decoupler: rule 5, keep several loads in flight\n";
  if (State.RemovedPragmas.insert(Line->first).second) {
    if (Unroll && LoopAnnotated)
      R.ReplaceText(FileStart.getLocWithOffset(Line->first), Line->second - Line->first,
                    Indent + "#pragma unroll 4" + Why);
    else
      R.RemoveText(FileStart.getLocWithOffset(Line->first), Line->second - Line->first);
  }
  if (Unroll && !LoopAnnotated)
    R.InsertTextBefore(Loop->getBeginLoc(),
                       "#pragma unroll 4" + Why +
                           std::string(SM.getExpansionColumnNumber(Loop->getBeginLoc()) - 1, ' '));

  State.Rewritten[K.getCanonicalDecl()] = SM.getExpansionLineNumber(Loop->getBeginLoc());
  RewriteResult Out;
  Out.Done = true;
  Out.Message = "restrict/hoist rewrite (split-study.md rule 5) instead of a split: ";
  if (!Added.empty())
    Out.Message += "__restrict__ on " + names(Added) + " (the annotation promises that " +
                   names(Params) + " do not alias)";
  else
    Out.Message += names(Params) + " are already __restrict__";
  Out.Message += Unroll ? "; '#pragma unroll 4' on the loop"
                        : "; the loop's own unroll pragma kept";
  return Out;
}

RewriteResult rewriteSplit(const LoopPlan &P, const KernelAnalysis &, const Annotation &,
                           ASTContext &, Rewriter &, RewriteState &) {
  (void)P;
  return decline("code generation for the split is not implemented yet");
}

} // namespace decoupler::split
