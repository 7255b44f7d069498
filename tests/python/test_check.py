"""roofline.check against `roofline check --json`: the same gate, the same answer, for the same
documents (a baseline regression beyond the carried spread, an attainment threshold), and
the same refusals."""
import json

import pytest

import roofline

BASE = {"schema": "roofline.points", "version": 1, "points": [
    {"name": "compute ok", "work": 80, "traffic": 1, "time": 0.8,
     "run": {"times": [0.8, 0.804, 0.808]}},
    {"name": "mem slow", "work": 1, "traffic": 1, "time": 0.49},
    {"name": "old", "work": 1, "traffic": 1, "time": 1}]}
NOW = {"schema": "roofline.points", "version": 1, "points": [
    {"name": "compute ok", "work": 80, "traffic": 1, "time": 1, "run": {"times": [1, 1, 1.01]}},
    {"name": "mem slow", "work": 1, "traffic": 1, "time": 0.5}]}


@pytest.fixture
def files(tmp_path):
    base, now = tmp_path / "base.json", tmp_path / "p.json"
    base.write_text(json.dumps(BASE))
    now.write_text(json.dumps(NOW))
    return str(now), str(base)


def test_a_baseline_regression_is_the_clis(cli, files):
    now, base = files
    r = cli("check", now, "--baseline", base, "--json")
    assert r.returncode == 5, r.stderr  # a failing point: the gate's exit status
    c = json.loads(r.stdout)
    p = roofline.check(now, baseline=base)
    assert p == c
    assert p["passed"] is False
    assert p["counts"] == {"passed": 1, "failed": 1, "skipped": 1}
    # compute ok: P 80 → 100 FLOP/s in the baseline: ratio 0.8, beyond the 1% spreads.
    assert p["points"][0]["ratio"] == pytest.approx(0.8, rel=1e-12)
    assert p["points"][0]["status"] == "failed"
    assert p["points"][2]["baseline_only"] is True


def test_an_attainment_threshold_is_the_clis(cli, files):
    now, _ = files
    # Roofs 100 FLOP/s and 1 B/s: "compute ok" (I = 80) attains 80/80 = 1.0 of its memory roof,
    # "mem slow" (I = 1, P = 2) attains 2/1 = above its roof: both judged against 0.5.
    r = cli("check", now, "--peak", "100", "--bandwidth", "1", "--min-attainment", "0.5",
            "--json")
    c = json.loads(r.stdout)
    machine = roofline.Machine.from_roofs(100, 1)
    p = roofline.check(now, machine=machine, min_attainment=0.5)
    assert r.returncode == (5 if c["counts"]["failed"] else 0)
    # The same document, the minimum's source named as check()'s parameter, as the CLI's flag.
    assert json.loads(json.dumps(p).replace("min_attainment)", "--min-attainment)")
                      .replace('"threshold_from": "min_attainment"',
                               '"threshold_from": "--min-attainment"')) == c
    assert p["points"][0]["threshold_from"] == "min_attainment"
    assert p["points"][0]["attainment"] == pytest.approx(1.0, rel=1e-12)


def test_points_given_as_objects_are_judged_with_the_assumed_noise():
    now = [roofline.Point("k", 80, 1, 1.0)]
    base = [roofline.Point("k", 80, 1, 0.8)]
    p = roofline.check(now, baseline=base, noise=0.05)
    assert p["points"][0]["noise_from"].startswith("assumed")
    assert p["points"][0]["regressed"] is True


def test_nothing_to_check_is_refused_as_the_cli_refuses_it(cli, files):
    now, _ = files
    r = cli("check", now)
    assert r.returncode == 2
    with pytest.raises(roofline.InputError) as e:
        roofline.check(now)
    # The CLI's message, its flags named as check()'s parameters (docs/python.md, Errors).
    # A flag's value in Python's form: the keyword and its value (min_attainment=X).
    assert str(e.value) == ("nothing to check: give min_attainment=X, config=FILE with "
                            "thresholds, or baseline=FILE")
    assert str(e.value) in roofline._roofline._python_message(r.stderr)
    with pytest.raises(roofline.InputError, match="min_attainment"):
        roofline.check(now, machine=roofline.Machine.from_roofs(1, 1), min_attainment=1.5)


def test_a_name_twice_in_a_list_names_the_list():
    # The message named no file (": two points are named 'a'…"): a list has none.
    twice = [roofline.Point("a", 80, 1, 1.0), roofline.Point("a", 80, 1, 0.9)]
    one = [roofline.Point("a", 80, 1, 1.0)]
    with pytest.raises(roofline.InputError, match="^the points list: two points are named 'a'"):
        roofline.check(twice, baseline=one)
    with pytest.raises(roofline.InputError,
                       match="^the baseline list: two points are named 'a'"):
        roofline.check(one, baseline=twice)
