//===- atomics/Privatize.h - Block-private copies of arrays ----*- C++ -*-===//
//
// The histogram shape: a kernel updates a small global array with atomics at
// data-dependent indices, `atomicAdd(&bins[key], 1)`, usually in a
// grid-stride loop. Warp aggregation cannot help when the lanes of a warp
// hit different bins, yet all blocks queue on the same few words in the L2.
// Privatization gives each block a copy of the array in shared memory and
// merges it once per block (<dd/privatize.cuh>, docs/atomics.md):
//
//   __global__ void k(const unsigned char *bytes, size_t n, unsigned *bins) {
//     for (...)
//       atomicAdd(&bins[bytes[i]], 1u);
//   }
//
// becomes
//
//   __global__ void k(const unsigned char *bytes, size_t n, unsigned *bins) {
//     __shared__ unsigned dd_private_storage_bins[256];
//     dd::block_private<dd::ops::add, unsigned> dd_private_bins(
//         dd_private_storage_bins, 256, bins, 256, 16);
//     for (...)
//       dd_private_bins.update(bytes[i], 1u);
//     dd_private_bins.flush();
//   }
//
// What makes it legal (each checked, else the atomic takes the usual path):
// the base is a kernel parameter or a __device__ array the kernel touches
// only through these atomics, all of one operation and type, results
// unused; every thread reaches the merge (a kernel that returns early is
// rewritten to jump to it, unless it also synchronizes its block); the
// kernel uses no dynamic shared memory and its static shared memory stays
// within 48 KiB. What makes it pay: a bounded index range (proved from the
// index, `& mask`, `% n`, a narrow type, min/clamp, an array's extent, or
// given by `#pragma dd atomic(privatize) range(N|param)`), small enough for
// shared memory; the runtime privatizes a block only when clearing and
// merging the copy is cheap for its size (dd::block_private). Indices
// outside the range still go to the global array: a wrong range costs
// speed, never results. Where no bound is known, or it is too large, and
// the atomic runs in a loop, the same object keeps a cache of the block's
// hot indices instead (range dd::unknown_range). A loop whose body is the
// privatized update (and pure declarations before it) is handed to
// dd::pipelined_updates, which loads several iterations ahead; a grid-stride
// walk over one array of narrow elements, to dd::grid_stride_updates first,
// which loads 16-byte vectors. A kernel of one update per thread whose
// threads never wait for one another has one block run the threads of
// several (dd::coarse_blocks), so that each copy is merged once for them.
//
// A copy whose range is known only at launch, or a cache, may lose a few
// percent to the atomics as written where a block's indices almost never
// repeat (uniform keys over a million bins). Where the kernel's launches are
// in the file, the pass keeps a copy of it as written (`k_as_written`) and
// launches through `k_launch`, which measures both and runs the faster
// (<dd/privatize_launch.h>).
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_ATOMICS_PRIVATIZE_H
#define DECOUPLER_ATOMICS_PRIVATIZE_H

#include "annotations/Annotations.h"
#include "pipeline/PassContext.h"
#include "support/CudaFacts.h"
#include "clang/AST/Expr.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace decoupler {

/// An upper bound of an index: indices lie in [0, Constant] or in
/// [0, Param), as far as the code shows (negative ones are not excluded:
/// they go to the global array at run time).
struct IndexBound {
  std::optional<uint64_t> Constant; ///< inclusive
  const clang::ParmVarDecl *Param = nullptr;
  /// How it was found, for the remark ("'& 255'", "the type 'unsigned
  /// char'").
  std::string How;
};

/// The bound of \p Index the code proves, if any. \p Kernel is the
/// function the index is computed in (parameters of it are bounds known at
/// launch).
std::optional<IndexBound> boundOf(clang::ASTContext &Ctx,
                                  const clang::Expr *Index,
                                  const clang::FunctionDecl *Kernel);

/// Plans and applies privatization for one file: offer() every atomic the
/// atomics pass would otherwise aggregate, plan() decides per array, then
/// privatized() or whyNot() answer per atomic and rewrite() edits the
/// kernels.
class Privatizer {
public:
  explicit Privatizer(PassContext &P);
  ~Privatizer();

  /// Considers \p Call (a device-scope add/sub/min/max/and/or/xor whose
  /// result is unused, of a type the runtime supports, at an address not
  /// affine in the thread index): held for plan(), or declined with a
  /// reason (whyNot()).
  void offer(const clang::CallExpr *Call, const AtomicCall &Atomic,
             llvm::StringRef TypeSpelling, const Annotation *Pragma);

  /// Checks each array as a whole, once every atomic has been offered.
  void plan();

  /// What an offered \p Call becomes when its array is privatized (the
  /// remark's text after "atomicAdd -> "); none when it is not.
  std::optional<std::string> privatized(const clang::CallExpr *Call) const;
  /// Why \p Call is not privatized.
  std::string whyNot(const clang::CallExpr *Call) const;

  /// Rewrites the kernels of the privatized arrays. Returns whether any.
  bool rewrite();

private:
  struct Array;
  struct Member;
  struct Launch;
  PassContext &P;
  std::vector<std::unique_ptr<Array>> Arrays;
  /// Per kernel whose privatization may lose to the atomics as written (a
  /// range known only at launch, or a cache): the launcher that chooses
  /// between them, or why there is none.
  std::map<const clang::FunctionDecl *, std::unique_ptr<Launch>> Launches;
  std::map<const clang::CallExpr *, std::string> Declined;
  /// Per kernel, why one block may not run the threads of several
  /// (dd::coarse_blocks); none where it may.
  mutable std::map<const clang::FunctionDecl *, std::optional<std::string>>
      CoarseBlockers;
  const std::optional<std::string> &
  coarseBlocker(const clang::FunctionDecl *Kernel) const;

  std::optional<std::string> consider(const clang::CallExpr *Call,
                                      const AtomicCall &Atomic,
                                      llvm::StringRef TypeSpelling,
                                      const Annotation *Pragma);
  const Array *arrayOf(const clang::CallExpr *Call) const;
  std::optional<std::string> checkArray(Array &A);
  void rewriteKernel(const clang::FunctionDecl *Kernel,
                     llvm::ArrayRef<Array *> InKernel);
  /// Calls \p Visit once per kernel with privatized arrays, in the order
  /// their first array was offered, with those arrays.
  void forEachKernel(llvm::function_ref<void(const clang::FunctionDecl *,
                                             llvm::ArrayRef<Array *>)>
                         Visit) const;
  void planLaunch(const clang::FunctionDecl *Kernel,
                  llvm::ArrayRef<Array *> InKernel);
  void emitLaunch(const clang::FunctionDecl *Kernel,
                  llvm::ArrayRef<Array *> InKernel, const Launch &L);
};

} // namespace decoupler

#endif // DECOUPLER_ATOMICS_PRIVATIZE_H
