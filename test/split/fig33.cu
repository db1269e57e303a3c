// The dissertation's Figure 3.3 kernel (bench/split/fig33.cuh, original):
// row i of A is the stream; the store to B may alias A as far as nvcc
// knows, so the original keeps one 1 KiB row per warp in flight (8 KiB per
// SM). split-study.md section 6: accepted, and rule 5 prefers the
// restrict/hoist rewrite (its output: rewrite-hoist.cu).
// RUN: %decoupler --passes=split -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=JSON

#include <dd/annotate.h>

__global__ void fig33(int A[], int B[], int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    // CHECK: fig33.cu:[[@LINE+2]]:5: remark: split plan for loop: streams A[i * num + tid] (4 KiB stages x depth 4, U=4), {{[0-9]+}} B shared memory per block; predicted {{[0-9.]+}}x; profitable only for blocks of >= 32 iterations (to be checked at launch); a store may alias the loads, so the cheaper restrict/hoist rewrite (split-study.md rule 5) applies and should be preferred; rewritten: restrict/hoist rewrite (split-study.md rule 5) instead of a split: __restrict__ on A, B (the annotation promises that A, B do not alias); '#pragma unroll 4' on the loop [-Rdecoupler]
    DD_PRAGMA(decouple)
    for (int i = 0; i < dim; i++) {
      int tmp = A[i * num + tid];
      B[i * num + tid] = tmp + 1;
    }
}

void launch(int *A, int *B, int dim, int num) {
  fig33<<<(num + 255) / 256, 256>>>(A, B, dim, num);
}

// JSON: "decouple": [
// JSON-NEXT: {"line": 16, "column": 5, "function": "fig33", "status": "accepted", "streams": [{"load": "A[i * num + tid]", "line": 17, "column": 17}], "consumers": [], "block_threads": 256, "block_known": true, "iterations_per_stage": 4, "depth": 4, "stage_bytes": 4096, "shared_bytes": 16960, "mlp": 1, "in_flight_bytes": 8192, "predicted_gain": {{[0-9.]+}}, "prefer_restrict_hoist": true, "min_trip_count": 32}
