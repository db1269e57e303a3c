// The delegate rewrite of a one-lock critical section (Listing 4.1): the
// message, the outlined critical section, the client (the kernel as
// written, the try-lock loop now a send; its early return still reaches
// finish() through a lambda), the server kernel and the host launch that
// replaces insert<<<...>>>. The pragma and the loop's flag are gone.
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

struct Node {
  unsigned key;
  int next;
};

// CHECK: #include <dd/delegate.cuh>
// CHECK-NEXT: #include <dd/annotate.h>

// CHECK: // decoupler: kernel 'insert' hands its critical section (line 63) to server blocks
// CHECK: struct insert_message {
// CHECK-NEXT:   int b;
// CHECK-NEXT:   int i;
// CHECK-NEXT:   unsigned int key;
// CHECK-NEXT: };
// CHECK-NEXT: using insert_delegate = dd::Delegate<insert_message>;
// CHECK: /// holding the lock of 'locks[b]'.
// CHECK-NEXT: __device__ void insert_critical_section(int b, int i, unsigned int key, Node *pool, int *heads) {
// CHECK-NEXT:   pool[i].key = key;
// CHECK-NEXT:   pool[i].next = heads[b];
// CHECK-NEXT:   heads[b] = i;
// CHECK-NEXT: }
// The kernel as written stays, without its pragma, for launches where it
// measures faster than delegating.
// CHECK: /// decoupler: 'insert' as written, global locks and all. insert_launch runs it instead
// CHECK: __global__ void insert(const unsigned *keys, int n, int *heads, Node *pool, int *locks,
// CHECK: bool done = false;
// CHECK-NEXT: do {
// CHECK: } while (!done);
// CHECK-NEXT: }
/// Inserts key i into its bucket's chain.
// CHECK: /// Inserts key i into its bucket's chain.
// CHECK-NEXT: __global__ void insert_client(insert_delegate::channel_type dd_channel, const unsigned *keys, int n, int *heads, Node *pool, int *locks,
__global__ void insert(const unsigned *keys, int n, int *heads, Node *pool, int *locks,
                       int buckets) {
  // CHECK:      extern __shared__ __align__(16) unsigned char dd_stage[];
  // CHECK-NEXT: insert_delegate::sender_type dd_tx(dd_channel, dd_stage);
  // CHECK:      [&] {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned key = keys[i];
  int b = key % buckets;
  // CHECK: int b = key % buckets;
  // CHECK-NEXT: // decoupler: delegated; insert_server runs the critical section
  // CHECK-NEXT: dd_tx.send(insert_delegate::route(dd_channel, b), insert_message{b, i, key});
  // CHECK-NEXT: }();
  // CHECK-NEXT: dd_tx.finish();
  // CHECK-NEXT: }
  bool done = false;
  // REMARK: rewrite-single.cu:[[@LINE+2]]:3: remark: delegated the critical section (one lock) of 'insert' to server blocks: insert_client, insert_server, insert_launch [-Rdecoupler]
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
// CHECK: __global__ void insert_server(insert_delegate::channel_type dd_channel, Node *pool, int *heads) {
// CHECK-NEXT:   __shared__ insert_delegate::server_type::TempStorage dd_temp;
// CHECK-NEXT:   insert_delegate::server_type dd_server(dd_channel, dd_temp);
// CHECK-NEXT:   dd_server.run([](const insert_message &dd_m) { return dd_m.b; },
// CHECK-NEXT:                 [&](const insert_message &dd_m) { insert_critical_section(dd_m.b, dd_m.i, dd_m.key, pool, heads); });
// CHECK-NEXT: }
// CHECK: static void insert_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, const unsigned *keys, int n, int *heads, Node *pool, int *locks, int buckets) {
// CHECK-NEXT:   (void)dd_shmem; // decoupler: 0: launches with dynamic shared memory are not delegated
// CHECK-NEXT:   insert_delegate::launch(
// CHECK-NEXT:       "insert", 0, insert_server, insert_client, insert, dd_grid, dd_block, dd_stream,
// CHECK:        insert_server<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel, pool, heads);
// CHECK:        insert_client<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel, keys, n, heads, pool, locks, buckets);
// CHECK:      [&](dim3 dd_g, dim3 dd_b, cudaStream_t dd_s) {
// CHECK-NEXT:   insert<<<dd_g, dd_b, 0, dd_s>>>(keys, n, heads, pool, locks, buckets);
// CHECK-NEXT: });
// CHECK-NOT: pragma dd
// CHECK-NOT: done

void run(const unsigned *keys, int n, int *heads, Node *pool, int *locks, int buckets,
         cudaStream_t s) {
  // CHECK: insert_launch((n + 255) / 256, 256, 0, 0, keys, n, heads, pool, locks, buckets);
  insert<<<(n + 255) / 256, 256>>>(keys, n, heads, pool, locks, buckets);
  // The stream goes to the launcher: the kernel as written runs on it.
  // CHECK: insert_launch(dim3(4, 2), dim3(32, 8), 0, s, keys, n, heads, pool, locks, buckets);
  insert<<<dim3(4, 2), dim3(32, 8), 0, s>>>(keys, n, heads, pool, locks, buckets);
}
