// A loop under a per-thread guard, `if (j < n) { ...; loop; ... }`, the
// shape of PolyBench's and Rodinia's kernels: the split evaluates the guard
// once, runs the loop in every consumer (the protocol needs every warp at
// every stage) with its body predicated, and keeps the statements before and
// after the loop under the guard. The producer copies only the elements of
// the threads that pass (a prefix of the block, dd::guard_prefix), so it
// reads nothing the loop as written does not. The C-style induction
// variable declared before the loop (`int i; for (i = 0; ...)`) is taken
// when nothing else uses it. Every other shape stays as written, with the
// reason as a remark.
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Xcompiler -Wall -Werror all-warnings -c %t.dd.cu -o %t.o
#include <cstdio>
#include <cstring>
#include <vector>

// PolyBench's atax_kernel2 with 1-D blocks: a column sum of A weighted by t.
// REMARK: guarded.cu:[[@LINE+22]]:5: remark: --split=auto: split plan for loop: streams A[i * ny + j] {{.*}}; no store writes a stream: 'A' and 'y' get distinct buffers of cudaMalloc or its family at the launch of this file; rewritten: colsum_split
// CHECK: __global__ void __launch_bounds__(288) colsum_split(int nx, int ny, const float *A, float *y, const float *t) {
// CHECK: if (threadIdx.x >= dd_consumers) {
// CHECK: int j = blockIdx.x * dd_consumers + 0u;
// CHECK-NEXT: // decoupler: the consumers that pass the if around the loop, a prefix of the block
// CHECK: unsigned dd_guarded = dd_consumers;
// CHECK-NEXT: if (dd_guarded != 0)
// CHECK-NEXT: dd_guarded = dd::guard_prefix<int>((int)(j), (int)(ny), false, dd_guarded);
// CHECK: dd::copy_tile_async(dd_stages[dd_c.slot].s0[dd_u], &(A[i * ny + j]), 0, dd_guarded, dd_ring.full(dd_c));
// CHECK: const bool dd_guard = j < ny;
// CHECK-NEXT: if (dd_guard) {
// CHECK-NEXT: y[j] = 0.0f;
// CHECK-NEXT: }
// CHECK: if (dd_guard && dd_j0 + (int)(dd_u) * (int)(1) < nx) {
// CHECK: if (dd_guard && i < nx) {
// CHECK-NEXT: y[j] += dd_s0[dd_u] * t[i];
// CHECK: static void colsum_launch(
__global__ void colsum(int nx, int ny, const float *A, float *y, const float *t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    y[j] = 0.0f;
    int i;
    for (i = 0; i < nx; i++) {
      y[j] += A[i * ny + j] * t[i];
    }
  }
}

// The bound on the left (`last >= j`), a uniform conjunct first, an unsigned
// index, statements after the loop.
// REMARK: guarded.cu:[[@LINE+16]]:5: remark: --split=auto: split plan for loop: {{.*}}; rewritten: colmean_split
// CHECK: __global__ void __launch_bounds__(288) colmean_split(
// CHECK: unsigned dd_guarded = dd_consumers;
// CHECK-NEXT: if (dd_guarded != 0 && !(nx > 0))
// CHECK-NEXT: dd_guarded = 0;
// CHECK-NEXT: if (dd_guarded != 0)
// CHECK-NEXT: dd_guarded = dd::guard_prefix<unsigned int>((unsigned int)(j), (unsigned int)(last), true, dd_guarded);
// CHECK: const bool dd_guard = nx > 0 && last >= j;
// CHECK-NEXT: if (dd_guard) {
// CHECK-NEXT: mean[j] = 0.0f;
// CHECK: if (dd_guard) {
// CHECK-NEXT: mean[j] /= (float)nx;
__global__ void colmean(int nx, unsigned last, const float *A, float *mean) {
  unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  if (nx > 0 && last >= j) {
    mean[j] = 0.0f;
    for (int i = 0; i < nx; ++i)
      mean[j] += A[(long long)i * (last + 1) + j];
    mean[j] /= (float)nx;
  }
}

// The guarded statement is the loop itself.
// REMARK: guarded.cu:[[@LINE+7]]:5: remark: --split=auto: split plan for loop: {{.*}}; rewritten: rowdot_split
// CHECK: __global__ void __launch_bounds__(288) rowdot_split(
// CHECK: const bool dd_guard = k < n;
// CHECK-NEXT: // decoupler: the loop, split
__global__ void rowdot(int m, int n, const float *B, float *out) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    for (int r = 0; r < m; r++)
      out[k] = out[k] * 0.5f + B[r * n + k];
}

// A guard the same in every thread around the merged shape (j from
// threadIdx.x by blockDim.x): the producer copies nothing for a block
// whose guard fails; comments alone before the loop stay unguarded.
// REMARK: guarded.cu:[[@LINE+14]]:5: remark: --split=auto: split plan for loop: {{.*}}; rewritten: rowsum_split
// CHECK: __global__ void __launch_bounds__(288) rowsum_split(
// CHECK: if (dd_guarded != 0 && !(row < rows))
// CHECK-NEXT: dd_guarded = 0;
// CHECK: dd_guarded == 0 ? 0u :
// CHECK: const bool dd_guard = row < rows;
// CHECK-NEXT: // one row per block
// CHECK-NEXT: // decoupler: the loop, split
// CHECK: if (dd_guard && j < n)
__global__ void rowsum(const float *A, float *y, int n, int rows) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  if (row < rows) {
    // one row per block
    for (int j = threadIdx.x; j < n; j += blockDim.x)
      sum += A[(long long)row * n + j];
  }
  y[row * blockDim.x + threadIdx.x] = sum;
}

// An else branch.
// REMARK: guarded.cu:[[@LINE+5]]:5: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: the if around the loop has an else branch, an init statement or a declaration in its condition
__global__ void with_else(int nx, int ny, const float *A, float *y, int *over) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    y[j] = 0.0f;
    for (int i = 0; i < nx; i++)
      y[j] += A[i * ny + j];
  } else {
    over[0] = 1;
  }
}

// The threads above an index pass: not a prefix of the block.
// REMARK: guarded.cu:[[@LINE+5]]:5: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: the if around the loop passes the threads above an index (not a prefix of the block)
__global__ void suffix(int nx, int ny, int from, const float *A, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= from && j < ny) {
    y[j] = 0.0f;
    for (int i = 0; i < nx; i++)
      y[j] += A[i * ny + j];
  }
}

// A declaration under the guard that the loop reads.
// REMARK: guarded.cu:[[@LINE+6]]:5: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: 'w' is declared under the if around the loop and used from the loop on: the split runs the loop outside the if
__global__ void declared_inside(int nx, int ny, const float *A, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    const float w = 0.5f;
    y[j] = 0.0f;
    for (int i = 0; i < nx; i++)
      y[j] += w * A[i * ny + j];
  }
}

// A guard that reads memory.
// REMARK: guarded.cu:[[@LINE+5]]:5: remark: --split=auto: loop not eligible: the loop runs under a condition computed from a value loaded from memory ('live[0]'); the producer warp cannot evaluate it
__global__ void loaded_guard(int nx, int ny, const int *live, const float *A, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny && live[0]) {
    y[j] = 0.0f;
    for (int i = 0; i < nx; i++)
      y[j] += A[i * ny + j];
  }
}

// Two elements per thread: the index grows by two.
// REMARK: guarded.cu:[[@LINE+5]]:5: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: the if around the loop is not a conjunction of conditions the same in every thread and of 'index < bound' with the index growing by one per thread (threadIdx.x + a block-uniform value)
__global__ void strided_guard(int nx, int ny, const float *A, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * j < ny) {
    y[j] = 0.0f;
    for (int i = 0; i < nx; i++)
      y[j] += A[i * ny + j];
  }
}

// A barrier in the loop under a per-thread guard would be divergent (the
// kernel as written is not launched: its barrier is divergent too).
// REMARK: guarded.cu:[[@LINE+7]]:5: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: __syncthreads() inside a loop under an if that differs between threads: the consumers' barrier would be divergent
__global__ void barrier_inside(int nx, int ny, const float *__restrict__ A,
                               float *__restrict__ y) {
  __shared__ float last[1024];
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    y[j] = 0.0f;
    for (int i = 0; i < nx; i++) {
      last[threadIdx.x] = A[i * ny + j];
      __syncthreads();
      y[j] += last[(threadIdx.x + 1) % blockDim.x];
    }
  }
}

// The induction variable's final value is read after the loop.
// REMARK: guarded.cu:[[@LINE+6]]:5: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: the induction variable 'i' is used outside the loop
__global__ void final_value(int nx, int ny, const float *A, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    y[j] = 0.0f;
    int i;
    for (i = 0; i < nx; i++)
      y[j] += A[i * ny + j];
    y[j] += (float)i;
  }
}

// Every kernel on every shape; the hash of the outputs' bits must not depend
// on the build (as written or rewritten) nor on DD_SPLIT_POLICY. A is
// allocated to its exact size, so a copy past a guard reads out of bounds
// (compute-sanitizer).
static unsigned long long hash(const std::vector<float> &V,
                               unsigned long long H) {
  for (float F : V) {
    unsigned Bits;
    std::memcpy(&Bits, &F, sizeof Bits);
    H = (H ^ Bits) * 1099511628211ull;
  }
  return H;
}

int main() {
  const int Cols[] = {1, 31, 255, 256, 257, 1000, 4099};
  const int Rows[] = {0, 1, 7, 32, 33, 200};
  const unsigned Blocks[] = {64, 128, 256, 992};
  unsigned long long H = 14695981039346656037ull;
  for (int ny : Cols)
    for (int nx : Rows)
      for (unsigned B : Blocks) {
        const size_t Elems = size_t(nx) * ny;
        std::vector<float> A(Elems), T(nx > 0 ? nx : 1);
        for (size_t I = 0; I < Elems; ++I)
          A[I] = float((I * 2654435761u) % 1000) / 7.0f;
        for (int I = 0; I < nx; ++I)
          T[I] = float(I % 13) - 6.0f;
        float *dA, *dT, *dY, *dM, *dO, *dS;
        int *dLive;
        cudaMalloc(&dA, Elems ? Elems * sizeof(float) : 4);
        cudaMalloc(&dT, T.size() * sizeof(float));
        cudaMalloc(&dY, ny * sizeof(float));
        cudaMalloc(&dM, ny * sizeof(float));
        cudaMalloc(&dO, ny * sizeof(float));
        cudaMalloc(&dS, ny * sizeof(float));
        cudaMalloc(&dLive, sizeof(int));
        cudaMemcpy(dA, A.data(), Elems * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemcpy(dT, T.data(), T.size() * sizeof(float),
                   cudaMemcpyHostToDevice);
        cudaMemset(dO, 0, ny * sizeof(float));
        cudaMemset(dS, 0, ny * sizeof(float));
        const int One = 1;
        cudaMemcpy(dLive, &One, sizeof One, cudaMemcpyHostToDevice);
        const unsigned G = (ny + B - 1) / B;
        colsum<<<G, B>>>(nx, ny, dA, dY, dT);
        colmean<<<G, B>>>(nx, unsigned(ny - 1), dA, dM);
        rowdot<<<G, B>>>(nx, ny, dA, dO);
        if (ny >= 2) {
          // ny / 2 rows of nx * 2 (every row but the last ones' blocks).
          const int Rows = ny / 2;
          std::vector<float> R(size_t(Rows + 1) * B);
          float *dR;
          cudaMalloc(&dR, R.size() * sizeof(float));
          if (size_t(Rows) * nx * 2 <= Elems)
            rowsum<<<Rows + 1, B>>>(dA, dR, nx * 2, Rows);
          cudaMemcpy(R.data(), dR, R.size() * sizeof(float),
                     cudaMemcpyDeviceToHost);
          H = hash(R, H);
          cudaFree(dR);
        }
        with_else<<<G, B>>>(nx, ny, dA, dS, dLive);
        suffix<<<G, B>>>(nx, ny, ny / 3, dA, dS);
        declared_inside<<<G, B>>>(nx, ny, dA, dS);
        loaded_guard<<<G, B>>>(nx, ny, dLive, dA, dS);
        strided_guard<<<G, B>>>(nx, ny, dA, dS);
        final_value<<<G, B>>>(nx, ny, dA, dS);
        std::vector<float> Y(ny), M(ny), O(ny), S(ny);
        cudaMemcpy(Y.data(), dY, ny * sizeof(float), cudaMemcpyDeviceToHost);
        cudaMemcpy(M.data(), dM, ny * sizeof(float), cudaMemcpyDeviceToHost);
        cudaMemcpy(O.data(), dO, ny * sizeof(float), cudaMemcpyDeviceToHost);
        cudaMemcpy(S.data(), dS, ny * sizeof(float), cudaMemcpyDeviceToHost);
        if (cudaDeviceSynchronize() != cudaSuccess) {
          std::printf("CUDA error at ny %d nx %d block %u\n", ny, nx, B);
          return 1;
        }
        H = hash(S, hash(O, hash(M, hash(Y, H))));
        cudaFree(dA);
        cudaFree(dT);
        cudaFree(dY);
        cudaFree(dM);
        cudaFree(dO);
        cudaFree(dS);
        cudaFree(dLive);
      }
  std::printf("hash %llx\n", H);
  return 0;
}
