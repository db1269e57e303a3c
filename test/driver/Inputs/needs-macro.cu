// Compiles only with -DNEEDED (given after `--` or with --extra-arg).
#ifndef NEEDED
#error "NEEDED is not defined"
#endif

__global__ void fill(int *a) { a[threadIdx.x] = NEEDED; }
