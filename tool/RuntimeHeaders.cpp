//===- RuntimeHeaders.cpp - Finding decoupler's runtime headers -----------===//
#include "RuntimeHeaders.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace decoupler::tool {

std::optional<std::string> findRuntimeIncludeDir(StringRef ExeDir) {
  SmallString<256> Installed(ExeDir);
  sys::path::append(Installed, "..", "include");
  sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
  // An installed tool must not pick up a source tree that may have moved on.
  for (StringRef Dir :
       {StringRef(Installed), StringRef(DECOUPLER_RUNTIME_INCLUDE_DIR)}) {
    SmallString<256> Header(Dir);
    sys::path::append(Header, "dd", "annotate.h");
    if (sys::fs::is_regular_file(Header))
      return Dir.str();
  }
  return std::nullopt;
}

} // namespace decoupler::tool
