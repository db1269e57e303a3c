//===- delegate/DelegatePass.h - Critical sections to server blocks -*- C++ -*-//
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
#include "support/PassDiagnostics.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include <vector>

namespace decoupler {

struct DelegateOptions {
  /// --delegate=auto: also rewrite try-lock loops that carry no annotation
  /// (each with a remark); what cannot be rewritten then is only a remark.
  bool Auto = false;
};

/// Runs the pass over the main file. Returns true when it changed the file;
/// \p Replaced gets the source ranges whose text it replaced (the try-lock
/// loops), which later passes must leave alone.
bool runDelegatePass(clang::ASTContext &Ctx, const AnnotationSet &Annotations,
                     clang::Rewriter &R, const DelegateOptions &Options,
                     PassDiagnostics &Diags,
                     std::vector<clang::SourceRange> &Replaced);

} // namespace decoupler

#endif // DECOUPLER_DELEGATE_DELEGATEPASS_H
