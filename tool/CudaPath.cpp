//===- CudaPath.cpp - Finding the CUDA installation -----------------------===//
#include "CudaPath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <optional>

using namespace llvm;

namespace decoupler::tool {
namespace {

bool hasCudaRuntimeHeader(StringRef Dir) {
  SmallString<256> Header(Dir);
  sys::path::append(Header, "include", "cuda_runtime.h");
  return sys::fs::is_regular_file(Header);
}

} // namespace

Expected<std::string> findCudaPath(StringRef Explicit) {
  const char Hint[] = "pass --cuda-path=DIR or set CUDA_PATH";
  if (!Explicit.empty()) {
    if (hasCudaRuntimeHeader(Explicit))
      return Explicit.str();
    return createStringError(inconvertibleErrorCode(),
                             "no CUDA installation found at '" + Explicit +
                                 "' (no include/cuda_runtime.h); " + Hint);
  }
  std::optional<std::string> Env = sys::Process::GetEnv("CUDA_PATH");
  if (Env && !Env->empty() && hasCudaRuntimeHeader(*Env))
    return *Env;
  if (hasCudaRuntimeHeader("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  return createStringError(inconvertibleErrorCode(),
                           Twine("no CUDA installation found; ") + Hint);
}

} // namespace decoupler::tool
