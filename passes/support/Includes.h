//===- support/Includes.h - Adding runtime includes -------------*- C++ -*-===//
//
// Where a runtime header (<dd/atomics.cuh>, ...) goes in a rewritten file is
// decided with the preprocessor's and the AST's knowledge, not by looking
// for the text "#include": before the main file's first #include directive
// that is active (not in a skipped #if/#ifdef branch, not in a comment), not
// inside any conditional region, at file scope (not in `extern "C" {}`, a
// namespace or a function) and before every declaration of the file; when
// there is none, at the top of the file after a byte-order mark, leading
// comments and `#pragma once`.
//
// The pipeline records the directives while parsing (IncludeSites) and
// decides the place once the AST is known; passes add headers through the
// IncludeEditor of their PassContext.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_INCLUDES_H
#define DECOUPLER_SUPPORT_INCLUDES_H

#include "clang/AST/ASTContext.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <vector>

namespace decoupler {

/// The main file's #include directives as the preprocessor saw them.
class IncludeSites {
public:
  /// Callbacks that record into this object; it must outlive them.
  std::unique_ptr<clang::PPCallbacks> recorder(const clang::SourceManager &SM);

  /// The offset in the main file where runtime includes go (see the file
  /// comment), from the recorded directives and \p Ctx's declarations.
  unsigned insertionOffset(clang::ASTContext &Ctx) const;

  struct Directive {
    unsigned HashOffset;       // offset of the '#'
    unsigned ConditionalDepth; // #if/#ifdef/#ifndef regions around it
  };
  std::vector<Directive> Directives;
};

/// The offset at the top of \p Text where an include may go: after a UTF-8
/// byte-order mark, leading blank lines and comments, and `#pragma once`.
unsigned topOfFileOffset(llvm::StringRef Text);

/// Adds runtime includes to the main file of one rewrite, at the offset the
/// pipeline chose (IncludeSites::insertionOffset). One per file, handed to
/// the passes in their PassContext.
class IncludeEditor {
public:
  IncludeEditor(clang::Rewriter &R, unsigned Offset) : R(R), Offset(Offset) {}

  /// Makes the main file include `<Header>` (e.g. "dd/atomics.cuh"); nothing
  /// when the translation unit already includes it (as the preprocessor saw
  /// it: a disabled #include does not count) or it was added before.
  void ensure(llvm::StringRef Header);

private:
  clang::Rewriter &R;
  unsigned Offset;
  llvm::StringSet<> Added;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_INCLUDES_H
