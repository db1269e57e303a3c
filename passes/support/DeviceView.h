//===- support/DeviceView.h - Is a function the same code on the GPU? -*- C++
//-*-===//
//
// decoupler parses a file once, host side: the AST holds the host
// compilation's view of every kernel, with __CUDA_ARCH__ undefined. nvcc
// compiles a kernel's body a second time for the GPU, where
// `#if __CUDA_ARCH__ >= 700`, NV_IF_TARGET, or a macro defined under such a
// condition can make it other code. A rewrite decided on the host view of
// such a kernel can change what the GPU computes (a privatized histogram
// whose device branch still updates global memory) or stop the file from
// compiling (a delegated section naming a variable only the device branch
// reads).
//
// So before a pass rewrites code of a function, it asks DeviceView whether
// the function, and every function it calls outside system headers, is the
// same code in the device compilation: the same tokens after preprocessing,
// at the same places, for every GPU architecture the file is compiled for
// (a fat binary for sm_75 and sm_90 is two device compilations). The file
// is preprocessed for that host side and once per architecture, with the
// parse's own command line, only when a pass first asks: a file with
// nothing to rewrite pays nothing.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_DEVICEVIEW_H
#define DECOUPLER_SUPPORT_DEVICEVIEW_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace decoupler {

/// One side's preprocessed tokens of the files outside system headers, in
/// the order the preprocessor produced them. A token from a macro expansion
/// is placed where the macro was invoked.
struct SideTokens {
  struct Token {
    /// Index into Files.
    unsigned File;
    unsigned Offset;
    std::string Spelling;
  };
  std::vector<llvm::sys::fs::UniqueID> Files;
  std::vector<Token> Tokens;
  /// The first error the preprocessor reported; empty when none did.
  std::string Error;
};

/// A preprocessor-only action that fills \p Out (pragmas are ignored on both
/// sides alike).
std::unique_ptr<clang::FrontendAction> createTokenRecorder(SideTokens &Out);

/// Preprocesses the file being parsed again with the parse's command line:
/// host side, or device side (`--cuda-device-only`) for \p DeviceArch.
using SidePreprocessor =
    std::function<SideTokens(const std::optional<std::string> &DeviceArch)>;

class DeviceView {
public:
  /// \p GpuArchs: the GPU architectures the file is compiled for (`sm_75`,
  /// `sm_90`); each is compared with the host view.
  DeviceView(clang::ASTContext &Ctx, SidePreprocessor Preprocess,
             std::vector<std::string> GpuArchs);

  /// The first architecture the file is compiled for that is older than
  /// sm_\p Min (70 for sm_70); none when all are at least that.
  std::optional<std::string> archBelow(unsigned Min) const;

  /// Why \p F cannot be rewritten from its host view: where it, or a
  /// function it calls, is other code in the device compilation. The message
  /// reads as the end of a pass's reason ("kernel 'k' is not the same code
  /// ...").
  struct Divergence {
    clang::SourceLocation Loc;
    std::string Message;
  };
  std::optional<Divergence> divergence(const clang::FunctionDecl *F);

private:
  /// Where \p F's own text preprocesses differently host side and for a
  /// device, and for which.
  struct Difference {
    clang::SourceLocation Loc;
    std::string Arch;
  };
  std::optional<Difference> differs(const clang::FunctionDecl *F);
  std::optional<clang::SourceLocation> differs(const clang::FunctionDecl *F,
                                               const SideTokens &Device);
  void preprocess();

  clang::ASTContext &Ctx;
  SidePreprocessor Preprocess;
  std::vector<std::string> GpuArchs;
  std::optional<SideTokens> Host;
  /// One per architecture, in GpuArchs' order.
  std::vector<SideTokens> Devices;
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<Divergence>>
      Verdicts;
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<Difference>> Own;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_DEVICEVIEW_H
