//===- CudaPath.cpp - Finding the CUDA installation -----------------------===//
#include "CudaPath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// nvcc's build number (the B of M.m.B), or 0.
unsigned nvccBuild(StringRef CudaPath) {
  auto BuildOf = [](StringRef Version) -> unsigned {
    SmallVector<StringRef, 3> Parts;
    Version.split(Parts, '.');
    unsigned Build = 0;
    if (Parts.size() == 3 && !Parts[2].getAsInteger(10, Build))
      return Build;
    return 0;
  };
  SmallString<256> Json(CudaPath);
  sys::path::append(Json, "version.json");
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
          MemoryBuffer::getFile(Json)) {
    Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
    if (!Parsed) {
      consumeError(Parsed.takeError());
    } else if (const json::Object *Root = Parsed->getAsObject()) {
      if (const json::Object *Nvcc = Root->getObject("cuda_nvcc"))
        if (std::optional<StringRef> Version = Nvcc->getString("version"))
          return BuildOf(*Version);
    }
  }
  // pip-style installations: dist-info/nvidia_cuda_nvcc-13.0.88.dist-info.
  SmallString<256> DistInfo(CudaPath);
  sys::path::append(DistInfo, "dist-info");
  std::error_code EC;
  for (sys::fs::directory_iterator I(DistInfo, EC), E; I != E && !EC;
       I.increment(EC)) {
    StringRef Name = sys::path::filename(I->path());
    if (Name.consume_front("nvidia_cuda_nvcc-") &&
        Name.consume_back(".dist-info"))
      return BuildOf(Name);
  }
  return 0;
}

} // namespace

std::optional<unsigned> cudaVersion(StringRef CudaPath) {
  SmallString<256> Header(CudaPath);
  sys::path::append(Header, "include", "cuda.h");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Header);
  if (!Buffer)
    return std::nullopt;
  SmallVector<StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("#define"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("CUDA_VERSION") || Line.empty() ||
        !isSpace(Line.front()))
      continue;
    unsigned Version = 0;
    if (Line.trim().getAsInteger(10, Version))
      return std::nullopt;
    return Version;
  }
  return std::nullopt;
}

std::vector<std::string> nvccVersionMacros(StringRef CudaPath) {
  std::optional<unsigned> Version = cudaVersion(CudaPath);
  if (!Version)
    return {};
  return {"-D__CUDACC_VER_MAJOR__=" + utostr(*Version / 1000),
          "-D__CUDACC_VER_MINOR__=" + utostr(*Version % 1000 / 10),
          "-D__CUDACC_VER_BUILD__=" + utostr(nvccBuild(CudaPath))};
}

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
