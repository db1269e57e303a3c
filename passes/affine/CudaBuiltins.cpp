//===- affine/CudaBuiltins.cpp - Reads of threadIdx, blockIdx, ... --------===//

#include "affine/CudaBuiltins.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

std::optional<CudaBuiltinRead> cudaBuiltinRead(const Expr *E) {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E->IgnoreParens());
  if (!POE)
    return std::nullopt;
  const auto *Prop = dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
  if (!Prop)
    return std::nullopt;
  const Expr *Base = Prop->getBaseExpr()->IgnoreParens();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    Base = OVE->getSourceExpr()->IgnoreParens();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  if (!DRE || !DRE->getDecl()->getIdentifier())
    return std::nullopt;
  StringRef Var = DRE->getDecl()->getName();
  if (Var != "threadIdx" && Var != "blockIdx" && Var != "blockDim" && Var != "gridDim")
    return std::nullopt;
  StringRef Member = Prop->getPropertyDecl()->getName();
  unsigned Dim = StringSwitch<unsigned>(Member).Case("x", 0).Case("y", 1).Case("z", 2).Default(3);
  if (Dim > 2)
    return std::nullopt;
  return CudaBuiltinRead{Var, Dim};
}

} // namespace decoupler
