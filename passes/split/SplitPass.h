//===- split/SplitPass.h - The affine-stream split pass (planning) -*- C++ -*-//
//
// Which loops the split pass looks at and what it tells the user
// (docs/split-pass.md):
//   - every loop annotated `#pragma dd decouple [depth(N)]` (a kernel so
//     annotated: each of its outermost loops) is planned; what is illegal is
//     an error at the loop with a note at the reason; a cost-model decline is
//     a remark (-Rdecoupler); an accepted plan is a remark shown always,
//     since the loop is left as written;
//   - with --split=auto, every other loop of a kernel that has an affine
//     global load is planned too, every outcome a remark (-Rdecoupler).
// Code generation is not implemented yet: the pass never changes the file.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SPLIT_SPLITPASS_H
#define DECOUPLER_SPLIT_SPLITPASS_H

#include "affine/AffineAnalysis.h"
#include "affine/Report.h"
#include "annotations/Annotations.h"
#include "rewrite/PassDiagnostics.h"
#include <memory>
#include <vector>

namespace decoupler {

struct SplitOptions {
  /// --split=auto: also plan unannotated loops.
  bool Auto = false;
};

/// Plans every decoupled loop of the main file and reports the plans.
/// Returns false when a refusal (an error) was reported.
bool runSplitPass(clang::ASTContext &Ctx,
                  const std::vector<std::unique_ptr<KernelAnalysis>> &Kernels,
                  const AnnotationSet &Annotations, const SplitOptions &Options,
                  PassDiagnostics &Diags);

/// The plans of the annotated loops, for the --analyze report.
std::vector<DecoupleEntry>
decoupleEntries(clang::ASTContext &Ctx,
                const std::vector<std::unique_ptr<KernelAnalysis>> &Kernels,
                const AnnotationSet &Annotations);

} // namespace decoupler

#endif // DECOUPLER_SPLIT_SPLITPASS_H
