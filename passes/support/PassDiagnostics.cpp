//===- support/PassDiagnostics.cpp - What a pass tells the user -----------===//

#include "support/PassDiagnostics.h"

using namespace clang;

namespace decoupler {

void PassDiagnostics::remark(SourceLocation Loc, const llvm::Twine &Message) {
  LastShown = Remarks;
  if (!Remarks)
    return;
  unsigned ID =
      Diags.getCustomDiagID(DiagnosticsEngine::Remark, "%0 [-Rdecoupler]");
  Diags.Report(Loc, ID) << Message.str();
}

void PassDiagnostics::remarkAlways(SourceLocation Loc, const llvm::Twine &Message) {
  LastShown = true;
  unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Remark, "%0");
  Diags.Report(Loc, ID) << Message.str();
}

void PassDiagnostics::declined(SourceLocation Loc, const llvm::Twine &Message) {
  ++Declines;
  // Custom diagnostic IDs belong to no warning group, so the group's name is
  // part of the text and its flags are the tool's own options.
  switch (Declined) {
  case DeclinedSeverity::Ignore:
    remark(Loc, Message);
    return;
  case DeclinedSeverity::Warning: {
    LastShown = true;
    unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                        "%0 [-Wdecoupler-declined]");
    Diags.Report(Loc, ID) << Message.str();
    return;
  }
  case DeclinedSeverity::Error: {
    LastShown = true;
    unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                        "%0 [-Werror,-Wdecoupler-declined]");
    Diags.Report(Loc, ID) << Message.str();
    return;
  }
  }
}

void PassDiagnostics::error(SourceLocation Loc, const llvm::Twine &Message) {
  ++Errors;
  LastShown = true;
  unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  Diags.Report(Loc, ID) << Message.str();
}

void PassDiagnostics::note(SourceLocation Loc, const llvm::Twine &Message) {
  if (!LastShown)
    return;
  unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  Diags.Report(Loc, ID) << Message.str();
}

} // namespace decoupler
