//===- support/MemoryRoots.h - Memory a kernel may reach ----*- C++ -*-===//
//
// Which memory a statement may write or read, by the variables it reaches:
// the delegate pass asks it whether a delegated client must wait for the
// server's reply (docs/delegate-pass.md, "Replies"), the atomics pass whether
// a `monotonic` kernel writes an atomic's array some other way
// (docs/atomics.md). An address is reduced
// to its roots: the kernel parameters, globals and locals whose storage (or,
// for a pointer parameter or global, whose pointee) it may lie in, following
// pointer and reference locals through their initializers and assignments,
// flow-insensitively. An address of any other origin (a call's result, a
// pointer loaded from memory, a local whose own address is taken) is
// unknown, and unknown reaches everything. Distinct parameters and globals
// are taken not to overlap (as if __restrict__).
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_MEMORYROOTS_H
#define DECOUPLER_SUPPORT_MEMORYROOTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace decoupler {

/// A set of roots; Unknown: the address may be anywhere.
struct MemoryRootSet {
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Vars;
  bool Unknown = false;
  bool empty() const { return Vars.empty() && !Unknown; }
  bool overlaps(const MemoryRootSet &O) const;
};

/// The roots of the addresses of one function.
class MemoryRoots {
public:
  explicit MemoryRoots(const clang::FunctionDecl &F);
  /// Where the storage lvalue \p E designates may lie.
  void ofLValue(const clang::Expr *E, MemoryRootSet &Out);
  /// Where the pointer \p E may point.
  void ofPointer(const clang::Expr *E, MemoryRootSet &Out);
  /// What a use of \p V may reach: its pointee (a pointer), its referent (a
  /// reference) or its own storage (anything else; and anything, when that
  /// holds pointers).
  void ofVar(const clang::VarDecl *V, MemoryRootSet &Out);

private:
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::Expr *, 2>>
      Values;
  llvm::SmallPtrSet<const clang::VarDecl *, 4> Escaped;
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Visiting;
};

/// The memory a call may write through its arguments (\p Roots: those of
/// the calling function): the pointees of its non-const pointer parameters
/// and the referents of its non-const reference parameters; an argument
/// past the parameters, or of a call without a known callee, by its own
/// type. \p Site is a CallExpr or a CXXConstructExpr: a constructor that
/// takes a non-const reference or pointer makes an object that may write
/// through it later (`cuda::atomic_ref<T>(x).store(v)` writes x). Added to
/// \p Out.
void writtenThroughArguments(const clang::Expr *Site, MemoryRoots &Roots,
                             MemoryRootSet &Out);

/// The object a non-const member function (or member operator) \p Site is
/// called on, or null: its storage is added to \p Storage, and
/// \p ThroughMembers says whether the object holds pointers or references,
/// through which the function may write anything (the object's members are
/// not followed).
const clang::Expr *writtenObject(const clang::Expr *Site, MemoryRoots &Roots,
                                 MemoryRootSet &Storage, bool &ThroughMembers);

/// Whether an object of type \p T holds pointers or references, directly or
/// in its bases, fields and elements: what is reached through them is not
/// followed.
bool holdsPointers(clang::QualType T, unsigned Depth = 0);

/// The function a call site (CallExpr or CXXConstructExpr) calls, if known.
const clang::FunctionDecl *calleeOf(const clang::Expr *Site);

/// The calls in \p S other than CUDA atomics (forEachStore reports those as
/// stores) and the constructor calls, in source order.
llvm::SmallVector<const clang::Expr *, 4> nonAtomicCalls(const clang::Stmt *S);

/// The memory \p Body (statements of \p F) may write: its stores and
/// atomics, the pointers and non-const references it passes to functions,
/// and what the functions it calls write to globals (transitively); locals
/// of \p F are left out (they are not memory another thread reads).
MemoryRootSet writtenMemory(llvm::ArrayRef<const clang::Stmt *> Body,
                            const clang::FunctionDecl &F);

/// What the function a call site (CallExpr or CXXConstructExpr) calls may
/// write other than through its arguments and object: the globals it and
/// the functions it calls write, transitively. A call without a body in
/// the file (relocatable device code) or through a pointer may write
/// anything; a library function writes none of the program's globals.
MemoryRootSet writtenByCallee(const clang::Expr *Site);

/// The read twin of writtenByCallee: the globals the function a call site
/// calls, and the functions it calls, name (static locals included).
MemoryRootSet readByCallee(const clang::Expr *Site);

/// A function of the toolkit or of a system header (the standard library,
/// cooperative groups, CUB), not instantiated with one of the program's
/// types: it reads and writes only what it is given.
bool libraryFunction(const clang::FunctionDecl *F);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_MEMORYROOTS_H
