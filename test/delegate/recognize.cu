// The try-lock loops the delegate pass recognizes (dissertation Listings 4.1
// and 4.3), written the ways CUDA code writes them, and what --analyze
// reports for each: the locks in the kernel's terms, the values a message
// must carry, the kernel parameters the server needs.
// RUN: %decoupler --analyze %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=JSON
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
#include <dd/annotate.h>

struct Node {
  unsigned key;
  unsigned value;
  int next;
};

// Listing 4.1 with atomicCAS and atomicExch written out: a chained hash
// table insert under per-bucket locks.
__global__ void insert(const unsigned *keys, int n, int *heads, Node *pool, int *locks,
                       int buckets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned key = keys[i];
  int b = key % buckets;
  bool done = false;
  // CHECK-LABEL: critical sections (#pragma dd delegate):
  // CHECK-NEXT: [[@LINE+2]]:3 in 'insert': single lock locks[b], 4 statements
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      pool[i].key = key;
      pool[i].value = key * 2u;
      pool[i].next = heads[b];
      heads[b] = i;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  // CHECK-NEXT: message: b, i, key
  // CHECK-NEXT: server arguments: locks, pool, heads
}

__device__ bool try_lock(int *locks, int id) { return atomicExch(&locks[id], 1) == 0; }
__device__ void unlock(int *locks, int id) {
  __threadfence();
  locks[id] = 0;
}

// A while loop, locks through __device__ helpers (the helpers' parameters
// become the call's arguments), the store-to-zero unlock.
__global__ void count(const int *ids, int n, int *counts, int *locks) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int id = ids[i];
    bool placed = false;
    // CHECK-NEXT: [[@LINE+2]]:5 in 'count': single lock locks[id], 1 statement
    DD_PRAGMA(delegate servers(8))
    while (!placed) {
      if (try_lock(locks, id)) {
        counts[id] += 1;
        unlock(locks, id);
        placed = true;
      }
    }
    // CHECK-NEXT: message: id
    // CHECK-NEXT: server arguments: locks, counts
  }
}

// Listing 4.3: a transfer between two accounts under two nested locks,
// the lower id first.
__global__ void transfer(const int *from, const int *to, const int *amount, int n, int *balance,
                         int *locks) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n || from[t] == to[t])
    return;
  int lo = min(from[t], to[t]), hi = max(from[t], to[t]);
  int src = from[t], dst = to[t], a = amount[t];
  bool s1 = false, s2 = false;
  // CHECK-NEXT: [[@LINE+2]]:3 in 'transfer': nested locks locks[lo] then locks[hi], 2 statements
  #pragma dd delegate locks(1024)
  do {
    if (!s1) {
      if (atomicCAS(&locks[lo], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (try_lock(locks, hi)) {
        balance[src] -= a;
        balance[dst] += a;
        __threadfence();
        atomicExch(&locks[lo], 0);
        unlock(locks, hi);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
  // CHECK-NEXT: message: lo, hi, src, a, dst
  // CHECK-NEXT: server arguments: locks, balance
}

// JSON: "critical_sections": [
// JSON-NEXT: {"line": {{[0-9]+}}, "column": 3, "function": "insert", "status": "recognized", "shape": "single", "locks": ["locks[b]"], "message": ["b", "i", "key"], "arguments": ["locks", "pool", "heads"], "replies": [], "statements": 4},
// JSON-NEXT: {"line": {{[0-9]+}}, "column": 5, "function": "count", "status": "recognized", "shape": "single", "locks": ["locks[id]"], "message": ["id"], "arguments": ["locks", "counts"], "replies": [], "statements": 1},
// JSON-NEXT: {"line": {{[0-9]+}}, "column": 3, "function": "transfer", "status": "recognized", "shape": "nested", "locks": ["locks[lo]", "locks[hi]"], "message": ["lo", "hi", "src", "a", "dst"], "arguments": ["locks", "balance"], "replies": [], "statements": 2}
// JSON-NEXT: ]
