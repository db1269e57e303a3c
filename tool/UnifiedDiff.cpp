//===- UnifiedDiff.cpp - Unified diffs of two texts -----------------------===//
//
// The edit script comes from Myers' O(ND) algorithm in its linear-space form
// (divide and conquer on the middle snake), after stripping the common prefix
// and suffix, so that large files with small rewrites cost little.
//
//===----------------------------------------------------------------------===//
#include "UnifiedDiff.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

using namespace llvm;

namespace decoupler::tool {
namespace {

/// Lines with their terminating newline, so that a last line without one
/// differs from the same line with one.
std::vector<StringRef> splitLines(StringRef Text) {
  std::vector<StringRef> Lines;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    End = End == StringRef::npos ? Text.size() : End + 1;
    Lines.push_back(Text.take_front(End));
    Text = Text.drop_front(End);
  }
  return Lines;
}

enum class EditKind { Equal, Delete, Insert };

struct Edit {
  EditKind Kind;
  size_t Old; // line index in the old text (Equal, Delete)
  size_t New; // line index in the new text (Equal, Insert)
};

class LineDiff {
public:
  LineDiff(ArrayRef<StringRef> A, ArrayRef<StringRef> B) : A(A), B(B) {}

  std::vector<Edit> run() {
    diff(0, A.size(), 0, B.size());
    return std::move(Edits);
  }

private:
  void diff(size_t A0, size_t A1, size_t B0, size_t B1);
  std::optional<std::pair<size_t, size_t>> middleSnake(size_t A0, size_t A1,
                                                       size_t B0, size_t B1);
  void equal(size_t I, size_t J) { Edits.push_back({EditKind::Equal, I, J}); }

  ArrayRef<StringRef> A, B;
  std::vector<Edit> Edits;
};

void LineDiff::diff(size_t A0, size_t A1, size_t B0, size_t B1) {
  for (; A0 < A1 && B0 < B1 && A[A0] == B[B0]; ++A0, ++B0)
    equal(A0, B0);
  size_t Suffix = 0;
  while (A1 - Suffix > A0 && B1 - Suffix > B0 &&
         A[A1 - 1 - Suffix] == B[B1 - 1 - Suffix])
    ++Suffix;
  A1 -= Suffix;
  B1 -= Suffix;

  std::optional<std::pair<size_t, size_t>> Split;
  if (A0 < A1 && B0 < B1)
    Split = middleSnake(A0, A1, B0, B1);
  if (Split && Split != std::make_pair(A0, B0) &&
      Split != std::make_pair(A1, B1)) {
    diff(A0, Split->first, B0, Split->second);
    diff(Split->first, A1, Split->second, B1);
  } else {
    // One side is empty, or nothing in common is left.
    for (size_t I = A0; I < A1; ++I)
      Edits.push_back({EditKind::Delete, I, B0});
    for (size_t J = B0; J < B1; ++J)
      Edits.push_back({EditKind::Insert, A1, J});
  }
  for (size_t K = 0; K < Suffix; ++K)
    equal(A1 + K, B1 + K);
}

/// The point where a forward and a backward search for the shortest edit
/// script meet (Myers 1986, section 4b); a split point of an optimal script.
std::optional<std::pair<size_t, size_t>>
LineDiff::middleSnake(size_t A0, size_t A1, size_t B0, size_t B1) {
  using Index = std::ptrdiff_t;
  const Index N = A1 - A0, M = B1 - B0;
  const Index MaxD = (N + M + 1) / 2;
  const Index Offset = MaxD;
  const Index Length = 2 * MaxD + 2;
  std::vector<Index> Forward(Length, -1), Backward(Length, -1);
  Forward[Offset + 1] = 0;
  Backward[Offset + 1] = 0;
  const Index Delta = N - M;
  // Paths meet on the forward pass when Delta is odd, else on the backward.
  const bool MeetForward = Delta % 2 != 0;
  Index K1Start = 0, K1End = 0, K2Start = 0, K2End = 0;

  for (Index D = 0; D < MaxD; ++D) {
    for (Index K1 = -D + K1Start; K1 <= D - K1End; K1 += 2) {
      Index K1Off = Offset + K1;
      Index X1 =
          (K1 == -D || (K1 != D && Forward[K1Off - 1] < Forward[K1Off + 1]))
              ? Forward[K1Off + 1]
              : Forward[K1Off - 1] + 1;
      Index Y1 = X1 - K1;
      while (X1 < N && Y1 < M && A[A0 + X1] == B[B0 + Y1]) {
        ++X1;
        ++Y1;
      }
      Forward[K1Off] = X1;
      if (X1 > N) {
        K1End += 2; // Ran off the right edge.
      } else if (Y1 > M) {
        K1Start += 2; // Ran off the bottom edge.
      } else if (MeetForward) {
        Index K2Off = Offset + Delta - K1;
        if (K2Off >= 0 && K2Off < Length && Backward[K2Off] != -1 &&
            X1 >= N - Backward[K2Off])
          return std::make_pair(A0 + X1, B0 + Y1);
      }
    }
    for (Index K2 = -D + K2Start; K2 <= D - K2End; K2 += 2) {
      Index K2Off = Offset + K2;
      Index X2 =
          (K2 == -D || (K2 != D && Backward[K2Off - 1] < Backward[K2Off + 1]))
              ? Backward[K2Off + 1]
              : Backward[K2Off - 1] + 1;
      Index Y2 = X2 - K2;
      while (X2 < N && Y2 < M && A[A1 - 1 - X2] == B[B1 - 1 - Y2]) {
        ++X2;
        ++Y2;
      }
      Backward[K2Off] = X2;
      if (X2 > N) {
        K2End += 2;
      } else if (Y2 > M) {
        K2Start += 2;
      } else if (!MeetForward) {
        Index K1Off = Offset + Delta - K2;
        if (K1Off >= 0 && K1Off < Length && Forward[K1Off] != -1) {
          Index X1 = Forward[K1Off];
          Index Y1 = X1 - (K1Off - Offset);
          if (X1 >= N - X2)
            return std::make_pair(A0 + X1, B0 + Y1);
        }
      }
    }
  }
  return std::nullopt;
}

void printLine(raw_ostream &OS, char Tag, StringRef Line) {
  OS << Tag << Line;
  if (!Line.ends_with("\n"))
    OS << "\n\\ No newline at end of file\n";
}

/// `-l,s` of a hunk header; diff writes `-l` for one line and numbers an
/// empty range by the line before it.
std::string range(size_t Before, size_t Count) {
  if (Count == 1)
    return std::to_string(Before + 1);
  return std::to_string(Count == 0 ? Before : Before + 1) + "," +
         std::to_string(Count);
}

} // namespace

std::string unifiedDiff(StringRef Old, StringRef New, StringRef Label,
                        unsigned Context) {
  if (Old == New)
    return "";
  std::vector<StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<Edit> Edits = LineDiff(A, B).run();

  // Lines of each text before edit I, for hunk headers.
  std::vector<size_t> OldBefore(Edits.size() + 1, 0),
      NewBefore(Edits.size() + 1, 0);
  for (size_t I = 0; I < Edits.size(); ++I) {
    OldBefore[I + 1] = OldBefore[I] + (Edits[I].Kind != EditKind::Insert);
    NewBefore[I + 1] = NewBefore[I] + (Edits[I].Kind != EditKind::Delete);
  }
  auto IsChange = [&](size_t I) { return Edits[I].Kind != EditKind::Equal; };

  std::string Result;
  raw_string_ostream OS(Result);
  OS << "--- a/" << Label << "\n+++ b/" << Label << "\n";
  size_t I = 0;
  const size_t E = Edits.size();
  while (true) {
    while (I < E && !IsChange(I))
      ++I;
    if (I == E)
      break;
    size_t Start = I >= Context ? I - Context : 0;
    // Extend the hunk while the next change is close enough to share context.
    size_t End = I;
    while (true) {
      while (End < E && IsChange(End))
        ++End;
      size_t NextChange = End;
      while (NextChange < E && !IsChange(NextChange))
        ++NextChange;
      if (NextChange == E || NextChange - End > 2 * Context) {
        End = std::min(E, End + Context);
        break;
      }
      End = NextChange;
    }

    OS << "@@ -" << range(OldBefore[Start], OldBefore[End] - OldBefore[Start])
       << " +" << range(NewBefore[Start], NewBefore[End] - NewBefore[Start])
       << " @@\n";
    for (size_t J = Start; J < End;) {
      if (!IsChange(J)) {
        printLine(OS, ' ', A[Edits[J].Old]);
        ++J;
        continue;
      }
      // A block of changes: its deletions, then its insertions.
      size_t BlockEnd = J;
      while (BlockEnd < End && IsChange(BlockEnd))
        ++BlockEnd;
      for (size_t K = J; K < BlockEnd; ++K)
        if (Edits[K].Kind == EditKind::Delete)
          printLine(OS, '-', A[Edits[K].Old]);
      for (size_t K = J; K < BlockEnd; ++K)
        if (Edits[K].Kind == EditKind::Insert)
          printLine(OS, '+', B[Edits[K].New]);
      J = BlockEnd;
    }
    I = End;
  }
  return Result;
}

std::vector<long> matchLines(StringRef Old, StringRef New) {
  std::vector<StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<long> Match(B.size(), -1);
  if (Old == New) {
    for (size_t J = 0; J < B.size(); ++J)
      Match[J] = long(J);
    return Match;
  }
  std::vector<Edit> Edits = LineDiff(A, B).run();
  for (size_t I = 0; I < Edits.size();) {
    if (Edits[I].Kind == EditKind::Equal) {
      Match[Edits[I].New] = long(Edits[I].Old);
      ++I;
      continue;
    }
    size_t End = I;
    std::vector<size_t> Deleted, Inserted;
    for (; End < Edits.size() && Edits[End].Kind != EditKind::Equal; ++End)
      (Edits[End].Kind == EditKind::Delete ? Deleted : Inserted)
          .push_back(Edits[End].Kind == EditKind::Delete ? Edits[End].Old
                                                         : Edits[End].New);
    if (Deleted.size() == Inserted.size()) {
      for (size_t K = 0; K < Deleted.size(); ++K)
        Match[Inserted[K]] = long(Deleted[K]);
    } else {
      // New lines around old ones (a body moved into a loop, one level
      // deeper): an old line that comes back indented further, in order.
      size_t From = 0;
      for (size_t Ins : Inserted) {
        StringRef New = B[Ins];
        if (New.trim().empty())
          continue;
        for (size_t K = From; K < Deleted.size(); ++K)
          if (StringRef Old = A[Deleted[K]];
              New.size() > Old.size() && New.ends_with(Old) &&
              New.drop_back(Old.size()).find_first_not_of(" \t") ==
                  StringRef::npos) {
            Match[Ins] = long(Deleted[K]);
            From = K + 1;
            break;
          }
      }
    }
    I = End;
  }
  return Match;
}

std::string diffLabel(StringRef Path) {
  SmallString<256> Label(Path);
  sys::path::remove_dots(Label, /*remove_dot_dot=*/true);
  SmallString<256> Cwd;
  if (sys::path::is_absolute(Label) && !sys::fs::current_path(Cwd) &&
      Label.str().starts_with(Cwd) && Label.size() > Cwd.size() &&
      sys::path::is_separator(Label[Cwd.size()]))
    return Label.substr(Cwd.size() + 1).str();
  return StringRef(Label).ltrim('/').str();
}

} // namespace decoupler::tool
