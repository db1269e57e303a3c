//===- support/SourceText.h - Source facts the rewrite passes share -*- C++
//-*-//
//
// Small questions about the text a pass is about to edit: whether a range
// comes from a macro (it cannot be rewritten in place), which line an
// annotation occupies (the line a pass removes once it has acted on it),
// and which function a statement is in.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_SOURCETEXT_H
#define DECOUPLER_SUPPORT_SOURCETEXT_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include <optional>
#include <utility>

namespace decoupler {

/// Whether either end of \p Range comes from a macro expansion.
inline bool inMacro(clang::SourceRange Range) {
  return Range.getBegin().isMacroID() || Range.getEnd().isMacroID();
}

/// The line of the annotation at \p Loc as [begin, end) offsets in the main
/// file, its newline included, when the directive is alone on that line
/// (`#pragma dd ...` or `DD_PRAGMA(...)`); none when it shares the line or
/// is not in the main file, so that removing it would take other text.
std::optional<std::pair<unsigned, unsigned>>
annotationLine(clang::SourceLocation Loc, const clang::SourceManager &SM);

/// The function whose body holds \p S (walking up the AST's parents);
/// null when there is none.
const clang::FunctionDecl *enclosingFunction(clang::ASTContext &Ctx,
                                             const clang::Stmt *S);

/// The innermost loop (for, while, do, range-for) around \p S within its
/// function, if any.
const clang::Stmt *enclosingLoop(clang::ASTContext &Ctx, const clang::Stmt *S);

/// The condition of a for, while or do loop \p S; null for anything else
/// (a range-for, a for without one).
const clang::Expr *loopCondition(const clang::Stmt *S);

/// The body of a for, while or do loop \p S; null for anything else.
const clang::Stmt *loopBody(const clang::Stmt *S);

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_SOURCETEXT_H
