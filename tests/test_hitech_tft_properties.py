"""Hypothesis properties of the exact HiTech TFT engine."""

from conftest import valid_modes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simlab.systems.hitech_tft import metrics_of
from simlab.systems.hitech_tft.exact import exact_outcome
from simlab.systems.hitech_tft.resolve import resolve
from simlab.systems.hitech_tft.rules import Rules, Scenario, weapons

WEAPON_MODES = [(w.name, m) for w in weapons() for m in valid_modes(w.name)]

scenarios = st.fixed_dictionaries(
    {
        "weapon_mode": st.sampled_from(WEAPON_MODES),
        "dx": st.integers(3, 20),
        "range_m": st.integers(1, 120),
        "protection": st.integers(0, 8),
        "soft": st.booleans(),
        "criticals": st.booleans(),
        "st": st.integers(1, 30),
    }
)


def metrics(values, **changes):
    values = {**values, **changes}
    weapon, mode = values["weapon_mode"]
    melee = weapons().row(weapon).is_melee
    range_m = None if melee else values["range_m"]  # TFT-2.2: melee needs the target within reach
    scenario = Scenario(weapon=weapon, mode=mode, dx=values["dx"], range_m=range_m, st=values["st"])
    attack = resolve(
        scenario,
        Rules(criticals=values["criticals"]),
        armour_overrides={"protection": values["protection"], "soft": values["soft"]},
    )
    outcome = exact_outcome(attack)
    return metrics_of(attack, outcome), outcome


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(scenarios)
def test_more_dx_never_lowers_p_hit(values):
    (low, _), _ = metrics(values)
    (high, _), _ = metrics(values, dx=values["dx"] + 1)
    assert high["p_hit"] >= low["p_hit"] - 1e-12


@SETTINGS
@given(scenarios)
def test_more_armour_never_raises_mean_damage(values):
    (low, _), _ = metrics(values, protection=values["protection"] + 1)
    (high, _), _ = metrics(values)
    assert low["mean_damage"] <= high["mean_damage"] + 1e-12
    assert low["p_killed"] <= high["p_killed"] + 1e-12


@SETTINGS
@given(scenarios)
def test_distributions_sum_to_one_and_metrics_are_probabilities(values):
    (result, distributions), _ = metrics(values)
    assert abs(sum(distributions["hits"].values()) - 1) < 1e-12
    assert abs(sum(distributions["damage"].values()) - 1) < 1e-12
    for name, value in result.items():
        if name.startswith("p_"):
            assert -1e-12 <= value <= 1 + 1e-12, name
    assert result["p_killed"] <= result["p_incapacitated"] + 1e-12
    assert result["p_knockdown"] <= result["p_stagger"] + 1e-12
