"""roofline.llm's Training and Speculative read in the CLI's JSON units (OP on an integer compute
type, where the older names say FLOP), a Report's text is the CLI's with its "Data parallel" line,
and llm.compare tells machines of one document name apart as `roofline llm --hw a,b` does."""
import pytest

import roofline


def llm(cli_json, *args):
    return cli_json("llm", "--model", "llama-2-7b", "--hw", "h100-sxm", *args)


@pytest.mark.parametrize("compute, work", [("int8", "OP"), ("fp16", "FLOP")])
def test_training_names_its_units_as_the_cli(cli_json, compute, work):
    c = llm(cli_json, "--train", "--seq", "2048", "--micro-batch", "2", "--cdtype", compute)
    t = roofline.llm.train("llama-2-7b", "h100-sxm", sequence=2048, micro_batch=2,
                           compute=compute)
    assert t.to_dict() == c["training"]
    assert t.units == c["units"]
    assert t.units["work"] == work and t.units["performance"] == work + "/s"
    assert t.six_nd == c["training"]["six_nd"]
    assert t.six_nd_flop == t.six_nd  # the older name, the same number
    # Kaplan et al. 2020: 6·N·D, counted in the compute roof's unit.
    assert t.six_nd == pytest.approx(6 * t.parameters * t.tokens, rel=1e-12)
    # The repr's 6·N·D in the CLI's unit: "6·N·D = 80.1 TOP" on int8, "... TFLOP" on fp16.
    said = repr(t).split("6·N·D = ")[1].split(",")[0]
    assert said.endswith(work) and said[-len(work) - 1] in "kMGTPE", repr(t)
    if work == "OP":
        assert "FLOP" not in repr(t)


@pytest.mark.parametrize("compute, intensity", [("int8", "OP/byte"), ("fp16", "FLOP/byte")])
def test_speculative_names_its_units_as_the_cli(cli_json, compute, intensity):
    c = llm(cli_json, "--batch", "2", "--context", "2048", "--spec-k", "4", "--draft",
            "llama-2-7b", "--cdtype", compute)
    s = roofline.llm.speculative("llama-2-7b", "h100-sxm", draft="llama-2-7b", k=4, batch=2,
                                 context=2048, compute=compute)
    assert s.to_dict() == c["speculative"]
    assert s.units == c["units"] and s.units["intensity"] == intensity
    assert s.verify_intensity == c["speculative"]["verify_intensity"]
    assert s.verify_intensity_flop_per_byte == s.verify_intensity  # the older name
    # Verifying k + 1 = 5 tokens reads the weights once for five times the work: its I is
    # several times plain decode's.
    assert s.verify_intensity > 3 * c["speculative"]["plain_intensity"]


def test_the_repr_says_6nd_as_the_cli_text_does(cli):
    # 6·N·D is one number on either compute type (N = 6.607 G matrix parameters, D = 4096
    # tokens: 162.4 T), said in OP on int8 and in FLOP on fp16, as the CLI's text says it.
    i8 = roofline.llm.train("llama-2-7b", "h100-sxm", compute="int8")
    f16 = roofline.llm.train("llama-2-7b", "h100-sxm", compute="fp16")
    assert i8.six_nd == f16.six_nd == pytest.approx(162.4e12, rel=1e-3)
    assert "6·N·D = 162.4 TOP," in repr(i8)
    assert "6·N·D = 162.4 TFLOP," in repr(f16)
    for compute, said in (("int8", "162.4 TOP"), ("fp16", "162.4 TFLOP")):
        r = cli("llm", "--model", "llama-2-7b", "--hw", "h100-sxm", "--train", "--cdtype", compute)
        assert r.returncode == 0 and "6·N·D = %s (" % said in r.stdout, r.stdout


def test_a_reports_text_has_the_clis_data_parallel_line(cli):
    args = ["--model", "llama-3-8b", "--hw", "h100-sxm", "--dp", "4"]
    r = cli("llm", *args)
    assert r.returncode == 0, r.stderr
    rep = roofline.llm.analyse("llama-3-8b", "h100-sxm", dp=4)
    assert str(rep) == r.stdout.rstrip("\n") or str(rep) == r.stdout
    line = [l for l in str(rep).splitlines() if l.startswith("Data parallel:")]
    assert len(line) == 1, str(rep)
    # Four replicas of one device: one replica's tokens/s, four times, as data_parallel says.
    assert line[0].startswith("Data parallel: 4 replicas of 1 device(s): ")
    assert rep.data_parallel["tokens_per_s"] == pytest.approx(4 * rep.tokens_per_s, rel=1e-15)
    # One replica: no such line, as the CLI prints none.
    one = roofline.llm.analyse("llama-3-8b", "h100-sxm")
    assert "Data parallel" not in str(one)
    plain = cli("llm", "--model", "llama-3-8b", "--hw", "h100-sxm")
    assert "Data parallel" not in plain.stdout


def without_messages(row):
    row = dict(row, cost=dict(row["cost"]))
    del row["warnings"], row["cost"]["notes"]
    return row


def test_compare_tells_machines_of_one_name_apart_as_the_cli(cli_json, tmp_path):
    m1, m2 = tmp_path / "m1.json", tmp_path / "m2.json"
    roofline.Machine.from_roofs(1e12, 1e11, name="vm").save(str(m1))
    roofline.Machine.from_roofs(2e12, 1e11, name="vm").save(str(m2))
    c = cli_json("llm", "--model", "llama-2-7b", "--hw", "%s,%s" % (m1, m2), "--batch", "4")
    assert [m["machine"] for m in c["machines"]] == ["vm (m1.json)", "vm (m2.json)"]
    for machines in ([str(m1), str(m2)], [roofline.Machine(str(m1)), roofline.Machine(str(m2))]):
        rows = roofline.llm.compare("llama-2-7b", machines, batch=4)
        assert [r["machine"] for r in rows] == ["vm (m1.json)", "vm (m2.json)"]
        # The rows are the CLI's, their messages naming Python's parameters (power_w, not
        # --power-w), each machine by its told-apart name ("the power of vm (m1.json) ...").
        assert [without_messages(r) for r in rows] == [without_messages(m) for m in c["machines"]]
        assert [r["cost"]["notes"][1] for r in rows] == [
            "the power of vm (m%d.json) is not in the catalogue: J/token not computed (give "
            "power_w)" % k for k in (1, 2)]
    # A price by the document's name still finds both (as --price-per-hour vm=2).
    rows = roofline.llm.compare("llama-2-7b", [str(m1), str(m2)], batch=4,
                                price_per_hour={"vm": 2})
    assert [r["cost"]["price_per_device_hour"] for r in rows] == [2, 2]
    # Machines of different names keep them.
    rows = roofline.llm.compare("llama-2-7b", ["h100-sxm", str(m1)], batch=4)
    assert [r["machine"] for r in rows] == ["h100-sxm", "vm"]


def test_compare_refuses_one_catalogue_entry_twice_as_the_cli(cli):
    with pytest.raises(roofline.InputError,
                       match=r"'a100-80gb' and 'a100-80gb' are one machine \('a100-80gb'\)"):
        roofline.llm.compare("llama-2-7b", ["a100-80gb", "a100-80gb"])
    r = cli("llm", "--model", "llama-2-7b", "--hw", "a100-80gb,a100-80gb")
    assert r.returncode == 2
    assert "'a100-80gb' and 'a100-80gb' are one machine ('a100-80gb')" in r.stderr
