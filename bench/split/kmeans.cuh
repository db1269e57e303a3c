// (f) Rodinia kmeans, kernel kmeansPoint (rodinia/cuda/kmeans/kmeans_cuda_kernel.cu),
// rewritten from memory: each thread is a point, and finds the nearest of
// nclusters centres by squared Euclidean distance over nfeatures features
// stored feature-major (features[j*npoints + point], the "inverted" layout
// Rodinia's kmeans transposes to first). Simplified: plain loads instead of
// the texture fetches, no per-block delta counting; the loop nest and the
// access pattern are Rodinia's. The feature load is affine (stride 4 bytes)
// and re-read for every cluster; the centre load is scalar.
#ifndef DD_BENCH_SPLIT_KMEANS_CUH
#define DD_BENCH_SPLIT_KMEANS_CUH

#include "common.cuh"

namespace split {

__global__ void kmeans_point_original(const float *features, int nfeatures, int npoints,
                                      int nclusters, const float *clusters, int *membership) {
  const int point_id = blockIdx.x * blockDim.x + threadIdx.x;
  int index = -1;
  if (point_id < npoints) {
    float min_dist = FLT_MAX;
    for (int i = 0; i < nclusters; i++) {
      const int cluster_base_index = i * nfeatures;
      float ans = 0.0f;
      for (int j = 0; j < nfeatures; j++) {
        const int addr = point_id + j * npoints;
        const float diff = __fsub_rn(features[addr], clusters[cluster_base_index + j]);
        ans = __fmaf_rn(diff, diff, ans);
      }
      if (ans < min_dist) {
        min_dist = ans;
        index = i;
      }
    }
    membership[point_id] = index;
  }
}

/// The split: the producer runs both loops and copies feature row j of the
/// block's points for every (i, j), U features per stage (a stage never
/// spans two clusters, like the loop nest it comes from).
template <unsigned Depth, unsigned U>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    kmeans_point_split(const float *features, int nfeatures, int npoints, int nclusters,
                       const float *clusters, int *membership) {
  using Queue = dd::AffineQueue<float, kBlock, Depth, U>;
  __shared__ typename Queue::Storage storage;
  Queue q(storage);
  q.init(kConsumerWarps);
  const int point0 = blockIdx.x * kBlock;
  typename Queue::Cursor c;
  if (threadIdx.x >= kBlock) {
    const unsigned count = min(kBlock, unsigned(npoints - point0));
    for (int i = 0; i < nclusters; i++)
      for (int j0 = 0; j0 < nfeatures; j0 += U, c.advance()) {
        q.acquire(c);
        for (int u = 0; u < int(U) && j0 + u < nfeatures; ++u)
          q.copy_tile_async(c, u, features + (j0 + u) * npoints + point0, 0, count);
        q.commit(c);
      }
  } else {
    const int point_id = point0 + threadIdx.x;
    const bool active = point_id < npoints;
    int index = -1;
    float min_dist = FLT_MAX;
    for (int i = 0; i < nclusters; i++) {
      const int cluster_base_index = i * nfeatures;
      float ans = 0.0f;
      for (int j0 = 0; j0 < nfeatures; j0 += U, c.advance()) {
        q.wait(c);
        float f[U];
#pragma unroll
        for (int u = 0; u < int(U); ++u)
          if (j0 + u < nfeatures && active)
            f[u] = q.tile(c, u)[threadIdx.x];
        q.release(c);
#pragma unroll
        for (int u = 0; u < int(U); ++u)
          if (j0 + u < nfeatures && active) {
            const float diff = __fsub_rn(f[u], clusters[cluster_base_index + j0 + u]);
            ans = __fmaf_rn(diff, diff, ans);
          }
      }
      if (active && ans < min_dist) {
        min_dist = ans;
        index = i;
      }
    }
    if (active)
      membership[point_id] = index;
  }
}

struct KmeansData {
  int npoints, nfeatures, nclusters;
  std::vector<DeviceArray<float>> features, clusters;
  std::vector<DeviceArray<int>> membership;
  KmeansData(int np, int nf, int nc, int sets) : npoints(np), nfeatures(nf), nclusters(nc) {
    for (int s = 0; s < sets; ++s) {
      features.emplace_back(std::size_t(np) * nf);
      clusters.emplace_back(std::size_t(nc) * nf);
      membership.emplace_back(np);
    }
  }
  void fill(std::uint64_t seed) {
    for (std::size_t s = 0; s < features.size(); ++s) {
      fill_random(features[s].ptr, features[s].n, seed);
      fill_random(clusters[s].ptr, clusters[s].n, seed + 1);
    }
  }
};

template <unsigned D, unsigned U> Variant kmeans_split_variant(KmeansData &d) {
  return {fmt("split D%u U%u", D, U), reinterpret_cast<const void *>(kmeans_point_split<D, U>),
          kSplitThreads, [&d](int s) {
            kmeans_point_split<D, U><<<ceil_div(d.npoints, kBlock), kSplitThreads>>>(
                d.features[s].ptr, d.nfeatures, d.npoints, d.nclusters, d.clusters[s].ptr,
                d.membership[s].ptr);
          }};
}

inline std::vector<Variant> kmeans_variants(KmeansData &d) {
  std::vector<Variant> v;
  v.push_back({"original", reinterpret_cast<const void *>(kmeans_point_original), kBlock,
               [&d](int s) {
                 kmeans_point_original<<<ceil_div(d.npoints, kBlock), kBlock>>>(
                     d.features[s].ptr, d.nfeatures, d.npoints, d.nclusters, d.clusters[s].ptr,
                     d.membership[s].ptr);
               }});
  v.push_back(kmeans_split_variant<4, 2>(d));
  v.push_back(kmeans_split_variant<4, 4>(d));
  return v;
}

inline void kmeans_bench(Bench &b) {
  if (!b.wants("kmeans"))
    return;
  // npoints, nfeatures, nclusters (34 features, 5 clusters: Rodinia's
  // kdd_cup input).
  const int sizes[][3] = {{1, 1, 1}, {1000, 34, 5}, {12345, 7, 3}, {300, 5, 4}, {(1 << 18) + 5, 34, 5}};
  int seed = 1;
  for (auto &sz : sizes) {
    if (b.quick && std::size_t(sz[0]) * sz[1] > (1u << 16))
      continue;
    KmeansData d(sz[0], sz[1], sz[2], 1);
    d.fill(700 + 10 * seed++);
    auto vs = kmeans_variants(d);
    const std::string size = fmt("np=%d nf=%d nc=%d", d.npoints, d.nfeatures, d.nclusters);
    b.check("kmeans", size, vs, d.membership[0]);
  }
  if (b.quick)
    return;
  const int np = 1 << 20, nf = 34, nc = 5; // 136 MiB of features
  const double bytes = (double(np) * nf + np) * 4;
  KmeansData d(np, nf, nc, b.sets_for(bytes));
  d.fill(17);
  auto vs = kmeans_variants(d);
  b.time("kmeans", fmt("np=2^20 nf=%d nc=%d", nf, nc), vs, int(d.features.size()), bytes);
}

} // namespace split

#endif // DD_BENCH_SPLIT_KMEANS_CUH
