//===- affine/AffineValue.cpp - The lattice of the affine analysis --------===//

#include "affine/AffineValue.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace decoupler {

namespace {

using Stride = std::optional<int64_t>;

Stride addStride(Stride A, Stride B) {
  if (A && B)
    return *A + *B;
  if (A && *A == 0)
    return B;
  if (B && *B == 0)
    return A;
  return std::nullopt;
}

Stride mulStride(Stride A, std::optional<int64_t> Factor) {
  if (A && *A == 0)
    return 0;
  if (Factor && *Factor == 0)
    return 0;
  if (A && Factor)
    return *A * *Factor;
  return std::nullopt;
}

std::optional<int64_t> foldAdd(std::optional<int64_t> A,
                               std::optional<int64_t> B) {
  if (A && B)
    return *A + *B;
  return std::nullopt;
}

} // namespace

AffineValue AffineValue::scalar(std::optional<int64_t> C) {
  AffineValue V;
  V.K = Kind::Scalar;
  V.Const = C;
  return V;
}

AffineValue AffineValue::threadIndex(unsigned Dim) {
  AffineValue V;
  V.K = Kind::Affine;
  V.S[Dim] = 1;
  return V;
}

AffineValue AffineValue::nonAffine() {
  AffineValue V;
  V.K = Kind::NonAffine;
  return V;
}

bool AffineValue::isTupleScalar() const {
  if (K == Kind::Scalar || K == Kind::Bottom)
    return true;
  if (K != Kind::Affine || Predicate)
    return false;
  return llvm::all_of(S, [](Stride X) { return X && *X == 0; });
}

AffineValue &AffineValue::setRoot(const clang::ValueDecl *R) {
  Root = R;
  RootUnknown = false;
  return *this;
}

AffineValue &AffineValue::setRootUnknown() {
  Root = nullptr;
  RootUnknown = true;
  return *this;
}

AffineValue &AffineValue::inheritRoot(const AffineValue &From) {
  Root = From.Root;
  RootUnknown = From.RootUnknown;
  return *this;
}

AffineValue &AffineValue::addCondition(const clang::Stmt *Cond) {
  if (K == Kind::Bottom || K == Kind::NonAffine)
    return *this;
  auto It = std::lower_bound(Conditions.begin(), Conditions.end(), Cond);
  if (It == Conditions.end() || *It != Cond)
    Conditions.insert(It, Cond);
  normalize();
  return *this;
}

AffineValue &AffineValue::setPredicate() {
  if (K == Kind::Affine)
    Predicate = true;
  return *this;
}

void AffineValue::normalize() {
  if (Conditions.size() > MaxConditions)
    K = Kind::NonAffine;
  if (K == Kind::NonAffine || K == Kind::Bottom) {
    S = {0, 0, 0};
    Const.reset();
    Predicate = false;
    Conditions.clear();
    return;
  }
  if (K == Kind::Scalar && !Conditions.empty()) {
    K = Kind::Affine;
    S = {0, 0, 0};
    Const.reset();
  }
  if (K == Kind::Affine) {
    Const.reset();
    if (Conditions.empty() && !Predicate &&
        llvm::all_of(S, [](Stride X) { return X && *X == 0; }))
      K = Kind::Scalar;
  }
}

AffineValue AffineValue::join(const AffineValue &A, const AffineValue &B) {
  if (A.K == Kind::Bottom)
    return B;
  if (B.K == Kind::Bottom)
    return A;
  AffineValue R = combine(A, B);
  R.Const = A.Const == B.Const ? A.Const : std::nullopt;
  for (unsigned D = 0; D < 3; ++D)
    R.S[D] = A.S[D] == B.S[D] ? A.S[D] : std::nullopt;
  R.Predicate = A.Predicate || B.Predicate;
  R.normalize();
  return R;
}

AffineValue AffineValue::combine(const AffineValue &A, const AffineValue &B) {
  AffineValue R;
  if (A.K == Kind::Bottom || B.K == Kind::Bottom)
    return R;
  R.K = std::max(A.K, B.K);
  std::set_union(A.Conditions.begin(), A.Conditions.end(), B.Conditions.begin(),
                 B.Conditions.end(), std::back_inserter(R.Conditions));
  if (A.RootUnknown || B.RootUnknown || (A.Root && B.Root && A.Root != B.Root))
    R.setRootUnknown();
  else
    R.Root = A.Root ? A.Root : B.Root;
  return R;
}

std::optional<AffineValue> AffineValue::arithmetic(const AffineValue &A,
                                                   const AffineValue &B,
                                                   AffineValue &R) {
  R = combine(A, B);
  if (R.K == Kind::Bottom || R.K == Kind::NonAffine) {
    R.normalize();
    return R;
  }
  // A predicate is a step function of the thread index, not affine.
  if (A.Predicate || B.Predicate)
    return nonAffine();
  return std::nullopt;
}

AffineValue AffineValue::add(const AffineValue &A, const AffineValue &B) {
  AffineValue R;
  if (std::optional<AffineValue> Done = arithmetic(A, B, R))
    return *Done;
  for (unsigned D = 0; D < 3; ++D)
    R.S[D] = addStride(A.S[D], B.S[D]);
  R.Const = foldAdd(A.constant(), B.constant());
  R.normalize();
  return R;
}

AffineValue AffineValue::neg(const AffineValue &A) {
  AffineValue R = A;
  if (R.K == Kind::Bottom || R.K == Kind::NonAffine)
    return R;
  if (R.Predicate)
    return nonAffine();
  for (Stride &X : R.S)
    X = mulStride(X, -1);
  if (R.Const)
    R.Const = -*R.Const;
  return R;
}

AffineValue AffineValue::sub(const AffineValue &A, const AffineValue &B) {
  return add(A, neg(B));
}

AffineValue AffineValue::mul(const AffineValue &A, const AffineValue &B) {
  AffineValue R;
  if (std::optional<AffineValue> Done = arithmetic(A, B, R))
    return *Done;
  if (A.isTupleScalar() && B.isTupleScalar()) {
    if (A.constant() && B.constant())
      R.Const = *A.constant() * *B.constant();
    R.normalize();
    return R;
  }
  // One side varies with the thread: the other must be scalar per tuple.
  const AffineValue *Varying = &A, *Factor = &B;
  if (!B.isTupleScalar())
    std::swap(Varying, Factor);
  if (!Factor->isTupleScalar())
    return nonAffine();
  for (unsigned D = 0; D < 3; ++D)
    R.S[D] = mulStride(Varying->S[D], Factor->constant());
  R.normalize();
  return R;
}

AffineValue AffineValue::shl(const AffineValue &A, const AffineValue &B) {
  if (B.K == Kind::Bottom || A.K == Kind::Bottom)
    return bottom();
  if (!B.isTupleScalar())
    return nonAffine();
  std::optional<int64_t> Amount = B.constant();
  AffineValue Factor = B;
  Factor.Const.reset();
  if (Amount && *Amount >= 0 && *Amount < 62)
    Factor = scalar(int64_t(1) << *Amount);
  else if (B.isUniform())
    Factor = scalar();
  AffineValue R = mul(A, Factor);
  if (R.K == Kind::Scalar && A.constant() && Amount && *Amount >= 0 &&
      *Amount < 62)
    R.Const = *A.constant() << *Amount;
  return R;
}

AffineValue AffineValue::pointerAdd(const AffineValue &P, const AffineValue &I,
                                    std::optional<int64_t> ElemSize,
                                    bool Subtract) {
  AffineValue Offset = mul(I, scalar(ElemSize));
  Offset.Root = nullptr;
  Offset.RootUnknown = false;
  AffineValue R = Subtract ? sub(P, Offset) : add(P, Offset);
  if (R.K != Kind::NonAffine || !P.RootUnknown)
    R.inheritRoot(P);
  return R;
}

AffineValue AffineValue::exactDivide(const AffineValue &A, int64_t Divisor) {
  if (A.K == Kind::Bottom || A.isUniform())
    return A.K == Kind::Bottom ? A : scalar();
  if (A.K == Kind::NonAffine || A.Predicate || !A.Conditions.empty() ||
      Divisor == 0)
    return nonAffine();
  AffineValue R = A;
  for (Stride &X : R.S) {
    if (!X || *X % Divisor != 0)
      return nonAffine();
    X = *X / Divisor;
  }
  R.Root = nullptr;
  R.RootUnknown = false;
  return R;
}

AffineValue AffineValue::scalarOnly(const AffineValue &A, const AffineValue &B,
                                    std::optional<int64_t> Folded) {
  AffineValue R = combine(A, B);
  if (R.K == Kind::Bottom)
    return R;
  if (A.isTupleScalar() && B.isTupleScalar()) {
    if (R.K != Kind::NonAffine && R.Conditions.empty())
      R = scalar(Folded).inheritRoot(R);
    R.normalize();
    return R;
  }
  return nonAffine();
}

AffineValue AffineValue::predicate(const AffineValue &A, const AffineValue &B,
                                   std::optional<int64_t> Folded) {
  AffineValue R = combine(A, B);
  R.Root = nullptr;
  R.RootUnknown = false;
  if (R.K == Kind::Bottom)
    return R;
  if (R.K == Kind::NonAffine) {
    R.normalize();
    return R;
  }
  if (A.isUniform() && B.isUniform())
    return scalar(Folded);
  R.K = Kind::Affine;
  R.S = {std::nullopt, std::nullopt, std::nullopt};
  R.Predicate = true;
  R.normalize();
  return R;
}

AffineValue AffineValue::opaqueConversion(const AffineValue &A) {
  if (A.isTupleScalar()) {
    AffineValue R = A;
    R.Const.reset();
    return R;
  }
  return nonAffine();
}

ValueClass AffineValue::valueClass() const {
  switch (K) {
  case Kind::Bottom:
  case Kind::Scalar:
    return ValueClass::Scalar;
  case Kind::Affine:
    return ValueClass::Affine;
  case Kind::NonAffine:
    return ValueClass::NonAffine;
  }
  llvm_unreachable("bad kind");
}

std::string AffineValue::key() const {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << unsigned(K) << '|';
  for (Stride X : S) {
    if (X)
      OS << *X;
    else
      OS << '?';
    OS << ',';
  }
  OS << '|';
  if (Const)
    OS << *Const;
  OS << '|' << Predicate << '|' << static_cast<const void *>(Root) << '|'
     << RootUnknown << '|';
  for (const clang::Stmt *C : Conditions)
    OS << static_cast<const void *>(C) << ',';
  return Out;
}

bool operator==(const AffineValue &A, const AffineValue &B) {
  return A.K == B.K && A.S == B.S && A.Const == B.Const &&
         A.Predicate == B.Predicate && A.Root == B.Root &&
         A.RootUnknown == B.RootUnknown && A.Conditions == B.Conditions;
}

} // namespace decoupler
