//===- ResourceDir.h - Finding clang's resource directory -------*- C++ -*-===//
//
// Clang's builtin headers (and its CUDA wrapper headers) live in its resource
// directory. A LibTooling binary cannot rely on clang's own default, which is
// relative to the clang executable, so decoupler searches at run time:
//   1. $DECOUPLER_RESOURCE_DIR (an error when set but not valid),
//   2. <exe dir>/../lib/clang/<LLVM major> (decoupler installed next to clang),
//   3. the directory known when decoupler was configured,
//   4. the output of `clang-<major> -print-resource-dir`, then of
//      `clang -print-resource-dir`, for the clang found on PATH (accepted only
//      when it is the same major version).
// A directory is valid when it holds include/__clang_cuda_runtime_wrapper.h.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_RESOURCEDIR_H
#define DECOUPLER_TOOL_RESOURCEDIR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace decoupler::tool {

/// True when \p Dir is a clang resource directory with the CUDA wrappers.
bool isValidResourceDir(llvm::StringRef Dir);

/// Searches clang's resource directory as described above; \p ExeDir is the
/// directory of the running decoupler executable.
llvm::Expected<std::string> findResourceDir(llvm::StringRef ExeDir);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_RESOURCEDIR_H
