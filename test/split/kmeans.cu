// Rodinia kmeans, kmeansPoint (bench/split/kmeans.cuh, original). The
// feature load has a blockIdx term but is the same for every cluster: it is
// invariant in the cluster loop and L1 serves its re-reads; the centre load
// has no blockIdx term. No stream is left, whichever loop is annotated.
// split-study.md section 6: declined (rule 2).
// RUN: %decoupler --passes=split -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: diff %s %t.dd.cu
// RUN: %decoupler --analyze %s | FileCheck %s --check-prefix=TEXT

#include <cfloat>
#include <dd/annotate.h>

__global__ void kmeans_inner(const float *features, int nfeatures, int npoints, int nclusters,
                             const float *clusters, int *membership) {
  const int point_id = blockIdx.x * blockDim.x + threadIdx.x;
  int index = -1;
  if (point_id < npoints) {
    float min_dist = FLT_MAX;
    for (int i = 0; i < nclusters; i++) {
      const int cluster_base_index = i * nfeatures;
      float ans = 0.0f;
      // CHECK: kmeans.cu:[[@LINE+2]]:7: warning: loop not decoupled: no stream: no affine load in the loop has a blockIdx term and changes in every loop around it [-Wdecoupler-declined]
      DD_PRAGMA(decouple)
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

__global__ void kmeans_outer(const float *features, int nfeatures, int npoints, int nclusters,
                             const float *clusters, int *membership) {
  const int point_id = blockIdx.x * blockDim.x + threadIdx.x;
  int index = -1;
  if (point_id < npoints) {
    float min_dist = FLT_MAX;
    // CHECK: kmeans.cu:[[@LINE+2]]:5: warning: loop not decoupled: no stream
    DD_PRAGMA(decouple)
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

// TEXT: decoupled loops (#pragma dd decouple):
// TEXT-NEXT: 24:7 in 'kmeans_inner': declined: no stream
// TEXT-NEXT: consumer 26:38 features[addr] (invariant in the loop at line 19: re-read, L1 serves it)
// TEXT-NEXT: consumer 26:54 clusters[cluster_base_index + j] (no blockIdx term
// TEXT-NEXT: 46:5 in 'kmeans_outer': declined: no stream
// TEXT-NEXT: consumer 51:38 features[addr] (invariant in the loop at line 46: re-read, L1 serves it)
