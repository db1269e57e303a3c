#!/usr/bin/env bash
#===- scripts/corpus-gpu.sh - Real CUDA programs, written and rewritten ---===#
#
# The corpus check (scripts/corpus-check.sh) proves that rewritten real code
# compiles; this runs it. Each program of a benchmark suite laid out as
# HeCBench is (src/<name>-cuda/ with a Makefile whose `run:` target gives the
# arguments) is built twice, as written and after decoupler rewrote every .cu
# file of it, and both binaries run on the GPU in turn. What they print is
# compared line by line (timing lines aside), and the times they report are
# set side by side. Real code, fetched for the run and never committed
# (docs/corpus.md, "Running real programs").
#
#   scripts/corpus-gpu.sh pack [options] <decoupler> <suite-dir> <bundle> <name>...
#       here: copy each program (src/<name>-cuda) twice into <bundle>,
#       rewrite one copy, build both with the program's Makefile (nvcc,
#       ARCH=<sm>) and write <bundle>/<name>/args (from `run:`). A program
#       whose copy the tool leaves unchanged, or that does not build as
#       written, is reported and left out; one whose rewritten copy does not
#       build is a failure (exit 1).
#   scripts/corpus-gpu.sh run <bundle> <out> [runs]
#       on the GPU machine: each program's two binaries in turn, `runs`
#       times each (default 5), in the program's folder; stdout+stderr and
#       the exit status and wall time of every run go to <out>/<name>/.
#   scripts/corpus-gpu.sh report <out>
#       here: the table. Per program: exit statuses, whether every non-timing
#       line of every rewritten run equals the first written run's
#       ("same output"), and for each timing line the programs print, the
#       median of the first number over the runs, written/rewritten (> 1:
#       the rewrite is faster), and the process's wall time. Exit 1 when a program's output differs or
#       its exit status does.
#
# pack options:
#   --arch SM            (default sm_90)
#   --tool-flag FLAG     passed to decoupler (repeatable; default the corpus
#                        check's: --delegate=auto --split=auto)
#   --runtime-include D  dd runtime headers (default: this checkout's)
#   --nvcc-cmd CMD       nvcc, the Makefiles' CC (default
#                        $CUDA_PATH/bin/nvcc, /usr/local/cuda/bin/nvcc)
#
#===----------------------------------------------------------------------===#
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  sed -n '/^#   scripts\/corpus-gpu.sh pack/,/^#===-/p' "$0" | sed 's/^# \{0,1\}//' | head -n -1 >&2
  exit 2
}

# A timing line: what a program says about speed, which differs run to run.
timing_re='([Tt]ime|[Ee]lapsed|[Dd]uration|[Tt]hroughput|[Bb]andwidth|GB/s|GFLOP|[Gg]flop|GUP/s|GUPS|[0-9. ]+(ms|us|sec|s)\b|[( ](ms|us|sec|seconds|s)\))'

pack() {
  local arch=sm_90 runtime_include="$here/runtime/include"
  local nvcc=${CUDA_PATH:-/usr/local/cuda}/bin/nvcc
  local -a tool_flags=()
  while [[ $# -gt 0 && $1 == --* ]]; do
    case $1 in
      --arch) arch=$2; shift 2 ;;
      --arch=*) arch=${1#*=}; shift ;;
      --tool-flag) tool_flags+=("$2"); shift 2 ;;
      --tool-flag=*) tool_flags+=("${1#*=}"); shift ;;
      --runtime-include) runtime_include=$2; shift 2 ;;
      --runtime-include=*) runtime_include=${1#*=}; shift ;;
      --nvcc-cmd) nvcc=$2; shift 2 ;;
      --nvcc-cmd=*) nvcc=${1#*=}; shift ;;
      *) echo "corpus-gpu.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
  done
  [[ $# -ge 4 ]] || usage
  local tool=$1 suite=$2 bundle=$3
  shift 3
  [[ ${#tool_flags[@]} -gt 0 ]] || tool_flags=(--delegate=auto --split=auto)
  [[ -x $tool ]] || { echo "corpus-gpu.sh: '$tool' is not an executable" >&2; exit 2; }
  command -v "$nvcc" >/dev/null || { echo "corpus-gpu.sh: no nvcc at '$nvcc' (--nvcc-cmd)" >&2; exit 2; }
  [[ -d $suite/src ]] || { echo "corpus-gpu.sh: '$suite' has no src/ folder" >&2; exit 2; }
  if [[ -e $bundle ]] && [[ -n $(ls -A "$bundle") ]]; then
    echo "corpus-gpu.sh: '$bundle' exists and is not empty; name a new folder" >&2
    exit 2
  fi
  mkdir -p "$bundle"
  local failed=0 packed=0 name
  for name in "$@"; do
    local src=$suite/src/$name-cuda
    if [[ ! -f $src/Makefile ]]; then
      echo "skip   $name: no $src/Makefile"
      continue
    fi
    local args
    args=$(sed -n '/^run:/,/^$/p' "$src/Makefile" | grep -v '^run:' | head -n 1 |
           sed -e 's/\$(LAUNCHER)//' -e 's/^[[:space:]]*//' -e 's|^\./[^[:space:]]*||' -e 's/^[[:space:]]*//')
    rm -rf "$bundle/$name"
    mkdir -p "$bundle/$name"
    cp -r "$src" "$bundle/$name/orig"
    cp -r "$src" "$bundle/$name/dd"
    # Rewrite every .cu of the written copy into the other copy (its #line
    # directives then name the written file).
    local changed=0 f rel rewrite_failed=0
    while IFS= read -r -d '' f; do
      rel=${f#"$bundle/$name/orig/"}
      if ! "$tool" "${tool_flags[@]}" "$f" -o "$bundle/$name/dd/$rel" -- -I"$(dirname "$f")" \
           >>"$bundle/$name/tool.log" 2>&1; then
        echo "FAIL   $name: decoupler failed on $rel (tool.log)"
        rewrite_failed=1
        break
      fi
      cmp -s "$f" "$bundle/$name/dd/$rel" || changed=$((changed + 1))
    done < <(find "$bundle/$name/orig" -name '*.cu' -print0 | sort -z)
    if [[ $rewrite_failed -eq 1 ]]; then
      failed=1
      continue
    fi
    if [[ $changed -eq 0 ]]; then
      echo "skip   $name: the tool changes no file"
      rm -rf "${bundle:?}/$name"
      continue
    fi
    if ! make -C "$bundle/$name/orig" CC="$nvcc" ARCH="$arch" >"$bundle/$name/build-orig.log" 2>&1; then
      echo "skip   $name: does not build as written (build-orig.log)"
      continue
    fi
    if ! make -C "$bundle/$name/dd" CC="$nvcc" ARCH="$arch" \
         EXTRA_CFLAGS="-I$runtime_include" >"$bundle/$name/build-dd.log" 2>&1; then
      echo "FAIL   $name: the rewritten program does not build (build-dd.log)"
      failed=1
      continue
    fi
    printf '%s\n' "$args" >"$bundle/$name/args"
    echo "packed $name: $changed file(s) rewritten; run: ./main $args"
    packed=$((packed + 1))
  done
  echo "$packed program(s) packed into $bundle"
  return $failed
}

run() {
  [[ $# -ge 2 ]] || usage
  local bundle=$1 out=$2 runs=${3:-5}
  mkdir -p "$out"
  local dir name i way
  for dir in "$bundle"/*/; do
    name=$(basename "$dir")
    [[ -f $dir/args ]] || continue
    mkdir -p "$out/$name"
    local args
    args=$(cat "$dir/args")
    echo "run $name: ./main $args ($runs runs each way)"
    for ((i = 1; i <= runs; i++)); do
      for way in orig dd; do
        local start rc=0
        start=$(date +%s%N)
        # shellcheck disable=SC2086 # the Makefile's arguments, word-split as make would
        (cd "$dir/$way" && timeout -k 10 300 ./main $args) >"$out/$name/$way.$i.out" 2>&1 || rc=$?
        # The exit status, then the process's wall time in ms.
        printf '%s %s\n' "$rc" "$((($(date +%s%N) - start) / 1000000))" >"$out/$name/$way.$i.rc"
      done
    done
  done
}

report() {
  [[ $# -eq 1 ]] || usage
  TIMING_RE=$timing_re python3 - "$1" <<'EOF'
import os, re, statistics, sys
out = sys.argv[1]
timing = re.compile(os.environ["TIMING_RE"])
number = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")

def read(path):
    with open(path, errors="replace") as f:
        return f.read().splitlines()

bad = 0
rows = []
for name in sorted(os.listdir(out)):
    d = os.path.join(out, name)
    if not os.path.isdir(d):
        continue
    runs = {w: sorted({int(f.split(".")[1]) for f in os.listdir(d)
                       if f.startswith(w + ".") and f.endswith(".out")})
            for w in ("orig", "dd")}
    if not runs["orig"] or not runs["dd"]:
        continue
    out_of = lambda w, i: read(os.path.join(d, f"{w}.{i}.out"))
    rc_of = lambda w, i: int(read(os.path.join(d, f"{w}.{i}.rc"))[0].split()[0])
    wall_of = lambda w: statistics.median(
        float(read(os.path.join(d, f"{w}.{i}.rc"))[0].split()[1]) for i in runs[w])
    rcs = {w: sorted({rc_of(w, i) for i in runs[w]}) for w in runs}
    plain = lambda lines: [l for l in lines if not timing.search(l)]
    first = plain(out_of("orig", runs["orig"][0]))
    same_orig = all(plain(out_of("orig", i)) == first for i in runs["orig"])
    same_dd = all(plain(out_of("dd", i)) == first for i in runs["dd"])
    verdict = "same" if same_dd else ("differs" if same_orig else "differs (so do written runs)")
    if not same_dd and same_orig or rcs["orig"] != rcs["dd"]:
        bad += 1
    # Timing lines, matched by position among the timing lines.
    def times(w):
        per_line = {}
        for i in runs[w]:
            # The figure: the first number after the line's last colon
            # ("kernel2: 3.5 (us)"), or the line's first number.
            value = lambda l: number.search(l.rsplit(":", 1)[-1]) or number.search(l)
            tl = [l for l in out_of(w, i) if timing.search(l) and value(l)]
            for k, l in enumerate(tl):
                per_line.setdefault(k, (number.sub("#", l).strip(), []))[1].append(
                    float(value(l).group()))
        return per_line
    to, td = times("orig"), times("dd")
    ratios = []
    for k in sorted(to):
        if k not in td:
            continue
        label, vo = to[k]
        mo, md = statistics.median(vo), statistics.median(td[k][1])
        ratios.append((label, mo, md, mo / md if md else float("nan")))
    wo, wd = wall_of("orig"), wall_of("dd")
    ratios.append(("process wall time, ms", wo, wd, wo / wd if wd else float("nan")))
    rows.append((name, rcs, verdict, ratios, len(runs["orig"])))

print("| program | runs | exit (written / rewritten) | output | timing line | written | rewritten | written/rewritten |")
print("|---|---:|---|---|---|---:|---:|---:|")
for name, rcs, verdict, ratios, n in rows:
    ex = f"{','.join(map(str, rcs['orig']))} / {','.join(map(str, rcs['dd']))}"
    if not ratios:
        print(f"| {name} | {n} | {ex} | {verdict} | (none) | | | |")
    for j, (label, mo, md, r) in enumerate(ratios):
        head = f"| {name} | {n} | {ex} | {verdict} " if j == 0 else "| | | | "
        print(f"{head}| {label[:60]} | {mo:g} | {md:g} | {r:.2f}x |")
sys.exit(1 if bad else 0)
EOF
}

[[ $# -ge 1 ]] || usage
cmd=$1
shift
case $cmd in
  pack) pack "$@" ;;
  run) run "$@" ;;
  report) report "$@" ;;
  -h | --help) usage ;;
  *) echo "corpus-gpu.sh: unknown command '$cmd' (pack, run or report)" >&2; exit 2 ;;
esac
