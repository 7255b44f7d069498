"""Shared fixtures of the Python tests: the `roofline` executable of the same build (ctest sets
ROOFLINE_CLI; python/CMakeLists.txt), run as a user would run it."""
import json
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cli_path():
    path = os.environ.get("ROOFLINE_CLI")
    if not path:
        pytest.fail("ROOFLINE_CLI is not set: run these tests through ctest (python.pytest), "
                    "or set it to the roofline executable of the build on PYTHONPATH")
    assert os.access(path, os.X_OK), "ROOFLINE_CLI=%s is not an executable" % path
    return path


@pytest.fixture(scope="session")
def cli(cli_path):
    """cli(*args) -> CompletedProcess of the roofline executable (text, not checked)."""
    def run(*args):
        return subprocess.run([cli_path] + [str(a) for a in args], capture_output=True,
                              text=True, timeout=300)
    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """cli_json(*args) -> the parsed output of `roofline ARGS --json` (exit 0 required)."""
    def run(*args):
        r = cli(*args, "--json")
        assert r.returncode == 0, "roofline %s: exit %d: %s" % (" ".join(map(str, args)),
                                                                  r.returncode, r.stderr)
        return json.loads(r.stdout)
    return run
