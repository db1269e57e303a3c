// Survey propagation's rounds on the GPU (docs/sp.md): the same synchronous
// schedule as the CPU reference, a thread per clause, in two variants that
// differ only in how a clause's factors reach its variables' products for
// the next round:
//   kAtomic      an atomic multiply (an atomicCAS loop on the double's bits),
//                as LonestarGPU's baseline updates its products;
//   kGather      no scatter at all: a second launch gives each variable a
//                thread that gathers its products (atomic-free by
//                synchronous processing; bit-identical to the CPU's).
// A plain store in place of the atomic (the papers' monotone store, in this
// clause-parallel form) lost most factors on the GPU and is not offered
// (docs/sp.md, "On the GPU").
// Decimation and WalkSAT stay on the host (solve(), sp.h).
#ifndef DD_SAT_SP_GPU_H
#define DD_SAT_SP_GPU_H

#include <cstdint>
#include <memory>

#include "sat/sp.h"

namespace dd::sat::gpu {

enum class Variant { kAtomic, kGather };

class GpuEngine : public Engine {
public:
  explicit GpuEngine(Variant variant);
  ~GpuEngine() override;
  GpuEngine(const GpuEngine &) = delete;
  GpuEngine &operator=(const GpuEngine &) = delete;

  /// Copies the formula's structure to the device (once per formula).
  Status upload(const FactorGraph &graph);
  /// Uploads the state (surveys, products, live clauses and edges), runs
  /// rounds until convergence or options.max_rounds, downloads the surveys
  /// and products. ms: CUDA events around the rounds.
  Expected<Convergence> converge(const FactorGraph &graph, SpState &state,
                                 const SpOptions &options) override;
  std::uint64_t launches() const override { return launches_; }

private:
  struct Buffers;
  Variant variant_;
  std::unique_ptr<Buffers> buffers_;
  std::uint64_t launches_ = 0;
};

} // namespace dd::sat::gpu

#endif // DD_SAT_SP_GPU_H
