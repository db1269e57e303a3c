//===- atomics/AtomicsPass.h - Contended atomics to aggregated ones -*- C++
//-*-//
//
// Rewrites CUDA atomics whose result is unused into the warp-aggregated
// variants of <dd/atomics.cuh> or block-private copies of <dd/privatize.cuh>,
// choosing by the class of the address and the memory it points to
// (docs/atomics.md):
//   scalar address                  -> dd::atomic_OP_uniform (one per warp)
//   affine, known x stride          -> unchanged (distinct words per warp)
//   small global array, bounded
//   indices, used for nothing else  -> a block-private copy (Privatize.h)
//   anything else, shared memory    -> unchanged (native shared atomics)
//   anything else, global memory    -> dd::atomic_OP_vr (vote, then match
//                                      and reduce where lanes share)
//   anything else, memory unknown   -> dd::atomic_OP_auto (decided per lane)
// `#pragma dd atomic(sr|vr|privatize|none)` forces a choice; in a kernel
// annotated `#pragma dd monotonic`, atomicMin/atomicMax become
// dd::atomic_min/max_filtered (a relaxed load, and the atomic only where it
// would change the word), with `monotonic(store)` dd::monotonic_min/max (a
// guarded plain write that may lose updates). Every decision is a remark
// under -Rdecoupler.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_ATOMICS_ATOMICSPASS_H
#define DECOUPLER_ATOMICS_ATOMICSPASS_H

#include "affine/AffineAnalysis.h"
#include "annotations/Annotations.h"
#include "pipeline/PassContext.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include <memory>
#include <vector>

namespace decoupler {

/// Rewrites contended atomics of every kernel to warp-aggregated ones or
/// monotonic writes where legal and profitable (atomics inside ranges an
/// earlier pass claimed are left alone). Returns whether the file changed.
bool runAtomicsPass(PassContext &P);

} // namespace decoupler

#endif // DECOUPLER_ATOMICS_ATOMICSPASS_H
