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

/// Who drives a convergence's rounds: a launch per phase and a copy of the
/// flag to the host after every round (kHost), or one cooperative launch
/// that runs them all, the grid syncing between phases and reading the
/// convergence flag itself (kDevice; the host loop where the device cannot
/// launch cooperatively). The rounds, and so the results, are the same; the
/// device loop saves the host's round trip a round, but its kernel holds
/// both phases' registers (docs/sp.md, "Who drives the rounds").
enum class RoundLoop { kHost, kDevice };

struct GatherArgs; // sp_kernels.h

class GpuEngine : public Engine {
public:
  explicit GpuEngine(Variant variant, RoundLoop loop = RoundLoop::kHost);
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
  /// The rounds in one cooperative launch; false (and nothing run) where
  /// the device cannot launch one.
  Expected<bool> converge_on_device(const FactorGraph &graph, const SpOptions &options,
                                    Convergence &result);
  /// gather by slot: every slot 1.0, the convergence's start (a dead
  /// edge's slot is never written); a launch counted in launches().
  void fill_slots_if_gather(const FactorGraph &graph);
  /// Where the gather reads the factors (sp_kernels.h).
  GatherArgs gather_args() const;
  /// gather: by slot (upload allocated the slots: they fit in L2) or by
  /// edge.
  bool by_slot() const;
  /// The surveys and products back into `state`.
  Expected<Convergence> download(SpState &state, const Convergence &result);
  Variant variant_;
  RoundLoop loop_;
  std::unique_ptr<Buffers> buffers_;
  std::uint64_t launches_ = 0;
};

} // namespace dd::sat::gpu

#endif // DD_SAT_SP_GPU_H
