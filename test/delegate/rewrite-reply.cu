// The reply channel (dissertation §4.4; docs/delegate-pass.md "Replies"): a
// critical section that writes a local the kernel uses after it (by
// assignment, through its address or a reference), or whose writes the
// kernel reads after it, is delegated with a reply: the client sends its
// message unstaged and waits for the server, which runs the section on its
// copy of the locals and sends them back. One lock, two nested locks
// (release and retry), a callee that writes through a pointer and through a
// reference, and a wait without values.
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// RUN: %decoupler --analyze %s | FileCheck %s --check-prefix=REPORT
// RUN: sed 's/#pragma dd delegate//' %s > %t.plain.cu
// RUN: %decoupler --no-line-directives --passes=delegate --delegate=auto %t.plain.cu -o %t.auto.cu 2>&1 | FileCheck %s --check-prefix=AUTO
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: %nvcc -c %t.auto.cu -o %t.auto.o

// REMARK: rewrite-reply.cu:[[@LINE+41]]:3: remark: delegated the critical section (one lock) of 'ticket' to server blocks: ticket_client, ticket_server, ticket_launch; each client waits for the server's reply, which brings back 't'
// AUTO: remark: --delegate=auto: delegated the unannotated critical section (one lock) of 'ticket' to server blocks: ticket_client, ticket_server, ticket_launch; each client waits for the server's reply, which brings back 't'
// REPORT: in 'ticket': single lock locks[b], 2 statements
// REPORT-NEXT: message: b, t
// REPORT-NEXT: server arguments: locks, next
// REPORT-NEXT: reply (the client waits): t
// CHECK: struct ticket_message {
// CHECK-NEXT:   int b;
// CHECK-NEXT:   int t;
// CHECK-NEXT:   unsigned long long dd_reply;
// CHECK-NEXT: };
// Every send of the kernel waits for its reply: no message stages.
// CHECK-NEXT: /// Every send waits for its reply, unstaged: the client needs no message stages.
// CHECK-NEXT: using ticket_delegate = dd::UnstagedDelegate<ticket_message>;
// CHECK: struct ticket_reply {
// CHECK-NEXT:   int t;
// CHECK-NEXT: };
// CHECK: __device__ void ticket_critical_section(int b, int &t, int *next) {
// CHECK-NEXT:   t = next[b];
// CHECK-NEXT:   next[b] = t + 1;
// CHECK-NEXT: }
// CHECK: __global__ void ticket_client(ticket_delegate::channel_type dd_channel, dd::ReplyBox<ticket_reply> dd_replies, const int *bin_of, int n, int *next, int *locks, int *out) {
// CHECK-NOT: extern __shared__
// CHECK: ticket_delegate::sender_type dd_tx(dd_channel, nullptr);
// CHECK: t = dd_replies.call(dd_channel, ticket_delegate::route(dd_channel, b), ticket_message{b, t, dd_replies.slot()}).t;
// CHECK-NEXT: out[i] = t;
// CHECK: __global__ void ticket_server(ticket_delegate::channel_type dd_channel, dd::ReplyBox<ticket_reply> dd_replies, int *next) {
// CHECK:      ticket_reply dd_r{dd_m.t};
// CHECK-NEXT: ticket_critical_section(dd_m.b, dd_r.t, next);
// CHECK-NEXT: dd_replies.post(dd_m.dd_reply, dd_r);
// CHECK: static dd::ReplySlots<ticket_reply> dd_reply_slots;
// CHECK: ticket_server<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel, dd_reply_slots.box("ticket", dd_grid, dd_block), next);
// CHECK: ticket_client<<<dd_g, dd_b, dd_shared, dd_stream>>>(dd_channel, dd_reply_slots.box("ticket", dd_grid, dd_block), bin_of, n, next, locks, out);
__global__ void ticket(const int *bin_of, int n, int *next, int *locks, int *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int b = bin_of[i];
  int t = 0;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      t = next[b];
      next[b] = t + 1;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  out[i] = t;
}

// REMARK: rewrite-reply.cu:[[@LINE+18]]:3: remark: delegated the critical section (one lock) of 'accumulate' to server blocks: accumulate_client, accumulate_server, accumulate_launch; each client waits for the server's reply, since the kernel uses 'sum' (line [[#@LINE+26]]), which the critical section writes, after it
// AUTO: remark: --delegate=auto: delegated the unannotated critical section (one lock) of 'accumulate'
// CHECK: struct accumulate_message {
// CHECK-NEXT:   int b;
// CHECK-NEXT:   int i;
// CHECK-NEXT:   unsigned long long dd_reply;
// CHECK-NEXT: };
// CHECK: struct accumulate_reply {
// CHECK-NEXT: };
// CHECK: dd_replies.call(dd_channel, accumulate_delegate::route(dd_channel, b), accumulate_message{b, i, dd_replies.slot()});
// CHECK-NEXT: seen[i] = sum[b];
__global__ void accumulate(const int *bin_of, const int *val, int n, int *sum, int *locks, int *seen) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int b = bin_of[i];
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      sum[b] += val[i];
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  seen[i] = sum[b];
}

// Two locks, two values back; signed lock indices (the server's id pair is
// unsigned long long: widened, not narrowed).
// REMARK: rewrite-reply.cu:[[@LINE+28]]:3: remark: delegated the critical section (two nested locks) of 'transfer' to server blocks: transfer_client, transfer_server, transfer_launch; each client waits for the server's reply, which brings back 'x', 'y'
// AUTO: remark: --delegate=auto: delegated the unannotated critical section (two nested locks) of 'transfer'
// CHECK: struct transfer_reply {
// CHECK-NEXT:   long long x;
// CHECK-NEXT:   long long y;
// CHECK-NEXT: };
// CHECK: __device__ void transfer_critical_section(int a, int c, long long &x, long long &y, int i, long long *bal, const int *amount) {
// CHECK: // decoupler: delegated; transfer_server runs the critical section and replies, the client waits for it
// CHECK-NEXT: [&] {
// CHECK-NEXT:   const transfer_reply dd_r = dd_replies.call(dd_channel, transfer_delegate::route(dd_channel, a, c), transfer_message{a, c, x, y, i, dd_replies.slot()});
// CHECK-NEXT:   x = dd_r.x;
// CHECK-NEXT:   y = dd_r.y;
// CHECK-NEXT: }();
// CHECK: __global__ void transfer_server(transfer_delegate::channel_type dd_channel, transfer_delegate::sides_type dd_sides, dd::ReplyBox<transfer_reply> dd_replies, long long *bal, const int *amount) {
// CHECK: return dd::IdPair{(unsigned long long)dd_m.a, (unsigned long long)dd_m.c};
// CHECK:      transfer_reply dd_r{dd_m.x, dd_m.y};
// CHECK-NEXT: transfer_critical_section(dd_m.a, dd_m.c, dd_r.x, dd_r.y, dd_m.i, bal, amount);
__global__ void transfer(const int *from, const int *to, const int *amount, int n, long long *bal,
                         int *locks, long long *before) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int a = from[i], c = to[i];
  if (a == c)
    return;
  long long x = 0, y = 0;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (atomicCAS(&locks[a], 0, 1) == 0) {
      if (atomicCAS(&locks[c], 0, 1) == 0) {
        x = bal[a];
        y = bal[c];
        bal[a] = x - amount[i];
        bal[c] = y + amount[i];
        __threadfence();
        atomicExch(&locks[c], 0);
        atomicExch(&locks[a], 0);
        done = true;
      } else {
        atomicExch(&locks[a], 0);
      }
    }
  }
  before[2 * i] = x;
  before[2 * i + 1] = y;
}

// Through a callee: its pointer and reference parameters reach the
// server's copy, which comes back; a reference bound in the section too.
__device__ void take(int *table, int b, int *got) { *got = table[b]; table[b] = 0; }
__device__ void take_ref(int *table, int b, int &got) { got += table[b]; }

// REMARK: rewrite-reply.cu:[[@LINE+13]]:3: remark: delegated the critical section (one lock) of 'callees' to server blocks: callees_client, callees_server, callees_launch; each client waits for the server's reply, which brings back 'got', 'more'
// CHECK: __device__ void callees_critical_section(int b, int &got, int &more, int *table) {
// CHECK-NEXT:   take(table, b, &got);
// CHECK-NEXT:   take_ref(table, b, more);
// CHECK-NEXT:   int &r = got;
// CHECK-NEXT:   r += 1;
// CHECK-NEXT: }
__global__ void callees(int *table, int *out, int *locks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = i % 8;
  int got = -1, more = 0;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      take(table, b, &got);
      take_ref(table, b, more);
      int &r = got;
      r += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  out[i] = got + more;
}

// What the section writes is followed through pointer locals and callees:
// an alias of 'sum' written, 'sum' read after; a callee writing through
// its pointer parameter; a callee writing a global. Each waits.
__device__ int totals[8];
__device__ void bump(int *s, int b, int v) { s[b] += v; }
__device__ void count_global(int b) { totals[b] += 1; }

// REMARK: rewrite-reply.cu:[[@LINE+6]]:3: remark: delegated the critical section (one lock) of 'alias' to server blocks: alias_client, alias_server, alias_launch; each client waits for the server's reply, since the kernel uses 'sum' (line [[#@LINE+13]]), which the critical section writes, after it
__global__ void alias(const int *val, int *sum, int *locks, int *seen) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, b = i % 8;
  int *p = i >= 0 ? sum : sum + 0;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      p[b] += val[i];
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  seen[i] = sum[b];
}

// REMARK: rewrite-reply.cu:[[@LINE+5]]:3: remark: delegated the critical section (one lock) of 'via_callee' to server blocks: via_callee_client, via_callee_server, via_callee_launch; each client waits for the server's reply, since the kernel uses 'sum' (line [[#@LINE+12]]), which the critical section writes, after it
__global__ void via_callee(const int *val, int *sum, int *locks, int *seen) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, b = i % 8;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      bump(sum, b, val[i]);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  seen[i] = sum[b];
}

// REMARK: rewrite-reply.cu:[[@LINE+5]]:3: remark: delegated the critical section (one lock) of 'global_in_callee' to server blocks: global_in_callee_client, global_in_callee_server, global_in_callee_launch; each client waits for the server's reply, since the kernel uses 'totals' (line [[#@LINE+12]]), which the critical section writes, after it
__global__ void global_in_callee(int *locks, int *seen) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, b = i % 8;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      count_global(b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  seen[i] = totals[b];
}

// A grid-stride loop around the section reads other memory (the keys):
// no reply, a plain send.
// REMARK: rewrite-reply.cu:[[@LINE+13]]:5: remark: delegated the critical section (one lock) of 'strided' to server blocks: strided_client, strided_server, strided_launch [-Rdecoupler]
// CHECK: using strided_delegate = dd::Delegate<strided_message>;
// CHECK: __global__ void strided_client(strided_delegate::channel_type dd_channel, const int *keys, int n, int *bins, int *locks) {
// CHECK-NEXT: // decoupler: message stages in shared memory, one per server block.
// CHECK-NEXT: extern __shared__ __align__(16) unsigned char dd_stage[];
// CHECK-NEXT: strided_delegate::sender_type dd_tx(dd_channel, dd_stage);
// CHECK-NOT: dd_replies
// CHECK: dd_tx.send(strided_delegate::route(dd_channel, k), strided_message{k});
__global__ void strided(const int *keys, int n, int *bins, int *locks) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const int k = keys[i] & 255;
    bool done = false;
#pragma dd delegate
    do {
      if (atomicCAS(&locks[k], 0, 1) == 0) {
        bins[k] += 1;
        atomicExch(&locks[k], 0);
        done = true;
      }
    } while (!done);
  }
}

void run(const int *bin_of, const int *val, int n, int *next, int *sum, int *locks, int *out, int *seen,
         const int *from, const int *to, long long *bal, long long *before, int *table) {
  ticket<<<(n + 255) / 256, 256>>>(bin_of, n, next, locks, out);
  accumulate<<<(n + 255) / 256, 256>>>(bin_of, val, n, sum, locks, seen);
  transfer<<<(n + 255) / 256, 256>>>(from, to, val, n, bal, locks, before);
  callees<<<8, 32>>>(table, out, locks);
  alias<<<8, 32>>>(val, sum, locks, seen);
  via_callee<<<8, 32>>>(val, sum, locks, seen);
  global_in_callee<<<8, 32>>>(locks, seen);
  strided<<<8, 32>>>(bin_of, n, sum, locks);
}
