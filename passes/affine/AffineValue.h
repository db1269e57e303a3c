//===- affine/AffineValue.h - The lattice of the affine analysis -*- C++
//-*-===//
//
// An AffineValue describes what all threads of a thread block hold for one
// value at one program point (docs/analysis.md):
//
//   Bottom     no definition reaches (yet)
//   Scalar     the same in every thread; Const when known at compile time
//   Affine     base + Sx*threadIdx.x + Sy*threadIdx.y + Sz*threadIdx.z with
//              scalar base and strides; a stride is std::nullopt when it is a
//              scalar not known at compile time. Pointer values keep strides
//              in bytes. With Conditions non-empty the value is a divergent
//              affine tuple: one tuple per side of each listed condition.
//   NonAffine  anything else
//
// Values also carry the object a pointer was derived from (its root), which
// gives the address space of accesses and lets loads from read-only objects
// stay scalar.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_AFFINE_AFFINEVALUE_H
#define DECOUPLER_AFFINE_AFFINEVALUE_H

#include "affine/Report.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace clang {
class Stmt;
class ValueDecl;
} // namespace clang

namespace decoupler {

class AffineValue {
public:
  enum class Kind : uint8_t { Bottom, Scalar, Affine, NonAffine };

  /// At most this many divergent conditions per value (the dissertation's
  /// bound: two conditions, four tuples); more makes the value nonaffine.
  static constexpr unsigned MaxConditions = 2;

  AffineValue() = default;

  static AffineValue bottom() { return AffineValue(); }
  static AffineValue scalar(std::optional<int64_t> Const = std::nullopt);
  /// threadIdx.{x,y,z}: stride 1 in dimension \p Dim.
  static AffineValue threadIndex(unsigned Dim);
  static AffineValue nonAffine();

  Kind kind() const { return K; }
  bool isBottom() const { return K == Kind::Bottom; }
  bool isNonAffine() const { return K == Kind::NonAffine; }
  /// Scalar in the strict sense: one value for the whole block.
  bool isUniform() const { return K == Kind::Scalar || K == Kind::Bottom; }
  std::optional<int64_t> constant() const {
    return K == Kind::Scalar ? Const : std::nullopt;
  }
  /// Per-dimension strides; all zero for scalars.
  const Strides &strides() const { return S; }
  /// True when each tuple is scalar (all strides known zero): a uniform
  /// value or a divergent tuple of scalars.
  bool isTupleScalar() const;
  bool isPredicate() const { return Predicate; }
  llvm::ArrayRef<const clang::Stmt *> conditions() const { return Conditions; }

  /// The object a pointer value points into; null when unknown or not a
  /// pointer. rootUnknown() distinguishes "no object" from "several/unknown".
  const clang::ValueDecl *root() const { return Root; }
  bool rootUnknown() const { return RootUnknown; }
  AffineValue &setRoot(const clang::ValueDecl *R);
  AffineValue &setRootUnknown();
  /// Takes the root of \p From (pointer arithmetic keeps the pointer's root).
  AffineValue &inheritRoot(const AffineValue &From);

  /// Marks the value as chosen per thread by divergent condition \p Cond.
  AffineValue &addCondition(const clang::Stmt *Cond);
  /// Marks the value as a predicate (the result of a comparison or logical
  /// operator on non-scalar operands): a branch may use it, arithmetic may not.
  AffineValue &setPredicate();

  /// The least upper bound.
  static AffineValue join(const AffineValue &A, const AffineValue &B);

  // Arithmetic on abstract values. Strides are in the units of the operands.
  static AffineValue add(const AffineValue &A, const AffineValue &B);
  static AffineValue sub(const AffineValue &A, const AffineValue &B);
  static AffineValue neg(const AffineValue &A);
  static AffineValue mul(const AffineValue &A, const AffineValue &B);
  static AffineValue shl(const AffineValue &A, const AffineValue &B);
  /// p + i with pointee size \p ElemSize (std::nullopt when unknown).
  static AffineValue pointerAdd(const AffineValue &P, const AffineValue &I,
                                std::optional<int64_t> ElemSize, bool Subtract);
  /// \p A divided by \p Divisor when every stride is a known multiple of it
  /// (a pointer difference in elements); nonaffine otherwise.
  static AffineValue exactDivide(const AffineValue &A, int64_t Divisor);
  /// Operations that are affine only on scalars (/, %, >>, &, |, ^, ~, ...);
  /// \p Fold computes the constant when both are known.
  static AffineValue scalarOnly(const AffineValue &A, const AffineValue &B,
                                std::optional<int64_t> Folded);
  /// Comparisons and logical operators.
  static AffineValue predicate(const AffineValue &A, const AffineValue &B,
                               std::optional<int64_t> Folded);
  /// A conversion that may not keep affinity (float to int, ...).
  static AffineValue opaqueConversion(const AffineValue &A);

  /// Report class; Bottom (unreachable) reports as scalar.
  ValueClass valueClass() const;

  /// A stable text form, used as a memoization key and in debug output.
  std::string key() const;

  friend bool operator==(const AffineValue &A, const AffineValue &B);
  friend bool operator!=(const AffineValue &A, const AffineValue &B) {
    return !(A == B);
  }

private:
  Kind K = Kind::Bottom;
  Strides S = {0, 0, 0};
  std::optional<int64_t> Const;
  bool Predicate = false;
  const clang::ValueDecl *Root = nullptr;
  bool RootUnknown = false;
  llvm::SmallVector<const clang::Stmt *, 2> Conditions; // sorted, unique

  /// Common result shape of binary operators: conditions and roots merged,
  /// and the kind promoted; turns into NonAffine on too many conditions.
  static AffineValue combine(const AffineValue &A, const AffineValue &B);
  /// The start of +, -, *: sets \p R to combine(A, B) and returns the final
  /// result when that is already decided (bottom, nonaffine, a predicate
  /// operand), nothing when the operator must compute strides.
  static std::optional<AffineValue>
  arithmetic(const AffineValue &A, const AffineValue &B, AffineValue &R);
  void normalize();
};

} // namespace decoupler

#endif // DECOUPLER_AFFINE_AFFINEVALUE_H
