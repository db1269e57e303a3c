//===- support/ThreadOrder.cpp - What may run after what in one thread ----===//

#include "support/ThreadOrder.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace decoupler {

ThreadOrder::ThreadOrder(const Stmt *Body, const SourceManager &SM) : SM(SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    std::vector<SourceRange> &Loops;
    bool &Goto;
    Finder(const SourceManager &SM, std::vector<SourceRange> &Loops, bool &Goto)
        : SM(SM), Loops(Loops), Goto(Goto) {}
    bool VisitStmt(Stmt *S) {
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
        Loops.push_back({SM.getExpansionLoc(S->getBeginLoc()),
                         SM.getExpansionRange(S->getEndLoc()).getEnd()});
      Goto |= isa<GotoStmt, IndirectGotoStmt>(S);
      return true;
    }
  } F(SM, Loops, Goto);
  if (Body)
    F.TraverseStmt(const_cast<Stmt *>(Body));
}

SourceLocation ThreadOrder::end(const Stmt *S) const {
  return SM.getExpansionRange(S->getEndLoc()).getEnd();
}

bool ThreadOrder::inside(SourceLocation Loc, SourceRange R) const {
  return !SM.isBeforeInTranslationUnit(Loc, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), Loc);
}

bool ThreadOrder::within(SourceLocation Loc, const Stmt *S) const {
  return inside(SM.getExpansionLoc(Loc),
                {SM.getExpansionLoc(S->getBeginLoc()), end(S)});
}

bool ThreadOrder::mayRunAfter(SourceLocation Earlier,
                              SourceLocation Later) const {
  Earlier = SM.getExpansionLoc(Earlier);
  Later = SM.getExpansionLoc(Later);
  if (Goto || SM.isBeforeInTranslationUnit(Earlier, Later))
    return true;
  return llvm::any_of(Loops, [&](SourceRange R) {
    return inside(Earlier, R) && inside(Later, R);
  });
}

bool ThreadOrder::mayRunAfter(const Stmt *Earlier, SourceLocation Later) const {
  return mayRunAfter(end(Earlier), Later);
}

} // namespace decoupler
