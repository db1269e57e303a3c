// Every rewrite calls the runtime as `dd::...`. A program that declares its
// own `dd` where those calls land (here a namespace nested in the kernel's
// namespace; also a class, a type alias or a template parameter named
// `dd`, or a namespace `lib::dd` that `using namespace lib` brings in) would
// have them name its `dd`, and the output would not compile (before:
// namespace "app::dd" has no member "coarse_blocks"). The rewrite is dropped with a
// warning, shown by default, and the file is written as it came; annotated
// (the second file), the warning is an error. A global `namespace dd` of
// the program's merges with the runtime's and is no clash. The names the
// rewrites declare begin with `dd_`: a program's own such name (Inputs/
// dd-prefix-name.cu: a local `dd_private_bins`, which shadowed the
// privatized copy, before: "expression must have class type") drops the
// rewrite too.
// RUN: %decoupler %s -o %t.cu 2>&1 | FileCheck %s
// RUN: diff %s %t.cu
// RUN: sed 's|// ANNOTATE ||' %s > %t.pragma.cu
// RUN: not %decoupler %t.pragma.cu -o %t.pragma.out.cu 2>&1 | FileCheck %s --check-prefix=PRAGMA
// RUN: sed '/^namespace dd {/,/^} \/\/ namespace dd/d; s|namespace app|namespace dd|; s|app::|dd::|' %s > %t.global.cu
// RUN: %decoupler --passes=atomics -Rdecoupler %t.global.cu -o %t.global.out.cu 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: %decoupler %S/Inputs/dd-prefix-name.cu -o %t.prefix.cu 2>&1 | FileCheck %s --check-prefix=PREFIX
// RUN: diff %S/Inputs/dd-prefix-name.cu %t.prefix.cu
// PREFIX: dd-prefix-name.cu:4:7: warning: nothing rewritten: the program declares 'dd_private_bins' (a variable), and the names the rewrite declares begin with 'dd_': one could shadow it or clash with it
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
// RUN: %nvcc -c %t.global.out.cu -o %t.global.o
#include <dd/annotate.h>

namespace app {
// CHECK: runtime-name-clash.cu:[[@LINE+2]]:11: warning: nothing rewritten: the program declares 'app::dd' (a namespace), which the rewrite's calls into the runtime, spelled 'dd::', would name instead of the runtime's namespace
// PRAGMA: error: nothing rewritten: the program declares 'app::dd' (a namespace)
namespace dd {
inline int version() { return 2; }
} // namespace dd

__global__ void count_all(unsigned *bins, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // ANNOTATE DD_PRAGMA(atomic(vr))
    atomicAdd(&bins[keys[i] & 63], 1u);
}
} // namespace app

void launch(unsigned *bins, const int *keys, int n) {
  app::count_all<<<(n + 255) / 256, 256>>>(bins, keys, n);
}
// GLOBAL: remark: atomicAdd -> 
// GLOBAL-NOT: nothing rewritten
