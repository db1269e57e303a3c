//===- annotations/Annotations.cpp - Parsing and attaching `#pragma dd` ---===//

#include "annotations/Annotations.h"
#include "support/CudaFacts.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <map>

using namespace clang;
using namespace llvm;

namespace decoupler {

StringRef toString(Directive D) {
  switch (D) {
  case Directive::Decouple:
    return "decouple";
  case Directive::Delegate:
    return "delegate";
  case Directive::Atomic:
    return "atomic";
  case Directive::Monotonic:
    return "monotonic";
  }
  llvm_unreachable("bad directive");
}

StringRef toString(AtomicVariant V) {
  switch (V) {
  case AtomicVariant::SR:
    return "sr";
  case AtomicVariant::VR:
    return "vr";
  case AtomicVariant::SS:
    return "ss";
  case AtomicVariant::None:
    return "none";
  }
  llvm_unreachable("bad variant");
}

namespace {

/// Parses one `#pragma dd ...` line. On any error it reports it, skips to the
/// end of the pragma and records nothing.
class PragmaParser {
public:
  PragmaParser(Preprocessor &PP) : PP(PP), Diags(PP.getDiagnostics()) {}

  std::optional<Annotation> parse() {
    Token Tok;
    PP.Lex(Tok);
    if (Tok.is(tok::eod))
      return fail(Tok, "expected a decoupler directive after '#pragma dd' "
                       "(decouple, delegate, atomic or monotonic)");
    if (!Tok.is(tok::identifier))
      return fail(Tok, "expected a decoupler directive (decouple, delegate, "
                       "atomic or monotonic)");
    StringRef Name = Tok.getIdentifierInfo()->getName();
    std::optional<Directive> Kind =
        StringSwitch<std::optional<Directive>>(Name)
            .Case("decouple", Directive::Decouple)
            .Case("delegate", Directive::Delegate)
            .Case("atomic", Directive::Atomic)
            .Case("monotonic", Directive::Monotonic)
            .Default(std::nullopt);
    if (!Kind)
      return fail(Tok, "unknown decoupler directive '%0'; expected decouple, "
                       "delegate, atomic or monotonic",
                  Name);
    Annotation A;
    A.Kind = *Kind;
    A.Loc = PP.getSourceManager().getExpansionLoc(Tok.getLocation());

    if (A.Kind == Directive::Atomic && !parseAtomicVariant(A))
      return std::nullopt;
    if (!parseClauses(A))
      return std::nullopt;
    return A;
  }

private:
  Preprocessor &PP;
  DiagnosticsEngine &Diags;

  SourceLocation loc(const Token &Tok) {
    return PP.getSourceManager().getExpansionLoc(Tok.getLocation());
  }

  template <unsigned N>
  std::nullopt_t fail(const Token &Tok, const char (&Message)[N],
                      StringRef Arg = {}) {
    unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, Message);
    if (Arg.empty())
      Diags.Report(loc(Tok), ID);
    else
      Diags.Report(loc(Tok), ID) << Arg;
    skipToEnd(Tok);
    return std::nullopt;
  }

  void skipToEnd(Token Tok) {
    while (!Tok.is(tok::eod))
      PP.Lex(Tok);
  }

  std::string spelling(const Token &Tok) {
    if (Tok.is(tok::eod))
      return "end of line";
    return "'" + PP.getSpelling(Tok) + "'";
  }

  bool parseAtomicVariant(Annotation &A) {
    Token Tok;
    PP.Lex(Tok);
    if (!Tok.is(tok::l_paren)) {
      fail(Tok, "expected '(' after 'atomic': write atomic(sr), atomic(vr), "
                "atomic(ss) or atomic(none)");
      return false;
    }
    PP.Lex(Tok);
    std::optional<AtomicVariant> V;
    if (Tok.is(tok::identifier))
      V = StringSwitch<std::optional<AtomicVariant>>(
              Tok.getIdentifierInfo()->getName())
              .Case("sr", AtomicVariant::SR)
              .Case("vr", AtomicVariant::VR)
              .Case("ss", AtomicVariant::SS)
              .Case("none", AtomicVariant::None)
              .Default(std::nullopt);
    if (!V) {
      fail(Tok, "unknown atomic variant %0; expected sr, vr, ss or none",
           spelling(Tok));
      return false;
    }
    A.Variant = *V;
    PP.Lex(Tok);
    if (!Tok.is(tok::r_paren)) {
      fail(Tok, "expected ')' after the atomic variant");
      return false;
    }
    return true;
  }

  /// Parses `name(N)` clauses (optionally comma-separated) until the end.
  bool parseClauses(Annotation &A) {
    Token Tok;
    PP.Lex(Tok);
    while (!Tok.is(tok::eod)) {
      if (Tok.is(tok::comma)) {
        PP.Lex(Tok);
        continue;
      }
      if (!Tok.is(tok::identifier)) {
        fail(Tok, "unexpected %0 in '#pragma dd'; expected a clause",
             spelling(Tok));
        return false;
      }
      StringRef Clause = Tok.getIdentifierInfo()->getName();
      std::optional<unsigned> *Slot = nullptr;
      if (A.Kind == Directive::Decouple && Clause == "depth")
        Slot = &A.Depth;
      else if (A.Kind == Directive::Delegate && Clause == "servers")
        Slot = &A.Servers;
      else if (A.Kind == Directive::Delegate && Clause == "locks")
        Slot = &A.Locks;
      if (!Slot) {
        StringRef Allowed =
            StringSwitch<StringRef>(toString(A.Kind))
                .Case("decouple", "depth(N)")
                .Case("delegate", "servers(N) and locks(N)")
                .Default("none");
        unsigned ID = Diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "unknown clause '%0' for '#pragma dd %1' (allowed: %2)");
        Diags.Report(loc(Tok), ID) << Clause << toString(A.Kind) << Allowed;
        skipToEnd(Tok);
        return false;
      }
      if (*Slot) {
        fail(Tok, "clause '%0' given twice", Clause);
        return false;
      }
      Token Clause0 = Tok;
      PP.Lex(Tok);
      if (!Tok.is(tok::l_paren)) {
        fail(Tok, "expected '(' after clause '%0'", Clause);
        return false;
      }
      PP.Lex(Tok);
      uint64_t Value = 0;
      if (!Tok.is(tok::numeric_constant) ||
          StringRef(PP.getSpelling(Tok)).getAsInteger(0, Value)) {
        fail(Tok, "expected a positive integer in clause '%0'", Clause);
        return false;
      }
      // Bounds a CUDA launch can honour: depth is a ring of shared-memory
      // stages; servers are blocks; locks live in one block's shared memory.
      uint64_t Max = Clause == "depth" ? 64 : Clause == "servers" ? 65536 : (1u << 20);
      if (Value == 0 || Value > Max) {
        unsigned ID = Diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "value of clause '%0' must be between 1 and %1");
        Diags.Report(loc(Tok), ID) << Clause << std::to_string(Max);
        skipToEnd(Tok);
        return false;
      }
      *Slot = static_cast<unsigned>(Value);
      PP.Lex(Tok);
      if (!Tok.is(tok::r_paren)) {
        fail(Tok, "expected ')' to close clause '%0'",
             Clause0.getIdentifierInfo()->getName());
        return false;
      }
      PP.Lex(Tok);
    }
    return true;
  }
};

class DDPragmaHandler : public PragmaHandler {
public:
  explicit DDPragmaHandler(AnnotationSet &Set) : PragmaHandler("dd"), Set(Set) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstToken) override {
    if (std::optional<Annotation> A = PragmaParser(PP).parse())
      Set.add(std::move(*A));
  }

private:
  AnnotationSet &Set;
};

/// One thing an annotation may attach to.
struct Candidate {
  unsigned Offset;
  unsigned Order = 0; // pre-order visit number: the outermost first
  const FunctionDecl *Function = nullptr; // a function declaration
  const Stmt *Statement = nullptr;        // or a statement in a body
  const FunctionDecl *Enclosing = nullptr;
};

/// Collects the function definitions and the statements of their bodies of
/// one file, by begin offset.
class CandidateCollector : public RecursiveASTVisitor<CandidateCollector> {
public:
  CandidateCollector(SourceManager &SM, FileID File) : SM(SM), File(File) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      addFunction(FD, FD->getBeginLoc());
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool Result = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return Result;
  }

  bool TraverseFunctionTemplateDecl(FunctionTemplateDecl *TD) {
    // The annotation precedes `template <...>`, the template's begin.
    if (FunctionDecl *FD = TD->getTemplatedDecl())
      if (FD->doesThisDeclarationHaveABody())
        addFunction(FD, TD->getBeginLoc());
    return RecursiveASTVisitor::TraverseFunctionTemplateDecl(TD);
  }

  bool VisitStmt(Stmt *S) {
    // Sub-expressions are collected too: at one offset the outermost
    // statement comes first in pre-order and wins.
    if (!Current)
      return true;
    std::optional<unsigned> Offset = offset(S->getBeginLoc());
    if (Offset)
      Candidates.push_back({*Offset, 0, nullptr, S, Current});
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      std::optional<unsigned> L = offset(CS->getLBracLoc());
      std::optional<unsigned> R = offset(CS->getRBracLoc());
      if (L && R)
        Blocks.push_back({*L, *R});
    }
    return true;
  }

  std::vector<Candidate> Candidates;
  std::vector<std::pair<const FunctionDecl *, std::pair<unsigned, unsigned>>>
      Bodies; // function -> [body begin, body end)
  std::vector<std::pair<unsigned, unsigned>> Blocks; // {...} braces

private:
  SourceManager &SM;
  FileID File;
  const FunctionDecl *Current = nullptr;

  std::optional<unsigned> offset(SourceLocation Loc) {
    if (Loc.isInvalid())
      return std::nullopt;
    Loc = SM.getExpansionLoc(Loc);
    if (SM.getFileID(Loc) != File)
      return std::nullopt;
    return SM.getFileOffset(Loc);
  }

  void addFunction(const FunctionDecl *FD, SourceLocation Begin) {
    std::optional<unsigned> Offset = offset(Begin);
    if (!Offset)
      return;
    Candidates.push_back({*Offset, 0, FD, nullptr, nullptr});
    const Stmt *Body = FD->getBody();
    std::optional<unsigned> B = offset(Body->getBeginLoc());
    std::optional<unsigned> E = offset(Body->getEndLoc());
    if (B && E)
      Bodies.push_back({FD, {*B, *E}});
  }
};

const Stmt *unwrap(const Stmt *S) {
  while (true) {
    if (const auto *L = dyn_cast<LabelStmt>(S))
      S = L->getSubStmt();
    else if (const auto *A = dyn_cast<AttributedStmt>(S))
      S = A->getSubStmt();
    else
      return S;
  }
}

bool isLoop(const Stmt *S) {
  S = unwrap(S);
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

bool isKernel(const FunctionDecl *FD) { return FD->hasAttr<CUDAGlobalAttr>(); }

/// Whether \p S holds a call to a CUDA atomic function.
bool holdsAtomic(const Stmt *S) {
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (cudaAtomic(Call))
      return true;
  for (const Stmt *Child : S->children())
    if (Child && holdsAtomic(Child))
      return true;
  return false;
}

} // namespace

void AnnotationSet::registerPragmaHandler(Preprocessor &PP) {
  PP.AddPragmaHandler(new DDPragmaHandler(*this));
}

bool AnnotationSet::attach(ASTContext &Ctx) {
  SourceManager &SM = Ctx.getSourceManager();
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  bool Ok = true;

  // Collect candidates per file that holds annotations.
  std::map<FileID, CandidateCollector> PerFile;
  for (const Annotation &A : Annotations) {
    FileID F = SM.getFileID(A.Loc);
    if (PerFile.count(F))
      continue;
    CandidateCollector &C = PerFile.emplace(F, CandidateCollector(SM, F)).first->second;
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
    // Stable: earlier offset first; at equal offsets the outermost (visited
    // first in pre-order) first.
    for (unsigned I = 0; I < C.Candidates.size(); ++I)
      C.Candidates[I].Order = I;
    llvm::sort(C.Candidates, [](const Candidate &X, const Candidate &Y) {
      return std::tie(X.Offset, X.Order) < std::tie(Y.Offset, Y.Order);
    });
  }

  auto Error = [&](const Annotation &A, StringRef Message) {
    unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
    Diags.Report(A.Loc, ID) << Message;
    Ok = false;
  };

  for (Annotation &A : Annotations) {
    CandidateCollector &C = PerFile.at(SM.getFileID(A.Loc));
    unsigned At = SM.getFileOffset(A.Loc);
    // The innermost body holding the pragma.
    unsigned EnclosingBegin = 0;
    for (const auto &[FD, Range] : C.Bodies)
      if (Range.first < At && At < Range.second &&
          (!A.Enclosing || Range.first > EnclosingBegin)) {
        A.Enclosing = FD;
        EnclosingBegin = Range.first;
      }

    auto Next = std::upper_bound(
        C.Candidates.begin(), C.Candidates.end(), At,
        [](unsigned Off, const Candidate &X) { return Off < X.Offset; });
    // In a body only statements of that body qualify, and only while the
    // pragma is inside the statement's parent (else it ended a block).
    const Candidate *Target = nullptr;
    if (Next != C.Candidates.end()) {
      if (A.Enclosing) {
        if (Next->Statement && Next->Enclosing == A.Enclosing)
          Target = &*Next;
      } else if (Next->Function) {
        Target = &*Next;
      }
    }
    if (Target && Target->Statement) {
      // A pragma that ends a block annotates nothing: the target must lie
      // in the innermost block holding the pragma.
      unsigned InnermostEnd = ~0u, InnermostBegin = 0;
      for (const auto &[L, R] : C.Blocks)
        if (L < At && At < R && L >= InnermostBegin) {
          InnermostBegin = L;
          InnermostEnd = R;
        }
      if (Target->Offset > InnermostEnd)
        Target = nullptr;
    }
    if (Target && Target->Statement) {
      ParentMap PM(A.Enclosing->getBody());
      if (const Stmt *Parent = PM.getParent(Target->Statement)) {
        unsigned ParentBegin =
            SM.getFileOffset(SM.getExpansionLoc(Parent->getBeginLoc()));
        unsigned ParentEnd =
            SM.getFileOffset(SM.getExpansionLoc(Parent->getEndLoc()));
        if (!(ParentBegin < At && At < ParentEnd))
          Target = nullptr;
      }
    }

    std::string Directive = ("'#pragma dd " + toString(A.Kind) + "'").str();
    switch (A.Kind) {
    case Directive::Monotonic:
      if (!Target || !Target->Function || !isKernel(Target->Function)) {
        Error(A, Directive + " must precede a kernel (a __global__ function "
                             "definition)");
        continue;
      }
      break;
    case Directive::Decouple:
      if (!Target || (Target->Function && !isKernel(Target->Function)) ||
          (Target->Statement && !isLoop(Target->Statement))) {
        Error(A, Directive + " must precede a loop or a kernel (a __global__ "
                             "function definition)");
        continue;
      }
      break;
    case Directive::Delegate:
      if (!Target || !Target->Statement || !isLoop(Target->Statement)) {
        Error(A, Directive + " must precede the try-lock loop of a critical "
                             "section");
        continue;
      }
      break;
    case Directive::Atomic:
      if (!Target || !Target->Statement || !holdsAtomic(Target->Statement)) {
        Error(A, Directive + " must precede a statement that calls a CUDA "
                             "atomic function");
        continue;
      }
      break;
    }
    A.TargetFunction = Target->Function;
    A.TargetStmt = Target->Statement;
  }

  // One annotation of a kind per target.
  for (size_t I = 0; I < Annotations.size(); ++I)
    for (size_t J = 0; J < I; ++J) {
      const Annotation &X = Annotations[I], &Y = Annotations[J];
      if (X.Kind == Y.Kind && (X.TargetStmt || X.TargetFunction) &&
          X.TargetStmt == Y.TargetStmt && X.TargetFunction == Y.TargetFunction) {
        Error(X, ("'#pragma dd " + toString(X.Kind) +
                  "' given twice for the same target")
                     .str());
        unsigned Note = Diags.getCustomDiagID(DiagnosticsEngine::Note,
                                              "previous annotation is here");
        Diags.Report(Y.Loc, Note);
      }
    }
  return Ok;
}

const Annotation *AnnotationSet::find(Directive Kind, const Stmt *S) const {
  for (const Annotation &A : Annotations)
    if (A.Kind == Kind && A.TargetStmt &&
        (A.TargetStmt == S || unwrap(A.TargetStmt) == S))
      return &A;
  return nullptr;
}

const Annotation *AnnotationSet::find(Directive Kind,
                                      const FunctionDecl *FD) const {
  for (const Annotation &A : Annotations)
    if (A.Kind == Kind && A.TargetFunction &&
        A.TargetFunction->getCanonicalDecl() == FD->getCanonicalDecl())
      return &A;
  return nullptr;
}

} // namespace decoupler
