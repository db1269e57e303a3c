//===- support/PassDiagnostics.cpp - What a pass tells the user -----------===//

#include "support/PassDiagnostics.h"

using namespace clang;

namespace decoupler {

void PassDiagnostics::remark(SourceLocation Loc, const llvm::Twine &Message) {
  if (!Remarks)
    return;
  unsigned ID =
      Diags.getCustomDiagID(DiagnosticsEngine::Remark, "%0 [-Rdecoupler]");
  Diags.Report(Loc, ID) << Message.str();
}

void PassDiagnostics::remarkAlways(SourceLocation Loc, const llvm::Twine &Message) {
  unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Remark, "%0");
  Diags.Report(Loc, ID) << Message.str();
}

void PassDiagnostics::warning(SourceLocation Loc, const llvm::Twine &Message) {
  unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
  Diags.Report(Loc, ID) << Message.str();
}

void PassDiagnostics::error(SourceLocation Loc, const llvm::Twine &Message) {
  unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  Diags.Report(Loc, ID) << Message.str();
}

void PassDiagnostics::note(SourceLocation Loc, const llvm::Twine &Message) {
  unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  Diags.Report(Loc, ID) << Message.str();
}

} // namespace decoupler
