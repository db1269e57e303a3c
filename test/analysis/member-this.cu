// RUN: %decoupler --analyze %s | FileCheck %s
// A member function is analysed with `this` bound to the object it is
// called on: fields of a kernel parameter passed by value read the same in
// every thread, so an accessor's result is as uniform as its arguments
// (Kaldi's decoder reaches its per-lane arrays through `lane(ilane)`). A
// function that returns a reference into memory returns an address
// (`operator()`). A by-value parameter stays read-only while the
// kernel writes through pointers it cannot place, as long as its own
// address never leaves the code the analysis follows.

template <typename T> struct View {
  T *data_;
  int ncols_;
  __device__ T *lane(int i) const { return &data_[i * ncols_]; }
  __device__ T &operator()(int i, int j) { return data_[i * ncols_ + j]; }
  __device__ T *base() const { return this->data_; }
  __device__ void set_cols(int c) { ncols_ = c; }
  __device__ View *self() { return this; }
};

struct Params {
  View<int> hist;
  View<int> counters;
};

// CHECK-LABEL: kernel 'accessors'
__global__ void accessors(Params p, int nlanes) {
  for (int ilane = blockIdx.y; ilane < nlanes; ilane += gridDim.y) {
    // CHECK-DAG: [[@LINE+1]]:5 atomic unknown affine (x:4 bytes) atomicAdd(&p.hist.lane(ilane)[threadIdx.x], 1)
    atomicAdd(&p.hist.lane(ilane)[threadIdx.x], 1);
    // CHECK-DAG: [[@LINE+1]]:5 atomic unknown scalar atomicAdd(&p.counters(ilane, 0), 1)
    atomicAdd(&p.counters(ilane, 0), 1);
    // CHECK-DAG: [[@LINE+1]]:5 atomic unknown affine (x:4 bytes) atomicAdd(&p.hist(ilane, threadIdx.x), 1)
    atomicAdd(&p.hist(ilane, threadIdx.x), 1);
    // CHECK-DAG: [[@LINE+1]]:5 atomic unknown nonaffine atomicAdd(&p.hist(ilane, threadIdx.x % 4), 1)
    atomicAdd(&p.hist(ilane, threadIdx.x % 4), 1);
    // CHECK-DAG: [[@LINE+1]]:5 atomic unknown scalar atomicAdd(p.counters.base() + ilane, 1)
    atomicAdd(p.counters.base() + ilane, 1);
  }
}

// Through a pointer parameter: `this` is the pointer, whose fields are
// read-only only while the kernel writes no global memory (as for any
// pointer parameter).
// CHECK-LABEL: kernel 'through_pointer'
__global__ void through_pointer(const View<int> *v, int *out) {
  // CHECK-DAG: [[@LINE+1]]:22 load unknown affine (x:4 bytes) v->lane(blockIdx.x)[threadIdx.x]
  out[threadIdx.x] = v->lane(blockIdx.x)[threadIdx.x];
}

// A member function that writes a field: the parameter is written, its
// fields no longer the same in every thread.
// CHECK-LABEL: kernel 'written'
__global__ void written(View<int> v, int *out) {
  v.set_cols(threadIdx.x);
  // CHECK-DAG: [[@LINE+1]]:3 store unknown nonaffine v.lane(1)[threadIdx.x]
  v.lane(1)[threadIdx.x] = 0;
}

// `this` let out (returned, a field's address stored), with a store through
// a pointer the analysis cannot place: that store may land in the
// parameter, and here does.
// CHECK-LABEL: kernel 'escaped'
__global__ void escaped(View<int> v, int **slot) {
  *slot = &v.self()->ncols_;
  **slot = threadIdx.x;
  // CHECK-DAG: [[@LINE+1]]:3 store unknown nonaffine v.lane(1)[threadIdx.x]
  v.lane(1)[threadIdx.x] = 0;
}

// A second parameter through the same member function: `self` lets `this`
// out whichever object it runs on.
// CHECK-LABEL: kernel 'escaped_second'
__global__ void escaped_second(View<int> a, View<int> b, int **slot) {
  *slot = &a.self()->ncols_;
  **slot = threadIdx.x;
  b.self();
  // CHECK-DAG: [[@LINE+1]]:3 store unknown nonaffine b.lane(1)[threadIdx.x]
  b.lane(1)[threadIdx.x] = 0;
}

// Captured by reference: the closure holds the parameter's address.
// CHECK-LABEL: kernel 'captured'
__global__ void captured(View<int> v, int **slot) {
  auto cols = [&v] { return &v.ncols_; };
  *slot = cols();
  **slot = threadIdx.x;
  // CHECK-DAG: [[@LINE+1]]:3 store unknown nonaffine v.lane(1)[threadIdx.x]
  v.lane(1)[threadIdx.x] = 0;
}

// The same without the escape: the store through `*slot` cannot reach `v`.
// CHECK-LABEL: kernel 'kept'
__global__ void kept(View<int> v, int **slot) {
  **slot = 1;
  // CHECK-DAG: [[@LINE+1]]:3 store unknown affine (x:4 bytes) v.lane(1)[threadIdx.x]
  v.lane(1)[threadIdx.x] = 0;
}

// An object of the kernel's own: every thread's own memory, not followed.
// CHECK-LABEL: kernel 'local_object'
__global__ void local_object(int *data, int *out) {
  View<int> v{data, 32};
  // CHECK-DAG: [[@LINE+1]]:22 load unknown nonaffine v.lane(blockIdx.x)[threadIdx.x]
  out[threadIdx.x] = v.lane(blockIdx.x)[threadIdx.x];
}

// A parameter the kernel only reads fields of is tracked as one value,
// which stands for what its pointer fields reach as well: `v.data_[k]` is
// memory another pointer may write (`out` may be `v.data_`), so a write to
// global memory, or through a pointer the analysis cannot place, leaves
// its loads nonaffine, as for any pointer parameter.
// CHECK-LABEL: kernel 'tracked_global'
__global__ void tracked_global(View<int> v, int *out) {
  // CHECK-DAG: [[@LINE+1]]:3 store global nonaffine out[v.data_[blockIdx.x]]
  out[v.data_[blockIdx.x]] = 1;
}
// CHECK-LABEL: kernel 'tracked_unknown'
__global__ void tracked_unknown(View<int> v, int **slot) {
  // CHECK-DAG: [[@LINE+1]]:3 store unknown nonaffine (*slot)[v.data_[blockIdx.x]]
  (*slot)[v.data_[blockIdx.x]] = 1;
}
