"""What the package keeps as the CLI keeps it: an input a chart was drawn from is never replaced
by it, work in OP is never bound by a roof of FLOP/s, a text cell of a CSV that reads as a number
is still text, and messages that say what was given."""
import csv
import io
import json
import os
import pathlib
import shutil

import pytest

import roofline

ROOT = pathlib.Path(__file__).resolve().parents[2]
LLAMA_CONFIG = ROOT / "tests" / "data" / "llm" / "llama-2-7b.config.json"

OP_ON_FLOP = ("roof 'peak' of machine 'given roofs' counts floating-point work (FLOP/s), not "
              "integer operations (OP): work counted in OP against a peak in FLOP/s is no bound")


def test_an_llm_chart_is_not_saved_over_the_model_config_it_was_drawn_from(tmp_path,
                                                                           monkeypatch, cli):
    config = tmp_path / "cfg.json"
    shutil.copy(LLAMA_CONFIG, config)
    before = config.read_bytes()
    monkeypatch.chdir(tmp_path)
    r = roofline.llm.analyse("cfg.json", "a100-80gb")
    chart = roofline.llm.chart(r)
    for name in ("cfg.json", str(config), "./cfg.json"):
        with pytest.raises(roofline.InputError) as e:
            chart.save(name)
        assert str(e.value) == (name + ": is the model config the chart was drawn from "
                                "(cfg.json); refusing to replace it: save the chart elsewhere")
    os.link(config, tmp_path / "linked.json")  # one file under another name
    with pytest.raises(roofline.InputError, match="is the model config"):
        chart.save("linked.json")
    assert config.read_bytes() == before
    # As the CLI refuses it.
    c = cli("llm", "-m", "cfg.json", "--hw", "a100-80gb", "--report", "cfg.json")
    assert c.returncode == 2 and "refusing to replace it" in c.stderr
    assert config.read_bytes() == before
    # Elsewhere it is written; a preset's chart names no file.
    chart.save("chart.json")
    assert json.loads((tmp_path / "chart.json").read_text())["schema"] == "roofline.report"
    preset = roofline.llm.chart(roofline.llm.analyse("llama-2-7b", "a100-80gb"))
    assert preset._inputs == []


def test_int8_on_roofs_of_flop_per_s_is_refused_as_diagnose_refuses_it():
    given = roofline.Machine.from_roofs(1e12, 1e11)
    for call in (lambda: given.attainable_flop_per_s(5, "int8"),
                 lambda: given.ridge_flop_per_byte("int8")):
        with pytest.raises(roofline.InputError) as e:
            call()
        assert str(e.value) == "precision 'int8': " + OP_ON_FLOP
    with pytest.raises(roofline.InputError) as e:
        given.compute_roof("int8")
    assert str(e.value) == "name_or_precision 'int8': " + OP_ON_FLOP
    g = roofline.Machine("a100-80gb")
    with pytest.raises(roofline.InputError, match="is no bound"):
        roofline.diagnose(roofline.Point("x8", 1e9, 1e8, 1, precision="int8"), given)
    # Floating-point precisions: the given peak stands for each.
    assert given.attainable_flop_per_s(5, "fp16") == 5e11
    assert given.ridge_flop_per_byte("fp64") == 10
    assert given.compute_roof("bf16").peak_flop_per_s == 1e12
    # A peak given as int8 counts OP; a catalogue machine's int8 roof too.
    as_int8 = roofline.Machine.from_roofs(1e12, 1e11, precision="int8")
    assert as_int8.attainable_flop_per_s(5, "int8") == 5e11
    assert g.compute_roof("int8").integer
    assert g.ridge_flop_per_byte("int8") == pytest.approx(
        g.compute_roof("int8").peak_flop_per_s / g.memory_roof().bandwidth_byte_per_s)


def test_a_chart_refuses_a_point_whose_work_its_roof_does_not_count_as_plot_does(tmp_path,
                                                                                  cli):
    given = roofline.Machine.from_roofs(1e12, 1e11)
    x8 = roofline.Point("x8", 1e9, 1e8, 1, precision="int8")
    f = roofline.Point("f", 1e9, 1e8, 1)
    message = ("point 'x8': W counts OP (its precision is int8), but " + OP_ON_FLOP +
               "; judge it on a roof that counts OP")
    with pytest.raises(roofline.InputError) as e:
        roofline.Chart(given, [f, x8])
    assert str(e.value) == message
    # An attribute set since is checked when drawn, with the same message.
    chart = roofline.Chart(given, [f])
    chart.points = [f, x8]
    with pytest.raises(roofline.InputError) as e:
        chart.to_dict()
    assert str(e.value) == message
    # `roofline plot` refuses the same point.
    given.save(str(tmp_path / "m.json"))
    (tmp_path / "p.json").write_text(json.dumps({
        "schema": "roofline.points", "version": 1,
        "points": [{"name": "f", "work": 1e9, "traffic": 1e8, "time": 1},
                   {"name": "x8", "work": 1e9, "traffic": 1e8, "time": 1,
                    "precision": "int8"}]}))
    r = cli("plot", tmp_path / "m.json", tmp_path / "p.json", "-o", tmp_path / "c.svg")
    assert r.returncode == 2
    assert r.stderr == "roofline: error: %s: %s\n" % (tmp_path / "p.json", message)
    # A point with no roof of its precision at all is left out, listed by not_drawn().
    a100 = roofline.Machine("a100-80gb")
    left = roofline.Chart(a100, [f, roofline.Point("i64", 1e9, 1e8, 1, precision="int64")])
    assert [d["name"] for d in left.not_drawn()] == ["i64"]


def _rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_a_csv_name_that_reads_as_a_number_is_text_in_python_and_the_cli(tmp_path, cli):
    given = roofline.Machine.from_roofs(1e12, 1e11)
    names = ["+1", "-2", "-2e5", "plain"]
    points = [roofline.Point(n, 1e9, 1e8, 1) for n in names]
    text = roofline.Chart(given, points).to_csv()
    lines = [line for line in text.splitlines() if line.startswith("point,")]
    assert [line.split(",")[2] for line in lines] == ['"\'+1"', '"\'-2"', '"\'-2e5"', "plain"]
    assert [r["name"] for r in _rows(text) if r["record"] == "point"] == \
        ["'+1", "'-2", "'-2e5", "plain"]
    # Numbers stay bare numbers: P = 1e9 FLOP/s, I = 10 FLOP/byte.
    first = _rows(text)[-4]
    assert first["performance"] == "1e+09" and first["intensity"] == "10"
    # The CLI writes the same file.
    given.save(str(tmp_path / "m.json"))
    (tmp_path / "p.json").write_text(json.dumps({
        "schema": "roofline.points", "version": 1,
        "points": [{"name": n, "work": 1e9, "traffic": 1e8, "time": 1, "source": "python"}
                   for n in names]}))
    r = cli("plot", tmp_path / "m.json", tmp_path / "p.json", "-o", tmp_path / "c.csv")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "c.csv").read_text() == text


def test_empty_file_names_and_thread_counts_are_said_as_given(tmp_path):
    with pytest.raises(roofline.InputError) as e:
        roofline.Machine.load("")
    assert str(e.value) == "path: an empty file name"
    with pytest.raises(roofline.InputError) as e:
        roofline.Chart("a100-80gb").save("")
    assert str(e.value) == "path: an empty file name"
    with pytest.raises(roofline.InputError) as e:
        roofline.Machine.measure(threads=-1)
    assert str(e.value) == ("threads: must be 0 (the default: one thread per core) or a number "
                            "of threads from 1 (got -1)")

