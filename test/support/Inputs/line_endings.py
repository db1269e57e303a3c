#!/usr/bin/env python3
"""Line-ending helpers for the CRLF tests.

  line_endings.py crlf IN OUT       OUT = IN with every line ending "\\r\\n",
                                    except lines holding BARE-LF (kept "\\n")
  line_endings.py check FILE        fails on a bare "\\n" or a lone "\\r",
                                    except on lines holding BARE-LF
  line_endings.py same CRLF LF      fails unless CRLF with "\\r\\n" -> "\\n"
                                    equals LF byte for byte
"""
import sys


def crlf(src, dst):
    out = []
    for line in open(src, "rb").read().split(b"\n"):
        out.append(line if b"BARE-LF" in line else line.rstrip(b"\r"))
    data = b""
    for i, line in enumerate(out):
        if i == len(out) - 1:
            data += line
        elif b"BARE-LF" in line:
            data += line + b"\n"
        else:
            data += line + b"\r\n"
    open(dst, "wb").write(data)


def check(path):
    data = open(path, "rb").read()
    for number, line in enumerate(data.split(b"\n")[:-1], 1):
        if b"BARE-LF" in line:
            if line.endswith(b"\r"):
                sys.exit("%s:%d: a BARE-LF line now ends in CRLF" % (path, number))
            continue
        if not line.endswith(b"\r"):
            sys.exit("%s:%d: bare LF: %r" % (path, number, line))
        if b"\r" in line[:-1]:
            sys.exit("%s:%d: lone CR: %r" % (path, number, line))
    if data.count(b"\r") != data.count(b"\r\n"):
        sys.exit("%s: a lone CR" % path)


def same(crlf_path, lf_path):
    a = open(crlf_path, "rb").read().replace(b"\r\n", b"\n")
    b = open(lf_path, "rb").read()
    if a != b:
        sys.exit("%s and %s differ beyond line endings" % (crlf_path, lf_path))


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"crlf": crlf, "check": check, "same": same}[command](*args)
