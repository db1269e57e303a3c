// Spin locks (the loop only waits for the lock; the critical section follows
// it) are locks the pass does not delegate. Under --delegate=auto each one
// is a warning that says so and how to write it as a try-lock loop (they
// used to be skipped without a word); with the annotation, an error. So is
// a loop that tries a lock at its own level but is no try-lock loop (a
// bounded spin that may give up). A loop that waits for something else
// stays silent: a CAS that stores 0 (waiting for a word to be 0).
// RUN: %decoupler --passes=delegate --delegate=auto %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=AUTO --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: not %decoupler --passes=delegate %s -o %t.refused.cu -- -DANNOTATED 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: test ! -e %t.refused.cu

#ifdef ANNOTATED
#define SPIN _Pragma("dd delegate")
#else
#define SPIN
#endif

__device__ bool try_lock(int *locks, int i) { return atomicCAS(&locks[i], 0, 1) == 0; }

// AUTO: refuse-spin-lock.cu:[[@LINE+8]]:3: warning: --delegate=auto: lock not delegated: a spin lock: the loop only waits for the lock, and the critical section follows it; only try-lock loops are delegated (written as Listing 4.1, do { if (try_lock(L)) { ...; __threadfence(); unlock(L); done = true; } } while (!done), it would be)
// ERR: refuse-spin-lock.cu:[[@LINE+7]]:3: error: cannot delegate this critical section: a spin lock: the loop only waits for the lock
__global__ void sleeping(const long long *src, const float *mass, int n, int *lock, float *top) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const long long s = src[t];
  SPIN
  while (atomicCAS(&lock[s], 0, 1) != 0) {
    __nanosleep(64);
  }
  __threadfence();
  if (mass[t] < top[s])
    top[s] = mass[t];
  __threadfence();
  atomicExch(&lock[s], 0);
}

// AUTO: refuse-spin-lock.cu:[[@LINE+8]]:3: warning: --delegate=auto: lock not delegated: a spin lock
// ERR: refuse-spin-lock.cu:[[@LINE+7]]:3: error: cannot delegate this critical section: a spin lock
__global__ void bare(const int *keys, int n, int *locks, int *count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int k = keys[i];
  SPIN
  while (atomicExch(&locks[k], 1))
    ;
  count[k] += 1;
  __threadfence();
  locks[k] = 0;
}

// AUTO: refuse-spin-lock.cu:[[@LINE+7]]:3: warning: --delegate=auto: lock not delegated: a spin lock
// ERR: refuse-spin-lock.cu:[[@LINE+6]]:3: error: cannot delegate this critical section: a spin lock
__global__ void helper(const int *keys, int n, int *locks, int *count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  SPIN
  while (!try_lock(locks, keys[i])) {
  }
  count[keys[i]] += 1;
  locks[keys[i]] = 0;
}

// Waits for a word to be 0 without taking it: no lock.
__global__ void waits(int *flag, int *out) {
  while (atomicCAS(&flag[0], 0, 0) != 0) {
  }
  out[threadIdx.x] = 1;
}

// Gives up after `tries`: the section may not run, so it is no try-lock
// loop the pass could hand to a server; but it takes a lock, so auto says so.
// AUTO: refuse-spin-lock.cu:[[@LINE+8]]:3: warning: --delegate=auto: lock not delegated: not a try-lock loop (Listing 4.1:
__global__ void bounded(const int *keys, int n, int tries, int *locks, int *count, int *gave_up) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int k = keys[i];
  int spins = 0;
  bool got = false;
  while (spins < tries) {
    if (atomicCAS(&locks[k], 0, 1) == 0) {
      got = true;
      break;
    }
    ++spins;
  }
  if (got) {
    count[k] += 1;
    atomicExch(&locks[k], 0);
  } else {
    atomicAdd(gave_up, 1);
  }
}

void run(int n) {
  sleeping<<<1, 32>>>(nullptr, nullptr, n, nullptr, nullptr);
  bare<<<1, 32>>>(nullptr, n, nullptr, nullptr);
  helper<<<1, 32>>>(nullptr, n, nullptr, nullptr);
  waits<<<1, 32>>>(nullptr, nullptr);
  bounded<<<1, 32>>>(nullptr, n, 8, nullptr, nullptr, nullptr);
}
