#!/usr/bin/env python3
"""Fails on an include that crosses a line docs/architecture.md draws.

Which layer may use which is read from src/CMakeLists.txt (ROOFLINE_LAYER_USES_<layer>), the
list each layer's library links, so the build and this check hold one rule. Every public header
(include/roofline/) belongs to the layer that implements it; every source and private header
under src/<layer>/ may include only its own layer's headers and those of the layers ALLOWED
names for it, directly. Public headers are held to their owner's rule too. An include is ours
whichever way it is written: "roofline/x.hpp" or <roofline/x.hpp>, "measure/engine/team.hpp",
or a path relative to the including file ("../io/json_fields.hpp"); each is resolved as the
compiler would (the file's folder, then include/ and src/) and belongs to the layer of the file
it names (a file outside the layers, such as apps/, belongs to none a layer may use).

Every other include is classified, and one the check does not know fails: the C++ standard
library (STANDARD), the system's and compiler's headers (SYSTEM, not in core), or a third-party
library (THIRD_PARTY), which only the files of the layers or folders that link it may include;
each library names the build file and text that link it, and the check fails when that text is
gone. Core uses the C++ standard library only, without I/O: no system header, no stream or file
header (CORE_NO_IO) and no call that reads the environment or a terminal (CORE_NO_CALLS).

DIRECT lists folders held to less than their layer: what their files may not include although
the layer may use it (the suite no JSON, even through our headers; the CPU backend neither io
nor JSON itself). The public headers that carry nlohmann/json, directly or through another
header, are compared with the list docs/architecture.md gives (JSON_HEADERS_DOC), so the doc
says what the code does. Known wrong-way includes are listed in KNOWN with the reason
they remain; one that is gone must be struck from the list (so it cannot come back unnoticed),
and a new one fails.
Usage: check_layers.py [repository root]
"""
import os
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_function_length import blank  # noqa: E402  (comments and literals blanked)

OWNER = {
    "core": "check compare cpu_record diagnosis diff documents dtype energy error flop_counting kernels "
            "machine_document machine_facts metrics model point power_interface quantity roof sanitize "
            "statistics strings table units utf8",
    "io": "check_io energy_catalogue hardware import io json_out signals",
    "report": "energy_chart hw_output report text trajectory",
    "measure": "cpu_analysis cpu_backend cuda engine measure suite",
    "probe": "counters cpu_topology instrument instrument_report marker powercap",
    "llm": "llm llm_json",
    "cluster": "cluster",
}
LAYERS_CMAKE = "src/CMakeLists.txt"
USES = re.compile(r'^\s*set\(ROOFLINE_LAYER_USES_(\w+)((?:\s+[^)\s]+)*)\s*\)', re.M)
LIST = re.compile(r'^\s*set\(ROOFLINE_LAYERS((?:\s+[^)\s]+)*)\s*\)', re.M)
SUFFIXES = (".cpp", ".hpp", ".h", ".c", ".cu", ".cuh")

# The C++ standard library: <vector>, <cstdio>. Core may use these, less CORE_NO_IO.
STANDARD = re.compile(r"^[a-z_]+$")
CORE_NO_IO = {"filesystem", "fstream", "iostream", "istream", "ostream", "syncstream"}
# Calls core makes none of: the environment, terminals and C stdio streams (snprintf into a
# buffer is formatting, not I/O).
CORE_NO_CALLS = re.compile(r"\b(?:getenv|secure_getenv|setenv|isatty|fileno|fopen|freopen|fprintf|"
                           r"printf|puts|fputs|fwrite|fread|popen|system)\s*\(|"
                           r"\bstd\s*::\s*(?:cout|cerr|clog|cin)\b|\b(?:stdout|stderr|stdin)\b")
# The system's and the compiler's headers (POSIX, Linux, GCC/Clang intrinsics): every layer
# but core.
SYSTEM = re.compile(r"^(?:sys|linux|asm)/[\w/]+\.h$|^(?:cpuid|cxxabi|dlfcn|elf|errno|fcntl|glob|"
                    r"immintrin|link|poll|pthread|sched|signal|spawn|stddef|stdint|stdio|stdlib|"
                    r"string|strings|time|unistd)\.h$")
# library: (its headers, where the build links it (file, text) or None and why, who may
# include it: "layers" for every library src/CMakeLists.txt builds in its foreach over
# ROOFLINE_LAYERS (all but core), or folders). The files outside src/ and include/ (the CLI,
# the Python module, the tests) are not checked here.
THIRD_PARTY = {
    "nlohmann_json": (r"^nlohmann/", ("src/CMakeLists.txt", "nlohmann_json::nlohmann_json"), "layers"),
    "CLI11": (r"^CLI/", ("apps/roofline/CMakeLists.txt", "CLI11::CLI11"), ()),  # the CLI only
    "hwloc": (r"^hwloc(?:\.h$|/)", ("src/probe/layer.cmake", "PkgConfig::HWLOC"), ("src/probe/",)),
    "MPI": (r"^mpi\.h$|^mpi/", ("src/cluster/layer.cmake", "MPI::MPI_C"), ("src/cluster/mpi_module/",)),
    "CUDA": (r"^(?:cuda|cublas|cufft|curand|cupti|nvml)\w*\.h$|^cuda/",
             ("src/measure/cuda/layer.cmake", "CUDA::cudart_static"), ("src/measure/cuda/",)),
    "OpenBLAS": (r"^(?:cblas|openblas\w*)\.h$", ("src/measure/suite/layer.cmake", "ROOFLINE_CBLAS_INCLUDE"),
                 ("src/measure/suite/",)),
    "pybind11": (r"^pybind11/", ("python/CMakeLists.txt", "pybind11_add_module"), ()),  # python/ only
    "GoogleTest": (r"^(?:gtest|gmock)/", ("tests/CMakeLists.txt", "GTest::gtest"), ()),  # tests/ only
    # Header only: the marker runtime's client requests, when __has_include finds the header.
    "valgrind": (r"^valgrind/", None, ("src/probe/marker/",)),
    # Not linked: the counter tables cite their event files as sources only.
    "libpfm4": (r"^perfmon/", None, ()),
    "likwid": (r"^likwid", None, ()),
}
# (folder, layers and libraries its files include neither of, even where their layer may; also
# not through other headers of ours (True) or only not directly (False); why).
DIRECT = [
    ("src/measure/suite/", {"nlohmann_json"}, True,
     "the suite builds a RunDocument and io writes it (docs/architecture.md)"),
    ("src/measure/cpu/", {"io", "nlohmann_json"}, False,
     "the CPU backend's records are typed in core and written by io (docs/architecture.md)"),
]
# The paragraph of docs/architecture.md that lists the public headers carrying nlohmann/json.
JSON_HEADERS_DOC = ("docs/architecture.md", "The public headers that carry nlohmann/json")

ALLOWED = {}
# (file, included layer): wrong-way includes that remain, with why.
KNOWN: set = set()  # none left: text tables live in core (roofline/table.hpp)

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)


def allowed_layers(root):
    """Which layers each layer may use (besides itself), from the build: arrows point inward."""
    text = (root / LAYERS_CMAKE).read_text()
    listed = LIST.search(text)
    if not listed:
        raise SystemExit(f"check_layers: no set(ROOFLINE_LAYERS ...) in {LAYERS_CMAKE}")
    allowed = {"core": set()}
    for layer in listed.group(1).split():
        allowed[layer] = {"core"}
    for layer, uses in USES.findall(text):
        if layer not in allowed:
            raise SystemExit(f"check_layers: {LAYERS_CMAKE}: ROOFLINE_LAYER_USES_{layer} names no layer")
        allowed[layer] |= {u.strip('"') for u in uses.split() if u.strip('"')}
    if set(allowed) != set(OWNER):
        raise SystemExit(f"check_layers: the layers of {LAYERS_CMAKE} ({', '.join(sorted(allowed))}) "
                         f"are not those that own headers ({', '.join(sorted(OWNER))})")
    return allowed


def header_owner():
    owner = {}
    for layer, names in OWNER.items():
        for n in names.split():
            owner[n] = layer
    return owner


class Tree:
    """The repository's files, what each include names, and what each file reaches."""

    def __init__(self, root):
        self.root = root
        self.owner = header_owner()
        self.reach_memo = {}

    def layer_of_file(self, path):
        """The layer a file of ours belongs to, or the folder it lies in outside the layers."""
        try:
            parts = path.relative_to(self.root).parts
        except ValueError:
            return "outside the repository"
        if parts[:2] == ("include", "roofline") and len(parts) == 3:
            return self.owner.get(parts[2].rsplit(".", 1)[0], "include/roofline without owner")
        if parts[0] == "src" and len(parts) > 2 and parts[1] in ALLOWED:
            return parts[1]
        return "/".join(parts[:-1]) or parts[0]

    def resolve(self, path, inc, quoted):
        """The file an include names, searched as the compiler does, or None."""
        bases = ([path.parent] if quoted else []) + [self.root / "include", self.root / "src"]
        for base in bases:
            candidate = pathlib.Path(os.path.normpath(base / inc))
            if candidate.is_file():
                return candidate
        return None

    def includes(self, path):
        """(shown, file or None, name) for each include of `path`."""
        out = []
        for bracket, inc in INCLUDE.findall(path.read_text(errors="replace")):
            quoted = bracket == '"'
            shown = f'"{inc}"' if quoted else f"<{inc}>"
            out.append((shown, self.resolve(path, inc, quoted), inc))
        return out

    def reach(self, path, active=frozenset()):
        """The layers and third-party libraries `path` includes, directly or through ours."""
        if path in self.reach_memo:
            return self.reach_memo[path]
        found = set()
        for _, target, inc in self.includes(path):
            if target is not None:
                found.add(self.layer_of_file(target))
                if target not in active:
                    found |= self.reach(target, active | {path})
            elif (lib := library_of(inc)) is not None:
                found.add(lib)
        self.reach_memo[path] = found
        return found


def library_of(inc):
    for lib, (pattern, _, _) in THIRD_PARTY.items():
        if re.search(pattern, inc):
            return lib
    return None


def may_link(lib, rel, layer):
    where = THIRD_PARTY[lib][2]
    if where == "layers":
        return layer in ALLOWED and layer != "core"
    return any(rel.startswith(prefix) for prefix in where)


def check_foreign(rel, layer, shown, inc):
    """The problem with an include that is not ours (standard, system, third-party), or None."""
    if STANDARD.match(inc):
        if layer == "core" and inc in CORE_NO_IO:
            return f"{rel}: includes {shown}: core uses the standard library without I/O"
        return None
    if SYSTEM.match(inc):
        if layer == "core":
            return f"{rel}: includes {shown}: core uses the C++ standard library only, no system header"
        return None
    lib = library_of(inc)
    if lib is None:
        return (f"{rel}: includes {shown}, a header the check does not know: name it in "
                "STANDARD, SYSTEM or THIRD_PARTY (tools/check_layers.py)")
    if may_link(lib, rel, layer):
        return None
    where = THIRD_PARTY[lib][2]
    if where == "layers":
        return f"{rel}: includes {shown} ({lib}); layer {layer} links no third-party library"
    return (f"{rel}: includes {shown} ({lib}); only {', '.join(where) or 'files outside src/ and include/'} "
            f"may, where the build links it")


def check_file(tree, path, layer, seen):
    """The problems of one file's includes."""
    rel = path.relative_to(tree.root).as_posix()
    problems = []
    for shown, target, inc in tree.includes(path):
        if target is None:  # not ours: "x.h" not found beside the file is searched as <x.h>
            if inc.startswith("roofline/"):
                problems.append(f"{rel}: includes {shown}, which is no file of the tree")
            elif (p := check_foreign(rel, layer, shown, inc)) is not None:
                problems.append(p)
            continue
        to = tree.layer_of_file(target)
        if to == layer or to in ALLOWED[layer]:
            continue
        if (rel, to) in KNOWN:
            seen.add((rel, to))
            continue
        problems.append(f"{rel}: includes {shown} ({to}); layer {layer} may use "
                        f"{', '.join(sorted(ALLOWED[layer])) or 'nothing of ours'}")
    problems += check_direct(tree, path, rel)
    if layer == "core":
        code = blank(path.read_text(errors="replace"))
        for m in CORE_NO_CALLS.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            problems.append(f"{rel}:{line}: {m.group(0).rstrip('(').strip()}: core reads no "
                            "environment, terminal or stream (the caller decides and passes it in)")
    return problems


def check_direct(tree, path, rel):
    """The problems of a file in a DIRECT folder: what it includes that the folder refuses."""
    problems = []
    for folder, refused, through, why in DIRECT:
        if not rel.startswith(folder):
            continue
        for shown, target, inc in tree.includes(path):
            what = tree.layer_of_file(target) if target is not None else library_of(inc)
            if what in refused:
                problems.append(f"{rel}: includes {shown} ({what}): {why}")
            elif through and target is not None and (hidden := tree.reach(target) & refused):
                problems.append(f"{rel}: includes {shown}, which brings {', '.join(sorted(hidden))}: {why}")
    return problems


def check_build_links(root):
    """Each third-party library is still linked where THIRD_PARTY says."""
    problems = []
    for lib, (_, linked, _) in THIRD_PARTY.items():
        if linked is None:
            continue
        file, text = linked
        path = root / file
        if not path.is_file() or text not in path.read_text(errors="replace"):
            problems.append(f"THIRD_PARTY: {file} no longer has '{text}' ({lib}): "
                            "update where the library may be included")
    return problems


def check_json_headers(tree, headers):
    """The doc's list of public headers carrying nlohmann/json against the includes."""
    doc, marker = JSON_HEADERS_DOC
    text = (tree.root / doc).read_text(errors="replace")
    at = text.find(marker)
    if at < 0:
        return [f"{doc}: no paragraph starting '{marker}'"]
    end = text.find("\n\n", at)
    listed = set(re.findall(r"`roofline/(\w+\.h(?:pp)?)`", text[at:end if end >= 0 else len(text)]))
    carrying = {h.name for h in headers if "nlohmann_json" in tree.reach(h)}
    problems = [f"{doc}: '{marker}' lacks roofline/{h}, which carries it" for h in sorted(carrying - listed)]
    problems += [f"{doc}: '{marker}' lists roofline/{h}, which does not carry it"
                 for h in sorted(listed - carrying)]
    return problems


def main():
    root = pathlib.Path(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "."))
    ALLOWED.update(allowed_layers(root))
    tree = Tree(root)
    problems, seen = check_build_links(root), set()
    files = [(p, p.relative_to(root).parts[1]) for p in sorted((root / "src").rglob("*"))
             if p.suffix in SUFFIXES and p.is_file() and p.relative_to(root).parts[1] in ALLOWED
             and len(p.relative_to(root).parts) > 2]
    headers = []
    for h in sorted((root / "include/roofline").iterdir()):
        stem = h.name.rsplit(".", 1)[0]
        if stem not in tree.owner:
            problems.append(f"include/roofline/{h.name}: no owning layer in OWNER")
            continue
        files.append((h, tree.owner[stem]))
        headers.append(h)
    for path, layer in files:
        problems += check_file(tree, path, layer, seen)
    problems += check_json_headers(tree, headers)
    for gone in sorted(KNOWN - seen):
        problems.append(f"{gone[0]} no longer includes {gone[1]}: strike it from KNOWN")
    for p in problems:
        print("layers:", p, file=sys.stderr)
    print(f"layers: {len(files)} files checked, {len(problems)} problems, "
          f"{len(seen)} known wrong-way includes left")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
