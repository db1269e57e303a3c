// Input of the report tests (html*.test, remarks*.test): every class of
// access and branch, and one decision of each kind. Line numbers matter.
__device__ int load_at(const int *p, int i) { return p[i]; }

__global__ void classes(int *out, const int *in, const int *idx, unsigned long long *count,
                        int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // <script>alert("x")</script> & 'quotes' stay text
  if (tid < n && (n & 1))
    out[tid] = in[idx[tid]] + load_at(in, tid);
  atomicAdd(count, 1ull);
  atomicAdd(&out[tid], 2);
}

__global__ void refused(int *data, int *locks, int n) {
  int b = threadIdx.x % n;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      if (data[b] < 0)
        return;
      data[b] += 1;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

#pragma dd monotonic
__global__ void declined(int *dist) {
  atomicMax_block(&dist[threadIdx.x % 4], 1);
}
