//===- delegate/CriticalSection.h - Try-lock critical sections --*- C++ -*-===//
//
// Recognition of the lock-protected critical sections that the delegate
// rewrite hands to server thread blocks (dissertation section 4.2-4.4): a
// try-lock loop over a lock array, one lock (Listing 4.1) or two nested
// locks (Listing 4.3), as do/while or while, with locks taken and released
// by atomicCAS / atomicExch / a plain store directly or through one-statement
// __device__ helpers. What the recognizer returns is what the rewrite needs:
// the locks (array and index, in the caller's terms), the statements of the
// critical section, and the values it reads from the client (its message).
// When a loop cannot be delegated it says why, with a location: the pattern
// is not a try-lock loop, or the critical section (or a function it calls,
// transitively) returns, leaves the loop, synchronizes, reads the thread's
// identity, uses shared memory, contains inline assembly, calls what cannot
// be checked, writes a parameter, array or pointer local that the kernel
// uses outside it (a plain local comes back in a reply), or uses a pointer
// that may address the client's local or shared memory. Direct reads of
// threadIdx, blockIdx, blockDim and gridDim components are not refused: the
// client sends its values in the message.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_DELEGATE_CRITICALSECTION_H
#define DECOUPLER_DELEGATE_CRITICALSECTION_H

#include "support/CudaFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <variant>

namespace decoupler {

/// One lock of a critical section: the element Array[Index] of a lock array,
/// written in the kernel's terms (a helper's parameters replaced by the
/// call's arguments).
struct LockRef {
  const clang::Expr *Array = nullptr;
  const clang::Expr *Index = nullptr;
  /// The lock is this field of the element (`&nodes[i].lock`); null when
  /// the element is the lock.
  const clang::FieldDecl *Field = nullptr;
  /// Where the lock is taken (the try-lock call).
  clang::SourceLocation Loc;
};

struct CriticalSection {
  enum class Shape { Single, Nested };
  const clang::Stmt *Loop = nullptr;
  Shape Kind = Shape::Single;
  /// In the order the client takes them (Nested: the outer one first).
  llvm::SmallVector<LockRef, 2> Locks;
  /// The critical section: the statements between acquiring the (last)
  /// lock and the fence or unlock that ends it.
  llvm::SmallVector<const clang::Stmt *, 8> Body;
  /// The loop's completion flags (one per lock).
  llvm::SmallVector<const clang::VarDecl *, 2> Flags;
  /// The try-lock's condition assigns the loop's flag (`if (done =
  /// try_lock(L))`, a z-buffer's spelling) instead of the section's end: in
  /// the section the flag is already true.
  bool FlagInCondition = false;
  /// Local variables the body or the lock indices read, declared before
  /// the loop: what a message carries.
  llvm::SmallVector<const clang::ValueDecl *, 8> Message;
  /// Locals of the message that the body writes and the kernel uses
  /// outside the section: the server sends them back and the client waits
  /// for that reply (dissertation §4.4's reply channel).
  llvm::SmallVector<const clang::VarDecl *, 2> Replies;
  /// Kernel parameters the body reads: arguments of the server kernel.
  llvm::SmallVector<const clang::ValueDecl *, 8> Arguments;
  /// The body's reads of threadIdx/blockIdx/blockDim/gridDim components, in
  /// source order: the client's values travel in the message.
  struct BuiltinUse {
    CudaBuiltinRead Read;
    const clang::Expr *E;
  };
  llvm::SmallVector<BuiltinUse, 4> Builtins;
};

/// What kind of reason keeps a loop from being delegated. Callers decide on
/// the kind (e.g. --delegate=auto says nothing about a loop that is no
/// try-lock loop at all, but warns about a try-lock loop it leaves), never
/// on the message text.
enum class RefusalKind {
  /// Not a try-lock loop of a shape the pass knows (Listings 4.1 and 4.3).
  NotTryLockLoop,
  /// A spin lock: a loop that only waits to take a lock, the critical
  /// section after it (`while (atomicCAS(&l[i], 0, 1) != 0);`). A lock, but
  /// not one the pass delegates.
  SpinLock,
  /// A loop that tries a lock at its own level (an `if` on a try-lock among
  /// its statements) but is none of the try-lock shapes: a lock the pass
  /// sees and leaves as written.
  UnknownLockLoop,
  /// A try-lock loop whose parts do not fit: the flag, the release of the
  /// locks, the lock expression.
  SectionShape,
  /// The section does what a server thread cannot do in the client's place:
  /// reads thread or block ids it cannot carry, synchronizes, touches shared
  /// memory, writes client memory through pointers or references, calls a
  /// function whose body is not here.
  ServerCannotRun,
  /// The kernel around the section or its launches cannot be rewritten
  /// (not a kernel, a template, macros, dynamic shared memory, launches
  /// elsewhere, an early return before a barrier, a second section).
  KernelNotRewritable,
};

/// Why a loop is not a critical section that can be delegated.
struct Refusal {
  RefusalKind Kind;
  clang::SourceLocation Loc;
  std::string Message;
  /// Where the cause lies when it is not at Loc (in a callee).
  llvm::SmallVector<std::pair<clang::SourceLocation, std::string>, 2> Notes =
      {};
};

/// Matches \p Loop (the statement a `#pragma dd delegate` annotates, inside
/// \p Function) against the try-lock patterns.
std::variant<CriticalSection, Refusal>
matchCriticalSection(const clang::Stmt *Loop,
                     const clang::FunctionDecl &Function,
                     clang::ASTContext &Ctx);

} // namespace decoupler

#endif // DECOUPLER_DELEGATE_CRITICALSECTION_H
