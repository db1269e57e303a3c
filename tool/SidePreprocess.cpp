//===- SidePreprocess.cpp - The file preprocessed again, host or device side
//===//

#include "SidePreprocess.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"

using namespace llvm;

namespace decoupler::tool {
namespace {

/// Keeps the first error, as `file:line: message`, and prints nothing.
class FirstError : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error || !Message.empty())
      return;
    SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      clang::PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Message = std::string(P.getFilename()) + ":" +
                  std::to_string(P.getLine()) + ": ";
    }
    Message += Text.str();
  }
  std::string Message;
};

} // namespace

std::vector<std::string> deviceSide(ArrayRef<std::string> CommandLine) {
  std::vector<std::string> Out(CommandLine.begin(), CommandLine.end());
  for (std::string &Arg : Out) {
    if (Arg == "--")
      break;
    if (Arg == "--cuda-host-only")
      Arg = "--cuda-device-only";
  }
  return Out;
}

std::string gpuArchOf(ArrayRef<std::string> CommandLine) {
  std::string Arch = "the GPU";
  for (StringRef Arg : CommandLine) {
    if (Arg == "--")
      break;
    if (Arg.consume_front("--cuda-gpu-arch="))
      Arch = Arg.str();
  }
  return Arch;
}

SidePreprocessor sidePreprocessor(std::vector<std::string> CommandLine,
                                  IntrusiveRefCntPtr<vfs::FileSystem> FS) {
  return [CommandLine = std::move(CommandLine), FS](bool Device) {
    SideTokens Out;
    IntrusiveRefCntPtr<clang::FileManager> Files(
        new clang::FileManager(clang::FileSystemOptions(), FS));
    FirstError Errors;
    clang::tooling::ToolInvocation Invocation(
        Device ? deviceSide(CommandLine) : CommandLine,
        createTokenRecorder(Out), Files.get(),
        std::make_shared<clang::PCHContainerOperations>());
    Invocation.setDiagnosticConsumer(&Errors);
    const bool Ran = Invocation.run();
    Out.Error = Errors.Message;
    if (!Ran && Out.Error.empty())
      Out.Error = "the preprocessor did not run";
    return Out;
  };
}

} // namespace decoupler::tool
