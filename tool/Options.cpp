//===- Options.cpp - decoupler's command-line options ---------------------===//
//
// llvm::cl options in a few categories; LLVM's own options are hidden so that
// `--help` shows only what decoupler understands. The text of `--help` is the
// user's first documentation: every option says what it does and what it
// conflicts with.
//
//===----------------------------------------------------------------------===//
#include "Options.h"
#include "NvccPrelude.h"

#include "clang/Basic/OffloadArch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <memory>
#include <tuple>

using namespace llvm;

namespace decoupler::tool {
namespace {

// llvm::cl lists categories by name; these names sort into a useful order.
cl::OptionCategory ModeCategory("Analysis and rewriting");
cl::OptionCategory CompileCategory("Compile commands");
cl::OptionCategory OutputCategory("Output files");

const char Overview[] =
    "source-to-source compiler for CUDA (decoupled delegate)\n"
    "\n"
    "  Takes work that all threads of a kernel repeat or fight over (address\n"
    "  arithmetic, lock-protected critical sections, contended atomics) away\n"
    "  from the data-parallel threads and hands it to a few delegate threads.\n"
    "  Each file is parsed once, host side, by clang as CUDA; by default the\n"
    "  rewritten source is written to <name>.dd.cu next to the input, and a\n"
    "  file to which no pass applies is copied unchanged.\n";

// Help texts are wrapped for an 80-column terminal: llvm::cl indents them by
// the width of the longest option name.
cl::list<std::string> InputFiles(cl::Positional,
                                 cl::desc("<file.cu>... [-- <compiler args>]"));

cl::opt<bool>
    Analyze("analyze",
            cl::desc("Print the classification report (scalar, affine\n"
                     "or nonaffine for each access, branch and variable\n"
                     "of each kernel) instead of rewriting; writes no\n"
                     "source. Format: docs/analysis.md"),
            cl::cat(ModeCategory));

cl::opt<ReportFormat> Report(
    "report", cl::desc("Format of the --analyze report"),
    cl::value_desc("format"),
    cl::values(clEnumValN(ReportFormat::Text, "text",
                          "readable, one block per file (default)"),
               clEnumValN(ReportFormat::JSON, "json",
                          "JSON of docs/analysis.md; array for 2+ files"),
               clEnumValN(ReportFormat::HTML, "html",
                          "one self-contained page for all files:\n"
                          "coloured source, every pass decision")),
    cl::init(ReportFormat::Text), cl::cat(ModeCategory));

cl::opt<bool>
    Diff("diff",
         cl::desc("Print a unified diff (--- a/<file>, +++ b/<file>,\n"
                  "3 lines of context) of what the rewrite changes\n"
                  "instead of writing; nothing for unchanged files"),
         cl::cat(ModeCategory));

cl::opt<bool>
    Check("check",
          cl::desc("Write nothing; exit 1 when the rewrite would change\n"
                   "a file (naming each on stderr), 0 otherwise: for\n"
                   "CI gates. With --diff, also print the diff"),
          cl::cat(ModeCategory));

cl::list<std::string>
    Passes("passes",
           cl::desc("Run only these rewrite passes (comma-separated,\n"
                    "may be repeated; default: every pass that\n"
                    "applies): split, delegate, atomics. split\n"
                    "rewrites accepted annotated loops (restrict/hoist\n"
                    "or a producer/consumer split) and explains the rest"),
           cl::value_desc("pass,..."), cl::CommaSeparated,
           cl::cat(ModeCategory));

cl::opt<unsigned>
    Jobs("j",
         cl::desc("Process N files in parallel (default 1; 0: one\n"
                  "per hardware thread); output stays in input order"),
         cl::value_desc("N"), cl::init(1), cl::Prefix, cl::cat(ModeCategory));

// Spelled with one dash like clang's -R remark flags; llvm::cl would list
// them with two, so they are described in the REMARKS section instead.
cl::opt<bool> RemarkAll("Rdecoupler", cl::desc("See REMARKS below"), cl::Hidden,
                        cl::cat(ModeCategory));
cl::opt<bool> RemarkAffine("Rdecoupler-affine", cl::desc("See REMARKS below"),
                           cl::Hidden, cl::cat(ModeCategory));

// -W<group>, -Wno-<group>, -Werror=<group>, -Wno-error=<group>, as clang
// spells them; the only group is decoupler-declined (support/PassDiagnostics).
// Described in the WARNINGS section.
cl::opt<bool> WarnDeclined("Wdecoupler-declined",
                           cl::desc("See WARNINGS below"), cl::Hidden,
                           cl::cat(ModeCategory));
cl::opt<bool> NoWarnDeclined("Wno-decoupler-declined",
                             cl::desc("See WARNINGS below"), cl::Hidden,
                             cl::cat(ModeCategory));
cl::list<std::string> WarningsAsErrors("Werror", cl::desc("See WARNINGS below"),
                                       cl::value_desc("group"), cl::Hidden,
                                       cl::cat(ModeCategory));
cl::list<std::string> NoWarningsAsErrors("Wno-error",
                                         cl::desc("See WARNINGS below"),
                                         cl::value_desc("group"), cl::Hidden,
                                         cl::cat(ModeCategory));

cl::opt<std::string>
    OutputFile("o",
               cl::desc("Write the rewritten source (with --analyze: the\n"
                        "report) to <file>; '-' is standard output. One\n"
                        "input when rewriting; never the input itself"),
               cl::value_desc("file"), cl::cat(OutputCategory));

cl::opt<std::string>
    RemarksOutput("remarks-output",
                  cl::desc("Also write every pass decision to <file> as LLVM\n"
                           "optimization records (YAML, as clang's\n"
                           "-fsave-optimization-record) for opt-viewer.py;\n"
                           "with -Rdecoupler-affine the classes too"),
                  cl::value_desc("file"), cl::cat(OutputCategory));

cl::opt<std::string>
    OutDir("out-dir",
           cl::desc("Write <dir>/<stem>.dd.cu instead of <stem>.dd.cu\n"
                    "next to each input; <dir> is created if missing"),
           cl::value_desc("dir"), cl::cat(OutputCategory));

cl::opt<std::string>
    DepFile("depfile",
            cl::desc("Also write a Make-style depfile '<output>: <input>\n"
                     "<headers>...' (the files the parse read, system\n"
                     "headers left out), for build systems (CMake\n"
                     "DEPFILE, ninja depfile). One input, rewriting"),
            cl::value_desc("file"), cl::cat(OutputCategory));

cl::opt<bool> NoLineDirectives(
    "no-line-directives",
    cl::desc("Do not put #line directives in rewritten files\n"
             "(by default their lines point nvcc, cuda-gdb and\n"
             "compute-sanitizer at the input's lines, generated\n"
             "lines at the output's own)"),
    cl::cat(OutputCategory));

cl::opt<UnparsedMode> Unparsed(
    "unparsed",
    cl::desc("What a file gets that clang does not parse (clang,\n"
             "host side, rejects some CUDA that nvcc accepts)"),
    cl::values(clEnumValN(UnparsedMode::Error, "error",
                          "an error; nothing written for it (default)"),
               clEnumValN(UnparsedMode::Copy, "copy",
                          "a warning; its output is the input,\n"
                          "unchanged, so a build goes on")),
    cl::init(UnparsedMode::Error), cl::cat(OutputCategory));

cl::opt<bool>
    InPlace("in-place",
            cl::desc("Overwrite each input with its rewritten source\n"
                     "(left untouched when no pass changed it)"),
            cl::cat(OutputCategory));

cl::opt<std::string>
    BuildPath("p",
              cl::desc("Build directory with compile_commands.json\n"
                       "(also searched in its parents), or that file.\n"
                       "nvcc commands are translated; files missing from\n"
                       "it get a command inferred from similar files.\n"
                       "No input files: every .cu file of the database"),
              cl::value_desc("build-path"), cl::cat(CompileCategory));

cl::list<std::string>
    ExtraArgs("extra-arg",
              cl::desc("Compiler argument to append to each command"),
              cl::value_desc("arg"), cl::cat(CompileCategory));

cl::list<std::string>
    ExtraArgsBefore("extra-arg-before",
                    cl::desc("Compiler argument to prepend to each command"),
                    cl::value_desc("arg"), cl::cat(CompileCategory));

cl::opt<std::string>
    CudaPath("cuda-path",
             cl::desc("CUDA installation to parse against (the one with\n"
                      "include/cuda_runtime.h). Default: $CUDA_PATH,\n"
                      "then /usr/local/cuda"),
             cl::value_desc("dir"), cl::cat(CompileCategory));

cl::list<std::string> CudaGpuArch(
    "cuda-gpu-arch",
    cl::desc("GPU architectures the file is compiled for (sm_75,sm_90 or\n"
             "the option repeated). Default: those the compile command\n"
             "names (nvcc -arch, -gencode, or nvcc's default when it names\n"
             "none: sm_75 from CUDA 13; -arch=native: this machine's GPUs;\n"
             "clang --cuda-gpu-arch), else\n"
             "sm_90. The device view compares each, and a pass whose code\n"
             "needs a newer GPU than one of them is refused"),
    cl::value_desc("sm_XX"), cl::CommaSeparated, cl::cat(CompileCategory));

cl::opt<bool>
    AtomicsFloat("atomics-float",
                 cl::desc("Let the atomics pass aggregate float and double\n"
                          "atomicAdd too (the warp reduction reorders the\n"
                          "additions: results may differ in the last bits)"),
                 cl::cat(ModeCategory));

enum class DelegateMode { Annotated, Auto };
cl::opt<DelegateMode>
    Delegate("delegate",
             cl::desc("Which try-lock loops the delegate pass rewrites"),
             cl::values(clEnumValN(DelegateMode::Annotated, "annotated",
                                   "those annotated '#pragma dd delegate'\n"
                                   "(default); what cannot be rewritten\n"
                                   "is an error"),
                        clEnumValN(DelegateMode::Auto, "auto",
                                   "also unannotated ones, each with a\n"
                                   "remark; a try-lock loop that cannot be\n"
                                   "rewritten is left alone with a warning\n"
                                   "that says why")),
             cl::init(DelegateMode::Annotated), cl::cat(ModeCategory));

enum class SplitMode { Annotated, Auto };
cl::opt<SplitMode>
    Split("split",
          cl::desc("Which loops the split pass plans and, where\n"
                   "it accepts them, rewrites"),
          cl::values(clEnumValN(SplitMode::Annotated, "annotated",
                                "those annotated '#pragma dd decouple'\n"
                                "(default); an illegal one is an error,\n"
                                "a cost-model decline a warning"),
                     clEnumValN(SplitMode::Auto, "auto",
                                "also every other loop with an affine\n"
                                "load: each rewrite a remark, every other\n"
                                "decision one under -Rdecoupler")),
          cl::init(SplitMode::Annotated), cl::cat(ModeCategory));

cl::opt<bool>
    PrintCommands("print-commands",
                  cl::desc("Print each file's final compiler command line\n"
                           "(after nvcc translation and adjustments) to\n"
                           "stderr before its diagnostics"),
                  cl::cat(CompileCategory));

// Printed and done, as --version is: no input needed.
cl::opt<bool>
    PrintNvccPrelude("print-nvcc-prelude",
                     cl::desc("Print the header every parse force-includes\n"
                              "('/<decoupler>/nvcc_prelude.h', served from\n"
                              "memory): what nvcc declares and clang's CUDA\n"
                              "headers lack; then exit"),
                     cl::cat(CompileCategory), cl::ValueDisallowed,
                     cl::callback([](const bool &) {
                       outs() << nvccPrelude();
                       outs().flush();
                       std::exit(0);
                     }));

cl::extrahelp Examples(R"(
REMARKS:
  Clang remarks at the source position, for FileCheck or for the curious:
  -Rdecoupler              - What each pass did or did not do, and why
  -Rdecoupler-affine       - The class of every memory access and branch
                             condition

WARNINGS:
  -Wdecoupler-declined     - An annotated construct that a pass leaves as
                             written is a warning (default): a '#pragma dd
                             decouple' loop the split pass declines, a
                             min/max of a '#pragma dd monotonic' kernel left
                             as written (its own check already filters it,
                             the kernel writes its array otherwise, or it is
                             in code another pass replaced), an atomic(...)
                             atomic in replaced code, a monotonic kernel with
                             no min/max
  -Wno-decoupler-declined  - Silence it (-Rdecoupler still says why)
  -Werror=decoupler-declined
                           - Make it an error: nothing is written
  -Wno-error=decoupler-declined
                           - Undo -Werror=decoupler-declined (the last wins)
  Compiler warning flags (-Wall, ...) go after '--'.

SUMMARY AND COLOR:
  --stats                  - End with one summary line on stderr: files,
                             kernels, files changed, rewrites by pass,
                             refusals and declines
  --color=auto|always|never
                           - Colours in diagnostics: auto (default) when
                             stderr is a terminal; always under ninja or in
                             CI logs that render them

CONFLICTS:
  -o, --out-dir, --in-place and --diff each say where the result goes: at
  most one of them. --analyze writes no source (so no --out-dir, --in-place,
  --diff or --passes) and --report needs it. --check writes nothing (no -o,
  --out-dir, --in-place, --analyze or --depfile). --depfile needs one input
  that is rewritten to a file.

EXAMPLES:
  decoupler kernel.cu
      Rewrite kernel.cu into kernel.dd.cu (identical when no pass applies).
  decoupler --diff kernel.cu
      Show what would change, as a unified diff; write nothing.
  decoupler --analyze --report=json kernel.cu -- -DBLOCK=1024 -Iinclude
      Print the JSON classification report; compiler arguments after '--'.
  decoupler --analyze --report=html -o report.html kernel.cu k.cu
      One self-contained page: each kernel's source coloured by class, the
      strides on hover, every pass decision and why (docs/usage.md).
  decoupler k.cu --remarks-output=k.opt.yaml
      Rewrite, and keep every decision as LLVM optimization records for
      opt-viewer.py, opt-stats.py and opt-diff.py.
  decoupler -p build --out-dir build/dd -j 0
      Rewrite every .cu file of build/compile_commands.json into build/dd/,
      one file per hardware thread.
  decoupler --passes=atomics -Rdecoupler --in-place src/histogram.cu
      Run only the atomics pass, explain what it did, overwrite the input.
  decoupler --passes=delegate --delegate=auto ht.cu -o ht.dd.cu
      Hand every recognized try-lock critical section to server blocks.
  decoupler --passes=split --split=auto -Rdecoupler -o - k.cu >/dev/null
      Show the affine-stream split plan (streams, stages, predicted gain) or
      the refusal or decline of every loop, and split the unannotated loops
      it accepts and can generate code for (docs/split-pass.md).
  decoupler --passes=split -Rdecoupler k.cu -o k.dd.cu
      Rewrite the loops annotated '#pragma dd decouple' that the split
      pass accepts: restrict/hoist in place, or k_split and k_launch.

COMPILE COMMANDS:
  Without -p or '--', a file is parsed with no arguments of its own. Every
  file is parsed host side as CUDA (-x cuda --cuda-host-only), with
  __DECOUPLER__ defined, the dd runtime headers on the include path,
  clang's resource directory found at run time ($DECOUPLER_RESOURCE_DIR
  overrides it) and a prelude of what nvcc declares and clang's CUDA
  headers lack (--print-nvcc-prelude). Details: docs/usage.md.

EXIT STATUS:
  0 when every file was processed; 1 on a usage error, a missing file or
  installation, or when any file failed to compile or could not be written
  (the other files are still processed and written).
)");

void printVersion(raw_ostream &OS) {
  OS << "decoupler " << DECOUPLER_VERSION << " (LLVM " << LLVM_VERSION_STRING
     << ")\n";
}

Error usageError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// Options that cannot be used together, checked in a fixed order so the
/// message names the first conflict.
Error checkConflicts(bool HaveOutputFile) {
  struct Flag {
    const char *Name;
    bool Given;
  };
  const Flag OFlag{"-o", HaveOutputFile};
  const Flag OutDirFlag{"--out-dir", !OutDir.empty()};
  const Flag InPlaceFlag{"--in-place", InPlace};
  const Flag DiffFlag{"--diff", Diff};
  const Flag AnalyzeFlag{"--analyze", Analyze};
  const Flag CheckFlag{"--check", Check};
  const Flag DepFileFlag{"--depfile", DepFile.getNumOccurrences() > 0};
  const std::pair<Flag, Flag> Conflicts[] = {
      {CheckFlag, OFlag},        {CheckFlag, OutDirFlag},
      {CheckFlag, InPlaceFlag},  {CheckFlag, AnalyzeFlag},
      {CheckFlag, DepFileFlag},  {DepFileFlag, AnalyzeFlag},
      {DepFileFlag, DiffFlag},   {DepFileFlag, InPlaceFlag},
      {InPlaceFlag, OFlag},      {InPlaceFlag, OutDirFlag},
      {InPlaceFlag, DiffFlag},   {InPlaceFlag, AnalyzeFlag},
      {DiffFlag, OFlag},         {DiffFlag, OutDirFlag},
      {DiffFlag, AnalyzeFlag},   {OFlag, OutDirFlag},
      {AnalyzeFlag, OutDirFlag},
  };
  for (const auto &[A, B] : Conflicts)
    if (A.Given && B.Given)
      return usageError(Twine(A.Name) + " cannot be combined with " + B.Name);
  return Error::success();
}

/// --remarks-output names a file of its own; `-` (standard output) only
/// where nothing else is printed there.
Error checkRemarksOutput(bool HaveOutputFile) {
  if (!RemarksOutput.getNumOccurrences())
    return Error::success();
  if (RemarksOutput.empty())
    return usageError("--remarks-output: empty file name");
  if (HaveOutputFile && RemarksOutput == OutputFile)
    return usageError("--remarks-output and -o name the same file '" +
                      OutputFile + "'");
  if (RemarksOutput == "-" && (Diff || (Analyze && !HaveOutputFile)))
    return usageError(
        "--remarks-output=- would share standard output with the " +
        Twine(Diff ? "diff" : "report"));
  return Error::success();
}

Error checkPasses() {
  if (Passes.getNumOccurrences() && Analyze)
    return usageError("--passes selects rewrite passes; it has no effect with "
                      "--analyze");
  if (is_contained(Passes, ""))
    return usageError("--passes: empty pass name");
  for (const std::string &Name : Passes) {
    if (!isKnownPass(Name)) {
      return usageError("--passes: unknown pass '" + Name +
                        "' (passes: " + join(availablePasses(), ", ") + ")");
    }
  }
  return Error::success();
}

/// The last of -Wdecoupler-declined, -Wno-decoupler-declined,
/// -Werror=decoupler-declined and -Wno-error=decoupler-declined wins, as in
/// clang.
Expected<DeclinedSeverity> declinedSeverity() {
  enum Action { Enable, Disable, AsError, NotAsError };
  std::vector<std::pair<unsigned, Action>> Given;
  if (WarnDeclined.getNumOccurrences())
    Given.push_back({WarnDeclined.getPosition(), Enable});
  if (NoWarnDeclined.getNumOccurrences())
    Given.push_back({NoWarnDeclined.getPosition(), Disable});
  for (auto [List, Flag, What] :
       {std::make_tuple(std::addressof(WarningsAsErrors), "-Werror=", AsError),
        std::make_tuple(std::addressof(NoWarningsAsErrors),
                        "-Wno-error=", NotAsError)})
    for (unsigned I = 0; I < List->size(); ++I) {
      if ((*List)[I] != DeclinedGroup)
        return usageError(Twine(Flag) + (*List)[I] +
                          ": unknown warning group (decoupler's is " +
                          DeclinedGroup +
                          "; compiler warning flags go after '--')");
      Given.push_back({List->getPosition(I), What});
    }
  llvm::sort(Given);
  bool Enabled = true, Error = false;
  for (const auto &[Position, What] : Given) {
    if (What == Enable)
      Enabled = true;
    else if (What == Disable)
      Enabled = false;
    else if (What == AsError)
      Enabled = Error = true;
    else
      Error = false;
  }
  if (!Enabled)
    return DeclinedSeverity::Ignore;
  return Error ? DeclinedSeverity::Error : DeclinedSeverity::Warning;
}

Error checkGpuArch() {
  for (const std::string &Name : CudaGpuArch) {
    clang::OffloadArch Arch = clang::StringToOffloadArch(Name);
    if (Arch == clang::OffloadArch::UNKNOWN ||
        !clang::IsNVIDIAOffloadArch(Arch))
      return usageError("--cuda-gpu-arch: '" + Name +
                        "' is not an NVIDIA GPU architecture (e.g. sm_90)");
  }
  return Error::success();
}

} // namespace

StringRef usageLine() {
  return "USAGE: decoupler [options] <file.cu>... [-- <compiler args>]\n"
         "       decoupler [options] -p <build dir> [<file.cu>...]\n"
         "Run 'decoupler --help' for the options.";
}

Expected<ToolOptions> parseCommandLine(int Argc, const char *const *Argv) {
  cl::HideUnrelatedOptions({&ModeCategory, &OutputCategory, &CompileCategory});
  cl::SetVersionPrinter(printVersion);
  // --color=auto|always|never and --stats are taken off first: LLVM's own
  // hidden `--color` (a boolean) and `-stats` (its statistics) have the
  // names.
  ToolOptions::ColorMode Color = ToolOptions::ColorMode::Auto;
  bool Stats = false;
  std::vector<const char *> Args;
  for (int I = 0; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (I > 0 && (A == "--stats" || A == "-stats")) {
      Stats = true;
      continue;
    }
    if (I > 0 && (A.consume_front("--color=") || A.consume_front("-color="))) {
      if (A == "auto")
        Color = ToolOptions::ColorMode::Auto;
      else if (A == "always")
        Color = ToolOptions::ColorMode::Always;
      else if (A == "never")
        Color = ToolOptions::ColorMode::Never;
      else
        return usageError("--color: '" + A + "' is not auto, always or never");
      continue;
    }
    Args.push_back(Argv[I]);
  }
  if (!cl::ParseCommandLineOptions(int(Args.size()), Args.data(), Overview,
                                   &errs()))
    return usageError(""); // llvm::cl printed why.

  // cl::opt<std::string> cannot tell `-o ''` from no -o.
  bool HaveOutputFile = OutputFile.getNumOccurrences() > 0;
  if (HaveOutputFile && OutputFile.empty())
    return usageError("-o: empty file name");
  if (OutDir.getNumOccurrences() && OutDir.empty())
    return usageError("--out-dir: empty directory name");
  if (BuildPath.getNumOccurrences() && BuildPath.empty())
    return usageError("-p: empty build path");
  if (CudaPath.getNumOccurrences() && CudaPath.empty())
    return usageError("--cuda-path: empty directory name");
  if (Report.getNumOccurrences() && !Analyze)
    return usageError("--report needs --analyze");
  if (DepFile.getNumOccurrences() && DepFile.empty())
    return usageError("--depfile: empty file name");
  if (DepFile.getNumOccurrences() && HaveOutputFile && OutputFile == "-")
    return usageError("--depfile needs an output file, not standard output");
  if (Error E = checkRemarksOutput(HaveOutputFile))
    return std::move(E);
  if (Error E = checkConflicts(HaveOutputFile))
    return std::move(E);
  if (Error E = checkPasses())
    return std::move(E);
  if (Error E = checkGpuArch())
    return std::move(E);
  Expected<DeclinedSeverity> Declined = declinedSeverity();
  if (!Declined)
    return Declined.takeError();

  ToolOptions Opts;
  Opts.InputFiles.assign(InputFiles.begin(), InputFiles.end());
  Opts.BuildPath = BuildPath;
  Opts.Report = Report;
  Opts.OutputFile = OutputFile;
  Opts.RemarksOutput = RemarksOutput;
  Opts.OutDir = OutDir;
  Opts.InPlace = InPlace;
  Opts.Diff = Diff;
  Opts.Check = Check;
  Opts.DepFile = DepFile;
  Opts.LineDirectives = !NoLineDirectives;
  Opts.Stats = Stats;
  Opts.Unparsed = Unparsed;
  Opts.Color = Color;
  Opts.Jobs = Jobs == 0 ? hardware_concurrency().compute_thread_count()
                        : static_cast<unsigned>(Jobs);
  Opts.Jobs = std::max(Opts.Jobs, 1u);
  Opts.PrintCommands = PrintCommands;
  Opts.CudaPath = CudaPath;
  Opts.CudaGpuArchs.assign(CudaGpuArch.begin(), CudaGpuArch.end());
  Opts.ExtraArgsBefore.assign(ExtraArgsBefore.begin(), ExtraArgsBefore.end());
  Opts.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());

  Opts.Run.Analyze = Analyze;
  Opts.Run.RemarkAll = RemarkAll;
  Opts.Run.RemarkAffine = RemarkAffine;
  Opts.Run.Declined = *Declined;
  Opts.Run.AtomicsFloat = AtomicsFloat;
  Opts.Run.DelegateAuto = Delegate == DelegateMode::Auto;
  Opts.Run.SplitAuto = Split == SplitMode::Auto;
  Opts.Run.RecordDecisions =
      Report == ReportFormat::HTML || !RemarksOutput.empty();
  Opts.Run.KeepSources = Report == ReportFormat::HTML;
  // Keep the user's order but drop repeats: each pass runs at most once.
  StringSet<> Seen;
  for (const std::string &Name : Passes)
    if (Seen.insert(Name).second)
      Opts.Run.Passes.push_back(Name);
  return Opts;
}

} // namespace decoupler::tool
