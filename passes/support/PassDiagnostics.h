//===- support/PassDiagnostics.h - What a pass tells the user ---*- C++ -*-===//
//
// Passes speak through clang diagnostics so that users get carets and lit
// tests can FileCheck them: an error for what was asked (an annotation) and
// cannot be done, a warning for an annotated construct a pass leaves as
// written (as clang's -Wpass-failed for a requested loop transformation), a
// remark (-Rdecoupler) for what was done or left alone and why.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H
#define DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

namespace decoupler {

/// What becomes of the "annotated construct left as written" warning
/// (-Wdecoupler-declined, -Wno-decoupler-declined,
/// -Werror=decoupler-declined).
enum class DeclinedSeverity { Ignore, Warning, Error };

/// The warning group's name, as the command line spells it after -W.
constexpr llvm::StringLiteral DeclinedGroup = "decoupler-declined";

class PassDiagnostics {
public:
  /// Remarks are emitted only when \p Remarks (-Rdecoupler) is set.
  PassDiagnostics(clang::DiagnosticsEngine &Diags, bool Remarks,
                  DeclinedSeverity Declined = DeclinedSeverity::Warning)
      : Diags(Diags), Remarks(Remarks), Declined(Declined) {}

  void remark(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// A remark shown without -Rdecoupler: for a rewrite the user did not
  /// annotate (--delegate=auto), which must not happen silently.
  void remarkAlways(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// Something the user annotated is left as written: a warning in
  /// -Wdecoupler-declined (an error under -Werror=, a remark under
  /// -Rdecoupler when silenced with -Wno-).
  void declined(clang::SourceLocation Loc, const llvm::Twine &Message);
  void error(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// Attached to the diagnostic before it; dropped when that one was not
  /// shown.
  void note(clang::SourceLocation Loc, const llvm::Twine &Message);
  bool hadError() const { return Diags.hasErrorOccurred(); }
  /// Errors and "left as written" warnings reported through this object.
  unsigned errors() const { return Errors; }
  unsigned declines() const { return Declines; }

private:
  clang::DiagnosticsEngine &Diags;
  bool Remarks;
  DeclinedSeverity Declined;
  /// Whether the last diagnostic other than a note was shown.
  bool LastShown = true;
  unsigned Errors = 0;
  unsigned Declines = 0;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H
