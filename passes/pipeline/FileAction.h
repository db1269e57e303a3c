//===- pipeline/FileAction.h - Everything decoupler does to one file ------===//
//
// The one entry point the tool (and tests) use: a clang FrontendAction that
// parses one CUDA translation unit host side, collects the `#pragma dd`
// annotations, runs the affine analysis and then either produces the analysis
// report or runs the rewrite passes and produces the rewritten main file.
//
// The action never writes files and never prints: results come back in a
// FileResult so the driver can decide (atomically, in input order) what to
// write. Diagnostics go to the CompilerInstance's DiagnosticsEngine.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_PIPELINE_FILEACTION_H
#define DECOUPLER_PIPELINE_FILEACTION_H

#include "affine/Report.h"
#include "support/Decision.h"
#include "support/DeviceView.h"
#include "support/PassDiagnostics.h"
#include "clang/Frontend/FrontendAction.h"
#include <memory>
#include <string>
#include <vector>

namespace decoupler {

/// What to do with each file.
struct RunOptions {
  /// --analyze: produce the classification report; rewrite nothing.
  bool Analyze = false;
  /// -Rdecoupler-affine: a remark per classified access and branch.
  bool RemarkAffine = false;
  /// -Rdecoupler: what every rewrite pass did or left alone, and why.
  bool RemarkAll = false;
  /// -W[no-|error=]decoupler-declined: an annotated construct a pass leaves
  /// as written.
  DeclinedSeverity Declined = DeclinedSeverity::Warning;
  /// --atomics-float: the atomics pass may aggregate float/double additions.
  bool AtomicsFloat = false;
  /// --delegate=auto: the delegate pass also rewrites unannotated try-lock
  /// loops.
  bool DelegateAuto = false;
  /// --split=auto: the split pass also plans unannotated loops.
  bool SplitAuto = false;
  /// Rewrite passes to run, by name (`--passes=`); empty means every pass
  /// that applies. Names are validated by the driver with isKnownPass().
  std::vector<std::string> Passes;
  /// Keep every pass decision, shown or not, in FileResult::Decisions
  /// (--report=html, --remarks-output). With Analyze the rewrite passes then
  /// also run, silently and on a scratch copy, so that their decisions are
  /// known; the report itself does not change.
  bool RecordDecisions = false;
  /// With Analyze: keep the source of every kernel and of the device
  /// functions its report names in FileReport::Sources (--report=html).
  bool KeepSources = false;
};

/// What came out of one file.
struct FileResult {
  /// False when the file did not compile or an annotation/pass error was
  /// reported; the driver then writes nothing for this file.
  bool Success = false;
  /// The analysis report (filled when RunOptions::Analyze).
  FileReport Report;
  /// The full text of the main file after rewriting (filled when not
  /// RunOptions::Analyze); identical to the input when no pass applied.
  std::string Rewritten;
  /// Whether any pass changed the file.
  bool Changed = false;
  /// Whether clang parsed the file without errors (the analysis and the
  /// passes ran); false when Success is false for clang's own errors.
  bool Parsed = false;
  /// The files the parse read, the main file first, without system headers
  /// (those of -isystem directories, the CUDA toolkit's and clang's), as the
  /// preprocessor named them (relative to the command's directory): what a
  /// depfile lists.
  std::vector<std::string> Dependencies;
  /// Rewrites made, per pass (by the name in the pass table), and the
  /// refusals (errors) and declines (-Wdecoupler-declined) the passes
  /// reported: for --stats.
  std::vector<std::pair<std::string, unsigned>> RewritesByPass;
  unsigned Refusals = 0;
  unsigned Declines = 0;
  /// Kernels the analysis found in the main file.
  unsigned Kernels = 0;
  /// Every decision of the rewrite passes (and, under -Rdecoupler-affine,
  /// every classification remark), in the order they were made; filled when
  /// RunOptions::RecordDecisions.
  std::vector<Decision> Decisions;
};

/// Rewrite passes, in the order they run (the pipeline's one table).
const std::vector<std::string> &availablePasses();
/// Whether `--passes=` accepts \p Name: a pass of that table.
bool isKnownPass(llvm::StringRef Name);

/// Creates the action for one file. \p Result must outlive the action.
/// \p Preprocess preprocesses the same file again, host or device side
/// (support/DeviceView.h), and \p GpuArchs are the architectures the file is
/// compiled for.
std::unique_ptr<clang::FrontendAction>
createFileAction(const RunOptions &Options, FileResult &Result,
                 SidePreprocessor Preprocess,
                 std::vector<std::string> GpuArchs);

} // namespace decoupler

#endif // DECOUPLER_PIPELINE_FILEACTION_H
