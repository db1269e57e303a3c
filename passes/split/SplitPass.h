//===- split/SplitPass.h - The affine-stream split pass (planning) -*- C++ -*-//
//
// Which loops the split pass looks at and what it tells the user
// (docs/split-pass.md):
//   - every loop annotated `#pragma dd decouple [depth(N)]` (a kernel so
//     annotated: each of its outermost loops) is planned; what is illegal is
//     an error at the loop with a note at the reason; a cost-model decline is
//     a remark (-Rdecoupler); an accepted plan is a remark shown always,
//     unless the loop is rewritten;
//   - with --split=auto, every other loop of a kernel that has an affine
//     global load is planned too, every outcome a remark (-Rdecoupler).
// Accepted annotated loops are rewritten (SplitRewrite.h): rule 5's
// restrict/hoist when the plan prefers it, else the producer/consumer split;
// what the code generator cannot handle is declined with a remark and left
// as written.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SPLIT_SPLITPASS_H
#define DECOUPLER_SPLIT_SPLITPASS_H

#include "affine/AffineAnalysis.h"
#include "affine/Report.h"
#include "annotations/Annotations.h"
#include "pipeline/PassContext.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include <memory>
#include <vector>

namespace decoupler {

/// Plans every `#pragma dd decouple` loop (and, under --split=auto, every
/// other loop of a kernel), refuses, declines or rewrites it. Returns
/// whether the file changed.
bool runSplitPass(PassContext &P);

std::vector<DecoupleEntry>
decoupleEntries(clang::ASTContext &Ctx,
                const std::vector<std::unique_ptr<KernelAnalysis>> &Kernels,
                const AnnotationSet &Annotations);

} // namespace decoupler

#endif // DECOUPLER_SPLIT_SPLITPASS_H
