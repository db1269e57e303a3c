//===- support/LineEndings.h - Inserted lines end as the file's do -*- C++
//-*-===//
//
// Passes write their text with '\n'. In a file whose lines end in "\r\n"
// (most of its line endings, the first one on a tie), every bare '\n' of the
// text the passes inserted becomes "\r\n"; the file's own text, mixed
// endings included, is left byte for byte as it was.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_LINEENDINGS_H
#define DECOUPLER_SUPPORT_LINEENDINGS_H

#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace decoupler {

/// Whether most line endings of \p Text are "\r\n" (on a tie, the first).
bool usesCRLF(llvm::StringRef Text);

/// Tells the file's own text from inserted text in a main-file rewrite.
/// Construct it before any pass edits \p R.
class InsertedLineEndings {
public:
  explicit InsertedLineEndings(clang::Rewriter &R);

  /// The rewritten main file, inserted line endings matching the file's.
  std::string text() const;

private:
  clang::Rewriter &R;
  llvm::StringRef Original;
  /// The copy of the original text that the rewrite buffer's rope keeps:
  /// pieces that point into it are the file's own text.
  const char *Copy = nullptr;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_LINEENDINGS_H
