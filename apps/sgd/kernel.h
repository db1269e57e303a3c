// The SGD epoch kernel's host entry, declared once for its two builds:
// dd::sgd::locks (sgd_epoch.cu as written: global try-locks) and
// dd::sgd::delegate (the same file rewritten by decoupler --passes=delegate at
// build time). apps/sgd/CMakeLists.txt compiles sgd_epoch.cu into each with
// DD_SGD_VARIANT naming the namespace.
#ifndef DD_SGD_KERNEL_H
#define DD_SGD_KERNEL_H

#include <cuda_runtime.h>

namespace dd::sgd {

/// A rating set and its training state on the device (device pointers).
struct DeviceProblem {
  unsigned n = 0;                  ///< ratings
  const unsigned *users = nullptr; ///< per rating: the user id
  const unsigned *items = nullptr; ///< per rating: the item id
  const float *values = nullptr;   ///< per rating: the rating
  float *user_vecs = nullptr;      ///< users * k
  float *item_vecs = nullptr;      ///< items * k
  unsigned k = 0;                  ///< latent vector length
  unsigned *updates = nullptr;     ///< per rating: critical sections run
  unsigned *user_updates = nullptr; ///< per user: updates of its vector
  unsigned *item_updates = nullptr; ///< per item: updates of its vector
  int *user_locks = nullptr;       ///< per user, 0 when free
  int *item_locks = nullptr;       ///< per item, 0 when free
};

namespace locks {
/// Runs `epochs` epochs of SGD, one launch each (a thread per rating);
/// returns the first launch error. Asynchronous on the default stream.
cudaError_t run_epochs(const DeviceProblem &p, float lr, float lambda, unsigned epochs);
} // namespace locks

namespace delegate {
/// The same, each launch through the delegate pass's launcher (synchronous
/// when it delegates; DD_DELEGATE_POLICY picks the way).
cudaError_t run_epochs(const DeviceProblem &p, float lr, float lambda, unsigned epochs);
} // namespace delegate

} // namespace dd::sgd

#endif // DD_SGD_KERNEL_H
