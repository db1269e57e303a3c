// CUDA functions are recognized by their declaration, never by their name: a
// user's function spelled like a CUDA atomic, barrier or intrinsic is an
// ordinary call to every pass and to the analysis.
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=JSON
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

namespace mylib {
// A saturating add with atomicAdd's spelling: not CUDA's.
__device__ int atomicAdd(int *p, int v) {
  int old = *p;
  *p = old > 1000 - v ? 1000 : old + v;
  return old;
}
// Not the hardware clock: the same value in every thread.
__device__ long long clock64() { return 42; }
} // namespace mylib

// A user's overload of the global name for a type CUDA has none for.
__device__ short atomicAdd(short *p, short v) {
  short old = *p;
  *p = old + v;
  return old;
}

__global__ void saturate(int *bins, const int *keys) {
  int k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  // REMARK-NOT: {{.*}}:[[@LINE+2]]:{{.*}} remark
  // CHECK: mylib::atomicAdd(&bins[k & 255], 1);
  mylib::atomicAdd(&bins[k & 255], 1);
}

__global__ void shorts(short *s, unsigned long long *total, const int *keys) {
  int k = keys[threadIdx.x];
  // CHECK: atomicAdd(&s[k & 7], (short)1);
  atomicAdd(&s[k & 7], (short)1);
  // CUDA's own atomicAdd in the same file is still rewritten.
  // REMARK: [[@LINE+2]]:3: remark: atomicAdd -> dd::atomic_add_uniform: scalar address
  // CHECK: dd::atomic_add_uniform(total, 1ull);
  atomicAdd(total, 1ull);
}

__global__ void timed(long long *out) {
  // The user's clock64 returns the same value in every thread, so the
  // store's address (an index scaled by it) is scalar.
  long long t = mylib::clock64();
  out[t] = 1;
}

// The user's atomicAdd is analysed as the function it is (a load and a
// store); only CUDA's atomicAdd is an atomic access.
// JSON: "name": "saturate"
// JSON-NOT: "kind": "atomic"
// JSON: {"line": 13, "column": 13, "kind": "load", {{.*}} "function": "atomicAdd"}
// JSON: {"line": 14, "column": 3, "kind": "store", {{.*}} "function": "atomicAdd"}
// JSON-NOT: "kind": "atomic"
// JSON: "name": "shorts"
// JSON-NOT: "kind": "atomic"
// JSON: {"line": 42, "column": 3, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0}
// JSON: "name": "timed"
// JSON: {"line": 49, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0}
