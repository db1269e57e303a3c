//===- RuntimeHeaders.h - Finding decoupler's runtime headers ---*- C++ -*-===//
//
// Annotated sources include <dd/annotate.h> and rewritten ones the rest of the
// dd runtime, so the parse puts the runtime's include directory on the path:
// <prefix>/include when decoupler is installed (<exe dir>/../include), else
// the source tree's runtime/include when it runs from its build tree.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_RUNTIMEHEADERS_H
#define DECOUPLER_TOOL_RUNTIMEHEADERS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace decoupler::tool {

/// The directory holding dd/annotate.h, or none when neither place has it.
std::optional<std::string> findRuntimeIncludeDir(llvm::StringRef ExeDir);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_RUNTIMEHEADERS_H
