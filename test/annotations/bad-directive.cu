// Malformed annotations: a clang error with a caret at the offending token,
// exit status 1 and no output file.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --strict-whitespace
// RUN: not test -e %t.dd.cu

__global__ void k(int *a, int n) {
  // CHECK: bad-directive.cu:[[@LINE+4]]:14: error: unknown decoupler directive 'decuple'; did you mean 'decouple'?
  // CHECK-NEXT: {{^ +[0-9]+ \|   #pragma dd decuple$}}
  // CHECK-NEXT: {{^ +\| {14}\^~~~~~~$}}
  // CHECK-NEXT: {{^ +\| {14}decouple$}}
  #pragma dd decuple
  for (int i = 0; i < n; ++i) a[i] = 0;

  // CHECK: bad-directive.cu:[[@LINE+1]]:23: error: unknown clause 'width' for '#pragma dd decouple' (allowed: depth(N))
  #pragma dd decouple width(2)
  for (int i = 0; i < n; ++i) a[i] = 0;

  // CHECK: bad-directive.cu:[[@LINE+1]]:29: error: value of clause 'depth' must be between 1 and 64
  #pragma dd decouple depth(0)
  for (int i = 0; i < n; ++i) a[i] = 0;

  // CHECK: bad-directive.cu:[[@LINE+1]]:32: error: clause 'depth' given twice
  #pragma dd decouple depth(2) depth(3)
  for (int i = 0; i < n; ++i) a[i] = 0;

  // CHECK: bad-directive.cu:[[@LINE+1]]:29: error: expected a positive integer in clause 'depth'
  #pragma dd decouple depth(n)
  for (int i = 0; i < n; ++i) a[i] = 0;

  // CHECK: bad-directive.cu:[[@LINE+1]]:20: error: expected '(' after 'atomic': write atomic(sr), atomic(vr), atomic(ss), atomic(privatize) or atomic(none)
  #pragma dd atomic
  atomicAdd(a, 1);

  // CHECK: bad-directive.cu:[[@LINE+1]]:21: error: unknown atomic variant 'rs'; expected sr, vr, ss, privatize or none
  #pragma dd atomic(rs)
  atomicAdd(a, 1);

  // CHECK: bad-directive.cu:[[@LINE+1]]:24: error: unknown clause 'extra' for '#pragma dd monotonic' (allowed: none; the variant is written monotonic(filter) or monotonic(store))
  #pragma dd monotonic extra
  atomicAdd(a, 1);

  // CHECK: bad-directive.cu:[[@LINE+1]]:24: error: unknown monotonic variant 'stores'; expected filter or store
  #pragma dd monotonic(stores)
  atomicAdd(a, 1);

  // CHECK: bad-directive.cu:[[@LINE+1]]:29: error: expected ')' after the monotonic variant
  #pragma dd monotonic(store
  atomicAdd(a, 1);

  // CHECK: bad-directive.cu:[[@LINE+1]]:13: error: expected a decoupler directive after '#pragma dd' (decouple, delegate, atomic or monotonic)
  #pragma dd
  atomicAdd(a, 1);
}
