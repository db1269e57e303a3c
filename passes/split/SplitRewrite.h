//===- split/SplitRewrite.h - Code generation for accepted plans -*- C++
//-*-===//
//
// The rewrites of the split pass (docs/split-pass.md), for a loop whose plan
// the cost model accepted:
//
//   rewriteHoist   rule 5 (the plan prefers it): the kernel's pointer
//                  parameters that the loop streams from or stores through
//                  become __restrict__ and the loop gets `#pragma unroll 4`,
//                  so that nvcc keeps several loads in flight; in place.
//   rewriteSplit   the producer/consumer split: <k>_split beside the kernel
//                  (one producer warp feeding a <dd/affine_queue.cuh> ring,
//                  the block as written consuming), and <k>_launch, which
//                  replaces the file's k<<<...>>> launches and chooses per
//                  launch between the two kernels (<dd/split_launch.h>).
//
// Each returns either what it did or why it declined; a decline leaves the
// file untouched (the loop as written is always correct).
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SPLIT_SPLITREWRITE_H
#define DECOUPLER_SPLIT_SPLITREWRITE_H

#include "affine/AffineAnalysis.h"
#include "annotations/Annotations.h"
#include "split/SplitPlan.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include <map>
#include <set>
#include <string>

namespace decoupler::split {

struct RewriteResult {
  bool Done = false;
  /// Done: what was done (for a remark). Otherwise: why not.
  std::string Message;
  clang::SourceLocation Loc; // the caret of a decline; invalid: the loop
};

/// State shared by the rewrites of one file.
struct RewriteState {
  /// File offsets of annotation lines already removed.
  std::set<unsigned> RemovedPragmas;
  /// Kernels already rewritten (one rewrite per kernel), and the loop's line.
  std::map<const clang::FunctionDecl *, unsigned> Rewritten;
  /// Whether <dd/split_launch.h> is needed.
  bool NeedsRuntime = false;
};

RewriteResult rewriteHoist(const LoopPlan &P, const Annotation &A,
                           clang::ASTContext &Ctx, clang::Rewriter &R,
                           RewriteState &State);

/// \p A is the loop's annotation, or null for a loop --split=auto found.
RewriteResult rewriteSplit(const LoopPlan &P, const KernelAnalysis &K,
                           const Annotation *A, clang::ASTContext &Ctx,
                           clang::Rewriter &R, RewriteState &State);

} // namespace decoupler::split

#endif // DECOUPLER_SPLIT_SPLITREWRITE_H
