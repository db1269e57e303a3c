#!/usr/bin/env python3
"""Generates the kernels that made the analysis's fixed point cost cubic time
(issue 13, class 12); the lit tests under test/analysis run the tool on them
under a time limit.

  gen-cost-shapes.py if-chain N   a loop holding a chain of N ifs, each reading
                                  the variable the previous one assigns, with
                                  divergence entering at the end of the body
  gen-cost-shapes.py goto N       N labels of goto spaghetti: each label
                                  branches on the variable the labels assign
                                  to two pseudo-random labels (an irreducible
                                  CFG) or falls through to the next; divergence
                                  enters after the last label
"""
import sys


def if_chain(n):
    out = ["__global__ void chain(int *out, int n) {"]
    out.append("  int " + ", ".join("v%d = 0" % i for i in range(n + 1)) + ";")
    out.append("  for (int i = 0; i < n; ++i) {")
    for i in range(n):
        # A constant: v(i+1) becomes divergent only by sync dependence on
        # this branch, once the branch itself was found divergent.
        out.append("    if (v%d > %d) v%d = %d;" % (i, i % 7, i + 1, i % 5 + 1))
    out.append("    v0 = threadIdx.x + i;")
    out.append("  }")
    out.append("  out[v%d] = v0;" % n)
    out.append("}")
    return "\n".join(out) + "\n"


def goto_spaghetti(n):
    # A fixed linear congruential sequence: the same file on every run.
    state = 12345

    def rand():
        nonlocal state
        state = (state * 1103515245 + 12345) % (1 << 31)
        return state

    out = ["__global__ void spaghetti(int *out, int n) {"]
    out.append("  int s = 0, steps = 0;")
    for i in range(n):
        a, b = rand() % n, rand() % n
        out.append("L%d:" % i)
        out.append("  if (++steps > n) goto done;")
        # Constants: s becomes divergent only by sync dependence.
        out.append("  if (s > %d) { s = %d; goto L%d; }" % (i % 7, i % 13, a))
        out.append("  if (s < %d) goto L%d;" % (i % 5, b))
    # Every label falls through to the next; divergence enters at the end.
    out.append("  if (threadIdx.x & 1) s = 3;")
    out.append("  goto L0;")
    out.append("done:")
    out.append("  out[threadIdx.x] = s;")
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("if-chain", "goto"):
        sys.exit(__doc__)
    n = int(sys.argv[2])
    sys.stdout.write(if_chain(n) if sys.argv[1] == "if-chain" else goto_spaghetti(n))
