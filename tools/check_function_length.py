#!/usr/bin/env python3
"""Fails on a function longer than LIMIT lines (docs/architecture.md, "Long functions are split").

A function is counted from the first line of its signature to its closing brace. The sources are
read as C++ tokens enough to match braces: comments, string and character literals (raw strings
too) are blanked first; then a '{' whose head (the text since the previous ';', '{' or '}') ends
in a parameter list — with qualifiers after it (const, noexcept, override, a trailing return
type, parentheses in it too: `-> decltype(x)`) — opens a function, unless the head is a control
statement (if, for, while, switch, catch) or an assignment (an `=` outside a template parameter
list: `template <class U = int>` is a default, not one). Member functions inside a class body
count as free functions do; a lambda counts as the function that holds it (a registration lambda
at namespace scope is itself the function). Data tables and the CUDA device code that no test
here can run are listed in EXEMPT with the reason; an exempt function that is no longer long must
be struck from the list, so the list stays true.
Usage: check_function_length.py [repository root]
"""
import pathlib
import re
import sys

LIMIT = 100
DIRS = ("src", "apps", "python/bindings", "include", "tools", "bench", "fuzz", "examples")
SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".c", ".h", ".cc"}
EXEMPT = {
    # Data tables: one entry per event, kernel or model, nothing to split into steps.
    ("src/probe/counters_table.cpp", "make_table"),
    ("src/core/kernels.cpp", "kernel_catalogue"),
    ("src/llm/config.cpp", "presets"),
    # The CUDA device code (the cuBLASLt sweep, the device's measure and its memory step): no
    # test here can run it, and it stays as the GPU check last saw it until a run on a GPU can
    # check a split.
    ("src/measure/cuda/device/gemm.cpp", "sweep_one"),
    ("src/measure/cuda/device/backend.cpp", "measure"),
    ("src/measure/cuda/device/backend.cpp", "memory"),
    ("bench/gpu_check/main.cpp", "main"),  # the GPU check's driver, run on a GPU only
}
CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof"}
# What may follow a parameter list before the body: qualifiers and a trailing return type, which
# may hold parentheses two deep (`-> decltype(x)`, `-> std::function<void(int)>`).
TYPE_TEXT = r"[\w:<>,\s*&\[\]]"
PARENS = r"\((?:[^()]|\([^()]*\))*\)"
TAIL = re.compile(r"\)\s*(?:(?:const|volatile|noexcept(?:\([^()]*\))?|override|final|mutable|"
                  r"&&|&|try)\s*)*(?:->\s*" + TYPE_TEXT + r"*(?:" + PARENS + TYPE_TEXT + r"*)*)?\s*$")
NAME = re.compile(r"(~?[A-Za-z_]\w*(?:\s*::\s*~?[A-Za-z_]\w*)*)\s*(?:<[^()]*>)?\s*\($")


def blank(text):
    """The text with comments and literals replaced by spaces (newlines kept, so lines count)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum()
                                                                          or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum() and text[i - 1] != "u":
                out.append(c)  # a digit separator (1'000)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            out.append(c)
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        i = j
    return "".join(out)


def strip_preprocessor(text):
    # A directive with its continuation lines (a macro's body is not a function here).
    return re.sub(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def head_of(code, brace):
    """The text before `brace` back to the previous ';', '{' or '}', and where it starts."""
    k = brace - 1
    depth = 0
    while k >= 0:
        ch = code[k]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
        elif ch in ";{}" and depth <= 0:
            break
        k -= 1
    start = k + 1
    while start < brace and code[start].isspace():
        start += 1
    return code[start:brace], start


def without_template_heads(text):
    """The text with each `template <...>` parameter list blanked: its defaults (`class U = int`)
    are no assignment."""
    out = list(text)
    for m in re.finditer(r"\btemplate\s*<", text):
        depth, parens, k = 1, 0, m.end()
        while k < len(text) and depth:
            ch = text[k]
            parens += (ch == "(") - (ch == ")")
            if parens == 0:
                depth += (ch == "<") - (ch == ">")
            k += 1
        out[m.start():k] = " " * (k - m.start())
    return "".join(out)


def function_name(head):
    """The defined function's name, or None when the head is no function's."""
    m = TAIL.search(head)
    if not m:
        return None
    # The parameter list: the '(' matching the ')' where the tail starts.
    close = m.start()
    depth, k = 0, close
    while k >= 0:
        if head[k] == ")":
            depth += 1
        elif head[k] == "(":
            depth -= 1
            if depth == 0:
                break
        k -= 1
    if k < 0:
        return None
    before = head[:k + 1]
    words = re.findall(r"[A-Za-z_]\w*", head[:k])
    if words and words[-1] in CONTROL:
        return None
    if re.search(r"\]\s*(?:<[^()]*>)?\s*\($", before):
        # A lambda: a registration at namespace scope is named by the object it initialises.
        reg = re.match(r"\s*(?:static\s+)?(?:const\s+)?[\w:<>]+\s+(\w+)\s*\(", head)
        return reg.group(1) if reg else "lambda"
    name = NAME.search(before)
    if not name:
        return None
    # `= default`-less constructors with an initialiser list are fine; an assignment is not.
    if re.search(r"=\s*[^=]*$", without_template_heads(head[:k])) and "operator" not in head[:k]:
        return None
    return re.sub(r"\s+", "", name.group(1)).split("::")[-1]


def functions(path):
    """(name, first line, length) of each outermost function definition in the file."""
    code = strip_preprocessor(blank(path.read_text(errors="replace")))
    line_at = [0] * (len(code) + 1)
    line = 1
    for i, ch in enumerate(code):
        line_at[i] = line
        if ch == "\n":
            line += 1
    line_at[len(code)] = line
    stack = []  # per open brace: (is_function, name, start offset)
    inside = 0  # open function bodies
    for i, ch in enumerate(code):
        if ch == "{":
            name = None
            if inside == 0:
                head, start = head_of(code, i)
                name = function_name(head)
            if name:
                stack.append((True, name, start))
                inside += 1
            else:
                stack.append((False, None, i))
        elif ch == "}" and stack:
            is_function, name, start = stack.pop()
            if is_function:
                inside -= 1
                yield name, line_at[start], line_at[i] - line_at[start] + 1


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
    for rel, name in sorted(EXEMPT - seen_exempt):
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
