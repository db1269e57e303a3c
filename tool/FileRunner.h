//===- FileRunner.h - Running the pipeline on one file ----------*- C++ -*-===//
//
// Runs decoupler's FrontendAction over one compile command with a diagnostic
// consumer of its own, so that files processed in parallel never interleave
// their diagnostics: each file's are rendered into a string that the driver
// prints in input order.
//
// A crash (a segmentation fault, a stack overflow on deeply nested code, an
// assertion) is contained to its file: each file runs under an
// llvm::CrashRecoveryContext on a worker thread with clang's stack size and
// an alternate signal stack, so that the crash handler can run even when the
// stack itself overflowed. The file is reported as crashed and the others
// are still processed.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_FILERUNNER_H
#define DECOUPLER_TOOL_FILERUNNER_H

#include "pipeline/FileAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace decoupler::tool {

/// What running the pipeline on one file produced.
struct FileOutcome {
  /// Clang's rendered diagnostics (with carets; colours when asked for).
  std::string Diagnostics;
  FileResult Result;
  /// The file compiled and the pipeline reported success.
  bool Succeeded = false;
  /// The signal that ended the file's processing (SIGSEGV, ...), or 0. A
  /// crashed file never succeeds.
  int CrashSignal = 0;
};

/// Parses \p Command (a full, adjusted command line, run in its directory)
/// and runs the pipeline with \p Options. \p Colors allows ANSI colours in
/// the rendered diagnostics. Thread-safe: each call has its own file system
/// view, file manager and diagnostics.
void runOnFile(const clang::tooling::CompileCommand &Command,
               const RunOptions &Options, bool Colors, FileOutcome &Outcome);

/// Runs the pipeline on every command with up to \p Jobs threads (each with
/// clang::DesiredStackSize of stack, each file under crash recovery) and hands
/// each outcome to \p Emit on the calling thread, in input order, as soon as
/// it and all before it are done.
void runOnFiles(llvm::ArrayRef<clang::tooling::CompileCommand> Commands,
                const RunOptions &Options, unsigned Jobs, bool Colors,
                llvm::function_ref<void(size_t, FileOutcome &)> Emit);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_FILERUNNER_H
