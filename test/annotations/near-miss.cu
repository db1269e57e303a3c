// Near misses of an annotation. A pragma outside the `dd` namespace is not
// an annotation (clang ignores it), but one spelled like it gets a warning
// with a fix-it; a misspelled directive or clause inside `#pragma dd` is an
// error that names the nearest one.
// RUN: not %decoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --strict-whitespace
// Without the errors, the warnings alone let the file through unchanged.
// RUN: %decoupler --passes=split %s -o %t.ok.cu -- -DWARNINGS_ONLY 2>&1 | FileCheck %s --check-prefix=WARN --implicit-check-not=error
// RUN: diff %s %t.ok.cu

// CHECK: near-miss.cu:[[@LINE+4]]:9: warning: '#pragma DD' is not a decoupler annotation and is ignored; did you mean '#pragma dd'?
// CHECK-NEXT: {{^ +[0-9]+ \| #pragma DD monotonic$}}
// CHECK-NEXT: {{^ +\| +\^~$}}
// CHECK-NEXT: {{^ +\| +dd$}}
#pragma DD monotonic
// WARN: near-miss.cu:[[@LINE-1]]:9: warning: '#pragma DD' is not a decoupler annotation
__global__ void relax(int *d, int v) { atomicMin(d, v); }

// CHECK: near-miss.cu:[[@LINE+1]]:9: warning: '#pragma decoupler' is not a decoupler annotation and is ignored; did you mean '#pragma dd'?
#pragma decoupler monotonic
// WARN: near-miss.cu:[[@LINE-1]]:9: warning: '#pragma decoupler'
__global__ void relax2(int *d, int v) { atomicMin(d, v); }

__global__ void k(int *a, int n) {
  // CHECK: near-miss.cu:[[@LINE+1]]:11: warning: '#pragma decouple' is not a decoupler annotation and is ignored; did you mean '#pragma dd decouple'?
  #pragma decouple
  // WARN: near-miss.cu:[[@LINE-1]]:11: warning: '#pragma decouple'
  for (int i = 0; i < n; ++i) a[i] = 0;
  // CHECK: near-miss.cu:[[@LINE+1]]:11: warning: '#pragma Dd' is not a decoupler annotation and is ignored; did you mean '#pragma dd'?
  #pragma Dd atomic(vr)
  // WARN: near-miss.cu:[[@LINE-1]]:11: warning: '#pragma Dd'
  atomicAdd(a, 1);
#ifndef WARNINGS_ONLY
  // CHECK: near-miss.cu:[[@LINE+3]]:14: error: unknown decoupler directive 'atomics'; did you mean 'atomic'?
  // CHECK-NEXT: {{^ +[0-9]+ \|   #pragma dd atomics\(vr\)$}}
  // CHECK-NEXT: {{^ +\| {14}\^~~~~~~$}}
  #pragma dd atomics(vr)
  atomicAdd(a, 1);
  // CHECK: near-miss.cu:[[@LINE+1]]:14: error: unknown decoupler directive 'Decouple'; did you mean 'decouple'?
  #pragma dd Decouple
  for (int i = 0; i < n; ++i) a[i] = 0;
  // CHECK: near-miss.cu:[[@LINE+1]]:14: error: unknown decoupler directive 'monotonc'; did you mean 'monotonic'?
  #pragma dd monotonc
  for (int i = 0; i < n; ++i) a[i] = 0;
  // CHECK: near-miss.cu:[[@LINE+1]]:23: error: unknown clause 'dpeth' for '#pragma dd decouple'; did you mean 'depth'?
  #pragma dd decouple dpeth(2)
  for (int i = 0; i < n; ++i) a[i] = 0;
  // CHECK: near-miss.cu:[[@LINE+1]]:23: error: unknown clause 'server' for '#pragma dd delegate'; did you mean 'servers'?
  #pragma dd delegate server(2)
  for (int i = 0; i < n; ++i) a[i] = 0;
  // Far from every directive: the list of them.
  // CHECK: near-miss.cu:[[@LINE+1]]:14: error: unknown decoupler directive 'vectorize'; expected decouple, delegate, atomic or monotonic
  #pragma dd vectorize
  for (int i = 0; i < n; ++i) a[i] = 0;
#endif
}
