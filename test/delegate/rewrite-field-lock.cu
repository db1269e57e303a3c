// A lock that is a field of a struct element (`&accounts[a].lock`): the
// element's index is the data id, the other fields are data the critical
// section may use, and the report names the lock with its field. Another
// use of the lock field outside the section is refused.
// RUN: %decoupler --analyze %s | FileCheck %s --check-prefix=ANALYZE
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// RUN: not %decoupler --passes=delegate %S/Inputs/field-lock-used.cu -o %t.bad.cu 2>&1 | FileCheck %S/Inputs/field-lock-used.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

struct Account {
  int lock;
  long long balance;
  unsigned updates;
};

// CHECK: /// holding the lock of 'accounts[a].lock'.
// CHECK-NEXT: __device__ void deposit_critical_section(
// CHECK-NEXT:   accounts[a].balance += amount[t];
// CHECK-NEXT:   accounts[a].updates += 1;
// CHECK-NEXT: }
// CHECK: dd_tx.send(deposit_delegate::route(dd_channel, a), deposit_message{a, t});
__global__ void deposit(const unsigned *who, const int *amount, unsigned n, Account *accounts) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned a = who[t];
  bool done = false;
  // ANALYZE: [[@LINE+3]]:3 in 'deposit': single lock accounts[a].lock, 2 statements
  // REMARK: rewrite-field-lock.cu:[[@LINE+2]]:3: remark: delegated the critical section (one lock) of 'deposit' to server blocks
  #pragma dd delegate
  do {
    if (atomicCAS(&accounts[a].lock, 0, 1) == 0) {
      accounts[a].balance += amount[t];
      accounts[a].updates += 1;
      __threadfence();
      atomicExch(&accounts[a].lock, 0);
      done = true;
    }
  } while (!done);
}

void run(const unsigned *who, const int *amount, unsigned n, Account *accounts) {
  deposit<<<(n + 255) / 256, 256>>>(who, amount, n, accounts);
}
