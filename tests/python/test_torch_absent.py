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
