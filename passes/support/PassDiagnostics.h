//===- support/PassDiagnostics.h - What a pass tells the user ---*- C++ -*-===//
//
// Passes speak through clang diagnostics so that users get carets and lit
// tests can FileCheck them: an error for what was asked (an annotation) and
// cannot be done, a warning for an annotated construct a pass leaves as
// written (as clang's -Wpass-failed for a requested loop transformation), a
// remark (-Rdecoupler) for what was done or left alone and why.
//
// Each of these is also a decision (support/Decision.h) that can be recorded,
// shown or not, for the reports (--report=html, --remarks-output); a silenced
// instance only records (the rewrite passes' scratch run under --analyze).
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H
#define DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H

#include "affine/Report.h"
#include "support/Decision.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <string>
#include <vector>

namespace decoupler {

class FunctionIndex;

/// What becomes of the "annotated construct left as written" warning
/// (-Wdecoupler-declined, -Wno-decoupler-declined,
/// -Werror=decoupler-declined).
enum class DeclinedSeverity { Ignore, Warning, Error };

/// The warning group's name, as the command line spells it after -W.
constexpr llvm::StringLiteral DeclinedGroup = "decoupler-declined";

class PassDiagnostics {
public:
  /// Remarks are emitted only when \p Remarks (-Rdecoupler, or
  /// -Rdecoupler-affine for classified()) is set.
  PassDiagnostics(clang::DiagnosticsEngine &Diags, bool Remarks,
                  DeclinedSeverity Declined = DeclinedSeverity::Warning)
      : Diags(Diags), Remarks(Remarks), Declined(Declined) {}

  /// Also appends every decision, shown or not, to \p Log; \p Functions
  /// names the function of each.
  void recordInto(std::vector<Decision> &Log, const FunctionIndex &Functions);
  /// Emits nothing from now on; decisions are still recorded.
  void silence() { Silent = true; }
  /// The pass whose decisions follow (recorded, not shown).
  void setPass(llvm::StringRef Name) { Pass = Name.str(); }

  /// The pass changed the code: a remark under -Rdecoupler, or always when
  /// \p Always (a rewrite the user did not annotate, --delegate=auto, must
  /// not happen silently).
  void rewritten(clang::SourceLocation Loc, const llvm::Twine &Message,
                 bool Always = false);
  /// Left as written, not asked for: a remark under -Rdecoupler saying why.
  void remark(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// Something the user annotated is left as written: a warning in
  /// -Wdecoupler-declined (an error under -Werror=, a remark under
  /// -Rdecoupler when silenced with -Wno-).
  void declined(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// What was asked cannot be done: an error (a refusal).
  void error(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// Attached to the diagnostic before it; dropped when that one was not
  /// shown (always kept with its recorded decision).
  void note(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// -Rdecoupler-affine: the class of an access (or of a branch condition
  /// when \p Branch), a remark when Remarks is set.
  void classified(clang::SourceLocation Loc, ValueClass Class, bool Branch,
                  const llvm::Twine &Message);
  /// Whether an error was reported (recorded, when silenced).
  bool hadError() const { return Diags.hasErrorOccurred() || SilentError; }
  /// Errors and "left as written" warnings reported through this object
  /// (also when silenced): for --stats.
  unsigned errors() const { return Errors; }
  unsigned declines() const { return Declines; }

private:
  /// Shows \p Message at \p Loc with \p Level unless silenced.
  /// (Custom diagnostic IDs take their format as a literal.)
  template <unsigned N>
  void show(clang::SourceLocation Loc, clang::DiagnosticsEngine::Level Level,
            const char (&Format)[N], const std::string &Message);
  void record(DecisionKind Kind, llvm::StringRef Name,
              clang::SourceLocation Loc, const std::string &Message);
  DecisionLocation locate(clang::SourceLocation Loc) const;

  clang::DiagnosticsEngine &Diags;
  bool Remarks;
  DeclinedSeverity Declined;
  bool Silent = false;
  bool SilentError = false;
  std::string Pass;
  std::vector<Decision> *Log = nullptr;
  const FunctionIndex *Functions = nullptr;
  /// Whether the last diagnostic other than a note was shown.
  bool LastShown = true;
  unsigned Errors = 0;
  unsigned Declines = 0;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H
