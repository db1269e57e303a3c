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
  std::vector<unsigned> Position(N, ~0u);
  for (unsigned I = 0; I < RPO.size(); ++I)
    Position[RPO[I]->getBlockID()] = I;
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
    if (Cycle && llvm::none_of(Loops, [&](const BitVector &L) { return L == Component; })) {
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

const BitVector &ControlStructure::joinBlocks(const CFGBlock *Branch) {
  unsigned BranchID = Branch->getBlockID();
  auto Cached = JoinCache.find(BranchID);
  if (Cached != JoinCache.end())
    return Cached->second;

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
  const BitVector *Inner = nullptr;
  for (const BitVector &L : Loops)
    if (L.test(BranchID) && (!Inner || L.count() < Inner->count()))
      Inner = &L;
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
  std::vector<std::pair<const BitVector *, BitVector>> ExitsOf; // header set, exits
  // (Irreducible cycles have no such header: labels move freely in them.)
  for (unsigned L = 0; L < Loops.size(); ++L) {
    if (!Loops[L].test(BranchID) || !Natural[L])
      continue;
    StopAt |= Headers[L];
    BitVector Exits(N);
    for (const CFGBlock *X : RPO)
      if (!Loops[L].test(X->getBlockID()))
        forEachPred(X, [&](const CFGBlock *P) {
          if (Loops[L].test(P->getBlockID()))
            Exits.set(X->getBlockID());
        });
    ExitsOf.push_back({&Headers[L], std::move(Exits)});
  }
  std::vector<int> HeaderLabel(N, None);

  unsigned Rounds = 0;
  for (bool Changed = true; Changed;) {
    Changed = false;
    if (++Rounds > 4 * N + 8) {
      // Did not settle: be conservative, every reachable block joins and
      // lies on the branch's paths.
      Joins = Reachable;
      for (unsigned I = 0; I < N; ++I)
        if (Reachable.test(I))
          Label[I] = int(I);
      break;
    }
    for (const CFGBlock *B : RPO) {
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
      forEachPred(B, [&](const CFGBlock *P) {
        if (P->getBlockID() == BranchID)
          Meet(int(ID));
        else if (!Enters(P, ID))
          Meet(Label[P->getBlockID()]);
      });
      for (const auto &[Heads, Exits] : ExitsOf)
        if (Exits.test(ID))
          for (unsigned H : Heads->set_bits())
            Meet(HeaderLabel[H]);
      if (Join) {
        New = int(ID);
        if (!Joins.test(ID)) {
          Joins.set(ID);
          Changed = true;
        }
      }
      if (StopAt.test(ID) && ID != BranchID && New != HeaderLabel[ID]) {
        HeaderLabel[ID] = New;
        Changed = true;
      }
      if (ID == BranchID || StopAt.test(ID))
        continue;
      if (New != Label[ID]) {
        Label[ID] = New;
        Changed = true;
      }
    }
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
  if (!New)
    return It->second;
  std::vector<unsigned> Exits;
  for (const CFGBlock *X : RPO) {
    if (Loops[Loop].test(X->getBlockID()))
      continue;
    bool Exit = false;
    forEachPred(X, [&](const CFGBlock *P) { Exit |= Loops[Loop].test(P->getBlockID()); });
    if (Exit)
      Exits.push_back(X->getBlockID());
  }
  It->second = std::move(Exits);
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
  for (unsigned L = 0; L < Loops.size(); ++L) {
    if (!Loops[L].test(ID))
      continue;
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
