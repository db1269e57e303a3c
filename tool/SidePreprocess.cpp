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

std::vector<std::string> deviceSide(ArrayRef<std::string> CommandLine,
                                    StringRef Arch) {
  std::vector<std::string> Out;
  bool Inputs = false;
  for (const std::string &Arg : CommandLine) {
    Inputs |= Arg == "--";
    if (!Inputs && StringRef(Arg).starts_with("--cuda-gpu-arch="))
      continue;
    if (!Inputs && Arg == "--cuda-host-only") {
      // A GPU older than the toolkit supports still preprocesses.
      Out.insert(Out.end(), {"--cuda-device-only", "--no-cuda-version-check",
                             ("--cuda-gpu-arch=" + Arch).str()});
      continue;
    }
    Out.push_back(Arg);
  }
  return Out;
}

std::vector<std::string> gpuArchsOf(ArrayRef<std::string> CommandLine) {
  std::vector<std::string> Archs;
  for (StringRef Arg : CommandLine) {
    if (Arg == "--")
      break;
    if (Arg.consume_front("--cuda-gpu-arch=") && !is_contained(Archs, Arg))
      Archs.push_back(Arg.str());
  }
  return Archs;
}

SidePreprocessor sidePreprocessor(std::vector<std::string> CommandLine,
                                  IntrusiveRefCntPtr<vfs::FileSystem> FS) {
  return [CommandLine = std::move(CommandLine),
          FS](const std::optional<std::string> &DeviceArch) {
    SideTokens Out;
    IntrusiveRefCntPtr<clang::FileManager> Files(
        new clang::FileManager(clang::FileSystemOptions(), FS));
    FirstError Errors;
    clang::tooling::ToolInvocation Invocation(
        DeviceArch ? deviceSide(CommandLine, *DeviceArch) : CommandLine,
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
