"""A message raised from Python names the Python parameter, not the CLI flag that takes the same
value ("tp 3: must divide ...", not "--tp 3"): the library names its inputs by the CLI's flags,
and the bindings' exception translator says them as the package's parameters
(python/bindings/messages.cpp)."""
import pytest

import roofline


def test_llm_scenario_messages_name_the_keywords():
    with pytest.raises(roofline.InputError, match=r"^tp 3: must divide num_attention_heads") as e:
        roofline.llm.analyse("llama-2-7b", "a100-80gb", tp=3)
    assert "--" not in str(e.value)
    with pytest.raises(roofline.InputError, match=r"^pp: must be ≥ 1") as e:
        roofline.llm.analyse("llama-2-7b", "a100-80gb", pp=0)
    assert "--" not in str(e.value)
    with pytest.raises(roofline.InputError,
                       match=r"^link_latency_s: must be a finite number ≥ 0") as e:
        roofline.llm.analyse("llama-2-7b", "a100-80gb", link_latency_s=-1)
    assert "--" not in str(e.value)


def test_a_warning_names_the_keywords_too():
    # The hint's example in Python's form: link_latency_s is a number of seconds, not "3 us".
    with pytest.warns(UserWarning, match=r"link latency of h100-sxm .*\(give link_latency_s, "
                                         r"e\.g\. 3e-6\)") as said:
        s = roofline.llm.speculative("llama-2-70b", "h100-sxm", draft="llama-2-7b", tp=2)
    assert not any("--" in str(w.message) for w in said)
    # .warnings says what the UserWarning said (it kept the CLI's "--link-latency").
    assert any("give link_latency_s, e.g. 3e-6" in w for w in s.warnings), s.warnings
    assert not any("--" in w for w in s.warnings), s.warnings
    # to_dict() is the CLI's JSON, flags and all.
    assert any("--link-latency" in w for w in s.to_dict()["warnings"])


def test_the_cli_still_names_its_flags(cli):
    r = cli("llm", "--model", "llama-2-7b", "--hw", "a100-80gb", "--tp", "3")
    assert r.returncode == 2 and "--tp 3: must divide num_attention_heads" in r.stderr


def test_measure_names_threads():
    with pytest.raises(roofline.InputError, match=r"^threads: must be between 1 and ") as e:
        roofline.Machine.measure(quick=True, threads=100000)
    assert "--threads" not in str(e.value)


def test_a_flag_python_has_no_parameter_for_stays_and_words_are_left_alone():
    translate = roofline._roofline._python_message
    assert translate("--tp 3 and --pp: x") == "tp 3 and pp: x"
    assert translate("--spec-k 0 with --draft") == "k 0 with draft"
    assert translate("give --eps-flop and --eps-mem") == "give eps_flop and eps_mem"
    # Unknown flags, a flag inside a word, and a longer flag that starts like a known one.
    assert translate("--junit x, a--tp, --tpx") == "--junit x, a--tp, --tpx"


def test_result_warnings_and_notes_name_the_parameters():
    r = roofline.llm.analyse("llama-2-7b", "a100-80gb", pp=3)
    assert any(w.startswith("pp 3 does not divide") for w in r.warnings), r.warnings
    assert any("(give domain_size=N)" in w for w in r.warnings), r.warnings
    assert any("(give link_latency_s, e.g. 3e-6)" in w for w in r.warnings), r.warnings
    assert not any("--" in w for w in r.warnings), r.warnings
    assert any(w.startswith("--pp 3") for w in r.to_dict()["warnings"])
    c = roofline.llm.cost(100, "mi300x")
    assert any("(price_per_hour)" in n for n in c.notes), c.notes
    assert not any("--" in n for n in c.notes), c.notes
    assert any("--price-per-hour" in n for n in c.to_dict()["notes"])
    c = roofline.llm.cost(100, roofline.Machine.from_roofs(1e12, 1e11))
    assert any("(give power_w)" in n for n in c.notes), c.notes
    rows = roofline.llm.compare("llama-2-7b", ["a100-80gb", "mi300x"], pp=3)
    for row in rows:
        assert row["cost"]["notes"] and not any("--" in n for n in row["cost"]["notes"]), row
        assert row["warnings"] and not any("--" in w for w in row["warnings"]), row
    t = roofline.llm.train("llama-2-7b", "h100-sxm", dp=2, global_batch=16)
    assert not any("--" in n for n in t.notes), t.notes
    q = roofline.llm.request("llama-2-7b", "a100-80gb", 16, pp=3)
    assert q.warnings and not any("--" in w for w in q.warnings), q.warnings
    v = roofline.llm.serve("llama-2-7b", "a100-80gb", 2, [(128, 16)], pp=3)
    assert v.warnings and not any("--" in w for w in v.warnings), v.warnings


def test_phase_is_named_as_the_parameter():
    with pytest.raises(roofline.InputError, match=r"^phase: must be prefill or decode") as e:
        roofline.llm.analyse("llama-2-7b", "a100-80gb", phase="banana")
    assert "--" not in str(e.value)


def test_user_text_is_never_rewritten():
    translate = roofline._roofline._python_message
    # A path's name, and text in quotes, are the user's: left as they are.
    assert translate("/tmp/x/--hw.json: no such file") == "/tmp/x/--hw.json: no such file"
    assert translate("point 'kernel --tp 2': x") == "point 'kernel --tp 2': x"
    assert translate('name "a --pp 3" given') == 'name "a --pp 3" given'
    assert translate("--hw.json: no such file") == "--hw.json: no such file"
    # Outside quotes, after an apostrophe in a word, a flag is still translated.
    assert translate("from 1 to the target's --tp (8)") == "from 1 to the target's tp (8)"
    assert translate("point 'x': give --tp 2") == "point 'x': give tp=2"


def test_a_missing_file_names_the_file_given(tmp_path):
    path = tmp_path / "--hw.json"
    with pytest.raises(roofline.InputError) as e:
        roofline.Machine(str(path))
    assert str(path) in str(e.value)
    with pytest.raises(roofline.InputError) as e:
        roofline.Point("kernel --tp 2", -1, 1e9, 1)
    assert "'kernel --tp 2'" in str(e.value)

