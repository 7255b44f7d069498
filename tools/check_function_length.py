#!/usr/bin/env python3
"""Fails on a function longer than LIMIT lines (docs/architecture.md, "Long functions").

A function is counted from the first line of its signature to its closing brace, as the sources
are formatted (.clang-format): a definition starts at column 0 and ends at the first line that
starts with '}' (a function's brace, or '});' closing a registration lambda at namespace scope).
Definitions inside a class body are indented and not counted; the check holds the free functions,
where the long ones grew. Data tables and the CUDA device code that no test here can run are
listed in EXEMPT with the reason; an exempt function that is no longer long must be struck from
the list, so the list stays true.
Usage: check_function_length.py [repository root]
"""
import pathlib
import re
import sys

LIMIT = 100
DIRS = ("src", "apps", "python/bindings", "include")
SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh"}
EXEMPT = {
    # Data tables: one entry per event, kernel or model, nothing to split into steps.
    ("src/probe/counters_table.cpp", "make_table"),
    ("src/core/kernels.cpp", "kernel_catalogue"),
    ("src/llm/config.cpp", "presets"),
    # The CUDA device code (the cuBLASLt sweep and the device's measure): no test here can run
    # it, and it stays as the GPU check last saw it until a run on a GPU can check a split.
    ("src/measure/cuda/device/gemm.cpp", "sweep_one"),
    ("src/measure/cuda/device/backend.cpp", "measure"),
}
# Lines at column 0 that do not start a function.
NOT_A_START = re.compile(
    r"^(//|/\*|\*|#|}|namespace\b|using\b|template\b|struct\b|class\b|enum\b|union\b|"
    r"static_assert\b|extern\b|typedef\b|[A-Z_]+\s*\(|\))")
# A raw string literal (the HTML report's script and style) is text, not code.
RAW_STRING = re.compile(r'R"(\w*)\((.*?)\)\1"', re.S)
NAME = re.compile(r"([A-Za-z_~][\w:~]*)\s*\(")


def functions(path):
    """(name, first line, length) of each definition that starts at column 0."""
    text = RAW_STRING.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text(errors="replace"))
    lines = text.split("\n")
    start = None
    for i, line in enumerate(lines):
        if start is None:
            if line and not line[0].isspace() and not NOT_A_START.match(line) and "(" in line:
                if line.rstrip().endswith(";"):
                    continue  # a declaration or a one-line definition of a variable
                start = i
        elif line.startswith("}"):
            head = " ".join(lines[start:start + 3])
            match = NAME.search(head.split("(")[0] + "(") if "(" in head else None
            name = match.group(1).split("::")[-1] if match else "?"
            # A registration lambda at namespace scope: `const Registrar register_x(N, [](...`.
            reg = re.match(r"^(?:const\s+)?\w+\s+(\w+)\(", lines[start])
            if reg and "[" in lines[start]:
                name = reg.group(1)
            yield name, start + 1, i - start + 1
            start = None
        elif line and not line[0].isspace() and line.rstrip().endswith(";") and "{" not in \
                "".join(lines[start:i + 1]):
            start = None  # a multi-line declaration ended without a body


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    long_ones, seen_exempt = [], set()
    for top in DIRS:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            for name, line, length in functions(path):
                if length <= LIMIT:
                    continue
                if (rel, name) in EXEMPT:
                    seen_exempt.add((rel, name))
                    continue
                long_ones.append(f"{rel}:{line}: {name} is {length} lines (at most {LIMIT})")
    stale = sorted(EXEMPT - seen_exempt)
    for rel, name in stale:
        long_ones.append(f"{rel}: {name} is exempt but no longer over {LIMIT} lines or gone: "
                         "strike it from EXEMPT")
    for message in long_ones:
        print(f"check_function_length: {message}", file=sys.stderr)
    if long_ones:
        return 1
    print(f"check_function_length: no function over {LIMIT} lines "
          f"({len(EXEMPT)} exempt: data tables and CUDA device code)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
