// The GPU architectures a file is compiled for come from its compile
// command (clang's --cuda-gpu-arch/--offload-arch, nvcc's -arch and
// -gencode, by the virtual architecture that sets __CUDA_ARCH__), or from
// decoupler's --cuda-gpu-arch, which wins; sm_90 when neither names one.
// Each is a device compilation: a function must be the same code in every
// one to be rewritten, and a pass whose code needs a newer GPU than one of
// them leaves the file's code as written, saying which (the split's ring
// needs sm_80, and sm_75 builds still compile).
//
// sm_75 and sm_90, clang's spelling after `--`:
// RUN: %decoupler --no-line-directives --passes=atomics,split --split=auto -Rdecoupler %s -o %t.both.cu -- --cuda-gpu-arch=sm_75 --offload-arch=sm_90 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: grep -v "^ *// [A-Z]" %t.both.cu | FileCheck %s --check-prefix=AS-WRITTEN
//
// The same from a build's nvcc command (-p), as CMake writes it:
// RUN: rm -rf %t.db && mkdir -p %t.db && cp %s %t.db/k.cu
// RUN: printf '[{"directory":"%%s","file":"k.cu","arguments":["nvcc","--generate-code=arch=compute_75,code=[compute_75,sm_75]","-gencode","arch=compute_90,code=sm_90","-c","k.cu"]}]' %t.db > %t.db/compile_commands.json
// RUN: %decoupler --no-line-directives --passes=atomics,split --split=auto -Rdecoupler -p %t.db %t.db/k.cu -o %t.db.cu 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: %decoupler --print-commands -p %t.db %t.db/k.cu --analyze 2>&1 | FileCheck %s --check-prefix=COMMAND
//
// compute_75 code for an sm_90 GPU is compiled as sm_75:
// RUN: printf '[{"directory":"%%s","file":"k.cu","arguments":["nvcc","-gencode","arch=compute_75,code=sm_90","-c","k.cu"]}]' %t.db > %t.db/compile_commands.json
// RUN: %decoupler --no-line-directives --passes=split --split=auto -Rdecoupler -p %t.db %t.db/k.cu -o %t.virtual.cu 2>&1 | FileCheck %s --check-prefix=SPLIT75
//
// An nvcc command that names no architecture compiles for nvcc's default,
// sm_75 with CUDA 13 (a plain `nvcc -c k.cu`; until 2026-11-29 the tool took
// sm_90, and the split's output did not compile for that build):
// RUN: printf '[{"directory":"%%s","file":"k.cu","arguments":["%cuda_nvcc","-c","k.cu"]}]' %t.db > %t.db/compile_commands.json
// RUN: %decoupler --no-line-directives --passes=split --split=auto -Rdecoupler -p %t.db %t.db/k.cu -o %t.default.cu 2>&1 | FileCheck %s --check-prefix=SPLIT75
// RUN: %cuda_nvcc -std=c++17 -c %t.default.cu -o %t.default.o
//
// Only sm_90 (nvcc -arch), or decoupler's own --cuda-gpu-arch over the
// build's: both rewritten.
// RUN: printf '[{"directory":"%%s","file":"k.cu","arguments":["nvcc","-arch=sm_90","-c","k.cu"]}]' %t.db > %t.db/compile_commands.json
// RUN: %decoupler --no-line-directives --passes=atomics,split --split=auto -Rdecoupler -p %t.db %t.db/k.cu -o %t.90.cu 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: %decoupler --no-line-directives --passes=atomics,split --split=auto -Rdecoupler --cuda-gpu-arch=sm_90 %s -o %t.own.cu -- --cuda-gpu-arch=sm_75 2>&1 | FileCheck %s --check-prefix=SM90
//
// REQUIRES: nvcc
// RUN: %nvcc -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 -c %t.both.cu -o %t.both.o
// RUN: %nvcc -arch=sm_90 -c %t.90.cu -o %t.90.o
#include <cfloat>

// COMMAND: --cuda-gpu-arch=sm_75 --cuda-gpu-arch=sm_90

__global__ void row_max(const float *__restrict__ x, float *__restrict__ dst,
                        const long long ncols) {
  const long long row = blockIdx.x;
  float maxval = -FLT_MAX;
  const float *rowx = x + row * ncols;
  // BOTH: {{(target-architectures|k)}}.cu:[[@LINE+4]]:3: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: the file is also compiled for sm_75, and the producer warp's ring needs sm_80 or newer (cp.async, mbarrier)
  // SPLIT75: {{(target-architectures|k)}}.cu:[[@LINE+3]]:3: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: the file is also compiled for sm_75,
  // SM90: {{(target-architectures|k)}}.cu:[[@LINE+2]]:3: remark: --split=auto: split plan for loop: {{.*}}; rewritten: row_max_split
  // AS-WRITTEN: for (int col = threadIdx.x; col < ncols; col += blockDim.x)
  for (int col = threadIdx.x; col < ncols; col += blockDim.x)
    maxval = fmaxf(maxval, rowx[col]);
  if (threadIdx.x == 0)
    dst[row] = maxval;
}

// The common guard, the same code on sm_90 but not on sm_75.
__global__ void histogram(const int *in, int n, unsigned *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  // BOTH: {{(target-architectures|k)}}.cu:[[@LINE+4]]:3: remark: atomicAdd left unchanged: kernel 'histogram' is not the same code when compiled for the device (sm_75) as in the host compilation decoupler analyses
  // SM90: {{(target-architectures|k)}}.cu:[[@LINE+3]]:3: remark: atomicAdd -> dd_private_h.update
  // AS-WRITTEN: atomicAdd(&h[in[i] & 255], 1u);
  // AS-WRITTEN-NOT: dd::
  atomicAdd(&h[in[i] & 255], 1u);
#else
  h[in[i] & 255] += 1u;
#endif
}

void run(const float *x, float *dst, long long ncols, long long nrows,
         const int *in, int n, unsigned *h) {
  row_max<<<nrows, 256>>>(x, dst, ncols);
  histogram<<<(n + 255) / 256, 256>>>(in, n, h);
}
