//===- LineDirectives.cpp - #line in rewritten files ----------------------===//

#include "LineDirectives.h"
#include "UnifiedDiff.h"

#include "llvm/ADT/StringExtras.h"
#include <vector>

using namespace llvm;

namespace decoupler::tool {
namespace {

/// Whether a directive may stand at the start of each line of \p Text: not
/// inside a block comment, a raw string literal, or a line continued by a
/// backslash (a macro definition, a // comment, a string).
std::vector<bool> directiveAllowed(StringRef Text) {
  std::vector<bool> Allowed{true};
  enum {
    Code,
    BlockComment,
    LineComment,
    String,
    Char,
    RawString
  } State = Code;
  std::string RawEnd; // `)delim"` that closes the current raw string
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n') {
      bool Continued =
          I > 0 && (Text[I - 1] == '\\' ||
                    (Text[I - 1] == '\r' && I > 1 && Text[I - 2] == '\\'));
      if (!Continued &&
          (State == LineComment || State == String || State == Char))
        State = Code; // an unterminated literal ends at the line's end
      Allowed.push_back(State == Code && !Continued);
      continue;
    }
    switch (State) {
    case Code:
      if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '*') {
        State = BlockComment;
        ++I;
      } else if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '/') {
        State = LineComment;
        ++I;
      } else if (C == '"') {
        // R"delim( ... )delim", also with an encoding prefix (u8R, LR, ...).
        bool Raw = I > 0 && Text[I - 1] == 'R' &&
                   (I < 2 || !(isAlnum(Text[I - 2]) || Text[I - 2] == '_') ||
                    StringRef("u8LU").contains(Text[I - 2]));
        size_t Open = Raw ? Text.find('(', I + 1) : StringRef::npos;
        if (Raw && Open != StringRef::npos && Open - I - 1 <= 16) {
          RawEnd = (")" + Text.slice(I + 1, Open) + "\"").str();
          State = RawString;
          I = Open;
        } else {
          State = String;
        }
      } else if (C == '\'' &&
                 !(I > 0 && isHexDigit(Text[I - 1]) && I + 1 < Text.size() &&
                   isHexDigit(Text[I + 1]))) {
        State = Char; // not a digit separator (1'000)
      }
      break;
    case BlockComment:
      if (C == '*' && I + 1 < Text.size() && Text[I + 1] == '/') {
        State = Code;
        ++I;
      }
      break;
    case LineComment:
      break;
    case String:
    case Char:
      if (C == '\\')
        ++I;
      else if (C == (State == String ? '"' : '\''))
        State = Code;
      break;
    case RawString:
      if (Text.substr(I).starts_with(RawEnd)) {
        I += RawEnd.size() - 1;
        State = Code;
      }
      break;
    }
  }
  return Allowed;
}

std::string quoted(StringRef Path) {
  std::string Out = "\"";
  for (char C : Path) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

} // namespace

std::string addLineDirectives(StringRef Original, StringRef Rewritten,
                              StringRef OriginalName, StringRef OutputName) {
  // A byte-order mark is not part of the first line's text.
  constexpr StringLiteral BOM = "\xEF\xBB\xBF";
  std::vector<long> Match = matchLines(
      Original.starts_with(BOM) ? Original.drop_front(3) : Original,
      Rewritten.starts_with(BOM) ? Rewritten.drop_front(3) : Rewritten);
  std::vector<bool> Allowed = directiveAllowed(Rewritten);
  size_t FirstNewline = Rewritten.find('\n');
  const char *Eol = FirstNewline != StringRef::npos && FirstNewline > 0 &&
                            Rewritten[FirstNewline - 1] == '\r'
                        ? "\r\n"
                        : "\n";
  std::string Out;
  Out.reserve(Rewritten.size() + Rewritten.size() / 8);
  StringRef Rest = Rewritten;
  if (Rest.starts_with(BOM)) {
    Out += Rest.take_front(3);
    Rest = Rest.drop_front(3);
  }
  // What the compiler presumes for the next line: the output file's own
  // numbering until a directive says otherwise.
  bool PresumedOriginal = false;
  long PresumedLine = 1; // 1-based
  long OutLine = 1;      // line of the result being written, 1-based
  for (size_t J = 0; !Rest.empty(); ++J) {
    size_t End = Rest.find('\n');
    End = End == StringRef::npos ? Rest.size() : End + 1;
    StringRef Line = Rest.take_front(End);
    Rest = Rest.drop_front(End);
    bool WantOriginal = J < Match.size() && Match[J] >= 0;
    bool Care = WantOriginal || !OutputName.empty();
    long WantLine = WantOriginal ? Match[J] + 1 : OutLine + 1;
    bool InSync =
        PresumedOriginal == WantOriginal &&
        (WantOriginal ? PresumedLine == WantLine : PresumedLine == OutLine);
    if (Care && !InSync && J < Allowed.size() && Allowed[J]) {
      Out += "#line " + std::to_string(WantLine) + " " +
             quoted(WantOriginal ? OriginalName : OutputName) + Eol;
      ++OutLine;
      PresumedOriginal = WantOriginal;
      PresumedLine = WantLine;
    }
    Out += Line;
    ++OutLine;
    ++PresumedLine;
  }
  return Out;
}

} // namespace decoupler::tool
