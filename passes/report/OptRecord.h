//===- report/OptRecord.h - Decisions as LLVM optimization records -*- C++
//-*-===//
//
// --remarks-output: the passes' decisions in the YAML of LLVM's optimization
// records, the format of clang's -fsave-optimization-record, written by
// LLVM's own remark serializer so that opt-viewer.py, opt-stats.py and
// opt-diff.py read them. One document per decision:
//
//   --- !Passed          (rewritten; refused and declined are !Missed, what
//   Pass: decoupler-atomics   a pass left alone unasked and the classes of
//   Name: Rewritten           -Rdecoupler-affine are !Analysis)
//   DebugLoc: { File: k.cu, Line: 12, Column: 5 }
//   Function: histogram
//   Args:
//     - String: 'atomicAdd -> dd::atomic_add_vr: ...'
//     - Note: 'the atomic is here'      (each note, at its own location)
//       DebugLoc: { ... }
//   ...
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_REPORT_OPTRECORD_H
#define DECOUPLER_REPORT_OPTRECORD_H

#include "support/Decision.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace decoupler {

/// Writes \p Decisions, in order, as a YAML stream of optimization records.
llvm::Error printOptRecords(llvm::ArrayRef<Decision> Decisions,
                            llvm::raw_ostream &OS);

} // namespace decoupler

#endif // DECOUPLER_REPORT_OPTRECORD_H
