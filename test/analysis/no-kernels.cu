// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A file without any __global__ function has nothing to classify: the kernel
// list is empty. Device functions that no kernel calls are not reported.

__device__ int twice(int x) { return 2 * x; }

__device__ void store_twice(int *p, int i) { p[i] = twice(i); }

int host_sum(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

// CHECK: "kernels": []
// CHECK-NOT: "name": "twice"
// CHECK-NOT: "name": "store_twice"
// CHECK-NOT: "function":
