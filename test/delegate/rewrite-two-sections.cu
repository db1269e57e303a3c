// More than one critical section in a kernel (issue 16): the sections share
// the kernel's channel and servers. Each has its own message, outlined
// section and, where the client needs something back, reply; one message
// type carries them all (which section, then its message), and the server
// runs the right section. A one-lock section beside a nested one sends its
// data id twice (the nested server runs it under that one lock). A section
// whose writes a later one reads waits for its reply (the server could
// otherwise run the later one first).
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// RUN: sed 's/#pragma dd delegate//' %s > %t.plain.cu
// RUN: %decoupler --no-line-directives --passes=delegate --delegate=auto %t.plain.cu -o %t.auto.cu 2>&1 | FileCheck %s --check-prefix=AUTO
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: %nvcc -c %t.auto.cu -o %t.auto.o

// Independent sections on two lock arrays: both plain sends.
// REMARK: rewrite-two-sections.cu:[[@LINE+41]]:3: remark: delegated the critical section (one lock) (1 of 2) of 'two_bins' to server blocks: two_bins_client, two_bins_server, two_bins_launch [-Rdecoupler]
// REMARK: rewrite-two-sections.cu:[[@LINE+49]]:3: remark: delegated the critical section (one lock) (2 of 2) of 'two_bins' to server blocks: two_bins_client, two_bins_server, two_bins_launch [-Rdecoupler]
// AUTO: remark: --delegate=auto: delegated the unannotated critical section (one lock) (1 of 2) of 'two_bins'
// AUTO: remark: --delegate=auto: delegated the unannotated critical section (one lock) (2 of 2) of 'two_bins'
// CHECK: // decoupler: kernel 'two_bins' hands its critical sections (lines [[#@LINE+37]], [[#@LINE+46]]) to server blocks
// CHECK: struct two_bins_message_0 {
// CHECK-NEXT:   int k;
// CHECK-NEXT: };
// CHECK: struct two_bins_message_1 {
// CHECK-NEXT:   int k2;
// CHECK-NEXT:   int i;
// CHECK-NEXT: };
// CHECK: struct two_bins_message {
// CHECK-NEXT:   unsigned dd_section;
// CHECK-NEXT:   union {
// CHECK-NEXT:     two_bins_message_0 dd_0;
// CHECK-NEXT:     two_bins_message_1 dd_1;
// CHECK-NEXT:   };
// CHECK: using two_bins_delegate = dd::Delegate<two_bins_message>;
// CHECK: __device__ void two_bins_critical_section_0(int k, int *hist) {
// CHECK: __device__ void two_bins_critical_section_1(int k2, int i, int *sums, const int *vals) {
// CHECK: dd_tx.send(two_bins_delegate::route(dd_channel, k), two_bins_message::of(two_bins_message_0{k}));
// CHECK: dd_tx.send(two_bins_delegate::route(dd_channel, k2), two_bins_message::of(two_bins_message_1{k2, i}));
// CHECK: __global__ void two_bins_server(two_bins_delegate::channel_type dd_channel, int *hist, int *sums, const int *vals) {
// CHECK:        case 0:
// CHECK-NEXT:     return (unsigned long long)dd_m.dd_0.k;
// CHECK-NEXT:   default:
// CHECK-NEXT:     return (unsigned long long)dd_m.dd_1.k2;
// CHECK:        case 0: {
// CHECK-NEXT:     two_bins_critical_section_0(dd_m.dd_0.k, hist);
// CHECK-NEXT:     break;
// CHECK-NEXT:   }
// CHECK-NEXT:   default: {
// CHECK-NEXT:     two_bins_critical_section_1(dd_m.dd_1.k2, dd_m.dd_1.i, sums, vals);
__global__ void two_bins(const int *keys, const int *vals, int n, int *hist, int *sums, int *la, int *lb) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int k = keys[i] & 255, k2 = vals[i] & 63;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&la[k], 0, 1) == 0) {
      hist[k] += 1;
      atomicExch(&la[k], 0);
      done = true;
    }
  } while (!done);
  bool again = false;
#pragma dd delegate
  do {
    if (atomicCAS(&lb[k2], 0, 1) == 0) {
      sums[k2] += vals[i];
      atomicExch(&lb[k2], 0);
      again = true;
    }
  } while (!again);
}

// The second section reads what the first writes: the first waits.
// REMARK: rewrite-two-sections.cu:[[@LINE+19]]:3: remark: delegated the critical section (one lock) (1 of 2) of 'ordered' to server blocks: ordered_client, ordered_server, ordered_launch; each client waits for the server's reply, since the kernel uses 'data' (line [[#@LINE+29]]), which the critical section writes, after it
// REMARK: rewrite-two-sections.cu:[[@LINE+26]]:3: remark: delegated the critical section (one lock) (2 of 2) of 'ordered' to server blocks: ordered_client, ordered_server, ordered_launch [-Rdecoupler]
// Both flags are declared together and used by their loops only: the
// declaration goes with the loops (kept, nvcc would warn that they are set
// but never used).
// One section waits and one does not: the other's sends are staged.
// CHECK: using ordered_delegate = dd::Delegate<ordered_message>;
// CHECK-LABEL: __global__ void ordered_client(
// CHECK-NOT: bool done
// CHECK: int b = threadIdx.x % 8;
// CHECK-NEXT: // decoupler: delegated; ordered_server runs the critical section and replies, the client waits for it
// CHECK-NEXT: dd_replies_0.call(dd_channel, ordered_delegate::route(dd_channel, b), ordered_message::of(ordered_message_0{b, dd_replies_0.slot()}));
// CHECK-NEXT: // decoupler: delegated; ordered_server runs the critical section
// CHECK-NEXT: dd_tx.send(ordered_delegate::route(dd_channel, b), ordered_message::of(ordered_message_1{b}));
// CHECK-NEXT: dd_tx.finish();
__global__ void ordered(int *data, int *locks, int *seen) {
  int b = threadIdx.x % 8;
  bool done = false, again = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      seen[b] = data[b];
      atomicExch(&locks[b], 0);
      again = true;
    }
  } while (!again);
}

// Two nested locks, then one lock with a value back.
// REMARK: rewrite-two-sections.cu:[[@LINE+25]]:3: remark: delegated the critical section (two nested locks) (1 of 2) of 'mixed' to server blocks: mixed_client, mixed_server, mixed_launch [-Rdecoupler]
// REMARK: rewrite-two-sections.cu:[[@LINE+42]]:3: remark: delegated the critical section (one lock) (2 of 2) of 'mixed' to server blocks: mixed_client, mixed_server, mixed_launch; each client waits for the server's reply, which brings back 't'
// CHECK: using mixed_delegate = dd::NestedDelegate<mixed_message>;
// CHECK: struct mixed_reply_1 {
// CHECK-NEXT:   int t;
// CHECK-NEXT: };
// CHECK: __global__ void mixed_client(mixed_delegate::channel_type dd_channel, dd::ReplyBox<mixed_reply_1> dd_replies_1, const int *from,
// CHECK: dd_tx.send(mixed_delegate::route(dd_channel, a, c), mixed_message::of(mixed_message_0{a, c}));
// CHECK: t = dd_replies_1.call(dd_channel, mixed_delegate::route(dd_channel, a, a), mixed_message::of(mixed_message_1{a, t, dd_replies_1.slot()})).t;
// CHECK: __global__ void mixed_server(mixed_delegate::channel_type dd_channel, mixed_delegate::sides_type dd_sides, dd::ReplyBox<mixed_reply_1> dd_replies_1, long long *bal, int *count) {
// CHECK:        return dd::IdPair{(unsigned long long)dd_m.dd_0.a, (unsigned long long)dd_m.dd_0.c};
// CHECK:        return dd::IdPair{(unsigned long long)dd_m.dd_1.a, (unsigned long long)dd_m.dd_1.a};
// CHECK:        mixed_reply_1 dd_r{dd_m.dd_1.t};
// CHECK-NEXT:   mixed_critical_section_1(dd_m.dd_1.a, dd_r.t, count);
// CHECK-NEXT:   dd_replies_1.post(dd_m.dd_1.dd_reply, dd_r);
// CHECK: static dd::ReplySlots<mixed_reply_1> dd_reply_slots_1;
// CHECK: mixed_server<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel, dd_sides, dd_reply_slots_1.box("mixed", dd_grid, dd_block), bal, count);
__global__ void mixed(const int *from, const int *to, int n, long long *bal, int *locks, int *count,
                      int *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int a = from[i], c = to[i];
  bool s1 = false, s2 = false;
#pragma dd delegate
  do {
    if (!s1) {
      if (atomicCAS(&locks[a], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&locks[c], 0, 1) == 0) {
        bal[a] -= 1;
        bal[c] += 1;
        atomicExch(&locks[a], 0);
        atomicExch(&locks[c], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
  int t = 0;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[a], 0, 1) == 0) {
      t = count[a];
      count[a] = t + 1;
      atomicExch(&locks[a], 0);
      done = true;
    }
  } while (!done);
  out[i] = t;
}

// One flag for two loops, reset between them: the reset uses it, so its
// declaration stays and each send sets it as the loop did (the first waits:
// the second reads what it writes).
// REMARK: rewrite-two-sections.cu:[[@LINE+15]]:3: remark: delegated the critical section (one lock) (1 of 2) of 'reused'
// REMARK: rewrite-two-sections.cu:[[@LINE+23]]:3: remark: delegated the critical section (one lock) (2 of 2) of 'reused'
// CHECK-LABEL: __global__ void reused_client(
// CHECK: bool done = false;
// CHECK-NEXT: // decoupler: delegated; reused_server runs the critical section and replies, the client waits for it
// CHECK-NEXT: dd_replies_0.call(dd_channel, reused_delegate::route(dd_channel, b), reused_message::of(reused_message_0{b, dd_replies_0.slot()}));
// CHECK-NEXT: done = true;
// CHECK-NEXT: done = false;
// CHECK-NEXT: // decoupler: delegated; reused_server runs the critical section
// CHECK-NEXT: dd_tx.send(reused_delegate::route(dd_channel, b), reused_message::of(reused_message_1{b}));
// CHECK-NEXT: done = true;
__global__ void reused(int *hist, int *locks) {
  int b = threadIdx.x % 4;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      hist[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      hist[b] += 2;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

void run(const int *keys, const int *vals, int n, int *hist, int *sums, int *la, int *lb, long long *bal,
         int *count, int *out) {
  two_bins<<<(n + 255) / 256, 256>>>(keys, vals, n, hist, sums, la, lb);
  ordered<<<1, 32>>>(hist, la, out);
  mixed<<<(n + 255) / 256, 256>>>(keys, vals, n, bal, la, count, out);
  reused<<<1, 32>>>(hist, la);
}
