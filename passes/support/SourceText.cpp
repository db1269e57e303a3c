//===- support/SourceText.cpp - Source facts the rewrite passes share -----===//

#include "support/SourceText.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

std::optional<std::pair<unsigned, unsigned>>
annotationLine(SourceLocation Loc, const SourceManager &SM) {
  SourceLocation L = SM.getExpansionLoc(Loc);
  if (!SM.isInMainFile(L))
    return std::nullopt;
  StringRef Buf = SM.getBufferData(SM.getFileID(L));
  unsigned Off = SM.getFileOffset(L);
  size_t Begin = Buf.rfind('\n', Off);
  Begin = Begin == StringRef::npos ? 0 : Begin + 1;
  size_t End = Buf.find('\n', Off);
  End = End == StringRef::npos ? Buf.size() : End + 1;
  StringRef Line = Buf.slice(Begin, End).trim();
  if (!(Line.starts_with("#") ||
        (Line.starts_with("DD_PRAGMA(") && Line.ends_with(")"))))
    return std::nullopt;
  return std::make_pair(unsigned(Begin), unsigned(End));
}

const FunctionDecl *enclosingFunction(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    if (const auto *FD = Parents[0].get<FunctionDecl>())
      return FD;
    if (const auto *P = Parents[0].get<Stmt>())
      Parents = Ctx.getParents(*P);
    else if (const auto *D = Parents[0].get<Decl>())
      Parents = Ctx.getParents(*D);
    else
      break;
  }
  return nullptr;
}

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

const Expr *loopCondition(const Stmt *S) {
  if (const auto *For = dyn_cast_or_null<ForStmt>(S))
    return For->getCond();
  if (const auto *While = dyn_cast_or_null<WhileStmt>(S))
    return While->getCond();
  if (const auto *Do = dyn_cast_or_null<DoStmt>(S))
    return Do->getCond();
  return nullptr;
}

const Stmt *loopBody(const Stmt *S) {
  if (const auto *For = dyn_cast_or_null<ForStmt>(S))
    return For->getBody();
  if (const auto *While = dyn_cast_or_null<WhileStmt>(S))
    return While->getBody();
  if (const auto *Do = dyn_cast_or_null<DoStmt>(S))
    return Do->getBody();
  return nullptr;
}

} // namespace decoupler
