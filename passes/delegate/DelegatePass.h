//===- delegate/DelegatePass.h - Critical sections to server blocks -*- C++
//-*-//
//
// The delegate rewrite (dissertation section 4.2-4.4, docs/delegate-pass.md):
// for a kernel whose try-lock critical section is annotated `#pragma dd
// delegate` (or, with --delegate=auto, recognized without one), emits
//   <k>_message          what a client sends: the data ids and the values the
//                        critical section reads
//   <k>_critical_section the critical section, outlined (__device__)
//   <k>_client           the kernel as written, the try-lock loop replaced by
//                        a send to the server owning the data id
//   <k>_server           server blocks running the critical section under a
//                        shared-memory lock (<dd/delegate.cuh>)
//   <k>_launch           the host side, in place of every k<<<g, b>>>(...)
// and refuses, with an error at the construct and no output, what it cannot
// rewrite faithfully.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_DELEGATE_DELEGATEPASS_H
#define DECOUPLER_DELEGATE_DELEGATEPASS_H

#include "annotations/Annotations.h"
#include "pipeline/PassContext.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include <vector>

namespace decoupler {

/// Delegates every `#pragma dd delegate` try-lock loop (and, under
/// --delegate=auto, every other one) or refuses it. Returns whether the
/// file changed.
bool runDelegatePass(PassContext &P);

} // namespace decoupler

#endif // DECOUPLER_DELEGATE_DELEGATEPASS_H
