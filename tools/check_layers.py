#!/usr/bin/env python3
"""Fails on an include that crosses a layer line docs/architecture.md forbids.

Which layer may use which is read from src/CMakeLists.txt (ROOFLINE_LAYER_USES_<layer>), the
list each layer's library links, so the build and this check hold one rule. Every public header (include/roofline/) belongs to the layer that implements it; every source and
private header under src/<layer>/ may include only its own layer's headers and those of the
layers ALLOWED names for it, directly. Public headers are held to their owner's rule too. Known
wrong-way includes are listed in KNOWN with the reason they remain; one that is gone must be
struck from the list (so it cannot come back unnoticed), and a new one fails.
Usage: check_layers.py [repository root]
"""
import pathlib
import re
import sys

OWNER = {
    "core": "check compare cpu_record diagnosis diff documents dtype energy error flop_counting kernels machine_facts "
            "metrics model point quantity roof sanitize statistics strings table units utf8",
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


ALLOWED = {}
# (file, included layer): wrong-way includes that remain, with why.
KNOWN: set = set()  # none left: text tables live in core (roofline/table.hpp)

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def header_owner():
    owner = {}
    for layer, names in OWNER.items():
        for n in names.split():
            owner[n] = layer
    return owner


def layer_of_include(path, owner):
    """The layer an include names, or None when it is not one of ours."""
    parts = path.split("/")
    if parts[0] == "roofline" and len(parts) == 2:
        stem = parts[1].rsplit(".", 1)[0]
        if stem not in owner:
            raise SystemExit(f"check_layers: include/roofline/{parts[1]} has no owning layer in OWNER")
        return owner[stem]
    if parts[0] in ALLOWED and len(parts) > 1:
        return parts[0]
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    ALLOWED.update(allowed_layers(root))
    owner = header_owner()
    problems, seen = [], set()
    files = [(p, p.relative_to(root).parts[1]) for p in (root / "src").rglob("*")
             if p.suffix in (".cpp", ".hpp", ".h") and p.relative_to(root).parts[1] in ALLOWED]
    for h in sorted((root / "include/roofline").iterdir()):
        stem = h.name.rsplit(".", 1)[0]
        if stem not in owner:
            problems.append(f"include/roofline/{h.name}: no owning layer in OWNER")
            continue
        files.append((h, owner[stem]))
    for path, layer in files:
        rel = str(path.relative_to(root))
        for inc in INCLUDE.findall(path.read_text(errors="replace")):
            to = layer_of_include(inc, owner)
            if to is None or to == layer or to in ALLOWED[layer]:
                continue
            if (rel, to) in KNOWN:
                seen.add((rel, to))
                continue
            problems.append(f"{rel}: includes \"{inc}\" ({to}); layer {layer} may use "
                            f"{', '.join(sorted(ALLOWED[layer])) or 'nothing of ours'}")
    for gone in sorted(KNOWN - seen):
        problems.append(f"{gone[0]} no longer includes {gone[1]}: strike it from KNOWN")
    for p in problems:
        print("layers:", p, file=sys.stderr)
    print(f"layers: {len(files)} files checked, {len(problems)} problems, "
          f"{len(seen)} known wrong-way includes left")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
