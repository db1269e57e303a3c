#!/usr/bin/env python3
"""Single-file real programs, as written against as rewritten, on a GPU.

scripts/corpus-check.sh proves that decoupler's output compiles; this runs
it. scripts/corpus-gpu.sh does the same for suites laid out as HeCBench
(a Makefile per program, built here, fixed arguments); this one takes the
files a corpus-check run changed (ECL's and Indigo's graph codes: one .cu
with its main and a shared header folder each), builds them on the GPU
machine (hundreds of binaries would not fit the call's carry) and runs each
on several inputs:

  scripts/corpus-gpu-files.py pack BUNDLE CHECK_DIR...      (here, no GPU)
      every file a corpus-check run (CHECK_DIR, its results.jsonl and
      rewritten/) changed whose output nvcc compiled, with its include
      folders, into BUNDLE (a folder to carry to the GPU machine)

  scripts/corpus-gpu-files.py run BUNDLE --graph G... --args 'REGEX=ARGS'...
      (on the GPU machine, from the repository root) builds both versions
      of every program (nvcc -O3 -arch=sm_90, the runtime from
      runtime/include; a binary newer than its source is kept, so a second
      run over the bundle with other arguments builds nothing), then per
      program and graph runs
      written, rewritten, written, rewritten, ... (--reps pairs) and
      - fails the pair when the rewritten run exits otherwise than the
        written one, or prints a line the written runs agree on
        differently, or a line with ERROR, FAIL or "differ" that they do
        not print (a line the two written runs print differently is the
        program's own nondeterminism and is not compared);
      - takes each run's time from the first line matching --time
        (default: "runtime", "compute time" or "Dev[+-]" followed by
        seconds) and reports written/rewritten of the medians.
      --ignore REGEX: lines not compared either (a count the program's
      own races vary, which two written runs may print alike by chance).
      A pair whose written run itself fails (an error exit, a time-out)
      is reported "NOT COMPARED" and counted apart.
      ARGS is the command line after the program; @G is the graph. The
      first REGEX that matches the program's file name applies; a program
      no --args matches is skipped, saying so.

The output is a table (one row per program and graph), the geometric mean
of the ratios, and "N passed, M failed"; --json FILE writes every run. Exit
status 1 when any pair failed. docs/corpus.md, "Single-file programs on the
GPU".
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

DEFAULT_TIME = r"(?:runtime|compute time|Dev[+-]?)\s*:\s*([0-9.]+(?:e[-+]?\d+)?)\s*s"
FAILURE = re.compile(r"ERROR|FAIL|differ", re.IGNORECASE)


def die(message):
    print(f"corpus-gpu-files: error: {message}", file=sys.stderr)
    sys.exit(2)


def pack(args):
    if os.path.exists(args.bundle) and os.listdir(args.bundle):
        die(f"'{args.bundle}' exists and is not empty; name a new folder")
    programs, includes = [], {}
    for check in args.check_dirs:
        results = os.path.join(check, "results.jsonl")
        if not os.path.isfile(results):
            die(f"'{check}' has no results.jsonl (not a corpus-check output folder)")
        with open(results) as f:
            for line in f:
                r = json.loads(line)
                if not r.get("rewrite", {}).get("changed"):
                    continue
                if r.get("nvcc_after", {}).get("rc") != 0 or r.get("nvcc_before", {}).get("rc") != 0:
                    # Only outputs nvcc compiled here: a compile break is
                    # corpus-check's failure to report, not this run's.
                    continue
                dd = os.path.join(check, "rewritten", r["id"] + ".dd.cu")
                if not os.path.isfile(dd):
                    die(f"{dd} is missing: was '{check}' run with its rewritten/ kept?")
                incs = [os.path.dirname(r["file"])] + list(r.get("includes", []))
                for inc in incs:
                    includes.setdefault(os.path.realpath(inc), f"inc{len(includes)}")
                programs.append({"id": r["id"], "file": r["file"], "dd": dd,
                                 "includes": [includes[os.path.realpath(i)] for i in incs]})
    if not programs:
        die("no changed file that compiled in the check folders given")
    os.makedirs(os.path.join(args.bundle, "src"), exist_ok=True)
    for real, name in includes.items():
        # Headers only: a source folder's other programs are not needed.
        dest = os.path.join(args.bundle, name)
        for root, _, files in os.walk(real):
            for fn in files:
                if fn.endswith((".h", ".hpp", ".cuh", ".hh", ".inc", ".inl")):
                    rel = os.path.relpath(os.path.join(root, fn), real)
                    os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
                    shutil.copy2(os.path.join(root, fn), os.path.join(dest, rel))
        os.makedirs(dest, exist_ok=True)
    manifest = []
    for p in programs:
        shutil.copy2(p["file"], os.path.join(args.bundle, "src", p["id"] + ".cu"))
        shutil.copy2(p["dd"], os.path.join(args.bundle, "src", p["id"] + ".dd.cu"))
        manifest.append({"id": p["id"], "file": p["file"], "includes": p["includes"]})
    with open(os.path.join(args.bundle, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"corpus-gpu-files: packed {len(manifest)} programs and {len(includes)} include folders into {args.bundle}")


def build(bundle, entry, nvcc, flags, runtime_include):
    src = os.path.join(bundle, "src")
    incs = sum((["-I", os.path.join(bundle, i)] for i in entry["includes"]), [])
    outs = {}
    for way, suffix in (("written", ".cu"), ("rewritten", ".dd.cu")):
        exe = os.path.join(bundle, "bin", entry["id"] + ("" if way == "written" else "_dd"))
        source = os.path.join(src, entry["id"] + suffix)
        # Built by an earlier run over the same bundle (another graph).
        if os.path.isfile(exe) and os.path.getmtime(exe) >= os.path.getmtime(source):
            outs[way] = exe
            continue
        cmd = [nvcc, *flags, *incs, "-I", runtime_include, source, "-o", exe]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return None, f"{way} did not build: {(p.stderr or p.stdout).strip().splitlines()[-1:]}"
        outs[way] = exe
    return outs, None


def run_once(exe, argv, timeout, sources):
    """The exit status and output of one run; each of `sources` (the file
    names __FILE__ may print: the rewritten file's #line directives name the
    original, the written build its copy in the bundle) reads <source>."""
    try:
        p = subprocess.run([exe, *argv], capture_output=True, text=True, timeout=timeout)
        out = p.stdout + p.stderr
        for name in sources:
            out = out.replace(name, "<source>")
        return p.returncode, out
    except subprocess.TimeoutExpired:
        return "timeout", ""


def seconds(output, time_re):
    for line in output.splitlines():
        m = time_re.search(line)
        if m:
            return float(m.group(1))
    return None


def compare(written, rewritten, time_re, ignore_re):
    """Why the rewritten runs differ from the written ones, or None."""
    (rc0, out0), (rc1, out1) = written[0], written[1]

    def lines(out):  # time lines and --ignore lines aside
        return [l for l in out.splitlines()
                if not time_re.search(l) and not (ignore_re and ignore_re.search(l))]

    a, b = lines(out0), lines(out1)
    for rc, out in rewritten:
        if rc != rc0:
            return f"exit {rc}, written exits {rc0}"
        got = lines(out)
        bad = [l for l in got if FAILURE.search(l) and l not in a and l not in b]
        if bad:
            return f"prints '{bad[0].strip()}'"
        # Line by line where both written runs print as many lines; a
        # line they print alike must come out the same.
        if len(a) != len(b):
            continue
        if len(got) != len(a):
            return f"{len(got)} lines of output, written prints {len(a)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if x == y and got[i] != x:
                return f"line {i + 1}: '{got[i].strip()}', written prints '{x.strip()}'"
    return None


def run(args):
    manifest_path = os.path.join(args.bundle, "manifest.json")
    if not os.path.isfile(manifest_path):
        die(f"'{args.bundle}' has no manifest.json (make it with 'pack')")
    with open(manifest_path) as f:
        manifest = json.load(f)
    rules = []
    for spec in args.args:
        if "=" not in spec:
            die(f"--args '{spec}' is not REGEX=ARGS")
        regex, argv = spec.split("=", 1)
        rules.append((re.compile(regex), argv.split()))
    time_re = re.compile(args.time, re.IGNORECASE)
    ignore_re = re.compile(args.ignore) if args.ignore else None
    os.makedirs(os.path.join(args.bundle, "bin"), exist_ok=True)
    flags = ["-O3", "-arch=" + args.arch, "-std=c++17", *args.nvcc_flag]
    chosen = []
    for entry in manifest:
        name = os.path.basename(entry["file"])
        rule = next((argv for regex, argv in rules if regex.search(name)), None)
        if rule is None:
            print(f"SKIP {name}: no --args matches it")
            continue
        chosen.append((entry, rule))
    print(f"corpus-gpu-files: building {len(chosen)} programs twice with {args.jobs} jobs", flush=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        built = list(pool.map(lambda c: build(args.bundle, c[0], args.nvcc, flags, args.runtime_include), chosen))
    rows, records, passed, failed, unusable = [], [], 0, 0, 0
    for (entry, rule), (exes, why) in zip(chosen, built):
        name = os.path.basename(entry["file"])
        if exes is None:
            print(f"FAIL {name}: {why}", flush=True)
            failed += 1
            continue
        copy = os.path.join(args.bundle, "src", entry["id"] + ".cu")
        sources = sorted({entry["file"], copy, os.path.abspath(copy)}, key=len, reverse=True)
        for graph in args.graph:
            argv = [graph if a == "@G" else a for a in rule]
            runs = {"written": [], "rewritten": []}
            for _ in range(max(args.reps, 2)):
                for way in ("written", "rewritten"):
                    runs[way].append(run_once(exes[way], argv, args.timeout, sources))
            why = compare(runs["written"], runs["rewritten"], time_re, ignore_re)
            t = {w: [seconds(o, time_re) for _, o in runs[w]] for w in runs}
            med = {w: statistics.median(v) if v and all(x is not None for x in v) else None for w, v in t.items()}
            ratio = med["written"] / med["rewritten"] if med["written"] and med["rewritten"] else None
            label = f"{name} {os.path.basename(graph)}"
            rc0 = runs["written"][0][0]
            records.append({"program": entry["file"], "graph": graph, "args": argv,
                            "why": why or ("written fails" if rc0 != 0 else None),
                            "times": t, "exits": {w: [rc for rc, _ in runs[w]] for w in runs}})
            if not why and rc0 != 0:
                # Nothing to compare: the program as written fails on this
                # input itself (a time-out, an error exit both ways).
                unusable += 1
                print(f"NOT COMPARED {label}: as written it "
                      + ("times out" if rc0 == "timeout" else f"exits {rc0}"), flush=True)
                continue
            if why:
                failed += 1
                print(f"FAIL {label}: {why}", flush=True)
            else:
                passed += 1
                print(f"PASS {label}: written {med['written']} s, rewritten {med['rewritten']} s"
                      + (f", {ratio:.3f}x" if ratio else ""), flush=True)
            rows.append((label, med["written"], med["rewritten"], ratio, why))
    ratios = [r[3] for r in rows if r[3] and not r[4]]
    print()
    print(f"{'program graph':<100} {'written s':>10} {'rewritten s':>12} {'ratio':>7}")
    for label, w, r, ratio, why in rows:
        print(f"{label:<100} {w if w is not None else '-':>10} {r if r is not None else '-':>12} "
              f"{(f'{ratio:.3f}x') if ratio else '-':>7}{'  FAIL' if why else ''}")
    if ratios:
        geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"geometric mean written/rewritten over {len(ratios)} timed pairs: {geo:.3f}x; "
              f"min {min(ratios):.3f}x, max {max(ratios):.3f}x")
    print(f"{passed} passed, {failed} failed" + (f", {unusable} not compared" if unusable else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pk = sub.add_parser("pack", help="collect changed programs from corpus-check folders")
    pk.add_argument("bundle")
    pk.add_argument("check_dirs", nargs="+")
    rn = sub.add_parser("run", help="build and run them, written against rewritten")
    rn.add_argument("bundle")
    rn.add_argument("--graph", action="append", required=True, help="an input; @G in --args")
    rn.add_argument("--args", action="append", required=True, help="REGEX=ARGS for programs whose name matches")
    rn.add_argument("--reps", type=int, default=2, help="written/rewritten pairs per program and graph (>= 2)")
    rn.add_argument("--time", default=DEFAULT_TIME, help="regex whose group 1 is a run's seconds")
    rn.add_argument("--ignore", default="",
                    help="regex of lines not compared (a suite's own varying counts: 'iterations')")
    rn.add_argument("--runtime-include", default="runtime/include",
                    help="the dd runtime headers the rewritten programs build with")
    rn.add_argument("--timeout", type=float, default=120, help="seconds per run")
    rn.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    rn.add_argument("--nvcc", default=os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc"))
    rn.add_argument("--arch", default="sm_90")
    rn.add_argument("--nvcc-flag", action="append", default=[])
    rn.add_argument("--json")
    a = p.parse_args()
    if a.cmd == "pack":
        pack(a)
        return 0
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
