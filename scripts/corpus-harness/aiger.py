#!/usr/bin/env python3
"""Binary AIGER circuits (`aig M I 0 O A`) for running HeCBench's
logic-rewrite as written and rewritten (docs/corpus.md, "Running real
programs"): the suite ships no input.

  aiger.py mult OUT.aig N                    an N x N array multiplier
  aiger.py rand OUT.aig INPUTS ANDS OUTPUTS SEED
                                             a random AIG, seeded
"""
import random, sys

class Aig:
    def __init__(self, n_in):
        self.n_in = n_in
        self.ands = []  # (lhs, rhs0, rhs1)
        self.next_var = n_in + 1
    def inp(self, i): return 2 * (i + 1)
    def AND(self, a, b):
        if a == 0 or b == 0: return 0
        if a == 1: return b
        if b == 1: return a
        lhs = 2 * self.next_var; self.next_var += 1
        self.ands.append((lhs, max(a, b), min(a, b)))
        return lhs
    def OR(self, a, b): return self.AND(a ^ 1, b ^ 1) ^ 1
    def XOR(self, a, b): return self.OR(self.AND(a, b ^ 1), self.AND(a ^ 1, b))
    def write(self, path, outs):
        M = self.next_var - 1
        with open(path, 'wb') as f:
            f.write(b'aig %d %d 0 %d %d\n' % (M, self.n_in, len(outs), len(self.ands)))
            for o in outs: f.write(b'%d\n' % o)
            for lhs, r0, r1 in self.ands:
                for d in (lhs - r0, r0 - r1):
                    assert d >= 0
                    while d & ~0x7f:
                        f.write(bytes([(d & 0x7f) | 0x80])); d >>= 7
                    f.write(bytes([d]))

def multiplier(n):
    g = Aig(2 * n)
    a = [g.inp(i) for i in range(n)]; b = [g.inp(n + i) for i in range(n)]
    acc = [0] * (2 * n)
    for j in range(n):
        carry = 0
        for i in range(n):
            p = g.AND(a[i], b[j]); s = acc[i + j]
            t = g.XOR(s, p)
            acc[i + j] = g.XOR(t, carry)
            carry = g.OR(g.AND(s, p), g.AND(t, carry))
        acc[j + n] = carry
    return g, acc

def rand_aig(n_in, n_and, n_out, seed):
    rnd = random.Random(seed); g = Aig(n_in)
    lits = [g.inp(i) for i in range(n_in)]
    while len(g.ands) < n_and:
        a = rnd.choice(lits[-4 * n_in:]) ^ rnd.randint(0, 1)
        b = rnd.choice(lits) ^ rnd.randint(0, 1)
        if a >> 1 == b >> 1: continue
        lits.append(g.AND(a, b))
    return g, [l ^ rnd.randint(0, 1) for l in lits[-n_out:]]

if len(sys.argv) < 4 or sys.argv[1] not in ('mult', 'rand') or \
        (sys.argv[1] == 'rand' and len(sys.argv) != 7):
    sys.exit(__doc__)
kind, path = sys.argv[1], sys.argv[2]
if kind == 'mult':
    g, outs = multiplier(int(sys.argv[3]))
else:
    g, outs = rand_aig(int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
g.write(path, outs)
print(path, len(g.ands), 'ands')
