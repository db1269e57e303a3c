//===- MemoryRootsTest.cpp - What a call may write and read ---------------===//

#include "support/MemoryRoots.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace clang;
using namespace decoupler;

namespace {

/// Code whose function `k` makes the call (or construction) the tests ask
/// about, its first one.
struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  const Expr *Site = nullptr;
  const Stmt *Body = nullptr; // k's

  explicit Parsed(const std::string &Code) {
    AST = tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"});
    struct Finder : RecursiveASTVisitor<Finder> {
      Parsed &P;
      explicit Finder(Parsed &P) : P(P) {}
      bool TraverseFunctionDecl(FunctionDecl *D) {
        if (D->getName() == "k" && D->hasBody())
          P.Body = D->getBody();
        return true;
      }
      bool InK = false;
      bool VisitCallExpr(CallExpr *C) {
        if (InK && !P.Site)
          P.Site = C;
        return true;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr *C) {
        if (InK && !P.Site)
          P.Site = C;
        return true;
      }
    } Find(*this);
    Find.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
    Find.InK = true;
    if (Body)
      Find.TraverseStmt(const_cast<Stmt *>(Body));
  }

  /// The global named \p Name.
  const VarDecl *global(StringRef Name) const {
    for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && V->getName() == Name)
        return V;
    return nullptr;
  }
};

TEST(MemoryRootsTest, CalleeWritesAGlobal) {
  Parsed P("int t[8]; void g(int i) { t[i] = 1; } void f(int i) { g(i); }\n"
           "void k() { f(1); }");
  ASSERT_TRUE(P.Site);
  MemoryRootSet W = writtenByCallee(P.Site);
  EXPECT_FALSE(W.Unknown);
  EXPECT_TRUE(W.Vars.contains(P.global("t")));
  EXPECT_TRUE(readByCallee(P.Site).Vars.contains(P.global("t")));
}

TEST(MemoryRootsTest, NoBodyTwoCallsDeep) {
  // g is defined in another file (relocatable device code).
  Parsed P("void g(int); void f(int i) { g(i); } void k() { f(1); }");
  ASSERT_TRUE(P.Site);
  EXPECT_TRUE(writtenByCallee(P.Site).Unknown);
  EXPECT_TRUE(readByCallee(P.Site).Unknown);
}

TEST(MemoryRootsTest, PointerCallTwoCallsDeep) {
  Parsed P("int t[8]; void bump(int i) { t[i] += 1; }\n"
           "void (*hook)(int) = bump; void f(int i) { hook(i); }\n"
           "void k() { f(1); }");
  ASSERT_TRUE(P.Site);
  EXPECT_TRUE(writtenByCallee(P.Site).Unknown);
  EXPECT_TRUE(readByCallee(P.Site).Unknown);
}

TEST(MemoryRootsTest, WritesOnlyItsParameters) {
  Parsed P("int t[8]; void f(int *p) { p[0] = t[1]; } void k() { f(t); }");
  ASSERT_TRUE(P.Site);
  // Through the argument is the caller's to add (writtenThroughArguments).
  EXPECT_TRUE(writtenByCallee(P.Site).empty());
  MemoryRootSet R = readByCallee(P.Site);
  EXPECT_FALSE(R.Unknown);
  EXPECT_TRUE(R.Vars.contains(P.global("t")));
}

TEST(MemoryRootsTest, GlobalStructOfPointersReadsAnything) {
  Parsed P("struct View { int *p; }; View view;\n"
           "int f(int b) { return view.p[b]; } void k() { f(1); }");
  ASSERT_TRUE(P.Site);
  EXPECT_TRUE(readByCallee(P.Site).Unknown);
}

TEST(MemoryRootsTest, ConstructorReadsAGlobal) {
  Parsed P("int total; struct S { int v; S() : v(total) {} };\n"
           "void k() { S s; (void)s; }");
  ASSERT_TRUE(P.Site);
  ASSERT_TRUE(isa<CXXConstructExpr>(P.Site));
  MemoryRootSet R = readByCallee(P.Site);
  EXPECT_FALSE(R.Unknown);
  EXPECT_TRUE(R.Vars.contains(P.global("total")));
}

TEST(MemoryRootsTest, TrivialConstructorReachesNothing) {
  Parsed P("struct Pair { int a, b; }; void k() { Pair p; (void)p; }");
  ASSERT_TRUE(P.Site);
  ASSERT_TRUE(isa<CXXConstructExpr>(P.Site));
  EXPECT_TRUE(writtenByCallee(P.Site).empty());
  EXPECT_TRUE(readByCallee(P.Site).empty());
}

TEST(MemoryRootsTest, HoldsPointers) {
  Parsed P("struct Plain { int a; float b[4]; };\n"
           "struct View { int *p; }; struct Outer { View v[2]; };\n"
           "struct Ref { int &r; }; struct Derived : View {};\n"
           "Plain plain; Outer outer; Derived derived; int *ptrs[2];\n"
           "void k() {}");
  EXPECT_FALSE(holdsPointers(P.global("plain")->getType()));
  EXPECT_TRUE(holdsPointers(P.global("outer")->getType()));
  EXPECT_TRUE(holdsPointers(P.global("derived")->getType()));
  EXPECT_TRUE(holdsPointers(P.global("ptrs")->getType()));
}

} // namespace
