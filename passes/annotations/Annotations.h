//===- annotations/Annotations.h - `#pragma dd` directives ------*- C++ -*-===//
//
// decoupler's annotations: `#pragma dd <directive> [clauses]`, or
// `DD_PRAGMA(<directive> [clauses])` from <dd/annotate.h>. The preprocessor
// hands each pragma to a handler that parses it (errors with a caret at the
// offending token); after parsing, every annotation is attached to the kernel
// or statement that follows it (an error when nothing suitable follows).
// Passes then ask "is this loop / kernel / statement annotated?".
//
// Directives (docs/annotations.md):
//   decouple [depth(N)]              before a loop or a kernel
//   delegate [servers(N)] [locks(N)] before a loop (a try-lock loop)
//   atomic(sr|vr|ss|none)            before a statement holding an atomic
//   atomic(privatize) [range(N|param)]  the same: block-private copies
//   monotonic [(filter|store)]       before a kernel
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_ANNOTATIONS_ANNOTATIONS_H
#define DECOUPLER_ANNOTATIONS_ANNOTATIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <vector>

namespace decoupler {

enum class Directive { Decouple, Delegate, Atomic, Monotonic };
enum class AtomicVariant { SR, VR, SS, Privatize, None };
/// What `monotonic` makes of a min/max: the atomic behind a relaxed load
/// that skips it where it would change nothing (exact), or the papers'
/// guarded plain store (loses updates: a fixed point must redo them).
enum class MonotonicVariant { Filter, Store };

llvm::StringRef toString(Directive D);
llvm::StringRef toString(AtomicVariant V);
llvm::StringRef toString(MonotonicVariant V);

/// One parsed `#pragma dd`.
struct Annotation {
  Directive Kind = Directive::Decouple;
  /// Where the directive name is written (the caret of every diagnostic about
  /// this annotation), after macro expansion.
  clang::SourceLocation Loc;
  /// decouple depth(N): stages of the producer/consumer ring.
  std::optional<unsigned> Depth;
  /// delegate servers(N): server thread blocks.
  std::optional<unsigned> Servers;
  /// delegate locks(N): locks in each server's shared-memory lock table.
  std::optional<unsigned> Locks;
  /// atomic(...): the forced variant.
  AtomicVariant Variant = AtomicVariant::None;
  /// monotonic(filter|store); filter when not written.
  MonotonicVariant Monotonic = MonotonicVariant::Filter;
  /// atomic(privatize) range(N): indices in [0, N).
  std::optional<uint64_t> RangeValue;
  /// atomic(privatize) range(param): indices in [0, param), a kernel
  /// parameter (resolved by the atomics pass).
  std::string RangeName;
  /// Where the range clause's value is written.
  clang::SourceLocation RangeLoc;
  /// For an annotation written through a macro (`_Pragma` in its
  /// replacement), the last token of the outermost macro use it came from:
  /// what else that use expands to is code no pass can rewrite.
  clang::SourceLocation MacroEnd;

  /// Set by AnnotationSet::attach: exactly one of the two targets.
  const clang::FunctionDecl *TargetFunction = nullptr;
  const clang::Stmt *TargetStmt = nullptr;
  /// The function whose body holds the pragma (null at file scope).
  const clang::FunctionDecl *Enclosing = nullptr;
};

/// All annotations of one translation unit.
class AnnotationSet {
public:
  /// Installs the `#pragma dd` handler; must be called before parsing.
  /// The set must outlive the preprocessor.
  void registerPragmaHandler(clang::Preprocessor &PP);

  /// Attaches every parsed annotation to what follows it. Reports an error
  /// (with a caret at the directive) for each that annotates nothing
  /// suitable; returns false if any error was reported.
  bool attach(clang::ASTContext &Ctx);

  llvm::ArrayRef<Annotation> all() const { return Annotations; }

  /// The annotation of \p Kind attached to \p S (looking through labels and
  /// attributes), if any.
  const Annotation *find(Directive Kind, const clang::Stmt *S) const;
  /// The annotation of \p Kind attached to kernel \p FD, if any.
  const Annotation *find(Directive Kind, const clang::FunctionDecl *FD) const;

  /// Called by the pragma handler.
  void add(Annotation A) { Annotations.push_back(std::move(A)); }

  /// Removes the annotations written outside the main file (no pass
  /// rewrites an included file), calling \p Dropped with each first.
  void dropIncluded(const clang::SourceManager &SM,
                    llvm::function_ref<void(const Annotation &)> Dropped);

private:
  std::vector<Annotation> Annotations;
};

} // namespace decoupler

#endif // DECOUPLER_ANNOTATIONS_ANNOTATIONS_H
