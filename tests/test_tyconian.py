"""Tyconian system: exact against sampled on a registry, kernel against its twins, CLI."""

import json
import math

import numpy as np
import pytest
from conftest import chi_square_p, run_cli
from scipy import stats

import simlab
from simlab.engine.rng import stream_key
from simlab.inputs.errors import ScenarioError, SimlabError
from simlab.systems.tyconian import layout
from simlab.systems.tyconian.exact import exact_attack
from simlab.systems.tyconian.reference import numpy_block, python_block
from simlab.systems.tyconian.resolve import resolve
from simlab.systems.tyconian.rules import Rules, Scenario
from simlab.systems.tyconian.sample import _attack_tallies, kernel_inputs, sample_attack

ALPHA = 0.001
AD_HOC = {"weapon.rof": 7, "weapon.short_range_m": 40, "weapon.damage": 2.5, "weapon.magazine": 70,
          "weapon.burst_recoil": 1}  # fmt: skip

#: Every range band, every penetration class, full auto at every listed ROF (3, 5, 10) and an unlisted one (7).
CASES = [
    ({"weapon": "autopistol", "range_m": 4}, {}),  # close
    ({"weapon": "battle rifle", "range_m": 50, "armor": "flak vest"}, {}),  # short, normal
    ({"weapon": "laser rifle", "range_m": 150, "armor": "combat armour"}, {}),  # medium, high
    ({"weapon": "shotgun", "range_m": 50, "armor": "cloth"}, {}),  # long, low
    ({"weapon": "stunner", "range_m": 70, "armor": "helmet"}, {}),  # very long, nil
    ({"weapon": "bolt rifle", "range_m": 1000, "skill": 20}, {}),  # extreme
    ({"weapon": "heavy pistol", "shots": 4, "firer_str": 8, "braced": True}, {}),  # recoil, several hits
    ({"weapon": "revolver", "aim": 2, "aim_location": 3, "target_location": "head", "range_m": 8}, {}),
    ({"weapon": "assault rifle", "mode": "burst", "shots": 3, "range_m": 30}, {}),
    ({"weapon": "submachinegun", "mode": "burst", "shots": 2, "range_m": 8}, {"burst_hits": "per_round"}),
    ({"weapon": "assault rifle", "mode": "full_auto", "range_m": 80, "armor": "flak vest"}, {}),  # ROF 3
    ({"weapon": "submachinegun", "mode": "full_auto", "range_m": 9}, {}),  # ROF 5, close
    ({"weapon": "light machinegun", "mode": "full_auto", "range_m": 200, "loaded": 60}, {}),  # ROF 10, long
    ({**AD_HOC, "mode": "full_auto", "range_m": 60, "armor": "combat armour"}, {}),  # ROF 7
    ({"weapon": "battle rifle", "range_m": 40, "cover_av": 2, "target_end": 6}, {"rounding": "down"}),
]
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


@pytest.mark.parametrize(("inputs", "rules"), CASES, ids=IDS)
def test_kernel_equals_python_and_numpy_twins(inputs, rules):
    attack = resolved(inputs, rules)
    key = stream_key(7, 2)
    compiled = _attack_tallies(attack, kernel_inputs(attack), key, 5, 805)
    twins = [python_block(attack, key, 5, 805)] + ([numpy_block(attack, key, 5, 805)] if attack.auto else [])
    for twin in twins:
        for mine, theirs in zip(compiled, twin, strict=True):
            np.testing.assert_array_equal(mine, theirs)


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
    request = simlab.AttackRequest(
        scenario={"weapon": "light machinegun", "mode": "full_auto", "range_m": 50},
        method="monte_carlo",
        trials=200_000,
    )
    system = simlab.get_system("tyconian")
    one = system.attack.answer(simlab.AttackRequest(**{**request.__dict__, "threads": 1})).to_json()
    two = system.attack.answer(
        simlab.AttackRequest(**{**request.__dict__, "threads": 2, "block_size": 7_777})
    ).to_json()
    assert one == two


def test_scenario_error_type():
    with pytest.raises(ScenarioError):
        resolved({"weapon": "revolver", "mode": "full_auto"}, {})


DUELS = [
    ({"weapon": "battle rifle"}, {"weapon": "assault rifle", "mode": "burst"}, {}),
    ({"weapon": "light machinegun", "mode": "full_auto", "range_m": 40},
     {"weapon": "bolt rifle", "aim": 2, "armor": "combat armour", "range_m": 40}, {"rounding": "down"}),
    ({"weapon": "revolver", "dex": 6, "magazines": 2}, {"weapon": "autopistol", "cover_av": 2, "end": 6}, {}),
    ({"weapon": "submachinegun", "mode": "full_auto", "range_m": 8, "magazines": 1, "strength": 6},
     {"weapon": "shotgun", "armor": "flak vest", "range_m": 8}, {"max_turns": 6}),
    ({"weapon": "autopistol", "two_weapons": True, "tactics": "success", "armor": "combat armour", "end": 14},
     {"weapon": "heavy pistol", "two_weapons": True, "two_weapon_fire": "same_second", "tactics": "critical",
      "armor": "flak vest", "end": 7}, {}),
    ({"weapon": "heavy pistol", "armor": "combat armour", "dex": 13},
     {"weapon": "light machinegun", "mode": "full_auto", "armor": "combat armour"},
     {"knockdown_damage": "shot", "consciousness_roll": "once", "armor_wear": "none"}),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b", "rules"), DUELS)
def test_duel_kernel_equals_python_and_numpy_twins(a, b, rules):
    from simlab.systems.tyconian.duel import resolve_duel
    from simlab.systems.tyconian.reference import numpy_duel_block, python_duel_block
    from simlab.systems.tyconian.sample import _duel_tallies

    duel = resolve_duel(a, b, Rules(**rules), ({}, {}))
    key = stream_key(8, 1)
    compiled = _duel_tallies(duel, key, 11, 611)
    for twin in (python_duel_block(duel, key, 11, 611), numpy_duel_block(duel, key, 11, 611)):
        for mine, theirs in zip(compiled, twin, strict=True):
            np.testing.assert_array_equal(mine, theirs)


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
