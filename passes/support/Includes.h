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
// A function-like macro the file defines before that place (`#define
// max(a, b) ...`) would break the standard headers the runtime includes
// (`numeric_limits<T>::max()`), where the user's own includes did not: the
// runtime's includes are wrapped in `#pragma push_macro`, `#undef` and
// `#pragma pop_macro` for each such macro. Object-like macros stay defined:
// they configure headers (NDEBUG, CUB_..., the runtime's DD_...). Names the
// implementation reserves (`_X...`, `__...`) are the toolkit's, left alone.
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
#include <string>
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

  /// The function-like macros with unreserved names that are defined at
  /// \p Offset of the main file, by the main file's own #defines before it.
  std::vector<std::string> functionMacrosAt(unsigned Offset) const;

  struct Directive {
    unsigned HashOffset;       // offset of the '#'
    unsigned ConditionalDepth; // #if/#ifdef/#ifndef regions around it
  };
  std::vector<Directive> Directives;

  /// A #define or #undef of the main file, in order.
  struct MacroEvent {
    unsigned Offset;
    std::string Name;
    bool Defined;      // #define (else #undef)
    bool FunctionLike; // of a #define
  };
  std::vector<MacroEvent> Macros;
};

/// The offset at the top of \p Text where an include may go: after a UTF-8
/// byte-order mark, leading blank lines and comments, and `#pragma once`.
unsigned topOfFileOffset(llvm::StringRef Text);

/// Adds runtime includes to the main file of one rewrite, at the offset the
/// pipeline chose (IncludeSites::insertionOffset). One per file, handed to
/// the passes in their PassContext; the pipeline calls finish() once, after
/// the passes.
class IncludeEditor {
public:
  /// \p Sheltered: the macros to shelter the includes from
  /// (IncludeSites::functionMacrosAt).
  IncludeEditor(clang::Rewriter &R, unsigned Offset,
                std::vector<std::string> Sheltered = {})
      : R(R), Offset(Offset), Sheltered(std::move(Sheltered)) {}

  /// Makes the main file include `<Header>` (e.g. "dd/atomics.cuh"); nothing
  /// when the translation unit already includes it (as the preprocessor saw
  /// it: a disabled #include does not count) or it was added before.
  void ensure(llvm::StringRef Header);

  /// Writes the includes asked for, in the order asked, into the file.
  void finish();

private:
  clang::Rewriter &R;
  unsigned Offset;
  std::vector<std::string> Sheltered;
  llvm::StringSet<> Added;
  std::vector<std::string> Headers;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_INCLUDES_H
