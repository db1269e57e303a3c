// RUN: %decoupler --analyze %s | FileCheck %s
// A virtual call decided at run time gives a nonaffine value of unknown
// root and unknown writes: `read_only` loses its read-only parameter. A
// call the static type decides is followed. Every virtual function is open:
// Base::at is reported with the unknown context joined to its callers'.

struct Base {
  __device__ virtual int at(const int *a) const { return a[0]; }
};
struct Lanes final : Base {
  __device__ int at(const int *a) const override { return a[threadIdx.x]; }
};

// CHECK-LABEL: kernel 'dynamic'
__global__ void dynamic(const Base *b, const int *a, int *out) {
  // CHECK-DAG: [[@LINE+1]]:3 store global nonaffine out[b->at(a)]
  out[b->at(a)] = 1;
}

// Base::at's load: this call passes `a` (scalar), the vtable anything; the
// value this call returns is its own.
// CHECK-LABEL: kernel 'qualified'
// CHECK-DAG: 8:58 load unknown nonaffine a[0] [in at]
__global__ void qualified(const Base *b, const int *a, int *out) {
  // CHECK-DAG: [[@LINE+1]]:3 store global scalar out[b->Base::at(a)]
  out[b->Base::at(a)] = 1;
}

// CHECK-LABEL: kernel 'final_class'
__global__ void final_class(const Lanes *l, const int *a, int *out) {
  // CHECK-DAG: [[@LINE+1]]:3 store global nonaffine out[l->at(a)]
  out[l->at(a)] = 1;
}

// The unknown writes of a dynamic call: `n` behind a pointer is no longer
// read-only, so a load of it is nonaffine.
// CHECK-LABEL: kernel 'read_only'
__global__ void read_only(const Base *b, const int *a, const int *n, int *out) {
  b->at(a);
  // CHECK-DAG: [[@LINE+2]]:3 store global nonaffine out[*n]
  // CHECK-DAG: [[@LINE+1]]:7 load global scalar *n
  out[*n] = 1;
}

