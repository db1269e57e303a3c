//===- atomics/AtomicsPass.h - Contended atomics to aggregated ones -*- C++ -*-//
//
// Rewrites CUDA atomics whose result is unused into the warp-aggregated
// variants of <dd/atomics.cuh>, choosing by the class of the address
// (docs/atomics.md):
//   scalar address            -> dd::atomic_OP_uniform (one atomic per warp)
//   affine, known x stride    -> unchanged (lanes of a warp hit distinct words)
//   anything else             -> dd::atomic_OP_vr      (vote, then match and
//                                                        reduce where lanes share)
// `#pragma dd atomic(sr|vr|none)` forces a choice; in a kernel annotated
// `#pragma dd monotonic`, atomicMin/atomicMax become dd::monotonic_min/max
// (a guarded plain write). Every decision is a remark under -Rdecoupler.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_ATOMICS_ATOMICSPASS_H
#define DECOUPLER_ATOMICS_ATOMICSPASS_H

#include "affine/AffineAnalysis.h"
#include "annotations/Annotations.h"
#include "support/PassDiagnostics.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include <memory>
#include <vector>

namespace decoupler {

struct AtomicsOptions {
  /// --atomics-float: also aggregate float/double atomicAdd (the reduction
  /// reorders the additions, so results may differ in the last bits).
  bool Float = false;
  /// Source ranges an earlier pass replaced (the delegate pass's try-lock
  /// loops): atomics inside them are left alone.
  std::vector<clang::SourceRange> Skip;
};

/// Runs the pass over every atomic call of the main file. Returns true when
/// it changed the file; errors (an annotation that cannot be honoured) go to
/// \p Diags.
bool runAtomicsPass(clang::ASTContext &Ctx,
                    llvm::ArrayRef<std::unique_ptr<KernelAnalysis>> Kernels,
                    const AnnotationSet &Annotations, clang::Rewriter &R,
                    const AtomicsOptions &Options, PassDiagnostics &Diags);

} // namespace decoupler

#endif // DECOUPLER_ATOMICS_ATOMICSPASS_H
