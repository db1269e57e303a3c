// An annotation in an included file has no effect (only the main file is
// rewritten): each kind is a warning that says so, the run succeeds and the
// file is copied unchanged. Before, '#pragma dd decouple' there was an
// error that called its loop no loop of a kernel, and 'delegate' and
// 'atomic(...)' were ignored without a word.
// RUN: %decoupler %s -o %t.dd.cu -- -I%S/Inputs 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: cmp %s %t.dd.cu
// CHECK: annotated-kernels.cuh:8:12: warning: '#pragma dd decouple' has no effect: kernel 'rows' is in an included file (annotated-kernels.cuh), and only the main file is rewritten [-Wdecoupler-declined]
// CHECK: annotated-kernels.cuh:13:12: warning: '#pragma dd monotonic' has no effect: kernel 'relax' is in an included file (annotated-kernels.cuh), and only the main file is rewritten
// CHECK: annotated-kernels.cuh:17:12: warning: '#pragma dd atomic' has no effect: kernel 'relax' is in an included file (annotated-kernels.cuh), and only the main file is rewritten
// CHECK: annotated-kernels.cuh:28:12: warning: '#pragma dd delegate' has no effect: kernel 'inc' is in an included file (annotated-kernels.cuh), and only the main file is rewritten
#include "annotated-kernels.cuh"

void launch(const float *A, float *B, int *d, const int *w, int *locks,
            int dim, int num, int step) {
  rows<<<num / 256, 256>>>(A, B, dim, num, step);
  relax<<<num / 256, 256>>>(d, w, num);
  inc<<<num / 256, 256>>>(locks, d, num);
}
