// Differential harness for llm.c's dev/cuda/layernorm_forward.cu
// (docs/corpus.md, "Running real programs"). The file's own check compares
// with a tolerance at one shape; this runs one of its kernels, from the file
// as written or as rewritten (LN_SOURCE), over ten shapes and eight block
// sizes, four launches each (so that an adaptive launcher runs both ways),
// and prints a hash of the output bits per launch: the two builds' outputs
// must be identical.
//
//   nvcc -O3 --use_fast_math -std=c++17 -arch=sm_90 -I runtime/include \
//     -I <llm.c>/dev/cuda -DLN_SOURCE='"layernorm_forward.cu"' \
//     scripts/corpus-harness/llmc_layernorm.cu -lcublas -lcublasLt
//   ./a.out 5        # kernel 5
#define main llmc_main
#include LN_SOURCE
#undef main
#include <cstdint>
static uint64_t fnv(const void *p, size_t n, uint64_t h) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; ++i) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
int main(int argc, char **argv) {
  int kernel = argc > 1 ? atoi(argv[1]) : 5;
  int shapes[][3] = {{8, 1024, 768}, {1, 1, 1}, {2, 3, 33}, {4, 64, 1000}, {1, 17, 4096}, {3, 5, 2047}, {2, 128, 1600}, {1, 7, 31}, {16, 256, 128}, {1, 2, 12289}};
  int block_sizes[] = {32, 64, 96, 128, 160, 256, 512, 1024};
  for (auto &s : shapes) {
    int B = s[0], T = s[1], C = s[2];
    srand(B * 131 + T * 7 + C);
    float *inp = make_random_float(B * T * C), *w = make_random_float(C), *b = make_random_float(C);
    float *d_out, *d_mean, *d_rstd, *d_inp, *d_w, *d_b;
    cudaCheck(cudaMalloc(&d_out, (size_t)B * T * C * 4)); cudaCheck(cudaMalloc(&d_mean, B * T * 4));
    cudaCheck(cudaMalloc(&d_rstd, B * T * 4)); cudaCheck(cudaMalloc(&d_inp, (size_t)B * T * C * 4));
    cudaCheck(cudaMalloc(&d_w, C * 4)); cudaCheck(cudaMalloc(&d_b, C * 4));
    cudaCheck(cudaMemcpy(d_inp, inp, (size_t)B * T * C * 4, cudaMemcpyHostToDevice));
    cudaCheck(cudaMemcpy(d_w, w, C * 4, cudaMemcpyHostToDevice));
    cudaCheck(cudaMemcpy(d_b, b, C * 4, cudaMemcpyHostToDevice));
    float *out = (float *)malloc((size_t)B * T * C * 4), *mean = (float *)malloc(B * T * 4), *rstd = (float *)malloc(B * T * 4);
    for (int bs : block_sizes) {
      // Several launches per shape, so an adaptive launcher runs both ways.
      for (int rep = 0; rep < 4; ++rep) {
        cudaCheck(cudaMemset(d_out, 0, (size_t)B * T * C * 4));
        layernorm_forward(kernel, d_out, d_mean, d_rstd, d_inp, d_w, d_b, B, T, C, bs);
        cudaCheck(cudaDeviceSynchronize());
        cudaCheck(cudaMemcpy(out, d_out, (size_t)B * T * C * 4, cudaMemcpyDeviceToHost));
        cudaCheck(cudaMemcpy(mean, d_mean, B * T * 4, cudaMemcpyDeviceToHost));
        cudaCheck(cudaMemcpy(rstd, d_rstd, B * T * 4, cudaMemcpyDeviceToHost));
        uint64_t h = fnv(out, (size_t)B * T * C * 4, 1469598103934665603ull);
        h = fnv(mean, B * T * 4, h); h = fnv(rstd, B * T * 4, h);
        printf("kernel %d B %d T %d C %d block %d rep %d hash %016llx\n", kernel, B, T, C, bs, rep, (unsigned long long)h);
      }
    }
    cudaFree(d_out); cudaFree(d_mean); cudaFree(d_rstd); cudaFree(d_inp); cudaFree(d_w); cudaFree(d_b);
    free(inp); free(w); free(b); free(out); free(mean); free(rstd);
  }
  return 0;
}
