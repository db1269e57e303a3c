//===- support/FunctionIndex.h - The function a location is in --*- C++ -*-===//
//
// Reports name the function of every decision (the `Function` of an
// optimization record) and show the source of the functions the analysis
// reports. Diagnostics only carry a location, so this index answers which
// function definition holds a location. Functions in system headers are not
// indexed: no pass decides anything there.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_FUNCTIONINDEX_H
#define DECOUPLER_SUPPORT_FUNCTIONINDEX_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"
#include <vector>

namespace decoupler {

class FunctionIndex {
public:
  explicit FunctionIndex(clang::ASTContext &Ctx);

  /// The innermost function definition whose text holds \p Loc (its
  /// expansion location); null when none does.
  const clang::FunctionDecl *enclosing(clang::SourceLocation Loc) const;
  /// enclosing(), or else the first function defined after \p Loc in its
  /// file: an annotation before a kernel belongs to that kernel.
  const clang::FunctionDecl *functionAt(clang::SourceLocation Loc) const;

private:
  struct Entry {
    clang::FileID File;
    unsigned Begin;
    unsigned End;
    const clang::FunctionDecl *Function;
  };
  const clang::SourceManager &SM;
  /// Sorted by file, then begin offset.
  std::vector<Entry> Entries;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_FUNCTIONINDEX_H
