// A delegate input (test/delegate/rewrite-single.cu without its checks).
#include <dd/annotate.h>

struct Node {
  unsigned key;
  int next;
};


// The kernel as written stays, without its pragma, for launches where it
// measures faster than delegating.
/// Inserts key i into its bucket's chain.
__global__ void insert(const unsigned *keys, int n, int *heads, Node *pool, int *locks,
                       int buckets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned key = keys[i];
  int b = key % buckets;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      pool[i].key = key;
      pool[i].next = heads[b];
      heads[b] = i;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

void run(const unsigned *keys, int n, int *heads, Node *pool, int *locks, int buckets,
         cudaStream_t s) {
  insert<<<(n + 255) / 256, 256>>>(keys, n, heads, pool, locks, buckets);
  // The stream goes to the launcher: the kernel as written runs on it.
  insert<<<dim3(4, 2), dim3(32, 8), 0, s>>>(keys, n, heads, pool, locks, buckets);
}
