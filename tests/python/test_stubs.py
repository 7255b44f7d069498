"""The type stubs (.pyi) beside each module of the package name everything the module exports
(its __all__), read from the sources without importing them (roofline.torch needs PyTorch)."""
import ast
import os

import pytest

PKG = os.path.join(os.path.dirname(__file__), "..", "..", "python", "roofline")


def _exported(path):
    tree = ast.parse(open(path, encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return [ast.literal_eval(e) for e in node.value.elts]
    return None


def _stubbed(path):
    names = set()
    for node in ast.parse(open(path, encoding="utf-8").read()).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


@pytest.mark.parametrize("module", ["__init__", "llm", "torch", "_kineto"])
def test_every_exported_name_has_a_stub(module):
    exported = _exported(os.path.join(PKG, module + ".py"))
    assert exported, "%s.py has no __all__" % module
    stub = os.path.join(PKG, module + ".pyi")
    assert os.path.exists(stub), "no %s.pyi" % module
    missing = [n for n in exported if n not in _stubbed(stub)]
    assert not missing, "%s.pyi lacks %s" % (module, ", ".join(missing))


def _stub_attributes(path):
    """{class: {attribute: "property" or "plain"}} of the classes a stub declares."""
    classes = {}
    for node in ast.parse(open(path, encoding="utf-8").read()).body:
        if not isinstance(node, ast.ClassDef):
            continue
        attributes = classes.setdefault(node.name, {})
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                attributes[item.target.id] = "plain"
            elif isinstance(item, ast.FunctionDef) and any(
                    isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list):
                attributes[item.name] = "property"
    return classes


@pytest.mark.parametrize("module", ["__init__", "llm"])
def test_stub_attributes_are_as_writable_as_at_runtime(module):
    # `work_flop: float` told a type checker that `p.work_flop = 1` works; the runtime says
    # "can't set attribute". A read-only attribute is a property in the stub, a plain one is
    # writable at runtime, and every property of a class is in its stub.
    import inspect

    import roofline
    runtime = roofline if module == "__init__" else roofline.llm
    wrong = []
    for cls, attributes in _stub_attributes(os.path.join(PKG, module + ".pyi")).items():
        klass = getattr(runtime, cls)
        for name, kind in attributes.items():
            found = inspect.getattr_static(klass, name, None)
            read_only = isinstance(found, property) and found.fset is None
            if kind == "property" and not read_only:
                wrong.append("%s.%s is a property in the stub, %r at runtime" % (cls, name, found))
            if kind == "plain" and read_only:
                wrong.append("%s.%s is read-only at runtime: a property in the stub" % (cls, name))
        for name, value in vars(klass).items():
            if isinstance(value, property) and not name.startswith("_") and name not in attributes:
                wrong.append("%s.%s is not in the stub" % (cls, name))
    assert not wrong, "\n".join(wrong)
