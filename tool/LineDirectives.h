//===- LineDirectives.h - #line in rewritten files ---------------*- C++
//-*-===//
//
// A rewritten file is compiled in place of its input, so nvcc's diagnostics,
// cuda-gdb and compute-sanitizer would point at the generated file. `#line`
// directives give every line of the input that survives the rewrite (as it
// was, or edited in place) its original file and line, and every generated
// line the output file's own name and line, as parser generators do.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_LINEDIRECTIVES_H
#define DECOUPLER_TOOL_LINEDIRECTIVES_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace decoupler::tool {

/// \p Rewritten with `#line` directives that attribute its lines: those
/// matched to a line of \p Original (the same, or the one it replaced in a
/// block of as many changed lines) to \p OriginalName at that line, the
/// others to \p OutputName at their own line in the result (left as they
/// fall when \p OutputName is empty, e.g. on standard output). A directive
/// goes only where one may stand: at the start of a line that is not in a
/// comment, a raw string or a backslash continuation; otherwise at the next
/// such line. Directives end as the file's lines do (LF or CRLF) and follow
/// a UTF-8 byte-order mark.
std::string addLineDirectives(llvm::StringRef Original,
                              llvm::StringRef Rewritten,
                              llvm::StringRef OriginalName,
                              llvm::StringRef OutputName);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_LINEDIRECTIVES_H
