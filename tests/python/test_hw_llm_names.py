"""roofline.llm as `roofline llm` reads the same input: a model named as a preset and found
here refused as --model refuses it, the machines of compare() named as given (a price by the
name given, one machine given twice named both ways), and a count or a measured rate of 0
refused in the CLI's words with the flag named as the parameter."""
import os
import shutil

import pytest

import roofline

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
LLAMA_CONFIG = os.path.join(ROOT, "tests", "data", "llm", "llama-2-7b.config.json")


def test_a_model_named_as_a_preset_and_found_here_is_refused(tmp_path, monkeypatch):
    os.mkdir(str(tmp_path / "llama-2-7b"))
    shutil.copy(LLAMA_CONFIG, str(tmp_path / "llama-2-7b" / "config.json"))
    os.mkdir(str(tmp_path / "mistral-7b"))  # no config.json: no model, the preset
    monkeypatch.chdir(str(tmp_path))
    with pytest.raises(roofline.InputError) as e:
        roofline.llm.model("llama-2-7b")
    assert str(e.value) == ("name_or_path: 'llama-2-7b' is both a folder here and the preset "
                            "llama-2-7b: write ./llama-2-7b for the folder, or run elsewhere "
                            "for the preset")
    assert roofline.llm.model("./llama-2-7b").name == "meta-llama/Llama-2-7b-hf"  # the file's
    assert roofline.llm.model("mistral-7b").name == "mistral-7b"


def test_compare_prices_a_machine_by_the_name_it_was_given():
    model = roofline.llm.model("llama-2-7b")
    rows = roofline.llm.compare(model, ["h100", "a100-80gb"],
                                price_per_hour={"h100": 3, "a100-80gb": 2})
    prices = [r["cost"]["price_per_device_hour"] for r in rows]
    assert prices == [3, 2]
    # By the document's name still, as --price-per-hour takes it.
    rows = roofline.llm.compare(model, ["h100", "a100-80gb"],
                                price_per_hour={"h100-sxm": 4, "a100-80gb": 2})
    assert [r["cost"]["price_per_device_hour"] for r in rows] == [4, 2]


def test_one_machine_given_twice_is_named_as_given(cli):
    model = roofline.llm.model("llama-2-7b")
    with pytest.raises(roofline.InputError) as e:
        roofline.llm.compare(model, ["h100", "h100-sxm"])
    assert "'h100-sxm' and 'h100' are one machine ('h100-sxm')" in str(e.value)
    r = cli("llm", "--model", "llama-2-7b", "--hw", "h100,h100-sxm")
    assert r.returncode == 2
    assert "'h100-sxm' and 'h100' are one machine ('h100-sxm')" in r.stderr


@pytest.mark.parametrize("flags, parameter, call", [
    (["--output-tokens", "0"], "output_tokens",
     lambda m, h: roofline.llm.request(m, h, output_tokens=0)),
    (["--concurrency", "0"], "concurrency",
     lambda m, h: roofline.llm.serve(m, h, concurrency=0, requests=[(128, 128)])),
    (["--spec-k", "0", "--draft", "llama-2-7b"], "k",
     lambda m, h: roofline.llm.speculative(m, h, draft="llama-2-7b", k=0)),
    (["--measured-tokens-per-s", "0"], "measured_tokens_per_s",
     lambda m, h: roofline.llm.analyse(m, h, measured_tokens_per_s=0)),
])
def test_a_count_of_zero_is_refused_in_the_clis_words(cli, flags, parameter, call):
    r = cli("llm", "--model", "llama-2-7b", "--hw", "h100", *flags)
    assert r.returncode == 2
    said = r.stderr.splitlines()[0]
    prefix = "roofline: error: " + flags[0] + ": "
    assert said.startswith(prefix), said
    with pytest.raises(roofline.InputError) as e:
        call(roofline.llm.model("llama-2-7b"), roofline.Machine("h100"))
    assert str(e.value) == parameter + ": " + said[len(prefix):]
