// Listing 4.1 with the loop's flag assigned by the try-lock's condition, as
// z-buffer kernels write it: `do { if (locked = atomicCAS(&lock[i], 0, 1) ==
// 0) { ...; atomicExch(&lock[i], 0); } } while (!locked);` (unparenthesized,
// inside a loop over candidates with a `continue` before it), and the
// parenthesized `if ((got = !atomicExch(...)))` in a while loop. Both are
// delegated like Listing 4.1; the flag's declaration goes with the loop. So
// is an A* relaxation's `while (leaveLoop == false)`.
// A section that reads the flag is refused (the message would carry the
// flag's value before the loop, false; in the original it is true there),
// and a condition that assigns some other variable is no try-lock loop.
// RUN: %decoupler --no-line-directives --passes=delegate --delegate=auto %s -o %t.cu -- -Wno-parentheses 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// RUN: not %decoupler --passes=delegate %s -o %t.refused.cu -- -DREFUSE -Wno-parentheses 2>&1 | FileCheck %s --check-prefix=REFUSE
// RUN: test ! -e %t.refused.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

#ifndef REFUSE
// AUTO: rewrite-flag-in-condition.cu:[[@LINE+26]]:5: remark: --delegate=auto: delegated the unannotated critical section (one lock) of 'zbuffer'
// CHECK: struct zbuffer_message {
// CHECK-NEXT:   int index;
// CHECK-NEXT:   float zp;
// CHECK-NEXT:   int t;
// CHECK-NEXT: };
// CHECK: __device__ void zbuffer_critical_section(int index, float zp, int t, float *depth, int *face_of, const int *faces) {
// CHECK-NEXT:   if (zp < depth[index]) {
// CHECK: __global__ void zbuffer_client(
// CHECK-NOT: bool locked
// CHECK:     if (zp <= 0.f)
// CHECK-NEXT:  continue;
// CHECK-NEXT: // decoupler: delegated; zbuffer_server runs the critical section
// CHECK-NEXT: dd_tx.send(zbuffer_delegate::route(dd_channel, index), zbuffer_message{index, zp, t});
// CHECK-NEXT: }
__global__ void zbuffer(const float *zs, const int *pix, const int *faces, int n, int per,
                        float *depth, int *face_of, int *lock) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  for (int k = 0; k < per; ++k) {
    const int index = pix[t * per + k];
    const float zp = zs[t * per + k];
    if (zp <= 0.f)
      continue;
    bool locked = false;
    do {
      if (locked = atomicCAS(&lock[index], 0, 1) == 0) {
        if (zp < depth[index]) {
          depth[index] = zp;
          face_of[index] = faces[t];
        }
        atomicExch(&lock[index], 0);
      }
    } while (!locked);
  }
}

// The flag stays where code after the loop reads it, and is set after the
// send as the loop left it.
// AUTO: rewrite-flag-in-condition.cu:[[@LINE+11]]:3: remark: --delegate=auto: delegated the unannotated critical section (one lock) of 'tally'
// CHECK: __global__ void tally_client(
// CHECK: bool got = false;
// CHECK-NEXT: // decoupler: delegated; tally_server runs the critical section
// CHECK-NEXT: dd_tx.send(tally_delegate::route(dd_channel, k), tally_message{k});
// CHECK-NEXT: got = true;
// CHECK-NEXT: seen[i] = got;
__global__ void tally(const int *keys, int n, int *count, int *locks, int *seen) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = keys[i % n];
  bool got = false;
  while (!got) {
    if ((got = !atomicExch(&locks[k], 1))) {
      __threadfence();
      count[k] += 1;
      __threadfence();
      atomicExch(&locks[k], 0);
    }
  }
  seen[i] = got;
}

// An A* relaxation's spelling: `while (flag == false)`, the flag set before
// the unlock, a fence inside the section.
// AUTO: rewrite-flag-in-condition.cu:[[@LINE+15]]:5: remark: --delegate=auto: delegated the unannotated critical section (one lock) of 'relax'
// CHECK: __device__ void relax_critical_section(int child, int node, int start, int *Cx, const int *Hx, const int *W, int *parent) {
// CHECK: dd_tx.send(relax_delegate::route(dd_channel, child), relax_message{child, node, start});
// CHECK-NEXT: start++;
__global__ void relax(const int *off, const int *edge, const int *W, const int *Hx, int N, int E,
                      int *Cx, int *parent, int *lock, const int *frontier, int nf) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= nf)
    return;
  const int node = frontier[id];
  int start = off[node];
  const int end = node != N - 1 ? off[node + 1] : E;
  while (start < end) {
    const int child = edge[start];
    bool leaveLoop = false;
    while (leaveLoop == false) {
      if (atomicCAS(&lock[child], 0, 1) == 0) {
        if (Cx[child] > Cx[node] - Hx[node] + W[start] + Hx[child]) {
          Cx[child] = Cx[node] - Hx[node] + W[start] + Hx[child];
          __threadfence();
          parent[child] = node;
        }
        leaveLoop = true;
        atomicExch(&lock[child], 0);
      }
    }
    start++;
  }
}
#else
// REFUSE: rewrite-flag-in-condition.cu:[[@LINE+10]]:19: error: cannot delegate this critical section: the critical section reads 'locked', which the try-lock's condition sets: on the server it would still read as before the loop
__global__ void reads_flag(const int *keys, int n, int *count, int *locks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int k = keys[i];
  bool locked = false;
#pragma dd delegate
  do {
    if (locked = atomicCAS(&locks[k], 0, 1) == 0) {
      count[k] += locked;
      atomicExch(&locks[k], 0);
    }
  } while (!locked);
}

// REFUSE: rewrite-flag-in-condition.cu:[[@LINE+9]]:3: error: cannot delegate this critical section: not a try-lock loop
__global__ void other_flag(const int *keys, int n, int *count, int *locks, int *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int k = keys[i];
  bool done = false;
  bool took = false;
#pragma dd delegate
  do {
    if ((took = atomicCAS(&locks[k], 0, 1) == 0)) {
      count[k] += 1;
      atomicExch(&locks[k], 0);
    }
  } while (!done);
  out[i] = took;
}

// The same with a __syncwarp() in the loop after the try: the loop is more
// than the try-lock, so it is not one.
// REFUSE: rewrite-flag-in-condition.cu:[[@LINE+8]]:3: error: cannot delegate this critical section: not a try-lock loop
__global__ void relax_syncwarp(const int *keys, int n, int *Cx, int *lock) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int child = keys[i];
  bool leaveLoop = false;
#pragma dd delegate
  while (leaveLoop == false) {
    if (atomicCAS(&lock[child], 0, 1) == 0) {
      Cx[child] += 1;
      leaveLoop = true;
      atomicExch(&lock[child], 0);
    }
    __syncwarp();
  }
}
#endif

void run(int n) {
#ifndef REFUSE
  zbuffer<<<1, 32>>>(nullptr, nullptr, nullptr, n, 1, nullptr, nullptr, nullptr);
  tally<<<1, 32>>>(nullptr, n, nullptr, nullptr, nullptr);
  relax<<<1, 32>>>(nullptr, nullptr, nullptr, nullptr, n, n, nullptr, nullptr, nullptr, nullptr, n);
#else
  reads_flag<<<1, 32>>>(nullptr, n, nullptr, nullptr);
  other_flag<<<1, 32>>>(nullptr, n, nullptr, nullptr, nullptr);
  relax_syncwarp<<<1, 32>>>(nullptr, n, nullptr, nullptr);
#endif
}
