#!/usr/bin/env bash
#===- scripts/corpus-check.sh - Run decoupler over real CUDA code ---------===#
#
# Runs a decoupler binary over every .cu file of one or more source folders
# (real CUDA code fetched for the run, never committed: docs/corpus.md) and
# counts what must never happen: crashes, rejections of files clang accepts,
# rewritten output that nvcc rejects where the input compiles, timeouts.
#
#   scripts/corpus-check.sh [options] <decoupler> <out-dir> <src-dir>...
#
# Per file: (a) clang -fsyntax-only host side, the way decoupler parses
# (its flags taken once from `decoupler --print-commands`); a file clang
# rejects is counted and skipped; (b) decoupler --analyze, text
# and --report=json; (c) decoupler --delegate=auto --split=auto -o <out>;
# (d) nvcc -c of the original and, where it compiles, of the rewritten
# output (by default only for files the rewrite changed). Details go to
# <out-dir>/results.jsonl (one JSON object per file), logs/ and rewritten/;
# the summary table to stdout and <out-dir>/summary.txt.
#
# Options:
#   -j N              parallel files (default 2)
#   --timeout S       CPU seconds per tool run (default 60; nvcc: at least
#                     300); wall limit 10 times that
#   --nvcc=MODE       changed (default): nvcc only files the rewrite changed;
#                     all: every file; none: no nvcc
#   --sample N        only N files of each source folder, evenly spaced
#                     over its sorted list
#   --filter REGEX    only files whose path matches REGEX (python re.search)
#   --runtime-include DIR   dd runtime headers for nvcc (default: this
#                     checkout's runtime/include)
#   --cuda-path DIR   CUDA installation for nvcc (default $CUDA_PATH or
#                     /usr/local/cuda); the clang step uses decoupler's
#   --clang CMD       clang driver (default clang-22)
#   --nvcc-cmd CMD    nvcc (default <cuda-path>/bin/nvcc)
#   --arch SM         GPU architecture for nvcc (default sm_90); the clang
#                     step parses as decoupler does
#   -I DIR            an include folder for every file (repeatable)
#   -D NAME[=VALUE]   a macro for every file, given to clang, decoupler and
#                     nvcc alike (repeatable)
#   --nvcc-flag FLAG  one more nvcc option for both compiles (repeatable)
#   --summarize DIR   only print the summary of DIR/results.jsonl (of a run
#                     that finished or was cut short); no other arguments
#
# Exit status: 0 when no failure was counted, 1 when one was, 2 on a usage
# error.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

ScriptDir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CORPUS_DEFAULT_RUNTIME="$ScriptDir/../runtime/include"

exec python3 - "$@" <<'PYTHON'
import argparse, concurrent.futures, hashlib, itertools, json, os, re, resource
import shlex, shutil, signal, statistics, subprocess, sys, tempfile, threading, time

CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:",
                 "LLVM ERROR:", "Assertion `", "terminate called")
INCLUDE_DIR_NAMES = ("Common", "common", "include", "inc", "util", "utils")
WALL_FACTOR = 10


def parse_args():
    p = argparse.ArgumentParser(prog="corpus-check.sh",
                                description="Run decoupler over real CUDA code")
    p.add_argument("--summarize", metavar="OUT_DIR",
                   help="only print the summary of OUT_DIR/results.jsonl "
                        "(of a finished run or one cut short)")
    if "--summarize" in sys.argv[1:]:
        a = p.parse_args()
        a.nvcc_mode = "as run"
        return a
    p.add_argument("decoupler")
    p.add_argument("out_dir")
    p.add_argument("src_dirs", nargs="+")
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--timeout", type=int, default=60)
    p.add_argument("--nvcc", dest="nvcc_mode", default="changed",
                   choices=("changed", "all", "none"))
    p.add_argument("--sample", type=int, default=0)
    p.add_argument("--filter", default="")
    p.add_argument("--runtime-include",
                   default=os.environ["CORPUS_DEFAULT_RUNTIME"])
    p.add_argument("--cuda-path",
                   default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    p.add_argument("--clang", default="clang-22")
    p.add_argument("--nvcc-bin", "--nvcc-cmd", dest="nvcc_bin", default="")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--nvcc-flag", dest="nvcc_flags", action="append",
                   default=[], metavar="FLAG",
                   help="one more nvcc option for both compiles, before and "
                        "after the rewrite (--nvcc-flag=--extended-lambda "
                        "for moderngpu)")
    p.add_argument("-I", "--include", dest="include", action="append",
                   default=[], metavar="DIR",
                   help="an include folder for every file, after the ones "
                        "found next to it (a library's headers kept "
                        "elsewhere, e.g. LonestarGPU's libgpu/include)")
    p.add_argument("-D", "--define", dest="defines", action="append",
                   default=[], metavar="NAME[=VALUE]",
                   help="a macro for every file, in all three tools (a "
                        "build's own, e.g. xgboost's XGBOOST_USE_CUDA)")
    a = p.parse_args()
    a.include = [os.path.abspath(d) for d in a.include]
    if a.j < 1:
        p.error("-j must be at least 1")
    a.decoupler = os.path.abspath(a.decoupler)
    a.out_dir = os.path.abspath(a.out_dir)
    a.runtime_include = os.path.abspath(a.runtime_include)
    if not a.nvcc_bin:
        a.nvcc_bin = os.path.join(a.cuda_path, "bin", "nvcc")
    for d in a.src_dirs:
        if not os.path.isdir(d):
            p.error(f"not a folder: {d}")
    if not os.access(a.decoupler, os.X_OK):
        p.error(f"not an executable: {a.decoupler}")
    return a


def run(cmd, timeout, cwd=None):
    """Runs cmd with `timeout` seconds of CPU time (RLIMIT_CPU, SIGXCPU) and
    WALL_FACTOR times that of wall time (timeout(1)): on a loaded machine a
    wall limit alone reports a slow parse as a hang. Returns rc, wall and CPU
    seconds and the output."""
    full = ["timeout", "-k", "5", str(timeout * WALL_FACTOR)] + cmd

    def limit_cpu():
        resource.setrlimit(resource.RLIMIT_CPU, (timeout, timeout + 5))

    start = time.monotonic()
    proc = subprocess.Popen(full, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            preexec_fn=limit_cpu)
    # Read before waiting so a chatty child cannot fill the pipe and block.
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    text = out.decode("utf-8", "replace")
    return {"rc": proc.returncode, "wall": round(wall, 3),
            "cpu": round(usage.ru_utime + usage.ru_stime, 3), "out": text}


def verdict(r):
    """Classifies a tool run: ok, timeout, crash or error."""
    if r["rc"] in (124, 128 + signal.SIGXCPU, -signal.SIGXCPU):
        return "timeout"
    if r["rc"] >= 128 or r["rc"] < 0 or any(m in r["out"] for m in CRASH_MARKERS):
        return "crash"
    return "ok" if r["rc"] == 0 else "error"


def first_error(r):
    """The first error line of a run's output, or why it was stopped."""
    if verdict(r) == "timeout":
        return (f"stopped after {r['cpu']:.0f}s CPU, {r['wall']:.0f}s wall "
                f"(exit {r['rc']})")
    text = r["out"]
    for line in text.splitlines():
        if "error:" in line or "PLEASE submit" in line or "Stack dump" in line:
            return line.strip()[:300]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:300] if lines else ""


def include_dirs(path, root):
    """Common/common/include/... folders next to the file or next to any of
    its parents up to the corpus root. Not the file's own folder: quoted
    includes find it anyway, and as -I it would let a local cuda.h shadow
    CUDA's."""
    dirs = []
    d = os.path.dirname(path)
    root = os.path.abspath(root)
    while True:
        for name in INCLUDE_DIR_NAMES:
            cand = os.path.join(d, name)
            if os.path.isdir(cand) and cand not in dirs:
                dirs.append(cand)
        if d == root or len(d) <= len(root):
            break
        d = os.path.dirname(d)
    return dirs


def file_id(path):
    rel = os.path.relpath(path, "/")
    return re.sub(r"[^A-Za-z0-9._-]", "_", rel)[-150:] + "-" + \
        hashlib.sha1(path.encode()).hexdigest()[:8]


class Checker:
    def __init__(self, a):
        self.a = a
        self.logs = os.path.join(a.out_dir, "logs")
        self.rewritten = os.path.join(a.out_dir, "rewritten")
        os.makedirs(self.logs, exist_ok=True)
        os.makedirs(self.rewritten, exist_ok=True)
        # The prelude decoupler force-includes into every parse
        # (docs/usage.md): clang alone must parse with it too, or a file
        # only the prelude lets parse counts as rejected.
        self.prelude = []
        r = subprocess.run([a.decoupler, "--print-nvcc-prelude"],
                           capture_output=True, text=True)
        if r.returncode == 0 and r.stdout:
            path = os.path.join(a.out_dir, "nvcc_prelude.h")
            with open(path, "w") as f:
                f.write(r.stdout)
            self.prelude = ["-include", path]
        self.parse_flags = self.decoupler_parse_flags()

    def decoupler_parse_flags(self):
        """The flags decoupler parses every file with, as --print-commands
        shows them for a one-line file, with the prelude's in-memory path
        replaced by the saved prelude: the clang step then parses as the
        tool does, whatever flags a later decoupler adds."""
        probe = os.path.join(self.a.out_dir, "parse_flags_probe.cu")
        with open(probe, "w") as f:
            f.write("__global__ void dd_probe() {}\n")
        r = subprocess.run([self.a.decoupler, "--print-commands", probe, "-o",
                            os.devnull], capture_output=True, text=True)
        os.remove(probe)
        for line in r.stderr.splitlines():
            head, sep, command = line.partition("): ")
            if not sep or ": command for " not in head:
                continue
            argv = shlex.split(command)[1:]  # the compiler's name
            if "-x" in argv:
                argv = argv[:argv.index("-x")]  # "-x cuda -- <file>"
            if not self.prelude:
                break
            return [self.prelude[1] if arg.endswith("nvcc_prelude.h") else arg
                    for arg in argv]
        sys.exit(f"corpus-check: {self.a.decoupler} printed no parse command "
                 "with --print-commands, or no prelude with "
                 "--print-nvcc-prelude:\n" + r.stderr)
    def log(self, fid, what, r):
        with open(os.path.join(self.logs, f"{fid}.{what}.log"), "w") as f:
            f.write(r["out"])

    def clang_cmd(self, path, incs):
        return ([self.a.clang, "-x", "cuda", "-nocudalib"] + self.parse_flags
                + [f"-D{d}" for d in self.a.defines]
                + [f"-I{d}" for d in incs] + [path])

    def nvcc_cmd(self, path, incs, obj):
        return ([self.a.nvcc_bin, f"-arch={self.a.arch}", "-std=c++17", "-c"]
                + self.a.nvcc_flags + [f"-D{d}" for d in self.a.defines]
                + [f"-I{self.a.runtime_include}"] + [f"-I{d}" for d in incs]
                + [path, "-o", obj])

    def check(self, path, corpus, root):
        a = self.a
        fid = file_id(path)
        incs = include_dirs(path, root)
        incs += [d for d in a.include if d not in incs]
        res = {"file": path, "corpus": corpus, "id": fid, "includes": incs}
        extra = (["--"] + [f"-D{d}" for d in a.defines]
                 + [f"-I{d}" for d in incs])

        # (a) Does clang accept the file the way decoupler parses it?
        c = run(self.clang_cmd(path, incs), a.timeout)
        res["clang"] = {"rc": c["rc"], "wall": c["wall"], "cpu": c["cpu"]}
        if c["rc"] != 0:
            self.log(fid, "clang", c)
            res["clang"]["error"] = first_error(c)
            res["status"] = "clang-reject"
            return res

        # (b) --analyze, text and JSON.
        t = run([a.decoupler, "--analyze", path, "-o",
                 os.path.join(self.logs, f"{fid}.analyze.txt")] + extra, a.timeout)
        j_out = os.path.join(self.logs, f"{fid}.analyze.json")
        j = run([a.decoupler, "--analyze", "--report=json", path, "-o", j_out]
                + extra, a.timeout)
        res["analyze"] = {"verdict": verdict(t), "rc": t["rc"], "wall": t["wall"],
                          "cpu": t["cpu"]}
        res["analyze_json"] = {"verdict": verdict(j), "rc": j["rc"],
                               "wall": j["wall"], "cpu": j["cpu"]}
        for name, r in (("analyze", t), ("analyze-json", j)):
            if r["out"].strip():
                self.log(fid, name, r)
            if verdict(r) != "ok":
                res[name.replace("-", "_")]["error"] = first_error(r)
        if verdict(j) == "ok":
            try:
                with open(j_out) as f:
                    json.load(f)
                res["analyze_json"]["parses"] = True
            except (OSError, ValueError) as e:
                res["analyze_json"]["parses"] = False
                res["analyze_json"]["error"] = f"report is not JSON: {e}"[:300]

        # (c) The rewrite. The output is written next to the input under a
        # temporary name so that its quoted includes resolve as the input's
        # do when nvcc compiles it; it is moved to rewritten/ afterwards.
        stem = os.path.basename(path)[:-3]
        tmp_out = os.path.join(os.path.dirname(path),
                               f".corpus-check-{os.getpid()}-{stem}.dd.cu")
        w = run([a.decoupler, "--delegate=auto", "--split=auto", "-Rdecoupler",
                 path, "-o", tmp_out] + extra, a.timeout)
        if w["out"].strip():
            self.log(fid, "rewrite", w)
        res["rewrite"] = {"verdict": verdict(w), "rc": w["rc"], "wall": w["wall"],
                          "cpu": w["cpu"]}
        if verdict(w) != "ok":
            res["rewrite"]["error"] = first_error(w)
        changed = False
        if verdict(w) == "ok":
            if not os.path.isfile(tmp_out):
                res["rewrite"]["error"] = "exit 0 but no output written"
                res["rewrite"]["verdict"] = "error"
            else:
                with open(path, "rb") as f1, open(tmp_out, "rb") as f2:
                    changed = f1.read() != f2.read()
        res["rewrite"]["changed"] = changed

        # (d) nvcc: the original, and the rewritten output where it compiles.
        try:
            want = (a.nvcc_mode == "all" or
                    (a.nvcc_mode == "changed" and changed))
            if want:
                with tempfile.TemporaryDirectory() as td:
                    o = run(self.nvcc_cmd(path, incs, os.path.join(td, "a.o")),
                            max(a.timeout, 300))
                    res["nvcc_before"] = {"rc": o["rc"], "wall": o["wall"]}
                    if o["rc"] != 0:
                        self.log(fid, "nvcc-before", o)
                        res["nvcc_before"]["error"] = first_error(o)
                    if o["rc"] == 0 and res["rewrite"]["verdict"] == "ok":
                        if changed:
                            n = run(self.nvcc_cmd(tmp_out, incs,
                                                  os.path.join(td, "b.o")),
                                    max(a.timeout, 300))
                            res["nvcc_after"] = {"rc": n["rc"], "wall": n["wall"]}
                            if n["rc"] != 0:
                                self.log(fid, "nvcc-after", n)
                                res["nvcc_after"]["error"] = first_error(n)
                        else:
                            res["nvcc_after"] = {"rc": 0, "same_as_input": True}
        finally:
            if os.path.isfile(tmp_out):
                shutil.move(tmp_out, os.path.join(self.rewritten, f"{fid}.dd.cu"))

        res["status"] = self.status(res)
        return res

    @staticmethod
    def status(res):
        verdicts = [res[k]["verdict"] for k in ("analyze", "analyze_json", "rewrite")]
        if "crash" in verdicts:
            return "crash"
        if "timeout" in verdicts:
            return "timeout"
        if "error" in verdicts or res["analyze_json"].get("parses") is False:
            return "tool-reject"
        if res.get("nvcc_after", {}).get("rc", 0) != 0:
            return "compile-break"
        return "ok"


def unplaced_entries(r, out_dir):
    """Counts the entries (accesses, branches, variables: objects with a
    line) of a file's JSON report, and those of them that name no file and
    whose line is past the end of the main file."""
    path = os.path.join(out_dir, "logs", r["id"] + ".analyze.json")
    if r["status"] == "clang-reject" or not os.path.isfile(path):
        return 0, 0
    try:
        with open(r["file"], "rb") as f:
            last_line = f.read().count(b"\n") + 1
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        return 0, 0
    counts = [0, 0]

    def walk(node, top):
        if isinstance(node, dict):
            if "line" in node and not top:
                counts[0] += 1
                if "file" not in node and node["line"] > last_line:
                    counts[1] += 1
            for key, value in node.items():
                if key != "kernels" or not top:
                    walk(value, False)
                else:
                    for kernel in value:
                        walk(kernel, False)
        elif isinstance(node, list):
            for item in node:
                walk(item, False)

    for report_file in report if isinstance(report, list) else [report]:
        walk(report_file, True)
    return counts[0], counts[1]


def mixed_line_endings(r, out_dir):
    """Whether the rewrite of a file whose lines all end in CRLF has lines
    ending in a bare LF."""
    out = os.path.join(out_dir, "rewritten", r["id"] + ".dd.cu")
    try:
        with open(r["file"], "rb") as f:
            before = f.read()
        with open(out, "rb") as f:
            after = f.read()
    except OSError:
        return False
    crlf = before.count(b"\r\n")
    return crlf > 0 and crlf == before.count(b"\n") and \
        after.count(b"\r\n") != after.count(b"\n")


COLUMNS = ("files", "clang-accepted", "analyzed-ok", "rewritten", "changed",
           "nvcc-ok-before", "nvcc-ok-after", "crashes", "tool-rejects",
           "compile-breaks", "timeouts")


def tally(rows):
    t = dict.fromkeys(COLUMNS, 0)
    for r in rows:
        t["files"] += 1
        if r["status"] == "clang-reject":
            continue
        t["clang-accepted"] += 1
        if r["analyze"]["verdict"] == "ok" and r["analyze_json"]["verdict"] == "ok" \
                and r["analyze_json"].get("parses"):
            t["analyzed-ok"] += 1
        if r["rewrite"]["verdict"] == "ok":
            t["rewritten"] += 1
        if r["rewrite"].get("changed"):
            t["changed"] += 1
        if r.get("nvcc_before", {}).get("rc") == 0:
            t["nvcc-ok-before"] += 1
        if r.get("nvcc_after", {}).get("rc") == 0:
            t["nvcc-ok-after"] += 1
        t["crashes"] += r["status"] == "crash"
        t["tool-rejects"] += r["status"] == "tool-reject"
        t["compile-breaks"] += r["status"] == "compile-break"
        t["timeouts"] += r["status"] == "timeout"
    return t


def summary(rows, a, elapsed, out_dir):
    lines = []
    corpora = sorted({r["corpus"] for r in rows})
    width = max([len(c) for c in corpora] + [5])
    head = f"{'corpus':<{width}} " + " ".join(f"{c:>{len(c)}}" for c in COLUMNS)
    lines.append(head)
    for name, sel in [(c, [r for r in rows if r["corpus"] == c]) for c in corpora] \
            + [("total", rows)]:
        t = tally(sel)
        lines.append(f"{name:<{width}} " +
                     " ".join(f"{t[c]:>{len(c)}}" for c in COLUMNS))
    lines.append("")
    lines.append(f"nvcc: {a.nvcc_mode} (nvcc-ok-* count files compiled; with "
                 "'changed' only files the rewrite changed are compiled)")

    # Cost of --analyze against clang -fsyntax-only on the same file.
    pairs = [(r["analyze"]["wall"], r["clang"]["wall"], r["analyze"]["cpu"],
              r["clang"]["cpu"], r["file"]) for r in rows
             if r["status"] != "clang-reject" and r["analyze"]["verdict"] == "ok"]
    if pairs:
        aw = sum(p[0] for p in pairs); cw = sum(p[1] for p in pairs)
        ac = sum(p[2] for p in pairs); cc = sum(p[3] for p in pairs)
        ratios = [p[2] / p[3] for p in pairs if p[3] > 0]
        lines.append(f"--analyze vs clang -fsyntax-only over {len(pairs)} files: "
                     f"wall {aw:.1f}s vs {cw:.1f}s ({aw / cw:.2f}x), "
                     f"CPU {ac:.1f}s vs {cc:.1f}s ({ac / cc:.2f}x), "
                     f"median per-file CPU ratio {statistics.median(ratios):.2f}x")
        worst = sorted(pairs, key=lambda p: p[2] / p[3] if p[3] else 0)[-3:]
        for p in reversed(worst):
            lines.append(f"  slowest relative: {p[2]:.2f}s CPU vs {p[3]:.2f}s "
                         f"({p[2] / p[3]:.2f}x) {p[4]}")
    if elapsed:
        lines.append(f"elapsed {elapsed:.0f}s with -j {a.j}")

    # Class 14 of issue 13: every report entry must be locatable. An entry
    # without a "file" of its own whose line lies past the end of the main
    # file comes from a header and cannot be found.
    entries = unplaced = 0
    where = {}
    for r in rows:
        e, u = unplaced_entries(r, out_dir)
        entries += e
        unplaced += u
        if u:
            where[r["file"]] = u
    lines.append(f"JSON report entries: {entries}, of which past the end of the "
                 f"main file with no file name: {unplaced} in {len(where)} files")
    for f, u in sorted(where.items())[:10]:
        lines.append(f"  {u:5} {f}")

    # Class 15 of issue 13: lines inserted into a CRLF file must end in CRLF.
    mixed = [r["file"] for r in rows if r.get("rewrite", {}).get("changed")
             and mixed_line_endings(r, out_dir)]
    lines.append(f"changed outputs of CRLF inputs with bare LF lines: {len(mixed)}")
    for f in mixed:
        lines.append(f"  mixed line endings: {f}")

    failures = [r for r in rows if r["status"] not in ("ok", "clang-reject")]
    if failures:
        lines.append("")
        lines.append("failures:")
        for r in failures:
            why = ""
            for k in ("analyze", "analyze_json", "rewrite", "nvcc_after"):
                if r.get(k, {}).get("error"):
                    why = f"{k}: {r[k]['error']}"
                    break
            lines.append(f"  {r['status']:<14} {r['file']}  {why}")
    return "\n".join(lines)


def main():
    a = parse_args()
    if a.summarize:
        with open(os.path.join(a.summarize, "results.jsonl")) as f:
            rows = sorted((json.loads(l) for l in f if l.strip()),
                          key=lambda r: r["file"])
        print(summary(rows, a, 0, a.summarize))
        return 0
    per_folder = []
    for d in a.src_dirs:
        root = os.path.abspath(d)
        corpus = os.path.basename(root.rstrip("/"))
        found = []
        for dirpath, dirnames, names in os.walk(root):
            dirnames.sort()
            for n in sorted(names):
                if n.endswith(".cu") and not n.endswith(".dd.cu") \
                        and not n.startswith(".corpus-check-"):
                    p = os.path.join(dirpath, n)
                    if not a.filter or re.search(a.filter, p):
                        found.append((p, corpus, root))
        if a.sample and a.sample < len(found):
            step = len(found) / a.sample
            found = [found[int(i * step)] for i in range(a.sample)]
        per_folder.append(found)
    # Round-robin over the folders, so that a run cut short has each.
    files = [f for group in itertools.zip_longest(*per_folder) for f in group
             if f is not None]
    os.makedirs(a.out_dir, exist_ok=True)
    checker = Checker(a)
    results_path = os.path.join(a.out_dir, "results.jsonl")
    lock = threading.Lock()
    rows = []
    start = time.monotonic()
    with open(results_path, "w") as out, \
            concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
        futures = {pool.submit(checker.check, *f): f for f in files}
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            r = fut.result()
            with lock:
                rows.append(r)
                out.write(json.dumps(r) + "\n")
                out.flush()
            print(f"[{i}/{len(files)}] {r['status']:<13} {r['file']}",
                  file=sys.stderr, flush=True)
    rows.sort(key=lambda r: r["file"])
    text = summary(rows, a, time.monotonic() - start, a.out_dir)
    with open(os.path.join(a.out_dir, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print(text)
    bad = tally(rows)
    return 1 if any(bad[c] for c in ("crashes", "tool-rejects",
                                       "compile-breaks", "timeouts")) else 0


sys.exit(main())
PYTHON
