//===- affine/JoinBlocks.cpp - Where divergent paths meet -----------------===//

#include "affine/JoinBlocks.h"
#include <algorithm>
#include <functional>

using namespace clang;
using namespace llvm;

namespace decoupler {

namespace {

template <typename Fn> void forEachSucc(const CFGBlock *B, Fn F) {
  for (const CFGBlock::AdjacentBlock &S : B->succs())
    if (const CFGBlock *Succ = S.getReachableBlock())
      F(Succ);
}

template <typename Fn> void forEachPred(const CFGBlock *B, Fn F) {
  for (const CFGBlock::AdjacentBlock &P : B->preds())
    if (const CFGBlock *Pred = P.getReachableBlock())
      F(Pred);
}

} // namespace

ControlStructure::ControlStructure(const CFG &G)
    : G(G), N(G.getNumBlockIDs()), Reachable(N) {
  computeOrder();
  computeLoops();
  computeExits();
}

void ControlStructure::computeExits() {
  IrreducibleLoop.assign(Loops.size(), false);
  for (unsigned L = 0; L < Loops.size(); ++L)
    for (auto [U, V] : IrreducibleEdges)
      if (Loops[L].test(U) && Loops[L].test(V))
        IrreducibleLoop[L] = true;
  ExitSets.assign(Loops.size(), BitVector(N));
  for (unsigned L = 0; L < Loops.size(); ++L)
    for (const CFGBlock *X : RPO)
      if (!Loops[L].test(X->getBlockID()))
        forEachPred(X, [&](const CFGBlock *P) {
          if (Loops[L].test(P->getBlockID()))
            ExitSets[L].set(X->getBlockID());
        });
}

void ControlStructure::computeOrder() {
  std::vector<const CFGBlock *> PostOrder;
  std::vector<std::pair<const CFGBlock *, std::vector<const CFGBlock *>>> Stack;
  auto Push = [&](const CFGBlock *B) {
    Reachable.set(B->getBlockID());
    std::vector<const CFGBlock *> Succs;
    forEachSucc(B, [&](const CFGBlock *S) { Succs.push_back(S); });
    std::reverse(Succs.begin(), Succs.end());
    Stack.push_back({B, std::move(Succs)});
  };
  Push(&G.getEntry());
  while (!Stack.empty()) {
    auto &[B, Succs] = Stack.back();
    if (Succs.empty()) {
      PostOrder.push_back(B);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *S = Succs.back();
    Succs.pop_back();
    if (!Reachable.test(S->getBlockID()))
      Push(S);
  }
  RPO.assign(PostOrder.rbegin(), PostOrder.rend());
  Position.assign(N, ~0u);
  for (unsigned I = 0; I < RPO.size(); ++I)
    Position[RPO[I]->getBlockID()] = I;
}

void ControlStructure::computeLoops() {
  // Dominators by the iterative bit-vector algorithm: kernels are small.
  std::vector<BitVector> Dom(N, BitVector(N, true));
  unsigned Entry = G.getEntry().getBlockID();
  Dom[Entry] = BitVector(N);
  Dom[Entry].set(Entry);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : RPO) {
      unsigned ID = B->getBlockID();
      if (ID == Entry)
        continue;
      BitVector New(N, true);
      bool Any = false;
      forEachPred(B, [&](const CFGBlock *P) {
        if (isReachable(P)) {
          New &= Dom[P->getBlockID()];
          Any = true;
        }
      });
      if (!Any)
        New.reset();
      New.set(ID);
      if (New != Dom[ID]) {
        Dom[ID] = std::move(New);
        Changed = true;
      }
    }
  }

  // Natural loops, one per header.
  DenseMap<unsigned, unsigned> LoopOfHeader;
  bool Irreducible = false;
  for (const CFGBlock *B : RPO) {
    forEachSucc(B, [&](const CFGBlock *H) {
      unsigned U = B->getBlockID(), V = H->getBlockID();
      if (Dom[U].test(V)) {
        auto [It, New] = LoopOfHeader.try_emplace(V, Loops.size());
        if (New) {
          Loops.emplace_back(N);
          Headers.emplace_back(N);
          Headers.back().set(V);
          Natural.push_back(true);
        }
        BitVector &L = Loops[It->second];
        L.set(V);
        std::vector<const CFGBlock *> Work{B};
        while (!Work.empty()) {
          const CFGBlock *X = Work.back();
          Work.pop_back();
          if (L.test(X->getBlockID()))
            continue;
          L.set(X->getBlockID());
          forEachPred(X, [&](const CFGBlock *P) {
            if (isReachable(P))
              Work.push_back(P);
          });
        }
      } else if (Position[V] <= Position[U]) {
        Irreducible = true; // a retreating edge that is not a back edge
        IrreducibleEdges.push_back({U, V});
      }
    });
  }
  if (!Irreducible)
    return;

  // Irreducible cycles have no single header: take each non-trivial strongly
  // connected component (Tarjan) that is not already a natural loop.
  std::vector<int> Index(N, -1), Low(N, 0);
  std::vector<bool> OnStack(N, false);
  std::vector<unsigned> Stack;
  int Counter = 0;
  std::function<void(const CFGBlock *)> Visit = [&](const CFGBlock *B) {
    unsigned V = B->getBlockID();
    Index[V] = Low[V] = Counter++;
    Stack.push_back(V);
    OnStack[V] = true;
    forEachSucc(B, [&](const CFGBlock *S) {
      unsigned W = S->getBlockID();
      if (Index[W] < 0) {
        Visit(S);
        Low[V] = std::min(Low[V], Low[W]);
      } else if (OnStack[W]) {
        Low[V] = std::min(Low[V], Index[W]);
      }
    });
    if (Low[V] != Index[V])
      return;
    BitVector Component(N);
    unsigned W;
    do {
      W = Stack.back();
      Stack.pop_back();
      OnStack[W] = false;
      Component.set(W);
    } while (W != V);
    bool Cycle = Component.count() > 1;
    if (!Cycle)
      forEachSucc(B, [&](const CFGBlock *S) { Cycle |= S == B; });
    if (Cycle && llvm::none_of(Loops, [&](const BitVector &L) {
          return L == Component;
        })) {
      // Its headers are its entries: blocks with a predecessor outside.
      BitVector Entries(N);
      for (const CFGBlock *X : RPO)
        if (Component.test(X->getBlockID()))
          forEachPred(X, [&](const CFGBlock *P) {
            if (isReachable(P) && !Component.test(P->getBlockID()))
              Entries.set(X->getBlockID());
          });
      Loops.push_back(std::move(Component));
      Headers.push_back(std::move(Entries));
      Natural.push_back(false);
    }
  };
  Visit(&G.getEntry());
}

int ControlStructure::innermostLoop(unsigned BlockID) const {
  int Innermost = -1;
  for (unsigned L = 0; L < Loops.size(); ++L)
    if (Loops[L].test(BlockID) &&
        (Innermost < 0 || Loops[L].count() < Loops[Innermost].count()))
      Innermost = int(L);
  return Innermost;
}

int ControlStructure::approximatedCycle(const CFGBlock *Branch) const {
  int Innermost = innermostLoop(Branch->getBlockID());
  if (Innermost >= 0 && IrreducibleLoop[Innermost] &&
      Loops[Innermost].count() > MaxExactIrreducibleBlocks)
    return Innermost;
  return -1;
}

const BitVector &ControlStructure::joinBlocks(const CFGBlock *Branch) {
  unsigned BranchID = Branch->getBlockID();
  auto Cached = JoinCache.find(BranchID);
  if (Cached != JoinCache.end())
    return Cached->second;

  int Innermost = approximatedCycle(Branch);
  if (Innermost >= 0) {
    // Every block of such a cycle reaches the same blocks, and labels wander
    // through it for many rounds per branch (1,600 labels of goto spaghetti:
    // rounds x blocks x branches dominated the analysis). Take every block
    // reachable from the cycle as a join and on the branch's paths: a
    // superset of the exact answer, so more values are divergent, never
    // fewer. Computed once per cycle.
    auto [It, New] = CycleReach.try_emplace(unsigned(Innermost));
    if (New) {
      BitVector &Reach = It->second;
      Reach.resize(N);
      std::vector<const CFGBlock *> Work;
      for (const CFGBlock *X : RPO)
        if (Loops[Innermost].test(X->getBlockID())) {
          Reach.set(X->getBlockID());
          Work.push_back(X);
        }
      while (!Work.empty()) {
        const CFGBlock *X = Work.back();
        Work.pop_back();
        forEachSucc(X, [&](const CFGBlock *S) {
          if (!Reach.test(S->getBlockID())) {
            Reach.set(S->getBlockID());
            Work.push_back(S);
          }
        });
      }
    }
    PathCache.try_emplace(BranchID, It->second);
    return JoinCache.try_emplace(BranchID, It->second).first->second;
  }

  // Label propagation: each block reached from the branch carries the
  // successor it was reached through; a block reached with two different
  // labels is a join and labels its own successors with itself. Paths stop
  // at the branch (a new instance of it is a new decision).
  constexpr int None = -1;
  std::vector<int> Label(N, None);
  BitVector IsSucc(N), Joins(N);
  forEachSucc(Branch, [&](const CFGBlock *S) { IsSucc.set(S->getBlockID()); });

  // Paths that leave the branch's innermost loop do not come back into it:
  // threads that left wait at the exit for the others, and the next entry
  // is a new instance of the branch (LLVM's SyncDependenceAnalysis
  // propagates the same way).
  const int InnerLoop = innermostLoop(BranchID);
  const BitVector *Inner = InnerLoop >= 0 ? &Loops[InnerLoop] : nullptr;
  auto Enters = [&](const CFGBlock *From, unsigned To) {
    return Inner && Inner->test(To) && !Inner->test(From->getBlockID());
  };
  // Nor do labels that come around a back edge to the header of a loop
  // holding the branch go on into the loop: the header may be a join, but
  // the threads meeting there start a new iteration together.
  // Instead, a header hands its label to the exits of its loop (LLVM's
  // rule): threads that went around leave through some exit later than the
  // threads that left directly, so the exits are on different sides.
  BitVector StopAt(N);
  std::vector<std::pair<const BitVector *, const BitVector *>>
      ExitsOf; // header set, exits
  // (Irreducible cycles have no such header: labels move freely in them.)
  for (unsigned L = 0; L < Loops.size(); ++L) {
    if (!Loops[L].test(BranchID) || !Natural[L])
      continue;
    StopAt |= Headers[L];
    ExitsOf.push_back({&Headers[L], &ExitSets[L]});
  }
  std::vector<int> HeaderLabel(N, None);

  // Rounds in reverse post-order until nothing changes, as a sweep over every
  // block would do, but evaluating only blocks whose inputs changed since
  // their last evaluation (a predecessor's label, the label of a header whose
  // exits they are): any other block would recompute its own state. The
  // sequence of states is the full sweep's; the cost is the blocks that move,
  // not rounds x blocks (issue 13, class 12: goto spaghetti).
  BitVector Now(N), Later(N); // by RPO position
  unsigned Pos = 0;
  auto MarkDirty = [&](unsigned ID) {
    if (!Reachable.test(ID))
      return;
    unsigned P = Position[ID];
    (P > Pos ? Now : Later).set(P);
  };
  forEachSucc(Branch,
              [&](const CFGBlock *S) { Now.set(Position[S->getBlockID()]); });

  unsigned Rounds = 0;
  while (Now.any()) {
    if (++Rounds > 4 * N + 8) {
      // Did not settle: be conservative, every reachable block joins and
      // lies on the branch's paths.
      Joins = Reachable;
      for (unsigned I = 0; I < N; ++I)
        if (Reachable.test(I))
          Label[I] = int(I);
      break;
    }
    for (int P = Now.find_first(); P >= 0; P = Now.find_next(P)) {
      Pos = unsigned(P);
      const CFGBlock *B = RPO[Pos];
      unsigned ID = B->getBlockID();
      // The branch's own block can be a join (paths from the previous
      // instance of the branch meet there), but labels do not flow through
      // it: its successors carry their own labels.
      int New = None;
      bool Join = Joins.test(ID);
      auto Meet = [&](int L) {
        if (L == None)
          return;
        if (New == None)
          New = L;
        else if (New != L)
          Join = true;
      };
      forEachPred(B, [&](const CFGBlock *Pred) {
        if (Pred->getBlockID() == BranchID)
          Meet(int(ID));
        else if (!Enters(Pred, ID))
          Meet(Label[Pred->getBlockID()]);
      });
      for (const auto &[Heads, Exits] : ExitsOf)
        if (Exits->test(ID))
          for (unsigned H : Heads->set_bits())
            Meet(HeaderLabel[H]);
      if (Join) {
        New = int(ID);
        Joins.set(ID);
      }
      if (StopAt.test(ID) && ID != BranchID && New != HeaderLabel[ID]) {
        HeaderLabel[ID] = New;
        for (const auto &[Heads, Exits] : ExitsOf)
          if (Heads->test(ID))
            for (unsigned X : Exits->set_bits())
              MarkDirty(X);
      }
      if (ID == BranchID || StopAt.test(ID))
        continue;
      if (New != Label[ID]) {
        Label[ID] = New;
        forEachSucc(B, [&](const CFGBlock *S) { MarkDirty(S->getBlockID()); });
      }
    }
    std::swap(Now, Later);
    Later.reset();
    Pos = 0;
  }
  BitVector Paths(N);
  for (unsigned I = 0; I < N; ++I)
    if (Label[I] != None)
      Paths.set(I);
  PathCache.try_emplace(BranchID, std::move(Paths));
  return JoinCache.try_emplace(BranchID, std::move(Joins)).first->second;
}

const std::vector<unsigned> &ControlStructure::loopExits(unsigned Loop) {
  auto [It, New] = ExitCache.try_emplace(Loop);
  if (New)
    for (const CFGBlock *X : RPO) // in reverse post-order, as callers expect
      if (ExitSets[Loop].test(X->getBlockID()))
        It->second.push_back(X->getBlockID());
  return It->second;
}

const BitVector &ControlStructure::pathBlocks(const CFGBlock *Branch) {
  joinBlocks(Branch);
  return PathCache.find(Branch->getBlockID())->second;
}

std::vector<unsigned>
ControlStructure::loopsDivergedBy(const CFGBlock *Branch) {
  const BitVector &Joins = joinBlocks(Branch);
  std::vector<unsigned> Result;
  unsigned ID = Branch->getBlockID();
  bool Approximated = approximatedCycle(Branch) >= 0;
  for (unsigned L = 0; L < Loops.size(); ++L) {
    if (!Loops[L].test(ID))
      continue;
    if (Approximated) { // conservatively: every loop holding the branch
      Result.push_back(L);
      continue;
    }
    // Threads leave at different iterations when the branch leads out of
    // the loop directly, or when its sides (through the header, which hands
    // its label to the exits) arrive at an exit with different labels.
    bool Diverged = false;
    forEachSucc(Branch, [&](const CFGBlock *S) {
      Diverged |= !Loops[L].test(S->getBlockID());
    });
    for (const CFGBlock *X : RPO) {
      if (Diverged)
        break;
      if (Loops[L].test(X->getBlockID()) || !Joins.test(X->getBlockID()))
        continue;
      forEachPred(X, [&](const CFGBlock *P) {
        Diverged |= Loops[L].test(P->getBlockID());
      });
    }
    if (Diverged)
      Result.push_back(L);
  }
  return Result;
}

} // namespace decoupler
