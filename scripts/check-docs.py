#!/usr/bin/env python3
"""Checks that README.md and docs/*.md are true where a machine can tell.

    scripts/check-docs.py --decoupler BUILD/bin/decoupler [--root DIR]
                          [--skip-help-examples] [-v] [DOC.md ...]

The conventions it enforces:

* Every fenced code block has an info string. A block tagged `sh` runs as
  written, from the repository root of a fresh checkout that has been built;
  every other tag (`text`, `console` for transcripts with `$ ` prompts and
  their output, `cuda`, `cmake`, `json`, ...) is shown, never run. So a
  command that cannot run as written here (a placeholder, a GPU, an hour)
  goes in a `text` or `console` block.
* In an `sh` block (`\\` continuations joined, `# comments` dropped), each
  command (a line, or each part of `a && b`) is one of:
  - `decoupler ...` or `build/bin/decoupler ...`: run with `bash -o pipefail`
    in a scratch copy of the repository's tracked files (one copy per block,
    so outputs such as *.dd.cu never land in the tree), `decoupler` being the
    binary under test and `build/compile_commands.json` the small database
    write_database() makes. It must exit 0, or with the status a comment on
    its line states (`# exit 1`); a comment `# writes FILE` must be true;
  - a script of SCRIPTS below: run with `--help` (it must exit 0) or skipped,
    for the reason given there;
  anything else is an error: write the block as `text` or teach this script.
* Every relative Markdown link (`[x](path)`, `[x](path#anchor)`,
  `[x](#anchor)`) names a tracked file or folder of the repository, not
  something outside it, and an anchor names a heading of its file; so does
  every repository path in code quotes (`scripts/test.sh`, see REPO_PATH).
* Every `decoupler` option the docs spell -- in a command line of any code
  block, in an inline `decoupler ...` code span, or in the first column of an
  `| Option |` table -- is one `decoupler --help` lists, with a value it
  lists where it lists values.
* The EXAMPLES of `decoupler --help` run too (unless --skip-help-examples),
  with HELP_FIXTURES standing in for the placeholder files they name.

Exit status 0 when every check passed, 1 otherwise; each failure is printed
as `<doc>:<line>: error: <what>`.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# Scripts that sh blocks may name. "help": long-running, so only
# `<script> --help` is run (it must exit 0); "skip": not run, for the reason.
SCRIPTS = {
    "scripts/setup.sh": ("skip", "installs Debian packages and builds the whole "
                         "project; the build under test is its result"),
    "scripts/test.sh": ("skip", "runs every test, this checker among them "
                        "(about 10 minutes)"),
    "scripts/corpus-check.sh": ("help", "hours over a fetched corpus of "
                                "third-party CUDA code that a checkout lacks "
                                "(docs/corpus.md)"),
}

# The compilation database that `decoupler -p build` reads. A checkout's own
# build/compile_commands.json names absolute paths inside the checkout, so
# a scratch copy gets this one instead: CMake-style nvcc commands (which the
# tool translates) for these bundled files.
DATABASE_FILES = ["examples/affine/kernels.cu", "examples/histogram/histogram.cu"]

# The EXAMPLES of `decoupler --help` name files of the user's project; these
# bundled files stand in for them (target: source, relative to the root),
# and the database lists HELP_DATABASE_FILES.
HELP_FIXTURES = {
    "kernel.cu": "examples/affine/kernels.cu",
    "k.cu": "examples/decouple/decouple.cu",
    "ht.cu": "examples/hashtable/hashtable.cu",
    "src/histogram.cu": "examples/histogram/histogram.cu",
    # The quoted include of the three examples above, next to each copy.
    "example_util.h": "examples/common/example_util.h",
    "src/example_util.h": "examples/common/example_util.h",
}

HELP_DATABASE_FILES = ["kernel.cu", "src/histogram.cu"]

# A path in code quotes that names a file or folder of the repository: it
# starts with one of its top-level folders and has no placeholder or
# pattern characters (`<dir>`, `*.cu`, `{h,cpp}`, `...`).
REPO_PATH = (r"^(bench|cmake|docs|examples|passes|runtime|scripts|support|test|tool)/"
             r"[^\s<>*{}\[\]…:]*$")

RUNNABLE_TAGS = {"sh", "bash", "shell"}
COMMAND_TIMEOUT_S = 300

Failures = []
Checked = {"links": 0, "paths": 0, "options": 0}


def fail(where, message):
    Failures.append(f"{where}: error: {message}")
    print(Failures[-1], file=sys.stderr, flush=True)


# --- Markdown -------------------------------------------------------------

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")


class Block:
    def __init__(self, doc, line, tag, lines):
        self.doc, self.line, self.tag, self.lines = doc, line, tag, lines


def parse_doc(path, rel):
    """Returns (blocks, prose): the fenced blocks, and the lines outside
    them with their numbers."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, prose = [], []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            prose.append((i + 1, lines[i]))
            i += 1
            continue
        indent, fence, tag = m.groups()
        close = re.compile(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        body = [l[len(indent):] if l.startswith(indent) else l.lstrip()
                for l in lines[i + 1:j]]
        blocks.append(Block(rel, i + 1, tag, body))
        i = j + 1
    return blocks, prose


def scan(line):
    """Yields (index, char, quoted) over a shell line: quoted is true inside
    quotes and for a backslash-escaped character."""
    quote, k = None, 0
    while k < len(line):
        c = line[k]
        if c == "\\" and quote != "'" and k + 1 < len(line):
            yield k, c, True
            yield k + 1, line[k + 1], True
            k += 2
            continue
        if quote:
            if c == quote:
                quote = None
            yield k, c, True
        elif c in "'\"":
            quote = c
            yield k, c, True
        else:
            yield k, c, False
        k += 1


def strip_comment(line):
    """Drops an unquoted `# comment` (a `#` at the start or after a blank);
    returns (command, comment)."""
    for k, c, quoted in scan(line):
        if c == "#" and not quoted and (k == 0 or line[k - 1].isspace()):
            return line[:k].rstrip(), line[k + 1:].strip()
    return line.rstrip(), ""


def logical_lines(block):
    """Yields (line number, command, comment) with continuations joined."""
    pending, start = "", None
    for k, raw in enumerate(block.lines):
        number = block.line + 1 + k
        if start is None:
            start = number
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        command, comment = strip_comment(pending + raw)
        pending = ""
        if command.strip() or comment:
            yield start, command.strip(), comment
        start = None
    if pending.strip():
        yield start, pending.strip(), ""


def split_top(command, pipes):
    """Splits a command line at its unquoted list operators (`&&`, `||`,
    `;`), or with pipes=True at its pipes (`|`), into stripped parts."""
    parts, start, skip = [], 0, 0
    for k, c, quoted in scan(command):
        if skip:
            skip -= 1
            continue
        if quoted or c not in "&|;":
            continue
        pair = command[k:k + 2]
        if pair in ("&&", "||"):
            skip = 1
            if not pipes:
                parts.append(command[start:k])
                start = k + 2
        elif c == ";" and not pipes:
            parts.append(command[start:k])
            start = k + 1
        elif c == "|" and pipes:
            parts.append(command[start:k])
            start = k + 1
    parts.append(command[start:])
    return [p.strip() for p in parts if p.strip()]


def program_of(command):
    """The program a simple command runs, past `VAR=value` assignments."""
    try:
        words = shlex.split(command, comments=False)
    except ValueError:
        words = command.split()
    for w in words:
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w):
            continue
        return w
    return ""


def github_slug(heading):
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path):
    seen, result = {}, set()
    blocks, prose = parse_doc(path, path)
    for _, line in prose:
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = github_slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else f"{slug}-{n}")
    return result


# --- the repository -------------------------------------------------------

def tracked_files(root):
    """The files a clone has: git's index, or (outside git) every file but
    build outputs."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached"],
                             capture_output=True, check=True).stdout
        if os.path.realpath(subprocess.run(
                ["git", "-C", root, "rev-parse", "--show-toplevel"],
                capture_output=True, text=True, check=True).stdout.strip()) \
                == os.path.realpath(root):
            return sorted(f for f in out.decode().split("\0")
                          if f and os.path.isfile(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames if not (
            d == ".git" or d.startswith(("build", ".gpu-")) or d == "__pycache__")]
        for f in filenames:
            if not f.endswith(".dd.cu"):
                files.append(os.path.normpath(os.path.join(rel, f)))
    return sorted(files)


def make_copy(root, files, dest):
    for f in files:
        target = os.path.join(dest, f)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(root, f), target)


def write_database(work, database_files):
    """build/compile_commands.json of CMake-style nvcc commands for those of
    database_files that the copy has."""
    entries = []
    for f in database_files:
        path = os.path.join(work, f)
        if not os.path.isfile(path):
            continue
        include = os.path.join(work, "examples", "common")
        obj = "CMakeFiles/x.dir/" + f + ".o"
        entries.append({
            "directory": os.path.join(work, "build"),
            "command": f"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
                       f"-I{include} --generate-code=arch=compute_90,code=[compute_90,sm_90] "
                       f"-std=c++17 -x cu -c {path} -o {obj}",
            "file": path,
            "output": obj,
        })
    os.makedirs(os.path.join(work, "build"), exist_ok=True)
    with open(os.path.join(work, "build", "compile_commands.json"), "w") as out:
        json.dump(entries, out, indent=1)


class Runner:
    def __init__(self, root, files, decoupler, verbose):
        self.root, self.files, self.verbose = root, files, verbose
        self.decoupler = os.path.abspath(decoupler)
        self.tmp = tempfile.mkdtemp(prefix="check-docs.")
        self.bin = os.path.join(self.tmp, "bin")
        os.makedirs(self.bin)
        os.symlink(self.decoupler, os.path.join(self.bin, "decoupler"))
        self.count = 0
        self.ran = 0

    def fresh_copy(self, fixtures=None, database_files=DATABASE_FILES):
        self.count += 1
        work = os.path.join(self.tmp, f"work{self.count}")
        make_copy(self.root, self.files, work)
        for target, source in (fixtures or {}).items():
            os.makedirs(os.path.dirname(os.path.join(work, target)), exist_ok=True)
            shutil.copy2(os.path.join(self.root, source), os.path.join(work, target))
        write_database(work, database_files)
        os.makedirs(os.path.join(work, "build", "bin"), exist_ok=True)
        os.symlink(self.decoupler, os.path.join(work, "build", "bin", "decoupler"))
        return work

    def run(self, where, command, expected, work):
        env = dict(os.environ)
        env["PATH"] = self.bin + os.pathsep + env.get("PATH", "")
        env["TERM"] = "dumb"
        try:
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work,
                                  env=env, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, errors="replace", timeout=COMMAND_TIMEOUT_S)
            status, output = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            status, output = "timeout", f"(no exit within {COMMAND_TIMEOUT_S} s)"
        self.ran += 1
        if self.verbose:
            print(f"{where}: ran (exit {status}): {command}", flush=True)
        if status != expected:
            tail = "\n".join("    " + l for l in output.rstrip().split("\n")[-12:])
            fail(where, f"'{command}' exited with {status}, expected {expected}:\n{tail}")
            return False
        return True

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def expected_status(comment):
    m = re.search(r"\bexit(?: status)? (\d+)\b", comment)
    return int(m.group(1)) if m else 0


# Programs that may read a decoupler command's output in an sh block.
FILTERS = {"head", "tail", "grep", "wc", "sort"}


def is_decoupler(program):
    return program in ("decoupler", "build/bin/decoupler")


def check_sh_block(block, runner):
    work = None
    for number, command, comment in logical_lines(block):
        where = f"{block.doc}:{number}"
        if not command:
            continue
        if command.startswith("$ "):
            fail(where, "a '$ ' prompt in an sh block: sh blocks hold commands "
                 "as typed; show a transcript in a 'console' block")
            continue
        for part in split_top(command, pipes=False):
            stages = split_top(part, pipes=True)
            program = program_of(stages[0])
            filters = [program_of(f) for f in stages[1:]]
            odd = [f for f in filters if f not in FILTERS]
            if odd:
                fail(where, f"'{odd[0]}' after a pipe in an sh block: only "
                     f"{', '.join(sorted(FILTERS))} may read a command's output")
                continue
            if is_decoupler(program):
                if work is None:
                    work = runner.fresh_copy()
                expected = expected_status(comment)
                if runner.run(where, part, expected, work) and expected == 0:
                    # `# writes out.dd.cu`: the command must have written it.
                    m = re.match(r"^writes ([\w./-]+\.\w+)", comment)
                    if m and not os.path.isfile(os.path.join(work, m.group(1))):
                        fail(where, f"'{part}' says it writes {m.group(1)}, "
                             "but no such file was written")
            elif program in SCRIPTS:
                mode, reason = SCRIPTS[program]
                if mode == "help":
                    if work is None:
                        work = runner.fresh_copy()
                    runner.run(where, f"{program} --help", 0, work)
                elif runner.verbose:
                    print(f"{where}: skipped {program}: {reason}")
            else:
                fail(where, f"'{program}' in an sh block is not a command this "
                     "checker runs (decoupler, or a script it lists); write the "
                     "block as 'text' if it cannot run as written")


# --- decoupler --help -----------------------------------------------------

class HelpOptions:
    """The options `decoupler --help` lists, with their listed values."""

    def __init__(self, text):
        self.options = {}   # name -> set of values, or None (any/no value)
        self.examples = []
        last = None
        section = None
        for line in text.split("\n"):
            if re.match(r"^[A-Z][A-Z ]+:$", line):
                section = line[:-1]
            if section == "EXAMPLES":
                m = re.match(r"^  (decoupler .*)$", line)
                if m:
                    self.examples.append(m.group(1))
                continue
            m = re.match(r"^ {2,3}(-{1,2}[A-Za-z][A-Za-z0-9-]*)(=[^\s]*)?(\s|$)", line)
            if m:
                name, value = m.group(1), m.group(2) or ""
                if name.startswith(("-W", "-R")) and value:
                    name, value = name + value, ""
                values = None
                if value and not value.startswith("=<"):
                    values = set(value[1:].split("|"))
                elif value.startswith("=<"):
                    values = set()   # filled from `=value` lines, else any
                self.options[name] = values
                last = name
                continue
            m = re.match(r"^ {4,5}=([A-Za-z0-9_-]+)\s", line)
            if m and last is not None and self.options.get(last) is not None:
                self.options[last].add(m.group(1))

    def check(self, where, token):
        """Checks one option token as a command line spells it."""
        Checked["options"] += 1
        if token in self.options:
            return
        if token.startswith(("-W", "-R")):
            fail(where, f"'{token}' is not an option of decoupler --help")
            return
        name, eq, value = token.partition("=")
        if name not in self.options:
            # -j4, -jN, -ofile: a short option with its value attached.
            if re.match(r"^-[a-z]", name) and name[:2] in self.options:
                return
            fail(where, f"'{name}' is not an option of decoupler --help")
            return
        values = self.options[name]
        if not eq or not values:
            return
        for v in value.replace("\\|", "|").split("|"):
            if re.match(r"^[A-Z_<\[]", v) or v in values:
                continue
            fail(where, f"'{name}={v}': decoupler --help lists only "
                 f"{', '.join(sorted(values))} for {name}")


def option_tokens(command):
    """The option words of a decoupler command line, up to `--`."""
    words = command.replace("\\|", "\x00").split()
    tokens = []
    for w in words[1:]:
        w = w.replace("\x00", "\\|").strip("[]")
        if w in ("--", "|", ">", "&&", ";") or w.startswith((">", "|")):
            break
        if w.startswith("-") and len(w) > 1 and w != "-":
            tokens.append(w.rstrip(",.;:"))
    return tokens


def check_options(blocks, prose, help_options):
    for block in blocks:
        for number, command, _ in logical_lines(block):
            command = re.sub(r"^\$ ", "", command)
            for part in split_top(command, pipes=False):
                if is_decoupler(part.split(" ")[0]):
                    for t in option_tokens(part):
                        help_options.check(f"{block.doc}:{number}", t)
    in_option_table = False
    for number, line, doc in prose:
        # Table cells, split at the pipes that are not escaped (`a\|b`).
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))] \
            if line.lstrip().startswith("|") else None
        if cells is None:
            in_option_table = False
        elif cells[0] == "Option":
            in_option_table = True
        elif in_option_table and not re.match(r"^:?-+:?$", cells[0]):
            # The first cell may hold several spellings: `-j N` (`-jN`).
            for span in re.findall(r"`([^`]+)`", cells[0]):
                word = span.split()[0]
                if word != "--" and word.startswith("-"):
                    help_options.check(f"{doc}:{number}", word.replace("\\", ""))
        for span in re.findall(r"`((?:build/bin/)?decoupler [^`]*)`", line):
            for t in option_tokens(span):
                help_options.check(f"{doc}:{number}", t)


# --- links ----------------------------------------------------------------

def check_links(doc, prose, root, files, anchor_cache):
    dirs = set()
    for f in files:
        d = os.path.dirname(f)
        while d:
            dirs.add(d)
            d = os.path.dirname(d)
    doc_dir = os.path.dirname(doc)
    for number, line in prose:
        # A repository path in code quotes (`scripts/test.sh`, `test/gpu/`)
        # names something a clone has.
        for span in re.findall(r"`([^`]+)`", line):
            if re.match(REPO_PATH, span):
                Checked["paths"] += 1
                path = span.rstrip("/")
                if path not in files and path not in dirs:
                    untracked = " (it exists here, untracked: git add it)" \
                        if os.path.exists(os.path.join(root, path)) else ""
                    fail(f"{doc}:{number}", f"'{span}': no such file or folder "
                         f"in the repository{untracked}")
        text = re.sub(r"`[^`]*`", "", line)
        targets = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", text)
        m = re.match(r"^\s*\[[^\]]+\]:\s*(\S+)", text)
        if m:
            targets.append(m.group(1))
        for target in targets:
            where = f"{doc}:{number}"
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue   # http:, https:, mailto:
            Checked["links"] += 1
            path, _, anchor = target.partition("#")
            rel = os.path.normpath(os.path.join(doc_dir, path)) if path else doc
            if rel.startswith(".."):
                fail(where, f"link '{target}' leads outside the repository; a "
                     "clone has nothing there")
                continue
            if rel not in files and rel not in dirs:
                untracked = " (it exists here, untracked: git add it)" \
                    if os.path.exists(os.path.join(root, rel)) else ""
                fail(where, f"link '{target}': no file or folder '{rel}' in "
                     f"the repository{untracked}")
                continue
            if anchor and rel.endswith(".md"):
                if rel not in anchor_cache:
                    anchor_cache[rel] = anchors_of(os.path.join(root, rel))
                if anchor not in anchor_cache[rel]:
                    fail(where, f"link '{target}': '{rel}' has no heading with "
                         f"anchor '#{anchor}'")


# --- main -----------------------------------------------------------------

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--decoupler", required=True, help="the binary under test")
    p.add_argument("--root", default=os.path.dirname(here),
                   help="the repository (default: this script's)")
    p.add_argument("--skip-help-examples", action="store_true",
                   help="do not run the EXAMPLES of decoupler --help")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("docs", nargs="*", help="Markdown files relative to the root "
                   "(default: README.md and docs/*.md)")
    args = p.parse_args()
    root = os.path.abspath(args.root)

    docs = args.docs or (["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs"))
        if f.endswith(".md")))
    files = tracked_files(root)
    fileset = set(files)
    help_text = subprocess.run([args.decoupler, "--help"], capture_output=True,
                               text=True, check=True).stdout
    help_options = HelpOptions(help_text)
    runner = Runner(root, files, args.decoupler, args.verbose)
    anchor_cache = {}
    blocks_seen = 0
    try:
        for doc in docs:
            blocks, prose = parse_doc(os.path.join(root, doc), doc)
            for block in blocks:
                blocks_seen += 1
                if not block.tag:
                    fail(f"{doc}:{block.line}", "a fenced block without an info "
                         "string: 'sh' if it runs as written, else 'text', "
                         "'console', 'cuda', ...")
                elif block.tag in RUNNABLE_TAGS:
                    if block.tag != "sh":
                        fail(f"{doc}:{block.line}", f"'{block.tag}' block: tag "
                             "commands that run as written 'sh'")
                    check_sh_block(block, runner)
            check_links(doc, prose, root, fileset, anchor_cache)
            check_options(blocks, [(n, l, doc) for n, l in prose], help_options)
        if not args.skip_help_examples:
            if not help_options.examples:
                fail("decoupler --help", "no EXAMPLES section found")
            work = runner.fresh_copy(HELP_FIXTURES, HELP_DATABASE_FILES)
            for example in help_options.examples:
                for t in option_tokens(example):
                    help_options.check("decoupler --help EXAMPLES", t)
                runner.run("decoupler --help EXAMPLES", example, 0, work)
    finally:
        runner.close()
    print(f"check-docs: {len(docs)} documents, {blocks_seen} code blocks, "
          f"{runner.ran} commands run, {Checked['links']} links, "
          f"{Checked['paths']} paths, {Checked['options']} options checked, "
          f"{len(Failures)} errors")
    return 1 if Failures else 0


if __name__ == "__main__":
    sys.exit(main())
