//===- support/ThreadOrder.h - What may run after what in one thread -*- C++
//-*-//
//
// Three rules ask whether one piece of a kernel may run after another in
// the same thread: privatization (an update before a point that publishes
// to other blocks), the delegate pass (memory the section writes, read or
// published afterwards) and the split (a store or a wait before the loop's
// reads). They share this one conservative order, read off the text: code
// later in the text may run later, code in a loop may run after anything
// else in that loop (in a later iteration, through every loop around it),
// and a goto lets anything run after anything.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_THREADORDER_H
#define DECOUPLER_SUPPORT_THREADORDER_H

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include <vector>

namespace decoupler {

/// The order in which one thread may run the code of one function body.
/// Locations are in the body's text; code in a callee counts at its call.
class ThreadOrder {
public:
  /// Collects \p Body's loops and gotos once.
  ThreadOrder(const clang::Stmt *Body, const clang::SourceManager &SM);

  /// Whether the code at \p Later may run after the code at \p Earlier: it
  /// comes later in the text, or a loop holds both, or the body has a goto.
  bool mayRunAfter(clang::SourceLocation Earlier,
                   clang::SourceLocation Later) const;

  /// Whether code at \p Later, outside \p Earlier (a loop, a statement),
  /// may run after some of \p Earlier's: as above, from its last token.
  bool mayRunAfter(const clang::Stmt *Earlier,
                   clang::SourceLocation Later) const;

  /// Whether code at \p Loc may run before some of \p S's: it is in \p S,
  /// before it in the text, or in a loop around it (or the body has a
  /// goto).
  bool mayRunBefore(clang::SourceLocation Loc, const clang::Stmt *S) const {
    return mayRunAfter(Loc, end(S));
  }

  /// Whether \p Loc lies in \p S's text.
  bool within(clang::SourceLocation Loc, const clang::Stmt *S) const;

  /// Whether the body has a goto (then every order is possible).
  bool hasGoto() const { return Goto; }

private:
  clang::SourceLocation end(const clang::Stmt *S) const;
  bool inside(clang::SourceLocation Loc, clang::SourceRange R) const;

  const clang::SourceManager &SM;
  /// Every loop of the body, as the expansion range of its text.
  std::vector<clang::SourceRange> Loops;
  bool Goto = false;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_THREADORDER_H
