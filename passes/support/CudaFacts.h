//===- support/CudaFacts.h - What CUDA's functions and variables are -*- C++
//-*-//
//
// Every pass and the analysis ask the same questions about CUDA: is this call
// an atomic, a barrier, a fence, a warp intrinsic; is this expression a read
// of threadIdx.x. They are answered here, once, from the declaration: a
// function counts as CUDA's when clang declares it as a builtin or when it is
// declared at global scope in a system header (the CUDA toolkit's headers and
// clang's CUDA wrappers are system headers when decoupler parses). A user's
// `mylib::atomicAdd`, or an `atomicAdd` overload of their own, is an ordinary
// function whatever its name.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_CUDAFACTS_H
#define DECOUPLER_SUPPORT_CUDAFACTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace decoupler {

//===-- Functions ---------------------------------------------------------===//

/// Whether \p F is a function of the CUDA toolkit or of clang's CUDA
/// support (see the file comment).
bool isCudaFunction(const clang::FunctionDecl *F);

/// Whether \p D is a member of (a class in) namespace cooperative_groups,
/// declared by CUDA's headers.
bool inCooperativeGroups(const clang::Decl *D);

/// The name of \p F when isCudaFunction(F), else the empty string: the one
/// way passes look up CUDA functions in their tables by name.
llvm::StringRef cudaFunctionName(const clang::FunctionDecl *F);

/// The CUDA function \p Call calls directly, if it calls one.
const clang::FunctionDecl *cudaCallee(const clang::CallExpr *Call);

/// A call of one of CUDA's atomic functions (atomicAdd, atomicCAS_block, ...).
struct AtomicCall {
  enum class Op { Add, Sub, Min, Max, And, Or, Xor, Inc, Dec, Exch, CAS };
  enum class Scope { Device, Block, System };
  Op Operation;
  Scope Extent;
  /// The name as declared ("atomicAdd_block").
  llvm::StringRef Name;
};

/// "add", "sub", ..., "cas": how the runtime's variants spell the operation.
llvm::StringRef toString(AtomicCall::Op Op);

/// The CUDA atomic \p Call makes, if it is one (by declaration).
std::optional<AtomicCall> cudaAtomic(const clang::CallExpr *Call);

/// The CUDA atomic function \p F is, if it is one (by declaration): what
/// cudaAtomic knows of a call before its arguments (a call in a template's
/// text names its atomic through an unresolved lookup).
std::optional<AtomicCall> cudaAtomicFunction(const clang::FunctionDecl *F);

/// Whether inline assembly \p Text may store to memory: st., atom, red.
/// instructions.
bool asmMayStore(llvm::StringRef Text);

/// "kernel 'k'" for a __global__ function, "function 'f'" otherwise.
std::string describeFunction(const clang::FunctionDecl *F);

/// Whether the value \p Call returns is thrown away (an atomic's old value
/// nobody reads). The last statement of a GNU statement expression
/// `({ ...; atomicAdd(p, 1); })` is the value of the expression: its result
/// is used where the statement expression's is.
bool resultUnused(clang::ASTContext &Ctx, const clang::CallExpr *Call);

/// What a call does to the threads that execute it, when it is a CUDA
/// synchronization function.
enum class SyncKind {
  None,
  /// __syncthreads and its variants, barrier intrinsics, a cooperative
  /// group's sync() of a block or larger.
  Barrier,
  /// __syncwarp, a tile's sync(): the threads of one warp.
  WarpBarrier,
  /// __threadfence, __threadfence_block, __threadfence_system,
  /// __nv_atomic_thread_fence.
  Fence,
};
SyncKind cudaSync(const clang::CallExpr *Call);

/// Whether \p Call lets other blocks see this thread's earlier writes
/// before the kernel ends: a fence of device or system scope
/// (__threadfence, __threadfence_system, cuda::atomic_thread_fence), an
/// atomic write that releases at more than block scope (libcu++'s or the
/// standard atomic_ref/atomic members, seq_cst by default; nvcc's
/// __nv_atomic_* builtins) or a grid-wide barrier (a grid_group's or
/// multi_grid_group's sync()).
bool ordersForOtherBlocks(const clang::CallExpr *Call);

/// How a remark names the function \p Call calls: `name`, or for a member
/// `Class::name` with the class of the object the user wrote (atomic_ref,
/// not the library's base that declares the member).
std::string callName(const clang::CallExpr *Call);

/// Whether \p Call returns something that differs between threads of the
/// same block for reasons other than its arguments: warp votes and
/// shuffles, lane/warp ids, clocks and timers, random-number generators.
bool readsThreadIdentity(const clang::CallExpr *Call);

/// How a call behaves for the analysis, independent of any body the CUDA
/// headers give the function.
enum class CudaCallKind {
  /// A math or bit function: uniform when its arguments are.
  Pure,
  /// min/max and friends: one of the arguments.
  MinMax,
  /// readsThreadIdentity().
  Divergent,
  /// Returns nothing the analysis tracks (barriers, fences, printf).
  Void,
  /// __builtin_expect: its first argument.
  Expect,
  /// Not a CUDA function with known behaviour: look at its body.
  Other,
};
CudaCallKind cudaCallKind(const clang::CallExpr *Call);

//===-- Builtin variables -------------------------------------------------===//

/// A read of one component of a CUDA builtin variable.
struct CudaBuiltinRead {
  llvm::StringRef Var; ///< "threadIdx", "blockIdx", "blockDim" or "gridDim"
  unsigned Dim;        ///< 0, 1, 2 for x, y, z

  /// "threadIdx.x", "blockDim.y", ...
  std::string name() const {
    return (Var + "." + llvm::StringRef(&"xyz"[Dim], 1)).str();
  }
};

/// Whether \p V is one of CUDA's builtin variables (threadIdx, blockIdx,
/// blockDim, gridDim, warpSize), declared by clang's CUDA headers.
bool isCudaBuiltinVariable(const clang::VarDecl *V);

/// The builtin component \p E reads (parentheses ignored), if it is one.
/// clang's CUDA headers spell threadIdx and friends as MS properties
/// (`__declspec(property)`), so a read of `threadIdx.x` is a
/// PseudoObjectExpr around an MSPropertyRefExpr.
std::optional<CudaBuiltinRead> cudaBuiltinRead(const clang::Expr *E);

/// Its name ("threadIdx.x"), if \p E reads one.
inline std::optional<std::string> cudaBuiltinName(const clang::Expr *E) {
  if (std::optional<CudaBuiltinRead> B = cudaBuiltinRead(E))
    return B->name();
  return std::nullopt;
}

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_CUDAFACTS_H
