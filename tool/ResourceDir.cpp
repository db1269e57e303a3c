//===- ResourceDir.cpp - Finding clang's resource directory ---------------===//
#include "ResourceDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <optional>

using namespace llvm;

namespace decoupler::tool {
namespace {

constexpr const char WrapperHeader[] = "__clang_cuda_runtime_wrapper.h";

std::string llvmMajor() { return std::to_string(LLVM_VERSION_MAJOR); }

/// Asks \p ClangName on PATH for its resource directory.
std::optional<std::string> askClang(StringRef ClangName) {
  ErrorOr<std::string> Clang = sys::findProgramByName(ClangName);
  if (!Clang)
    return std::nullopt;
  SmallString<128> OutPath;
  if (sys::fs::createTemporaryFile("decoupler-resource-dir", "txt", OutPath))
    return std::nullopt;
  FileRemover RemoveOut(OutPath);
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(OutPath),
                                          StringRef("")};
  StringRef Args[] = {*Clang, "-print-resource-dir"};
  if (sys::ExecuteAndWait(*Clang, Args, /*Env=*/std::nullopt, Redirects,
                          /*SecondsToWait=*/30) != 0)
    return std::nullopt;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Out = MemoryBuffer::getFile(OutPath);
  if (!Out)
    return std::nullopt;
  StringRef Dir = (*Out)->getBuffer().trim();
  if (Dir.empty())
    return std::nullopt;
  return Dir.str();
}

/// Builtin headers of another clang version do not match our frontend.
bool isOurVersion(StringRef Dir) {
  StringRef Name = sys::path::filename(Dir);
  std::string Major = llvmMajor();
  return Name == Major || (Name.starts_with(Major) &&
                           Name.drop_front(Major.size()).starts_with("."));
}

} // namespace

bool isValidResourceDir(StringRef Dir) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, "include", WrapperHeader);
  return sys::fs::is_regular_file(Path);
}

Expected<std::string> findResourceDir(StringRef ExeDir) {
  if (std::optional<std::string> Env =
          sys::Process::GetEnv("DECOUPLER_RESOURCE_DIR");
      Env && !Env->empty()) {
    if (isValidResourceDir(*Env))
      return *Env;
    return createStringError(
        inconvertibleErrorCode(),
        "DECOUPLER_RESOURCE_DIR='" + *Env +
            "' is not a clang resource directory (no include/" + WrapperHeader +
            ")");
  }

  SmallVector<std::string, 4> Tried;
  auto TryDir = [&](StringRef Dir) -> std::optional<std::string> {
    SmallString<256> Native(Dir);
    sys::path::remove_dots(Native, /*remove_dot_dot=*/true);
    Tried.push_back(std::string(Native));
    if (isValidResourceDir(Native))
      return std::string(Native);
    return std::nullopt;
  };

  SmallString<256> Installed(ExeDir);
  sys::path::append(Installed, "..", "lib", "clang", llvmMajor());
  if (auto Dir = TryDir(Installed))
    return *Dir;
  if (auto Dir = TryDir(DECOUPLER_CLANG_RESOURCE_DIR))
    return *Dir;
  for (const std::string &Clang :
       {"clang-" + llvmMajor(), std::string("clang")}) {
    std::optional<std::string> Reported = askClang(Clang);
    if (!Reported || !isOurVersion(*Reported))
      continue;
    if (auto Dir = TryDir(*Reported))
      return *Dir;
  }

  std::string Message =
      "cannot find clang's resource directory (the one of clang " +
      llvmMajor() + ", with include/" + WrapperHeader + "); looked in";
  for (const std::string &Dir : Tried)
    Message += " '" + Dir + "'";
  Message += "; set DECOUPLER_RESOURCE_DIR to the output of `clang-" +
             llvmMajor() + " -print-resource-dir`";
  return createStringError(inconvertibleErrorCode(), Message);
}

} // namespace decoupler::tool
