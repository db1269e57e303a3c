//===- support/DeviceView.cpp - Is a function the same code on the GPU? ---===//

#include "support/DeviceView.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

class TokenRecorder : public PreprocessorFrontendAction {
public:
  explicit TokenRecorder(SideTokens &Out) : Out(Out) {}

protected:
  void ExecuteAction() override {
    Preprocessor &PP = getCompilerInstance().getPreprocessor();
    const SourceManager &SM = PP.getSourceManager();
    // `#pragma dd`, `#pragma unroll`: the parser's business, alike on both
    // sides.
    PP.IgnorePragmas();
    PP.EnterMainSourceFile();
    DenseMap<FileID, std::optional<unsigned>> Index;
    Token Tok;
    for (PP.Lex(Tok); Tok.isNot(tok::eof); PP.Lex(Tok)) {
      SourceLocation Loc = SM.getExpansionLoc(Tok.getLocation());
      if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
        continue;
      auto [File, Offset] = SM.getDecomposedLoc(Loc);
      auto [It, New] = Index.try_emplace(File);
      if (New)
        if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File)) {
          It->second = Out.Files.size();
          Out.Files.push_back(Entry->getUniqueID());
        }
      if (It->second)
        Out.Tokens.push_back({*It->second, Offset, PP.getSpelling(Tok)});
    }
  }

private:
  SideTokens &Out;
};

/// Every function \p Root calls, directly or through others, whose
/// definition lies outside system headers: the code an analysis of \p Root
/// may have read.
std::vector<const FunctionDecl *> reachedFunctions(const FunctionDecl *Root,
                                                   const SourceManager &SM) {
  struct Calls : RecursiveASTVisitor<Calls> {
    std::vector<const FunctionDecl *> Found;
    void add(const FunctionDecl *FD) {
      if (FD)
        Found.push_back(FD);
    }
    bool VisitCallExpr(CallExpr *C) {
      add(C->getDirectCallee());
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      add(C->getConstructor());
      return true;
    }
    // A function named without a call: a pointer to it, a template
    // argument, a functor passed on.
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      add(dyn_cast<FunctionDecl>(R->getDecl()));
      return true;
    }
  };
  std::vector<const FunctionDecl *> Order{Root};
  DenseSet<const FunctionDecl *> Seen{Root};
  for (size_t I = 0; I < Order.size(); ++I) {
    Calls C;
    C.TraverseStmt(const_cast<Stmt *>(Order[I]->getBody()));
    for (const FunctionDecl *FD : C.Found) {
      const FunctionDecl *Def = nullptr;
      if (!FD->hasBody(Def) || !Def ||
          SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
        continue;
      if (Seen.insert(Def).second)
        Order.push_back(Def);
    }
  }
  return Order;
}

/// The tokens of \p Side placed in file \p ID at [\p Begin, \p End], with
/// everything the preprocessor produced between them (an #include's).
ArrayRef<SideTokens::Token> slice(const SideTokens &Side,
                                  const sys::fs::UniqueID &ID, unsigned Begin,
                                  unsigned End) {
  auto File = llvm::find(Side.Files, ID);
  if (File == Side.Files.end())
    return {};
  const unsigned F = File - Side.Files.begin();
  auto Inside = [&](const SideTokens::Token &T) {
    return T.File == F && T.Offset >= Begin && T.Offset <= End;
  };
  auto First = llvm::find_if(Side.Tokens, Inside);
  if (First == Side.Tokens.end())
    return {};
  auto Last = std::find_if(Side.Tokens.rbegin(), Side.Tokens.rend(), Inside);
  return ArrayRef(&*First, &*Last + 1);
}

std::string nameOf(const FunctionDecl *F, const ASTContext &Ctx) {
  std::string Name;
  raw_string_ostream OS(Name);
  F->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  return Name;
}

} // namespace

std::unique_ptr<FrontendAction> createTokenRecorder(SideTokens &Out) {
  return std::make_unique<TokenRecorder>(Out);
}

DeviceView::DeviceView(ASTContext &Ctx, SidePreprocessor Preprocess,
                       std::vector<std::string> GpuArchs)
    : Ctx(Ctx), Preprocess(std::move(Preprocess)),
      GpuArchs(std::move(GpuArchs)) {}

std::optional<std::string> DeviceView::archBelow(unsigned Min) const {
  for (const std::string &Arch : GpuArchs) {
    StringRef Digits =
        StringRef(Arch).drop_until([](char C) { return C >= '0' && C <= '9'; });
    Digits = Digits.take_while([](char C) { return C >= '0' && C <= '9'; });
    unsigned Number = 0;
    // An architecture without a number is not ours to judge: clang checked
    // the names when it parsed.
    if (!Digits.getAsInteger(10, Number) && Number < Min)
      return Arch;
  }
  return std::nullopt;
}

void DeviceView::preprocess() {
  if (Host)
    return;
  Host = Preprocess(std::nullopt);
  for (const std::string &Arch : GpuArchs)
    Devices.push_back(Preprocess(Arch));
}

std::optional<DeviceView::Difference>
DeviceView::differs(const FunctionDecl *F) {
  auto [It, New] = Own.try_emplace(F);
  if (!New)
    return It->second;
  std::optional<Difference> Found;
  for (size_t I = 0; I < Devices.size() && !Found; ++I)
    if (std::optional<SourceLocation> Loc = differs(F, Devices[I]))
      Found = Difference{*Loc, GpuArchs[I]};
  return Own[F] = Found;
}

std::optional<SourceLocation> DeviceView::differs(const FunctionDecl *F,
                                                  const SideTokens &Device) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The declaration too: __launch_bounds__ and default arguments can be
  // written with the same macros.
  auto [File, Begin] =
      SM.getDecomposedLoc(SM.getExpansionLoc(F->getSourceRange().getBegin()));
  auto [EndFile, End] = SM.getDecomposedLoc(
      SM.getExpansionRange(F->getSourceRange().getEnd()).getEnd());
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry || EndFile != File || End < Begin)
    return SM.getExpansionLoc(F->getLocation());
  const sys::fs::UniqueID ID = Entry->getUniqueID();
  ArrayRef<SideTokens::Token> H = slice(*Host, ID, Begin, End);
  ArrayRef<SideTokens::Token> D = slice(Device, ID, Begin, End);
  auto Same = [&](const SideTokens::Token &A, const SideTokens::Token &B) {
    return Host->Files[A.File] == Device.Files[B.File] &&
           A.Offset == B.Offset && A.Spelling == B.Spelling;
  };
  size_t I = 0;
  while (I < H.size() && I < D.size() && Same(H[I], D[I]))
    ++I;
  if (I == H.size() && I == D.size())
    return std::nullopt;
  // The first place the two views part: the earlier of the two tokens there
  // that lie in the function's own file.
  unsigned At = End;
  if (I < H.size() && Host->Files[H[I].File] == ID)
    At = std::min(At, H[I].Offset);
  if (I < D.size() && Device.Files[D[I].File] == ID)
    At = std::min(At, D[I].Offset);
  if (At == End && I > 0)
    At = H[I - 1].Offset;
  return SM.getComposedLoc(File, At);
}

std::optional<DeviceView::Divergence>
DeviceView::divergence(const FunctionDecl *F) {
  auto It = Verdicts.find(F);
  if (It != Verdicts.end())
    return It->second;
  preprocess();
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string What =
      (F->hasAttr<CUDAGlobalAttr>() ? "kernel '" : "'") + nameOf(F, Ctx) + "'";
  std::optional<Divergence> Verdict;
  auto Unreadable = [&](const SideTokens &Side, const std::string &Which) {
    if (!Side.Error.empty() && !Verdict)
      Verdict = Divergence{
          SM.getExpansionLoc(F->getLocation()),
          "the file could not be preprocessed " + Which + " to check that " +
              What + " is the same code in both compilations: " + Side.Error};
  };
  Unreadable(*Host, "host side");
  for (size_t I = 0; I < Devices.size(); ++I)
    Unreadable(Devices[I], "for the device (" + GpuArchs[I] + ")");
  if (!Verdict)
    for (const FunctionDecl *G : reachedFunctions(F, SM)) {
      std::optional<Difference> Diff = differs(G);
      if (!Diff)
        continue;
      PresumedLoc P = SM.getPresumedLoc(Diff->Loc);
      std::string Where = "line " + std::to_string(P.getLine());
      if (!SM.isWrittenInMainFile(Diff->Loc))
        Where += std::string(" of ") + P.getFilename();
      std::string Subject =
          G == F ? What : What + " calls '" + nameOf(G, Ctx) + "', which";
      Verdict = Divergence{
          Diff->Loc,
          Subject + " is not the same code when compiled for the device (" +
              Diff->Arch +
              ") as in the host compilation decoupler analyses (from " + Where +
              ": a preprocessor condition on __CUDA_ARCH__, or a macro "
              "defined under one)"};
      break;
    }
  Verdicts[F] = Verdict;
  return Verdict;
}

} // namespace decoupler
