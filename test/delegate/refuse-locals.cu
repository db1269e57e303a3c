// What a critical section may do to the client's locals (issue 13): on the
// server a local of the client is the server thread's copy (its value came
// in the message); a plain local the section changes and the kernel uses
// outside it comes back in the server's reply (rewrite-reply.cu), but an
// array or a pointer does not, neither by assignment nor through its
// address, a reference parameter or a reference; and a pointer in the message must address
// global memory: one that may point to a client local, to __shared__
// memory, or whose origin the pass cannot follow (a flow-insensitive
// points-to over the kernel) is refused with a note where it gets that
// address. Annotated: errors; --delegate=auto: warnings, file unchanged.
// RUN: rm -f %t.cu
// RUN: not %decoupler --passes=delegate %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// RUN: sed 's/#pragma dd delegate//' %s > %t.plain.cu
// RUN: %decoupler --passes=delegate --delegate=auto %t.plain.cu -o %t.auto.cu 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: cmp %t.plain.cu %t.auto.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
#include <dd/annotate.h>

__device__ void take(int *table, int b, int *got) { *got = table[b]; table[b] = 0; }
__device__ void take_ref(int *table, int b, int *&got) { got = table + b; }

// CHECK: refuse-locals.cu:[[@LINE+14]]:22: error: cannot delegate this critical section: the critical section takes the address of 'got', a local of the client that the kernel uses outside it; on the server that is the server thread's copy, and the client's 'got' would not change (only a local that is no parameter, array or pointer comes back in the reply)
// CHECK-NEXT: {{^}} [[#@LINE+13]] |       take(table, b, &got[1]);
// CHECK-NEXT: {{^}}      |                      ^
// AUTO: {{.*}}:[[@LINE+11]]:22: warning: --delegate=auto: try-lock loop not delegated: the critical section takes the address of 'got', a local of the client that the kernel uses outside it; on the server that is the server thread's copy, and the client's 'got' would not change (only a local that is no parameter, array or pointer comes back in the reply)
// AUTO-NEXT: {{^}} [[#@LINE+10]] |       take(table, b, &got[1]);
// AUTO-NEXT: {{^}}      |                      ^
__global__ void address_of_local(int *table, int *out, int *locks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = i % 8;
  int got[2] = {-1, -1};
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      take(table, b, &got[1]);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  out[i] = got[1];
}

// CHECK: refuse-locals.cu:[[@LINE+14]]:26: error: cannot delegate this critical section: the critical section passes 'got' by reference to 'take_ref', a local of the client that the kernel uses outside it; on the server that is the server thread's copy, and the client's 'got' would not change (only a local that is no parameter, array or pointer comes back in the reply)
// CHECK-NEXT: {{^}} [[#@LINE+13]] |       take_ref(table, b, got);
// CHECK-NEXT: {{^}}      |                          ^
// AUTO: {{.*}}:[[@LINE+11]]:26: warning: --delegate=auto: try-lock loop not delegated: the critical section passes 'got' by reference to 'take_ref', a local of the client that the kernel uses outside it; on the server that is the server thread's copy, and the client's 'got' would not change (only a local that is no parameter, array or pointer comes back in the reply)
// AUTO-NEXT: {{^}} [[#@LINE+10]] |       take_ref(table, b, got);
// AUTO-NEXT: {{^}}      |                          ^
__global__ void reference_to_local(int *table, int **out, int *locks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = i % 8;
  int *got = nullptr;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      take_ref(table, b, got);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  out[i] = got;
}

// CHECK: refuse-locals.cu:[[@LINE+17]]:20: error: cannot delegate this critical section: the critical section uses 'slot', which may point to 'mine', a local of the client; on the server it would address the server thread's own memory
// CHECK-NEXT: {{^}} [[#@LINE+16]] |       table[b] += *slot;
// CHECK-NEXT: {{^}}      |                    ^
// CHECK-NEXT: refuse-locals.cu:[[@LINE+9]]:24: note: 'slot' may take the address of 'mine' here
// AUTO: {{.*}}:[[@LINE+13]]:20: warning: --delegate=auto: try-lock loop not delegated: the critical section uses 'slot', which may point to 'mine', a local of the client; on the server it would address the server thread's own memory
// AUTO-NEXT: {{^}} [[#@LINE+12]] |       table[b] += *slot;
// AUTO-NEXT: {{^}}      |                    ^
// AUTO-NEXT: {{.*}}:[[@LINE+5]]:24: note: 'slot' may take the address of 'mine' here
__global__ void pointer_to_local(int *table, int *out, int *locks, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = i % 8;
  int mine = i, spare = 0;
  int *slot = i < n ? &mine : &spare;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      table[b] += *slot;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: refuse-locals.cu:[[@LINE+17]]:20: error: cannot delegate this critical section: the critical section uses 'row', which may point to shared memory ('tile'); on the server it would address the server block's shared memory, which holds its lock table
// CHECK-NEXT: {{^}} [[#@LINE+16]] |       table[b] += *row;
// CHECK-NEXT: {{^}}      |                    ^
// CHECK-NEXT: refuse-locals.cu:[[@LINE+9]]:14: note: 'row' may take this address here
// AUTO: {{.*}}:[[@LINE+13]]:20: warning: --delegate=auto: try-lock loop not delegated: the critical section uses 'row', which may point to shared memory ('tile'); on the server it would address the server block's shared memory, which holds its lock table
// AUTO-NEXT: {{^}} [[#@LINE+12]] |       table[b] += *row;
// AUTO-NEXT: {{^}}      |                    ^
// AUTO-NEXT: {{.*}}:[[@LINE+5]]:14: note: 'row' may take this address here
__global__ void pointer_to_shared(int *table, int *locks) {
  __shared__ int tile[32];
  int b = blockIdx.x % 8;
  tile[threadIdx.x % 32] = b;
  int *row = tile + threadIdx.x % 32;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      table[b] += *row;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__device__ int *pick(int *a, int *b, int k) { return k ? a : b; }

// CHECK: refuse-locals.cu:[[@LINE+15]]:7: error: cannot delegate this critical section: the critical section uses 'dst', a pointer of an origin the delegate pass cannot follow; it could address the client thread's locals or its block's shared memory, which the server cannot reach
// CHECK-NEXT: {{^}} [[#@LINE+14]] |       dst[b] += 1;
// CHECK-NEXT: {{^}}      |       ^
// CHECK-NEXT: refuse-locals.cu:[[@LINE+7]]:14: note: 'dst' may be set from this
// AUTO: {{.*}}:[[@LINE+11]]:7: warning: --delegate=auto: try-lock loop not delegated: the critical section uses 'dst', a pointer of an origin the delegate pass cannot follow; it could address the client thread's locals or its block's shared memory, which the server cannot reach
// AUTO-NEXT: {{^}} [[#@LINE+10]] |       dst[b] += 1;
// AUTO-NEXT: {{^}}      |       ^
// AUTO-NEXT: {{.*}}:[[@LINE+3]]:14: note: 'dst' may be set from this
__global__ void pointer_unknown(int *table, int *other, int *locks) {
  int b = blockIdx.x % 8;
  int *dst = pick(table, other, b & 1);
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      dst[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: refuse-locals.cu:[[@LINE+14]]:17: error: cannot delegate this critical section: the critical section binds the reference 'r' to 'got', a local of the client that the kernel uses outside it; on the server that is the server thread's copy, and the client's 'got' would not change (only a local that is no parameter, array or pointer comes back in the reply)
// CHECK-NEXT: {{^}} [[#@LINE+13]] |       int *&r = got;
// CHECK-NEXT: {{^}}      |                 ^
// AUTO: {{.*}}:[[@LINE+11]]:17: warning: --delegate=auto: try-lock loop not delegated: the critical section binds the reference 'r' to 'got', a local of the client that the kernel uses outside it; on the server that is the server thread's copy, and the client's 'got' would not change (only a local that is no parameter, array or pointer comes back in the reply)
// AUTO-NEXT: {{^}} [[#@LINE+10]] |       int *&r = got;
// AUTO-NEXT: {{^}}      |                 ^
__global__ void reference_local_in_section(int *table, int **out, int *locks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = i % 8;
  int *got = nullptr;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      int *&r = got;
      r = table + b;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  out[i] = got;
}
