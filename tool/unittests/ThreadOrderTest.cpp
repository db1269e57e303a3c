//===- ThreadOrderTest.cpp - What may run after what in one thread --------===//

#include "support/ThreadOrder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <string>

using namespace clang;
using decoupler::ThreadOrder;

namespace {

/// A parsed function `f` whose calls to marker functions `a`, `b`, ... are
/// the points the tests ask about; `loop` is f's first loop, if any.
struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *F = nullptr;
  std::map<std::string, SourceLocation> Calls;
  const Stmt *FirstLoop = nullptr;

  explicit Parsed(const std::string &Body) {
    AST = tooling::buildASTFromCode("void a(); void b(); void c();\n"
                                    "#define CALL_C c()\n"
                                    "void f(int n) {\n" +
                                    Body + "\n}\n");
    struct Finder : RecursiveASTVisitor<Finder> {
      Parsed &P;
      explicit Finder(Parsed &P) : P(P) {}
      bool VisitFunctionDecl(FunctionDecl *D) {
        if (D->getName() == "f" && D->hasBody())
          P.F = D;
        return true;
      }
      bool VisitCallExpr(CallExpr *C) {
        if (const FunctionDecl *D = C->getDirectCallee())
          P.Calls[D->getNameAsString()] = C->getBeginLoc();
        return true;
      }
      bool VisitStmt(Stmt *S) {
        if (!P.FirstLoop && isa<ForStmt, WhileStmt, DoStmt>(S))
          P.FirstLoop = S;
        return true;
      }
    } Find(*this);
    Find.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  }

  ThreadOrder order() const {
    return ThreadOrder(F->getBody(), AST->getSourceManager());
  }
};

TEST(ThreadOrderTest, TextOrder) {
  Parsed P("a(); b();");
  ThreadOrder O = P.order();
  EXPECT_TRUE(O.mayRunAfter(P.Calls["a"], P.Calls["b"]));
  EXPECT_FALSE(O.mayRunAfter(P.Calls["b"], P.Calls["a"]));
}

TEST(ThreadOrderTest, LoopAroundBoth) {
  Parsed P("for (int i = 0; i < n; ++i) { a(); b(); }");
  EXPECT_TRUE(P.order().mayRunAfter(P.Calls["b"], P.Calls["a"]));
}

TEST(ThreadOrderTest, OuterLoopAroundBoth) {
  // The use stands in the outer loop, before the inner loop in the text:
  // the outer loop's next turn runs it after the inner loop's code.
  Parsed P("while (n--) { a(); for (int j = 0; j < n; ++j) { b(); } }");
  ThreadOrder O = P.order();
  EXPECT_TRUE(O.mayRunAfter(P.Calls["b"], P.Calls["a"]));
}

TEST(ThreadOrderTest, SeparateLoops) {
  Parsed P("for (int i = 0; i < n; ++i) a();\n"
           "for (int i = 0; i < n; ++i) b();");
  ThreadOrder O = P.order();
  EXPECT_FALSE(O.mayRunAfter(P.Calls["b"], P.Calls["a"]));
  EXPECT_TRUE(O.mayRunAfter(P.Calls["a"], P.Calls["b"]));
}

TEST(ThreadOrderTest, GotoAllowsAnything) {
  Parsed P("again: a(); b(); if (--n) goto again;");
  ThreadOrder O = P.order();
  EXPECT_TRUE(O.hasGoto());
  EXPECT_TRUE(O.mayRunAfter(P.Calls["b"], P.Calls["a"]));
}

TEST(ThreadOrderTest, AfterAStatement) {
  Parsed P("a(); for (int i = 0; i < n; ++i) b(); c();");
  ThreadOrder O = P.order();
  EXPECT_TRUE(O.mayRunAfter(P.FirstLoop, P.Calls["c"]));
  EXPECT_FALSE(O.mayRunAfter(P.FirstLoop, P.Calls["a"]));
  EXPECT_TRUE(O.within(P.Calls["b"], P.FirstLoop));
  EXPECT_FALSE(O.within(P.Calls["c"], P.FirstLoop));
}

TEST(ThreadOrderTest, BeforeALoop) {
  Parsed P("a(); while (n) { for (int i = 0; i < n; ++i) b(); c(); --n; }");
  ThreadOrder O = P.order();
  // The first loop found is the while; ask about the for inside it.
  const Stmt *Inner = nullptr;
  for (const Stmt *S : cast<WhileStmt>(P.FirstLoop)->getBody()->children())
    if (isa<ForStmt>(S))
      Inner = S;
  ASSERT_NE(Inner, nullptr);
  EXPECT_TRUE(O.mayRunBefore(P.Calls["a"], Inner));
  EXPECT_TRUE(O.mayRunBefore(P.Calls["b"], Inner));
  // After the inner loop, but the while runs it before the next turn.
  EXPECT_TRUE(O.mayRunBefore(P.Calls["c"], Inner));
}

TEST(ThreadOrderTest, NotBeforeALoop) {
  Parsed P("for (int i = 0; i < n; ++i) a(); b();");
  EXPECT_FALSE(P.order().mayRunBefore(P.Calls["b"], P.FirstLoop));
}

TEST(ThreadOrderTest, MacroCountsAtItsExpansion) {
  Parsed P("for (int i = 0; i < n; ++i) { CALL_C; a(); }");
  EXPECT_TRUE(P.order().mayRunAfter(P.Calls["a"], P.Calls["c"]));
  Parsed Q("b(); CALL_C;");
  EXPECT_TRUE(Q.order().mayRunAfter(Q.Calls["b"], Q.Calls["c"]));
  EXPECT_FALSE(Q.order().mayRunAfter(Q.Calls["c"], Q.Calls["b"]));
}

} // namespace
