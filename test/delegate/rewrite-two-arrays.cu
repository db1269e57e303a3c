// Two nested locks from two different lock arrays (SGD's users and items)
// get dd::NestedDelegateTwoArrays: each array its own lock words, the inner
// lock's server runs the section. The pass decides on the arrays' roots
// (MemoryRoots): two distinct parameters or globals, the same two in every
// section of the kernel, outer then inner. Anything else keeps one id space
// (dd::NestedDelegate): one lock word per server (locks(1)), one array
// spelled through two pointers, arrays
// reached through a struct, two sections taking the arrays in opposite
// orders (that would break the outer-before-inner order), a one-lock section
// beside the nested one.
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

// Two parameters.
// REMARK: rewrite-two-arrays.cu:[[@LINE+13]]:3: remark: delegated the critical section (two nested locks, two lock arrays) of 'params'
// CHECK: /// The two locks come from two arrays: each gets its own lock words, and the
// CHECK-NEXT: /// inner lock's server runs the section (dd::LockIds::TwoArrays).
// CHECK-NEXT: using params_delegate = dd::NestedDelegateTwoArrays<params_message>;
// CHECK: dd_tx.send(params_delegate::route(dd_channel, u, v), params_message{u, v});
// CHECK: return dd::IdPair{(unsigned long long)dd_m.u, (unsigned long long)dd_m.v};
__global__ void params(const int2 *pairs, int n, int *user_locks, int *item_locks, float *x, float *y) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int u = pairs[t].x, v = pairs[t].y;
  bool s1 = false, s2 = false;
#pragma dd delegate
  do {
    if (!s1) {
      if (atomicCAS(&user_locks[u], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&item_locks[v], 0, 1) == 0) {
        x[u] += y[v];
        y[v] += 1.0f;
        __threadfence();
        atomicExch(&item_locks[v], 0);
        atomicExch(&user_locks[u], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

// Two globals, and a lock count of its own.
__device__ int g_rows[4096];
__device__ int g_cols[64];
// REMARK: rewrite-two-arrays.cu:[[@LINE+9]]:3: remark: delegated the critical section (two nested locks, two lock arrays) of 'globals'
// CHECK: using globals_delegate = dd::NestedDelegateTwoArrays<globals_message, 1024>;
__global__ void globals(const int2 *pairs, int n, float *x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int r = pairs[t].x, c = pairs[t].y;
  bool s1 = false, s2 = false;
#pragma dd delegate locks(1024)
  do {
    if (!s1) {
      if (atomicCAS(&g_rows[r], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&g_cols[c], 0, 1) == 0) {
        x[r] += x[4096 + c];
        __threadfence();
        atomicExch(&g_cols[c], 0);
        atomicExch(&g_rows[r], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

// One lock word per server leaves none for a second array: one id space.
// CHECK: using one_word_delegate = dd::NestedDelegate<one_word_message, 1>;
__global__ void one_word(const int2 *pairs, int n, int *user_locks, int *item_locks, float *x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int u = pairs[t].x, v = pairs[t].y;
  bool s1 = false, s2 = false;
#pragma dd delegate locks(1)
  do {
    if (!s1) {
      if (atomicCAS(&user_locks[u], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&item_locks[v], 0, 1) == 0) {
        x[u] += 1.0f;
        __threadfence();
        atomicExch(&item_locks[v], 0);
        atomicExch(&user_locks[u], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

// One array through two pointer locals: lock a of `users` and lock b of
// `items` may be one lock, so the ids share one space.
// REMARK: rewrite-two-arrays.cu:[[@LINE+11]]:3: remark: delegated the critical section (two nested locks) of 'one_buffer'
// CHECK: using one_buffer_delegate = dd::NestedDelegate<one_buffer_message>;
__global__ void one_buffer(const int2 *pairs, int n, int *locks, float *x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int a = pairs[t].x, b = pairs[t].y;
  int *users = locks;
  int *items = locks + 1;
  bool s1 = false, s2 = false;
#pragma dd delegate
  do {
    if (!s1) {
      if (atomicCAS(&users[a], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&items[b], 0, 1) == 0) {
        x[a] += 1.0f;
        x[b + 1] -= 1.0f;
        __threadfence();
        atomicExch(&items[b], 0);
        atomicExch(&users[a], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

// Arrays read from a struct in memory: where they point is unknown.
struct LockTables {
  int *rows;
  int *cols;
};
// REMARK: rewrite-two-arrays.cu:[[@LINE+9]]:3: remark: delegated the critical section (two nested locks) of 'through_struct'
// CHECK: using through_struct_delegate = dd::NestedDelegate<through_struct_message>;
__global__ void through_struct(const int2 *pairs, int n, const LockTables *tables, float *x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int r = pairs[t].x, c = pairs[t].y;
  bool s1 = false, s2 = false;
#pragma dd delegate
  do {
    if (!s1) {
      if (atomicCAS(&tables->rows[r], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&tables->cols[c], 0, 1) == 0) {
        x[r] += 1.0f;
        __threadfence();
        atomicExch(&tables->cols[c], 0);
        atomicExch(&tables->rows[r], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

// Two sections taking the arrays in opposite orders: with each array's
// lock words apart, no one order would hold for both.
// REMARK: rewrite-two-arrays.cu:[[@LINE+10]]:3: remark: delegated the critical section (two nested locks) (1 of 2) of 'opposite'
// REMARK: rewrite-two-arrays.cu:[[@LINE+26]]:3: remark: delegated the critical section (two nested locks) (2 of 2) of 'opposite'
// CHECK: using opposite_delegate = dd::NestedDelegate<opposite_message>;
__global__ void opposite(const int2 *pairs, int n, int *la, int *lb, float *x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int p = pairs[t].x, q = pairs[t].y;
  bool s1 = false, s2 = false;
#pragma dd delegate
  do {
    if (!s1) {
      if (atomicCAS(&la[p], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&lb[q], 0, 1) == 0) {
        x[p] += 1.0f;
        __threadfence();
        atomicExch(&lb[q], 0);
        atomicExch(&la[p], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
  bool s3 = false, s4 = false;
#pragma dd delegate
  do {
    if (!s3) {
      if (atomicCAS(&lb[p], 0, 1) == 0)
        s3 = true;
    }
    if (s3) {
      if (atomicCAS(&la[q], 0, 1) == 0) {
        x[q] -= 1.0f;
        __threadfence();
        atomicExch(&la[q], 0);
        atomicExch(&lb[p], 0);
        s4 = true;
      }
    }
  } while (!(s3 && s4));
}

// A one-lock section on the first array beside the nested one: it must
// exclude the nested section's first lock, so the ids share one space.
// CHECK: using beside_delegate = dd::NestedDelegate<beside_message>;
__global__ void beside(const int2 *pairs, int n, int *la, int *lb, float *x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int p = pairs[t].x, q = pairs[t].y;
  bool s1 = false, s2 = false;
#pragma dd delegate
  do {
    if (!s1) {
      if (atomicCAS(&la[p], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&lb[q], 0, 1) == 0) {
        x[p] += 1.0f;
        __threadfence();
        atomicExch(&lb[q], 0);
        atomicExch(&la[p], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&la[q], 0, 1) == 0) {
      x[q] -= 1.0f;
      __threadfence();
      atomicExch(&la[q], 0);
      done = true;
    }
  } while (!done);
}

// Two arrays, and the kernel reads what the section wrote after it: every
// send waits for its reply, so the client has no message stages.
// REMARK: rewrite-two-arrays.cu:[[@LINE+11]]:3: remark: delegated the critical section (two nested locks, two lock arrays) of 'waits'{{.*}}each client waits for the server's reply
// CHECK: using waits_delegate = dd::UnstagedNestedDelegateTwoArrays<waits_message>;
// CHECK-NOT: extern __shared__
// CHECK: waits_delegate::sender_type dd_tx(dd_channel, nullptr);
__global__ void waits(const int2 *pairs, int n, int *user_locks, int *item_locks, float *x, float *seen) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int u = pairs[t].x, v = pairs[t].y;
  bool s1 = false, s2 = false;
#pragma dd delegate
  do {
    if (!s1) {
      if (atomicCAS(&user_locks[u], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&item_locks[v], 0, 1) == 0) {
        x[u] += 1.0f;
        __threadfence();
        atomicExch(&item_locks[v], 0);
        atomicExch(&user_locks[u], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
  seen[t] = x[u];
}

void run(const int2 *pairs, int n, int *l1, int *l2, float *x, float *y, const LockTables *tables) {
  params<<<(n + 255) / 256, 256>>>(pairs, n, l1, l2, x, y);
  globals<<<(n + 255) / 256, 256>>>(pairs, n, x);
  one_word<<<(n + 255) / 256, 256>>>(pairs, n, l1, l2, x);
  one_buffer<<<(n + 255) / 256, 256>>>(pairs, n, l1, x);
  through_struct<<<(n + 255) / 256, 256>>>(pairs, n, tables, x);
  opposite<<<(n + 255) / 256, 256>>>(pairs, n, l1, l2, x);
  beside<<<(n + 255) / 256, 256>>>(pairs, n, l1, l2, x);
  waits<<<(n + 255) / 256, 256>>>(pairs, n, l1, l2, x, y);
}
