// An annotation written with _Pragma inside a macro that also expands to
// the code it annotates (a kernel, a loop, an atomic) is an error at the
// macro's use. Its place is the use, which is also where that code begins,
// so it used to attach to whatever came after the use: a host function (an
// error that named it), another kernel's loop (split there, or refused with
// that loop's reason). Found by an adversarial round (2026-11-29). An
// annotation that is the whole of its macro (DD_PRAGMA, a macro of one's
// own) still attaches to what follows the use.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.dd.cu
#include <dd/annotate.h>

#define KERNEL(name)                                                           \
  __global__ void name(const float *__restrict__ A, float *__restrict__ B,    \
                       int dim, int num, int step) {                           \
    int tid = blockIdx.x * blockDim.x + threadIdx.x;                           \
    _Pragma("dd decouple") for (int i = 0; i < dim; i += step)                 \
        B[i * num + tid] = A[i * num + tid] + 1;                               \
  }

#define COUNT(p) _Pragma("dd atomic(vr)") atomicAdd(p, 1u)

// CHECK: pragma-in-macro.cu:[[@LINE+1]]:1: error: '#pragma dd decouple' is written inside the macro 'KERNEL' with the code it would annotate: decoupler does not rewrite code inside a macro expansion; write the annotation, and what it annotates, outside the macro
KERNEL(rows)

// Not annotated: the annotation above is not this loop's.
__global__ void fig33(int *A, int *B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    for (int i = 0; i < dim; i++)
      B[i * num + tid] = A[i * num + tid] + 1;
}

__global__ void hist(const int *keys, int n, unsigned *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // CHECK: pragma-in-macro.cu:[[@LINE+1]]:5: error: '#pragma dd atomic' is written inside the macro 'COUNT'
    COUNT(&bins[keys[i] & 255]);
  }
}

#define DECOUPLE _Pragma("dd decouple")

__global__ void scale(const float *A, float *B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i++)
    B[i * num + tid] = 2 * A[i * num + tid];
  DECOUPLE
  for (int i = 0; i < dim; i++)
    B[i * num + tid] += A[i * num + tid];
}

void launch(const float *A, float *B, int *buf, int dim, int num, int step,
            const int *keys, unsigned *bins) {
  rows<<<num / 256, 256>>>(A, B, dim, num, step);
  fig33<<<num / 256, 256>>>(buf, buf + num, dim, num);
  hist<<<num / 256, 256>>>(keys, num, bins);
  scale<<<num / 256, 256>>>(A, B, dim, num);
}
