//===- support/LaunchRewriter.cpp - k<<<...>>> to a generated launcher ----===//

#include "support/LaunchRewriter.h"
#include "support/SourceText.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace llvm;

namespace decoupler {

/// One launch of the kernel and where it is.
struct LaunchRewriter::Found {
  const CUDAKernelCallExpr *Call = nullptr;
  const DeclContext *Context =
      nullptr; // the context its names are looked up in
  const Decl *TopLevel =
      nullptr;           // the translation unit's declaration holding it
  bool Device = false;   // in a __device__/__global__ function
  bool Template = false; // in a template or an instantiation of one
};

namespace {

/// Whether a declaration inserted right after \p D gets C language linkage
/// (`extern "C" { ... }` around it).
bool cLinkageAfter(const Decl *D) {
  const DeclContext *DC = D->getLexicalDeclContext();
  // `extern "C" void k();` ends with the declaration.
  if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC); LS && !LS->hasBraces())
    DC = LS->getLexicalParent();
  for (; DC; DC = DC->getLexicalParent())
    if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC))
      return LS->getLanguage() == LinkageSpecLanguageIDs::C;
  return false;
}

/// Whether \p D is a template, in one, or instantiated from one.
bool templated(const Decl *D) {
  if (D->isTemplated())
    return true;
  if (const auto *F = dyn_cast<FunctionDecl>(D))
    return F->isTemplateInstantiation();
  if (const auto *R = dyn_cast<CXXRecordDecl>(D))
    return isTemplateInstantiation(R->getTemplateSpecializationKind());
  return false;
}

/// How many leading arguments \p C writes (the rest are default arguments).
unsigned writtenArgs(const CallExpr *C) {
  unsigned N = 0;
  while (N < C->getNumArgs() && !isa<CXXDefaultArgExpr>(C->getArg(N)))
    ++N;
  return N;
}

} // namespace

LaunchRewriter::LaunchRewriter(ASTContext &Ctx, const FunctionDecl &Kernel,
                               Policy P)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), K(Kernel),
      Mode(P), Name(Kernel.getNameAsString()), Printing(Ctx.getLangOpts()) {
  Printing.SuppressTagKeyword = true;
  Printing.SuppressScope = false;
  Printing.SuppressUnwrittenScope = true;
}

std::string LaunchRewriter::paramName(unsigned I) const {
  const ParmVarDecl *P = K.getParamDecl(I);
  return P->getName().empty() ? "dd_arg" + std::to_string(I)
                              : P->getNameAsString();
}

std::string LaunchRewriter::arguments() const {
  std::string S;
  for (unsigned I = 0; I < K.getNumParams(); ++I)
    S += (I ? ", " : "") + paramName(I);
  return S;
}

/// The type of parameter \p I as the prototype writes it: fully qualified,
/// since the prototype may stand where the kernel's own spelling would
/// find other names.
std::string LaunchRewriter::paramType(unsigned I) const {
  QualType T =
      TypeName::getFullyQualifiedType(K.getParamDecl(I)->getType(), Ctx,
                                      /*WithGlobalNsPrefix=*/true);
  return T.getAsString(Printing);
}

std::string LaunchRewriter::definitionHead() const {
  std::string S =
      "static void " + name() +
      "(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream";
  for (unsigned I = 0; I < K.getNumParams(); ++I) {
    const ParmVarDecl *P = K.getParamDecl(I);
    S += ", ";
    // As the kernel writes it where that has no default of its own (the
    // launcher stands right after the kernel, in its scope).
    const bool OwnDefault = P->hasDefaultArg() && !P->hasInheritedDefaultArg();
    if (!P->getName().empty() && !OwnDefault && !inMacro(P->getSourceRange())) {
      S += Lexer::getSourceText(
          CharSourceRange::getTokenRange(P->getSourceRange()), SM, LO);
    } else {
      std::string Text;
      raw_string_ostream OS(Text);
      P->getType().print(OS, Printing, paramName(I));
      S += Text;
    }
    // The defaults go on the launcher's first declaration.
    if (PrototypeAt.isInvalid() && I >= FirstDefault)
      S += " = " + Defaults[I];
  }
  return S + ")";
}

std::string LaunchRewriter::fullName() const {
  std::string S;
  for (const DeclContext *DC = K.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(DC);
        N && !N->isAnonymousNamespace())
      S = N->getNameAsString() + "::" + S;
  return "::" + S + name();
}

/// The launcher as the launch \p F names it: qualified as the kernel's name
/// is there, fully where that name was found some other way than by
/// looking in the scopes around the launch.
std::string LaunchRewriter::callee(const Found &F) const {
  const auto *D = cast<DeclRefExpr>(F.Call->getCallee()->IgnoreParenImpCasts());
  // `using ns::k;` brings in k, not k_launch.
  const bool ViaUsing = isa<UsingShadowDecl>(D->getFoundDecl());
  if (!ViaUsing && D->hasQualifier()) {
    StringRef Buf = SM.getBufferData(SM.getFileID(D->getBeginLoc()));
    return Buf.slice(SM.getFileOffset(D->getBeginLoc()),
                     SM.getFileOffset(D->getLocation()))
               .str() +
           name();
  }
  if (!ViaUsing && K.getDeclContext()->getRedeclContext()->Encloses(F.Context))
    return name();
  // A using-directive or argument-dependent lookup.
  return fullName();
}

std::optional<LaunchProblem> LaunchRewriter::checkKernel() const {
  if (K.isTemplated() || K.isTemplateInstantiation() || K.getPrimaryTemplate())
    return LaunchProblem{K.getLocation(),
                         "kernel '" + Name +
                             "' is a template; its launches are not rewritten"};
  if (isa<CXXMethodDecl>(K))
    return LaunchProblem{
        K.getLocation(),
        "kernel '" + Name + "' is a member; its launcher would have to be one"};
  if (!K.getLexicalDeclContext()->getRedeclContext()->Equals(
          K.getDeclContext()->getRedeclContext()))
    return LaunchProblem{
        K.getLocation(),
        "kernel '" + Name +
            "' is defined outside its namespace; its launcher is defined "
            "beside it and would not be in the namespace"};
  if (!K.getDeclContext()
           ->getRedeclContext()
           ->lookup(&Ctx.Idents.get(name()))
           .empty())
    return LaunchProblem{K.getLocation(),
                         "the file already declares '" + name() +
                             "', the name of the launcher the rewrite "
                             "generates for '" +
                             Name + "'"};
  return std::nullopt;
}

std::optional<LaunchProblem> LaunchRewriter::check() {
  if (std::optional<LaunchProblem> P = checkKernel())
    return P;

  // Every use of the kernel, with the declarations around it.
  struct Finder : RecursiveASTVisitor<Finder> {
    using Base = RecursiveASTVisitor<Finder>;
    const FunctionDecl *K;
    SmallVector<const Decl *, 8> Stack;
    std::vector<Found> Launches;
    std::vector<const DeclRefExpr *> Other;
    SmallPtrSet<const DeclRefExpr *, 4> Callees;
    SmallPtrSet<const void *, 8> Seen; // a template's launch, once per location
    explicit Finder(const FunctionDecl *K) : K(K) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool TraverseDecl(Decl *D) {
      if (!D)
        return true;
      Stack.push_back(D);
      const bool Continue = Base::TraverseDecl(D);
      Stack.pop_back();
      return Continue;
    }
    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      if (!F || F->getCanonicalDecl() != K->getCanonicalDecl())
        return true;
      if (const auto *D =
              dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts()))
        Callees.insert(D);
      if (!Seen.insert(C->getBeginLoc().getPtrEncoding()).second)
        return true;
      Found L;
      L.Call = C;
      const Decl *Inner = Stack.empty() ? nullptr : Stack.back();
      L.Context = !Inner                    ? nullptr
                  : isa<DeclContext>(Inner) ? cast<DeclContext>(Inner)
                                            : Inner->getDeclContext();
      L.TopLevel = Stack.size() > 1 ? Stack[1] : nullptr;
      for (const Decl *D : reverse(Stack))
        if (const auto *Fn = dyn_cast<FunctionDecl>(D)) {
          L.Device =
              Fn->hasAttr<CUDADeviceAttr>() || Fn->hasAttr<CUDAGlobalAttr>();
          break;
        }
      L.Template = any_of(Stack, templated);
      Launches.push_back(L);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      const auto *F = dyn_cast<FunctionDecl>(D->getDecl());
      if (F && F->getCanonicalDecl() == K->getCanonicalDecl() &&
          !Callees.contains(D))
        Other.push_back(D);
      return true;
    }
  } Finder(&K);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());

  if (Mode == Policy::ReplaceAll && !Finder.Other.empty())
    return LaunchProblem{
        Finder.Other.front()->getLocation(),
        "kernel '" + Name +
            "' is used other than by a <<<...>>> launch (its address is taken, "
            "or it is launched through cudaLaunchKernel); the rewrite replaces "
            "the kernel and cannot rewrite this use"};

  std::vector<Found> Rewritten;
  for (const Found &F : Finder.Launches) {
    const CUDAKernelCallExpr *L = F.Call;
    const CallExpr *Config = L->getConfig();
    const auto *D =
        dyn_cast<DeclRefExpr>(L->getCallee()->IgnoreParenImpCasts());
    std::optional<Token> LParen;
    if (!Config->getRParenLoc().isMacroID())
      LParen = Lexer::findNextToken(Config->getRParenLoc(), SM, LO);
    std::string Why;
    if (!SM.isInMainFile(SM.getExpansionLoc(L->getBeginLoc())))
      Why = "is in an included file (only the main file is rewritten)";
    else if (inMacro(L->getSourceRange()) ||
             Config->getBeginLoc().isMacroID() ||
             Config->getRParenLoc().isMacroID() || !LParen ||
             !LParen->is(tok::l_paren) || LParen->getLocation().isMacroID() ||
             (D && inMacro(D->getSourceRange())))
      Why = "is written through a macro";
    else if (F.Device)
      Why = "is in device code (dynamic parallelism; the launcher is a host "
            "function)";
    else if (F.Template)
      Why = "is in a template (its instantiations may launch other kernels)";
    else if (!D)
      Why = "does not name the kernel";
    if (Why.empty()) {
      Rewritten.push_back(F);
      continue;
    }
    const SourceLocation At = SM.getExpansionLoc(L->getBeginLoc());
    if (Mode == Policy::ReplaceAll)
      return LaunchProblem{At, "this launch of '" + Name + "' " + Why +
                                   "; it cannot be rewritten"};
    Kept.push_back("the launch at line " +
                   std::to_string(SM.getExpansionLineNumber(At)) + " " + Why +
                   " and keeps the original");
  }
  sort(Rewritten, [&](const Found &A, const Found &B) {
    return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                        B.Call->getBeginLoc());
  });
  if (std::optional<LaunchProblem> P = planPrototype(Rewritten))
    return P;
  for (const Found &F : Rewritten) {
    Launches.push_back(F.Call);
    Calls.push_back(callee(F));
  }
  return std::nullopt;
}

std::optional<LaunchProblem>
LaunchRewriter::planPrototype(const std::vector<Found> &Rewritten) {
  const unsigned N = K.getNumParams();
  const SourceLocation DefEnd = SM.getExpansionLoc(K.getEndLoc());

  // The default arguments some launch relies on, by their text where the
  // kernel's declarations write them.
  FirstDefault = N;
  for (const Found &F : Rewritten)
    FirstDefault = std::min(FirstDefault, writtenArgs(F.Call));
  Defaults.assign(N, "");
  SmallVector<std::pair<SourceLocation, SourceLocation>, 4>
      DefaultAt; // parameter, end
  for (unsigned I = FirstDefault; I < N; ++I) {
    const ParmVarDecl *Written = nullptr;
    for (const FunctionDecl *R : K.redecls())
      if (const ParmVarDecl *P = R->getParamDecl(I);
          P->hasDefaultArg() && !P->hasInheritedDefaultArg())
        Written = P;
    CharSourceRange Range;
    if (Written)
      Range = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(Written->getDefaultArgRange()), SM,
          LO);
    if (!Written || Range.isInvalid())
      return LaunchProblem{
          Written ? Written->getLocation() : K.getParamDecl(I)->getLocation(),
          "the default argument of parameter " + std::to_string(I + 1) +
              " of '" + Name +
              "' cannot be given to its launcher (not found, or written "
              "across a macro's boundary)"};
    Defaults[I] = Lexer::getSourceText(Range, SM, LO).str();
    DefaultAt.push_back({Written->getLocation(), Range.getEnd()});
  }
  // The launcher's first declaration must see the defaults' declarations.
  auto DefaultsBefore = [&](SourceLocation At) -> std::optional<LaunchProblem> {
    for (unsigned I = FirstDefault; I < N; ++I)
      if (!SM.isBeforeInTranslationUnit(DefaultAt[I - FirstDefault].second, At))
        return LaunchProblem{
            DefaultAt[I - FirstDefault].first,
            "the default argument of parameter " + std::to_string(I + 1) +
                " of '" + Name +
                "' is declared after the place the launcher is declared; "
                "write the argument in the launch"};
    return std::nullopt;
  };

  // Launches after the definition see the launcher's definition.
  const Found *First = nullptr;
  for (const Found &F : Rewritten)
    if (SM.isBeforeInTranslationUnit(F.Call->getBeginLoc(), DefEnd)) {
      First = &F;
      break;
    }
  if (!First)
    return DefaultsBefore(DefEnd);
  const SourceLocation FirstLoc = First->Call->getBeginLoc();

  std::string Proto =
      "static void " + name() + "(dim3, dim3, size_t, cudaStream_t";
  for (unsigned I = 0; I < N; ++I)
    Proto +=
        ", " + paramType(I) + (I >= FirstDefault ? " = " + Defaults[I] : "");
  Proto += ");";
  const std::string Comment = "// decoupler: " + Name +
                              "'s launches go through this (defined below).\n";
  const bool CDefinition = cLinkageAfter(&K);
  StringRef Buf = SM.getBufferData(SM.getMainFileID());

  // After a declaration of the kernel in the main file before the launch:
  // in its namespace, its types declared.
  const FunctionDecl *Before = nullptr;
  SourceLocation Semi;
  for (const FunctionDecl *R : K.redecls()) {
    if (R == &K || R->isThisDeclarationADefinition() ||
        R->getFriendObjectKind() != Decl::FOK_None ||
        R->getLocation().isMacroID() || R->getEndLoc().isMacroID() ||
        !SM.isInMainFile(R->getLocation()) ||
        !SM.isBeforeInTranslationUnit(R->getEndLoc(), FirstLoc) ||
        !R->getLexicalDeclContext()->getRedeclContext()->Equals(
            K.getDeclContext()->getRedeclContext()) ||
        cLinkageAfter(R) != CDefinition)
      continue;
    std::optional<Token> T = Lexer::findNextToken(R->getEndLoc(), SM, LO);
    if (!T || !T->is(tok::semi) || T->getLocation().isMacroID())
      continue;
    if (!Before ||
        SM.isBeforeInTranslationUnit(Before->getLocation(), R->getLocation())) {
      Before = R;
      Semi = T->getLocation();
    }
  }
  if (Before) {
    // On the next line when the rest of the declaration's line is empty or
    // a line comment.
    const unsigned After = SM.getFileOffset(Semi) + 1;
    const size_t Eol = Buf.find('\n', After);
    StringRef Rest =
        Buf.slice(After, Eol == StringRef::npos ? Buf.size() : Eol).trim();
    const SourceLocation FileStart =
        SM.getLocForStartOfFile(SM.getMainFileID());
    if (Eol != StringRef::npos && (Rest.empty() || Rest.starts_with("//"))) {
      PrototypeAt = FileStart.getLocWithOffset(Eol + 1);
      Prototype = Comment + Proto + "\n";
    } else {
      PrototypeAt = FileStart.getLocWithOffset(After);
      Prototype = "\n" + Comment + Proto;
    }
    return DefaultsBefore(PrototypeAt);
  }

  // Otherwise before the top-level declaration holding the launch, in the
  // kernel's namespaces, after some declaration of the kernel.
  const Decl *Top = First->TopLevel;
  // (`__host__ void f()` begins with a macro: before its expansion.)
  SourceLocation At =
      Top ? SM.getExpansionLoc(Top->getBeginLoc()) : SourceLocation();
  if (Top)
    if (const RawComment *RC = Ctx.getRawCommentForDeclNoCache(Top))
      At = SM.getExpansionLoc(RC->getBeginLoc());
  const bool Declared =
      At.isValid() && any_of(K.redecls(), [&](const FunctionDecl *R) {
        return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(R->getEndLoc()),
                                            At);
      });
  if (!Declared || At.isMacroID() || !SM.isInMainFile(At))
    return LaunchProblem{FirstLoc,
                         "cannot declare '" + name() +
                             "' before this launch of '" + Name +
                             "' (no declaration of the kernel before the "
                             "declaration holding it)"};
  std::string Open, Close;
  const DeclContext *DC = K.getLexicalDeclContext();
  if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC); LS && !LS->hasBraces())
    DC = LS->getLexicalParent();
  for (; DC && !isa<TranslationUnitDecl>(DC); DC = DC->getLexicalParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      Open = std::string(NS->isInline() ? "inline " : "") + "namespace " +
             (NS->isAnonymousNamespace() ? "" : NS->getNameAsString() + " ") +
             "{ " + Open;
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC)) {
      Open = std::string(LS->getLanguage() == LinkageSpecLanguageIDs::C
                             ? "extern \"C\" { "
                             : "extern \"C++\" { ") +
             Open;
    } else {
      return LaunchProblem{
          FirstLoc, "cannot declare '" + name() + "' before this launch of '" +
                        Name + "' (the kernel is not at namespace scope)"};
    }
    Close += " }";
  }
  PrototypeAt = At;
  Prototype = Comment + Open + Proto + Close + "\n";
  return DefaultsBefore(PrototypeAt);
}

void LaunchRewriter::rewrite(Rewriter &R) const {
  for (size_t I = 0; I < Launches.size(); ++I) {
    const CUDAKernelCallExpr *L = Launches[I];
    const CallExpr *Config = L->getConfig();
    // <<<g, b[, shmem[, stream]]>>>: the text between the brackets, and 0
    // for what it leaves out.
    const SourceLocation Open =
        Lexer::getLocForEndOfToken(Config->getBeginLoc(), 0, SM, LO);
    const SourceLocation Close = Config->getRParenLoc();
    StringRef Buf = SM.getBufferData(SM.getFileID(Close));
    std::string Text =
        Buf.slice(SM.getFileOffset(Open), SM.getFileOffset(Close)).trim().str();
    for (unsigned Given = writtenArgs(Config); Given < 4; ++Given)
      Text += ", 0";
    // The arguments and the closing parenthesis stay as written.
    const SourceLocation LParen =
        Lexer::findNextToken(Close, SM, LO)->getLocation();
    R.ReplaceText(CharSourceRange::getCharRange(L->getBeginLoc(),
                                                LParen.getLocWithOffset(1)),
                  Calls[I] + "(" + Text + (writtenArgs(L) ? ", " : ""));
  }
  if (PrototypeAt.isValid())
    R.InsertTextBefore(PrototypeAt, Prototype);
}

} // namespace decoupler
