//===- support/FunctionIndex.cpp - The function a location is in ----------===//

#include "support/FunctionIndex.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include <tuple>

using namespace clang;

namespace decoupler {

namespace {

/// Every function definition outside system headers. Bodies are not walked:
/// only declarations can define functions the index names.
struct Collector : RecursiveASTVisitor<Collector> {
  explicit Collector(const SourceManager &SM) : SM(SM) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldWalkTypesOfTypeLocs() const { return false; }
  bool TraverseStmt(Stmt *, DataRecursionQueue * = nullptr) { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D)) {
      SourceLocation Loc = D->getLocation();
      if (Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
        return true;
    }
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Found.push_back(FD);
    return true;
  }

  const SourceManager &SM;
  std::vector<const FunctionDecl *> Found;
};

} // namespace

FunctionIndex::FunctionIndex(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {
  Collector C(SM);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *FD : C.Found) {
    auto [BeginFile, Begin] =
        SM.getDecomposedLoc(SM.getExpansionLoc(FD->getBeginLoc()));
    auto [EndFile, End] =
        SM.getDecomposedLoc(SM.getExpansionRange(FD->getEndLoc()).getEnd());
    if (BeginFile.isInvalid() || BeginFile != EndFile || End < Begin)
      continue;
    Entries.push_back({BeginFile, Begin, End, FD});
  }
  llvm::sort(Entries, [](const Entry &A, const Entry &B) {
    return std::make_tuple(A.File, A.Begin, A.End) <
           std::make_tuple(B.File, B.Begin, B.End);
  });
}

const FunctionDecl *FunctionIndex::enclosing(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return nullptr;
  auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  const Entry *Best = nullptr;
  for (const Entry &E : Entries) {
    if (E.File != File || E.Begin > Offset)
      continue;
    if (Offset <= E.End && (!Best || E.End - E.Begin < Best->End - Best->Begin))
      Best = &E;
  }
  return Best ? Best->Function : nullptr;
}

const FunctionDecl *FunctionIndex::functionAt(SourceLocation Loc) const {
  if (const FunctionDecl *FD = enclosing(Loc))
    return FD;
  if (Loc.isInvalid())
    return nullptr;
  auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  for (const Entry &E : Entries)
    if (E.File == File && E.Begin > Offset)
      return E.Function;
  return nullptr;
}

} // namespace decoupler
