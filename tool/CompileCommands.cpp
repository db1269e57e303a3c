//===- CompileCommands.cpp - How each input file is parsed ----------------===//
#include "CompileCommands.h"
#include "NvccCommand.h"
#include "NvccPrelude.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;
using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

namespace decoupler::tool {
namespace {

/// \p Path made absolute against \p Base (the current directory when empty),
/// without `.` and `..` components.
std::string absolutePath(StringRef Path, StringRef Base = "") {
  SmallString<256> Result(Path);
  if (sys::path::is_relative(Result)) {
    if (Base.empty() || sys::path::is_relative(Base)) {
      SmallString<256> Cwd;
      if (!sys::fs::current_path(Cwd) && !Base.empty())
        sys::path::append(Cwd, Base);
      Result = Cwd;
    } else {
      Result = Base;
    }
    sys::path::append(Result, Path);
  }
  sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  sys::path::native(Result);
  return std::string(Result);
}

/// Removes a compiler launcher (`ccache nvcc ...`) in front of the compiler.
std::vector<std::string> stripLauncher(std::vector<std::string> CommandLine) {
  if (CommandLine.size() > 1 && !StringRef(CommandLine[1]).starts_with("-")) {
    StringRef Launcher = sys::path::stem(CommandLine.front());
    if (Launcher == "ccache" || Launcher == "sccache" || Launcher == "distcc")
      CommandLine.erase(CommandLine.begin());
  }
  return CommandLine;
}

/// Makes a build database's commands something clang can parse: launchers
/// removed, nvcc commands translated. It sits below the interpolation of
/// missing files so that inferred commands are built from clang options.
class HostCommandDatabase : public CompilationDatabase {
public:
  explicit HostCommandDatabase(std::unique_ptr<CompilationDatabase> Base)
      : Base(std::move(Base)) {}

  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    return translate(Base->getCompileCommands(FilePath));
  }
  std::vector<std::string> getAllFiles() const override {
    return Base->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return translate(Base->getAllCompileCommands());
  }

private:
  static std::vector<CompileCommand>
  translate(std::vector<CompileCommand> Commands) {
    for (CompileCommand &Command : Commands) {
      Command.CommandLine = stripLauncher(std::move(Command.CommandLine));
      if (isNvccCommand(Command.CommandLine))
        Command = translateNvccCommand(Command);
    }
    return Commands;
  }

  std::unique_ptr<CompilationDatabase> Base;
};

/// The compile_commands.json for -p \p Path: the file itself, or the first
/// one in the directory and its parents. Empty when there is none.
std::string findJSONDatabase(StringRef Path) {
  if (sys::fs::is_regular_file(Path))
    return Path.str();
  for (StringRef Dir = Path; !Dir.empty(); Dir = sys::path::parent_path(Dir)) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, "compile_commands.json");
    if (sys::fs::is_regular_file(Candidate))
      return std::string(Candidate);
  }
  return "";
}

/// Options that would make clang do something else than parse the file once
/// host side, and that the tool sets itself.
bool isDroppedFlag(StringRef Arg) {
  static constexpr StringRef Exact[] = {"-c",
                                        "-S",
                                        "-E",
                                        "-fsyntax-only",
                                        "-emit-llvm",
                                        "--cuda-host-only",
                                        "--cuda-device-only",
                                        "--cuda-compile-host-device",
                                        "--offload-host-only",
                                        "--offload-device-only",
                                        "--offload-host-device"};
  static constexpr StringRef Prefixes[] = {
      "-o", // -o<file> (and -o with a separate value, handled by the caller)
      "-x", // -x<language>
      "-M", // dependency files: -MD, -MMD, -MF<file>, ...
      "--cuda-path=",
      "--cuda-gpu-arch=",
      "--no-cuda-gpu-arch=",
      "--offload-arch=",
      "--no-offload-arch=",
      "-resource-dir=",
      "-save-temps",
      "--save-temps"};
  return is_contained(Exact, Arg) ||
         any_of(Prefixes, [&](StringRef P) { return Arg.starts_with(P); });
}

/// Dropped options whose value is the next argument.
bool isDroppedWithValue(StringRef Arg) {
  static constexpr StringRef Names[] = {
      "-o",  "-x",  "-MF",           "-MT",
      "-MQ", "-MJ", "-resource-dir", "--serialize-diagnostics"};
  return is_contained(Names, Arg);
}

} // namespace

CompileCommands::CompileCommands() = default;
CompileCommands::CompileCommands(CompileCommands &&) = default;
CompileCommands &CompileCommands::operator=(CompileCommands &&) = default;
CompileCommands::~CompileCommands() = default;

Expected<std::optional<CompileCommands>>
CompileCommands::fromCommandLine(int &Argc, const char *const *Argv) {
  std::string Error;
  std::unique_ptr<clang::tooling::FixedCompilationDatabase> Fixed =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(
          Argc, Argv, Error, absolutePath("."));
  if (!Fixed) {
    if (Error.empty())
      return std::nullopt; // No `--`.
    // The driver's messages, one per line, each starting with its severity.
    SmallVector<StringRef, 4> Lines;
    StringRef(Error).trim().split(Lines, '\n');
    std::string Message = "in the compiler arguments after '--':";
    for (StringRef Line : Lines) {
      Line.consume_front("error: ");
      Line.consume_front("warning: ");
      Message += " " + Line.str();
    }
    return createStringError(inconvertibleErrorCode(), Message);
  }
  CompileCommands Result;
  Result.Database = std::move(Fixed);
  return std::optional<CompileCommands>(std::move(Result));
}

Expected<CompileCommands> CompileCommands::fromBuildPath(StringRef BuildPath) {
  std::string Path = absolutePath(BuildPath);
  if (!sys::fs::exists(Path))
    return createStringError(inconvertibleErrorCode(),
                             "-p: no such file or directory: '" + BuildPath +
                                 "'");
  std::string Error;
  std::unique_ptr<CompilationDatabase> Database;
  if (std::string JSON = findJSONDatabase(Path); !JSON.empty()) {
    Database = clang::tooling::JSONCompilationDatabase::loadFromFile(
        JSON, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
    if (!Database)
      return createStringError(inconvertibleErrorCode(),
                               "-p: cannot load '" + JSON + "': " + Error);
    // The layers clang's own JSON plugin adds, with nvcc translation below
    // the interpolation of missing files.
    Database = clang::tooling::expandResponseFiles(std::move(Database),
                                                   vfs::getRealFileSystem());
    Database = std::make_unique<HostCommandDatabase>(std::move(Database));
    Database = clang::tooling::inferMissingCompileCommands(std::move(Database));
    Database = clang::tooling::inferTargetAndDriverMode(std::move(Database));
  } else {
    // Other formats (compile_flags.txt, plugins); these come with inference.
    Database = CompilationDatabase::autoDetectFromDirectory(Path, Error);
    if (!Database)
      return createStringError(
          inconvertibleErrorCode(),
          "-p: no compilation database (compile_commands.json) found in '" +
              BuildPath + "' or its parents");
    Database = std::make_unique<HostCommandDatabase>(std::move(Database));
  }
  CompileCommands Result;
  Result.Database = std::move(Database);
  Result.IsBuildDatabase = true;
  return std::move(Result);
}

std::vector<std::string> CompileCommands::cudaFiles() const {
  std::vector<std::string> Files;
  if (!IsBuildDatabase)
    return Files;
  StringSet<> Seen;
  for (const CompileCommand &Command : Database->getAllCompileCommands()) {
    if (sys::path::extension(Command.Filename) != ".cu")
      continue;
    std::string File = absolutePath(Command.Filename, Command.Directory);
    if (Seen.insert(File).second)
      Files.push_back(std::move(File));
  }
  return Files;
}

bool CompileCommands::lists(StringRef File) const {
  if (!IsBuildDatabase || !Database)
    return false;
  std::vector<CompileCommand> Commands =
      Database->getCompileCommands(absolutePath(File));
  return !Commands.empty() && Commands.front().Heuristic.empty();
}

CompileCommand
CompileCommands::commandFor(StringRef File,
                            const ParseSettings &Settings) const {
  // A build database matches absolute paths; other commands keep the
  // spelling the user gave, which clang's diagnostics then show.
  std::string Lookup = IsBuildDatabase ? absolutePath(File) : File.str();
  std::vector<CompileCommand> Commands;
  if (Database)
    Commands = Database->getCompileCommands(Lookup);
  CompileCommand Command;
  if (!Commands.empty()) {
    // A file compiled several ways is parsed the first way.
    Command = std::move(Commands.front());
  } else {
    Command.Filename = Lookup;
    Command.CommandLine = {"clang++", Lookup};
  }
  Command.Directory = absolutePath(Command.Directory);
  Command.CommandLine =
      adjustForParsing(std::move(Command.CommandLine), Command.Filename,
                       Command.Directory, Settings);
  return Command;
}

std::vector<std::string> adjustForParsing(std::vector<std::string> Command,
                                          StringRef Filename,
                                          StringRef Directory,
                                          const ParseSettings &Settings) {
  if (Command.empty())
    Command = {"clang++", Filename.str()};
  std::string AbsoluteFile = absolutePath(Filename, Directory);
  auto IsInput = [&](StringRef Arg) {
    return Arg == Filename || absolutePath(Arg, Directory) == AbsoluteFile;
  };

  std::vector<std::string> Result{Command.front()};
  std::vector<std::string> CommandArchs;
  append_range(Result, Settings.ExtraArgsBefore);
  for (size_t I = 1, E = Command.size(); I < E; ++I) {
    StringRef Arg = Command[I];
    // Only inputs follow `--` (inferred commands use it); the file is
    // re-added at the end, other inputs are not parsed.
    if (Arg == "--")
      break;
    if (isDroppedWithValue(Arg)) {
      ++I;
      continue;
    }
    // The architectures the command compiles for (clang's spellings; an
    // nvcc command's were translated to them).
    StringRef Value = Arg;
    if (Value.consume_front("--cuda-gpu-arch=") ||
        Value.consume_front("--offload-arch=")) {
      SmallVector<StringRef, 4> Names;
      Value.split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
      for (StringRef Name : Names)
        if (!is_contained(CommandArchs, Name))
          CommandArchs.push_back(Name.str());
      continue;
    }
    if (Value.consume_front("--no-cuda-gpu-arch=") ||
        Value.consume_front("--no-offload-arch=")) {
      if (Value == "all")
        CommandArchs.clear();
      else
        erase(CommandArchs, Value.str());
      continue;
    }
    if (isDroppedFlag(Arg) || (!Arg.starts_with("-") && IsInput(Arg)))
      continue;
    Result.push_back(Arg.str());
  }
  // The parse is host side; these tell the device view and the passes
  // what the GPU side compiles for.
  const std::vector<std::string> &Archs =
      !Settings.CudaGpuArchs.empty() ? Settings.CudaGpuArchs
      : !CommandArchs.empty()        ? CommandArchs
                                     : std::vector<std::string>{"sm_90"};

  Result.insert(Result.end(),
                {"--cuda-host-only", "-Wno-unknown-cuda-version",
                 // nvcc accepts C++17's removed `register` silently; clang
                 // makes it an error (HeCBench's maxFlops, ntt, s3d).
                 "-Wno-register",
                 // nvcc warns about a narrowing conversion in braces
                 // (`int y[2] = {0.0, 1.0}`); clang makes it an error
                 // (SHOC's neuralnet).
                 "-Wno-c++11-narrowing", "--cuda-path=" + Settings.CudaPath});
  for (const std::string &Arch : Archs)
    Result.push_back("--cuda-gpu-arch=" + Arch);
  Result.insert(Result.end(),
                {"-D__DECOUPLER__=1", "-resource-dir=" + Settings.ResourceDir});
  // nvcc's version macros, unless the command or --extra-arg(-before)
  // defines or undefines the macro itself: a second definition would warn.
  // The names those set first: appending to Result would move the strings
  // that StringRefs into it point at.
  StringSet<> Own;
  auto Note = [&](ArrayRef<std::string> Args) {
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef Arg = Args[I];
      if (!Arg.consume_front("-D") && !Arg.consume_front("-U"))
        continue;
      if (Arg.empty() && I + 1 < Args.size()) // "-D NAME=VALUE"
        Arg = Args[++I];
      Own.insert(Arg.split('=').first);
    }
  };
  Note(ArrayRef(Result).drop_front());
  Note(Settings.ExtraArgs);
  for (const std::string &Define : Settings.NvccMacros)
    if (!Own.contains(StringRef(Define).drop_front(2).split('=').first))
      Result.push_back(Define);
  if (Settings.RuntimeIncludeDir)
    Result.push_back("-I" + *Settings.RuntimeIncludeDir);
  // CUDA 13 keeps CCCL (<cuda/atomic>, <cub/...>, <thrust/...>) under
  // include/cccl, which nvcc adds on its own and clang does not.
  SmallString<256> CCCL(Settings.CudaPath);
  sys::path::append(CCCL, "include", "cccl");
  if (sys::fs::is_directory(CCCL))
    Result.push_back(("-isystem" + CCCL).str());
  // What nvcc declares and clang's CUDA headers lack (NvccPrelude.h); the
  // file runner serves it from memory.
  Result.insert(Result.end(), {"-include", NvccPreludePath.str()});
  Result.push_back("-fsyntax-only");
  append_range(Result, Settings.ExtraArgs);
  // -x applies to the inputs after it; `--` keeps a file named like an
  // option a file.
  Result.insert(Result.end(), {"-x", "cuda", "--", Filename.str()});
  return Result;
}

std::string formatCommandLine(ArrayRef<std::string> CommandLine) {
  std::string Line;
  for (const std::string &Arg : CommandLine) {
    if (!Line.empty())
      Line += ' ';
    bool Plain = !Arg.empty() && all_of(Arg, [](char C) {
      return isAlnum(C) || StringRef("-_=+./:,@%^").contains(C);
    });
    if (Plain) {
      Line += Arg;
      continue;
    }
    Line += '\'';
    for (char C : Arg)
      Line += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Line += '\'';
  }
  return Line;
}

} // namespace decoupler::tool
