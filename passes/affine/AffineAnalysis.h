//===- affine/AffineAnalysis.h - Classifying kernel values ------*- C++ -*-===//
//
// The analysis every pass starts from (docs/analysis.md): for each kernel of
// the main file, the class (scalar / affine / nonaffine) of every value,
// memory access and branch condition, by reaching definitions over Clang's
// CFG to a fixed point, with sync dependence at the join blocks of divergent
// branches, temporal divergence at the exits of divergent loops, and
// context-sensitive analysis of the __device__ functions it calls.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_AFFINE_AFFINEANALYSIS_H
#define DECOUPLER_AFFINE_AFFINEANALYSIS_H

#include "affine/AffineValue.h"
#include "affine/Report.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class Expr;
class FunctionDecl;
} // namespace clang

namespace decoupler {

class PassDiagnostics;

/// The analysis of one kernel, for the passes: classes keyed by AST node.
struct KernelAnalysis {
  const clang::FunctionDecl *Kernel = nullptr;
  KernelReport Report;
  /// Address of every memory access expression (lvalue, atomic call), joined
  /// over all contexts it was reached in.
  llvm::DenseMap<const clang::Expr *, AffineValue> Addresses;
  /// The distinct addresses of each access in the contexts it was reached
  /// in (a device function called from several places), before the join.
  llvm::DenseMap<const clang::Expr *, llvm::SmallVector<AffineValue, 2>>
      AddressContexts;
  /// Value of every expression evaluated (joined over contexts).
  llvm::DenseMap<const clang::Expr *, AffineValue> Values;
  /// Class of every branch condition (if/loop/switch conditions, ?:).
  llvm::DenseMap<const clang::Expr *, AffineValue> Conditions;

  /// The class of \p E, or nonaffine when the analysis never reached it.
  AffineValue valueOf(const clang::Expr *E) const;
  /// Whether the analysis evaluated \p E (or the expression under its
  /// parentheses and implicit casts) on some path from the kernel's entry:
  /// false in code no path reaches, such as a branch that a condition fixed
  /// at compile time excludes in this instantiation.
  bool reached(const clang::Expr *E) const;
  AffineValue addressOf(const clang::Expr *E) const;
};

/// Analyses every kernel (a `__global__` function defined in the main file;
/// for templates, every instantiation). When \p Remarks is non-null, reports
/// each access and branch to it (PassDiagnostics::classified: a remark under
/// -Rdecoupler-affine).
std::vector<std::unique_ptr<KernelAnalysis>>
analyzeKernels(clang::ASTContext &Ctx, PassDiagnostics *Remarks);

/// Why the analysis gave no class to \p S, a statement of the main file that
/// no analysed kernel reached (for remarks): in a template, a lambda or a
/// member function, which the analysis does not follow; reached only from
/// kernels outside the main file; or not called from any kernel.
std::string whyNotAnalysed(clang::ASTContext &Ctx, const clang::Stmt *S);

/// The memory an address of the analysis points into, from the object it was
/// derived from (its root, followed through locals and the arguments of each
/// calling context): __shared__ variables are shared, kernel parameters and
/// variables of static storage global; Unknown when the root is (several
/// objects, a pointer loaded from memory, `this`).
AddressSpace addressSpaceOf(const AffineValue &Address);

/// Converts a source location to a report position (expansion location).
Position toPosition(const clang::SourceManager &SM, clang::SourceLocation Loc);
/// The file a report entry at \p Loc names (expansion location): empty in
/// the main file, else the presumed file name (Classified::File).
std::string fileOf(const clang::SourceManager &SM, clang::SourceLocation Loc);

} // namespace decoupler

#endif // DECOUPLER_AFFINE_AFFINEANALYSIS_H
