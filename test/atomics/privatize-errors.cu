// atomic(privatize) where privatization cannot be done is an error: exit
// status 1 and no output file. So are malformed range clauses.
// RUN: rm -f %t.cu
// RUN: not %decoupler %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// RUN: not %decoupler %S/Inputs/privatize-clauses.cu -o %t.cu 2>&1 | FileCheck %s --check-prefix=CLAUSE
// CLAUSE: privatize-clauses.cu:2:23: error: clause 'range' applies to '#pragma dd atomic(privatize)' only
// CLAUSE: privatize-clauses.cu:4:36: error: expected a positive integer (at most 2^32) or a kernel parameter in clause 'range', not '0'
// CLAUSE: privatize-clauses.cu:6:39: error: clause 'range' given twice
// CLAUSE: privatize-clauses.cu:8:37: error: expected ')' to close clause 'range'
// CLAUSE: privatize-clauses.cu:10:30: error: unknown clause 'rang' for '#pragma dd atomic'; did you mean 'range'?

__global__ void no_bound(const unsigned *keys, unsigned n, unsigned *bins) {
  // CHECK: privatize-errors.cu:[[@LINE+1]]:12: error: cannot apply '#pragma dd atomic(privatize)' to atomicAdd: no bound of the index is known but the type 'unsigned int', and the atomic is not in a loop (only there does a cache of its hot indices pay; write '#pragma dd atomic(privatize) range(N)' to give a bound)
#pragma dd atomic(privatize)
  atomicAdd(&bins[keys[threadIdx.x]], 1u);
  // CHECK: privatize-errors.cu:[[@LINE-1]]:3: note: the atomic is here
}

__global__ void no_param(const unsigned *keys, unsigned n, unsigned *bins) {
  // CHECK: privatize-errors.cu:[[@LINE+1]]:12: error: cannot apply '#pragma dd atomic(privatize)' to atomicAdd: 'range(nbins)' names no integer parameter of kernel 'no_param'
#pragma dd atomic(privatize) range(nbins)
  atomicAdd(&bins[keys[threadIdx.x]], 1u);
  // CHECK: privatize-errors.cu:[[@LINE-1]]:3: note: the atomic is here
}

__global__ void shared_array(const unsigned *keys, unsigned *out) {
  __shared__ unsigned hist[256];
  // CHECK: privatize-errors.cu:[[@LINE+1]]:12: error: cannot apply '#pragma dd atomic(privatize)' to atomicAdd: 'hist' is in shared memory already
#pragma dd atomic(privatize) range(256)
  atomicAdd(&hist[keys[threadIdx.x] & 255], 1u);
  // CHECK: privatize-errors.cu:[[@LINE-1]]:3: note: the atomic is here
  out[threadIdx.x] = hist[threadIdx.x];
}

__global__ void floats(const unsigned *keys, float *sums) {
  // CHECK: privatize-errors.cu:[[@LINE+1]]:12: error: cannot apply '#pragma dd atomic(privatize)' to atomicAdd: privatizing reorders floating-point additions (--atomics-float allows it)
#pragma dd atomic(privatize) range(64)
  atomicAdd(&sums[keys[threadIdx.x] & 63], 1.0f);
  // CHECK: privatize-errors.cu:[[@LINE-1]]:3: note: the atomic is here
}

__global__ void other_use(const unsigned *keys, unsigned *bins) {
  // CHECK: privatize-errors.cu:[[@LINE+1]]:12: error: cannot apply '#pragma dd atomic(privatize)' to atomicAdd: kernel 'other_use' also uses 'bins' otherwise (line {{[0-9]+}}), which would not see the block's updates until its end
#pragma dd atomic(privatize) range(64)
  atomicAdd(&bins[keys[threadIdx.x] & 63], 1u);
  // CHECK: privatize-errors.cu:[[@LINE-1]]:3: note: the atomic is here
  bins[64] = 0;
}
