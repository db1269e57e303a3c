//===- OutputWriter.h - Where outputs go and how they are written -*- C++
//-*-===//
//
// decoupler never damages what an output path names: a regular file is
// replaced atomically (a temporary file beside it, renamed over it) keeping
// its mode, owner, group and hard links; devices, FIFOs and /dev/stdout are
// written through. The rules are support/output_file.h's, shared with the
// graph tools.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_TOOL_OUTPUTWRITER_H
#define DECOUPLER_TOOL_OUTPUTWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace decoupler::tool {

/// Where rewriting writes.
struct OutputChoice {
  /// -o: one file for the one input ("-" is standard output).
  std::string OutputFile;
  /// --out-dir: <dir>/<stem>.dd.cu (created when missing).
  std::string OutDir;
  /// --in-place: the input itself (the file a link points to).
  bool InPlace = false;
};

/// The output path of each input, checked before anything is parsed: without
/// --in-place no output may be an input (also through a link), and no two
/// inputs may share an output.
llvm::Expected<std::vector<std::string>>
planOutputs(llvm::ArrayRef<std::string> Inputs, const OutputChoice &Choice);

/// Checks that \p Path, the file of \p Option (an output besides the main
/// ones, e.g. --remarks-output), is none of \p Inputs (by file identity) and
/// none of \p Outputs (by identity or by absolute path).
llvm::Error checkSeparateOutput(llvm::StringRef Option, llvm::StringRef Path,
                                llvm::ArrayRef<std::string> Inputs,
                                llvm::ArrayRef<std::string> Outputs);

/// `<dir>/<stem>.dd.cu` for \p Input, where <dir> is \p OutDir, or the input's
/// own directory when \p OutDir is empty.
std::string rewrittenPathFor(llvm::StringRef Input, llvm::StringRef OutDir);

/// Writes \p Contents to \p Path by the rules of support/output_file.h; `-`
/// is standard output.
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace decoupler::tool

#endif // DECOUPLER_TOOL_OUTPUTWRITER_H
