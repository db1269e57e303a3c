//===- support/LineEndings.cpp - Inserted lines end as the file's do ------===//

#include "support/LineEndings.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

bool usesCRLF(StringRef Text) {
  size_t LF = 0, CRLF = 0;
  bool FirstIsCRLF = false;
  for (size_t At = Text.find('\n'); At != StringRef::npos;
       At = Text.find('\n', At + 1)) {
    bool IsCRLF = At > 0 && Text[At - 1] == '\r';
    if (LF + CRLF == 0)
      FirstIsCRLF = IsCRLF;
    ++(IsCRLF ? CRLF : LF);
  }
  return CRLF > LF || (CRLF == LF && FirstIsCRLF);
}

InsertedLineEndings::InsertedLineEndings(Rewriter &R) : R(R) {
  FileID Main = R.getSourceMgr().getMainFileID();
  Original = R.getSourceMgr().getBufferData(Main);
  if (Original.empty() || !usesCRLF(Original))
    return;
  // A fresh rewrite buffer holds the original text as one rope piece, a
  // copy that edits split but never move; inserted text is copied to other
  // memory (llvm/ADT/RewriteRope.h).
  RewriteBuffer &Buffer = R.getEditBuffer(Main);
  StringRef First = Buffer.begin().piece();
  if (First.size() == Original.size() && First == Original)
    Copy = First.data();
}

std::string InsertedLineEndings::text() const {
  FileID Main = R.getSourceMgr().getMainFileID();
  const RewriteBuffer *Buffer = R.getRewriteBufferFor(Main);
  if (!Buffer)
    return Original.str();
  if (!Copy)
    return std::string(Buffer->begin(), Buffer->end());
  std::string Out;
  Out.reserve(Buffer->size() + Buffer->size() / 16);
  for (RewriteBuffer::iterator It = Buffer->begin(), End = Buffer->end();
       It != End; It.MoveToNextPiece()) {
    StringRef Piece = It.piece();
    bool Own = Piece.data() >= Copy &&
               Piece.data() + Piece.size() <= Copy + Original.size();
    if (Own) {
      Out += Piece;
      continue;
    }
    for (char C : Piece) {
      if (C == '\n' && (Out.empty() || Out.back() != '\r'))
        Out += '\r';
      Out += C;
    }
  }
  return Out;
}

} // namespace decoupler
