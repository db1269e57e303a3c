//===- OutputWriter.cpp - Where outputs go and how they are written -------===//
#include "OutputWriter.h"

#include "support/output_file.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;

namespace decoupler::tool {

std::string rewrittenPathFor(StringRef Input, StringRef OutDir) {
  SmallString<256> Path(OutDir.empty() ? sys::path::parent_path(Input)
                                       : OutDir);
  sys::path::append(Path, sys::path::stem(Input) + ".dd.cu");
  return std::string(Path);
}

Expected<std::vector<std::string>> planOutputs(ArrayRef<std::string> Inputs,
                                               const OutputChoice &Choice) {
  // Inputs by file identity, so that links and other spellings are caught.
  std::map<sys::fs::UniqueID, size_t> InputIDs;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    sys::fs::UniqueID ID;
    if (!sys::fs::getUniqueID(Inputs[I], ID))
      InputIDs.try_emplace(ID, I);
  }

  std::vector<std::string> Outputs;
  StringMap<size_t> ByOutput;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    std::string Output;
    if (Choice.InPlace) {
      SmallString<256> Real;
      Output =
          sys::fs::real_path(Inputs[I], Real) ? Inputs[I] : std::string(Real);
    } else if (!Choice.OutputFile.empty()) {
      Output = Choice.OutputFile;
    } else {
      Output = rewrittenPathFor(Inputs[I], Choice.OutDir);
    }
    if (!Choice.InPlace && Output != "-") {
      sys::fs::UniqueID ID;
      if (!sys::fs::getUniqueID(Output, ID))
        if (auto It = InputIDs.find(ID); It != InputIDs.end())
          return createStringError(inconvertibleErrorCode(),
                                   "refusing to write the output of '" +
                                       Inputs[I] + "' over the input '" +
                                       Inputs[It->second] +
                                       "' (use --in-place for that)");
      SmallString<256> Key(Output);
      sys::fs::make_absolute(Key);
      sys::path::remove_dots(Key, /*remove_dot_dot=*/true);
      auto [It, Inserted] = ByOutput.try_emplace(Key, I);
      if (!Inserted)
        return createStringError(
            inconvertibleErrorCode(),
            "'" + Inputs[It->second] + "' and '" + Inputs[I] +
                "' would both be written to '" + Output + "'");
    }
    Outputs.push_back(std::move(Output));
  }
  if (!Choice.OutDir.empty())
    if (std::error_code EC = sys::fs::create_directories(Choice.OutDir))
      return createStringError(EC, "cannot create --out-dir '" + Choice.OutDir +
                                       "': " + EC.message());
  return Outputs;
}

Error checkSeparateOutput(StringRef Option, StringRef Path,
                          ArrayRef<std::string> Inputs,
                          ArrayRef<std::string> Outputs) {
  if (Path == "-")
    return Error::success();
  auto Absolute = [](StringRef P) {
    SmallString<256> Key(P);
    sys::fs::make_absolute(Key);
    sys::path::remove_dots(Key, /*remove_dot_dot=*/true);
    return std::string(Key);
  };
  sys::fs::UniqueID ID;
  const bool Exists = !sys::fs::getUniqueID(Path, ID);
  auto Same = [&](StringRef Other) {
    sys::fs::UniqueID OtherID;
    if (Exists && !sys::fs::getUniqueID(Other, OtherID) && OtherID == ID)
      return true;
    return Absolute(Other) == Absolute(Path);
  };
  for (const std::string &Input : Inputs)
    if (Same(Input))
      return createStringError(inconvertibleErrorCode(),
                               "refusing to write " + Option +
                                   " over the input '" + Input + "'");
  for (const std::string &Output : Outputs)
    if (Output != "-" && Same(Output))
      return createStringError(inconvertibleErrorCode(),
                               Option + " '" + Path +
                                   "' would overwrite the output '" + Output +
                                   "'");
  return Error::success();
}

Error writeOutputFile(StringRef Path, StringRef Contents) {
  if (Path == "-") {
    outs() << Contents;
    outs().flush();
    return Error::success();
  }
  std::string Reason;
  if (!dd::output::write_file(Path.str(), Contents, Reason))
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + Path + "': " + Reason);
  return Error::success();
}

} // namespace decoupler::tool
