// SpMV, ELL column-major (bench/split/spmv_ell.cuh, original). cols and vals
// are streams (1 KiB tiles: they advance by num_rows per iteration, not by
// their tile), x[col] is a gather and stays with the consumers. No store in
// the loop and a constant step: nvcc unrolls it, ~320 KiB in flight per SM.
// split-study.md section 6: declined (small stages at 3.5 TB/s of ring
// traffic; already bandwidth-bound).
// RUN: %decoupler --passes=split -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: diff %s %t.dd.cu
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=JSON

#include <dd/annotate.h>

__global__ void spmv_ell(int num_rows, int max_cols, const int *cols, const float *vals,
                         const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    float sum = 0.0f;
    // CHECK: spmv-ell.cu:[[@LINE+2]]:5: warning: loop not decoupled: small stages: 1024 B copies, and the ring would have to carry 3.8 TB/s (> 2.0) to reach 90% of the copy ceiling; already bandwidth-bound: the original keeps 320 KiB in flight per SM (>= 24 KiB); predicted gain 0.55x is below 1.2x [-Wdecoupler-declined]
    DD_PRAGMA(decouple)
    for (int k = 0; k < max_cols; ++k) {
      int col = cols[k * num_rows + row];
      float val = vals[k * num_rows + row];
      if (col >= 0)
        sum = __fmaf_rn(val, x[col], sum);
    }
    y[row] = sum;
  }
}

void launch(int rows, int k, const int *cols, const float *vals, const float *x, float *y) {
  spmv_ell<<<(rows + 255) / 256, 256>>>(rows, k, cols, vals, x, y);
}

// JSON: {"line": 20, "column": 5, "function": "spmv_ell", "status": "declined", {{.*}} "streams": [{"load": "cols[k * num_rows + row]", "line": 21, "column": 17}, {"load": "vals[k * num_rows + row]", "line": 22, "column": 19}], "consumers": [{"load": "x[col]", "line": 24, "column": 30, "why": "address not affine"}], {{.*}} "mlp": 4, "in_flight_bytes": 327680,
