"""Tyconian system: exact against sampled on a registry, kernel against its twins, CLI."""

import json
import math

import numpy as np
import pytest
from conftest import chi_square_p, run_cli
from scipy import stats

import simlab
from simlab.inputs.errors import ScenarioError, SimlabError
from simlab.systems.tyconian import layout
from simlab.systems.tyconian.exact import exact_attack
from simlab.systems.tyconian.reference import AD_HOC, TWIN_ATTACKS
from simlab.systems.tyconian.resolve import resolve
from simlab.systems.tyconian.rules import Rules, Scenario
from simlab.systems.tyconian.sample import sample_attack

ALPHA = 0.001
#: Every range band, every penetration class, full auto at every listed ROF (3, 5, 10) and an unlisted one (7):
#: the attacks the kernel is checked on against its twins.
CASES = TWIN_ATTACKS
IDS = [
    ",".join(f"{k}={v}" for k, v in c.items()).replace(" ", "_") + ("," + ",".join(r) if r else "") for c, r in CASES
]


def resolved(inputs: dict, rules: dict):
    system = simlab.get_system("tyconian")
    scenario, rows = system.attack.split_inputs(inputs)
    return resolve(Scenario(**scenario), Rules(**rules), rows)


def test_every_band_and_class_is_covered():
    attacks = [resolved(c, r) for c, r in CASES]
    assert {a.band for a in attacks} == {"close", "short", "medium", "long", "very_long", "extreme"}
    assert {a.weapon.penetration for a in attacks} == {"normal", "high", "low", "nil"}
    assert {a.weapon.automatic_rof for a in attacks if a.auto is not None} == {3, 5, 7, 10}


@pytest.mark.slow
@pytest.mark.parametrize(("inputs", "rules"), CASES, ids=IDS)
def test_sampled_agrees_with_exact(inputs, rules):
    attack = resolved(inputs, rules)
    exact = exact_attack(attack)
    trials = 200_000
    sampled = sample_attack(attack, trials=trials, seed=20261130, threads=1)
    hits_hist, damage_hist, levels, counts = sampled.tallies
    assert chi_square_p(hits_hist, exact.hits.probs[: len(hits_hist)]) > ALPHA
    low, high = sampled.ci95["mean_damage"]
    assert low - (high - low) <= exact.mean_damage <= high + (high - low)
    if exact.mean_bystander_hits is not None:
        low, high = sampled.ci95["mean_bystander_hits"]
        assert low - (high - low) <= exact.mean_bystander_hits <= high + (high - low)
    if exact.p_jam is not None:
        assert stats.binomtest(int(counts[layout.JAMS]), trials, exact.p_jam).pvalue > ALPHA if exact.p_jam else True
    if exact.damage is None:
        return
    expected = np.zeros(len(damage_hist))
    expected[exact.damage.offset : exact.damage.offset + len(exact.damage.probs)] = exact.damage.probs
    assert chi_square_p(damage_hist, expected) > ALPHA
    for name, index in (("p_knockdown", layout.KNOCKDOWN), ("p_stun", layout.STUN),
                        ("p_incapacitated", layout.INCAPACITATED), ("p_killed", layout.KILLED)):  # fmt: skip
        p = exact.outcome[name]
        count = int(counts[index])
        assert (stats.binomtest(count, trials, p).pvalue > ALPHA) if 0 < p < 1 else count == p * trials, name
    for location, dist in exact.wounds.items():
        row = levels[list(exact.wounds).index(location)]
        assert chi_square_p(row, np.array(list(dist.values()))) > ALPHA, location


def test_full_auto_exact_json_is_the_binomial_of_the_dice(capsys):
    args = ["attack", "tyconian", *[f"--set={k}={v}" for k, v in AD_HOC.items()], "--set", "mode=full_auto",
            "--set", "range_m=60", "--exact", "--json"]  # fmt: skip
    code, out, _ = run_cli(capsys, *args)
    assert code == 0
    payload = json.loads(out)
    attack = resolved({**AD_HOC, "mode": "full_auto", "range_m": 60}, {})
    n, p = attack.auto.dice, attack.auto.p_die
    assert n == 50  # 70 rounds, medium range: the ROF 5 row's 20 dice off (ROF 7 is nearest to 5)
    hits = {int(k): v for k, v in payload["distributions"]["hits"].items()}
    for k in range(n + 1):
        assert hits.get(k, 0.0) == pytest.approx(math.comb(n, k) * p**k * (1 - p) ** (n - k), abs=1e-12)
    assert payload["not_exact"] == ["p_knockdown", "p_stun", "p_incapacitated", "p_killed"]


def test_one_shot_attacks_are_exact_in_full(capsys):
    code, out, _ = run_cli(capsys, "attack", "tyconian", "--set", "weapon=battle rifle", "--exact", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["not_exact"] == []
    assert sum(payload["distributions"]["damage"].values()) == pytest.approx(1.0)
    assert set(payload["metrics"]) >= {"p_hit", "p_knockdown", "p_stun", "p_incapacitated", "p_killed", "p_jam"}


@pytest.mark.parametrize(
    ("inputs", "words"),
    [
        ({"weapon": "revolver", "mode": "burst"}, "fires single shots only"),
        ({"weapon": "assault rifle", "mode": "burst", "aim": 1}, "never get aim"),
        ({"weapon": "battle rifle", "aim": 1, "movement": "walk"}, "no aimed fire while walk"),
        ({"weapon": "battle rifle", "aim": 4}, "at most 3"),
        ({"weapon": "assault rifle", "mode": "full_auto", "movement": "trot"}, "only standing or walking"),
        ({"weapon": "assault rifle", "mode": "full_auto", "range_m": 500}, "long range at most"),
        ({"weapon": "autopistol", "range_m": 200}, "beyond extreme range"),
        ({"weapon": "revolver", "shots": 7}, "6 are loaded"),
        ({"weapon": "revolver", "target_location": "neck"}, "unknown target_location 'neck'"),
    ],
)
def test_forbidden_scenarios(inputs, words):
    with pytest.raises(SimlabError, match=words):
        resolved(inputs, {})


def test_sampled_same_for_any_thread_count():
    request = simlab.ScenarioRequest(
        scenario={"weapon": "light machinegun", "mode": "full_auto", "range_m": 50},
        method="monte_carlo",
        trials=200_000,
    )
    system = simlab.get_system("tyconian")
    one = system.attack.answer(simlab.ScenarioRequest(**{**request.__dict__, "threads": 1})).to_json()
    two = system.attack.answer(
        simlab.ScenarioRequest(**{**request.__dict__, "threads": 2, "block_size": 7_777})
    ).to_json()
    assert one == two


def test_scenario_error_type():
    with pytest.raises(ScenarioError):
        resolved({"weapon": "revolver", "mode": "full_auto"}, {})


def test_duel_threads_and_symmetry(capsys):
    side = ["weapon=battle rifle", "armor=flak vest", "dex=11"]
    args = [
        "duel",
        "tyconian",
        *[f"--a={s}" for s in side],
        *[f"--b={s}" for s in side],
        "--trials",
        "100000",
        "--json",
    ]
    code, one, _ = run_cli(capsys, *args, "--threads", "1")
    _, two, _ = run_cli(capsys, *args, "--threads", "2")
    assert code == 0 and one == two
    payload = json.loads(one)
    a, b = payload["metrics"]["p_a_wins"], payload["metrics"]["p_b_wins"]
    assert abs(a - b) <= 3.29 * ((a + b - (a - b) ** 2) / payload["trials"]) ** 0.5
    assert payload["scenario"]["a"]["weapon_name"] == "battle rifle"


def test_armour_and_dex_help_in_duels():
    duel = simlab.get_system("tyconian").questions["duel"].answer

    def b_wins(**b):
        request = simlab.systems.DuelRequest(
            a={"weapon": "autopistol", "range_m": 10}, b={"weapon": "autopistol", "range_m": 10, **b}, trials=40_000
        )
        return duel(request).metrics["p_b_wins"]

    even = b_wins()
    assert b_wins(armor="combat armour") > even + 0.05
    assert b_wins(dex=15) > even + 0.05  # more action points: more shots a turn (TYC-2)


def test_duel_errors(capsys):
    code, _, err = run_cli(capsys, "duel", "tyconian", "--a", "weapon=battle rifle", "--b", "wepon=rifle")
    assert code == 2 and "did you mean 'weapon'" in err
    code, _, err = run_cli(
        capsys, "duel", "tyconian", "--a", "weapon=revolver", "--a", "mode=burst", "--b", "weapon=rifle"
    )
    assert code == 2 and err.startswith("error: side A:")


def test_the_chance_of_every_shot_of_a_turn_is_exact():
    result = simlab.attack("tyconian", weapon="heavy pistol", shots=5, firer_str=8, range_m=10)
    skills = result.details["effective_skills"]  # recoil 4 against STR 8: penalties 0, 0, 4, 8, 12
    assert skills == [10, 10, 6, 2, -2]
    assert result.details["shot_chances"] == pytest.approx([0.5, 0.5, 0.3, 0.1, 0.05])
    assert result.metrics["mean_hits"] == pytest.approx(sum(result.details["shot_chances"]))


def test_tyc_6_4_knockdown_counts_the_damage_of_the_whole_turn():
    """Three shots that each stay under DEX can knock down together; one shot is the same either way."""

    def p_knockdown(shots, reading):
        result = simlab.attack(
            "tyconian", method="monte_carlo", trials=40_000, seed=4, weapon="autopistol", shots=shots, skill=15,
            target_dex=14, rules={"knockdown_damage": reading},
        )  # fmt: skip
        return result.metrics["p_knockdown"]

    assert p_knockdown(3, "phase") > p_knockdown(3, "shot") + 0.05
    assert p_knockdown(1, "phase") == p_knockdown(1, "shot")
