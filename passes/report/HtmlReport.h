//===- report/HtmlReport.h - The analysis as one HTML page ------*- C++ -*-===//
//
// --analyze --report=html: one self-contained page (inline CSS and a few
// lines of inline JavaScript; no network, no other file) for every file
// that compiled. Each file gets a summary table (kernels, accesses and
// branches by class, decisions by kind) and the source of each kernel and
// of the device functions its report names, every access and branch
// condition coloured by class with its strides and coalescing on hover, and
// every pass decision (rewritten, refused, declined, left unchanged, with
// the reason and notes) below its line. docs/usage.md shows a screenshot.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_REPORT_HTMLREPORT_H
#define DECOUPLER_REPORT_HTMLREPORT_H

#include "affine/Report.h"
#include "support/Decision.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace decoupler {

/// One file of the page: its report (with FileReport::Sources filled) and
/// the decisions the passes would make.
struct HtmlFile {
  const FileReport *Report = nullptr;
  llvm::ArrayRef<Decision> Decisions;
};

void printHTML(llvm::ArrayRef<HtmlFile> Files, llvm::raw_ostream &OS);

/// How a warp of 32 threads meets an access's x stride (for the hover text):
/// uniform, coalesced, strided (which share of each 32-byte sector is used),
/// or bank conflicts in shared memory. Empty when nothing can be said.
std::string coalescingText(const AccessEntry &A);

/// \p S with &, <, >, ", ' and newlines replaced by character references.
std::string escapeHTML(llvm::StringRef S);

} // namespace decoupler

#endif // DECOUPLER_REPORT_HTMLREPORT_H
