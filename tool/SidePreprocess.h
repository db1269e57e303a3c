//===- SidePreprocess.h - The file preprocessed again, host or device side ===//
//
// The tool's half of support/DeviceView.h: runs the file's own parse command
// again as a preprocessor-only action, host side as parsed or device side
// (`--cuda-device-only`), over the same file system (the nvcc prelude
// included), and keeps the first error instead of printing anything.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_SIDEPREPROCESS_H
#define DECOUPLER_TOOL_SIDEPREPROCESS_H

#include "support/DeviceView.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <vector>

namespace decoupler::tool {

/// \p CommandLine with `--cuda-host-only` made `--cuda-device-only` and its
/// architectures replaced by \p Arch: the device compilation of the same
/// file for one GPU.
std::vector<std::string> deviceSide(llvm::ArrayRef<std::string> CommandLine,
                                    llvm::StringRef Arch);

/// The GPU architectures \p CommandLine compiles for (its
/// `--cuda-gpu-arch=`s, in order, each once).
std::vector<std::string> gpuArchsOf(llvm::ArrayRef<std::string> CommandLine);

/// A SidePreprocessor running \p CommandLine (a parse command as
/// CompileCommands makes it) over \p FS.
SidePreprocessor
sidePreprocessor(std::vector<std::string> CommandLine,
                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_SIDEPREPROCESS_H
