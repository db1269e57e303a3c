// --delegate=auto also rewrites try-lock loops without an annotation, each
// with a remark shown without -Rdecoupler; a try-lock loop it cannot
// delegate stays as it is (a warning, shown by default, says why), and other
// loops are not mentioned. Without --delegate=auto nothing changes.
// RUN: %decoupler --passes=delegate --delegate=auto %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=AUTO --implicit-check-not=remark --implicit-check-not=warning
// RUN: %decoupler --passes=delegate --delegate=auto -Rdecoupler %s -o %t.r.cu 2>&1 | FileCheck %s --check-prefix=WHY
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// RUN: %decoupler --passes=delegate %s -o %t.off.cu 2>&1 | count 0
// RUN: cmp %s %t.off.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o

__global__ void histogram(const int *keys, int n, int *bins, int *locks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = i < n ? keys[i] : 0;
  for (int j = 0; j < 2; ++j) // not a try-lock loop: no remark
    k = k * 3 + 1;
  k &= 255;
  bool done = false;
  // AUTO-DAG: rewrite-auto.cu:[[@LINE+1]]:3: remark: --delegate=auto: delegated the unannotated critical section (one lock) of 'histogram' to server blocks: histogram_client, histogram_server, histogram_launch
  do {
    if (atomicCAS(&locks[k], 0, 1) == 0) {
      bins[k] += 1;
      __threadfence();
      atomicExch(&locks[k], 0);
      done = true;
    }
  } while (!done);
}
// CHECK: dd_tx.send(histogram_delegate::route(dd_channel, k), histogram_message{k});
// CHECK: __global__ void histogram_server(histogram_delegate::channel_type dd_channel, int *bins) {

// A plain local would come back in a reply (rewrite-reply.cu); an array does not.
__global__ void returns_value(int *data, int *locks, int *out) {
  int b = threadIdx.x % 8;
  int old[1] = {0};
  bool done = false;
  // AUTO-DAG: rewrite-auto.cu:[[@LINE+5]]:14: warning: --delegate=auto: try-lock loop not delegated: the critical section writes 'old', which the kernel uses outside it; only a local of the client that is no parameter, array or pointer can come back in the server's reply
  // WHY: rewrite-auto.cu:[[@LINE+4]]:14: warning: --delegate=auto: try-lock loop not delegated: the critical section writes 'old', which the kernel uses outside it; only a local of the client that is no parameter, array or pointer can come back in the server's reply
  // CHECK: while (!done) {
  while (!done) {
    if (atomicExch(&locks[b], 1) == 0) {
      old[0] = data[b];
      data[b] = old[0] + 1;
      __threadfence();
      locks[b] = 0;
      done = true;
    }
  }
  out[threadIdx.x] = old[0];
}

void run(const int *keys, int n, int *bins, int *locks, int *data, int *out) {
  // CHECK: histogram_launch(n / 256, 256, 0, 0, keys, n, bins, locks);
  histogram<<<n / 256, 256>>>(keys, n, bins, locks);
  // CHECK: returns_value<<<1, 32>>>(data, locks, out);
  returns_value<<<1, 32>>>(data, locks, out);
}
