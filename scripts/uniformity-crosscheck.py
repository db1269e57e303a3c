#!/usr/bin/env python3
"""Cross-check decoupler's branch classes against LLVM's UniformityAnalysis.

For every CUDA file given (default: each test/analysis/*.cu with a __global__
function) this script

  1. compiles the device side to LLVM IR for NVPTX with clang-22 (-O0, -g),
  2. prepares the IR: device functions are inlined into their kernels, locals
     become SSA values (sroa), kernel pointer parameters and shared variables
     get their address spaces (nvptx-lower-args, infer-address-spaces), loops
     get one back edge (loop-simplify), and reads of block-uniform special
     registers (blockIdx, blockDim, gridDim, ...) and calls of pure math
     functions are modelled so that NVPTX's "every call is divergent" rule
     does not hide what the analysis would otherwise say,
  3. runs `opt -passes='print<uniformity>'` and reads which conditional
     branches (br i1, switch) and which select conditions are DIVERGENT,
     mapping each to its source position through its !dbg location,
  4. runs `decoupler --analyze --report=json` on the same file, and
  5. matches LLVM's conditions to decoupler's `branches` entries (same kernel,
     same function, by source span) and gives each a verdict:

       agree-uniform      ours scalar,            LLVM uniform
       agree-divergent    ours affine/nonaffine,  LLVM divergent
       ours-conservative  ours affine/nonaffine,  LLVM uniform     (allowed)
       llvm-conservative  ours scalar,            LLVM divergent, but the
                          script proves LLVM's verdict is its documented
                          over-approximation (irreducible cycle assumed
                          divergent, condition computed from uniform values)
       UNSAFE             ours scalar,            LLVM divergent   (forbidden)
       unmatched-ours     an entry of ours with no LLVM branch or select
       unmatched-llvm     an LLVM branch with no entry of ours

Functions that cannot be inlined (recursion) are analysed per kernel with the
argument uniformity that the kernel's call sites establish (a checked fixed
point), instead of NVPTX's "arguments of non-kernels are divergent".

Output: Markdown (stdout or --markdown FILE), --json FILE for machines ('-' is
stdout). Exit status: 0 when there is no UNSAFE verdict, 1 when there is one,
2 on a usage error or a missing tool. docs/uniformity-crosscheck.md explains
the pipeline, the matching rules and the verdicts.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_LLVM_BIN = "/usr/lib/llvm-22/bin"

VERDICTS = ["agree-uniform", "agree-divergent", "ours-conservative", "llvm-conservative",
            "UNSAFE", "unmatched-ours", "unmatched-llvm"]

# Special registers that hold the same value in every thread of a thread block.
# NVPTX's TTI calls the result of every call divergent, these included; the
# CUDA programming model makes them block-uniform, so they are modelled as loads
# from an addrspace(4) (constant) global, which NVPTX treats as uniform.
UNIFORM_SREGS = re.compile(
    r"^llvm\.nvvm\.read\.ptx\.sreg\.("
    r"ctaid|nctaid|ntid|nclusterid|clusterid|cluster\.ctaid|cluster\.nctaid"
    r")\.[xyzw]$|"
    r"^llvm\.nvvm\.read\.ptx\.sreg\.("
    r"warpsize|nwarpid|nsmid|gridid|cluster\.ctarank|cluster\.nctarank|"
    r"is\.explicit\.cluster|total_smem_size|dynamic_smem_size|aggr_smem_size)$")
# Intrinsic families that must never be modelled as pure: thread-dependent
# special registers and warp-collective operations.
NOT_PURE = re.compile(r"^llvm\.nvvm\.(read\.ptx\.sreg\.|shfl|vote|match|redux|activemask|bar|barrier)")
SIMPLE_TYPE = re.compile(r"^(i\d+|half|bfloat|float|double|ptr( addrspace\(\d+\))?)$")
VALUE_RE = r'%(?:[-A-Za-z$._0-9]+|"(?:[^"\\]|\\.)*")'
KEYWORDS = ("for", "while", "if", "switch", "do")


class ToolError(Exception):
    pass


# ----------------------------------------------------------------------------
# Tools
# ----------------------------------------------------------------------------

def find_tools(args):
    tools = {}
    bins = [args.llvm_bin] if args.llvm_bin else []
    bins.append(DEFAULT_LLVM_BIN)
    for name, candidates in (("clang", ["clang-22", "clang"]), ("opt", ["opt-22", "opt"])):
        found = None
        for d in bins:
            for c in candidates:
                p = os.path.join(d, c)
                if os.path.isfile(p) and os.access(p, os.X_OK):
                    found = p
                    break
            if found:
                break
        if not found:
            for c in candidates:
                found = shutil.which(c)
                if found:
                    break
        if not found:
            raise ToolError("cannot find %s (looked in %s and on PATH); install llvm-22 / "
                            "clang-22 or pass --llvm-bin DIR" % (candidates[0], ", ".join(bins)))
        tools[name] = found
    cuda = args.cuda_path or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    if not os.path.isdir(os.path.join(cuda, "include")):
        raise ToolError("no CUDA toolkit at %s (no include/ there); set CUDA_PATH or pass "
                        "--cuda-path DIR" % cuda)
    tools["cuda"] = cuda
    dec = args.decoupler
    if not dec:
        cand = os.path.join(REPO, "build", "bin", "decoupler")
        dec = cand if os.path.isfile(cand) else shutil.which("decoupler")
    if not dec or not (os.path.isfile(dec) and os.access(dec, os.X_OK)):
        raise ToolError("cannot find the decoupler tool (%s); build it (scripts/setup.sh) or "
                        "pass --decoupler PATH" % (dec or os.path.join(REPO, "build/bin/decoupler")))
    tools["decoupler"] = dec
    return tools


def tool_version(path):
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "?"
    lines = [l.strip() for l in (out.stdout + out.stderr).splitlines() if l.strip()]
    for line in lines:
        if "version" in line.lower():
            return line
    return lines[0] if lines else "?"


def run(cmd, what, timeout=600):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except OSError as e:
        raise ToolError("%s: cannot run %s: %s" % (what, cmd[0], e))
    except subprocess.TimeoutExpired:
        raise ToolError("%s: %s timed out" % (what, cmd[0]))
    return p


# ----------------------------------------------------------------------------
# Step 1: compile, step 2: prepare the IR
# ----------------------------------------------------------------------------

def clang_command(tools, args, src, out):
    cmd = [tools["clang"], "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + args.arch,
           "--cuda-path=" + tools["cuda"], "-Wno-unknown-cuda-version", "-Wno-unknown-pragmas",
           "-nocudalib", "-S", "-emit-llvm", "-O0", "-Xclang", "-disable-O0-optnone", "-g",
           "-std=c++17", "-D__DECOUPLER__=1", "-I", os.path.join(REPO, "runtime", "include")]
    cmd += args.clang_arg
    cmd += ["-o", out, src]
    return cmd


def opt_pipeline(args):
    fn = ["sroa<preserve-cfg>"]
    if not args.no_addrspace:
        fn += ["nvptx-lower-args", "infer-address-spaces"]
    if not args.no_loop_simplify:
        fn += ["loop-simplify"]
    passes = "function(%s)" % ",".join(fn)
    if not args.no_inline:
        passes = "always-inline," + passes
    return passes


def split_top(s, sep=","):
    """Split s at sep characters outside (), [], {}, <> and quotes."""
    parts, depth, cur, q = [], 0, [], False
    for ch in s:
        if q:
            cur.append(ch)
            if ch == '"':
                q = False
            continue
        if ch == '"':
            q = True
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


CALL_RE = re.compile(r"^(\s*)(" + VALUE_RE + r") = (?:tail |musttail |notail )?call (.*?)@([-A-Za-z$._0-9]+|\"[^\"]*\")\((.*)\)(.*)$")


def model_ir(text, args, stats):
    """Text rewrites on clang's output (documented in docs/uniformity-crosscheck.md)."""
    lines = text.split("\n")
    if not args.no_inline:
        # clang marks every function noinline at -O0; make device functions
        # always_inline so that always-inline puts them into their kernels.
        for i, l in enumerate(lines):
            if l.startswith("attributes #"):
                lines[i] = re.sub(r"\bnoinline\b", "alwaysinline", l)
    if args.no_model:
        return "\n".join(lines)
    # Declarations: name -> (attribute text, has body)
    attr_groups = {}
    for l in lines:
        m = re.match(r"^attributes (#\d+) = \{(.*)\}", l)
        if m:
            attr_groups[m.group(1)] = m.group(2)
    decls, defined = {}, set()
    for l in lines:
        m = re.match(r"^(declare|define) .*?@([-A-Za-z$._0-9]+|\"[^\"]*\")\(", l)
        if not m:
            continue
        name = m.group(2)
        if m.group(1) == "define":
            defined.add(name)
        else:
            groups = re.findall(r"\) .*?(#\d+)", l)
            decls[name] = " ".join(attr_groups.get(g, "") for g in groups) + " " + l
    globals_needed = {}
    out = []
    counter = [0]

    def uniform_global(ty):
        if ty not in globals_needed:
            globals_needed[ty] = "@__xcheck.uniform.%d" % len(globals_needed)
        return globals_needed[ty]

    for l in lines:
        m = CALL_RE.match(l)
        if not m:
            out.append(l)
            continue
        indent, res, pre, callee, argtext, post = m.groups()
        # return type = what precedes the callee after flags and attributes
        toks = pre.split()
        rty = toks[-1] if toks else ""
        dbg = ""
        md = re.search(r"(, !dbg ![0-9]+)", post)
        if md:
            dbg = md.group(1)
        if UNIFORM_SREGS.match(callee):
            g = uniform_global(rty)
            out.append("%s%s = load %s, ptr addrspace(4) %s%s" % (indent, res, rty, g, dbg))
            stats["sreg"] = stats.get("sreg", 0) + 1
            continue
        if callee in defined or NOT_PURE.match(callee) or not SIMPLE_TYPE.match(rty) or rty.startswith("ptr"):
            out.append(l)
            continue
        attrs = decls.get(callee)
        if attrs is None:
            out.append(l)
            continue
        pure = False
        if callee.startswith("__nv_"):
            pure = True          # libdevice math: pure functions of their arguments
        elif callee.startswith("llvm.") and re.search(r"\bmemory\(none\)|\breadnone\b", attrs) \
                and not re.search(r"\bconvergent\b", attrs):
            pure = True
        if not pure:
            out.append(l)
            continue
        ops = []
        ok = True
        for a in split_top(argtext):
            at = a.split()
            if not at:
                continue
            ty = at[0]
            if ty == "ptr" and len(at) > 1 and at[1].startswith("addrspace("):
                ty = "ptr " + at[1]
            val = at[-1]
            if not SIMPLE_TYPE.match(ty) or ty.startswith("ptr"):
                ok = False      # pointer arguments: the function may read memory
                break
            if re.match(VALUE_RE + "$", val):
                ops.append((ty, val))
            elif not re.match(r"^(-?[0-9.e+]+|0x[0-9A-Fa-f]+|true|false|undef|poison|null)$", val):
                ok = False
                break
        if not ok:
            out.append(l)
            continue
        counter[0] += 1
        n = counter[0]
        g = uniform_global(rty)
        if not ops:
            out.append("%s%s = load %s, ptr addrspace(4) %s%s" % (indent, res, rty, g, dbg))
        else:
            out.append("%s%%__xc%d.u = load %s, ptr addrspace(4) %s" % (indent, n, rty, g))
            conds = []
            for k, (ty, val) in enumerate(ops):
                cmp = "fcmp oeq" if ty in ("half", "bfloat", "float", "double") else "icmp eq"
                out.append("%s%%__xc%d.c%d = %s %s %s, %s" % (indent, n, k, cmp, ty, val, val))
                conds.append("%%__xc%d.c%d" % (n, k))
            c = conds[0]
            for k, c2 in enumerate(conds[1:]):
                out.append("%s%%__xc%d.o%d = or i1 %s, %s" % (indent, n, k, c, c2))
                c = "%%__xc%d.o%d" % (n, k)
            out.append("%s%s = select i1 %s, %s %%__xc%d.u, %s %%__xc%d.u%s" % (indent, res, c, rty, n, rty, n, dbg))
        stats["pure-call"] = stats.get("pure-call", 0) + 1
        stats.setdefault("pure-callees", set()).add(callee)
    for ty, g in globals_needed.items():
        out.append("%s = external addrspace(4) global %s" % (g, ty))
    return "\n".join(out)


# ----------------------------------------------------------------------------
# Step 3: parse the IR and the uniformity printout
# ----------------------------------------------------------------------------

class Instr:
    __slots__ = ("text", "name", "opcode", "dbg", "block")

    def __init__(self, text, block):
        self.text = text
        self.block = block
        m = re.match(r"^\s*(" + VALUE_RE + r") = (.*)$", text)
        body = m.group(2) if m else text.strip()
        self.name = m.group(1) if m else None
        self.opcode = body.split()[0] if body.split() else ""
        if self.opcode in ("tail", "musttail", "notail"):
            self.opcode = body.split()[1]
        md = re.search(r"!dbg !([0-9]+)", text)
        self.dbg = int(md.group(1)) if md else None


class Function:
    def __init__(self, name, header):
        self.name = name
        self.kernel = "ptx_kernel" in header or "nvptx_kernel" in header
        md = re.search(r"!dbg !([0-9]+)", header)
        self.sp = int(md.group(1)) if md else None
        self.blocks = []        # [(name, [Instr])]
        self.defs = {}          # value name -> Instr
        self.params = []       # [(type, value name)]
        m = re.match(r"^define .*?@(?:[-A-Za-z$._0-9]+|\"[^\"]*\")\((.*)$", header)
        if m:
            depth, i, text = 1, 0, m.group(1)
            while i < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            for p in split_top(text[:i - 1]):
                toks = p.split()
                if len(toks) >= 2 and re.match(VALUE_RE + "$", toks[-1]):
                    ty = toks[0]
                    if ty == "ptr" and toks[1].startswith("addrspace("):
                        ty = "ptr " + toks[1]
                    self.params.append((ty, toks[-1]))
        self.args = [n for _, n in self.params]
        self.entry_name = None


def parse_metadata_fields(body):
    fields = {}
    for m in re.finditer(r"(\w+): (\"(?:[^\"\\]|\\.)*\"|[^,]+)", body):
        v = m.group(2).strip()
        if v.startswith('"'):
            v = v[1:-1]
        fields[m.group(1)] = v
    return fields


def parse_module(text):
    meta = {}
    funcs = []
    cur = None
    block = None
    pending = None
    for raw in text.split("\n"):
        if cur is None:
            m = re.match(r"^!([0-9]+) = (?:distinct )?!(\w+)\((.*)\)\s*$", raw)
            if m:
                meta[int(m.group(1))] = (m.group(2), parse_metadata_fields(m.group(3)))
                continue
            m = re.match(r"^define .*?@([-A-Za-z$._0-9]+|\"[^\"]*\")\(", raw)
            if m:
                cur = Function(m.group(1), raw)
                block = None
            continue
        if raw.startswith("}"):
            funcs.append(cur)
            cur = None
            continue
        if pending is not None:
            pending += " " + raw.strip()
            if raw.strip().startswith("]"):
                ins = Instr(pending, block[0])
                block[1].append(ins)
                pending = None
            continue
        s = raw.strip()
        if not s or s.startswith(";") or s.startswith("#dbg_"):
            continue
        m = re.match(r"^([-A-Za-z$._0-9]+|\"[^\"]*\"):", raw)
        if m:
            block = (m.group(1), [])
            cur.blocks.append(block)
            continue
        if block is None:
            block = (None, [])      # implicit entry block
            cur.blocks.append(block)
        if re.search(r"\bswitch\b", s) and s.endswith("["):
            pending = raw
            continue
        ins = Instr(raw, block[0])
        block[1].append(ins)
        if ins.name:
            cur.defs[ins.name] = ins
    return meta, funcs


def parse_cycle(line):
    """'depth=1: entries(9 15) 23 20' -> set of block names."""
    m = re.match(r"^\s*depth=\d+:\s*entries\(([^)]*)\)(.*)$", line)
    if not m:
        return set()
    return set(m.group(1).split()) | set(m.group(2).split())


def new_uniformity():
    return {"all": False, "values": set(), "args": set(), "blocks": [],
            "exit_cycles": [], "assumed_cycles": []}


def parse_uniformity(text):
    """-> {function: {"all": bool, "values": set of divergent values,
    "args": divergent arguments, "blocks": [[name, terminator divergent]],
    "exit_cycles": [block sets of cycles with a divergent exit],
    "assumed_cycles": [block sets of cycles assumed divergent]}}"""
    res = {}
    cur = None
    section = None
    blk = None
    blk_first = False
    for line in text.split("\n"):
        m = re.match(r"^UniformityInfo for function '(.*)':$", line)
        if m:
            cur = new_uniformity()
            res[m.group(1)] = cur
            section = None
            continue
        if cur is None:
            continue
        if line.startswith("ALL VALUES UNIFORM"):
            cur["all"] = True
            continue
        if line.startswith("DIVERGENT ARGUMENTS"):
            section = "args"
            continue
        if line.startswith("CYCLES WITH DIVERGENT EXIT"):
            section = "exit_cycles"
            continue
        if re.match(r"^CYCLES ASS+UMED DIVERGENT", line):
            section = "assumed_cycles"
            continue
        m = re.match(r"^BLOCK (.*)$", line)
        if m:
            blk = [m.group(1).strip(), False]
            cur["blocks"].append(blk)
            section = "block"
            continue
        if line.startswith("DEFINITIONS"):
            section = "defs"
            continue
        if line.startswith("TERMINATORS"):
            section = "terms"
            blk_first = True
            continue
        if line.startswith("END BLOCK"):
            section = None
            continue
        if section == "args":
            m = re.search(r"DIVERGENT: .*?(" + VALUE_RE + r")\s*$", line)
            if m:
                cur["args"].add(m.group(1))
        elif section in ("exit_cycles", "assumed_cycles"):
            if line.strip():
                cur[section].append(parse_cycle(line))
        elif section == "defs":
            m = re.match(r"^\s*DIVERGENT:\s+(" + VALUE_RE + r") = ", line)
            if m:
                cur["values"].add(m.group(1))
        elif section == "terms":
            if blk_first and line.strip():
                blk[1] = line.lstrip().startswith("DIVERGENT:")
                blk_first = False
    return res


# ----------------------------------------------------------------------------
# Debug locations
# ----------------------------------------------------------------------------

class Locator:
    def __init__(self, meta, main_file, system_dirs):
        self.meta = meta
        self.main = os.path.realpath(main_file)
        self.system_dirs = [os.path.realpath(d) for d in system_dirs if d]

    def file_of(self, ref):
        kind, f = self.meta.get(ref, (None, {}))
        fr = f.get("file")
        if not fr or not fr.startswith("!"):
            return None
        fk, ff = self.meta.get(int(fr[1:]), (None, {}))
        if fk != "DIFile":
            return None
        name = ff.get("filename", "")
        d = ff.get("directory", "")
        path = name if os.path.isabs(name) else os.path.join(d, name)
        return os.path.realpath(path)

    def subprogram(self, scope):
        seen = 0
        while scope is not None and seen < 1000:
            seen += 1
            kind, f = self.meta.get(scope, (None, {}))
            if kind == "DISubprogram":
                return scope
            s = f.get("scope")
            scope = int(s[1:]) if s and s.startswith("!") else None
        return None

    def sp_name(self, sp):
        kind, f = self.meta.get(sp, (None, {}))
        return f.get("name", "?"), f.get("linkageName", "")

    def frames(self, ref):
        """Chain of (line, col, subprogram, file) from innermost to outermost."""
        out = []
        seen = 0
        while ref is not None and seen < 100:
            seen += 1
            kind, f = self.meta.get(ref, (None, {}))
            if kind != "DILocation":
                break
            scope = int(f["scope"][1:]) if f.get("scope", "").startswith("!") else None
            sp = self.subprogram(scope)
            fil = self.file_of(scope) if scope is not None else None
            if fil is None and sp is not None:
                fil = self.file_of(sp)
            out.append((int(f.get("line", 0)), int(f.get("column", 0)), sp, fil))
            ia = f.get("inlinedAt")
            ref = int(ia[1:]) if ia and ia.startswith("!") else None
        return out

    def is_system(self, path):
        return path is not None and any(path.startswith(d + os.sep) for d in self.system_dirs)

    def resolve(self, ref):
        """-> dict(line, col, function, via) for the innermost frame in the main
        file, or None. 'via' names a system-header callee the location is inside;
        'other' names a non-main user file."""
        fr = self.frames(ref)
        if not fr:
            return None
        via = None
        for (line, col, sp, fil) in fr:
            if fil == self.main:
                if line == 0:
                    return None
                name = self.sp_name(sp)[0] if sp is not None else "?"
                return {"line": line, "col": col, "function": name, "via": via}
            if self.is_system(fil):
                if via is None:
                    via = self.sp_name(sp)[0] if sp is not None else "?"
                continue
            return {"line": fr[0][0], "col": fr[0][1], "function": None, "via": None,
                    "other": fil}
        return None


# ----------------------------------------------------------------------------
# LLVM conditions
# ----------------------------------------------------------------------------

def operands(ins):
    text = re.sub(r",\s*![-A-Za-z._0-9]+ ![0-9]+", "", ins.text)
    m = re.match(r"^\s*" + VALUE_RE + r" = (.*)$", text)
    body = m.group(1) if m else text.strip()
    if ins.opcode == "phi":
        return re.findall(r"\[\s*(" + VALUE_RE + r")\s*,", body)
    body = re.sub(r"label " + VALUE_RE, "", body)
    return re.findall(VALUE_RE, body)


def addrspace_of_load(ins):
    m = re.search(r"\bload (?:atomic )?(?:volatile )?[^,]+, ptr( addrspace\((\d+)\))?", ins.text)
    if not m:
        return None
    return int(m.group(2)) if m.group(2) else 0


AS_NAMES = {0: "generic", 1: "global", 3: "shared", 4: "constant", 5: "local"}


def fmt_pos(loc):
    if not loc:
        return "?"
    return "%d:%d" % (loc["line"], loc["col"]) if loc["col"] else "%d" % loc["line"]


def describe(ins, loc, kind):
    pos = fmt_pos(loc)
    t = re.sub(r",?\s*!dbg ![0-9]+.*$", "", ins.text.strip())
    if ins.opcode == "call" or ins.opcode in ("tail", "musttail", "notail"):
        mc = re.search(r"@([-A-Za-z$._0-9]+)", t)
        callee = mc.group(1) if mc else "?"
        if "sreg.tid" in callee:
            return "threadIdx (%s)" % pos
        if "sreg.laneid" in callee:
            return "laneid (%s)" % pos
        return "result of call @%s (%s)" % (callee, pos)
    if ins.opcode == "load":
        a = addrspace_of_load(ins)
        return "load from %s memory (%s)" % (AS_NAMES.get(a, "addrspace(%s)" % a), pos)
    if ins.opcode in ("atomicrmw", "cmpxchg"):
        return "atomic (%s)" % pos
    if ins.opcode == "phi":
        return "join of a divergent branch (phi, %s)" % pos
    if kind == "temporal":
        return "temporal divergence: value from a loop with a divergent exit (%s)" % pos
    if kind == "assumed":
        return "%s inside a cycle LLVM assumes divergent (%s)" % (ins.opcode, pos)
    return "%s (%s)" % (ins.opcode, pos)


def divergence_roots(fn, uni, start, locator, limit=8):
    """Backward slice of a divergent value through divergent values only; the
    roots are divergent values none of whose operands is divergent."""
    div = uni["values"] | uni["args"]
    roots, seen, stack = [], set(), [start]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if v in uni["args"] or (v in fn.args and v in div):
            roots.append("argument %s of a __device__ function (LLVM: arguments of non-kernels are divergent)" % v)
            continue
        ins = fn.defs.get(v)
        if ins is None or v not in div:
            continue
        ops = [o for o in operands(ins) if o in div]
        if ins.opcode in ("call", "load", "atomicrmw", "cmpxchg"):
            if not ops or ins.opcode != "call":
                roots.append(describe(ins, locator.resolve(ins.dbg) if ins.dbg else None, "source"))
                continue
        if not ops:
            kind = "phi" if ins.opcode == "phi" else "temporal"
            if kind == "temporal" and any(block_of(fn, ins) in cyc for cyc in uni["assumed_cycles"]):
                kind = "assumed"
            roots.append(describe(ins, locator.resolve(ins.dbg) if ins.dbg else None, kind))
            continue
        stack.extend(ops)
    uniq = []
    for r in roots:
        if r not in uniq:
            uniq.append(r)
    if len(uniq) > limit:
        uniq = uniq[:limit] + ["..."]
    return uniq


PURE_OPS = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and",
            "or", "xor", "fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "icmp", "fcmp", "trunc",
            "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp", "ptrtoint",
            "inttoptr", "bitcast", "addrspacecast", "getelementptr", "select", "freeze",
            "extractvalue", "insertvalue", "extractelement", "insertelement", "shufflevector"}


def block_of(fn, ins):
    return ins.block if ins.block is not None else fn.entry_name


def value_uniform(fn, u, v, user_block, memo, tainted):
    """Whether v, used in user_block, provably holds one value in all threads
    although LLVM may call it divergent. LLVM marks every definition inside an
    irreducible cycle with a divergent entry divergent ("CYCLES ASSUMED
    DIVERGENT"), whatever its operands. A value computed only by side-effect-free
    arithmetic from values LLVM calls uniform, none of them used outside a cycle
    with a divergent exit that defines it (temporal divergence), is the same in
    every thread however the threads got there. Phis, loads, calls and atomics
    never qualify. `tainted` collects the divergent definitions passed through
    that lie in an assumed-divergent cycle."""
    if not v.startswith("%"):
        return True
    if v in fn.args:
        return v not in u["args"]
    ins = fn.defs.get(v)
    if ins is None:
        return False
    db = block_of(fn, ins)
    for cyc in u["exit_cycles"]:
        if db in cyc and user_block not in cyc:
            return False
    if v not in u["values"]:
        return True
    if v in memo:
        return memo[v]
    memo[v] = False
    ok = False
    if ins.opcode in PURE_OPS or (ins.opcode == "load" and "@__xcheck.uniform" in ins.text):
        ok = all(value_uniform(fn, u, o, db, memo, tainted) for o in operands(ins))
        if ok and any(db in cyc for cyc in u["assumed_cycles"]):
            tainted.add(v)
    memo[v] = ok
    return ok


def uniform_facts(fn, start, locator, limit=6):
    """What a uniform condition's backward slice contains that decoupler may treat
    more conservatively: loads (LLVM: uniform address in a non-generic space is
    uniform), phis (joins), modelled calls."""
    facts, seen, stack = [], set(), [start]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        ins = fn.defs.get(v)
        if ins is None:
            continue
        pos = fmt_pos(locator.resolve(ins.dbg) if ins.dbg else None)
        if ins.opcode == "load":
            a = addrspace_of_load(ins)
            if "@__xcheck.uniform" not in ins.text:
                facts.append("load from %s memory (%s)" % (AS_NAMES.get(a, a), pos))
        elif ins.opcode == "phi":
            facts.append("phi (%s)" % pos)
        elif ins.opcode in ("atomicrmw", "cmpxchg"):
            facts.append("atomic (%s)" % pos)
        stack.extend(operands(ins))
    uniq = []
    for f in facts:
        if f not in uniq:
            uniq.append(f)
    return uniq[:limit] + (["..."] if len(uniq) > limit else [])


def llvm_conditions(meta, funcs, uni, locator):
    """All conditional branches, switches and select conditions of the module,
    each with kernel, function and source position."""
    conds = []
    for fn in funcs:
        u = uni.get(fn.name.strip('"'))
        if u is None:
            u = new_uniformity()
            u["all"] = True
        kname = None
        if fn.sp is not None:
            kname = locator.sp_name(fn.sp)[0]
        term_div = {}
        if not u["all"]:
            if len(u["blocks"]) != len(fn.blocks):
                raise ToolError("uniformity printout of %s has %d blocks, the IR %d" %
                                (fn.name, len(u["blocks"]), len(fn.blocks)))
            for (bname, _), (pname, d) in zip(fn.blocks, u["blocks"]):
                if bname is not None and bname.strip('"') != pname.strip().strip('"').lstrip("%"):
                    raise ToolError("block order differs in %s: %s vs %s" % (fn.name, bname, pname))
                term_div[bname] = d
            fn.entry_name = u["blocks"][0][0] if u["blocks"] else None
        for bname, instrs in fn.blocks:
            for ins in instrs:
                cond = None
                kind = None
                if ins.opcode == "br":
                    m = re.match(r"^\s*br i1 (\S+), label", ins.text)
                    if m:
                        cond, kind = m.group(1).rstrip(","), "br"
                elif ins.opcode == "switch":
                    m = re.match(r"^\s*switch \S+ (\S+), label", ins.text)
                    if m:
                        cond, kind = m.group(1).rstrip(","), "switch"
                elif ins.opcode == "select":
                    m = re.match(r"^\s*" + VALUE_RE + r" = select (?:[a-z]+ )*i1 (\S+), ", ins.text)
                    if m:
                        cond, kind = m.group(1).rstrip(","), "select"
                if cond is None or not cond.startswith("%"):
                    continue
                if "%__xc" in ins.text and kind == "select":
                    continue            # our own modelling of a pure call
                if kind == "select":
                    divergent = (not u["all"]) and (cond in u["values"] or cond in u["args"])
                else:
                    divergent = term_div.get(bname, False)
                loc = locator.resolve(ins.dbg) if ins.dbg is not None else None
                cdef = fn.defs.get(cond)
                cloc = locator.resolve(cdef.dbg) if cdef is not None and cdef.dbg is not None else None
                if cloc is not None and loc is not None and (cloc.get("function") != loc.get("function")):
                    cloc = None
                c = {"llvm_function": fn.name.strip('"'), "kernel": kname if fn.kernel else None,
                     "is_kernel": fn.kernel, "kind": kind, "divergent": divergent,
                     "loc": loc, "cond_loc": cloc, "ir": re.sub(r",?\s*!dbg.*$", "", ins.text.strip())[:80]}
                if divergent:
                    c["roots"] = divergence_roots(fn, u, cond, locator)
                    tainted = set()
                    if value_uniform(fn, u, cond, bname if bname is not None else fn.entry_name, {}, tainted) \
                            and tainted:
                        c["overapprox"] = ("LLVM assumes every value of an irreducible cycle with a "
                                           "divergent entry divergent; this condition is computed "
                                           "from uniform values only")
                else:
                    c["facts"] = uniform_facts(fn, cond, locator)
                conds.append(c)
    return conds


# ----------------------------------------------------------------------------
# Functions that stay calls (recursion; everything with --no-inline)
# ----------------------------------------------------------------------------
#
# NVPTX's TTI makes every argument of a non-kernel function divergent. For a
# function that could not be inlined the script instead assumes, per kernel,
# that the arguments of the functions reachable from it are uniform, runs the
# analysis, and withdraws the assumption for every argument position to which
# some call site reachable from the kernel passes a divergent value, until
# nothing changes (an optimistic fixed point whose result is checked against
# every call site, so it holds for all calls the kernel makes).

def paren_content(text, i):
    """text[i] == '(' -> the text up to the matching ')'."""
    depth, j = 0, i
    while j < len(text):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return text[i + 1:j]
        j += 1
    return text[i + 1:]


def call_sites(fn, defined):
    out = []
    for _, instrs in fn.blocks:
        for ins in instrs:
            if ins.opcode != "call":
                continue
            m = re.search(r"@([-A-Za-z$._0-9]+|\"[^\"]*\")\(", ins.text)
            if not m or m.group(1) not in defined:
                continue
            argv = [a.split()[-1] for a in split_top(paren_content(ins.text, m.end() - 1)) if a.split()]
            out.append((m.group(1), argv))
    return out


def with_uniform_args(text, spec, funcs):
    """Rewrite the functions of spec {name: [arg index]} so that those
    arguments are read from an addrspace(4) global (uniform for NVPTX)."""
    byname = {f.name: f for f in funcs}
    lines = text.split("\n")
    out, i, globs = [], 0, {}
    while i < len(lines):
        l = lines[i]
        m = re.match(r"^define .*?@([-A-Za-z$._0-9]+|\"[^\"]*\")\(", l)
        if not m or m.group(1) not in spec or not spec[m.group(1)]:
            out.append(l)
            i += 1
            continue
        fn = byname[m.group(1)]
        out.append(l)
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("}"):
            body.append(lines[i])
            i += 1
        loads, subst = [], {}
        for k in spec[fn.name]:
            ty, name = fn.params[k]
            g = globs.setdefault(ty, "@__xcheck.uniform.arg%d" % len(globs))
            new = "%%__xcarg%d" % k
            loads.append("  %s = load %s, ptr addrspace(4) %s" % (new, ty, g))
            subst[name] = new
        pat = re.compile("(" + "|".join(re.escape(n) for n in subst) + r")(?![-A-Za-z$._0-9])")
        body = [pat.sub(lambda mm: subst[mm.group(1)], b) for b in body]
        at = 0
        while at < len(body) and not body[at].strip():
            at += 1
        if at < len(body) and re.match(r"^([-A-Za-z$._0-9]+|\"[^\"]*\"):", body[at]):
            at += 1
        out.extend(body[:at] + loads + body[at:])
    for ty, g in globs.items():
        out.append("%s = external addrspace(4) global %s" % (g, ty))
    return "\n".join(out)


def is_divergent_value(u, v):
    return (not u["all"]) and v.startswith("%") and (v in u["values"] or v in u["args"])


def interprocedural_conditions(text, funcs, tools, locator, base):
    """Conditions of the functions each kernel still calls, analysed with the
    argument uniformity their call sites establish. -> list of conds."""
    defined = {f.name: f for f in funcs if not f.kernel and f.blocks}
    conds = []
    for k in [f for f in funcs if f.kernel]:
        reach, todo = [], [k]
        while todo:
            f = todo.pop()
            for callee, _ in call_sites(f, defined):
                if callee not in reach:
                    reach.append(callee)
                    todo.append(defined[callee])
        if not reach:
            continue
        assumed = {(g, i) for g in reach for i in range(len(defined[g].params))}
        for _ in range(100):
            spec = {g: sorted(i for (h, i) in assumed if h == g) for g in reach}
            text2 = with_uniform_args(text, spec, funcs)
            path2 = "%s.%s.args.ll" % (base, re.sub(r"[^A-Za-z0-9_.]", "_", k.name))
            with open(path2, "w") as fh:
                fh.write(text2)
            p = run([tools["opt"], "-passes=print<uniformity>", "-disable-output", path2], "opt")
            if p.returncode != 0:
                raise ToolError("opt print<uniformity> failed on %s: %s" % (path2, p.stderr.strip()[-2000:]))
            uni2 = parse_uniformity(p.stdout + "\n" + p.stderr)
            meta2, funcs2 = parse_module(text2)
            byname2 = {f.name: f for f in funcs2}
            withdrawn = set()
            for caller in [k.name] + reach:
                u = uni2.get(caller.strip('"'), new_uniformity())
                for callee, argv in call_sites(byname2[caller], defined):
                    for i, a in enumerate(argv):
                        if (callee, i) in assumed and is_divergent_value(u, a):
                            withdrawn.add((callee, i))
            if not withdrawn:
                break
            assumed -= withdrawn
        kname = locator.sp_name(k.sp)[0] if k.sp is not None else k.name
        locator2 = Locator(meta2, locator.main, locator.system_dirs)
        for c in llvm_conditions(meta2, [byname2[g] for g in reach], uni2, locator2):
            c["kernel"] = kname
            c["standalone"] = True
            fn = byname2[c["llvm_function"]] if c["llvm_function"] in byname2 else None
            if fn is not None:
                div = [n for i, (_, n) in enumerate(defined[fn.name].params) if (fn.name, i) not in assumed]
                c["args_note"] = "arguments %s" % ("all uniform" if not div else "divergent: " + " ".join(div))
            conds.append(c)
    return conds


# ----------------------------------------------------------------------------
# Step 4: decoupler
# ----------------------------------------------------------------------------

def run_decoupler(tools, args, src):
    cmd = [tools["decoupler"], "--analyze", "--report=json"] + args.decoupler_arg + [src]
    p = run(cmd, "decoupler")
    if p.returncode != 0:
        raise ToolError("decoupler failed on %s (exit %d): %s" % (src, p.returncode, p.stderr.strip()[-2000:]))
    try:
        data = json.loads(p.stdout)
    except ValueError as e:
        raise ToolError("decoupler printed no JSON for %s: %s" % (src, e))
    if isinstance(data, list):
        data = data[0] if data else {}
    entries = []
    for k in data.get("kernels", []):
        for b in k.get("branches", []):
            entries.append({"kernel": k.get("name"), "function": b.get("function") or k.get("name"),
                            "in_callee": bool(b.get("function")),
                            "line": b["line"], "col": b["column"], "class": b["class"]})
    return entries, [k.get("name") for k in data.get("kernels", [])]


# ----------------------------------------------------------------------------
# Step 5: matching
# ----------------------------------------------------------------------------

def norm(name):
    """Function names as both sides spell them: drop template arguments, the
    parameter list and qualifiers."""
    if name is None:
        return None
    s = name
    s = re.sub(r"\(.*\)$", "", s)
    out, depth = [], 0
    for ch in s:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    s = "".join(out)
    return s.split("::")[-1].strip()


class Source:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.text = f.read().decode("latin-1")
        self.starts = [0]
        for i, ch in enumerate(self.text):
            if ch == "\n":
                self.starts.append(i + 1)

    def off(self, line, col):
        if line < 1 or line > len(self.starts):
            return None
        return self.starts[line - 1] + max(col, 1) - 1

    def skip_ws(self, i):
        t = self.text
        while i < len(t):
            if t[i].isspace():
                i += 1
            elif t.startswith("//", i):
                j = t.find("\n", i)
                i = len(t) if j < 0 else j + 1
            elif t.startswith("/*", i):
                j = t.find("*/", i + 2)
                i = len(t) if j < 0 else j + 2
            else:
                break
        return i

    def scan(self, i, stop):
        """Advance from i over balanced brackets, strings and comments until a
        character of `stop` at depth 0 or an unbalanced closing bracket."""
        t = self.text
        depth = 0
        while i < len(t):
            ch = t[i]
            if t.startswith("//", i) or t.startswith("/*", i):
                i = self.skip_ws(i)
                continue
            if ch in "\"'":
                j = i + 1
                while j < len(t) and t[j] != ch:
                    j += 2 if t[j] == "\\" else 1
                i = j + 1
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                if depth == 0:
                    return i
                depth -= 1
            elif depth == 0 and ch in stop:
                if ch == ":" and (t[i + 1:i + 2] == ":" or t[i - 1:i] == ":"):
                    i += 1
                    continue
                return i
            i += 1
        return i

    def cond_span(self, line, col):
        s = self.off(line, col)
        if s is None:
            return None
        return (s, self.scan(s, ";,?:"))

    def snippet(self, span, width=48):
        s = " ".join(self.text[span[0]:span[1]].split())
        if len(s) > width:
            s = s[:width - 3] + "..."
        return s

    def keyword_header(self, off):
        """If a statement keyword starts at off, the span inside the parentheses
        of its header (for `do`, the `while (...)` after the body)."""
        t = self.text
        m = re.match(r"(for|while|if|switch|do)\b", t[off:off + 7])
        if not m:
            return None
        kw = m.group(1)
        i = off + len(kw)
        if kw == "do":
            i = self.skip_ws(i)
            if i < len(t) and t[i] == "{":
                i = self.scan(i + 1, "") + 1
            else:
                i = self.scan(i, ";") + 1
            i = self.skip_ws(i)
            if not t.startswith("while", i):
                return None
            i += 5
        i = self.skip_ws(i)
        if kw == "if" and t.startswith("constexpr", i):
            i = self.skip_ws(i + 9)
        if i >= len(t) or t[i] != "(":
            return None
        end = self.scan(i + 1, "")
        return (kw, i + 1, end)


def match_file(src, ours, conds, extra):
    """Attach LLVM conditions (conds: the kernels' own, inlined code included;
    extra: functions that stayed calls, per kernel) to our entries. Returns
    the LLVM branches that match nothing."""
    for e in ours:
        e["span"] = src.cond_span(e["line"], e["col"])
        e["llvm"] = []
    by_fn = {}
    for e in ours:
        if e["span"] is None:
            continue
        by_fn.setdefault((norm(e["kernel"]), norm(e["function"])), []).append(e)
    unmatched_llvm = []

    def place(c):
        loc = c["loc"] or c["cond_loc"]
        if loc.get("other"):
            c["why"] = "in %s (not the file analysed)" % loc["other"]
            unmatched_llvm.append(c)
            return
        if loc.get("via"):
            # a branch inside a system-header function (e.g. a math wrapper):
            # it is not the condition of a statement of this file.
            c["why"] = "inside %s (system header) called here" % loc["via"]
            unmatched_llvm.append(c)
            return
        key = (norm(c["kernel"]), norm(loc["function"]))
        target = find_entry(src, by_fn.get(key, []), c)
        if target is None:
            c["why"] = "no condition of ours at this position"
            unmatched_llvm.append(c)
        else:
            target["llvm"].append(c)

    for c in conds + extra:
        if not c["is_kernel"] and not c.get("standalone"):
            continue                      # a function body, seen through `extra` instead
        if c["loc"] is None and c["cond_loc"] is None:
            if c["kind"] != "select":
                c["why"] = "no source location (%s)" % c["ir"]
                unmatched_llvm.append(c)
            continue
        place(c)
    return unmatched_llvm


def find_entry(src, cands, c):
    if not cands:
        return None
    for which in ("loc", "cond_loc"):
        loc = c[which]
        if loc is None or loc.get("via") or loc.get("other"):
            continue
        off = src.off(loc["line"], loc["col"])
        if off is None:
            continue
        inside = [e for e in cands if e["span"][0] <= off < max(e["span"][1], e["span"][0] + 1)]
        if inside:
            # innermost: latest start, then shortest
            inside.sort(key=lambda e: (-e["span"][0], e["span"][1]))
            return inside[0]
    # A branch located at its statement keyword (switch, for, while, do).
    for which in ("loc", "cond_loc"):
        loc = c[which]
        if loc is None:
            continue
        off = src.off(loc["line"], loc["col"])
        if off is None:
            continue
        h = src.keyword_header(off)
        if not h:
            continue
        kw, a, b = h
        inside = [e for e in cands if a <= e["span"][0] < b]
        if kw == "for" and inside:
            semi = src.scan(a, ";")
            second = [e for e in inside if e["span"][0] > semi]
            inside = second or inside
        if inside:
            inside.sort(key=lambda e: e["span"][0])
            return inside[0]
    return None


def verdict(ours_class, llvm_div):
    if ours_class == "scalar":
        return "UNSAFE" if llvm_div else "agree-uniform"
    return "agree-divergent" if llvm_div else "ours-conservative"


def crosscheck_file(path, tools, args, workdir):
    rel = os.path.relpath(path, REPO) if os.path.abspath(path).startswith(REPO + os.sep) else path
    res = {"file": rel, "rows": [], "error": None, "model": {}}
    base = os.path.join(workdir, re.sub(r"[^A-Za-z0-9_.-]", "_", rel))
    ll = base + ".ll"
    p = run(clang_command(tools, args, path, ll), "clang")
    if p.returncode != 0:
        res["error"] = "clang failed: " + p.stderr.strip()[-1500:]
        return res
    with open(ll) as f:
        text = f.read()
    stats = {}
    text = model_ir(text, args, stats)
    res["model"] = {k: (sorted(v) if isinstance(v, set) else v) for k, v in stats.items()}
    mod = base + ".model.ll"
    with open(mod, "w") as f:
        f.write(text)
    final = base + ".final.ll"
    p = run([tools["opt"], "-passes=" + opt_pipeline(args), "-S", "-o", final, mod], "opt")
    if p.returncode != 0:
        raise ToolError("opt failed on %s: %s" % (mod, p.stderr.strip()[-2000:]))
    p = run([tools["opt"], "-passes=print<uniformity>", "-disable-output", final], "opt")
    if p.returncode != 0:
        raise ToolError("opt print<uniformity> failed on %s: %s" % (final, p.stderr.strip()[-2000:]))
    uni = parse_uniformity(p.stdout + "\n" + p.stderr)
    with open(final) as f:
        meta, funcs = parse_module(f.read())
    system_dirs = [os.path.dirname(os.path.dirname(os.path.realpath(tools["clang"]))),
                   tools["cuda"], "/usr/include", "/usr/lib/gcc", "/usr/local/include"]
    locator = Locator(meta, path, system_dirs)
    conds = llvm_conditions(meta, funcs, uni, locator)
    with open(final) as f:
        extra = interprocedural_conditions(f.read(), funcs, tools, locator, base)
    try:
        ours, kernels = run_decoupler(tools, args, path)
    except ToolError as e:
        res["error"] = str(e)
        return res
    src = Source(path)
    unmatched_llvm = match_file(src, ours, conds, extra)
    rows = []
    for e in ours:
        llvm = e["llvm"]
        row = {"kernel": e["kernel"], "function": e["function"] if e["in_callee"] else None,
               "line": e["line"], "column": e["col"], "ours": e["class"],
               "source": src.snippet(e["span"]) if e["span"] else ""}
        if not llvm:
            row.update({"llvm": None, "verdict": "unmatched-ours", "note": "no LLVM branch or select here"})
            rows.append(row)
            continue
        div = any(c["divergent"] for c in llvm)
        kinds = sorted(set(c["kind"] for c in llvm))
        nb = sum(1 for c in llvm if c["kind"] != "select")
        row["llvm"] = "divergent" if div else "uniform"
        row["llvm_kinds"] = kinds
        row["llvm_count"] = len(llvm)
        row["llvm_conditions"] = ["%s %s %s%s" % (c["kind"], fmt_pos(c["loc"] or c["cond_loc"]),
                                                  "divergent" if c["divergent"] else "uniform",
                                                  " (%s)" % c["llvm_function"] if c.get("standalone") else "")
                                  for c in llvm]
        row["verdict"] = verdict(e["class"], div)
        if row["verdict"] == "UNSAFE" and all(c.get("overapprox") for c in llvm if c["divergent"]):
            row["verdict"] = "llvm-conservative"
            notes_over = sorted(set(c["overapprox"] for c in llvm if c["divergent"]))
        notes = []
        if nb > 1:
            notes.append("%d LLVM branches" % nb)
        if kinds == ["select"]:
            notes.append("LLVM: select")
        for c in llvm:
            if c.get("standalone"):
                n = "LLVM: not inlined, %s at the kernel's call sites" % c.get("args_note", "")
                if n not in notes:
                    notes.append(n)
        if div:
            roots = []
            for c in llvm:
                if c["divergent"]:
                    for r in c.get("roots", []):
                        if r not in roots:
                            roots.append(r)
            row["llvm_roots"] = roots
            if roots and row["verdict"] in ("UNSAFE", "llvm-conservative"):
                notes.append("LLVM divergence from: " + "; ".join(roots))
            if row["verdict"] == "llvm-conservative":
                notes.extend(notes_over)
        else:
            facts = []
            for c in llvm:
                for fct in c.get("facts", []):
                    if fct not in facts:
                        facts.append(fct)
            row["llvm_facts"] = facts
            if row["verdict"] == "ours-conservative" and facts:
                notes.append("LLVM uniform through: " + "; ".join(facts))
        row["note"] = ", ".join(notes)
        rows.append(row)
    for c in unmatched_llvm:
        loc = c["loc"] or c["cond_loc"] or {"line": 0, "col": 0}
        rows.append({"kernel": c["kernel"], "function": loc.get("function") if loc.get("function") and norm(loc.get("function")) != norm(c["kernel"]) else None,
                     "line": loc["line"], "column": loc["col"], "ours": None,
                     "llvm": "divergent" if c["divergent"] else "uniform", "llvm_kinds": [c["kind"]],
                     "verdict": "unmatched-llvm", "source": "", "note": c.get("why", "")})
    # selects that match nothing are not branches: not reported.
    rows = [r for r in rows if not (r["verdict"] == "unmatched-llvm" and r["llvm_kinds"] == ["select"])]
    rows.sort(key=lambda r: (str(r["kernel"]), r["line"], r["column"], r["verdict"]))
    res["rows"] = rows
    res["kernels"] = kernels
    return res


# ----------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------

def md_escape(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def summary(results):
    counts = {v: 0 for v in VERDICTS}
    for r in results:
        for row in r["rows"]:
            counts[row["verdict"]] += 1
    return counts


def markdown(results, header):
    out = []
    out.append(header)
    counts = summary(results)
    out.append("")
    out.append("### Summary")
    out.append("")
    out.append("| verdict | count |")
    out.append("|---|---:|")
    for v in VERDICTS:
        out.append("| %s | %d |" % (v, counts[v]))
    out.append("| **total** | %d |" % sum(counts.values()))
    errs = [r for r in results if r["error"]]
    out.append("")
    out.append("Files: %d checked, %d skipped." % (len(results) - len(errs), len(errs)))
    out.append("")
    out.append("| file | " + " | ".join(VERDICTS) + " |")
    out.append("|---|" + "---:|" * len(VERDICTS))
    for r in results:
        if r["error"]:
            continue
        c = {v: 0 for v in VERDICTS}
        for row in r["rows"]:
            c[row["verdict"]] += 1
        out.append("| %s | %s |" % (r["file"], " | ".join(str(c[v]) if c[v] else "" for v in VERDICTS)))
    if errs:
        out.append("")
        out.append("Skipped:")
        out.append("")
        for r in errs:
            out.append("- `%s`: %s" % (r["file"], md_escape(r["error"].splitlines()[0] if r["error"] else "")))
    unsafe = [(r["file"], row) for r in results for row in r["rows"] if row["verdict"] == "UNSAFE"]
    out.append("")
    out.append("### UNSAFE disagreements")
    out.append("")
    if not unsafe:
        out.append("None.")
    else:
        for f, row in unsafe:
            out.append("- `%s:%d:%d` (%s%s): ours scalar, LLVM divergent. %s" % (
                f, row["line"], row["column"], row["kernel"],
                ", in " + row["function"] if row.get("function") else "", md_escape(row.get("note", ""))))
    out.append("")
    out.append("### Per file")
    for r in results:
        if r["error"]:
            continue
        out.append("")
        out.append("#### %s" % r["file"])
        out.append("")
        if not r["rows"]:
            out.append("No branches.")
            continue
        out.append("| kernel | function | line:col | condition | ours | LLVM | verdict | note |")
        out.append("|---|---|---|---|---|---|---|---|")
        for row in r["rows"]:
            llvm = row["llvm"] or ""
            if row.get("llvm_kinds") and row["llvm_kinds"] != ["br"]:
                llvm += " (%s)" % "+".join(row["llvm_kinds"])
            out.append("| %s | %s | %d:%d | `%s` | %s | %s | %s | %s |" % (
                md_escape(row["kernel"]), md_escape(row.get("function") or ""), row["line"], row["column"],
                md_escape(row["source"]).replace("`", "'") if row["source"] else "",
                row["ours"] or "", llvm,
                "**UNSAFE**" if row["verdict"] == "UNSAFE" else row["verdict"],
                md_escape(row.get("note", ""))))
    return "\n".join(out) + "\n"


def default_files():
    files = []
    for f in sorted(glob.glob(os.path.join(REPO, "test", "analysis", "*.cu"))):
        try:
            with open(f, encoding="utf-8", errors="replace") as fh:
                if "__global__" in fh.read():
                    files.append(f)
        except OSError:
            pass
    return files


def main(argv):
    ap = argparse.ArgumentParser(
        description="Compare decoupler's branch classes with LLVM's uniformity analysis "
                    "(docs/uniformity-crosscheck.md).")
    ap.add_argument("files", nargs="*", help=".cu files (default: test/analysis/*.cu with a __global__)")
    ap.add_argument("--decoupler", help="the decoupler tool (default: build/bin/decoupler, then PATH)")
    ap.add_argument("--decoupler-arg", action="append", default=[],
                    help="extra argument for decoupler (repeatable)")
    ap.add_argument("--llvm-bin", help="directory of clang-22 and opt (default: %s, then PATH)" % DEFAULT_LLVM_BIN)
    ap.add_argument("--cuda-path", help="CUDA toolkit (default: $CUDA_PATH or /usr/local/cuda)")
    ap.add_argument("--arch", default="sm_90", help="--cuda-gpu-arch for clang (default sm_90)")
    ap.add_argument("--clang-arg", action="append", default=[], help="extra argument for clang (repeatable)")
    ap.add_argument("--markdown", metavar="FILE", help="write the Markdown report to FILE instead of stdout")
    ap.add_argument("--json", metavar="FILE", help="write the machine-readable report to FILE ('-': stdout)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="files checked in parallel (default 1)")
    ap.add_argument("--quiet", action="store_true", help="print only the summary and UNSAFE cases")
    ap.add_argument("--keep", metavar="DIR", help="keep the intermediate IR files in DIR")
    ap.add_argument("--no-inline", action="store_true",
                    help="do not inline device functions (they are then analysed per kernel with the "
                         "argument uniformity its call sites establish)")
    ap.add_argument("--no-model", action="store_true",
                    help="do not model block-uniform special registers and pure calls (raw NVPTX view)")
    ap.add_argument("--no-loop-simplify", action="store_true",
                    help="skip loop-simplify (loops with several back edges then make their header "
                         "a divergent join in LLVM's eyes)")
    ap.add_argument("--no-addrspace", action="store_true",
                    help="skip nvptx-lower-args and infer-address-spaces (every load is generic, so divergent)")
    args = ap.parse_args(argv)

    try:
        tools = find_tools(args)
    except ToolError as e:
        print("uniformity-crosscheck: error: %s" % e, file=sys.stderr)
        return 2
    files = args.files or default_files()
    if not files:
        print("uniformity-crosscheck: error: no .cu files with a __global__ function given or "
              "found in %s" % os.path.join(REPO, "test", "analysis"), file=sys.stderr)
        return 2
    for f in files:
        if not os.path.isfile(f):
            print("uniformity-crosscheck: error: no such file: %s" % f, file=sys.stderr)
            return 2
    versions = {t: tool_version(tools[t]) for t in ("decoupler", "opt")}
    workdir = args.keep or tempfile.mkdtemp(prefix="xcheck-")
    os.makedirs(workdir, exist_ok=True)
    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            results = list(ex.map(lambda f: crosscheck_file(os.path.abspath(f), tools, args, workdir), files))
    except ToolError as e:
        print("uniformity-crosscheck: error: %s" % e, file=sys.stderr)
        return 2
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    for r in results:
        if r["file"].startswith(REPO):
            r["file"] = os.path.relpath(r["file"], REPO)
    header = ("## LLVM uniformity cross-check\n\n"
              "Command: `%s`\n\n" % " ".join(["scripts/uniformity-crosscheck.py"] + argv) +
              "decoupler: `%s` (%s); opt: `%s` (%s); pipeline: `%s` then `print<uniformity>`%s." % (
                  os.path.relpath(tools["decoupler"], REPO) if tools["decoupler"].startswith(REPO) else tools["decoupler"],
                  versions["decoupler"], tools["opt"], versions["opt"],
                  opt_pipeline(args),
                  "" if args.no_model else "; special registers and pure calls modelled"))
    counts = summary(results)
    if args.json:
        data = {"summary": counts, "files": results,
                "pipeline": opt_pipeline(args), "model": not args.no_model}
        text = json.dumps(data, indent=1, default=list)
        if args.json == "-":
            sys.stdout.write(text + "\n")
        else:
            with open(args.json, "w") as fh:
                fh.write(text + "\n")
    md = markdown(results, header)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(md)
    elif args.json != "-":
        if args.quiet:
            md = md.split("\n### Per file")[0] + "\n"
        sys.stdout.write(md)
    for r in results:
        if r["error"]:
            print("uniformity-crosscheck: warning: %s skipped: %s" % (r["file"], r["error"].splitlines()[0]),
                  file=sys.stderr)
    n_unsafe = counts["UNSAFE"]
    print("uniformity-crosscheck: %s" % ", ".join("%s %d" % (v, counts[v]) for v in VERDICTS), file=sys.stderr)
    return 1 if n_unsafe else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
