// Rule 5, the restrict/hoist rewrite (docs/split-pass.md): fig33 and the
// S=2 gather (split-study.md section 6) are accepted with a store that may
// alias the stream, so the pass rewrites them in place: __restrict__ on the
// streamed array and the arrays the loop stores through (the annotation's
// promise: distinct pointer parameters do not alias), '#pragma unroll 4' on
// the loop, the annotation gone. A forward declaration keeps its parameters
// (a top-level __restrict__ is not part of the function type). A loop with
// its own unroll pragma keeps it; a kernel annotation puts the pragma before
// its loop.
// RUN: %decoupler --no-line-directives --passes=split -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --implicit-check-not=DD_PRAGMA --implicit-check-not='pragma dd'
// REQUIRES: nvcc
// RUN: %nvcc -Xcompiler -Wall -Werror all-warnings -c %t.cu -o %t.o

#include <dd/annotate.h>

// CHECK: __global__ void fig33(int A[], int B[], int dim, int num);
__global__ void fig33(int A[], int B[], int dim, int num);

// CHECK: __global__ void fig33(int *__restrict__ A, int *__restrict__ B, int dim, int num) {
// CHECK-NEXT:   int tid = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   if (tid < num)
// CHECK-NEXT:     #pragma unroll 4 // decoupler: rule 5, keep several loads in flight
// CHECK-NEXT:     for (int i = 0; i < dim; i++) {
__global__ void fig33(int A[], int B[], int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    // REMARK: rewrite-hoist.cu:[[@LINE+2]]:5: remark: split plan for loop: streams A[i * num + tid] {{.*}}; rewritten: restrict/hoist rewrite (split-study.md rule 5) instead of a split: __restrict__ on A, B (the annotation promises that A, B do not alias); '#pragma unroll 4' on the loop [-Rdecoupler]
    DD_PRAGMA(decouple)
    for (int i = 0; i < dim; i++) {
      int tmp = A[i * num + tid];
      B[i * num + tid] = tmp + 1;
    }
}

// CHECK: __global__ void gather2(const float *__restrict__ in, float *__restrict__ out, int dim, int num) {
// CHECK-NEXT:   int tid = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   if (tid < num)
// CHECK-NEXT:     #pragma unroll 4 // decoupler: rule 5, keep several loads in flight
// CHECK-NEXT:     for (int i = 0; i < dim; ++i)
// CHECK-NEXT:       out[i * num + tid] = in[(long long)(i * num + tid) * 2];
__global__ void gather2(const float *in, float *out, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    // REMARK: rewrite-hoist.cu:[[@LINE+2]]:5: remark: {{.*}}rewritten: restrict/hoist rewrite (split-study.md rule 5) instead of a split: __restrict__ on in, out (the annotation promises that in, out do not alias); '#pragma unroll 4' on the loop [-Rdecoupler]
    #pragma dd decouple
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * 2];
}

// Its own unroll pragma: kept.
// CHECK: __global__ void gather2u(const float *__restrict__ in, float *__restrict__ out, int dim, int num) {
// CHECK-NEXT:   int tid = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   if (tid < num) {
// CHECK-NEXT: #pragma unroll 2
// CHECK-NEXT:     for (int i = 0; i < dim; ++i)
__global__ void gather2u(const float *in, float *out, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num) {
    // REMARK: rewrite-hoist.cu:[[@LINE+3]]:5: remark: {{.*}}rewritten: restrict/hoist rewrite (split-study.md rule 5) instead of a split: __restrict__ on in, out (the annotation promises that in, out do not alias); the loop's own unroll pragma kept [-Rdecoupler]
    DD_PRAGMA(decouple)
#pragma unroll 2
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * 2];
  }
}

// A kernel annotation: the pragma goes before the loop.
// CHECK: __global__ void fig33k(int *__restrict__ A, int *__restrict__ B, int dim, int num) {
// CHECK-NEXT:   int tid = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   if (tid >= num)
// CHECK-NEXT:     return;
// CHECK-NEXT:   #pragma unroll 4 // decoupler: rule 5, keep several loads in flight
// CHECK-NEXT:   for (int i = 0; i < dim; i++)
DD_PRAGMA(decouple)
__global__ void fig33k(int *A, int *B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= num)
    return;
  // REMARK: rewrite-hoist.cu:[[@LINE+1]]:3: remark: {{.*}}rewritten: restrict/hoist rewrite
  for (int i = 0; i < dim; i++)
    B[i * num + tid] = A[i * num + tid] + 1;
}

// CHECK: void launch(
// CHECK-NEXT:   fig33<<<(num + 255) / 256, 256>>>(A, B, dim, num);
void launch(int *A, int *B, int dim, int num, const float *in, float *out) {
  fig33<<<(num + 255) / 256, 256>>>(A, B, dim, num);
  fig33k<<<(num + 255) / 256, 256>>>(A, B, dim, num);
  gather2<<<(num + 255) / 256, 256>>>(in, out, dim, num);
  gather2u<<<(num + 255) / 256, 256>>>(in, out, dim, num);
}
