// DeviceRatings (sgd.h): uploads, the timed training loop, the copy back.
#include "sgd/sgd.h"

#include <tuple>
#include <utility>

namespace dd::sgd {
namespace {

using graph::Expected;
using graph::Status;
using graph::str_cat;

Status cuda_error(const char *what, cudaError_t err) {
  return Status::error(str_cat(what, ": ", cudaGetErrorString(err)));
}

template <class T> Status allocate(T *&ptr, std::uint64_t count, const char *what) {
  void *p = nullptr;
  if (const cudaError_t err = cudaMalloc(&p, count ? count * sizeof(T) : sizeof(T));
      err != cudaSuccess)
    return Status::error(str_cat("cannot allocate ", count * sizeof(T), " bytes of GPU memory for ",
                                 what, ": ", cudaGetErrorString(err)));
  ptr = static_cast<T *>(p);
  return Status();
}

template <class T> Status upload_array(T *dst, const std::vector<T> &src, const char *what) {
  if (src.empty())
    return Status();
  if (const cudaError_t err =
          cudaMemcpy(dst, src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice);
      err != cudaSuccess)
    return cuda_error(what, err);
  return Status();
}

} // namespace

DeviceRatings::~DeviceRatings() { release(); }

void DeviceRatings::release() {
  for (const void *p : {static_cast<const void *>(problem_.users),
                        static_cast<const void *>(problem_.items),
                        static_cast<const void *>(problem_.values),
                        static_cast<const void *>(problem_.user_vecs),
                        static_cast<const void *>(problem_.item_vecs),
                        static_cast<const void *>(problem_.updates),
                        static_cast<const void *>(problem_.user_updates),
                        static_cast<const void *>(problem_.item_updates),
                        static_cast<const void *>(problem_.user_locks),
                        static_cast<const void *>(problem_.item_locks)})
    if (p)
      cudaFree(const_cast<void *>(p));
  problem_ = DeviceProblem();
}

Status DeviceRatings::upload(const graph::RatingSet &set, unsigned k) {
  release();
  const std::uint64_t n = set.size();
  unsigned *users = nullptr, *items = nullptr;
  float *values = nullptr;
  Status s = allocate(users, n, "user ids");
  if (s.ok())
    s = allocate(items, n, "item ids");
  if (s.ok())
    s = allocate(values, n, "ratings");
  problem_.users = users;
  problem_.items = items;
  problem_.values = values;
  if (s.ok())
    s = allocate(problem_.user_vecs, std::uint64_t(set.num_users) * k, "user vectors");
  if (s.ok())
    s = allocate(problem_.item_vecs, std::uint64_t(set.num_items) * k, "item vectors");
  if (s.ok())
    s = allocate(problem_.updates, n, "update counters");
  if (s.ok())
    s = allocate(problem_.user_updates, set.num_users, "user counters");
  if (s.ok())
    s = allocate(problem_.item_updates, set.num_items, "item counters");
  if (s.ok())
    s = allocate(problem_.user_locks, set.num_users, "user locks");
  if (s.ok())
    s = allocate(problem_.item_locks, set.num_items, "item locks");
  if (s.ok())
    s = upload_array(users, set.users, "uploading user ids");
  if (s.ok())
    s = upload_array(items, set.items, "uploading item ids");
  if (s.ok())
    s = upload_array(values, set.values, "uploading ratings");
  if (!s.ok()) {
    release();
    return s;
  }
  problem_.n = static_cast<unsigned>(n);
  problem_.k = k;
  num_users_ = set.num_users;
  num_items_ = set.num_items;
  return Status();
}

Expected<Training> DeviceRatings::train(Variant variant, const graph::SgdParams &params,
                                        const graph::LatentFactors &initial) {
  if (initial.k != problem_.k || initial.users.size() != std::uint64_t(num_users_) * problem_.k ||
      initial.items.size() != std::uint64_t(num_items_) * problem_.k)
    return Status::error("internal error: initial vectors do not match the uploaded set");
  Status s = upload_array(problem_.user_vecs, initial.users, "uploading user vectors");
  if (s.ok())
    s = upload_array(problem_.item_vecs, initial.items, "uploading item vectors");
  if (!s.ok())
    return s;
  for (const auto &[ptr, bytes] :
       {std::pair<void *, std::uint64_t>{problem_.updates, std::uint64_t(problem_.n) * 4},
        {problem_.user_updates, std::uint64_t(num_users_) * 4},
        {problem_.item_updates, std::uint64_t(num_items_) * 4},
        {problem_.user_locks, std::uint64_t(num_users_) * 4},
        {problem_.item_locks, std::uint64_t(num_items_) * 4}})
    if (const cudaError_t err = cudaMemset(ptr, 0, bytes); err != cudaSuccess)
      return cuda_error("clearing counters and locks", err);

  cudaEvent_t start = nullptr, stop = nullptr;
  if (const cudaError_t err = cudaEventCreate(&start); err != cudaSuccess)
    return cuda_error("creating a CUDA event", err);
  if (const cudaError_t err = cudaEventCreate(&stop); err != cudaSuccess) {
    cudaEventDestroy(start);
    return cuda_error("creating a CUDA event", err);
  }
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess)
    err = cudaEventRecord(start);
  if (err == cudaSuccess)
    err = variant == Variant::kLocks
              ? locks::run_epochs(problem_, params.learning_rate, params.lambda, params.epochs)
              : delegate::run_epochs(problem_, params.learning_rate, params.lambda, params.epochs);
  if (err == cudaSuccess)
    err = cudaEventRecord(stop);
  if (err == cudaSuccess)
    err = cudaEventSynchronize(stop);
  float ms = 0;
  if (err == cudaSuccess)
    err = cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (err != cudaSuccess)
    return cuda_error("training on the GPU", err);

  Training t;
  t.ms = ms;
  t.factors.k = problem_.k;
  t.factors.users.resize(initial.users.size());
  t.factors.items.resize(initial.items.size());
  t.updates.resize(problem_.n);
  t.user_updates.resize(num_users_);
  t.item_updates.resize(num_items_);
  for (const auto &[dst, src, bytes] :
       {std::tuple<void *, const void *, std::uint64_t>{t.factors.users.data(), problem_.user_vecs,
                                                        t.factors.users.size() * 4},
        {t.factors.items.data(), problem_.item_vecs, t.factors.items.size() * 4},
        {t.updates.data(), problem_.updates, t.updates.size() * 4},
        {t.user_updates.data(), problem_.user_updates, t.user_updates.size() * 4},
        {t.item_updates.data(), problem_.item_updates, t.item_updates.size() * 4}})
    if (bytes)
      if (const cudaError_t e = cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
          e != cudaSuccess)
        return cuda_error("copying the results back", e);
  return t;
}

} // namespace dd::sgd
