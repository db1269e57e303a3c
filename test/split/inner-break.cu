// A break that leaves a switch or a loop nested in the split loop stays in
// the iteration: the consumers run the body whole inside their per-iteration
// loop, so it leaves the same statement there. A continue inside such a
// switch still continues the split loop (its next iteration). The program
// runs every shape against the CPU on the GPU
// (test/gpu/lit-programs-differential.sh); a break of the split loop itself
// stays refused (rewrite-split-decline.cu).
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=warning
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Xcompiler -Wall -Werror all-warnings -c %t.dd.cu -o %t.o
#include <cstdio>
#include <vector>

// Matvec's shape: a switch on the element with breaks, a default that
// continues.
// REMARK: inner-break.cu:[[@LINE+15]]:3: remark: --split=auto: split plan for loop: streams A[(long long)row * n + j] {{.*}}; rewritten: classify_split
// CHECK: __global__ void __launch_bounds__(288) classify_split(
// CHECK: const int a = dd_s0[dd_u];
// CHECK-NEXT: switch (a & 3) {
// CHECK-NEXT: case 0:
// CHECK-NEXT: sum += a;
// CHECK-NEXT: break;
// CHECK-NEXT: case 1:
// CHECK-NEXT: sum -= 2 * a;
// CHECK-NEXT: break;
// CHECK-NEXT: case 2:
// CHECK-NEXT: continue;
__global__ void classify(const int *A, long long *y, int n) {
  const int row = blockIdx.x;
  long long sum = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    const int a = A[(long long)row * n + j];
    switch (a & 3) {
    case 0:
      sum += a;
      break;
    case 1:
      sum -= 2 * a;
      break;
    case 2:
      continue;
    default:
      sum ^= a;
    }
    sum += 7;
  }
  y[row * blockDim.x + threadIdx.x] = sum;
}

// Row tiles: an inner loop that breaks at the first digit of the element
// above 5, then a barrier-free accumulation.
// REMARK: inner-break.cu:[[@LINE+9]]:3: remark: --split=auto: split plan for loop: streams A[i * num + tid] {{.*}}; rewritten: digits_split
// CHECK: __global__ void __launch_bounds__(288) digits_split(
// CHECK: const int a = dd_s0[dd_u];
// CHECK-NEXT: for (int v = a; v > 0; v /= 10) {
// CHECK-NEXT: if (v % 10 > 5)
// CHECK-NEXT: break;
__global__ void digits(const int *A, int *B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int steps = 0;
  for (int i = 0; i < dim; i++) {
    const int a = A[i * num + tid];
    for (int v = a; v > 0; v /= 10) {
      if (v % 10 > 5)
        break;
      ++steps;
    }
    B[i * num + tid] = steps;
  }
}

static long long classifyCpu(const std::vector<int> &A, int row, int n, unsigned t, unsigned block) {
  long long sum = 0;
  for (unsigned j = t; j < unsigned(n); j += block) {
    const int a = A[(long long)row * n + j];
    switch (a & 3) {
    case 0:
      sum += a;
      break;
    case 1:
      sum -= 2 * a;
      break;
    case 2:
      continue;
    default:
      sum ^= a;
    }
    sum += 7;
  }
  return sum;
}

// Both kernels at sizes from one element to thousands of iterations per
// thread and blocks of 32 to 1024 threads (the split runs blocks up to 256;
// larger ones run as written), three launches each (the launcher probes,
// then chooses). Prints the hash of every result and checks each against
// the CPU.
int main() {
  const int Lengths[] = {1, 31, 32, 33, 255, 256, 1000, 4097, 20000};
  const unsigned Blocks[] = {32, 64, 128, 256, 512, 1024};
  const unsigned Rows = 5;
  unsigned long long H = 14695981039346656037ull;
  int Bad = 0;
  for (int N : Lengths)
    for (unsigned B : Blocks) {
      // classify: Rows rows of N elements.
      std::vector<int> A(size_t(N) * Rows);
      for (size_t I = 0; I < A.size(); ++I)
        A[I] = int((I * 2654435761u + unsigned(N)) % 100003);
      int *dA;
      long long *dY;
      cudaMalloc(&dA, A.size() * sizeof(int));
      cudaMalloc(&dY, size_t(Rows) * B * sizeof(long long));
      cudaMemcpy(dA, A.data(), A.size() * sizeof(int), cudaMemcpyHostToDevice);
      for (int Rep = 0; Rep < 3; ++Rep)
        classify<<<Rows, B>>>(dA, dY, N);
      std::vector<long long> Y(size_t(Rows) * B);
      cudaMemcpy(Y.data(), dY, Y.size() * sizeof(long long), cudaMemcpyDeviceToHost);
      for (unsigned R = 0; R < Rows; ++R)
        for (unsigned T = 0; T < B; ++T) {
          const long long Want = classifyCpu(A, int(R), N, T, B);
          if (Y[R * B + T] != Want && Bad++ < 10)
            std::printf("FAIL: classify n %d block %u row %u thread %u: %lld, not %lld\n", N, B, R, T,
                        Y[R * B + T], Want);
          H = (H ^ (unsigned long long)Y[R * B + T]) * 1099511628211ull;
        }
      cudaFree(dA);
      cudaFree(dY);

      // digits: N rows of Rows blocks' worth of columns.
      const int Dim = N < 4097 ? N : 4097, Num = int(Rows * B);
      std::vector<int> D(size_t(Dim) * Num);
      for (size_t I = 0; I < D.size(); ++I)
        D[I] = int((I * 40503u + unsigned(N)) % 1000000);
      int *dD, *dOut;
      cudaMalloc(&dD, D.size() * sizeof(int));
      cudaMalloc(&dOut, D.size() * sizeof(int));
      cudaMemcpy(dD, D.data(), D.size() * sizeof(int), cudaMemcpyHostToDevice);
      for (int Rep = 0; Rep < 3; ++Rep)
        digits<<<Rows, B>>>(dD, dOut, Dim, Num);
      std::vector<int> Out(D.size());
      cudaMemcpy(Out.data(), dOut, Out.size() * sizeof(int), cudaMemcpyDeviceToHost);
      if (cudaDeviceSynchronize() != cudaSuccess) {
        std::printf("FAIL: CUDA error at n %d block %u\n", N, B);
        return 1;
      }
      for (int T = 0; T < Num; ++T) {
        int Steps = 0;
        for (int I = 0; I < Dim; ++I) {
          for (int V = D[size_t(I) * Num + T]; V > 0; V /= 10) {
            if (V % 10 > 5)
              break;
            ++Steps;
          }
          if (Out[size_t(I) * Num + T] != Steps && Bad++ < 10)
            std::printf("FAIL: digits n %d block %u row %d column %d: %d, not %d\n", N, B, I, T,
                        Out[size_t(I) * Num + T], Steps);
          H = (H ^ unsigned(Out[size_t(I) * Num + T])) * 1099511628211ull;
        }
      }
      cudaFree(dD);
      cudaFree(dOut);
    }
  std::printf("hash %llx\n%s\n", H, Bad ? "check FAILED" : "check ok");
  return Bad ? 1 : 0;
}
