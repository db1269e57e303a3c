//===- pipeline/PassContext.h - What every rewrite pass gets ----*- C++ -*-===//
//
// The pass contract: every rewrite pass is `bool run(PassContext &)`. It
// gets the same context (the AST, the analysis of every kernel, the
// annotations, the one Rewriter of the file, the diagnostics, the include
// editor, the options, and the source ranges earlier passes claimed), and
// answers whether it changed the file. Refusals and declines go out through
// the diagnostics (an error stops the file's output); the pipeline's table
// of passes (pipeline/FileAction.cpp) runs them in order.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_PIPELINE_PASSCONTEXT_H
#define DECOUPLER_PIPELINE_PASSCONTEXT_H

#include "affine/AffineAnalysis.h"
#include "annotations/Annotations.h"
#include "support/DeviceView.h"
#include "support/Includes.h"
#include "support/PassDiagnostics.h"
#include "clang/AST/ASTContext.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/ArrayRef.h"
#include <memory>
#include <vector>

namespace decoupler {

/// The command-line choices the rewrite passes read.
struct PassOptions {
  /// --split=auto: the split pass also plans unannotated loops.
  bool SplitAuto = false;
  /// --delegate=auto: the delegate pass also rewrites try-lock loops that
  /// carry no annotation (each with a remark shown by default).
  bool DelegateAuto = false;
  /// --atomics-float: the atomics pass may aggregate float/double additions
  /// (the reduction reorders them: results may differ in the last bits).
  bool AtomicsFloat = false;
};

struct PassContext {
  clang::ASTContext &Ctx;
  llvm::ArrayRef<std::unique_ptr<KernelAnalysis>> Kernels;
  const AnnotationSet &Annotations;
  clang::Rewriter &R;
  PassDiagnostics &Diags;
  /// Where runtime headers (<dd/...>) go: added once, at the place the
  /// preprocessor's view of the file chose.
  IncludeEditor &Includes;
  const PassOptions &Options;
  /// Source ranges earlier passes replaced or copied (a split kernel, a
  /// delegated loop); later passes leave what lies in them alone.
  std::vector<clang::SourceRange> &Claimed;
  /// Whether a function is the same code in the device compilation as in
  /// the host AST the passes read: asked before rewriting any of its code.
  DeviceView &Device;
  /// Rewrites the running pass made (an atomic, a critical section, a
  /// loop): counted by the pass, read by the pipeline for --stats.
  unsigned Rewrites = 0;
};

} // namespace decoupler

#endif // DECOUPLER_PIPELINE_PASSCONTEXT_H
