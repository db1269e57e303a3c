//===- AffineValueTest.cpp - The lattice of the affine analysis -----------===//

#include "affine/AffineValue.h"
#include "gtest/gtest.h"

using namespace decoupler;

namespace {

using Kind = AffineValue::Kind;

AffineValue tid() { return AffineValue::threadIndex(0); }
AffineValue c(int64_t V) { return AffineValue::scalar(V); }

TEST(AffineValueTest, ArithmeticKeepsStrides) {
  // tid * 4 + blockIdx.x * blockDim.x: affine with x stride 4.
  AffineValue V = AffineValue::add(AffineValue::mul(tid(), c(4)),
                                   AffineValue::scalar());
  EXPECT_EQ(V.kind(), Kind::Affine);
  EXPECT_EQ(V.strides()[0], 4);
  EXPECT_EQ(V.strides()[1], 0);
  EXPECT_EQ(V.valueClass(), ValueClass::Affine);
}

TEST(AffineValueTest, UnknownScalarFactorGivesUnknownStride) {
  AffineValue V = AffineValue::mul(tid(), AffineValue::scalar());
  EXPECT_EQ(V.kind(), Kind::Affine);
  EXPECT_FALSE(V.strides()[0].has_value());
  EXPECT_EQ(V.strides()[1], 0);
}

TEST(AffineValueTest, ProductOfThreadIndicesIsNonAffine) {
  EXPECT_TRUE(AffineValue::mul(tid(), tid()).isNonAffine());
  EXPECT_TRUE(AffineValue::scalarOnly(tid(), c(32), std::nullopt).isNonAffine());
}

TEST(AffineValueTest, DifferenceOfEqualStridesIsScalar) {
  // Bases of affine values are not tracked, so the difference is a scalar
  // of unknown value.
  AffineValue V = AffineValue::sub(AffineValue::add(tid(), c(3)), tid());
  EXPECT_EQ(V.kind(), Kind::Scalar);
  EXPECT_FALSE(V.constant().has_value());
  EXPECT_EQ(AffineValue::sub(c(7), c(3)).constant(), 4);
}

TEST(AffineValueTest, ShiftByConstantScales) {
  AffineValue V = AffineValue::shl(tid(), c(2));
  EXPECT_EQ(V.strides()[0], 4);
  EXPECT_TRUE(AffineValue::shl(c(1), tid()).isNonAffine());
}

TEST(AffineValueTest, JoinOfDifferentStridesIsUnknownStride) {
  AffineValue V = AffineValue::join(tid(), AffineValue::scalar(0));
  EXPECT_EQ(V.kind(), Kind::Affine);
  EXPECT_FALSE(V.strides()[0].has_value());
  AffineValue W = AffineValue::join(c(1), c(2));
  EXPECT_EQ(W.kind(), Kind::Scalar);
  EXPECT_FALSE(W.constant().has_value());
  EXPECT_EQ(AffineValue::join(AffineValue::bottom(), tid()), tid());
}

TEST(AffineValueTest, DivergentTuplesAreBoundedByTwoConditions) {
  int Tags[3];
  auto *C0 = reinterpret_cast<const clang::Stmt *>(&Tags[0]);
  auto *C1 = reinterpret_cast<const clang::Stmt *>(&Tags[1]);
  auto *C2 = reinterpret_cast<const clang::Stmt *>(&Tags[2]);
  AffineValue V = c(1);
  V.addCondition(C0);
  EXPECT_EQ(V.kind(), Kind::Affine);
  EXPECT_TRUE(V.isTupleScalar());
  EXPECT_EQ(V.valueClass(), ValueClass::Affine);
  V.addCondition(C1);
  EXPECT_EQ(V.conditions().size(), 2u);
  V.addCondition(C1); // same condition twice: still two
  EXPECT_EQ(V.kind(), Kind::Affine);
  V.addCondition(C2);
  EXPECT_TRUE(V.isNonAffine());
}

TEST(AffineValueTest, PredicatesAreNotArithmetic) {
  AffineValue P = AffineValue::predicate(tid(), AffineValue::scalar(), std::nullopt);
  EXPECT_EQ(P.valueClass(), ValueClass::Affine);
  EXPECT_TRUE(P.isPredicate());
  EXPECT_TRUE(AffineValue::add(P, c(1)).isNonAffine());
  AffineValue Q = AffineValue::predicate(c(1), c(2), 1);
  EXPECT_EQ(Q.kind(), Kind::Scalar);
  EXPECT_EQ(Q.constant(), 1);
}

TEST(AffineValueTest, PointerArithmeticCountsBytes) {
  AffineValue Base = AffineValue::scalar();
  AffineValue P = AffineValue::pointerAdd(Base, tid(), 8, false);
  EXPECT_EQ(P.strides()[0], 8);
  EXPECT_EQ(AffineValue::exactDivide(P, 8).strides()[0], 1);
  EXPECT_TRUE(AffineValue::exactDivide(P, 16).isNonAffine());
}

TEST(AffineValueTest, KeysDistinguishValues) {
  EXPECT_NE(tid().key(), AffineValue::threadIndex(1).key());
  EXPECT_EQ(tid().key(), AffineValue::threadIndex(0).key());
}

} // namespace
