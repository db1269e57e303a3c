//===- report/HtmlReport.cpp - The analysis as one HTML page --------------===//

#include "report/HtmlReport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>
#include <set>

using namespace llvm;

namespace decoupler {

std::string escapeHTML(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    case '\n':
      // Keeps a title's lines apart and each source line on one line.
      Out += "&#10;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string coalescingText(const AccessEntry &A) {
  if (A.Class == ValueClass::NonAffine)
    return "data-dependent address: coalescing unknown at compile time";
  if (A.Space == AddressSpace::Local)
    return "local memory: private to each thread";
  if (A.Class == ValueClass::Scalar)
    return A.Space == AddressSpace::Shared
               ? "one address for the warp: a broadcast, no bank conflict"
               : "one address for the warp: one transaction serves all 32 "
                 "threads";
  if (!A.DivergentConditions.empty())
    return "a different affine address on each side of a divergent condition";
  std::optional<int64_t> X = strideBytesX(A);
  if (!X)
    return "x stride unknown at compile time";
  const uint64_t S = static_cast<uint64_t>(std::llabs(*X));
  const uint64_t E = A.Bytes;
  if (S == 0)
    return "the same address for threads next to each other in x";
  if (A.Space == AddressSpace::Shared) {
    // 32 banks of 4-byte words: lanes s/4 words apart share a bank every
    // 32/gcd(s/4, 32) lanes.
    if (E != 4 || S % 4 != 0)
      return "shared memory, " + std::to_string(S) +
             " B between neighbouring threads";
    uint64_t Ways = std::gcd<uint64_t>(S / 4, 32);
    return Ways == 1 ? "shared memory: no bank conflicts"
                     : "shared memory: " + std::to_string(Ways) +
                           "-way bank conflicts";
  }
  if (E == 0)
    return std::to_string(S) + " B between neighbouring threads";
  if (S < E)
    return "neighbouring threads overlap (stride below the " +
           std::to_string(E) + "-byte value)";
  // The 32-byte sectors a warp of 32 threads touches (aligned start).
  uint64_t Sectors =
      S >= 32 ? 32 * divideCeil(E, 32) : divideCeil(31 * S + E, 32);
  uint64_t Used = 32 * E * 100 / (Sectors * 32);
  std::string Sectors32 = std::to_string(Sectors) + " sectors of 32 B (" +
                          std::to_string(Used) + "% of the bytes fetched used)";
  if (S == E)
    return "coalesced: a warp's 32 threads touch " + std::to_string(32 * E) +
           " contiguous bytes, " + Sectors32;
  return "strided: a warp's 32 threads touch " + Sectors32 + " for " +
         std::to_string(32 * E) + " B";
}

namespace {

using ClassCounts = std::array<unsigned, 3>;

/// Decision kinds the page counts and shows (classification remarks are the
/// colours themselves).
constexpr DecisionKind ShownKinds[] = {
    DecisionKind::Rewritten, DecisionKind::Refused, DecisionKind::Declined,
    DecisionKind::Unchanged};

bool shown(const Decision &D) { return D.Kind != DecisionKind::Classified; }

/// Whether \p D is at a line of \p E.
bool inExcerpt(const DecisionLocation &L, const SourceExcerpt &E) {
  bool SameFile = L.InMainFile ? E.File.empty() : E.File == L.File;
  return SameFile && L.Pos.Line >= E.FirstLine &&
         L.Pos.Line < E.FirstLine + E.Lines.size();
}

bool inExcerpt(StringRef File, const Position &P, const SourceExcerpt &E) {
  return File == E.File && P.Line >= E.FirstLine &&
         P.Line < E.FirstLine + E.Lines.size();
}

std::string stridesText(const Strides &S) {
  std::string Out;
  const char *Dims[] = {"x", "y", "z"};
  for (unsigned D = 0; D < 3; ++D)
    Out += std::string(D ? " " : "") + Dims[D] + ":" +
           (S[D] ? std::to_string(*S[D]) : std::string("?"));
  return Out + " B";
}

std::string conditionsText(const std::vector<Position> &Conds) {
  std::string Out;
  for (const Position &P : Conds)
    Out += " " + std::to_string(P.Line) + ":" + std::to_string(P.Column);
  return Out;
}

std::string accessTip(const AccessEntry &A) {
  std::string Tip = toString(A.Kind).str() + " \u00b7 " +
                    toString(A.Space).str() + " memory \u00b7 " +
                    toString(A.Class).str();
  if (A.Bytes)
    Tip += " \u00b7 " + std::to_string(A.Bytes) + "-byte value";
  if (!A.Function.empty())
    Tip += "\nin " + A.Function;
  if (A.Class == ValueClass::Affine) {
    if (!A.DivergentConditions.empty())
      Tip += "\ndivergent tuple on" + conditionsText(A.DivergentConditions);
    else if (A.StrideValues)
      Tip += "\nstride per thread: " + stridesText(*A.StrideValues);
  }
  std::string Coalescing = coalescingText(A);
  if (!Coalescing.empty())
    Tip += "\n" + Coalescing;
  return Tip;
}

std::string branchTip(const BranchEntry &B) {
  std::string Tip = "branch condition \u00b7 " + toString(B.Class).str();
  if (!B.Function.empty())
    Tip += "\nin " + B.Function;
  switch (B.Class) {
  case ValueClass::Scalar:
    Tip += "\nthe same for every thread: the warp does not diverge";
    break;
  case ValueClass::Affine:
    Tip += "\ndepends on the thread index: the threads of a warp may go "
           "different ways";
    if (!B.DivergentConditions.empty())
      Tip += "\ndivergent tuple on" + conditionsText(B.DivergentConditions);
    break;
  case ValueClass::NonAffine:
    Tip += "\ndata-dependent: the threads of a warp may go different ways";
    break;
  }
  return Tip;
}

/// A highlighted stretch of one source line: bytes [Begin, End).
struct Span {
  size_t Begin;
  size_t End;
  bool Branch;
  std::string Class;
  std::string Tip;
};

/// The spans of \p P..\p End on line \p Line (1-based columns; an entry
/// that goes on past its first line is highlighted to the end of it).
std::optional<Span> spanOn(StringRef Line, const Position &P,
                           const Position &End, bool Branch, ValueClass C,
                           std::string Tip) {
  if (P.Column == 0 || P.Column > Line.size())
    return std::nullopt;
  size_t B = P.Column - 1;
  size_t E = End.Line == P.Line && End.Column > P.Column
                 ? std::min<size_t>(End.Column - 1, Line.size())
                 : Line.size();
  if (E <= B)
    return std::nullopt;
  return Span{B, E, Branch, toString(C).str(), std::move(Tip)};
}

/// \p Line with its spans nested (outer first; a span that would cross its
/// parent's end stops there).
std::string renderLine(StringRef Line, std::vector<Span> Spans) {
  llvm::sort(Spans, [](const Span &A, const Span &B) {
    // Longer first at one start; a branch condition around the access that
    // is all of it.
    return std::make_tuple(A.Begin, -static_cast<int64_t>(A.End), !A.Branch) <
           std::make_tuple(B.Begin, -static_cast<int64_t>(B.End), !B.Branch);
  });
  std::string Out;
  std::vector<size_t> Open; // end of each open span
  size_t Pos = 0;
  auto CloseUpTo = [&](size_t Limit) {
    while (!Open.empty() && Open.back() <= Limit) {
      Out += escapeHTML(Line.slice(Pos, Open.back()));
      Pos = Open.back();
      Out += "</span>";
      Open.pop_back();
    }
  };
  for (const Span &S : Spans) {
    CloseUpTo(S.Begin);
    size_t End = Open.empty() ? S.End : std::min(S.End, Open.back());
    if (End <= S.Begin)
      continue;
    Out += escapeHTML(Line.slice(Pos, S.Begin));
    Pos = S.Begin;
    Out += "<span class=\"" + std::string(S.Branch ? "br" : "ac") + " c-" +
           S.Class + "\" title=\"" + escapeHTML(S.Tip) + "\">";
    Open.push_back(End);
  }
  CloseUpTo(Line.size());
  Out += escapeHTML(Line.substr(Pos));
  return Out;
}

std::string locationText(const DecisionLocation &L) {
  return L.File + ":" + std::to_string(L.Pos.Line) + ":" +
         std::to_string(L.Pos.Column);
}

void printDecision(raw_ostream &OS, const Decision &D) {
  std::string Kind = toString(D.Kind).str();
  OS << "<div class=\"dec k-" << Kind << "\"><span class=\"badge\">" << Kind
     << "</span> <span class=\"pass\">" << escapeHTML(D.Pass)
     << "</span> <span class=\"at\">" << D.Loc.Pos.Line << ":"
     << D.Loc.Pos.Column << "</span> <span class=\"msg\">"
     << escapeHTML(D.Message) << "</span>";
  for (const DecisionNote &N : D.Notes)
    OS << "<div class=\"note\">note: <span class=\"at\">"
       << escapeHTML(locationText(N.Loc)) << "</span> " << escapeHTML(N.Message)
       << "</div>";
  OS << "</div>";
}

/// The source of \p E with \p K's entries in it coloured and the decisions
/// at its lines below them.
void printExcerpt(raw_ostream &OS, const SourceExcerpt &E,
                  const KernelReport &K, ArrayRef<Decision> Decisions) {
  std::vector<std::vector<Span>> Spans(E.Lines.size());
  auto LineOf = [&](const Position &P) { return P.Line - E.FirstLine; };
  for (const AccessEntry &A : K.Accesses)
    if (inExcerpt(A.File, A.Pos, E))
      if (std::optional<Span> S =
              spanOn(E.Lines[LineOf(A.Pos)], A.Pos, A.End,
                     /*Branch=*/false, A.Class, accessTip(A)))
        Spans[LineOf(A.Pos)].push_back(std::move(*S));
  for (const BranchEntry &B : K.Branches)
    if (inExcerpt(B.File, B.Pos, E))
      if (std::optional<Span> S =
              spanOn(E.Lines[LineOf(B.Pos)], B.Pos, B.End,
                     /*Branch=*/true, B.Class, branchTip(B)))
        Spans[LineOf(B.Pos)].push_back(std::move(*S));
  std::vector<std::vector<const Decision *>> At(E.Lines.size());
  for (const Decision &D : Decisions)
    if (shown(D) && inExcerpt(D.Loc, E))
      At[LineOf(D.Loc.Pos)].push_back(&D);

  OS << "<table class=\"src\">\n";
  for (size_t I = 0; I < E.Lines.size(); ++I) {
    unsigned Line = E.FirstLine + I;
    OS << "<tr class=\"ln" << (At[I].empty() ? "" : " has-dec")
       << "\"><td class=\"no\">" << Line << "</td><td class=\"code\">"
       << renderLine(E.Lines[I], Spans[I]) << "</td></tr>\n";
    for (const Decision *D : At[I]) {
      OS << "<tr class=\"decrow\"><td class=\"no\"></td><td>";
      printDecision(OS, *D);
      OS << "</td></tr>\n";
    }
  }
  OS << "</table>\n";
}

struct Summary {
  unsigned Kernels = 0;
  ClassCounts Accesses{};
  ClassCounts Branches{};
  std::array<unsigned, 4> Decisions{};
};

Summary summarize(const HtmlFile &F) {
  Summary S;
  S.Kernels = F.Report->Kernels.size();
  for (const KernelReport &K : F.Report->Kernels) {
    for (const AccessEntry &A : K.Accesses)
      ++S.Accesses[static_cast<unsigned>(A.Class)];
    for (const BranchEntry &B : K.Branches)
      ++S.Branches[static_cast<unsigned>(B.Class)];
  }
  for (const Decision &D : F.Decisions)
    for (unsigned I = 0; I < std::size(ShownKinds); ++I)
      if (D.Kind == ShownKinds[I])
        ++S.Decisions[I];
  return S;
}

void printSummaryHead(raw_ostream &OS) {
  OS << "<thead><tr><th rowspan=\"2\">file</th><th rowspan=\"2\">kernels</th>"
        "<th colspan=\"3\">accesses</th><th colspan=\"3\">branches</th>"
        "<th colspan=\"4\">decisions</th></tr>\n<tr>";
  for (int Twice = 0; Twice < 2; ++Twice)
    OS << "<th class=\"c-scalar\">scalar</th><th class=\"c-affine\">affine</th>"
          "<th class=\"c-nonaffine\">nonaffine</th>";
  for (DecisionKind K : ShownKinds)
    OS << "<th class=\"k-" << toString(K) << "\">" << toString(K) << "</th>";
  OS << "</tr></thead>\n";
}

void printSummaryRow(raw_ostream &OS, StringRef Label, const Summary &S) {
  OS << "<tr><td class=\"name\">" << Label << "</td><td data-n=\"kernels\">"
     << S.Kernels << "</td>";
  const char *Classes[] = {"scalar", "affine", "nonaffine"};
  for (unsigned C = 0; C < 3; ++C)
    OS << "<td data-n=\"accesses-" << Classes[C] << "\">" << S.Accesses[C]
       << "</td>";
  for (unsigned C = 0; C < 3; ++C)
    OS << "<td data-n=\"branches-" << Classes[C] << "\">" << S.Branches[C]
       << "</td>";
  for (unsigned I = 0; I < std::size(ShownKinds); ++I)
    OS << "<td data-n=\"" << toString(ShownKinds[I]) << "\">" << S.Decisions[I]
       << "</td>";
  OS << "</tr>\n";
}

const char Style[] = R"(
:root { --scalar: #2e8b3e; --affine: #2f6fd6; --nonaffine: #d2452f;
  --scalar-bg: #e3f5e5; --affine-bg: #e2ecfd; --nonaffine-bg: #fde5e0; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330;
  margin: 0; background: #f6f7f9; }
header { background: #1d2330; color: #fff; padding: 14px 24px; }
header h1 { margin: 0; font-size: 20px; }
header p { margin: 4px 0 0; color: #c8cdd8; }
main { padding: 8px 24px 40px; }
section.file { background: #fff; border: 1px solid #dde1e8; border-radius: 6px;
  margin: 18px 0; padding: 4px 18px 14px; }
h2 { font-size: 17px; margin: 12px 0 8px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
h4 { font-size: 13px; margin: 12px 0 4px; color: #4a5264; }
code, .code, .at { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
.where { color: #6b7385; font-weight: normal; font-size: 12px; margin-left: 6px; }
table.sum { border-collapse: collapse; margin: 4px 0 8px; font-size: 13px; }
table.sum th, table.sum td { border: 1px solid #dde1e8; padding: 3px 9px; text-align: right; }
table.sum th { background: #f0f2f5; font-weight: 600; text-align: center; }
table.sum td.name { text-align: left; }
th.c-scalar { color: var(--scalar); } th.c-affine { color: var(--affine); }
th.c-nonaffine { color: var(--nonaffine); }
.legend { margin: 6px 0 0; font-size: 13px; color: #c8cdd8; }
.legend span.ac, .legend span.br { padding: 0 4px; color: #1d2330; }
.kernels { margin: 4px 0; font-size: 13px; }
.kernels a { margin-right: 10px; }
table.src { border-collapse: collapse; width: 100%; background: #fbfcfd;
  border: 1px solid #e3e6ec; font-size: 13px; }
table.src td { padding: 0 8px; vertical-align: top; }
table.src td.no { width: 1%; text-align: right; color: #9aa1b0; user-select: none;
  border-right: 1px solid #e3e6ec; font-family: ui-monospace, monospace; }
td.code { white-space: pre-wrap; overflow-wrap: anywhere; tab-size: 8; }
tr.has-dec td.no { color: #1d2330; font-weight: 600; }
span.ac { border-radius: 3px; border-bottom: 2px solid; cursor: help; }
span.br { border-radius: 3px; border: 1px dashed; cursor: help; }
span.ac.c-scalar { background: var(--scalar-bg); border-color: var(--scalar); }
span.ac.c-affine { background: var(--affine-bg); border-color: var(--affine); }
span.ac.c-nonaffine { background: var(--nonaffine-bg); border-color: var(--nonaffine); }
span.br.c-scalar { border-color: var(--scalar); }
span.br.c-affine { border-color: var(--affine); }
span.br.c-nonaffine { border-color: var(--nonaffine); }
.legend span.br { background: #fff; }
tr.decrow td { padding-top: 2px; padding-bottom: 3px; }
.dec { font-size: 12.5px; border-left: 4px solid; padding: 2px 8px; margin: 1px 0;
  white-space: normal; border-radius: 2px; }
.dec .badge { font-weight: 700; text-transform: uppercase; font-size: 11px;
  letter-spacing: .03em; }
.dec .pass { color: #4a5264; font-weight: 600; }
.dec .at { color: #6b7385; font-size: 11.5px; }
.dec .note { color: #4a5264; margin-left: 18px; }
.k-rewritten { border-color: #2e8b3e; background: #eaf7ec; } .k-rewritten .badge { color: #23702f; }
.k-refused { border-color: #c62828; background: #fdeaea; } .k-refused .badge { color: #b71c1c; }
.k-declined { border-color: #d48a00; background: #fff5e0; } .k-declined .badge { color: #a86a00; }
.k-unchanged { border-color: #8a93a5; background: #f1f3f6; } .k-unchanged .badge { color: #5a6275; }
th.k-rewritten, th.k-refused, th.k-declined, th.k-unchanged { border-left-width: 1px; }
table.other { border-collapse: collapse; font-size: 13px; width: 100%; }
table.other td, table.other th { border-top: 1px solid #e3e6ec; padding: 3px 8px;
  text-align: left; vertical-align: top; }
p.none { color: #6b7385; }
#tip { position: fixed; display: none; z-index: 10; max-width: 520px; white-space: pre-line;
  background: #1d2330; color: #fff; font-size: 12.5px; padding: 6px 9px; border-radius: 5px;
  box-shadow: 0 3px 10px rgba(0,0,0,.25); pointer-events: none; }
)";

// Moves each title into a tooltip of the page's own (the innermost span's
// alone, at once); without scripts the browser shows the titles.
const char Script[] = R"(
(function () {
  var tip = document.createElement('div');
  tip.id = 'tip';
  document.body.appendChild(tip);
  document.querySelectorAll('span[title]').forEach(function (e) {
    e.setAttribute('data-tip', e.getAttribute('title'));
    e.removeAttribute('title');
  });
  document.addEventListener('mouseover', function (ev) {
    var t = ev.target.closest ? ev.target.closest('[data-tip]') : null;
    if (!t) { tip.style.display = 'none'; return; }
    tip.textContent = t.getAttribute('data-tip');
    tip.style.display = 'block';
  });
  document.addEventListener('mousemove', function (ev) {
    tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - 540) + 'px';
    tip.style.top = (ev.clientY + 16) + 'px';
  });
})();
)";

void printFile(raw_ostream &OS, const HtmlFile &F, unsigned Index) {
  const FileReport &R = *F.Report;
  std::string Id = "f" + std::to_string(Index);
  OS << "<section class=\"file\" id=\"" << Id << "\">\n<h2>"
     << escapeHTML(R.File) << "</h2>\n<table class=\"sum\">\n";
  printSummaryHead(OS);
  printSummaryRow(OS, escapeHTML(R.File), summarize(F));
  OS << "</table>\n";
  if (R.Kernels.empty())
    OS << "<p class=\"none\">no kernels</p>\n";
  else {
    OS << "<div class=\"kernels\">kernels: ";
    for (size_t K = 0; K < R.Kernels.size(); ++K)
      OS << "<a href=\"#" << Id << "-k" << K << "\"><code>"
         << escapeHTML(R.Kernels[K].Name) << "</code></a>";
    OS << "</div>\n";
  }

  std::vector<bool> Placed(F.Decisions.size());
  auto MarkPlaced = [&](const SourceExcerpt &E) {
    for (size_t I = 0; I < F.Decisions.size(); ++I)
      if (inExcerpt(F.Decisions[I].Loc, E))
        Placed[I] = true;
  };
  for (size_t KI = 0; KI < R.Kernels.size(); ++KI) {
    const KernelReport &K = R.Kernels[KI];
    StringRef KFile = K.File.empty() ? StringRef(R.File) : StringRef(K.File);
    OS << "<div class=\"kernel\" id=\"" << Id << "-k" << KI
       << "\">\n<h3>kernel <code>" << escapeHTML(K.Name)
       << "</code><span class=\"where\">" << escapeHTML(KFile) << ":"
       << K.Pos.Line << "</span></h3>\n";
    const SourceExcerpt *Own = nullptr;
    for (const SourceExcerpt &E : R.Sources)
      if (inExcerpt(K.File, K.Pos, E)) {
        Own = &E;
        break;
      }
    if (Own) {
      printExcerpt(OS, *Own, K, F.Decisions);
      MarkPlaced(*Own);
    } else {
      OS << "<p class=\"none\">no source text for this kernel</p>\n";
    }
    // The device functions holding some of the kernel's entries.
    std::set<const SourceExcerpt *> Callees;
    std::vector<std::pair<std::string, Position>> Elsewhere;
    auto Find = [&](StringRef File,
                    const Position &P) -> const SourceExcerpt * {
      for (const SourceExcerpt &E : R.Sources)
        if (inExcerpt(File, P, E))
          return &E;
      return nullptr;
    };
    std::vector<const SourceExcerpt *> Order;
    auto Note = [&](StringRef File, const Position &P) {
      const SourceExcerpt *E = Find(File, P);
      if (E && E != Own && Callees.insert(E).second)
        Order.push_back(E);
      return E != nullptr;
    };
    std::vector<std::string> Unshown;
    for (const AccessEntry &A : K.Accesses)
      if (!Note(A.File, A.Pos))
        Unshown.push_back((A.File.empty() ? R.File : A.File) + ":" +
                          std::to_string(A.Pos.Line) + ":" +
                          std::to_string(A.Pos.Column) + " " +
                          toString(A.Kind).str() + " " +
                          toString(A.Class).str() + " " + A.Text);
    for (const BranchEntry &B : K.Branches)
      if (!Note(B.File, B.Pos))
        Unshown.push_back((B.File.empty() ? R.File : B.File) + ":" +
                          std::to_string(B.Pos.Line) + ":" +
                          std::to_string(B.Pos.Column) + " branch " +
                          toString(B.Class).str() + " " + B.Text);
    for (const SourceExcerpt *E : Order) {
      OS << "<h4>device function <code>" << escapeHTML(E->Function)
         << "</code>, as <code>" << escapeHTML(K.Name)
         << "</code> calls it<span class=\"where\">"
         << escapeHTML(E->File.empty() ? R.File : E->File) << ":"
         << E->FirstLine << "</span></h4>\n";
      printExcerpt(OS, *E, K, F.Decisions);
      MarkPlaced(*E);
    }
    if (!Unshown.empty()) {
      OS << "<h4>entries without source here</h4>\n<ul>\n";
      for (const std::string &U : Unshown)
        OS << "<li><code>" << escapeHTML(U) << "</code></li>\n";
      OS << "</ul>\n";
    }
    OS << "</div>\n";
  }

  bool AnyOther = false;
  for (size_t I = 0; I < F.Decisions.size(); ++I) {
    const Decision &D = F.Decisions[I];
    if (!shown(D) || Placed[I])
      continue;
    if (!AnyOther)
      OS << "<h3>other decisions</h3>\n<table "
            "class=\"other\"><thead><tr><th>where</th>"
            "<th>function</th><th>decision</th></tr></thead>\n";
    AnyOther = true;
    OS << "<tr><td class=\"at\">" << escapeHTML(locationText(D.Loc))
       << "</td><td><code>" << escapeHTML(D.Function) << "</code></td><td>";
    printDecision(OS, D);
    OS << "</td></tr>\n";
  }
  if (AnyOther)
    OS << "</table>\n";
  OS << "</section>\n";
}

} // namespace

void printHTML(ArrayRef<HtmlFile> Files, raw_ostream &OS) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n"
        "<title>decoupler report</title>\n<style>"
     << Style
     << "</style>\n</head>\n<body>\n<header><h1>decoupler report</h1>\n<p>"
     << Files.size() << (Files.size() == 1 ? " file" : " files")
     << "; every access and branch condition coloured by class (hover for "
        "strides and "
        "coalescing), every pass decision under its line</p>\n<p "
        "class=\"legend\">"
        "<span class=\"ac c-scalar\">scalar</span> <span class=\"ac "
        "c-affine\">affine</span> "
        "<span class=\"ac c-nonaffine\">nonaffine</span> access &nbsp; "
        "<span class=\"br c-scalar\">scalar</span> <span class=\"br "
        "c-affine\">affine</span> "
        "<span class=\"br c-nonaffine\">nonaffine</span> branch "
        "condition</p></header>\n<main>\n";
  if (Files.size() > 1) {
    OS << "<table class=\"sum\">\n";
    printSummaryHead(OS);
    for (size_t I = 0; I < Files.size(); ++I)
      printSummaryRow(OS,
                      "<a href=\"#f" + std::to_string(I) + "\">" +
                          escapeHTML(Files[I].Report->File) + "</a>",
                      summarize(Files[I]));
    OS << "</table>\n";
  }
  for (size_t I = 0; I < Files.size(); ++I)
    printFile(OS, Files[I], I);
  OS << "</main>\n<script>" << Script << "</script>\n</body>\n</html>\n";
}

} // namespace decoupler
