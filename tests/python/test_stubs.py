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
