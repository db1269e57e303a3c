// The lock field is also read outside the critical section: refused.
#include <dd/annotate.h>

struct Account {
  int lock;
  long long balance;
};

__global__ void deposit(const unsigned *who, unsigned n, Account *accounts, int *busy) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned a = who[t];
  // CHECK: field-lock-used.cu:[[@LINE+1]]:25: error: cannot delegate this critical section: the lock field 'lock' is used outside the critical section
  busy[t] = accounts[a].lock;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&accounts[a].lock, 0, 1) == 0) {
      accounts[a].balance += 1;
      __threadfence();
      atomicExch(&accounts[a].lock, 0);
      done = true;
    }
  } while (!done);
}

void run(const unsigned *who, unsigned n, Account *accounts, int *busy) {
  deposit<<<(n + 255) / 256, 256>>>(who, n, accounts, busy);
}
