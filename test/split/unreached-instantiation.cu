// A loop under a condition fixed at compile time exists in some
// instantiations of a template kernel only. The analysis gives no class to
// code no path reaches, and the split's remark for such a copy says so,
// naming the instantiation, not that the loop's condition is nonaffine (as
// it did for ggml's mul_mat_vec_f, whose half loops sit under
// `if (std::is_same_v<type_acc, float>)`).
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --implicit-check-not=nonaffine
#include <type_traits>

template <typename T>
__global__ void sum_rows(const float *__restrict__ x, float *__restrict__ dst, const int n) {
  const float *row = x + blockIdx.x * n;
  float s = 0;
  if (std::is_same_v<T, float>) {
    // CHECK: unreached-instantiation.cu:[[@LINE+3]]:5: remark: --split=auto: split plan for loop: streams row[c] {{.*}}; not rewritten: kernel 'sum_rows' is a template; its launches are not rewritten
    // CHECK: unreached-instantiation.cu:[[@LINE+2]]:5: remark: --split=auto: loop not analysed in 'sum_rows<int>': no path from the kernel's entry reaches it (a condition known at compile time, or a return, comes first)
    // CHECK-NOT: remark
    for (int c = threadIdx.x; c < n; c += blockDim.x)
      s += row[c];
  }
  dst[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

void run(const float *x, float *d, int n) {
  sum_rows<float><<<100, 128>>>(x, d, n);
  sum_rows<int><<<100, 128>>>(x, d, n);
}
