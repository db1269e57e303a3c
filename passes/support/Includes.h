//===- support/Includes.h - Adding runtime includes -------------*- C++ -*-===//
#ifndef DECOUPLER_SUPPORT_INCLUDES_H
#define DECOUPLER_SUPPORT_INCLUDES_H

#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/StringRef.h"

namespace decoupler {

/// Makes the main file include `<Header>` (e.g. "dd/atomics.cuh"): inserted
/// before the main file's first #include line, or at its top when it has
/// none; nothing when the file already includes it.
void ensureInclude(clang::Rewriter &R, llvm::StringRef Header);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_INCLUDES_H
