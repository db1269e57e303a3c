//===- FileRunner.cpp - Running the pipeline on one file ------------------===//
#include "FileRunner.h"
#include "NvccPrelude.h"
#include "SidePreprocess.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/DiagnosticParse.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/Stack.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <memory>
#include <mutex>
#include <optional>

using namespace llvm;

namespace decoupler::tool {
namespace {

/// Whether \p Loc, where clang expected an expression, is the third
/// chevron of a launch written `<< <` or `>> >`: nvcc reads those as `<<<`
/// and `>>>`, and Visual Studio's formatter writes them so
/// (graphdeco-inria/diff-gaussian-rasterization), while clang lexes `<<`
/// and `<` and reads a shift.
bool spacedChevron(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  if (!Loc.isFileID())
    return false;
  const auto [File, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  const StringRef Text = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset >= Text.size() ||
      (Text[Offset] != '<' && Text[Offset] != '>'))
    return false;
  const StringRef Before = Text.take_front(Offset).rtrim(" \t");
  if (Before.size() == Offset)
    return false; // no space between the chevrons
  return Before.ends_with(Text[Offset] == '<' ? "<<" : ">>");
}

/// Clang's text printer, naming the tool in messages that have no source
/// location (driver errors such as an unknown argument), as clang does, and
/// saying why clang rejects a launch that nvcc accepts.
class ToolDiagnosticPrinter : public clang::TextDiagnosticPrinter {
public:
  ToolDiagnosticPrinter(raw_ostream &OS, clang::DiagnosticOptions &Opts)
      : TextDiagnosticPrinter(OS, Opts), OS(OS) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    setPrefix(Info.getLocation().isValid() ? "" : "decoupler");
    TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
    if (!NotedChevrons && Level >= clang::DiagnosticsEngine::Error &&
        Info.getID() == clang::diag::err_expected_expression &&
        Info.hasSourceManager() &&
        spacedChevron(Info.getSourceManager(), Info.getLocation())) {
      // Once per file: the launch's other chevrons say the same.
      NotedChevrons = true;
      const clang::PresumedLoc Where =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      // Laid out and coloured as clang's own notes, by clang's helpers.
      const bool Colors = OS.colors_enabled();
      if (Colors)
        OS.changeColor(raw_ostream::SAVEDCOLOR, /*Bold=*/true);
      OS << Where.getFilename() << ':' << Where.getLine() << ':'
         << Where.getColumn() << ": ";
      if (Colors)
        OS.resetColor();
      clang::TextDiagnostic::printDiagnosticLevel(
          OS, clang::DiagnosticsEngine::Note, Colors);
      clang::TextDiagnostic::printDiagnosticMessage(
          OS, /*IsSupplemental=*/true,
          "nvcc reads '<< <' and '>> >' as a launch's '<<<' and '>>>'; clang, "
          "which decoupler parses with, does not: write the chevrons without "
          "spaces",
          /*CurrentColumn=*/0, /*Columns=*/0, Colors);
    }
  }

private:
  raw_ostream &OS;
  bool NotedChevrons = false;
};

/// Runs the pipeline's FrontendAction like clang::tooling's own factory
/// does, but with the compiler's verbose output (the "N errors generated"
/// summary) going to the file's diagnostic stream instead of stderr.
class PipelineToolAction : public clang::tooling::ToolAction {
public:
  PipelineToolAction(const RunOptions &Options, FileResult &Result,
                     raw_ostream &VerboseOS, SidePreprocessor Preprocess,
                     std::vector<std::string> GpuArchs)
      : Options(Options), Result(Result), VerboseOS(VerboseOS),
        Preprocess(std::move(Preprocess)), GpuArchs(std::move(GpuArchs)) {}

  bool
  runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                clang::FileManager *Files,
                std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
                clang::DiagnosticConsumer *DiagConsumer) override {
    clang::CompilerInstance Compiler(std::move(Invocation),
                                     std::move(PCHContainerOps));
    Compiler.setVirtualFileSystem(Files->getVirtualFileSystemPtr());
    Compiler.setFileManager(Files);
    Compiler.setVerboseOutputStream(VerboseOS);
    // Destroyed before the compiler instance, which it may refer to.
    std::unique_ptr<clang::FrontendAction> Action =
        createFileAction(Options, Result, Preprocess, GpuArchs);
    Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.createSourceManager();
    bool Success = Compiler.ExecuteAction(*Action);
    Files->clearStatCache();
    return Success;
  }

private:
  const RunOptions &Options;
  FileResult &Result;
  raw_ostream &VerboseOS;
  SidePreprocessor Preprocess;
  std::vector<std::string> GpuArchs;
};

/// Turns crash recovery on, once per process. LLVM's handlers are installed
/// without SA_ONSTACK, so on a stack overflow they would run on the very
/// stack that overflowed and the process would die; with it they run on the
/// worker's alternate signal stack (AlternateSignalStack) and can jump back.
void enableCrashRecovery() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    CrashRecoveryContext::Enable();
    for (int Signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) {
      struct sigaction Action;
      if (sigaction(Signal, nullptr, &Action) == 0) {
        Action.sa_flags |= SA_ONSTACK;
        sigaction(Signal, &Action, nullptr);
      }
    }
  });
}

/// A signal stack for the current thread while this lives: the place where
/// a crash handler runs when the thread's own stack is exhausted.
class AlternateSignalStack {
public:
  AlternateSignalStack()
      : Size(std::max<size_t>(SIGSTKSZ, 64 << 10)), Memory(new char[Size]) {
    stack_t Stack{};
    Stack.ss_sp = Memory.get();
    Stack.ss_size = Size;
    Installed = sigaltstack(&Stack, &Previous) == 0;
  }
  ~AlternateSignalStack() {
    if (Installed)
      sigaltstack(&Previous, nullptr);
  }

private:
  size_t Size;
  std::unique_ptr<char[]> Memory;
  stack_t Previous{};
  bool Installed = false;
};

/// runOnFile under crash recovery, on the calling worker thread.
void runOnFileSafely(const clang::tooling::CompileCommand &Command,
                     const RunOptions &Options, bool Colors,
                     FileOutcome &Outcome) {
  CrashRecoveryContext Recovery;
  if (!Recovery.RunSafely(
          [&] { runOnFile(Command, Options, Colors, Outcome); })) {
    // The file's compiler state is abandoned (leaked): it cannot be trusted.
    Outcome.Succeeded = false;
    Outcome.CrashSignal =
        Recovery.RetCode > 128 ? Recovery.RetCode - 128 : SIGABRT;
  }
}

} // namespace

void runOnFile(const clang::tooling::CompileCommand &Command,
               const RunOptions &Options, bool Colors, FileOutcome &Outcome) {
  raw_string_ostream DiagStream(Outcome.Diagnostics);
  std::vector<const char *> Argv;
  for (const std::string &Arg : Command.CommandLine)
    Argv.push_back(Arg.c_str());
  // The printer honours the command's diagnostic flags (-fno-caret-
  // diagnostics, ...); colours are the driver's decision (--color).
  std::unique_ptr<clang::DiagnosticOptions> DiagOpts =
      clang::CreateAndPopulateDiagOpts(Argv);
  DiagOpts->ShowColors = Colors;
  DiagStream.enable_colors(DiagOpts->ShowColors);
  ToolDiagnosticPrinter Printer(DiagStream, *DiagOpts);

  // A physical file system of our own: its working directory is the
  // command's without changing the process's, which other threads share.
  // Over it, the prelude every command force-includes (NvccPrelude.h), at
  // a path no directory holds.
  auto Prelude = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  Prelude->addFile(NvccPreludePath, 0,
                   MemoryBuffer::getMemBuffer(nvccPrelude(), NvccPreludePath));
  auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      vfs::createPhysicalFileSystem());
  FS->pushOverlay(Prelude);
  if (std::error_code EC = FS->setCurrentWorkingDirectory(Command.Directory)) {
    Outcome.Diagnostics += "decoupler: error: cannot enter directory '" +
                           Command.Directory + "': " + EC.message() + "\n";
    return;
  }
  IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions(), FS));

  PipelineToolAction Action(Options, Outcome.Result, DiagStream,
                            sidePreprocessor(Command.CommandLine, FS),
                            gpuArchsOf(Command.CommandLine));
  clang::tooling::ToolInvocation Invocation(
      Command.CommandLine, &Action, Files.get(),
      std::make_shared<clang::PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Printer);
  Invocation.setDiagnosticOptions(DiagOpts.get());
  bool Compiled = Invocation.run();
  // The prelude is in no directory: a depfile naming it would make the
  // build system rebuild every time.
  llvm::erase(Outcome.Result.Dependencies, NvccPreludePath);
  Outcome.Succeeded =
      Compiled && Outcome.Result.Success && Printer.getNumErrors() == 0;
}

void runOnFiles(ArrayRef<clang::tooling::CompileCommand> Commands,
                const RunOptions &Options, unsigned Jobs, bool Colors,
                function_ref<void(size_t, FileOutcome &)> Emit) {
  const size_t N = Commands.size();
  std::vector<std::unique_ptr<FileOutcome>> Outcomes(N);
  std::mutex Mutex;
  std::condition_variable Ready;
  std::atomic<size_t> Next{0};
  enableCrashRecovery();
  auto Work = [&] {
    // Clang grows the stack where it recurses (runWithSufficientStackSpace)
    // once it knows where this thread's stack begins.
    clang::noteBottomOfStack();
    AlternateSignalStack SignalStack;
    for (size_t I; (I = Next++) < N;) {
      auto Outcome = std::make_unique<FileOutcome>();
      runOnFileSafely(Commands[I], Options, Colors, *Outcome);
      {
        std::lock_guard<std::mutex> Lock(Mutex);
        Outcomes[I] = std::move(Outcome);
      }
      Ready.notify_all();
    }
  };
  // Clang's own stack size (its driver runs cc1 on such a thread), for every
  // worker, whatever the process's stack limit.
  std::vector<llvm::thread> Workers;
  for (size_t T = 0, E = std::min<size_t>(std::max(Jobs, 1u), N); T < E; ++T)
    Workers.emplace_back(std::optional<unsigned>(clang::DesiredStackSize),
                         Work);
  for (size_t I = 0; I < N; ++I) {
    std::unique_ptr<FileOutcome> Outcome;
    {
      std::unique_lock<std::mutex> Lock(Mutex);
      Ready.wait(Lock, [&] { return Outcomes[I] != nullptr; });
      Outcome = std::move(Outcomes[I]);
    }
    // Outside the lock: emitting writes files while the workers go on.
    Emit(I, *Outcome);
  }
  for (llvm::thread &Worker : Workers)
    Worker.join();
}

} // namespace decoupler::tool
