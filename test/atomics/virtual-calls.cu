// A virtual call through a pointer runs the overrider of the object's
// dynamic type, which the source does not show. The analysis used to follow
// the declared method: `g->get(a)` below was `a` in every lane, and the
// atomic at it became one atomic per warp, which adds the whole warp's
// count to one word when `g` points to a `Lanes`. Now such a call is as
// opaque as a call through a function pointer (its value unknown, anything
// may be written), and every virtual function is open to any arguments,
// like a function whose address is taken. A call whose overrider the
// static type decides (a qualified name, a final class, an object of its
// own type) is followed as before.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

typedef unsigned long long u64;

struct Getter {
  __device__ virtual u64 *get(u64 *a) { return a; }
};
struct Lanes : Getter {
  __device__ u64 *get(u64 *a) override { return a + threadIdx.x; }
};

// CHECK: virtual-calls.cu:[[@LINE+3]]:3: remark: atomicAdd -> dd::atomic_add_auto: nonaffine address in memory the pass cannot place
// OUT: dd::atomic_add_auto(g->get(a), 1ull);
__global__ void dynamic(Getter *g, u64 *a) {
  atomicAdd(g->get(a), 1ull);
}

// A qualified call runs Getter::get whatever the object is.
// CHECK: virtual-calls.cu:[[@LINE+3]]:3: remark: atomicAdd -> dd::atomic_add_uniform: scalar address: one atomic per warp
// OUT: dd::atomic_add_uniform(g->Getter::get(a), 1ull);
__global__ void qualified(Getter *g, u64 *a) {
  atomicAdd(g->Getter::get(a), 1ull);
}

// A final class has no other overrider.
struct Last final : Getter {
  __device__ u64 *get(u64 *a) override { return a + threadIdx.x; }
};
// CHECK: virtual-calls.cu:[[@LINE+3]]:3: remark: atomicAdd left unchanged: affine address (stride 8 bytes): the lanes of a warp update distinct words
// OUT: atomicAdd(l->get(a), 1ull);
__global__ void final_class(Last *l, u64 *a) {
  atomicAdd(l->get(a), 1ull);
}

// Atomics inside virtual functions: Base::bump runs from `through_base`
// with a scalar address and, through the vtable, from wherever else a
// `bump` call may land, with anything: decided at run time. Derived::bump
// is reached only through the vtable.
struct Base {
  // CHECK: virtual-calls.cu:[[@LINE+2]]:42: remark: atomicAdd -> dd::atomic_add_auto: nonaffine address in memory the pass cannot place
  // OUT: __device__ virtual void bump(u64 *a) { dd::atomic_add_auto(a, 1ull); }
  __device__ virtual void bump(u64 *a) { atomicAdd(a, 1ull); }
};
struct Derived : Base {
  // CHECK: virtual-calls.cu:[[@LINE+2]]:43: remark: atomicAdd left unchanged: no kernel of this file calls the virtual function 'Derived::bump' but through its object's dynamic type
  // OUT: __device__ void bump(u64 *a) override { atomicAdd(a + threadIdx.x, 1ull); }
  __device__ void bump(u64 *a) override { atomicAdd(a + threadIdx.x, 1ull); }
};
__global__ void through_base(Base *b, u64 *a) { b->Base::bump(a); }
__global__ void any_bump(Base *b, u64 *a) { b->bump(a); }

// On the GPU (test/gpu/lit-programs-differential.sh): the objects are made
// on the device, so their vtables are the device's, and every count is
// checked against what each thread adds. Through the old rewrite of
// `dynamic`, slot 0 of the `Lanes` run got every thread's count.
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T> __global__ void make(T **out) { *out = new T(); }

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <typename T> static T *device_object() {
  T **slot, *obj;
  check(cudaMalloc(&slot, sizeof(T *)), "cudaMalloc");
  make<T><<<1, 1>>>(slot);
  check(cudaMemcpy(&obj, slot, sizeof(T *), cudaMemcpyDeviceToHost), "make");
  check(cudaFree(slot), "cudaFree");
  return obj;
}

int main() {
  const unsigned blocks = 8, threads = 256;
  u64 *d;
  check(cudaMalloc(&d, threads * sizeof(u64)), "cudaMalloc");
  std::vector<u64> got(threads);
  int bad = 0;
  // One launch; `per_lane`: each thread adds 1 at its own slot, else all at
  // slot 0.
  auto run = [&](const char *name, bool per_lane, auto launch) {
    check(cudaMemset(d, 0, threads * sizeof(u64)), "cudaMemset");
    launch();
    check(cudaGetLastError(), name);
    check(cudaMemcpy(got.data(), d, threads * sizeof(u64), cudaMemcpyDeviceToHost), name);
    u64 sum = 0, wrong = 0;
    for (unsigned t = 0; t < threads; ++t) {
      u64 want = per_lane ? blocks : (t == 0 ? u64(blocks) * threads : 0);
      sum += got[t];
      wrong += got[t] != want;
    }
    std::printf("%s: sum %llu, %llu slots wrong\n", name, sum, wrong);
    bad += wrong != 0;
  };
  Getter *getter = device_object<Getter>();
  Getter *lanes = device_object<Lanes>();
  Last *last = device_object<Last>();
  Base *base = device_object<Base>();
  Base *derived = device_object<Derived>();
  run("dynamic Getter", false, [&] { dynamic<<<blocks, threads>>>(getter, d); });
  run("dynamic Lanes", true, [&] { dynamic<<<blocks, threads>>>(lanes, d); });
  run("qualified Lanes", false, [&] { qualified<<<blocks, threads>>>(lanes, d); });
  run("final_class", true, [&] { final_class<<<blocks, threads>>>(last, d); });
  run("through_base Derived", false, [&] { through_base<<<blocks, threads>>>(derived, d); });
  run("any_bump Base", false, [&] { any_bump<<<blocks, threads>>>(base, d); });
  run("any_bump Derived", true, [&] { any_bump<<<blocks, threads>>>(derived, d); });
  check(cudaDeviceSynchronize(), "kernels");
  return bad ? 1 : 0;
}
