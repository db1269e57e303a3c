//===- affine/JoinBlocks.h - Where divergent paths meet ---------*- C++ -*-===//
//
// Control structure of one function's CFG needed for sync dependence:
//  - the join blocks of a branch: blocks reached from two different
//    successors of the branch by paths that meet first there (LLVM's
//    SyncDependenceAnalysis computes the same set by label propagation);
//  - the loops (natural loops, plus the strongly connected region of every
//    irreducible cycle) and which loops a branch can leave.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_AFFINE_JOINBLOCKS_H
#define DECOUPLER_AFFINE_JOINBLOCKS_H

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace decoupler {

class ControlStructure {
public:
  explicit ControlStructure(const clang::CFG &G);

  /// Blocks reachable from the entry, in reverse post-order.
  const std::vector<const clang::CFGBlock *> &reversePostOrder() const {
    return RPO;
  }
  bool isReachable(const clang::CFGBlock *B) const {
    return Reachable.test(B->getBlockID());
  }

  /// The cycle whose join blocks stand for those of \p Branch when they are
  /// approximated (a large cycle with irreducible flow: every block
  /// reachable from it), or -1 when they are exact. Branches of one such
  /// cycle share their joins, paths and diverged loops.
  int approximatedCycle(const clang::CFGBlock *Branch) const;

  /// Join blocks of the branch ending block \p Branch (cached).
  const llvm::BitVector &joinBlocks(const clang::CFGBlock *Branch);
  /// Blocks on paths from the branch: reachable from one of its successors
  /// without passing through it again (cached with the joins). At a join,
  /// only predecessors in this set bring values that the branch chose.
  const llvm::BitVector &pathBlocks(const clang::CFGBlock *Branch);

  /// Loops (as block sets) in which \p Branch, when divergent, makes threads
  /// leave after different numbers of iterations: it leads out of the loop
  /// directly, or its sides reach an exit of the loop with different labels
  /// (the loop header hands the label it receives to the loop's exits).
  std::vector<unsigned> loopsDivergedBy(const clang::CFGBlock *Branch);
  const llvm::BitVector &loopBlocks(unsigned Loop) const { return Loops[Loop]; }
  /// Blocks outside loop \p Loop with a predecessor in it (cached).
  const std::vector<unsigned> &loopExits(unsigned Loop);
  unsigned numLoops() const { return Loops.size(); }

  /// Cycles with irreducible flow inside and more blocks than this get
  /// conservative join blocks (every block reachable from the cycle) instead
  /// of label propagation, which costs rounds x blocks per branch there.
  static constexpr unsigned MaxExactIrreducibleBlocks = 256;

private:
  const clang::CFG &G;
  unsigned N;
  llvm::BitVector Reachable;
  std::vector<const clang::CFGBlock *> RPO;
  std::vector<unsigned> Position; // block ID -> index in RPO (~0u: unreachable)
  std::vector<llvm::BitVector> Loops;
  std::vector<llvm::BitVector> Headers; // per loop: its entry blocks
  std::vector<bool> Natural;            // per loop: one header dominates it
  std::vector<llvm::BitVector>
      ExitSets; // per loop: blocks outside it with a predecessor in it
  /// Retreating edges whose target does not dominate their source.
  std::vector<std::pair<unsigned, unsigned>> IrreducibleEdges;
  std::vector<bool> IrreducibleLoop; // per loop: holds such an edge
  llvm::DenseMap<unsigned, llvm::BitVector>
      CycleReach; // per loop: reachable from it
  llvm::DenseMap<unsigned, llvm::BitVector> JoinCache;
  llvm::DenseMap<unsigned, llvm::BitVector> PathCache;
  llvm::DenseMap<unsigned, std::vector<unsigned>> ExitCache;

  void computeOrder();
  void computeLoops();
  void computeExits();
  /// The smallest loop (cycle) holding block \p BlockID, or -1.
  int innermostLoop(unsigned BlockID) const;
};

} // namespace decoupler

#endif // DECOUPLER_AFFINE_JOINBLOCKS_H
