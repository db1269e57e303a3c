//===- support/Callees.h - The function a call runs -------------*- C++ -*-===//
//
// Passes that follow a call into its callee's body must follow the function
// that runs, not the one the call names. A call of a virtual member function
// through a pointer or a reference runs the final overrider of the object's
// dynamic type, which the source does not show: such a call is as opaque as
// a call through a function pointer. clang's getDirectCallee() names the
// declared method either way, so every pass asks here instead.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_CALLEES_H
#define DECOUPLER_SUPPORT_CALLEES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace decoupler {

/// The function \p Call runs: its direct callee, or for a call of a virtual
/// member function the overrider the object's static type already decides
/// (a qualified call `b->Base::f()`, a final class or method, an object
/// whose dynamic type is its declared one). Null for a call through a
/// function pointer and for a virtual call decided at run time.
const clang::FunctionDecl *calledFunction(const clang::CallExpr *Call);

/// Whether \p Call calls a virtual member function whose overrider is
/// decided at run time (calledFunction() is null for it).
bool dispatchedAtRunTime(const clang::CallExpr *Call);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_CALLEES_H
