//===- support/Allocations.h - Buffers that cannot overlap --*- C++ -*-===//
//
// Two pointer parameters of a kernel cannot overlap when, at every launch of
// the kernel in the file, their arguments are two distinct local variables
// that only a CUDA allocation function (cudaMalloc and its family) ever
// sets: two live allocations never share a byte. Most real CUDA passes its
// buffers this way (PolyBench, Rodinia):
//
//   float *a_gpu, *c_gpu;
//   cudaMalloc((void **)&a_gpu, bytes);
//   cudaMalloc(&c_gpu, bytes);
//   kernel<<<grid, block>>>(a_gpu, c_gpu);
//
// A variable qualifies when it is a local pointer (not static, not a
// parameter), initialized with nothing or a null pointer, and every other
// use of it in its function is a read of its value, or its address as the
// first argument of an allocation function (through casts). Anything else
// fails the proof: an assignment or a swap (ping-pong buffers), its address
// kept or passed elsewhere, a reference bound to it, pointer arithmetic at
// the launch, a launch in a template. Kernel arguments that point past
// their allocation are undefined behaviour in the program as written, so
// they are no counterexample.
//
// The proof holds only for the file's own launches: a pass may rely on it
// for code it adds beside the kernel and launches from those sites (the
// split pass's <k>_split), never to change the kernel itself, which other
// files may launch with any pointers.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_ALLOCATIONS_H
#define DECOUPLER_SUPPORT_ALLOCATIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <optional>
#include <string>

namespace decoupler {

/// Why the pointer parameters \p A and \p B of \p Kernel point into
/// distinct allocations at every launch of \p Kernel in this file (for a
/// remark: "'a' and 'c' get distinct cudaMalloc buffers at the 2 launches
/// of this file"); none when that cannot be shown, or the kernel is never
/// launched here.
std::optional<std::string>
distinctAllocations(const clang::FunctionDecl *Kernel,
                    const clang::ParmVarDecl *A, const clang::ParmVarDecl *B,
                    clang::ASTContext &Ctx);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_ALLOCATIONS_H
