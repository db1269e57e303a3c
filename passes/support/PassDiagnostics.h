//===- support/PassDiagnostics.h - What a pass tells the user ---*- C++ -*-===//
//
// Passes speak through clang diagnostics so that users get carets and lit
// tests can FileCheck them: an error for what was asked (an annotation) and
// cannot be done, a remark (-Rdecoupler) for what was done or left alone and
// why.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H
#define DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/Twine.h"

namespace decoupler {

class PassDiagnostics {
public:
  /// Remarks are emitted only when \p Remarks (-Rdecoupler) is set.
  PassDiagnostics(clang::DiagnosticsEngine &Diags, bool Remarks)
      : Diags(Diags), Remarks(Remarks) {}

  void remark(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// A remark shown without -Rdecoupler: for a rewrite the user did not
  /// annotate (--delegate=auto), which must not happen silently.
  void remarkAlways(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// What was not done although the user asked for it (a rewrite mode):
  /// shown by default.
  void warning(clang::SourceLocation Loc, const llvm::Twine &Message);
  void error(clang::SourceLocation Loc, const llvm::Twine &Message);
  void note(clang::SourceLocation Loc, const llvm::Twine &Message);
  bool hadError() const { return Diags.hasErrorOccurred(); }

private:
  clang::DiagnosticsEngine &Diags;
  bool Remarks;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_PASSDIAGNOSTICS_H
