//===- affine/Report.h - The analysis report of one file ------------------===//
//
// Plain data (no AST pointers) so that reports outlive their translation unit
// and the driver can print many files' reports in input order. The JSON form
// is a stable interface: docs/analysis.md.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_AFFINE_REPORT_H
#define DECOUPLER_AFFINE_REPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace decoupler {

/// The lattice of docs/analysis.md, ordered scalar < affine < nonaffine.
enum class ValueClass : uint8_t { Scalar, Affine, NonAffine };

enum class AccessKind : uint8_t { Load, Store, Atomic };
enum class AddressSpace : uint8_t { Global, Shared, Local, Unknown };

llvm::StringRef toString(ValueClass C);
llvm::StringRef toString(AccessKind K);
llvm::StringRef toString(AddressSpace S);

/// A source position after macro expansion, 1-based.
struct Position {
  unsigned Line = 0;
  unsigned Column = 0;
  friend bool operator<(const Position &A, const Position &B) {
    return std::make_pair(A.Line, A.Column) < std::make_pair(B.Line, B.Column);
  }
  friend bool operator==(const Position &A, const Position &B) {
    return A.Line == B.Line && A.Column == B.Column;
  }
};

/// Strides per thread dimension (x, y, z); std::nullopt: a scalar not known at
/// compile time.
using Strides = std::array<std::optional<int64_t>, 3>;

/// What every classified item carries.
struct Classified {
  ValueClass Class = ValueClass::Scalar;
  /// For affine values with a single tuple.
  std::optional<Strides> StrideValues;
  /// Positions of the divergent conditions selecting between tuples.
  std::vector<Position> DivergentConditions;
  /// The device function holding the item; empty for the kernel itself.
  std::string Function;
  /// The file holding the item (as the compiler names it, after `#line`)
  /// when it is not the main file, e.g. a header's device function; empty in
  /// the main file, whose name the report gives once.
  std::string File;
};

struct AccessEntry : Classified {
  Position Pos;
  /// Just past the access's last character (the HTML report highlights
  /// Pos..End; neither text nor JSON prints it).
  Position End;
  AccessKind Kind = AccessKind::Load;
  AddressSpace Space = AddressSpace::Unknown;
  /// The size of the value read or written (for the coalescing the HTML
  /// report explains); 0 when unknown.
  unsigned Bytes = 0;
  /// The source text of the access, for the text report.
  std::string Text;
};

struct BranchEntry : Classified {
  Position Pos;
  Position End; // as AccessEntry::End
  std::string Text;
};

struct VariableEntry : Classified {
  std::string Name;
  unsigned Line = 0;
  Position Pos; // declaration begin, for ordering
};

struct KernelReport {
  std::string Name;
  Position Pos;
  std::string File; // as Classified::File
  std::vector<AccessEntry> Accesses;
  std::vector<BranchEntry> Branches;
  std::vector<VariableEntry> Variables;
};

struct AnnotationEntry {
  std::string Directive; // decouple, delegate, atomic, monotonic
  Position Pos;
  std::string Function; // enclosing function, empty at file scope
  std::string Target;   // kernel, loop, statement
  Position TargetPos;
  /// Clause name -> value; integers for servers/locks/depth, a word for
  /// atomic's variant (stored under "variant").
  std::vector<std::pair<std::string, std::string>> Clauses;
};

/// A `#pragma dd delegate` loop as the delegate pass recognizes it
/// (passes/delegate/CriticalSection.h), or why it cannot be delegated.
struct CriticalSectionEntry {
  Position Pos;         // the loop
  std::string Function; // the enclosing kernel or device function
  bool Recognized = false;
  std::string Shape;                  // single, nested (recognized only)
  std::vector<std::string> Locks;     // "locks[b]", in acquisition order
  std::vector<std::string> Message;   // client values each message carries
  std::vector<std::string> Arguments; // kernel parameters the server needs
  std::vector<std::string> Replies;   // locals the server sends back
  unsigned Statements = 0;            // statements of the critical section
  std::string Reason;                 // refused only
  Position ReasonPos;
};

/// A loop `#pragma dd decouple` annotates, as the split pass plans it
/// (passes/split/SplitPlan.h, docs/split-pass.md).
struct DecoupleEntry {
  Position Pos;         // the loop
  std::string Function; // the enclosing kernel
  std::string Status;   // accepted, declined, refused
  std::string Reason;   // declined, refused
  Position ReasonPos;
  struct Load {
    std::string Text;
    Position Pos;
    std::string Note; // streams: "one copy per stage", "halo"; consumers: why
  };
  std::vector<Load> Streams;
  std::vector<Load> Consumers;
  /// Set once the stages were shaped (rule 3).
  bool Shaped = false;
  unsigned BlockThreads = 0;
  bool BlockKnown = false;
  unsigned U = 0, Depth = 0;
  uint64_t StageBytes = 0, SharedBytes = 0;
  /// Set once the cost model ran (rule 4).
  bool Costed = false;
  unsigned MLP = 0;
  uint64_t InFlightBytes = 0;
  double Gain = 0;
  bool PreferHoist = false;
  std::optional<uint64_t> TripCount;
  uint64_t MinTripCount = 0;
};

/// The source lines of one function the report covers (a kernel, or a
/// device function holding some of its entries), for the HTML report. A
/// kernel's lines start at the annotations before it.
struct SourceExcerpt {
  std::string Function;
  /// As Classified::File: empty in the main file.
  std::string File;
  /// The presumed line number of Lines.front().
  unsigned FirstLine = 0;
  std::vector<std::string> Lines;
};

struct FileReport {
  std::string File;
  std::vector<KernelReport> Kernels;
  std::vector<AnnotationEntry> Annotations;
  std::vector<CriticalSectionEntry> CriticalSections;
  std::vector<DecoupleEntry> Decouple;
  /// Filled only for the HTML report (RunOptions::KeepSources); neither text
  /// nor JSON prints it.
  std::vector<SourceExcerpt> Sources;
};

/// The x stride of an access in bytes as the JSON reports it: 0 for scalar,
/// none when not affine, unknown, or a divergent tuple.
std::optional<int64_t> strideBytesX(const Classified &C);

/// Human-readable report.
void printText(const FileReport &Report, llvm::raw_ostream &OS);
/// The JSON of docs/analysis.md: an array of per-file objects when \p Array
/// (the tool asks for it whenever it was given several files, however many
/// of them compiled), else the object of the single report.
void printJSON(llvm::ArrayRef<FileReport> Reports, llvm::raw_ostream &OS,
               bool Array);

} // namespace decoupler

#endif // DECOUPLER_AFFINE_REPORT_H
