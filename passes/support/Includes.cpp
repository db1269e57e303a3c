//===- support/Includes.cpp - Adding runtime includes ---------------------===//

#include "support/Includes.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

void ensureInclude(Rewriter &R, StringRef Header) {
  SourceManager &SM = R.getSourceMgr();
  FileID Main = SM.getMainFileID();
  StringRef Text = SM.getBufferData(Main);
  std::string Line = ("#include <" + Header + ">").str();

  // Already included by the translation unit (the preprocessor's view, so a
  // disabled #include does not count), or added by another pass?
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
    if (StringRef(It->first.getName()).ends_with(Header))
      return;
  auto Count = [&](StringRef In) {
    size_t N = 0;
    for (size_t At = In.find(Line); At != StringRef::npos;
         At = In.find(Line, At + 1))
      ++N;
    return N;
  };
  if (const RewriteBuffer *Buffer = R.getRewriteBufferFor(Main)) {
    std::string Current(Buffer->begin(), Buffer->end());
    if (Count(Current) > Count(Text))
      return;
  }

  // Before the first #include, so the runtime header comes before code that
  // uses it; the offset is that of the line's first character.
  Regex FirstInclude("^[ \t]*#[ \t]*include", Regex::Newline);
  SmallVector<StringRef, 1> Match;
  unsigned Offset = 0;
  if (FirstInclude.match(Text, &Match))
    Offset = Match[0].data() - Text.data();
  R.InsertTextBefore(SM.getLocForStartOfFile(Main).getLocWithOffset(Offset),
                     Line + "\n");
}

} // namespace decoupler
