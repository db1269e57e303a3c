// A __device__ function in a header (test/analysis/report-file-of-entries.cu).
__device__ inline float header_load(const float *p, int i) {
  float v = 0;
  if (i > 0)
    v = p[i];
  return v;
}
