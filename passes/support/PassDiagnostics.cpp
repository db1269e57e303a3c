//===- support/PassDiagnostics.cpp - What a pass tells the user -----------===//

#include "support/PassDiagnostics.h"
#include "support/FunctionIndex.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace decoupler {

StringRef toString(DecisionKind K) {
  switch (K) {
  case DecisionKind::Rewritten:
    return "rewritten";
  case DecisionKind::Refused:
    return "refused";
  case DecisionKind::Declined:
    return "declined";
  case DecisionKind::Unchanged:
    return "unchanged";
  case DecisionKind::Classified:
    return "classified";
  }
  llvm_unreachable("bad decision kind");
}

void PassDiagnostics::recordInto(std::vector<Decision> &Into,
                                 const FunctionIndex &Index) {
  Log = &Into;
  Functions = &Index;
}

template <unsigned N>
void PassDiagnostics::show(SourceLocation Loc, DiagnosticsEngine::Level Level,
                           const char (&Format)[N],
                           const std::string &Message) {
  LastShown = !Silent;
  if (Silent)
    return;
  unsigned ID = Diags.getCustomDiagID(Level, Format);
  Diags.Report(Loc, ID) << Message;
}

DecisionLocation PassDiagnostics::locate(SourceLocation Loc) const {
  DecisionLocation Out;
  if (Loc.isInvalid())
    return Out;
  // Where clang's diagnostics point: the presumed position of the expansion
  // location (as affine/AffineAnalysis's toPosition()).
  const SourceManager &SM = Diags.getSourceManager();
  SourceLocation Exp = SM.getExpansionLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(Exp);
  if (P.isInvalid())
    return Out;
  Out.File = P.getFilename();
  Out.InMainFile = SM.isWrittenInMainFile(Exp);
  Out.Pos = {P.getLine(), P.getColumn()};
  return Out;
}

void PassDiagnostics::record(DecisionKind Kind, StringRef Name,
                             SourceLocation Loc, const std::string &Message) {
  if (!Log)
    return;
  Decision D;
  D.Kind = Kind;
  D.Pass = Pass;
  D.Name = Name.str();
  D.Loc = locate(Loc);
  if (const FunctionDecl *FD = Functions->functionAt(Loc))
    D.Function = FD->getNameAsString();
  D.Message = Message;
  Log->push_back(std::move(D));
}

void PassDiagnostics::rewritten(SourceLocation Loc, const llvm::Twine &Message,
                                bool Always) {
  std::string Text = Message.str();
  record(DecisionKind::Rewritten, "Rewritten", Loc, Text);
  if (Always)
    show(Loc, DiagnosticsEngine::Remark, "%0", Text);
  else if (Remarks)
    show(Loc, DiagnosticsEngine::Remark, "%0 [-Rdecoupler]", Text);
  else
    LastShown = false;
}

void PassDiagnostics::remark(SourceLocation Loc, const llvm::Twine &Message) {
  std::string Text = Message.str();
  record(DecisionKind::Unchanged, "Unchanged", Loc, Text);
  if (Remarks)
    show(Loc, DiagnosticsEngine::Remark, "%0 [-Rdecoupler]", Text);
  else
    LastShown = false;
}

void PassDiagnostics::declined(SourceLocation Loc, const llvm::Twine &Message) {
  ++Declines;
  std::string Text = Message.str();
  record(DecisionKind::Declined, "Declined", Loc, Text);
  // Custom diagnostic IDs belong to no warning group, so the group's name is
  // part of the text and its flags are the tool's own options.
  switch (Declined) {
  case DeclinedSeverity::Ignore:
    if (Remarks)
      show(Loc, DiagnosticsEngine::Remark, "%0 [-Rdecoupler]", Text);
    else
      LastShown = false;
    return;
  case DeclinedSeverity::Warning:
    show(Loc, DiagnosticsEngine::Warning, "%0 [-Wdecoupler-declined]", Text);
    return;
  case DeclinedSeverity::Error:
    show(Loc, DiagnosticsEngine::Error, "%0 [-Werror,-Wdecoupler-declined]",
         Text);
    return;
  }
}

void PassDiagnostics::error(SourceLocation Loc, const llvm::Twine &Message) {
  ++Errors;
  std::string Text = Message.str();
  record(DecisionKind::Refused, "Refused", Loc, Text);
  SilentError |= Silent;
  show(Loc, DiagnosticsEngine::Error, "%0", Text);
}

void PassDiagnostics::note(SourceLocation Loc, const llvm::Twine &Message) {
  std::string Text = Message.str();
  if (Log && !Log->empty())
    Log->back().Notes.push_back({locate(Loc), Text});
  if (!LastShown)
    return;
  unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  Diags.Report(Loc, ID) << Text;
}

void PassDiagnostics::classified(SourceLocation Loc, ValueClass Class,
                                 bool Branch, const llvm::Twine &Message) {
  if (!Remarks)
    return;
  std::string Text = Message.str();
  // ScalarAccess, AffineBranch, NonAffineAccess, ...
  static const char *const Names[] = {"Scalar", "Affine", "NonAffine"};
  std::string Name = std::string(Names[static_cast<unsigned>(Class)]) +
                     (Branch ? "Branch" : "Access");
  record(DecisionKind::Classified, Name, Loc, Text);
  show(Loc, DiagnosticsEngine::Remark, "%0 [-Rdecoupler-affine]", Text);
}

} // namespace decoupler
