// Release-and-retry loops whose failure branch is not just the release of
// the first lock (rewrite-retry.cu runs this through --analyze).
#include <dd/annotate.h>

// CHECK-LABEL: critical sections (#pragma dd delegate):

__global__ void counts_failures(int *locks, long long *balance, int *failures, int a, int b) {
  bool done = false;
  // CHECK-NEXT: in 'counts_failures': refused at [[@LINE+2]]:3: when the second lock is busy the loop must release the first lock and do nothing else (release and retry)
  #pragma dd delegate
  while (!done) {
    if (atomicCAS(&locks[a], 0, 1) == 0) {
      if (atomicCAS(&locks[b], 0, 1) == 0) {
        balance[a] -= 1;
        balance[b] += 1;
        __threadfence();
        atomicExch(&locks[b], 0);
        atomicExch(&locks[a], 0);
        done = true;
      } else {
        failures[a] += 1;
        atomicExch(&locks[a], 0);
      }
    }
  }
}

__global__ void releases_wrong_lock(int *locks, long long *balance, int a, int b) {
  bool done = false;
  // CHECK-NEXT: in 'releases_wrong_lock': refused at [[@LINE+2]]:3: when the second lock is busy the loop must release the first lock and do nothing else (release and retry)
  #pragma dd delegate
  while (!done) {
    if (atomicCAS(&locks[a], 0, 1) == 0) {
      if (atomicCAS(&locks[b], 0, 1) == 0) {
        balance[a] -= 1;
        __threadfence();
        atomicExch(&locks[b], 0);
        atomicExch(&locks[a], 0);
        done = true;
      } else {
        atomicExch(&locks[b], 0);
      }
    }
  }
}
