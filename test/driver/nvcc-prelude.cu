// REQUIRES: nvcc
// Code written for nvcc uses what nvcc's headers declare and clang's CUDA
// headers do not (llm.c's dev/cuda kernels): host min/max, clock() and
// CLOCKS_PER_SEC without <ctime>, isfinite at global scope in host code,
// and the cache-hinted __ldlu/__ldca/__stcs/__stcg/__stwb. The parse
// force-includes decoupler's prelude (tool/NvccPrelude.h), so the file
// parses, its atomic is rewritten, and nothing of the prelude reaches the
// output, which nvcc compiles.
// RUN: %decoupler --no-line-directives %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --implicit-check-not=nvcc_prelude --implicit-check-not=pragma
// RUN: %nvcc -c %t.cu -o %t.o
//
// What the prelude supplies: clang alone, on the CUDA installation the tool
// parses with, rejects the file.
// RUN: not %clang -x cuda --cuda-host-only --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version -fsyntax-only -ferror-limit=0 %s 2>&1 | FileCheck %s --check-prefix=CLANG
// CLANG-DAG: use of undeclared identifier '__ldlu'
// CLANG-DAG: use of undeclared identifier '__ldca'
// CLANG-DAG: use of undeclared identifier '__stcs'
// CLANG-DAG: use of undeclared identifier '__stcg'
// CLANG-DAG: use of undeclared identifier '__stwb'
// CLANG-DAG: no matching function for call to 'isfinite'
// CLANG-DAG: no matching function for call to 'min'
// CLANG-DAG: no matching function for call to 'max'
// CLANG-DAG: no matching function for call to 'clock'
// CLANG-DAG: use of undeclared identifier 'CLOCKS_PER_SEC'
//
// --print-nvcc-prelude prints it, and with it clang alone parses the file:
// a command of --print-commands can be re-run by hand.
// RUN: %decoupler --print-nvcc-prelude > %t.prelude.h
// RUN: FileCheck %s --check-prefix=PRELUDE < %t.prelude.h
// PRELUDE: #pragma clang system_header
// PRELUDE: __host__ unsigned int min(int, unsigned int);
// PRELUDE: __device__ void __stcs(float4 *, float4);
// RUN: %clang -x cuda --cuda-host-only --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version -fsyntax-only -include %t.prelude.h %s
//
// The prelude's declarations are a system header's: the passes take them for
// the toolkit's, so a kernel that only loads through __ldlu is still split
// or left alone for its own reasons, not for an unknown call.
// RUN: %decoupler --analyze %s 2>&1 | FileCheck %s --check-prefix=ANALYZE
#include <cstdio>
#include <cmath>

// DIAG-NOT: error
// ANALYZE-NOT: error:
// ANALYZE: kernel 'count_finite'
// ANALYZE: atomic global nonaffine {{.*}}atomicAdd(&bins[bin[i]], 1u)

__global__ void count_finite(const float *in, float *out, const unsigned *bin, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = __ldlu(in + i) + __ldca(in + i);
  __stcs(out + i, v);
  __stcg(out + n + i, v);
  __stwb(out + 2 * n + i, max(v, 0.0f));
  if (isfinite(v))
    atomicAdd(&bins[bin[i]], 1u);
}
// CHECK: #include <dd/atomics.cuh>
// CHECK: __stcs(out + i, v);
// CHECK: dd::atomic_add_vr(&bins[bin[i]], 1u)

template <class T> static bool all_finite(const T *p, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(p[i]))
      return false;
  return true;
}

int main() {
  clock_t start = clock();
  unsigned u = 3;
  int i = 2;
  long long l = 5;
  float h[2] = {1.0f, 2.0f};
  std::printf("%u %d %lld %d %f\n", min(u, i), max(1, 2), max(l, 4ll), (int)all_finite(h, 2),
              double(clock() - start) / CLOCKS_PER_SEC);
  return 0;
}
