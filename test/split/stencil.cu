// 5-point stencil, thread per column, a band of rows per block
// (bench/split/stencil.cuh, original, with the band computed inline). All
// five loads are affine with a blockIdx term; the west/east neighbours
// share row y's tile (a halo), and rows y-1 and y were row y+1 one and two
// iterations earlier, so only row y+1 brings new bytes (8 KiB in flight per
// SM: the store may alias). split-study.md section 6: declined (rule 4,
// halo edges); rule 5 still applies, so the declined loop gets the
// restrict/hoist rewrite (measured 1.14x on the H200, docs/PERF.md).
// RUN: %decoupler --passes=split -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -c %t.dd.cu -o %t.o
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=JSON

#include <dd/annotate.h>

__device__ __forceinline__ float stencil5(float c, float n, float s, float w, float e, float c0,
                                          float c1) {
  return __fadd_rn(__fmul_rn(c0, c), __fmul_rn(c1, __fadd_rn(__fadd_rn(n, s), __fadd_rn(w, e))));
}

__global__ void stencil(const float *in, float *out, int nx, int ny, int rows, float c0,
                        float c1) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y_begin = max(1, int(blockIdx.y) * rows);
  const int y_end = min(ny - 1, (int(blockIdx.y) + 1) * rows);
  if (x >= 1 && x < nx - 1)
    // CHECK: stencil.cu:[[@LINE+2]]:5: remark: not splitting this loop: small stages: {{.*}}; small stages: tiles with halo edges (loads of one array at small constant offsets) need per-lane edge copies{{.*}}; rewritten: restrict/hoist rewrite (split-study.md rule 5) {{.*}}__restrict__ on in, out{{.*}} [-Rdecoupler]
    DD_PRAGMA(decouple)
    for (int y = y_begin; y < y_end; ++y)
      out[y * nx + x] = stencil5(in[y * nx + x], in[(y - 1) * nx + x], in[(y + 1) * nx + x],
                                 in[y * nx + x - 1], in[y * nx + x + 1], c0, c1);
}

// OUT: __global__ void stencil(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int rows, float c0,
// OUT: #pragma unroll 4
// OUT-NEXT: for (int y = y_begin; y < y_end; ++y)
// OUT-NOT: DD_PRAGMA

void launch(const float *in, float *out, int nx, int ny, float c0, float c1) {
  stencil<<<dim3((nx + 255) / 256, (ny + 63) / 64), 256>>>(in, out, nx, ny, 64, c0, c1);
}

// The three row tiles: row y with its halo (west/east share it), y-1, y+1.
// JSON: "status": "declined", {{.*}} "streams": [{"load": "in[y * nx + x]", "line": 31, "column": 34, "note": "halo"}, {"load": "in[(y - 1) * nx + x]", "line": 31, "column": 50}, {"load": "in[(y + 1) * nx + x]", "line": 31, "column": 72}, {"load": "in[y * nx + x - 1]", "line": 32, "column": 34, "note": "shares a tile"}, {"load": "in[y * nx + x + 1]", "line": 32, "column": 54, "note": "shares a tile"}], {{.*}} "mlp": 1, "in_flight_bytes": 8192,
