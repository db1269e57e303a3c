//===- Driver.cpp - The decoupler executable ------------------------------===//
//
// decoupler [options] <file.cu>... [-- <compiler args>]
// decoupler [options] -p <build dir> [<file.cu>...]
//
// Checks everything that can be checked before parsing (options, inputs,
// outputs, the CUDA installation, clang's resource directory), runs the
// pipeline on every file (in parallel with -j) and then, strictly in input
// order, prints each file's diagnostics and report or writes its rewritten
// source. A file that fails gets nothing written and makes the exit status 1;
// the other files are still processed.
//
//===----------------------------------------------------------------------===//
#include "CompileCommands.h"
#include "CudaPath.h"
#include "FileRunner.h"
#include "LineDirectives.h"
#include "Options.h"
#include "OutputWriter.h"
#include "ResourceDir.h"
#include "RuntimeHeaders.h"
#include "UnifiedDiff.h"

#include "affine/Report.h"
#include "report/HtmlReport.h"
#include "report/OptRecord.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

using namespace llvm;
using namespace decoupler;
using namespace decoupler::tool;

namespace {

void printError(const Twine &Message) {
  WithColor::error(errs(), "decoupler") << Message << "\n";
}

/// Prints \p E unless llvm::cl already did (an empty message).
void printError(Error E) {
  std::string Message = toString(std::move(E));
  if (!Message.empty())
    printError(Message);
}

/// The compile commands: `--`, -p, or none.
Expected<CompileCommands>
selectCompileCommands(const ToolOptions &Opts,
                      std::optional<CompileCommands> Fixed) {
  if (Fixed) {
    if (!Opts.BuildPath.empty())
      return createStringError(inconvertibleErrorCode(),
                               "-p cannot be combined with '--' (use "
                               "--extra-arg to add arguments to the "
                               "database's commands)");
    return std::move(*Fixed);
  }
  if (!Opts.BuildPath.empty())
    return CompileCommands::fromBuildPath(Opts.BuildPath);
  return CompileCommands();
}

/// Checks that every input is a file; reports each one that is not.
bool checkInputs(ArrayRef<std::string> Inputs) {
  bool Ok = true;
  for (const std::string &Input : Inputs) {
    sys::fs::file_status Status;
    if (sys::fs::status(Input, Status) || !sys::fs::exists(Status)) {
      printError("no such file: '" + Input + "'");
      Ok = false;
    } else if (sys::fs::is_directory(Status)) {
      printError("'" + Input + "' is a directory, not a source file");
      Ok = false;
    }
  }
  return Ok;
}

/// Finds the CUDA installation, clang's resource directory and the runtime
/// headers.
Expected<ParseSettings> findInstallation(const ToolOptions &Opts,
                                         const char *Argv0) {
  static int AddressInExecutable;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &AddressInExecutable);
  StringRef ExeDir = sys::path::parent_path(Exe);

  ParseSettings Settings;
  Expected<std::string> Cuda = findCudaPath(Opts.CudaPath);
  if (!Cuda)
    return Cuda.takeError();
  Settings.CudaPath = std::move(*Cuda);
  Settings.NvccMacros = nvccVersionMacros(Settings.CudaPath);
  Expected<std::string> ResourceDir = findResourceDir(ExeDir);
  if (!ResourceDir)
    return ResourceDir.takeError();
  Settings.ResourceDir = std::move(*ResourceDir);
  Settings.RuntimeIncludeDir = findRuntimeIncludeDir(ExeDir);
  if (!Settings.RuntimeIncludeDir)
    WithColor::warning(errs(), "decoupler")
        << "cannot find the dd runtime headers (dd/annotate.h) next to the "
           "executable or in the source tree; <dd/...> includes will fail\n";
  Settings.CudaGpuArchs = Opts.CudaGpuArchs;
  Settings.ExtraArgsBefore = Opts.ExtraArgsBefore;
  Settings.ExtraArgs = Opts.ExtraArgs;
  return Settings;
}

/// Turns each file's outcome, in input order, into output: diagnostics, the
/// report, the diff or the rewritten file.
class OutcomeHandler {
public:
  OutcomeHandler(const ToolOptions &Opts, ArrayRef<std::string> Inputs,
                 ArrayRef<std::string> Outputs,
                 ArrayRef<clang::tooling::CompileCommand> Commands)
      : Opts(Opts), Inputs(Inputs), Outputs(Outputs), Commands(Commands),
        Progress(Inputs.size() > 1 && sys::Process::StandardErrIsDisplayed()),
        TextReportStream(TextReports) {}

  void handle(size_t I, FileOutcome &Outcome);
  /// Prints or writes what is written once for all files (JSON, -o reports).
  void finish();
  bool failed() const { return Failed; }
  /// --check: some file would change.
  bool wouldChange() const { return WouldChange; }

private:
  void report(FileResult &Result);
  /// Input \p I as it is on disk; null (reported, failed) if unreadable.
  std::unique_ptr<MemoryBuffer> readInput(size_t I);
  void diff(size_t I, const FileResult &Result);
  void write(size_t I, const FileResult &Result);
  void writeDepFile(size_t I, const FileResult &Result);
  void count(const FileResult &Result);

  const ToolOptions &Opts;
  ArrayRef<std::string> Inputs;
  ArrayRef<std::string> Outputs;
  ArrayRef<clang::tooling::CompileCommand> Commands;
  const bool Progress;
  bool Failed = false;
  bool WouldChange = false;
  // --stats
  unsigned Files = 0, FilesFailed = 0, FilesChanged = 0, Kernels = 0;
  unsigned Refusals = 0, Declines = 0;
  std::vector<std::pair<std::string, unsigned>> Rewrites;
  std::vector<FileReport> JSONReports;
  /// --report=html: each file's report and decisions, for one page.
  std::vector<std::pair<FileReport, std::vector<Decision>>> HTMLFiles;
  /// --remarks-output: the decisions of every file that succeeded.
  std::vector<Decision> Remarks;
  bool AnySucceeded = false;
  std::string TextReports;
  raw_string_ostream TextReportStream;
};

void OutcomeHandler::handle(size_t I, FileOutcome &Outcome) {
  const std::string &Input = Inputs[I];
  if (Progress)
    errs() << "[" << I + 1 << "/" << Inputs.size() << "] " << Input << "\n";
  if (Opts.PrintCommands)
    errs() << "decoupler: command for '" << Input << "' (in "
           << Commands[I].Directory
           << "): " << formatCommandLine(Commands[I].CommandLine) << "\n";
  errs() << Outcome.Diagnostics;
  if (Outcome.CrashSignal) {
    printError("crashed while processing '" + Input + "' (" +
               strsignal(Outcome.CrashSignal) +
               "); nothing is written for it. Deeply nested code can "
               "exhaust the stack; otherwise this is a bug in decoupler: "
               "please report it with the file");
    Failed = true;
    return;
  }
  ++Files;
  count(Outcome.Result);
  if (!Outcome.Succeeded && !Outcome.Result.Parsed &&
      !Outcome.Diagnostics.empty()) {
    // clang's own errors: the passes never saw the file. nvcc accepts some
    // CUDA that clang does not (a __shared__ object whose constructor is
    // not empty by clang's rule, a braced launch configuration).
    if (Opts.Unparsed == UnparsedMode::Copy && !Opts.Run.Analyze) {
      WithColor::warning(errs(), "decoupler")
          << "'" << Input
          << "' did not parse (the errors above): its output is the input, "
             "unchanged (--unparsed=copy)\n";
      AnySucceeded = true;
      // Unchanged: --diff and --check have nothing to say, --in-place
      // nothing to write (write() leaves an unchanged input alone).
      if (Opts.Diff || Opts.Check)
        return;
      if (std::unique_ptr<MemoryBuffer> Original = readInput(I)) {
        FileResult Copy;
        Copy.Rewritten = Original->getBuffer().str();
        Copy.Dependencies = std::move(Outcome.Result.Dependencies);
        write(I, Copy);
      }
      return;
    }
    printError("'" + Input +
               "' did not parse (the errors above), so nothing is written "
               "for it. decoupler parses with clang, as CUDA, host side, "
               "and clang rejects some code that nvcc accepts: "
               "--unparsed=copy writes such a file unchanged "
               "(docs/usage.md, \"When clang does not parse a file\")");
    ++FilesFailed;
    Failed = true;
    return;
  }
  if (!Outcome.Succeeded) {
    if (Outcome.Diagnostics.empty())
      printError("processing '" + Input + "' failed");
    ++FilesFailed;
    Failed = true;
    return;
  }
  if (Opts.Check && Outcome.Result.Changed) {
    WouldChange = true;
    WithColor::note(errs(), "decoupler")
        << "'" << Input << "' would be rewritten\n";
  }
  AnySucceeded = true;
  if (!Opts.RemarksOutput.empty())
    llvm::append_range(Remarks, Outcome.Result.Decisions);
  if (Opts.Run.Analyze)
    report(Outcome.Result);
  else if (Opts.Diff)
    diff(I, Outcome.Result);
  else if (!Opts.Check)
    write(I, Outcome.Result);
}

void OutcomeHandler::count(const FileResult &Result) {
  Kernels += Result.Kernels;
  Refusals += Result.Refusals;
  Declines += Result.Declines;
  FilesChanged += Result.Changed;
  for (const std::pair<std::string, unsigned> &PassCount :
       Result.RewritesByPass) {
    auto It = llvm::find_if(
        Rewrites, [&](const auto &P) { return P.first == PassCount.first; });
    if (It == Rewrites.end())
      Rewrites.push_back(PassCount);
    else
      It->second += PassCount.second;
  }
}

void OutcomeHandler::report(FileResult &Result) {
  FileReport &Report = Result.Report;
  if (Opts.Report == ReportFormat::HTML) {
    // One page for all files, printed by finish().
    HTMLFiles.emplace_back(std::move(Report), std::move(Result.Decisions));
  } else if (Opts.Report == ReportFormat::JSON) {
    // One JSON document for all files, printed by finish().
    JSONReports.push_back(std::move(Report));
  } else if (!Opts.OutputFile.empty()) {
    printText(Report, TextReportStream);
  } else {
    printText(Report, outs());
    outs().flush();
  }
}

std::unique_ptr<MemoryBuffer> OutcomeHandler::readInput(size_t I) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Original =
      MemoryBuffer::getFile(Inputs[I], /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Original) {
    printError("cannot read '" + Inputs[I] +
               "': " + Original.getError().message());
    Failed = true;
    return nullptr;
  }
  return std::move(*Original);
}

void OutcomeHandler::diff(size_t I, const FileResult &Result) {
  std::unique_ptr<MemoryBuffer> Original = readInput(I);
  if (!Original)
    return;
  outs() << unifiedDiff(Original->getBuffer(), Result.Rewritten,
                        diffLabel(Inputs[I]));
  outs().flush();
}

void OutcomeHandler::write(size_t I, const FileResult &Result) {
  // Leaving an unchanged file alone keeps its timestamp for the build.
  if (Opts.InPlace && !Result.Changed)
    return;
  std::string Text = Result.Rewritten;
  // Lines of a changed file point back at the input (not in place: there
  // the output is the input; not when unchanged: a copy stays a copy).
  if (Opts.LineDirectives && Result.Changed && !Opts.InPlace) {
    std::unique_ptr<MemoryBuffer> Original = readInput(I);
    if (!Original)
      return;
    SmallString<256> InputPath(Inputs[I]), OutputPath;
    sys::path::make_absolute(Commands[I].Directory, InputPath);
    if (Outputs[I] != "-") {
      OutputPath = Outputs[I];
      sys::fs::make_absolute(OutputPath);
    }
    Text =
        addLineDirectives(Original->getBuffer(), Text, InputPath, OutputPath);
  }
  // An existing file keeps its mode, owner, group and links.
  if (Error E = writeOutputFile(Outputs[I], Text)) {
    printError(std::move(E));
    Failed = true;
    return;
  }
  if (!Opts.DepFile.empty())
    writeDepFile(I, Result);
}

/// Make's escaping of a file name in a rule.
std::string makeEscaped(StringRef Path) {
  std::string Out;
  for (size_t I = 0; I < Path.size(); ++I) {
    char C = Path[I];
    if (C == ' ' || C == '#') {
      // Backslashes before a space or '#' are doubled, then it is escaped.
      for (size_t J = I; J > 0 && Path[J - 1] == '\\'; --J)
        Out += '\\';
      Out += '\\';
    } else if (C == '$') {
      Out += '$';
    }
    Out += C;
  }
  return Out;
}

void OutcomeHandler::writeDepFile(size_t I, const FileResult &Result) {
  std::string Text = makeEscaped(Outputs[I]) + ":";
  std::vector<std::string> Deps = Result.Dependencies;
  SmallString<256> Input(Inputs[I]);
  sys::path::make_absolute(Commands[I].Directory, Input);
  Deps.insert(Deps.begin(), std::string(Input));
  StringSet<> Seen;
  for (const std::string &Dep : Deps) {
    SmallString<256> Path(Dep);
    sys::path::make_absolute(Commands[I].Directory, Path);
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    if (!Seen.insert(Path).second)
      continue;
    Text += " \\\n  " + makeEscaped(Path);
  }
  Text += "\n";
  if (Error E = writeOutputFile(Opts.DepFile, Text)) {
    printError(std::move(E));
    Failed = true;
  }
}

void OutcomeHandler::finish() {
  if (Opts.Stats) {
    std::string Line;
    raw_string_ostream OS(Line);
    OS << "decoupler: " << Files << (Files == 1 ? " file" : " files");
    if (FilesFailed)
      OS << " (" << FilesFailed << " failed)";
    OS << ", " << Kernels << (Kernels == 1 ? " kernel" : " kernels");
    if (!Opts.Run.Analyze) {
      OS << ", " << FilesChanged << " changed; rewrites:";
      if (Rewrites.empty())
        OS << " none";
      for (size_t K = 0; K < Rewrites.size(); ++K)
        OS << (K ? ", " : " ") << Rewrites[K].first << " "
           << Rewrites[K].second;
      OS << "; refusals: " << Refusals << ", declined: " << Declines;
    }
    errs() << Line << "\n";
  }
  // As every output: nothing when no file succeeded.
  if (!Opts.RemarksOutput.empty() && AnySucceeded) {
    std::string YAML;
    raw_string_ostream YAMLStream(YAML);
    Error E = printOptRecords(Remarks, YAMLStream);
    if (!E)
      E = writeOutputFile(Opts.RemarksOutput, YAML);
    if (E) {
      printError(std::move(E));
      Failed = true;
    }
  }
  if (!Opts.Run.Analyze)
    return;
  std::string Document; // JSON or HTML: one for all files
  if (Opts.Report == ReportFormat::JSON &&
      (!JSONReports.empty() || Inputs.size() > 1)) {
    raw_string_ostream JSONStream(Document);
    printJSON(JSONReports, JSONStream, /*Array=*/Inputs.size() > 1);
  } else if (Opts.Report == ReportFormat::HTML && !HTMLFiles.empty()) {
    std::vector<HtmlFile> Files;
    for (const auto &[Report, Decisions] : HTMLFiles)
      Files.push_back({&Report, Decisions});
    raw_string_ostream HTMLStream(Document);
    printHTML(Files, HTMLStream);
  }
  if (Opts.OutputFile.empty()) {
    outs() << Document;
    outs().flush();
    return;
  }
  // Nothing compiled, nothing to write.
  const std::string &Report =
      Opts.Report == ReportFormat::Text ? TextReports : Document;
  if (!Report.empty())
    if (Error E = writeOutputFile(Opts.OutputFile, Report)) {
      printError(std::move(E));
      Failed = true;
    }
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM Init(Argc, Argv);

  // `--` must come off before llvm::cl sees the arguments; its errors wait
  // until --help and --version had their chance.
  Expected<std::optional<CompileCommands>> FixedCommands =
      CompileCommands::fromCommandLine(Argc, Argv);
  Expected<ToolOptions> ParsedOpts = parseCommandLine(Argc, Argv);
  if (!ParsedOpts) {
    consumeError(FixedCommands.takeError());
    printError(ParsedOpts.takeError());
    return 1;
  }
  const ToolOptions &Opts = *ParsedOpts;
  // One answer for the driver's messages and clang's diagnostics.
  // (NO_COLOR: https://no-color.org, for `auto` only.)
  static bool UseColor =
      Opts.Color == ToolOptions::ColorMode::Always ||
      (Opts.Color == ToolOptions::ColorMode::Auto &&
       sys::Process::StandardErrHasColors() &&
       !sys::Process::GetEnv("NO_COLOR").value_or("").size());
  WithColor::setAutoDetectFunction(
      [](const raw_ostream &) { return UseColor; });
  if (!FixedCommands) {
    printError(FixedCommands.takeError());
    return 1;
  }
  Expected<CompileCommands> Commands =
      selectCompileCommands(Opts, std::move(*FixedCommands));
  if (!Commands) {
    printError(Commands.takeError());
    return 1;
  }

  std::vector<std::string> Inputs = Opts.InputFiles;
  if (Inputs.empty()) {
    if (Opts.BuildPath.empty()) {
      printError("no input files");
      errs() << usageLine() << "\n";
      return 1;
    }
    // Never the tool's own outputs: *.dd.cu, anything under --out-dir.
    SmallString<256> OutDir(Opts.OutDir);
    if (!OutDir.empty()) {
      sys::fs::make_absolute(OutDir);
      sys::path::remove_dots(OutDir, /*remove_dot_dot=*/true);
    }
    for (std::string &File : Commands->cudaFiles()) {
      if (StringRef(File).ends_with(".dd.cu"))
        continue;
      if (!OutDir.empty() && StringRef(File).starts_with(OutDir) &&
          File.size() > OutDir.size() &&
          sys::path::is_separator(File[OutDir.size()]))
        continue;
      Inputs.push_back(std::move(File));
    }
    if (Inputs.empty()) {
      printError("no .cu files in the compilation database of -p '" +
                 Opts.BuildPath + "'");
      return 1;
    }
  }
  const bool Rewriting = !Opts.Run.Analyze && !Opts.Diff && !Opts.Check;
  if (!Opts.DepFile.empty() && Inputs.size() != 1) {
    printError("--depfile describes one output but there are " +
               Twine(Inputs.size()) + " input files");
    return 1;
  }
  if (Rewriting && !Opts.OutputFile.empty() && Inputs.size() > 1) {
    printError("-o names one output file but there are " +
               Twine(Inputs.size()) + " input files (use --out-dir)");
    return 1;
  }
  if (!checkInputs(Inputs))
    return 1;
  std::vector<std::string> Outputs;
  if (Rewriting) {
    Expected<std::vector<std::string>> Planned = planOutputs(
        Inputs, OutputChoice{Opts.OutputFile, Opts.OutDir, Opts.InPlace});
    if (!Planned) {
      printError(Planned.takeError());
      return 1;
    }
    Outputs = std::move(*Planned);
  }
  if (!Opts.RemarksOutput.empty()) {
    std::vector<std::string> Others = Outputs;
    if (!Rewriting && !Opts.OutputFile.empty())
      Others.push_back(Opts.OutputFile);
    if (Error E = checkSeparateOutput("--remarks-output", Opts.RemarksOutput,
                                      Inputs, Others)) {
      printError(std::move(E));
      return 1;
    }
  }
  Expected<ParseSettings> Settings = findInstallation(Opts, Argv[0]);
  if (!Settings) {
    printError(Settings.takeError());
    return 1;
  }

  // Commands are computed up front: database lookups then need no locking.
  std::vector<clang::tooling::CompileCommand> FileCommands;
  for (const std::string &Input : Inputs) {
    FileCommands.push_back(Commands->commandFor(Input, *Settings));
    // A file the database does not list is still processed, but the user
    // should know its command is a guess.
    if (Commands->isBuildDatabase() && !Commands->lists(Input))
      WithColor::warning(errs(), "decoupler")
          << "'" << Input
          << "' is not in the compilation database; parsing it with "
          << (FileCommands.back().Heuristic.empty()
                  ? std::string("no arguments of its own")
                  : "a command " + FileCommands.back().Heuristic)
          << "\n";
  }

  OutcomeHandler Handler(Opts, Inputs, Outputs, FileCommands);
  runOnFiles(
      FileCommands, Opts.Run, Opts.Jobs, UseColor,
      [&](size_t I, FileOutcome &Outcome) { Handler.handle(I, Outcome); });
  Handler.finish();
  return Handler.failed() || Handler.wouldChange() ? 1 : 0;
}
