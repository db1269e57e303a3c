// GPU matrix-factorization SGD (docs/sgd.md): a rating set on the device,
// trained by the edge-lock kernel of sgd_epoch.cu as written (Variant::kLocks)
// or as the delegate pass rewrote it (Variant::kDelegate), timed with CUDA
// events. The update rule, the initial vectors and the RMSE are those of the
// CPU reference (graph/ratings.h).
#ifndef DD_SGD_SGD_H
#define DD_SGD_SGD_H

#include <cstdint>
#include <vector>

#include "graph/errors.h"
#include "graph/ratings.h"
#include "sgd/kernel.h"

namespace dd::sgd {

enum class Variant { kLocks, kDelegate };

/// What one training run gives back.
struct Training {
  graph::LatentFactors factors;   ///< after the last epoch
  std::vector<unsigned> updates;  ///< per rating: how often its update ran
  std::vector<unsigned> user_updates;  ///< per user: updates of its vector
  std::vector<unsigned> item_updates;  ///< per item: updates of its vector
  double ms = 0;                  ///< GPU time of the epochs (CUDA events)
};

/// The device copy of a rating set and the buffers of its training.
class DeviceRatings {
public:
  DeviceRatings() = default;
  DeviceRatings(const DeviceRatings &) = delete;
  DeviceRatings &operator=(const DeviceRatings &) = delete;
  ~DeviceRatings();

  /// Copies `set` to the device and allocates vectors of length k, counters
  /// and locks. Errors name the CUDA failure (no device, out of memory).
  graph::Status upload(const graph::RatingSet &set, unsigned k);

  /// Trains from `initial` (sizes of the uploaded set and k) for
  /// params.epochs epochs: counters zeroed, locks freed, the epochs timed
  /// from the first launch to the end of the last.
  graph::Expected<Training> train(Variant variant, const graph::SgdParams &params,
                                  const graph::LatentFactors &initial);

private:
  void release();

  DeviceProblem problem_;
  unsigned num_users_ = 0, num_items_ = 0;
};

} // namespace dd::sgd

#endif // DD_SGD_SGD_H
