#!/usr/bin/env python3
"""Fails when an example of README.md or docs/*.md no longer runs or no longer prints what it shows.

Three checks, each naming the doc's file and line:

1. Flags. Every command line `roofline SUB ...` the docs show — in a fenced block (a `$ ` line of
   a console block; in any other block a line that starts with `roofline` or `mpirun -np N
   roofline`, with its indented continuation lines) or in an inline code span of the prose —
   must name a subcommand the CLI has, and each flag on it (`--name`, `-x`) must be one that
   `roofline SUB --help` lists. A removed or renamed flag fails here, even in an example that is
   not run (one that needs a measurement).
2. Console examples. A fenced block whose info string is `console` holds command lines after `$ `
   and, below each, the output the doc shows. Each is run in a fresh folder holding links to the
   repository's tests/, examples/, data/ and build/, with the built `roofline` first in PATH;
   stdout and stderr are read together. It fails on a non-zero exit the doc does not show (a
   following `$ echo $?` line shows it, with the status below), a command the shell cannot run,
   and output that differs: exactly when the doc shows the whole output, and when the doc elides
   (a line `…` or `...`) every line it shows must appear in that order; a shown line that ends
   in ` …` stands for every line it begins. A command with no output shown is only run.
   A `$ roofline` line in a block that is not `console` fails (it would escape the check).
3. Python examples. A ```python block of `>>> ` lines (with `... ` continuations) runs in one
   namespace per doc with the built module; the lines below a statement are its output (an
   expression's repr, what it prints), or `roofline.Error: message` for an exception it raises.
   A statement with no output shown is only run (it must not raise).

A comment line right above a block directs the check (all text after `docs-check:`):
  <!-- docs-check: skip REASON -->            the block is not run (REASON says why: it
                                              measures, it needs a PMU, ...); flags still are
  <!-- docs-check: files NAME=PATH ... -->    before the block runs, its folder gets a copy of
                                              each repository PATH as NAME
  <!-- docs-check: python -->                 a console block that runs the built Python
                                              package: run only when --python-path is given
  <!-- docs-check: save NAME -->              the block (a file the doc shows, e.g. JSON) is
                                              written as NAME into the folder of every console
                                              block after it in the same doc
Usage: check_docs.py ROOT --bin ROOFLINE [--python-path DIR]
"""
import argparse
import contextlib
import io
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(```+)\s*([\w-]*)")
MARKER = re.compile(r"^<!--\s*docs-check:\s*(\w+)\s*(.*?)\s*-->\s*$")
INLINE = re.compile(r"`(roofline [^`]+)`")
ELISION = {"…", "..."}
# A flag: -x or --long-name, not part of a path or a word (a-b), not a negative number; a short
# one not after `|` either (`--year Y|A-|-B` shows values).
FLAG = re.compile(r"(?<![\w/.\-])(--[A-Za-z][\w-]*)|(?<![\w/.\-|])(-[A-Za-z][\w-]*)")
# Subcommands whose first positional is a subcommand of their own.
NESTED = {"hw", "import"}
COMMAND_TIMEOUT_S = 60


class Block:
    def __init__(self, path, line, info, lines, directive):
        self.path, self.line, self.info, self.lines, self.directive = path, line, info, lines, directive

    def where(self, offset=0):
        return f"{self.path}:{self.line + 1 + offset}"


def read_blocks(path, rel):
    """The fenced blocks of a markdown file and the prose lines outside them."""
    blocks, prose = [], []
    lines = path.read_text(encoding="utf-8").split("\n")
    i, directive = 0, None
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].startswith(m.group(1)):
                j += 1
            blocks.append(Block(rel, i + 1, m.group(2), lines[i + 1:j], directive))
            directive, i = None, j + 1
            continue
        d = MARKER.match(lines[i].strip())
        if d:
            directive = (d.group(1), d.group(2))
        elif lines[i].strip():
            directive = None
            prose.append((i + 1, lines[i]))
        i += 1
    return blocks, prose


def strip_comment(text):
    return re.sub(r"\s+#\s.*$", "", text)


def command_lines(block):
    """(line offset, command text) for each roofline command line a block shows."""
    out = []
    lines = block.lines
    if block.info == "console":
        for k, line in enumerate(lines):
            if line.startswith("$ "):
                out.append((k, strip_comment(line[2:])))
        return out
    k = 0
    while k < len(lines):
        text = re.sub(r"^\s*mpirun\s+-np\s+\S+\s+", "", lines[k])
        if text.startswith("roofline "):
            start, whole = k, strip_comment(text)
            while k + 1 < len(lines) and re.match(r"^\s+[\[(\-]", lines[k + 1]):
                k += 1
                whole += " " + strip_comment(lines[k].strip())
            out.append((start, whole))
        k += 1
    return out


class Cli:
    """The subcommands and flags the built CLI lists in its --help."""

    def __init__(self, binary):
        self.binary = binary
        self.cache = {}

    def help(self, words):
        key = tuple(words)
        if key not in self.cache:
            r = subprocess.run([self.binary, *words, "--help"], capture_output=True, text=True,
                               timeout=COMMAND_TIMEOUT_S)
            text = r.stdout + r.stderr
            self.cache[key] = None if r.returncode != 0 else text
        return self.cache[key]

    @staticmethod
    def options(text):
        """The flags of the option lines of a CLI11 help text (`  -W,--work TEXT  ...`)."""
        flags = set()
        for line in text.split("\n"):
            m = re.match(r"^\s+(-[^ ]+(?: [A-Z][A-Z:<>.]*)?(?:,\s*-\S+)*)", line)
            if m:
                flags.update(re.findall(r"--?[A-Za-z][\w-]*", m.group(1)))
        return flags

    @staticmethod
    def subcommands(text):
        """The subcommand names a CLI11 help text lists under SUBCOMMANDS."""
        names, inside = set(), False
        for line in text.split("\n"):
            if re.match(r"^subcommands:?", line, re.I):
                inside = True
            elif inside and re.match(r"^\s+(\S+)", line):
                names.add(line.split()[0])
            elif inside and line and not line[0].isspace():
                inside = False
        return names


def check_flags(cli, where, command, errors):
    words = command.split()
    if not words or words[0] != "roofline":
        return
    top = cli.help([])
    if len(words) < 2 or words[1].startswith("-"):
        return  # `roofline --help`, `roofline --version`: the top level's flags
    sub = words[1].rstrip(".,;:)")
    if sub not in Cli.subcommands(top):
        errors.append(f"{where}: `roofline {sub}`: no such subcommand ({command.strip()})")
        return
    path = [sub]
    if sub in NESTED and len(words) > 2 and not words[2].startswith("-"):
        inner = cli.help([sub])
        names = Cli.subcommands(inner)
        wanted = [w for w in words[2].split("|") if re.fullmatch(r"[a-z][\w-]*", w)]
        for w in wanted:
            if w not in names:
                errors.append(f"{where}: `roofline {sub} {w}`: no such subcommand ({command.strip()})")
                return
        if len(wanted) == 1:
            path.append(wanted[0])
    text = cli.help(path)
    if text is None:
        errors.append(f"{where}: `roofline {' '.join(path)} --help` failed")
        return
    known = Cli.options(text)
    rest = " ".join(words[len(path) + 1:])
    rest = re.sub(r"\s--\s.*$", "", " " + rest)  # after `--` come the profiled program's arguments
    rest = re.sub(r"\"[^\"]*\"|'[^']*'", "", rest)  # quoted values
    for flag in (long or short for long, short in FLAG.findall(rest)):
        if flag not in known:
            errors.append(f"{where}: `roofline {' '.join(path)}` has no flag {flag} ({command.strip()})")


def expected_outputs(block):
    """(offset, command, expected output lines) for each `$ ` line of a console block."""
    out, current = [], None
    for k, line in enumerate(block.lines):
        if line.startswith("$ "):
            current = (k, line[2:], [])
            out.append(current)
        elif current is not None:
            current[2].append(line)
        elif line.strip():
            out.append((k, None, [line]))
    for _, _, lines in out:
        while lines and not lines[-1].strip():
            lines.pop()
    return out


def line_matches(shown, actual):
    shown, actual = shown.rstrip(), actual.rstrip()
    if shown == actual:
        return True
    for mark in (" …", " ..."):
        if shown.endswith(mark) and actual.startswith(shown[:-len(mark)].rstrip()):
            return True
    return False


def compare_output(shown, actual):
    """None when `actual` (lines) is what `shown` shows, else a short reason."""
    actual = list(actual)
    while actual and not actual[-1].strip():
        actual.pop()
    if not any(s.strip() in ELISION for s in shown):
        if len(shown) == len(actual) and all(line_matches(s, a) for s, a in zip(shown, actual)):
            return None
        for n, (s, a) in enumerate(zip(shown, actual)):
            if not line_matches(s, a):
                return f"line {n + 1} differs:\n    doc: {s.rstrip()}\n    got: {a.rstrip()}"
        return f"the doc shows {len(shown)} lines, the command printed {len(actual)}"
    pos = 0
    for s in shown:
        if s.strip() in ELISION:
            continue
        while pos < len(actual) and not line_matches(s, actual[pos]):
            pos += 1
        if pos == len(actual):
            return f"this line does not appear (in this order) in the output:\n    doc: {s.rstrip()}"
        pos += 1
    return None


def prepare_folder(root, block, saved, errors):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="docs-check-"))
    for name, text in saved.items():
        (folder / name).write_text(text, encoding="utf-8")
    for name in ("tests", "examples", "data", "build"):
        if (root / name).exists():
            (folder / name).symlink_to((root / name).resolve())
    if block.directive and block.directive[0] == "files":
        for pair in block.directive[1].split():
            name, _, source = pair.partition("=")
            if not (root / source).is_file():
                errors.append(f"{block.where(-1)}: docs-check files: {source} is not a file")
                continue
            shutil.copyfile(root / source, folder / name)
    return folder


def run_console(root, block, saved, env, errors):
    folder = prepare_folder(root, block, saved, errors)
    try:
        steps = expected_outputs(block)
        last_status, last_where, status_shown, last_said = 0, None, True, ""
        for offset, command, shown in steps:
            where = block.where(offset)
            if command is None:
                errors.append(f"{where}: output before any `$ ` command line")
                continue
            if command.strip() == "echo $?":
                if last_where is None:
                    errors.append(f"{where}: `echo $?` follows no command")
                    continue
                status_shown = True
                got = [str(last_status)]
            else:
                if not status_shown:
                    errors.append(f"{last_where}: exits {last_status}, which the doc does not show "
                                  f"(a `$ echo $?` line below it would): {last_said}")
                try:
                    r = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True, timeout=COMMAND_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    errors.append(f"{where}: `{command}` ran past {COMMAND_TIMEOUT_S} s (stopped)")
                    status_shown = True
                    continue
                got = r.stdout.split("\n")
                last_status, last_where, status_shown = r.returncode, where, r.returncode == 0
                said = [l for l in got if "error" in l.lower() or "unavailable" in l] or got
                last_said = said[-1].strip()[:300]
                if r.returncode == 127:  # the shell's "command not found"
                    errors.append(f"{where}: the shell could not run `{command}`: {last_said}")
                    status_shown = True
                    continue
            if shown:
                why = compare_output(shown, got)
                if why:
                    errors.append(f"{where}: `{command}` prints otherwise than the doc shows: {why}")
        if not status_shown:
            errors.append(f"{last_where}: exits {last_status}, which the doc does not show "
                          f"(a `$ echo $?` line below it would): {last_said}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def python_statements(block):
    """(offset, source, expected lines) for each `>>> ` statement of a python block."""
    out = []
    for k, line in enumerate(block.lines):
        if line.startswith(">>> ") or line == ">>>":
            out.append([k, line[4:], []])
        elif out and (line.startswith("... ") or line == "...") and not out[-1][2]:
            out[-1][1] += "\n" + line[4:]
        elif out:
            out[-1][2].append(line)
    for step in out:
        while step[2] and not step[2][-1].strip():
            step[2].pop()
    return out


def run_python_block(block, namespace, errors):
    for offset, source, shown in python_statements(block):
        where = block.where(offset)
        if not source.strip() or source.lstrip().startswith("#"):
            continue
        buffer = io.StringIO()
        try:
            compiled = compile(source + "\n", where, "single")
            with contextlib.redirect_stdout(buffer):
                exec(compiled, namespace)  # noqa: S102 (the doc's own example)
        except Exception as e:  # noqa: BLE001 (the doc may show any exception)
            name = type(e).__name__
            module = type(e).__module__.split(".")[0]
            said = f"{module}.{name}: {e}" if module != "builtins" else f"{name}: {e}"
            if shown and compare_output(shown, [said]) is None:
                continue
            errors.append(f"{where}: `{source.splitlines()[0]}` raises {said}")
            continue
        if shown:
            why = compare_output(shown, buffer.getvalue().split("\n"))
            if why:
                errors.append(f"{where}: `{source.splitlines()[0]}` gives otherwise than the doc shows: {why}")


def docs_of(root):
    files = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    return [(f, str(f.relative_to(root))) for f in files if f.is_file()]


class Context:
    """What every doc's check shares: the tree, the CLI, the environment, and the tallies."""

    def __init__(self, root, cli, env, python_path, errors, counts):
        self.root, self.cli, self.env, self.python_path = root, cli, env, python_path
        self.errors, self.counts = errors, counts


def run_python_in_folder(ctx, block, namespace, saved):
    folder = prepare_folder(ctx.root, block, saved, ctx.errors)
    here = os.getcwd()
    try:
        os.chdir(folder)
        run_python_block(block, namespace, ctx.errors)
    finally:
        os.chdir(here)
        shutil.rmtree(folder, ignore_errors=True)


def check_block_directive(ctx, block):
    """Whether the block is to be run; a directive the check does not know fails."""
    if not block.directive:
        return True
    kind, text = block.directive
    if kind not in ("skip", "files", "save", "python"):
        ctx.errors.append(f"{block.where(-1)}: unknown docs-check directive '{kind}'")
    if kind == "skip" and not text:
        ctx.errors.append(f"{block.where(-1)}: docs-check skip without a reason")
    return not (kind == "skip" or (kind == "python" and not ctx.python_path))


def check_doc(ctx, path, rel):
    blocks, prose = read_blocks(path, rel)
    for number, line in prose:
        for m in INLINE.finditer(line):
            ctx.counts["commands"] += 1
            check_flags(ctx.cli, f"{rel}:{number}", m.group(1), ctx.errors)
    namespace, saved = {"__name__": "__docs__"}, {}
    for block in blocks:
        if block.directive and block.directive[0] == "save":
            saved[block.directive[1]] = "\n".join(block.lines) + "\n"
        for offset, command in command_lines(block):
            ctx.counts["commands"] += 1
            check_flags(ctx.cli, block.where(offset), command, ctx.errors)
        if block.info != "console" and any(l.startswith("$ roofline") for l in block.lines):
            ctx.errors.append(f"{block.where()}: a `$ roofline` example outside a ```console block "
                              "(which the check runs, or skips with a reason)")
        run = check_block_directive(ctx, block)
        if block.info == "console":
            ctx.counts["console" if run else "skipped"] += 1
            if run:
                run_console(ctx.root, block, saved, ctx.env, ctx.errors)
        elif block.info == "python" and any(l.startswith(">>> ") for l in block.lines):
            run = run and ctx.python_path
            ctx.counts["python" if run else "skipped"] += 1
            if run:
                run_python_in_folder(ctx, block, namespace, saved)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--python-path", help="the built Python package's folder (python blocks run)")
    args = parser.parse_args()
    root = pathlib.Path(args.root).resolve()
    binary = str(pathlib.Path(args.bin).resolve())
    cli = Cli(binary)
    if cli.help([]) is None:
        print(f"docs: {binary} --help failed", file=sys.stderr)
        return 1
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C.UTF-8")
    env.pop("COLUMNS", None)
    env["PATH"] = str(pathlib.Path(binary).parent) + os.pathsep + env.get("PATH", "")
    if args.python_path:
        sys.path.insert(0, str(pathlib.Path(args.python_path).resolve()))
    errors = []
    counts = {"commands": 0, "console": 0, "python": 0, "skipped": 0}
    for path, rel in docs_of(root):
        check_doc(Context(root, cli, env, args.python_path, errors, counts), path, rel)
    for e in errors:
        print(f"docs: {e}", file=sys.stderr)
    print(f"docs: {counts['commands']} command lines' flags, {counts['console']} console blocks run, "
          f"{counts['python']} python blocks run, {counts['skipped']} skipped with a reason; "
          f"{len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
