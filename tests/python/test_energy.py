"""roofline.energy against `roofline energy --json` for the same machine and costs: the same
model (Choi, Bedard, Fowler & Vuduc 2013: balances, peak work per joule, balance point, the roof
at an intensity) and the same catalogue power bound; the CLI adds only this machine's power
interface."""
import pytest

import roofline


def without_power_interface(j):
    return {k: v for k, v in j.items() if k != "power_interface"}


def test_given_costs_give_the_clis_model(cli_json):
    c = cli_json("energy", "--peak", "100G", "--bandwidth", "25G", "--eps-flop", "1e-10",
                 "--eps-mem", "5e-10", "--pi0", "10", "--intensity", "4")
    p = roofline.energy(roofline.Machine.from_roofs(100e9, 25e9), eps_flop=1e-10, eps_mem=5e-10,
                        pi0=10, intensities=[4])
    assert p == without_power_interface(c)
    m = p["model"]
    # B_tau = pi/beta = 4 FLOP/B; B_eps = eps_mem/eps_flop = 5; eps_hat = 1e-10 + 10/100e9 = 2e-10.
    assert m["time_balance"] == pytest.approx(4, rel=1e-12)
    assert m["energy_balance"] == pytest.approx(5, rel=1e-12)
    assert m["effective_eps_flop"] == pytest.approx(2e-10, rel=1e-12)
    assert m["peak_work_per_joule"] == pytest.approx(5e9, rel=1e-12)
    assert p["costs_origin"] == "given"


def test_a_catalogue_power_gives_the_clis_bound(cli_json):
    c = cli_json("energy", "--hw", "a100-80gb")
    p = roofline.energy(roofline.Machine.from_catalogue("a100-80gb"))
    assert p == without_power_interface(c)
    b = p["tdp_bound"]
    assert b["min_work_per_joule"] == pytest.approx(1 / b["max_joules_per_work"], rel=1e-12)
    assert p["model"] is None


def test_no_energy_figures_is_unavailable_as_the_cli_says(cli):
    # Neither costs nor a power bound: the CLI exits 3 (unavailable); the function returned a
    # dict of Nones.
    r = cli("energy", "--peak", "1e12", "--bandwidth", "1e11")
    assert r.returncode == 3
    with pytest.raises(roofline.Unavailable, match="no energy figures") as e:
        roofline.energy(roofline.Machine.from_roofs(1e12, 1e11))
    # The CLI's message, its flags named as energy()'s parameters (docs/python.md, Errors).
    assert str(e.value).startswith("no energy figures: give eps_flop and eps_mem, ")
    assert str(e.value) in roofline._roofline._python_message(r.stderr)


def test_half_the_costs_is_refused_as_the_cli_refuses_it(cli):
    r = cli("energy", "--hw", "a100-80gb", "--eps-flop", "1e-10")
    assert r.returncode == 2
    with pytest.raises(roofline.InputError) as e:
        roofline.energy(roofline.Machine.from_catalogue("a100-80gb"), eps_flop=1e-10)
    assert str(e.value) == "give both eps_flop (J per unit of work) and eps_mem (J per byte)"
    assert str(e.value) in roofline._roofline._python_message(r.stderr)


@pytest.mark.parametrize("pi0", ["-5", "nan", "10"])
def test_a_constant_power_without_costs_is_refused_not_ignored(cli, pi0):
    # pi0 belongs to the given costs: alone it changed nothing and was silently dropped.
    r = cli("energy", "--hw", "a100-80gb", "--pi0", pi0)
    assert r.returncode == 2
    # The CLI reads the text as a power first ("30 W"): NaN is no number before it is alone.
    refusal = ("--pi0: not a finite number" if pi0 == "nan"
               else "--pi0 goes with --eps-flop and --eps-mem")
    assert refusal in r.stderr
    with pytest.raises(roofline.InputError) as e:
        roofline.energy(roofline.Machine.from_catalogue("a100-80gb"), pi0=float(pi0))
    # Named as energy()'s parameters (docs/python.md, Errors).
    assert str(e.value).startswith("pi0 goes with eps_flop and eps_mem")
    if pi0 != "nan":  # a float reaches the library, which refuses it for standing alone
        assert str(e.value) in roofline._roofline._python_message(r.stderr)


def test_intensities_without_costs_are_refused_as_the_cli_refuses_them(cli):
    # They were silently dropped (`model: None`); the CLI refuses --intensity without costs.
    r = cli("energy", "--hw", "h100-sxm", "--intensity", "1")
    assert r.returncode == 2
    assert "the energy roofline needs energy costs" in r.stderr
    with pytest.raises(roofline.InputError,
                       match="^intensities: the energy roofline needs energy costs"):
        roofline.energy(roofline.Machine.from_catalogue("h100-sxm"), intensities=[1])
