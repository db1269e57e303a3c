//===- NvccPrelude.h - What nvcc declares and clang lacks -------*- C++ -*-===//
//
// decoupler parses CUDA with clang, but its users' code is written for
// nvcc, whose headers give every file more than clang's CUDA wrapper does:
// host `min`/`max` overloads (clang: device only), `clock()` and the C
// string functions without an #include, `isfinite`/`isinf`/`isnan` at global
// scope in host code, and the cache-hinted loads and stores `__ldca`,
// `__ldlu`, `__stwb`, `__stcg`, `__stcs` (and the `long` overloads of the
// others), and nvcc's scoped atomic builtins (`__nv_atomic_load_n`,
// `__NV_ATOMIC_RELAXED`, ...). A file using them compiles with nvcc and
// failed to parse here, so the tool refused it (llm.c's dev/cuda kernels:
// 27 of 28 files; 6 HeCBench files for the builtins).
//
// The prelude declares them, in a header every parse force-includes from
// memory (it exists in no directory and never reaches the output: nvcc
// compiles the output with its own declarations). Declarations only, as
// nvcc has them: a file that defines one of them itself would not compile
// with nvcc either, and a redeclaration is legal. It is a system header, so
// the passes take its functions for the toolkit's (CudaFacts.h).
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_NVCCPRELUDE_H
#define DECOUPLER_TOOL_NVCCPRELUDE_H

#include "llvm/ADT/StringRef.h"

namespace decoupler::tool {

/// Where the prelude appears to live: a path in no real directory, named in
/// the `-include` of every parse command and in any diagnostic that points
/// into the prelude.
inline constexpr llvm::StringLiteral NvccPreludePath =
    "/<decoupler>/nvcc_prelude.h";

/// The prelude's text.
llvm::StringRef nvccPrelude();

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_NVCCPRELUDE_H
