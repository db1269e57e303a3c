//===- Options.h - decoupler's command-line options -------------*- C++ -*-===//
//
// The options of the `decoupler` executable, parsed with llvm::cl and checked
// for conflicting combinations. Everything after `--` is compiler arguments
// and is split off before these are parsed (CompileCommands.h).
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_OPTIONS_H
#define DECOUPLER_TOOL_OPTIONS_H

#include "pipeline/FileAction.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace decoupler::tool {

enum class ReportFormat { Text, JSON, HTML };

/// --unparsed: what a file clang does not parse gets.
enum class UnparsedMode { Error, Copy };

/// What the user asked for, after validation.
struct ToolOptions {
  /// Input files as given on the command line (may be empty with -p).
  std::vector<std::string> InputFiles;
  /// -p: a build directory (or compile_commands.json); empty when not given.
  std::string BuildPath;

  ReportFormat Report = ReportFormat::Text;
  /// -o: the output file (rewritten source, or the report with --analyze).
  std::string OutputFile;
  /// --remarks-output: the decisions as LLVM optimization records (YAML);
  /// empty when not given.
  std::string RemarksOutput;
  /// --out-dir: where <stem>.dd.cu files go.
  std::string OutDir;
  bool InPlace = false;
  bool Diff = false;
  /// --check: write nothing; exit 1 when a file would change.
  bool Check = false;
  /// --depfile: where to write a Make-style depfile of the one output.
  std::string DepFile;
  /// #line directives in rewritten files (off: --no-line-directives).
  bool LineDirectives = true;
  /// --stats: a summary line per run on stderr.
  bool Stats = false;
  /// --unparsed: a file that does not parse fails the run (Error) or is
  /// written unchanged with a warning (Copy).
  UnparsedMode Unparsed = UnparsedMode::Error;
  /// --color: colours in diagnostics.
  enum class ColorMode { Auto, Always, Never } Color = ColorMode::Auto;

  /// Files processed in parallel; at least 1.
  unsigned Jobs = 1;

  /// --print-commands: show each file's final compiler command line.
  bool PrintCommands = false;

  /// --cuda-path as given; empty means search ($CUDA_PATH, /usr/local/cuda).
  std::string CudaPath;
  /// --cuda-gpu-arch; empty: the compile command's, else sm_90.
  std::vector<std::string> CudaGpuArchs;

  std::vector<std::string> ExtraArgsBefore;
  std::vector<std::string> ExtraArgs;

  /// What each file's FrontendAction does (--analyze, --passes, -R...).
  RunOptions Run;
};

/// The usage line printed with usage errors.
llvm::StringRef usageLine();

/// Parses \p Argv (without the `--` part) into ToolOptions. `--help` and
/// `--version` print and exit. Returns an error for unknown options, bad
/// values and conflicting combinations; llvm::cl's own parse errors have
/// already been printed when the returned error's message is empty.
llvm::Expected<ToolOptions> parseCommandLine(int Argc, const char *const *Argv);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_OPTIONS_H
