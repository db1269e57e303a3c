//===- dd/coarse_blocks.cuh - One block runs the threads of several -*- CUDA -*-===//
//
// A kernel launched with one thread per element and many small blocks does
// its block-level work once per few hundred elements. For a privatized
// histogram (dd::block_private) that work is clearing and merging a copy of
// the bins: a 256-thread block that merges 256 bins after 256 updates puts
// as many atomics on the global bins as it saved (docs/PERF.md, issue 15).
//
// dd::coarse_blocks lets one block run the threads of several consecutive
// blocks of the x dimension in turn, so that its copy is cleared and merged
// once for all of them:
//
//   __global__ void k(...) {
//     const dd::coarse_blocks dd_blocks;
//     if (dd_blocks.empty())
//       return;                          // another block runs this one's threads
//     ... construct the block-private copy ...
//     for (const uint3 blockIdx : dd_blocks) {   // shadows the builtin
//       <the kernel's body, each `return;` a `continue;`>
//     }
//     ... flush the copy ...
//   }
//
// Block b runs blocks b, b + 1, ..., b + factor - 1 (those below gridDim.x)
// when b is a multiple of `factor`; the other blocks return at once, which
// costs a block launch and no memory traffic. `factor` is a power of two,
// the one nearest the grid's threads over DD_COARSEN_WAVES times the threads
// the GPU holds at once (1 below 1.5), so the working blocks still fill the
// GPU several times over. The threads the GPU holds are an upper bound
// (%nsmid SM ids, 2048 threads an SM), so `factor` errs towards running as
// launched. A grid of fewer than six waves runs exactly as launched.
//
// What the caller must guarantee (the atomics pass proves it; docs/atomics.md,
// "One block for several"): the body's threads do not wait for one another
// (no barrier, no warp-collective function, no loop) and share nothing
// through shared memory; the body reads blockIdx only as the loop variable
// (not in functions it calls) and changes no kernel parameter. Then each
// thread of the coarse block runs, one after another, the bodies of the
// threads it stands for: one of the orders in which the grid as launched
// could have run them, so it computes what the grid as launched computes.
//
//===----------------------------------------------------------------------===//
#ifndef DD_COARSE_BLOCKS_CUH
#define DD_COARSE_BLOCKS_CUH

/// Waves of the GPU's resident blocks the coarse blocks of a grid fill.
/// Four keeps the last wave's tail short while one block runs the threads
/// of 16 of a 2^24-thread grid of 256-thread blocks on 132 SMs (the
/// grid-stride kernels of bench/histogram launch four waves the same way).
#ifndef DD_COARSEN_WAVES
#define DD_COARSEN_WAVES 4
#endif

namespace dd {

/// Consecutive blocks of the grid's x dimension one block runs (see the
/// file comment). Iterating over it yields each block's index as a uint3.
class coarse_blocks {
public:
  class iterator {
  public:
    __device__ __forceinline__ explicit iterator(unsigned x) : x_(x) {}
    __device__ __forceinline__ uint3 operator*() const { return make_uint3(x_, blockIdx.y, blockIdx.z); }
    __device__ __forceinline__ iterator &operator++() {
      ++x_;
      return *this;
    }
    __device__ __forceinline__ bool operator!=(const iterator &other) const { return x_ != other.x_; }

  private:
    unsigned x_;
  };

  __device__ __forceinline__ coarse_blocks() {
    const unsigned f = factor();
    // gridDim.x < 2^31 and f <= gridDim.x: the sum does not wrap.
    begin_ = (blockIdx.x & (f - 1)) == 0 ? blockIdx.x : gridDim.x;
    end_ = begin_ + f < gridDim.x ? begin_ + f : gridDim.x;
  }

  /// Whether this block runs no block's threads (another block runs its).
  __device__ __forceinline__ bool empty() const { return begin_ == end_; }
  /// How many blocks' threads this block runs.
  __device__ __forceinline__ unsigned count() const { return end_ - begin_; }
  __device__ __forceinline__ iterator begin() const { return iterator(begin_); }
  __device__ __forceinline__ iterator end() const { return iterator(end_); }

  /// Blocks of the x dimension a working block runs: the power of two
  /// nearest the grid's threads over DD_COARSEN_WAVES times the threads the
  /// GPU holds (2048 an SM), 1 below 1.5, at most gridDim.x. In floats and
  /// powers of two: the first version's integer divisions (a 64-bit one
  /// among them) made a grid of mostly returning blocks up to 2x slower, its
  /// cost paid by every block (docs/PERF.md, "One block for several").
  __device__ __forceinline__ static unsigned factor() {
    unsigned sms;
    asm("mov.u32 %0, %%nsmid;" : "=r"(sms));
    const float threads = static_cast<float>(blockDim.x * blockDim.y * blockDim.z) *
                          static_cast<float>(gridDim.x) *
                          static_cast<float>(gridDim.y) * static_cast<float>(gridDim.z);
    const float ratio = __fdividef(threads, static_cast<float>(sms) * (2048.0f * DD_COARSEN_WAVES));
    if (!(ratio >= 1.5f))
      return 1u;
    const int log2 = min(__float2int_rn(__log2f(ratio)), 31 - __clz(gridDim.x));
    return 1u << log2;
  }

private:
  unsigned begin_;
  unsigned end_;
};

} // namespace dd

#endif // DD_COARSE_BLOCKS_CUH
