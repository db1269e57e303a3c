// GNU statement expressions `({ ...; })`: the value of the last statement is
// the value of the expression. An atomic there whose statement expression's
// value is used keeps its result used and is left alone (the aggregated
// variants return nothing); one whose value is thrown away (a statement, the
// middle of the block, a (void) cast, a nested one that is not the last)
// is rewritten. An atomic written in a macro stays as written. The output
// compiles without a warning.
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark: --implicit-check-not=note:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

#define BUMP(p) ({ int old_ = atomicAdd(p, 1); old_; })
#define BUMP_VALUE(p) ({ atomicAdd(p, 1); })
#define STATEMENT(s) ({ s; })

__global__ void k(int *a, int *out, const int *keys, unsigned long long *c) {
  int i = keys[threadIdx.x];

  // The last statement: its value is the statement expression's.
  // REMARK: statement-expressions.cu:[[@LINE+2]]:14: remark: atomicAdd left unchanged: its result is used
  // CHECK: int v = ({ atomicAdd(&a[i], 1); });
  int v = ({ atomicAdd(&a[i], 1); });
  out[threadIdx.x] = v;
  // Through a label.
  // REMARK: statement-expressions.cu:[[@LINE+2]]:42: remark: atomicAdd left unchanged: its result is used
  // CHECK: int lbl = ({ if (i < 0) goto add; add: atomicAdd(&a[i], 1); });
  int lbl = ({ if (i < 0) goto add; add: atomicAdd(&a[i], 1); });
  out[1] = lbl;
  // Nested: the inner one is the outer one's value.
  // REMARK: statement-expressions.cu:[[@LINE+2]]:28: remark: atomicMax left unchanged: its result is used
  // CHECK: int x = ({ int t = i; ({ atomicMax(&a[t], 3); }); });
  int x = ({ int t = i; ({ atomicMax(&a[t], 3); }); });
  out[2] = x;
  // REMARK: statement-expressions.cu:[[@LINE+2]]:10: remark: atomicAdd left unchanged: its result is used
  // CHECK: if (({ atomicAdd(&a[0], 1); }) == 0)
  if (({ atomicAdd(&a[0], 1); }) == 0)
    out[3] = 1;

  // The value is thrown away.
  // REMARK: statement-expressions.cu:[[@LINE+2]]:6: remark: atomicAdd -> dd::atomic_add_vr
  // CHECK: ({ dd::atomic_add_vr(&a[i], 1); });
  ({ atomicAdd(&a[i], 1); });
  // REMARK: statement-expressions.cu:[[@LINE+2]]:14: remark: atomicAdd -> dd::atomic_add_uniform
  // CHECK: int w = ({ dd::atomic_add_uniform(&c[0], 1ull); 5; });
  int w = ({ atomicAdd(&c[0], 1ull); 5; });
  out[4] = w;
  // REMARK: statement-expressions.cu:[[@LINE+2]]:12: remark: atomicAdd -> dd::atomic_add_uniform
  // CHECK: (void)({ dd::atomic_add_uniform(c, 1ull); });
  (void)({ atomicAdd(c, 1ull); });
  // REMARK: statement-expressions.cu:[[@LINE+2]]:17: remark: atomicOr -> dd::atomic_or_vr
  // CHECK: int y = ({ ({ dd::atomic_or_vr(&a[i], 2); }); 0; });
  int y = ({ ({ atomicOr(&a[i], 2); }); 0; });
  out[5] = y;

  // Macros that use statement expressions.
  // REMARK: statement-expressions.cu:[[@LINE+3]]:12: remark: atomicAdd left unchanged: its result is used
  // REMARK: statement-expressions.cu:13:31: note: expanded from macro 'BUMP'
  // CHECK: out[6] = BUMP(&a[i]);
  out[6] = BUMP(&a[i]);
  // REMARK: statement-expressions.cu:[[@LINE+3]]:3: remark: atomicAdd left unchanged: it is written through a macro
  // REMARK: statement-expressions.cu:14:26: note: expanded from macro 'BUMP_VALUE'
  // CHECK: BUMP_VALUE(&a[i]);
  BUMP_VALUE(&a[i]);
  // REMARK: statement-expressions.cu:[[@LINE+2]]:13: remark: atomicAdd left unchanged: it is written through a macro
  // CHECK: STATEMENT(atomicAdd(&a[i], 1));
  STATEMENT(atomicAdd(&a[i], 1));
}
