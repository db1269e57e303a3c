#!/usr/bin/env python3
"""Checks the #line directives of a rewritten file against its input.

  check-line-directives.py <input> <output>

Simulates the preprocessor's presumed (file, line) for every line of the
output and checks: each line attributed to the input is identical to the
input's line at that number, or (edited in place) sits where the rewrite
changed lines; each line attributed to the output is at its own line number;
every line of the input that survives unchanged is attributed to the input;
no directive stands inside a block comment, a raw string or after a
backslash continuation (detected by the input's lines being consistent).
Exit 1 with a message on the first problem.
"""
import os
import sys


def lines(path):
    data = open(path, "rb").read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    out = data.split(b"\n")
    if out and out[-1] == b"":
        out.pop()
    return out


def main():
    inp, outp = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    src, dst = lines(inp), lines(outp)
    crlf = src and src[0].endswith(b"\r")
    presumed_file, presumed_line = outp, 1
    attributed = {}  # input line -> output text
    own = 0
    for i, text in enumerate(dst, start=1):
        stripped = text.rstrip(b"\r")
        if stripped.startswith(b"#line "):
            if crlf and not text.endswith(b"\r"):
                sys.exit("line %d: directive without CRLF in a CRLF file" % i)
            _, num, name = stripped.split(b" ", 2)
            presumed_file = os.path.abspath(name.decode()[1:-1])
            presumed_line = int(num)
            continue
        if presumed_file == inp:
            attributed[presumed_line] = text
        elif presumed_file == outp:
            own += 1
            if presumed_line != i:
                sys.exit("line %d: attributed to the output's line %d" % (i, presumed_line))
        else:
            sys.exit("line %d: attributed to unknown file %r" % (i, presumed_file))
        presumed_line += 1
    same = sum(1 for n, t in attributed.items() if 0 < n <= len(src) and src[n - 1] == t)
    edited = len(attributed) - same
    # Lines of the input present verbatim in the output must be attributed
    # to themselves (a drift would attribute them to other numbers).
    dst_set = set(dst)
    for n, t in enumerate(src, start=1):
        if t.strip() and src.count(t) == 1 and t in dst_set and attributed.get(n) != t:
            sys.exit("input line %d is in the output but not attributed to it" % n)
    if edited > max(2, len(attributed) // 4):
        sys.exit("%d of %d attributed lines differ from the input" % (edited, len(attributed)))
    print("ok: %d lines attributed to the input (%d edited), %d to the output"
          % (len(attributed), edited, own))


if __name__ == "__main__":
    main()
