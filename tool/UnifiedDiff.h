//===- UnifiedDiff.h - Unified diffs of two texts ---------------*- C++ -*-===//
//
// `--diff` prints what the rewrite would change in the format of `diff -u`
// and `git diff`, so that it can be reviewed and applied with `patch -p1` or
// `git apply`.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_UNIFIEDDIFF_H
#define DECOUPLER_TOOL_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace decoupler::tool {

/// The unified diff from \p Old to \p New, line by line (a minimal edit
/// script, Myers' algorithm), headed `--- a/<Label>` and `+++ b/<Label>`,
/// with \p Context lines of context around each change. Empty when the texts
/// are equal.
std::string unifiedDiff(llvm::StringRef Old, llvm::StringRef New,
                        llvm::StringRef Label, unsigned Context = 3);

/// For each line of \p New (split after '\n'), the index of the line of
/// \p Old it is, or -1 for a line the edit changed or added; from the same
/// minimal edit script as unifiedDiff(). Inside a block of changes where as
/// many lines were deleted as inserted, each new line is paired with the old
/// line it replaced (a line the rewrite edited in place).
std::vector<long> matchLines(llvm::StringRef Old, llvm::StringRef New);

/// The name under which --diff shows \p Path: relative to the current
/// directory when inside it (so that `git apply` and `patch -p1` work from
/// there), never starting with `/`.
std::string diffLabel(llvm::StringRef Path);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_UNIFIEDDIFF_H
