"""A program that sets a decimal-comma locale (locale.setlocale, as notebooks for German or
French readers do) gets the same charts, tables and parsing as any other: the package had
written width="960," into SVGs (drawn with no roofs and no points), "2,5e+11" into CSV, and
read a machine document's "19.5 TFLOP/s" as 19 followed by ".5 TFLOP/s"."""
import json
import os
import shutil
import subprocess
import sys

import pytest

SCRIPT = r"""
import json, locale, sys
locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
assert locale.format_string("%g", 1.5) == "1,5", "the locale did not take effect"
import roofline
m = roofline.Machine("h100-sxm")
p = roofline.Point(name="a", work_flop=2.5e9, traffic_byte=1e9, time_s=0.01)
chart = roofline.Chart(m, [p])
chart.save(sys.argv[1] + "/de.svg")
doc = {"schema": "roofline.machine", "version": 1, "name": "strings",
       "compute": [{"name": "fp32", "precision": "fp32", "peak": "19.5 TFLOP/s",
                    "provenance": "datasheet", "source": "a datasheet"}],
       "memory": [{"level": "DRAM", "bandwidth": "1.5 TB/s",
                   "provenance": "datasheet", "source": "a datasheet"}]}
open(sys.argv[1] + "/m.json", "w").write(json.dumps(doc))
given = roofline.Machine.load(sys.argv[1] + "/m.json")
print(json.dumps({"csv": chart.to_csv(), "peak": given.compute_roof("fp32").peak_flop_per_s,
                  "text": str(roofline.diagnose(p, m))}))
"""


def _decimal_comma_locale(tmp_path):
    if shutil.which("localedef") is None:
        pytest.skip("no localedef")
    made = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                           str(tmp_path / "de_DE.UTF-8")], capture_output=True)
    if made.returncode not in (0, 1) or not (tmp_path / "de_DE.UTF-8").exists():
        pytest.skip("localedef cannot make de_DE.UTF-8 (Debian's locales package is missing)")
    env = dict(os.environ, LOCPATH=str(tmp_path))
    return env


def test_a_decimal_comma_locale_changes_no_number_the_package_writes_or_reads(tmp_path):
    env = _decimal_comma_locale(tmp_path)
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    svg = (tmp_path / "de.svg").read_text(encoding="utf-8")
    assert 'width="960"' in svg and 'viewBox="0 0 960 640"' in svg, svg[:300]
    assert "," not in svg.split("<svg", 1)[1].split(">", 1)[0]
    assert "2.5e+11" in out["csv"] and "2,5e" not in out["csv"], out["csv"]
    assert out["peak"] == 19.5e12
    assert "66.9 TFLOP/s" in out["text"] and "66,9" not in out["text"], out["text"]
    assert "W = 2.5 GFLOP" in out["text"], out["text"]
