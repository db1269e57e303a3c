//===- support/Decision.h - What a pass decided, as plain data --*- C++ -*-===//
//
// Every remark, warning and error a pass gives through PassDiagnostics is
// also a decision that reports keep (--report=html, --remarks-output): what
// kind of decision, where (resolved to file, line and column while the
// translation unit still exists), in which function, why, and its notes.
// Plain data, like affine/Report.h, so that decisions outlive their file's
// AST and the driver can print many files' decisions in input order.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SUPPORT_DECISION_H
#define DECOUPLER_SUPPORT_DECISION_H

#include "affine/Report.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace decoupler {

enum class DecisionKind : uint8_t {
  /// The pass changed the code.
  Rewritten,
  /// What an annotation asks for cannot be done (an error: nothing is
  /// written for the file).
  Refused,
  /// An annotated construct (or one --delegate=auto found) left as written
  /// (-Wdecoupler-declined).
  Declined,
  /// Left as written without having been asked for; the message says why.
  Unchanged,
  /// -Rdecoupler-affine: the class of an access or branch condition.
  Classified,
};

/// "rewritten", "refused", "declined", "unchanged", "classified".
llvm::StringRef toString(DecisionKind K);

/// A place, as clang's diagnostics print it: the presumed file name and
/// position of the expansion location.
struct DecisionLocation {
  std::string File;
  /// Whether File is the main file (report entries name other files only).
  bool InMainFile = true;
  Position Pos;
};

struct DecisionNote {
  DecisionLocation Loc;
  std::string Message;
};

struct Decision {
  DecisionKind Kind = DecisionKind::Unchanged;
  /// The pass that decided: split, delegate, atomics; affine for Classified.
  std::string Pass;
  /// A short CamelCase name of what kind of decision it is (the remark name
  /// of LLVM's optimization records).
  std::string Name;
  DecisionLocation Loc;
  /// The function holding the location; for a location outside every
  /// function (an annotation before a kernel), the function that follows it.
  /// Empty when there is none.
  std::string Function;
  /// The diagnostic's text, without the [-R...]/[-W...] flag.
  std::string Message;
  std::vector<DecisionNote> Notes;
};

} // namespace decoupler

#endif // DECOUPLER_SUPPORT_DECISION_H
