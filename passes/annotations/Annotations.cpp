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

StringRef toString(MonotonicVariant V) {
  return V == MonotonicVariant::Store ? "store" : "filter";
}

StringRef toString(AtomicVariant V) {
  switch (V) {
  case AtomicVariant::SR:
    return "sr";
  case AtomicVariant::VR:
    return "vr";
  case AtomicVariant::SS:
    return "ss";
  case AtomicVariant::Privatize:
    return "privatize";
  case AtomicVariant::None:
    return "none";
  }
  llvm_unreachable("bad variant");
}

namespace {

constexpr StringRef Directives[] = {"decouple", "delegate", "atomic",
                                    "monotonic"};
constexpr StringRef DecoupleClauses[] = {"depth"};
constexpr StringRef DelegateClauses[] = {"servers", "locks"};
constexpr StringRef AtomicClauses[] = {"range"};

/// The one of \p Known that \p Name most likely misspells: the same but for
/// case, or at most a third of its letters (rounded up) away.
std::optional<StringRef> nearest(StringRef Name, ArrayRef<StringRef> Known) {
  std::optional<StringRef> Best;
  unsigned BestDistance = ~0u;
  for (StringRef K : Known) {
    if (Name.equals_insensitive(K))
      return K;
    unsigned Limit = (K.size() + 2) / 3;
    unsigned D = Name.edit_distance(K, /*AllowReplacements=*/true, Limit);
    if (D <= Limit && D < BestDistance) {
      Best = K;
      BestDistance = D;
    }
  }
  return Best;
}

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
    std::optional<Directive> Kind = StringSwitch<std::optional<Directive>>(Name)
                                        .Case("decouple", Directive::Decouple)
                                        .Case("delegate", Directive::Delegate)
                                        .Case("atomic", Directive::Atomic)
                                        .Case("monotonic", Directive::Monotonic)
                                        .Default(std::nullopt);
    if (!Kind) {
      if (std::optional<StringRef> Near = nearest(Name, Directives)) {
        unsigned ID = Diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "unknown decoupler directive '%0'; did you mean '%1'?");
        Diags.Report(loc(Tok), ID)
            << Name << *Near
            << FixItHint::CreateReplacement(SourceRange(loc(Tok)), *Near);
        skipToEnd(Tok);
        return std::nullopt;
      }
      return fail(Tok,
                  "unknown decoupler directive '%0'; expected decouple, "
                  "delegate, atomic or monotonic",
                  Name);
    }
    Annotation A;
    A.Kind = *Kind;
    A.Loc = PP.getSourceManager().getExpansionLoc(Tok.getLocation());
    if (Tok.getLocation().isMacroID())
      A.MacroEnd =
          PP.getSourceManager().getExpansionRange(Tok.getLocation()).getEnd();

    if (A.Kind == Directive::Atomic && !parseAtomicVariant(A))
      return std::nullopt;
    if (A.Kind == Directive::Monotonic && PP.LookAhead(0).is(tok::l_paren) &&
        !parseMonotonicVariant(A))
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

  /// Parses `VARIANT)`, the rest of `DIRECTIVE(VARIANT)` after its opening
  /// parenthesis: one of \p Choices, listed for the error as \p Expected.
  template <class E>
  std::optional<E>
  parseVariant(StringRef Directive, StringRef Expected,
               std::initializer_list<std::pair<StringRef, E>> Choices) {
    Token Tok;
    PP.Lex(Tok);
    std::optional<E> V;
    if (Tok.is(tok::identifier))
      for (const auto &[Name, Value] : Choices)
        if (Tok.getIdentifierInfo()->getName() == Name)
          V = Value;
    unsigned ID = 0;
    if (!V) {
      ID = Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                 "unknown %0 variant %1; expected %2");
      Diags.Report(loc(Tok), ID) << Directive << spelling(Tok) << Expected;
    } else {
      PP.Lex(Tok);
      if (Tok.is(tok::r_paren))
        return V;
      ID = Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                 "expected ')' after the %0 variant");
      Diags.Report(loc(Tok), ID) << Directive;
    }
    skipToEnd(Tok);
    return std::nullopt;
  }

  bool parseAtomicVariant(Annotation &A) {
    Token Tok;
    PP.Lex(Tok);
    if (!Tok.is(tok::l_paren)) {
      fail(Tok, "expected '(' after 'atomic': write atomic(sr), atomic(vr), "
                "atomic(ss), atomic(privatize) or atomic(none)");
      return false;
    }
    std::optional<AtomicVariant> V =
        parseVariant<AtomicVariant>("atomic", "sr, vr, ss, privatize or none",
                                    {{"sr", AtomicVariant::SR},
                                     {"vr", AtomicVariant::VR},
                                     {"ss", AtomicVariant::SS},
                                     {"privatize", AtomicVariant::Privatize},
                                     {"none", AtomicVariant::None}});
    if (V)
      A.Variant = *V;
    return V.has_value();
  }

  /// Parses `(filter)` or `(store)` after `monotonic`; the next token is
  /// the opening parenthesis.
  bool parseMonotonicVariant(Annotation &A) {
    Token Paren;
    PP.Lex(Paren);
    std::optional<MonotonicVariant> V =
        parseVariant<MonotonicVariant>("monotonic", "filter or store",
                                       {{"filter", MonotonicVariant::Filter},
                                        {"store", MonotonicVariant::Store}});
    if (V)
      A.Monotonic = *V;
    return V.has_value();
  }

  /// Parses `range(N)` or `range(name)` of atomic(privatize); \p Tok is
  /// `range` and ends on the closing parenthesis.
  bool parseRange(Annotation &A, Token &Tok) {
    if (A.Variant != AtomicVariant::Privatize) {
      fail(Tok, "clause 'range' applies to '#pragma dd atomic(privatize)' "
                "only");
      return false;
    }
    if (A.RangeValue || !A.RangeName.empty()) {
      fail(Tok, "clause '%0' given twice", "range");
      return false;
    }
    PP.Lex(Tok);
    if (!Tok.is(tok::l_paren)) {
      fail(Tok, "expected '(' after clause '%0'", "range");
      return false;
    }
    PP.Lex(Tok);
    A.RangeLoc = loc(Tok);
    uint64_t Value = 0;
    if (Tok.is(tok::numeric_constant) &&
        !StringRef(PP.getSpelling(Tok)).getAsInteger(0, Value) && Value > 0 &&
        Value <= (1ull << 32)) {
      A.RangeValue = Value;
    } else if (Tok.is(tok::identifier)) {
      A.RangeName = Tok.getIdentifierInfo()->getName().str();
    } else {
      fail(Tok,
           "expected a positive integer (at most 2^32) or a kernel "
           "parameter in clause 'range', not %0",
           spelling(Tok));
      return false;
    }
    PP.Lex(Tok);
    if (!Tok.is(tok::r_paren)) {
      fail(Tok, "expected ')' to close clause '%0'", "range");
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
      if (A.Kind == Directive::Atomic && Clause == "range") {
        if (!parseRange(A, Tok))
          return false;
        PP.Lex(Tok);
        continue;
      }
      std::optional<unsigned> *Slot = nullptr;
      if (A.Kind == Directive::Decouple && Clause == "depth")
        Slot = &A.Depth;
      else if (A.Kind == Directive::Delegate && Clause == "servers")
        Slot = &A.Servers;
      else if (A.Kind == Directive::Delegate && Clause == "locks")
        Slot = &A.Locks;
      if (!Slot) {
        if (std::optional<StringRef> Near =
                nearest(Clause, A.Kind == Directive::Decouple
                                    ? ArrayRef<StringRef>(DecoupleClauses)
                                : A.Kind == Directive::Delegate
                                    ? ArrayRef<StringRef>(DelegateClauses)
                                : A.Kind == Directive::Atomic
                                    ? ArrayRef<StringRef>(AtomicClauses)
                                    : ArrayRef<StringRef>())) {
          unsigned ID = Diags.getCustomDiagID(
              DiagnosticsEngine::Error,
              "unknown clause '%0' for '#pragma dd %1'; did you mean '%2'?");
          Diags.Report(loc(Tok), ID)
              << Clause << toString(A.Kind) << *Near
              << FixItHint::CreateReplacement(SourceRange(loc(Tok)), *Near);
          skipToEnd(Tok);
          return false;
        }
        StringRef Allowed =
            StringSwitch<StringRef>(toString(A.Kind))
                .Case("decouple", "depth(N)")
                .Case("delegate", "servers(N) and locks(N)")
                .Case("atomic", "range(N), with privatize")
                .Case("monotonic", "none; the variant is written "
                                   "monotonic(filter) or monotonic(store)")
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
      uint64_t Max = Clause == "depth"     ? 64
                     : Clause == "servers" ? 65536
                                           : (1u << 20);
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
  explicit DDPragmaHandler(AnnotationSet &Set)
      : PragmaHandler("dd"), Set(Set) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstToken) override {
    if (std::optional<Annotation> A = PragmaParser(PP).parse())
      Set.add(std::move(*A));
  }

private:
  AnnotationSet &Set;
};

/// `#pragma DD ...`, `#pragma decoupler ...` or `#pragma decouple ...`: not
/// an annotation (clang would ignore it, silently by default), but most
/// likely meant as one.
class NearMissHandler : public PragmaHandler {
public:
  /// \p Directive: the directive the pragma's name is (empty when the name
  /// stands for the `dd` namespace).
  NearMissHandler(StringRef Name, StringRef Directive)
      : PragmaHandler(Name), Directive(Directive) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstToken) override {
    DiagnosticsEngine &Diags = PP.getDiagnostics();
    SourceLocation Loc =
        PP.getSourceManager().getExpansionLoc(FirstToken.getLocation());
    std::string Meant = Directive.empty() ? "dd" : "dd " + Directive;
    unsigned ID = Diags.getCustomDiagID(
        DiagnosticsEngine::Warning,
        "'#pragma %0' is not a decoupler annotation and is ignored; did you "
        "mean '#pragma %1'?");
    auto Builder = Diags.Report(Loc, ID);
    Builder << getName() << Meant;
    if (!FirstToken.getLocation().isMacroID())
      Builder << FixItHint::CreateReplacement(SourceRange(Loc), Meant);
  }

private:
  std::string Directive;
};

/// One thing an annotation may attach to: a declaration outside function
/// bodies, or a statement inside one.
struct Candidate {
  unsigned Offset;
  unsigned Order = 0; // pre-order visit number: the outermost first
  const Decl *Declaration = nullptr; // a declaration (function or other)
  const Stmt *Statement = nullptr;   // or a statement in a body
  const FunctionDecl *Enclosing = nullptr;

  /// The function definition this declaration is, through templates and
  /// brace-less `extern "C"`; null for any other declaration.
  const FunctionDecl *definition() const {
    const FunctionDecl *FD = function();
    return FD && FD->doesThisDeclarationHaveABody() ? FD : nullptr;
  }
  const FunctionDecl *function() const {
    const Decl *D = Declaration;
    while (const auto *LS = dyn_cast_or_null<LinkageSpecDecl>(D)) {
      if (LS->hasBraces() || LS->decls_empty())
        return nullptr;
      D = *LS->decls_begin();
    }
    if (const auto *TD = dyn_cast_or_null<FunctionTemplateDecl>(D))
      D = TD->getTemplatedDecl();
    return dyn_cast_or_null<FunctionDecl>(D);
  }
};

/// Collects, for one file, every declaration outside function bodies and
/// every statement of the bodies, by begin offset, with the ranges of the
/// braces (blocks, namespaces, classes, `extern "C" {}`) that bound what an
/// annotation may reach.
class CandidateCollector : public RecursiveASTVisitor<CandidateCollector> {
  using Base = RecursiveASTVisitor<CandidateCollector>;

public:
  CandidateCollector(SourceManager &SM, FileID File) : SM(SM), File(File) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!Current && isCandidate(D))
      if (std::optional<unsigned> Offset = offset(D->getBeginLoc()))
        Candidates.push_back({*Offset, 0, D, nullptr, nullptr});
    addScope(D);
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    const Stmt *Body = FD->getBody();
    std::optional<unsigned> B = offset(Body->getBeginLoc());
    std::optional<unsigned> E = offset(Body->getEndLoc());
    if (B && E)
      Bodies.push_back({FD, {*B, *E}});
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool Result = Base::TraverseDecl(D);
    Current = Saved;
    return Result;
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
  std::vector<std::pair<unsigned, unsigned>> Blocks; // {...} in bodies
  std::vector<std::pair<unsigned, unsigned>> Scopes; // {...} of declarations

private:
  SourceManager &SM;
  FileID File;
  const FunctionDecl *Current = nullptr;

  static bool isCandidate(const Decl *D) {
    // What a user writes as a declaration of its own; parameters belong to
    // their function.
    return !D->isImplicit() &&
           !isa<TranslationUnitDecl, ParmVarDecl, TemplateTypeParmDecl,
                NonTypeTemplateParmDecl, TemplateTemplateParmDecl>(D);
  }

  void addScope(const Decl *D) {
    SourceLocation L, R;
    if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      L = NS->getBeginLoc();
      R = NS->getRBraceLoc();
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
      if (!LS->hasBraces())
        return;
      L = LS->getBeginLoc();
      R = LS->getRBraceLoc();
    } else if (const auto *TD = dyn_cast<TagDecl>(D)) {
      if (!TD->isThisDeclarationADefinition())
        return;
      L = TD->getBraceRange().getBegin();
      R = TD->getBraceRange().getEnd();
    } else {
      return;
    }
    std::optional<unsigned> LO = offset(L), RO = offset(R);
    if (LO && RO)
      Scopes.push_back({*LO, *RO});
  }

  std::optional<unsigned> offset(SourceLocation Loc) {
    if (Loc.isInvalid())
      return std::nullopt;
    Loc = SM.getExpansionLoc(Loc);
    if (SM.getFileID(Loc) != File)
      return std::nullopt;
    return SM.getFileOffset(Loc);
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

/// What follows an annotation, for the note of an annotation that does not
/// fit it.
std::string describe(const Candidate &C) {
  if (C.Statement) {
    const Stmt *S = unwrap(C.Statement);
    if (isLoop(S))
      return holdsAtomic(S) ? "a loop"
                            : "a loop, which calls no CUDA atomic function";
    if (isa<DeclStmt>(S))
      return "a declaration statement";
    if (holdsAtomic(S))
      return "a statement";
    return "a statement that calls no CUDA atomic function";
  }
  if (const FunctionDecl *FD = C.function()) {
    std::string Name = "'" + FD->getNameAsString() + "'";
    std::string What = isKernel(FD) ? "kernel " + Name
                       : FD->hasAttr<CUDADeviceAttr>()
                           ? "__device__ function " + Name
                           : "host function " + Name;
    if (!FD->doesThisDeclarationHaveABody())
      return "a declaration of " + What + " that is not its definition";
    return "the definition of " + What;
  }
  const Decl *D = C.Declaration;
  if (const auto *ND = dyn_cast<NamedDecl>(D)) {
    std::string Name = ND->getDeclName().isEmpty()
                           ? std::string()
                           : " '" + ND->getNameAsString() + "'";
    if (isa<VarDecl>(D))
      return "the declaration of variable" + Name;
    if (isa<TypedefNameDecl>(D))
      return "the type alias" + Name;
    if (const auto *TD = dyn_cast<TagDecl>(D))
      return (TD->getKindName() + Name).str();
    if (isa<NamespaceDecl>(D))
      return "namespace" + (Name.empty() ? std::string(" (anonymous)") : Name);
    if (isa<TemplateDecl>(D))
      return "the template" + Name;
  }
  if (isa<LinkageSpecDecl>(D))
    return "an 'extern \"C\"' block";
  return "a declaration";
}

} // namespace

void AnnotationSet::registerPragmaHandler(Preprocessor &PP) {
  PP.AddPragmaHandler(new DDPragmaHandler(*this));
  // Near misses of the namespace: a warning each, as the pragma is ignored.
  for (StringRef Name : {"DD", "Dd", "dD", "decoupler"})
    PP.AddPragmaHandler(new NearMissHandler(Name, ""));
  for (StringRef Name : Directives)
    PP.AddPragmaHandler(new NearMissHandler(Name, Name));
}

void AnnotationSet::dropIncluded(
    const SourceManager &SM,
    llvm::function_ref<void(const Annotation &)> Dropped) {
  llvm::erase_if(Annotations, [&](const Annotation &A) {
    if (SM.isInMainFile(A.Loc))
      return false;
    Dropped(A);
    return true;
  });
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
    CandidateCollector &C =
        PerFile.emplace(F, CandidateCollector(SM, F)).first->second;
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
    // Stable: earlier offset first; at equal offsets the outermost (visited
    // first in pre-order) first.
    for (unsigned I = 0; I < C.Candidates.size(); ++I)
      C.Candidates[I].Order = I;
    llvm::sort(C.Candidates, [](const Candidate &X, const Candidate &Y) {
      return std::tie(X.Offset, X.Order) < std::tie(Y.Offset, Y.Order);
    });
  }

  unsigned NoteID = Diags.getCustomDiagID(DiagnosticsEngine::Note,
                                          "the annotation is followed by %0");
  unsigned EndID = Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");

  for (Annotation &A : Annotations) {
    FileID File = SM.getFileID(A.Loc);
    CandidateCollector &C = PerFile.at(File);
    unsigned At = SM.getFileOffset(A.Loc);
    // The innermost body holding the pragma.
    unsigned EnclosingBegin = 0;
    for (const auto &[FD, Range] : C.Bodies)
      if (Range.first < At && At < Range.second &&
          (!A.Enclosing || Range.first > EnclosingBegin)) {
        A.Enclosing = FD;
        EnclosingBegin = Range.first;
      }

    // The innermost braces holding the pragma bound what it can reach: a
    // pragma that ends a block, a namespace or a class annotates nothing.
    unsigned InnermostBegin = 0, InnermostEnd = ~0u;
    for (const auto &[L, R] : A.Enclosing ? C.Blocks : C.Scopes)
      if (L < At && At < R && L >= InnermostBegin) {
        InnermostBegin = L;
        InnermostEnd = R;
      }

    // Written in a macro that also expands to code (a kernel, a loop): the
    // pragma's place is the macro's use, which is also where that code
    // begins, so "what follows" would be whatever comes after the use. No
    // pass rewrites code inside a macro expansion: an error, at the use.
    if (A.MacroEnd.isValid() && SM.getFileID(A.MacroEnd) == File) {
      const unsigned End = SM.getFileOffset(A.MacroEnd);
      auto Inside = llvm::find_if(C.Candidates, [&](const Candidate &X) {
        return At <= X.Offset && X.Offset <= End;
      });
      if (Inside != C.Candidates.end()) {
        const std::string Macro =
            Lexer::getSourceText(CharSourceRange::getTokenRange(A.Loc), SM,
                                 Ctx.getLangOpts())
                .str();
        unsigned ID = Diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "'#pragma dd %0' is written inside the macro '%1' with the code "
            "it would annotate: decoupler does not rewrite code inside a "
            "macro expansion; write the annotation, and what it annotates, "
            "outside the macro");
        Diags.Report(A.Loc, ID) << toString(A.Kind) << Macro;
        Ok = false;
        continue;
      }
    }

    // What immediately follows the pragma: in a body the next statement of
    // that body, elsewhere the next declaration, whatever either is.
    auto Next = std::upper_bound(
        C.Candidates.begin(), C.Candidates.end(), At,
        [](unsigned Off, const Candidate &X) { return Off < X.Offset; });
    for (; Next != C.Candidates.end(); ++Next)
      if (A.Enclosing ? Next->Statement && Next->Enclosing == A.Enclosing
                      : Next->Declaration != nullptr)
        break;
    const Candidate *Target = nullptr;
    if (Next != C.Candidates.end() && Next->Offset < InnermostEnd)
      Target = &*Next;
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

    bool Fits = false;
    std::string Message = ("'#pragma dd " + toString(A.Kind) + "'").str();
    const FunctionDecl *Definition = Target ? Target->definition() : nullptr;
    switch (A.Kind) {
    case Directive::Monotonic:
      Fits = Definition && isKernel(Definition);
      Message += " must precede a kernel (a __global__ function definition)";
      break;
    case Directive::Decouple:
      Fits = (Definition && isKernel(Definition)) ||
             (Target && Target->Statement && isLoop(Target->Statement));
      Message += " must precede a loop or a kernel (a __global__ function "
                 "definition)";
      break;
    case Directive::Delegate:
      Fits = Target && Target->Statement && isLoop(Target->Statement);
      Message += " must precede the try-lock loop of a critical section";
      break;
    case Directive::Atomic:
      Fits = Target && Target->Statement && holdsAtomic(Target->Statement);
      Message += " must precede a statement that calls a CUDA atomic function";
      break;
    }
    if (!Fits) {
      unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
      Diags.Report(A.Loc, ID) << Message;
      Ok = false;
      if (Target)
        Diags.Report(
            SM.getExpansionLoc(Target->Statement
                                   ? Target->Statement->getBeginLoc()
                                   : Target->Declaration->getBeginLoc()),
            NoteID)
            << describe(*Target);
      else if (InnermostEnd != ~0u)
        Diags.Report(SM.getComposedLoc(File, InnermostEnd), EndID)
            << "nothing follows the annotation before the end of its scope";
      else
        Diags.Report(A.Loc, EndID)
            << "nothing follows the annotation in this file";
      continue;
    }
    A.TargetFunction = Target->Statement ? nullptr : Definition;
    A.TargetStmt = Target->Statement;
  }

  // One annotation of a kind per target.
  for (size_t I = 0; I < Annotations.size(); ++I)
    for (size_t J = 0; J < I; ++J) {
      const Annotation &X = Annotations[I], &Y = Annotations[J];
      if (X.Kind == Y.Kind && (X.TargetStmt || X.TargetFunction) &&
          X.TargetStmt == Y.TargetStmt &&
          X.TargetFunction == Y.TargetFunction) {
        unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
        Diags.Report(X.Loc, ID) << ("'#pragma dd " + toString(X.Kind) +
                                    "' given twice for the same target")
                                       .str();
        Ok = false;
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
