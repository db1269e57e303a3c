//===- pipeline/FileAction.cpp - Everything decoupler does to one file ----===//

#include "pipeline/FileAction.h"
#include "affine/AffineAnalysis.h"
#include "annotations/Annotations.h"
#include "atomics/AtomicsPass.h"
#include "delegate/CriticalSection.h"
#include "delegate/DelegatePass.h"
#include "pipeline/PassContext.h"
#include "split/SplitPass.h"
#include "support/CudaFacts.h"
#include "support/FunctionIndex.h"
#include "support/Includes.h"
#include "support/LineEndings.h"
#include "support/PassDiagnostics.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include <optional>
#include <set>

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

/// The one table of rewrite passes (the names `--passes=` accepts), in the
/// order they run. The split pass first: a split copies its kernel's text,
/// which the later passes then leave alone. The delegate pass next: it
/// replaces whole loops, which the atomics pass then leaves alone.
struct PassInfo {
  StringRef Name;
  bool (*Run)(PassContext &);
};
const PassInfo Passes[] = {{"split", runSplitPass},
                           {"delegate", runDelegatePass},
                           {"atomics", runAtomicsPass}};

std::string targetKind(const Annotation &A) {
  if (A.TargetFunction)
    return "kernel";
  const Stmt *S = A.TargetStmt;
  while (const auto *L = dyn_cast<LabelStmt>(S))
    S = L->getSubStmt();
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    return "loop";
  return "statement";
}

AnnotationEntry toEntry(const Annotation &A, const SourceManager &SM) {
  AnnotationEntry E;
  E.Directive = toString(A.Kind).str();
  E.Pos = toPosition(SM, A.Loc);
  if (A.Enclosing)
    E.Function = A.Enclosing->getNameAsString();
  E.Target = targetKind(A);
  E.TargetPos =
      toPosition(SM, A.TargetFunction ? A.TargetFunction->getLocation()
                                      : A.TargetStmt->getBeginLoc());
  if (A.Depth)
    E.Clauses.push_back({"depth", std::to_string(*A.Depth)});
  if (A.Servers)
    E.Clauses.push_back({"servers", std::to_string(*A.Servers)});
  if (A.Locks)
    E.Clauses.push_back({"locks", std::to_string(*A.Locks)});
  if (A.Kind == Directive::Atomic)
    E.Clauses.push_back({"variant", toString(A.Variant).str()});
  return E;
}

std::string sourceText(const Expr *E, const SourceManager &SM,
                       const LangOptions &LO) {
  if (!E)
    return "";
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO)
      .str();
}

std::vector<std::string> names(ArrayRef<const ValueDecl *> Decls) {
  std::vector<std::string> Out;
  for (const ValueDecl *D : Decls)
    Out.push_back(D->getNameAsString());
  return Out;
}

/// A declaration of the program's that would capture the rewrites'
/// `dd::` (the runtime's namespace, at global scope): a type named `dd`,
/// including a template parameter, or a namespace or namespace alias named
/// `dd` other than a global one (a global `namespace dd` of the program's
/// merges with the runtime's); or one named like the rewrites' own
/// declarations, `dd_...`, which could shadow them or clash. Null when
/// there is none.
const NamedDecl *runtimeNameClash(ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager *SM = nullptr;
    const NamedDecl *Found = nullptr;
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitNamedDecl(NamedDecl *D) {
      const IdentifierInfo *Id = D->getIdentifier();
      // Not what a macro declares (the runtime's DD_CUDA_CHECK declares
      // `dd_cuda_check_err_` where it is used), nor the runtime's headers.
      const SourceLocation Loc = D->getLocation();
      if (Found || !Id || Loc.isMacroID() || SM->isInSystemHeader(Loc) ||
          SM->getFilename(Loc).contains("/dd/"))
        return !Found;
      // The names the rewrites declare all begin with `dd_`.
      if (Id->getName().starts_with("dd_")) {
        Found = D;
        return false;
      }
      if (Id->getName() != "dd")
        return true;
      const bool Global =
          D->getDeclContext()->getRedeclContext()->isTranslationUnit();
      if (isa<TypeDecl, ClassTemplateDecl, TypeAliasTemplateDecl,
              NamespaceAliasDecl>(D) ||
          (isa<NamespaceDecl>(D) && !Global))
        Found = D;
      return !Found;
    }
  } F;
  F.SM = &Ctx.getSourceManager();
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Found;
}

/// "a namespace", "a class", ...: what \p D is, for a message.
std::string kindOf(const NamedDecl *D) {
  if (isa<NamespaceDecl>(D))
    return "a namespace";
  if (isa<NamespaceAliasDecl>(D))
    return "a namespace alias";
  if (isa<TemplateTypeParmDecl>(D))
    return "a template parameter";
  if (isa<RecordDecl, ClassTemplateDecl>(D))
    return "a class";
  if (isa<EnumDecl>(D))
    return "an enumeration";
  if (isa<TypeDecl, TypeAliasTemplateDecl>(D))
    return "a type";
  if (isa<FunctionDecl, FunctionTemplateDecl>(D))
    return "a function";
  if (isa<FieldDecl>(D))
    return "a field";
  if (isa<VarDecl>(D))
    return "a variable";
  return "a declaration";
}

/// What the delegate pass makes of a `#pragma dd delegate` loop.
CriticalSectionEntry criticalSectionEntry(const Annotation &A,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CriticalSectionEntry E;
  E.Pos = toPosition(SM, A.TargetStmt->getBeginLoc());
  E.Function = A.Enclosing->getNameAsString();
  std::variant<CriticalSection, Refusal> M =
      matchCriticalSection(A.TargetStmt, *A.Enclosing, Ctx);
  if (const auto *R = std::get_if<Refusal>(&M)) {
    E.Reason = R->Message;
    E.ReasonPos = toPosition(SM, R->Loc);
    return E;
  }
  const CriticalSection &CS = std::get<CriticalSection>(M);
  E.Recognized = true;
  E.Shape = CS.Kind == CriticalSection::Shape::Single ? "single" : "nested";
  for (const LockRef &L : CS.Locks) {
    std::string Array = sourceText(L.Array, SM, Ctx.getLangOpts());
    E.Locks.push_back(
        L.Index ? Array + "[" + sourceText(L.Index, SM, Ctx.getLangOpts()) +
                      "]" + (L.Field ? "." + L.Field->getNameAsString() : "")
                : "*" + Array);
  }
  E.Message = names(CS.Message);
  // threadIdx.x and friends travel in the message too (the client's values).
  for (const CriticalSection::BuiltinUse &B : CS.Builtins)
    if (!llvm::is_contained(E.Message, B.Read.name()))
      E.Message.push_back(B.Read.name());
  E.Arguments = names(CS.Arguments);
  for (const VarDecl *V : CS.Replies)
    E.Replies.push_back(V->getNameAsString());
  E.Statements = CS.Body.size();
  return E;
}

/// The lines of \p Begin..\p End (expansion locations) as a report excerpt
/// named \p Function; none when the range is not within one file.
std::optional<SourceExcerpt> excerpt(const SourceManager &SM,
                                     SourceLocation Begin, SourceLocation End,
                                     StringRef Function) {
  Begin = SM.getExpansionLoc(Begin);
  End = SM.getExpansionRange(End).getEnd();
  FileID File = SM.getFileID(Begin);
  if (File.isInvalid() || File != SM.getFileID(End))
    return std::nullopt;
  PresumedLoc P = SM.getPresumedLoc(Begin);
  if (P.isInvalid())
    return std::nullopt;
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  SourceExcerpt Out;
  Out.Function = Function.str();
  if (!SM.isWrittenInMainFile(Begin))
    Out.File = P.getFilename();
  Out.FirstLine = P.getLine();
  unsigned First = SM.getLineNumber(File, SM.getFileOffset(Begin));
  unsigned Last = SM.getLineNumber(File, SM.getFileOffset(End));
  StringRef Rest =
      Buffer.drop_front(SM.getFileOffset(SM.translateLineCol(File, First, 1)));
  for (unsigned L = First; L <= Last && !Rest.empty(); ++L) {
    auto [Line, Next] = Rest.split('\n');
    Out.Lines.push_back(Line.rtrim('\r').str());
    Rest = Next;
  }
  return Out;
}

/// The source of every kernel (from the first annotation before it) and of
/// every function holding one of its accesses or branches, once each.
std::vector<SourceExcerpt>
reportSources(ASTContext &Ctx,
              ArrayRef<std::unique_ptr<KernelAnalysis>> Kernels,
              const AnnotationSet &Annotations, const FunctionIndex &Index) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<SourceExcerpt> Out;
  std::set<std::pair<std::string, unsigned>> Seen;
  auto Add = [&](const FunctionDecl *FD, SourceLocation Begin) {
    std::optional<SourceExcerpt> E =
        excerpt(SM, Begin, FD->getEndLoc(), FD->getNameAsString());
    if (E && Seen.insert({E->File, E->FirstLine}).second)
      Out.push_back(std::move(*E));
  };
  for (const std::unique_ptr<KernelAnalysis> &K : Kernels) {
    // Instantiations share their template's location.
    SourceLocation Begin = SM.getExpansionLoc(K->Kernel->getBeginLoc());
    for (const Annotation &A : Annotations.all())
      if (A.TargetFunction &&
          A.TargetFunction->getLocation() == K->Kernel->getLocation() &&
          SM.getFileID(SM.getExpansionLoc(A.Loc)) == SM.getFileID(Begin) &&
          SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.Loc), Begin))
        Begin = SM.getExpansionLoc(A.Loc);
    Add(K->Kernel, Begin);
  }
  for (const std::unique_ptr<KernelAnalysis> &K : Kernels) {
    std::vector<const Expr *> Items;
    for (const auto &Entry : K->Addresses)
      Items.push_back(Entry.first);
    for (const auto &Entry : K->Conditions)
      Items.push_back(Entry.first);
    // DenseMap order is arbitrary: take the functions in source order.
    llvm::sort(Items, [&](const Expr *A, const Expr *B) {
      return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A->getBeginLoc()),
                                          SM.getExpansionLoc(B->getBeginLoc()));
    });
    for (const Expr *E : Items)
      if (const FunctionDecl *FD = Index.enclosing(E->getBeginLoc()))
        Add(FD, FD->getBeginLoc());
  }
  return Out;
}

class FileConsumer : public ASTConsumer {
public:
  FileConsumer(const RunOptions &Options, FileResult &Result,
               AnnotationSet &Annotations, const IncludeSites &Sites,
               const SidePreprocessor &Preprocess,
               ArrayRef<std::string> GpuArchs)
      : Options(Options), Result(Result), Annotations(Annotations),
        Sites(Sites), Preprocess(Preprocess), GpuArchs(GpuArchs) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    if (Diags.hasErrorOccurred())
      return;
    Result.Parsed = true;
    if (!Annotations.attach(Ctx))
      return;
    // An annotation in an included file has no effect (only the main file
    // is rewritten): a warning, never silence, and no pass sees it.
    {
      PassDiagnostics Included(Diags, Options.RemarkAll, Options.Declined);
      Included.setPass("annotations");
      const SourceManager &SM = Ctx.getSourceManager();
      Annotations.dropIncluded(SM, [&](const Annotation &A) {
        const FunctionDecl *FD =
            A.TargetFunction ? A.TargetFunction : A.Enclosing;
        std::string What = FD ? describeFunction(FD) : std::string("it");
        Included.declined(A.Loc,
                          "'#pragma dd " + toString(A.Kind) +
                              "' has no effect: " + What +
                              " is in an included file (" +
                              llvm::sys::path::filename(SM.getFilename(A.Loc)) +
                              "), and only the main file is rewritten");
      });
    }

    SourceManager &SM = Ctx.getSourceManager();
    std::optional<FunctionIndex> Index;
    if (Options.RecordDecisions || (Options.Analyze && Options.KeepSources))
      Index.emplace(Ctx);
    PassDiagnostics AffineDiags(Diags, Options.RemarkAffine);
    AffineDiags.setPass("affine");
    if (Options.RecordDecisions)
      AffineDiags.recordInto(Result.Decisions, *Index);
    std::vector<std::unique_ptr<KernelAnalysis>> Kernels =
        analyzeKernels(Ctx, Options.RemarkAffine ? &AffineDiags : nullptr);
    Result.Kernels =
        llvm::count_if(Kernels, [](const std::unique_ptr<KernelAnalysis> &K) {
          return K->Kernel;
        });

    if (Options.Analyze) {
      FileReport &Report = Result.Report;
      if (OptionalFileEntryRef Main =
              SM.getFileEntryRefForID(SM.getMainFileID()))
        Report.File = Main->getName().str();
      for (const std::unique_ptr<KernelAnalysis> &K : Kernels)
        Report.Kernels.push_back(K->Report);
      for (const Annotation &A : Annotations.all()) {
        Report.Annotations.push_back(toEntry(A, SM));
        if (A.Kind == Directive::Delegate && A.TargetStmt && A.Enclosing)
          Report.CriticalSections.push_back(criticalSectionEntry(A, Ctx));
      }
      Report.Decouple = decoupleEntries(Ctx, Kernels, Annotations);
      if (Options.KeepSources)
        Report.Sources = reportSources(Ctx, Kernels, Annotations, *Index);
      // What the passes would decide, for the report; their diagnostics
      // and their rewrite are dropped (--analyze writes no source).
      if (Options.RecordDecisions)
        runPasses(Ctx, Kernels, &*Index, /*Silent=*/true);
    } else {
      Result.Rewritten = runPasses(Ctx, Kernels, Index ? &*Index : nullptr,
                                   /*Silent=*/false);
    }
    Result.Success = !Diags.hasErrorOccurred();
  }

private:
  /// Runs the selected rewrite passes; returns the rewritten main file.
  std::string runPasses(ASTContext &Ctx,
                        ArrayRef<std::unique_ptr<KernelAnalysis>> Kernels,
                        const FunctionIndex *Index, bool Silent) {
    Rewriter R(Ctx.getSourceManager(), Ctx.getLangOpts());
    InsertedLineEndings Endings(R);
    const unsigned IncludeAt = Sites.insertionOffset(Ctx);
    IncludeEditor Includes(R, IncludeAt, Sites.functionMacrosAt(IncludeAt));
    PassDiagnostics PassDiags(Ctx.getDiagnostics(), Options.RemarkAll,
                              Options.Declined);
    if (Silent)
      PassDiags.silence();
    if (Options.RecordDecisions)
      PassDiags.recordInto(Result.Decisions, *Index);
    std::vector<SourceRange> Claimed;
    DeviceView Device(Ctx, Preprocess, GpuArchs.vec());
    PassOptions PO;
    PO.SplitAuto = Options.SplitAuto;
    PO.DelegateAuto = Options.DelegateAuto;
    PO.AtomicsFloat = Options.AtomicsFloat;
    PassContext Context{Ctx,      Kernels, Annotations, R,     PassDiags,
                        Includes, PO,      Claimed,     Device};
    bool Changed = false;
    std::vector<std::pair<std::string, unsigned>> RewritesByPass;
    for (const PassInfo &Pass : Passes)
      if (Options.Passes.empty() ||
          llvm::is_contained(Options.Passes, Pass.Name.str())) {
        PassDiags.setPass(Pass.Name);
        Context.Rewrites = 0;
        Changed |= Pass.Run(Context);
        RewritesByPass.push_back({Pass.Name.str(), Context.Rewrites});
      }
    // Every rewrite calls the runtime as `dd::...`: where the program
    // declares its own `dd`, that would name it instead and the output
    // would not compile, so the rewrite is dropped.
    const NamedDecl *Clash = Changed ? runtimeNameClash(Ctx) : nullptr;
    if (Clash) {
      PassDiags.setPass("decoupler");
      const std::string Name = Clash->getQualifiedNameAsString();
      const std::string Why =
          "nothing rewritten: the program declares '" + Name + "' (" +
          kindOf(Clash) + "), " +
          (Clash->getName() == "dd"
               ? "which the rewrite's calls into the runtime, spelled "
                 "'dd::', would name instead of the runtime's namespace"
               : "and the names the rewrite declares begin with 'dd_': "
                 "one could shadow it or clash with it");
      if (Annotations.all().empty())
        PassDiags.declined(Clash->getLocation(), Why);
      else
        PassDiags.error(Clash->getLocation(), Why);
      Changed = false;
      for (auto &Pass : RewritesByPass)
        Pass.second = 0;
    }
    if (!Silent) {
      Result.Changed = Changed;
      Result.RewritesByPass = std::move(RewritesByPass);
      Result.Refusals = PassDiags.errors();
      Result.Declines = PassDiags.declines();
    }
    Includes.finish();
    // Byte for byte the input when no pass changed anything; inserted
    // lines end as the file's lines do.
    if (Clash)
      return Ctx.getSourceManager()
          .getBufferData(Ctx.getSourceManager().getMainFileID())
          .str();
    return Endings.text();
  }

  const RunOptions &Options;
  FileResult &Result;
  AnnotationSet &Annotations;
  const IncludeSites &Sites;
  const SidePreprocessor &Preprocess;
  ArrayRef<std::string> GpuArchs;
};

class FileAction : public ASTFrontendAction {
public:
  FileAction(const RunOptions &Options, FileResult &Result,
             SidePreprocessor Preprocess, std::vector<std::string> GpuArchs)
      : Options(Options), Result(Result), Preprocess(std::move(Preprocess)),
        GpuArchs(std::move(GpuArchs)) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Result = FileResult();
    Sites = IncludeSites();
    Dependencies = std::make_shared<DependencyCollector>();
    Dependencies->attachToPreprocessor(CI.getPreprocessor());
    Annotations.registerPragmaHandler(CI.getPreprocessor());
    CI.getPreprocessor().addPPCallbacks(Sites.recorder(CI.getSourceManager()));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    return std::make_unique<FileConsumer>(Options, Result, Annotations, Sites,
                                          Preprocess, GpuArchs);
  }

  void EndSourceFileAction() override {
    if (getCompilerInstance().getDiagnostics().hasErrorOccurred())
      Result.Success = false;
    if (Dependencies) {
      ArrayRef<std::string> Deps = Dependencies->getDependencies();
      Result.Dependencies.assign(Deps.begin(), Deps.end());
    }
  }

private:
  const RunOptions &Options;
  FileResult &Result;
  AnnotationSet Annotations;
  IncludeSites Sites;
  std::shared_ptr<DependencyCollector> Dependencies;
  SidePreprocessor Preprocess;
  std::vector<std::string> GpuArchs;
};

} // namespace

const std::vector<std::string> &availablePasses() {
  static const std::vector<std::string> Available = [] {
    std::vector<std::string> Names;
    for (const PassInfo &Pass : Passes)
      Names.push_back(Pass.Name.str());
    return Names;
  }();
  return Available;
}

bool isKnownPass(StringRef Name) {
  return llvm::any_of(Passes,
                      [&](const PassInfo &Pass) { return Pass.Name == Name; });
}

std::unique_ptr<FrontendAction>
createFileAction(const RunOptions &Options, FileResult &Result,
                 SidePreprocessor Preprocess,
                 std::vector<std::string> GpuArchs) {
  return std::make_unique<FileAction>(Options, Result, std::move(Preprocess),
                                      std::move(GpuArchs));
}

} // namespace decoupler
