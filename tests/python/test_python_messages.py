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
    with pytest.warns(UserWarning, match=r"link latency of h100-sxm .*\(give link_latency_s, "
                                         r"e\.g\. \"3 us\"\)") as said:
        roofline.llm.speculative("llama-2-70b", "h100-sxm", draft="llama-2-7b", tp=2)
    assert not any("--" in str(w.message) for w in said)


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
