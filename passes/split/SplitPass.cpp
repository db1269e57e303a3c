//===- split/SplitPass.cpp - The affine-stream split pass (planning) ------===//

#include "split/SplitPass.h"
#include "split/SplitModel.h"
#include "split/SplitPlan.h"
#include "split/SplitRewrite.h"
#include "support/Includes.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <set>

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

using split::LoopPlan;
using split::Outcome;

const KernelAnalysis *
findKernel(ArrayRef<std::unique_ptr<KernelAnalysis>> Kernels,
           const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  for (const std::unique_ptr<KernelAnalysis> &K : Kernels)
    if (K->Kernel && K->Kernel->getCanonicalDecl() == FD->getCanonicalDecl())
      return K.get();
  return nullptr;
}

const Stmt *skipLabels(const Stmt *S) {
  while (const auto *L = dyn_cast_or_null<LabelStmt>(S))
    S = L->getSubStmt();
  while (const auto *A = dyn_cast_or_null<AttributedStmt>(S))
    S = A->getSubStmt();
  return S;
}

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// The outermost loops of \p S (not looking into loops).
void outermostLoops(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (isLoop(S)) {
    Out.push_back(S);
    return;
  }
  if (isa<LambdaExpr>(S))
    return;
  for (const Stmt *C : S->children())
    outermostLoops(C, Out);
}

void allLoops(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ForStmt>(S))
    Out.push_back(S);
  for (const Stmt *C : S->children())
    allLoops(C, Out);
}

/// One job for the planner: a loop and how it was asked for.
struct Job {
  const Stmt *Loop = nullptr;
  const KernelAnalysis *Kernel = nullptr;
  const Annotation *Annot = nullptr; // null under --split=auto
  /// An annotation that cannot be planned at all (not in a kernel, no loop).
  std::string Error;
  SourceLocation ErrorLoc;
};

std::vector<Job>
annotatedJobs(ArrayRef<std::unique_ptr<KernelAnalysis>> Kernels,
              const AnnotationSet &Annotations) {
  std::vector<Job> Jobs;
  for (const Annotation &A : Annotations.all()) {
    if (A.Kind != Directive::Decouple)
      continue;
    Job J;
    J.Annot = &A;
    const FunctionDecl *FD = A.TargetFunction ? A.TargetFunction : A.Enclosing;
    J.Kernel = findKernel(Kernels, FD);
    if (!J.Kernel) {
      J.Error = FD && FD->isTemplated() ? "'#pragma dd decouple' in a kernel "
                                          "template is not supported yet"
                                        : "'#pragma dd decouple' must annotate "
                                          "a kernel or a loop in a kernel";
      J.ErrorLoc = A.Loc;
      Jobs.push_back(J);
      continue;
    }
    if (A.TargetStmt) {
      J.Loop = skipLabels(A.TargetStmt);
      if (!isLoop(J.Loop)) {
        J.Error = "'#pragma dd decouple' must annotate a loop or a kernel";
        J.ErrorLoc = A.Loc;
      }
      Jobs.push_back(J);
      continue;
    }
    std::vector<const Stmt *> Loops;
    outermostLoops(J.Kernel->Kernel->getBody(), Loops);
    if (Loops.empty()) {
      J.Error = "kernel '" + J.Kernel->Kernel->getNameAsString() +
                "' has no loop to decouple";
      J.ErrorLoc = A.Loc;
      Jobs.push_back(J);
    }
    for (const Stmt *L : Loops) {
      J.Loop = L;
      Jobs.push_back(J);
    }
  }
  return Jobs;
}

LoopPlan plan(const Job &J, ASTContext &Ctx) {
  split::PlanOptions O;
  O.Annotated = J.Annot != nullptr;
  if (J.Annot) {
    O.Depth = J.Annot->Depth;
    O.DepthLoc = J.Annot->Loc;
  }
  return split::planLoop(J.Loop, *J.Kernel, Ctx, O);
}

std::string acceptedText(const LoopPlan &P) {
  std::string Out = "split plan for loop: " + split::describe(P) +
                    formatv("; predicted {0:f1}x", P.Gain).str();
  if (P.TripCount)
    Out += formatv("; {0} iterations per block", *P.TripCount).str();
  else
    Out +=
        formatv(
            "; profitable only for blocks of >= {0} iterations (to be checked "
            "at launch)",
            P.MinTripCount)
            .str();
  if (P.PreferHoist)
    Out +=
        "; a store may alias the loads, so the cheaper restrict/hoist rewrite "
        "(split-study.md rule 5) applies and should be preferred";
  if (!P.BlockKnown)
    Out += "; the block size must be checked to be a multiple of 32 at launch";
  for (const std::string &Why : P.DistinctBuffers)
    Out += "; no store writes a stream: " + Why;
  return Out;
}

} // namespace

bool runSplitPass(PassContext &PC) {
  ASTContext &Ctx = PC.Ctx;
  Rewriter &R = PC.R;
  PassDiagnostics &Diags = PC.Diags;
  std::vector<SourceRange> &Replaced = PC.Claimed;
  bool Ok = true;
  bool Changed = false;
  std::vector<const Stmt *> Planned;
  std::vector<std::pair<Job, LoopPlan>> Plans;
  for (const Job &J : annotatedJobs(PC.Kernels, PC.Annotations)) {
    if (J.Error.empty()) {
      Planned.push_back(J.Loop);
      Plans.emplace_back(J, plan(J, Ctx));
      Ok &= Plans.back().second.Result != Outcome::Refused;
    } else {
      Plans.emplace_back(J, LoopPlan());
      Ok = false;
    }
  }
  // The split copies and edits the host view of the kernel: it must be the
  // code the GPU compiles (support/DeviceView.h).
  auto DeviceDiffers = [&](const FunctionDecl *K, split::RewriteResult &Done) {
    std::optional<DeviceView::Divergence> D = PC.Device.divergence(K);
    if (D) {
      Done.Message = D->Message;
      Done.Loc = D->Loc;
    }
    return D.has_value();
  };
  // The producer warp's ring (dd/affine_queue.cuh) needs sm_80: a file
  // also compiled for an older GPU keeps its loops (the restrict/hoist
  // rewrite needs nothing new and still applies).
  auto OlderGpu = [&](split::RewriteResult &Done) {
    std::optional<std::string> Arch = PC.Device.archBelow(80);
    if (Arch)
      Done.Message = "the file is also compiled for " + *Arch +
                     ", and the producer warp's ring needs sm_80 or newer "
                     "(cp.async, mbarrier)";
    return Arch.has_value();
  };
  // In source order; code generation only when no annotated loop was
  // refused (an error means no output anyway).
  split::RewriteState State;
  for (const auto &[J, P] : Plans) {
    if (!J.Error.empty()) {
      Diags.error(J.ErrorLoc, J.Error);
      continue;
    }
    if (P.Result == Outcome::Refused) {
      Diags.error(J.Loop->getBeginLoc(),
                  "cannot decouple this loop: " + P.Reason);
      if (P.ReasonLoc != J.Loop->getBeginLoc())
        Diags.note(P.ReasonLoc, "here");
      continue;
    }
    if (P.Result == Outcome::Declined) {
      // Rule 5 does not need the ring: a loop whose loads wait only on a
      // store that may alias them gains from restrict/unroll even where a
      // split would not pay (the study's stencil: 1.15x); not where the
      // original already keeps the memory system busy (gather S=8: 1.01x).
      if (Ok && P.PreferHoist && J.Annot &&
          P.InFlightBytes < split::CostModel::BandwidthBoundInFlightBytes &&
          !PC.Device.divergence(P.Kernel)) {
        split::RewriteResult Done =
            split::rewriteHoist(P, *J.Annot, Ctx, R, State);
        if (Done.Done) {
          Changed = true;
          ++PC.Rewrites;
          Diags.rewritten(J.Loop->getBeginLoc(),
                          "not splitting this loop: " + P.Reason +
                              "; rewritten: " + Done.Message);
          continue;
        }
      }
      // The user asked for this loop: declining it is a warning.
      Diags.declined(J.Loop->getBeginLoc(), "loop not decoupled: " + P.Reason);
      continue;
    }
    split::RewriteResult Done;
    if (!Ok)
      Done.Message = "another annotated loop of the file was refused";
    else if (DeviceDiffers(P.Kernel, Done))
      ;
    else if (P.PreferHoist)
      Done = split::rewriteHoist(P, *J.Annot, Ctx, R, State);
    else if (OlderGpu(Done))
      ;
    else
      Done = split::rewriteSplit(P, *J.Kernel, J.Annot, Ctx, R, State);
    if (Done.Done) {
      Changed = true;
      ++PC.Rewrites;
      Diags.rewritten(J.Loop->getBeginLoc(),
                      acceptedText(P) + "; rewritten: " + Done.Message);
      if (!P.PreferHoist)
        Replaced.push_back(P.Kernel->getSourceRange());
      continue;
    }
    Diags.declined(J.Loop->getBeginLoc(),
                   "loop not decoupled: " + acceptedText(P) +
                       "; not rewritten: " + Done.Message);
    if (Done.Loc.isValid() && Done.Loc != J.Loop->getBeginLoc())
      Diags.note(Done.Loc, "here");
  }
  if (!PC.Options.SplitAuto) {
    if (State.NeedsRuntime)
      PC.Includes.ensure("dd/split_launch.h");
    return Changed;
  }
  // A template's loop is planned in each instantiation, at one location:
  // say each different reason once (gups' d_bench<M>: five alike).
  std::set<std::pair<unsigned, std::string>> Said;
  auto Remark = [&](const Stmt *L, const std::string &Message) {
    if (Said.insert({L->getBeginLoc().getRawEncoding(), Message}).second)
      Diags.remark(L->getBeginLoc(), Message);
  };
  for (const std::unique_ptr<KernelAnalysis> &K : PC.Kernels) {
    if (!K->Kernel || !K->Kernel->hasBody())
      continue;
    std::vector<const Stmt *> Loops;
    allLoops(K->Kernel->getBody(), Loops);
    for (const Stmt *L : Loops) {
      if (is_contained(Planned, L))
        continue;
      // A loop no path of this instantiation reaches (under `if
      // (std::is_same_v<T, float>)` in the others) has no classes: say so,
      // not that its condition is nonaffine.
      if (const auto *FS = dyn_cast<ForStmt>(L);
          FS && FS->getCond() && !K->reached(FS->getCond())) {
        std::string Name;
        llvm::raw_string_ostream OS(Name);
        K->Kernel->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), true);
        Diags.remark(L->getBeginLoc(),
                     "--split=auto: loop not analysed in '" + Name +
                         "': no path from the kernel's entry reaches it (a "
                         "condition known at compile time, or a return, "
                         "comes first)");
        continue;
      }
      Job J;
      J.Loop = L;
      J.Kernel = K.get();
      LoopPlan P = plan(J, Ctx);
      // Loops without a load to stream are not candidates: say nothing.
      if (P.NoStream)
        continue;
      switch (P.Result) {
      case Outcome::Refused:
        Remark(L, "--split=auto: loop not eligible: " + P.Reason);
        break;
      case Outcome::Declined:
        Remark(L, "--split=auto: not splitting this loop: " + P.Reason);
        break;
      case Outcome::Accepted: {
        // Without an annotation there is no promise about aliasing, so the
        // planner accepts no loop whose stores may alias its streams: rule
        // 5 never applies here, the split only where the code generator
        // handles the loop. A rewrite is said without -Rdecoupler, as the
        // delegate pass does under --delegate=auto.
        split::RewriteResult Done;
        if (!Ok)
          Done.Message = "an annotated loop of the file was refused";
        else if (DeviceDiffers(P.Kernel, Done))
          ;
        else if (P.PreferHoist)
          Done.Message = "the restrict/hoist rewrite needs the annotation's "
                         "promise that the "
                         "pointers do not alias";
        else if (OlderGpu(Done))
          ;
        else
          Done = split::rewriteSplit(P, *K, nullptr, Ctx, R, State);
        if (Done.Done) {
          Changed = true;
          ++PC.Rewrites;
          Replaced.push_back(P.Kernel->getSourceRange());
          Diags.rewritten(L->getBeginLoc(),
                          "--split=auto: " + acceptedText(P) +
                              "; rewritten: " + Done.Message,
                          /*Always=*/true);
        } else {
          Remark(L, "--split=auto: " + acceptedText(P) +
                        "; not rewritten: " + Done.Message);
        }
        break;
      }
      }
    }
  }
  if (State.NeedsRuntime)
    PC.Includes.ensure("dd/split_launch.h");
  return Changed;
}

std::vector<DecoupleEntry>
decoupleEntries(ASTContext &Ctx,
                const std::vector<std::unique_ptr<KernelAnalysis>> &Kernels,
                const AnnotationSet &Annotations) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<DecoupleEntry> Entries;
  for (const Job &J : annotatedJobs(Kernels, Annotations)) {
    DecoupleEntry E;
    if (J.Annot->Enclosing)
      E.Function = J.Annot->Enclosing->getNameAsString();
    else if (J.Annot->TargetFunction)
      E.Function = J.Annot->TargetFunction->getNameAsString();
    if (!J.Error.empty()) {
      E.Pos = toPosition(SM, J.ErrorLoc);
      E.Status = "refused";
      E.Reason = J.Error;
      E.ReasonPos = E.Pos;
      Entries.push_back(E);
      continue;
    }
    LoopPlan P = plan(J, Ctx);
    E.Pos = toPosition(SM, J.Loop->getBeginLoc());
    E.Status = P.Result == Outcome::Accepted   ? "accepted"
               : P.Result == Outcome::Declined ? "declined"
                                               : "refused";
    if (P.Result != Outcome::Accepted) {
      E.Reason = P.Reason;
      E.ReasonPos = toPosition(SM, P.ReasonLoc);
    }
    for (const split::Stream &S : P.Streams) {
      std::string Note = S.Merged ? "one copy per stage" : "";
      if (S.Halo)
        Note += Note.empty() ? "halo" : ", halo";
      if (!S.RingBytes)
        Note += Note.empty() ? "shares a tile" : ", shares a tile";
      E.Streams.push_back(
          {S.Text, toPosition(SM, S.Load->getBeginLoc()), Note});
    }
    for (const split::ConsumerLoad &C : P.Consumers)
      E.Consumers.push_back(
          {C.Text, toPosition(SM, C.Load->getBeginLoc()), C.Why});
    E.Shaped = P.U > 0;
    E.BlockThreads = P.BlockThreads;
    E.BlockKnown = P.BlockKnown;
    E.U = P.U;
    E.Depth = P.Depth;
    E.StageBytes = P.StageBytes;
    E.SharedBytes = P.SharedBytes;
    E.Costed = P.Gain > 0;
    E.MLP = P.MLP;
    E.InFlightBytes = P.InFlightBytes;
    E.Gain = P.Gain;
    E.PreferHoist = P.PreferHoist;
    E.TripCount = P.TripCount;
    E.MinTripCount = P.MinTripCount;
    Entries.push_back(E);
  }
  return Entries;
}

} // namespace decoupler
