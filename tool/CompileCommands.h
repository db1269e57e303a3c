//===- CompileCommands.h - How each input file is parsed --------*- C++ -*-===//
//
// Where a file's compiler arguments come from (`-- <args>`, a build's
// compile_commands.json via -p, or nothing) and how they are adjusted so that
// clang parses the file host side as CUDA with decoupler's settings.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_COMPILECOMMANDS_H
#define DECOUPLER_TOOL_COMPILECOMMANDS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace decoupler::tool {

/// What every parse gets, whatever its compile command.
struct ParseSettings {
  std::string CudaPath;
  /// --cuda-gpu-arch: the GPU architectures the file is compiled for. Empty:
  /// those the compile command names, else sm_90.
  std::vector<std::string> CudaGpuArchs;
  std::string ResourceDir;
  /// The dd runtime's include directory; none when it was not found.
  std::optional<std::string> RuntimeIncludeDir;
  /// -D options for nvcc's version macros (nvccVersionMacros), added where
  /// the command does not define or undefine them itself.
  std::vector<std::string> NvccMacros;
  /// --extra-arg-before / --extra-arg.
  std::vector<std::string> ExtraArgsBefore;
  std::vector<std::string> ExtraArgs;
};

/// The source of compile commands.
class CompileCommands {
public:
  /// No database: every file is parsed with no arguments of its own.
  CompileCommands();
  CompileCommands(CompileCommands &&);
  CompileCommands &operator=(CompileCommands &&);
  ~CompileCommands();

  /// Splits `-- <args>` off \p Argv (lowering \p Argc to the arguments before
  /// it), like every clang tool. None when there is no `--`.
  static llvm::Expected<std::optional<CompileCommands>>
  fromCommandLine(int &Argc, const char *const *Argv);

  /// Loads the compilation database of -p: \p BuildPath is a directory
  /// (compile_commands.json is searched there and in its parents; other
  /// clang database formats such as compile_flags.txt are accepted too) or a
  /// JSON file. nvcc commands are translated (NvccCommand.h) and files
  /// missing from the database get a command inferred from similar files.
  static llvm::Expected<CompileCommands>
  fromBuildPath(llvm::StringRef BuildPath);

  /// The absolute paths of the database's .cu files, in database order, each
  /// once. Empty without a build database.
  std::vector<std::string> cudaFiles() const;

  /// The full command line to parse \p File with (argv[0] first, the file
  /// included) and the directory to run it in: the database's first command
  /// for the file (or a plain one), with
  ///  - output, dependency-file, language and offloading options removed,
  ///  - --extra-arg-before after argv[0],
  ///  - `--cuda-host-only -Wno-unknown-cuda-version -Wno-register
  ///    -Wno-c++11-narrowing --cuda-path=<P>
  ///    --cuda-gpu-arch=<A>... -D__DECOUPLER__=1 -resource-dir=<R>
  ///    -I<runtime include> -fsyntax-only`, then --extra-arg appended,
  ///  - the file last, as `-x cuda -- <file>`.
  clang::tooling::CompileCommand
  commandFor(llvm::StringRef File, const ParseSettings &Settings) const;

  /// Whether these come from a -p build database.
  bool isBuildDatabase() const { return IsBuildDatabase; }
  /// Whether the build database has a command of its own for \p File (not
  /// one inferred from a similar file).
  bool lists(llvm::StringRef File) const;

private:
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  /// True for a -p database, which is queried by absolute path.
  bool IsBuildDatabase = false;
};

/// Applies the adjustments of CompileCommands::commandFor to \p Command (a
/// full command line for \p Filename, relative to \p Directory).
std::vector<std::string> adjustForParsing(std::vector<std::string> Command,
                                          llvm::StringRef Filename,
                                          llvm::StringRef Directory,
                                          const ParseSettings &Settings);

/// \p CommandLine as a POSIX shell would need it written (--print-commands).
std::string formatCommandLine(llvm::ArrayRef<std::string> CommandLine);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_COMPILECOMMANDS_H
