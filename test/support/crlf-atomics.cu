// The atomics pass on a file whose lines end in CRLF: every line it inserts ends
// in CRLF too, the file's own text is left as it was (a line ending in a
// bare LF stays so), and the output is the LF run's output but for line
// endings. It compiles with nvcc.
// RUN: python3 %S/Inputs/line_endings.py crlf %S/Inputs/crlf-atomics.cu %t.in.cu
// RUN: %decoupler --no-line-directives --passes=atomics %t.in.cu -o %t.out.cu
// RUN: python3 %S/Inputs/line_endings.py check %t.out.cu
// RUN: %decoupler --no-line-directives --passes=atomics %S/Inputs/crlf-atomics.cu -o %t.lf.cu
// RUN: python3 %S/Inputs/line_endings.py same %t.out.cu %t.lf.cu
// RUN: FileCheck %s --input-file %t.lf.cu
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.out.cu -o %t.o
// CHECK: {{^}}#include <dd/atomics.cuh>
// The privatized array adds lines before, inside and after the body, and
// one block for several indents the body's lines, the bare-LF one too.
// CHECK: dd::block_private<dd::ops::add, int> dd_private_bins(dd_private_storage_bins, 256, bins, 256, 16, dd_blocks.count());
// CHECK-NEXT: {{^}}  for (const uint3 blockIdx : dd_blocks) {
// CHECK-NEXT: {{^}}    int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK: {{^}}      continue;
// CHECK-NEXT: {{^}}    dd::atomic_add_uniform(total, 1ull);
// CHECK-NEXT: {{^}}    dd_private_bins.update(keys[i] & 255, 1); // BARE-LF
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}  dd_private_bins.flush();
