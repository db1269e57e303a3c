// DD_DELEGATE_NESTED picks the lock order of nested delegate servers
// (dd::NestedOrder, docs/delegate-runtime.md): remote-first or local-first;
// unset or empty keeps the order the code asked for; anything else ends the
// program with a message, so that a typo cannot measure the other order.
// Host code only: runs without a GPU.
// REQUIRES: nvcc
// RUN: %link_nvcc %s -o %t
// RUN: env -u DD_DELEGATE_NESTED %t | FileCheck %s --check-prefix=UNSET
// UNSET: asked remote-first: remote-first; asked local-first: local-first
// RUN: env DD_DELEGATE_NESTED= %t | FileCheck %s --check-prefix=UNSET
// RUN: env DD_DELEGATE_NESTED=local-first %t | FileCheck %s --check-prefix=LOCAL
// LOCAL: asked remote-first: local-first; asked local-first: local-first
// RUN: env DD_DELEGATE_NESTED=remote-first %t | FileCheck %s --check-prefix=REMOTE
// REMOTE: asked remote-first: remote-first; asked local-first: remote-first
// RUN: env DD_DELEGATE_NESTED=Remote-First not %t 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: dd: DD_DELEGATE_NESTED must be remote-first or local-first (is 'Remote-First')
// BAD-NOT: asked
#include <cstdio>

#include <dd/delegate.cuh>

static const char *name(dd::NestedOrder order) {
  return order == dd::NestedOrder::RemoteFirst ? "remote-first" : "local-first";
}

int main() {
  const dd::NestedOrder remote = dd::nested_order_from_env(dd::NestedOrder::RemoteFirst);
  const dd::NestedOrder local = dd::nested_order_from_env(dd::NestedOrder::LocalFirst);
  std::printf("asked remote-first: %s; asked local-first: %s\n", name(remote), name(local));
  return 0;
}
