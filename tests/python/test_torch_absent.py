"""Where PyTorch is absent the package still imports and roofline.torch names what is missing.
In a file of its own: test_torch.py is skipped as a whole where torch does not import, and this
must run everywhere."""
import os
import subprocess
import sys


def test_without_torch_the_package_imports_and_roofline_torch_says_what_is_missing():
    # A fresh interpreter in which `import torch` fails, as on a machine without python3-torch.
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'torch' or name.startswith('torch.'):\n"
        "            raise ImportError(\"No module named 'torch'\")\n"
        "sys.meta_path.insert(0, Block())\n"
        "import roofline\n"
        "assert roofline.kernel('saxpy', n=8).work_flop == 16\n"
        "try:\n"
        "    import roofline.torch\n"
        "except ImportError as e:\n"
        "    print(e)\n"
        "else:\n"
        "    print('imported')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, env=os.environ)
    assert r.returncode == 0, r.stderr
    assert "roofline.torch needs PyTorch" in r.stdout
    assert "python3-torch" in r.stdout


def fake_torch(tmp_path, body):
    """An environment whose `import torch` runs `body` (a torch.py ahead of any installed one)."""
    folder = tmp_path / "fake"
    folder.mkdir()
    (folder / "torch.py").write_text(body)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), env.get("PYTHONPATH")) if p)
    return env


def test_python_m_roofline_torch_without_torch_says_so_in_one_line(tmp_path):
    # It printed a chained traceback; a missing capability is the CLI's exit 3 with one line.
    env = fake_torch(tmp_path, "raise ImportError(\"No module named 'torch'\")\n")
    script = tmp_path / "step.py"
    script.write_text("print('ran')\n")
    r = subprocess.run([sys.executable, "-m", "roofline.torch", str(script)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 3
    assert r.stdout == ""
    assert r.stderr.startswith("roofline: unavailable: roofline.torch needs PyTorch"), r.stderr
    assert "python3-torch" in r.stderr and "No module named 'torch'" in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_a_torch_that_fails_to_import_otherwise_gets_the_same_message(tmp_path):
    # A torch whose import raises OSError (a CUDA library missing) passed through unwrapped.
    env = fake_torch(tmp_path, "raise OSError('libcudart.so.12: cannot open shared object "
                               "file')\n")
    r = subprocess.run([sys.executable, "-c", "import roofline.torch"], capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: roofline.torch needs PyTorch"), r.stderr
    assert last.endswith("cannot import: OSError: libcudart.so.12: cannot open shared object "
                         "file"), last
    r = subprocess.run([sys.executable, "-m", "roofline.torch", "x.py"], capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 3 and r.stderr.count("\n") == 1, r.stderr
    assert "OSError: libcudart.so.12" in r.stderr
