//===- support/Barriers.cpp - Returns and block barriers in code ---------===//

#include "support/Barriers.h"
#include "support/Callees.h"
#include "support/CudaFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

std::vector<const ReturnStmt *> returnsOf(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const ReturnStmt *> Out;
    // A lambda's or a local class's functions return from themselves.
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool TraverseDecl(Decl *D) {
      return isa_and_nonnull<FunctionDecl>(D) ||
             RecursiveASTVisitor::TraverseDecl(D);
    }
    bool VisitReturnStmt(ReturnStmt *R) {
      Out.push_back(R);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Out;
}

const ReturnStmt *firstReturn(const Stmt *Body) {
  std::vector<const ReturnStmt *> All = returnsOf(Body);
  return All.empty() ? nullptr : All.front();
}

std::optional<BarrierSite>
findBarrier(const Stmt *Body, SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SmallPtrSetImpl<const FunctionDecl *> &Seen;
    std::optional<BarrierSite> Found;
    explicit Finder(SmallPtrSetImpl<const FunctionDecl *> &Seen) : Seen(Seen) {}
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = calledFunction(C);
      if (cudaSync(C) == SyncKind::Barrier) {
        Found = BarrierSite{
            C->getBeginLoc(),
            "synchronizes its block ('" +
                (F ? F->getNameAsString() : std::string("sync")) + "')",
            {}};
      } else if (!F) {
        if (dispatchedAtRunTime(C))
          Found = BarrierSite{C->getBeginLoc(),
                              "makes a virtual call decided at run time, "
                              "whose overrider may synchronize its block",
                              {}};
        else if (!isa<CXXPseudoDestructorExpr>(
                     C->getCallee()->IgnoreParenImpCasts()))
          Found = BarrierSite{
              C->getBeginLoc(),
              "calls a function through a pointer, which may synchronize its "
              "block",
              {}};
      } else if (!isCudaFunction(F) && !F->getBuiltinID()) {
        const FunctionDecl *Def = nullptr;
        if (!F->hasBody(Def))
          Found = BarrierSite{
              C->getBeginLoc(),
              "calls '" + F->getNameAsString() +
                  "', which has no body in this file and may synchronize its "
                  "block",
              {}};
        else if (Seen.insert(Def).second)
          if (std::optional<BarrierSite> In = findBarrier(Def->getBody(), Seen))
            Found = BarrierSite{C->getBeginLoc(),
                                "calls '" + F->getNameAsString() + "', which " +
                                    StringRef(In->What).str(),
                                In->Inner.isValid() ? In->Inner : In->Loc};
      }
      return !Found;
    }
  } F(Seen);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

std::vector<std::pair<SourceLocation, std::string>>
publishingPoints(const Stmt *Body, SmallPtrSetImpl<const FunctionDecl *> &Seen,
                 bool First) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SmallPtrSetImpl<const FunctionDecl *> &Seen;
    bool First;
    std::vector<std::pair<SourceLocation, std::string>> Found;
    Finder(SmallPtrSetImpl<const FunctionDecl *> &Seen, bool First)
        : Seen(Seen), First(First) {}
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = calledFunction(C);
      if (!F) {
        // What it reaches is decided at run time: it may publish.
        if (dispatchedAtRunTime(C))
          Found.push_back({C->getBeginLoc(), "a virtual call"});
        else if (!isa<CXXPseudoDestructorExpr>(
                     C->getCallee()->IgnoreParenImpCasts()))
          Found.push_back({C->getBeginLoc(), "a call through a pointer"});
        return !First || Found.empty();
      }
      const std::string Name = callName(C);
      const FunctionDecl *Def = nullptr;
      if (ordersForOtherBlocks(C))
        Found.push_back({C->getBeginLoc(), Name + "()"});
      else if (F->hasBody(Def) && Seen.insert(Def).second)
        if (auto Inner = publishingPoints(Def->getBody(), Seen, true);
            !Inner.empty())
          Found.push_back({C->getBeginLoc(), "'" + Name + "', which reaches " +
                                                 Inner.front().second});
      return !First || Found.empty();
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *S) {
      const std::string Text = S->getAsmString();
      if ((Text.find("membar") != std::string::npos ||
           Text.find("fence") != std::string::npos) &&
          Text.find(".cta") == std::string::npos)
        Found.push_back({S->getBeginLoc(), "a fence in inline assembly"});
      return !First || Found.empty();
    }
  } F(Seen, First);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

} // namespace decoupler
