//===- support/Includes.cpp - Adding runtime includes ---------------------===//

#include "support/Includes.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include <optional>

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

/// Records the main file's #include directives with the depth of the
/// conditional regions around them. Directives in skipped branches are
/// never reported by the preprocessor, nor text in comments.
class Recorder : public PPCallbacks {
public:
  Recorder(const SourceManager &SM, IncludeSites &Sites)
      : SM(SM), Sites(Sites) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef,
                          bool, CharSourceRange, OptionalFileEntryRef,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (inMain(HashLoc))
      Sites.Directives.push_back({SM.getFileOffset(HashLoc), Depth});
  }
  void If(SourceLocation Loc, SourceRange, ConditionValueKind) override {
    open(Loc);
  }
  void Ifdef(SourceLocation Loc, const Token &,
             const MacroDefinition &) override {
    open(Loc);
  }
  void Ifndef(SourceLocation Loc, const Token &,
              const MacroDefinition &) override {
    open(Loc);
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    if (inMain(Loc) && Depth > 0)
      --Depth;
  }
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    const MacroInfo *MI = MD ? MD->getMacroInfo() : nullptr;
    if (MI && inMain(Name.getLocation()))
      Sites.Macros.push_back({SM.getFileOffset(Name.getLocation()),
                              Name.getIdentifierInfo()->getName().str(),
                              /*Defined=*/true, MI->isFunctionLike()});
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    if (inMain(Name.getLocation()))
      Sites.Macros.push_back({SM.getFileOffset(Name.getLocation()),
                              Name.getIdentifierInfo()->getName().str(),
                              /*Defined=*/false, false});
  }

private:
  const SourceManager &SM;
  IncludeSites &Sites;
  unsigned Depth = 0;

  bool inMain(SourceLocation Loc) const {
    return Loc.isFileID() && SM.getFileID(Loc) == SM.getMainFileID();
  }
  void open(SourceLocation Loc) {
    if (inMain(Loc))
      ++Depth;
  }
};

/// The main-file range [begin, end] of a top-level declaration.
std::optional<std::pair<unsigned, unsigned>>
mainFileRange(const Decl *D, const SourceManager &SM) {
  SourceLocation B = SM.getExpansionLoc(D->getBeginLoc());
  SourceLocation E = SM.getExpansionRange(D->getEndLoc()).getEnd();
  if (B.isInvalid() || E.isInvalid() || !SM.isWrittenInMainFile(B) ||
      !SM.isWrittenInMainFile(E))
    return std::nullopt;
  return std::make_pair(SM.getFileOffset(B), SM.getFileOffset(E));
}

} // namespace

std::unique_ptr<PPCallbacks> IncludeSites::recorder(const SourceManager &SM) {
  return std::make_unique<Recorder>(SM, *this);
}

unsigned topOfFileOffset(StringRef Text) {
  size_t At = Text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  size_t LineStart = At;
  // Blank lines and comments; the result stays at the start of a line so
  // that the directive is the first thing on its line.
  while (At < Text.size()) {
    char C = Text[At];
    if (C == '\n') {
      LineStart = ++At;
    } else if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++At;
    } else if (Text.substr(At).starts_with("//")) {
      size_t End = Text.find('\n', At);
      if (End == StringRef::npos)
        return Text.size();
      // A line comment continued with a backslash goes on.
      At = End;
      if (End > 0 && Text[End - 1] == '\\')
        ++At;
      else if (End > 1 && Text[End - 1] == '\r' && Text[End - 2] == '\\')
        ++At;
    } else if (Text.substr(At).starts_with("/*")) {
      size_t End = Text.find("*/", At + 2);
      if (End == StringRef::npos)
        return LineStart;
      At = End + 2;
      // Only a comment that ends its line keeps the next line's start valid.
      size_t Rest = Text.find_first_not_of(" \t\r", At);
      if (Rest == StringRef::npos || Text[Rest] != '\n')
        return LineStart;
    } else {
      break;
    }
  }
  // `#pragma once` stays first.
  StringRef Line = Text.substr(LineStart).split('\n').first.trim();
  if (Line.consume_front("#")) {
    Line = Line.ltrim();
    if (Line.consume_front("pragma") && Line.ltrim() == "once") {
      size_t End = Text.find('\n', LineStart);
      return End == StringRef::npos ? Text.size() : End + 1;
    }
  }
  return LineStart;
}

unsigned IncludeSites::insertionOffset(ASTContext &Ctx) const {
  const SourceManager &SM = Ctx.getSourceManager();
  StringRef Text = SM.getBufferData(SM.getMainFileID());

  std::vector<std::pair<unsigned, unsigned>> TopLevel;
  unsigned FirstDecl = ~0u;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (D->isImplicit())
      continue;
    if (std::optional<std::pair<unsigned, unsigned>> R = mainFileRange(D, SM)) {
      TopLevel.push_back(*R);
      FirstDecl = std::min(FirstDecl, R->first);
    }
  }
  for (const Directive &D : Directives) {
    // Sorted by offset: past the first declaration no include qualifies (the
    // runtime must come before code that uses it).
    if (D.HashOffset > FirstDecl)
      break;
    if (D.ConditionalDepth > 0)
      continue;
    if (llvm::any_of(TopLevel, [&](const std::pair<unsigned, unsigned> &R) {
          return R.first <= D.HashOffset && D.HashOffset <= R.second;
        }))
      continue;
    // At the start of the line when only blanks precede the '#' (a comment
    // before it on the line would swallow the new line).
    size_t LineStart = Text.rfind('\n', D.HashOffset);
    LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
    if (LineStart == 0 && Text.starts_with("\xEF\xBB\xBF"))
      LineStart = 3;
    if (LineStart <= D.HashOffset &&
        Text.slice(LineStart, D.HashOffset).find_first_not_of(" \t") ==
            StringRef::npos)
      return LineStart;
    return D.HashOffset;
  }
  return topOfFileOffset(Text);
}

std::vector<std::string> IncludeSites::functionMacrosAt(unsigned Offset) const {
  // The last #define or #undef of each name before Offset decides.
  llvm::StringMap<bool> Live;
  std::vector<std::string> Order;
  for (const MacroEvent &E : Macros) {
    if (E.Offset >= Offset)
      break;
    auto [It, New] = Live.try_emplace(E.Name, false);
    if (New)
      Order.push_back(E.Name);
    It->second = E.Defined && E.FunctionLike;
  }
  std::vector<std::string> Out;
  for (const std::string &Name : Order) {
    const bool Reserved =
        Name.size() >= 2 && Name[0] == '_' &&
        (Name[1] == '_' || (Name[1] >= 'A' && Name[1] <= 'Z'));
    if (Live.lookup(Name) && !Reserved)
      Out.push_back(Name);
  }
  return Out;
}

void IncludeEditor::ensure(StringRef Header) {
  if (Added.contains(Header))
    return;
  SourceManager &SM = R.getSourceMgr();
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    StringRef Name = It->first.getName();
    if (Name.ends_with(Header) &&
        (Name.size() == Header.size() ||
         Name.drop_back(Header.size()).ends_with("/")))
      return;
  }
  Added.insert(Header);
  Headers.push_back(Header.str());
}

void IncludeEditor::finish() {
  if (Headers.empty())
    return;
  std::string Text;
  for (const std::string &Name : Sheltered)
    Text += "#pragma push_macro(\"" + Name + "\")\n#undef " + Name + "\n";
  for (const std::string &Header : Headers)
    Text += "#include <" + Header + ">\n";
  for (const std::string &Name : llvm::reverse(Sheltered))
    Text += "#pragma pop_macro(\"" + Name + "\")\n";
  SourceManager &SM = R.getSourceMgr();
  R.InsertTextBefore(
      SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Offset),
      Text);
  Headers.clear();
}

} // namespace decoupler
