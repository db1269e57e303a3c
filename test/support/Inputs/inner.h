// A header a test includes inside a namespace.
__host__ __device__ inline int twice(int x) { return 2 * x; }
