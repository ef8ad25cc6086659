"""Striker-derived system: worked examples, exact against brute force and sampling, duels, CLI."""

import itertools
import json

import numpy as np
import pytest
from conftest import chi_square_p, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import simlab
import simlab.mechanics.target_number
from simlab.inputs.errors import ScenarioError, SimlabError
from simlab.systems.striker import kernels
from simlab.systems.striker.exact import exact_outcome, hit_categories
from simlab.systems.striker.reference import TWIN_ATTACKS
from simlab.systems.striker.resolve import CATEGORIES, end_dm, resolve
from simlab.systems.striker.rules import Rules, Scenario
from simlab.systems.striker.sample import sample_attack

ALPHA = 0.001


#: Every mode (suppressive and melee too), every blowthrough class, HE and non-HE, END 7, 10, 12.
CASES = TWIN_ATTACKS
IDS = [",".join(f"{k}={v}" for k, v in c.items()).replace(" ", "_") for c in CASES]


def resolved(inputs: dict, **rules):
    system = simlab.get_system("striker")
    scenario, rows = system.attack.split_inputs(inputs)
    return resolve(Scenario(**scenario), Rules(**rules), rows)


def test_str4_worked_example_laser_rifle_against_cloth():
    attack = resolved({"weapon": "laser rifle", "armor": "cloth"})
    rolls = np.arange(2, 13)
    assert list(attack.pen_total_by_roll[rolls]) == list(rolls + 4)  # 2d6 + 4 on every roll
    unarmoured = resolved({"weapon": "laser rifle", "armor": "none"})
    assert list(unarmoured.pen_total_by_roll[rolls]) == list(rolls + 4)


def test_acceptance_ad_hoc_laser_never_gets_more_than_plus_4(capsys):
    code, out, _ = run_cli(
        capsys, "attack", "striker", "--set", "weapon.pen=20", "--set", "weapon.blowthrough=laser",
        "--set", "weapon.kind=semi", "--set", "weapon.magazine=20", "--set", "armor.av=5", "--set", "skill=2",
        "--set", "range_band=long", "--exact", "--json",
    )  # fmt: skip
    assert code == 0
    metrics = json.loads(out)["metrics"]
    assert sum(metrics[f"p_{c}"] for c in CATEGORIES) == pytest.approx(1.0, abs=1e-12)
    attack = resolved({"weapon.pen": 20, "weapon.blowthrough": "laser", "weapon.kind": "semi",
                       "weapon.magazine": 20, "armor.av": 5})  # fmt: skip
    assert (attack.pen_total_by_roll[2:] - np.arange(2, 13) <= 4).all()


def test_blowthrough_off_lets_penetration_through():
    assert resolved({"weapon": "laser rifle", "armor": "cloth"}, blowthrough=False).pen_total_by_roll[2] == 17


def test_wound_levels_he_step_and_not_dead_yet_targets():
    attack = resolved({"weapon": "rifle", "armor": "none"})  # pen 6 capped at +3
    assert list(attack.level_by_pen[2:]) == [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]  # 5-7 light, 8-11 serious, 12+ dead
    he = resolved({"weapon": "HE snub pistol", "armor": "none"})  # pen 2: totals 4..14, one step up
    assert list(he.level_by_pen[2:]) == [2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3]
    assert he.ndy_target_by_pen[6] == 8  # dead from the HE step below 12 uses 8+
    fusion = resolved({"weapon": "fusion gun", "armor": "none"}, blowthrough=False)  # totals 32..42
    assert list(fusion.ndy_target_by_pen[[2, 6, 11]]) == [16, 18, 20]  # 31-35 16+, 36-40 18+, 41-45 20+
    assert [end_dm(e) for e in (7, 9, 10, 11, 12, 15)] == [0, 0, 1, 1, 2, 2]


def test_to_hit_modifiers_and_extra_hits():
    attack = resolved({"weapon": "assault rifle", "mode": "half_clip", "skill": 2, "range_band": "long",
                       "sights": "scope", "cover": "partial"})  # fmt: skip
    assert attack.to_hit_dm == 2 + 2 + 0 - 1
    assert attack.rounds == 15
    assert list(attack.hits_by_roll[2:]) == [0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]  # 8+ with DM +3, +1 per 2
    single = resolved({"weapon": "rifle", "dm": -10})
    assert list(single.hits_by_roll[2:]) == [0] * 10 + [1]  # a natural 12 always hits
    sure = resolved({"weapon": "rifle", "dm": 10})
    assert sure.hits_by_roll[2] == 0  # a natural 2 always misses


@pytest.mark.parametrize(
    ("inputs", "words"),
    [
        ({"weapon": "revolver", "mode": "half_clip"}, "fires single or burst5"),
        ({"weapon": "shotgun", "mode": "full_clip"}, "semi-automatic"),
        ({"weapon": "assault rifle", "mode": "single", "suppressive": True}, "needs mode half_clip or full_clip"),
        ({"weapon": "rifle", "cover": "complete"}, "cannot be shot"),
        (
            {"weapon.pen": 3, "weapon.blowthrough": "9mm", "weapon.kind": "semi", "weapon.magazine": 6},
            "unknown blowthrough class '9mm'",
        ),
    ],
)
def test_forbidden_scenarios(inputs, words):
    with pytest.raises(SimlabError, match=words):
        resolved(inputs)


def brute_force_single_hit(attack) -> np.ndarray:
    """Category distribution of one hit by enumerating every die (STR-4, STR-6)."""
    q = np.zeros(6)
    faces = range(1, 7)
    for a, b, c, d in itertools.product(faces, faces, faces, faces):
        r = a + b
        level = attack.level_by_pen[r]
        roll = c + d + attack.roll_dm
        if level == 0:
            q[0] += 1
        elif level == 1:
            q[1] += 1
        elif level == 2:
            q[2 if roll >= attack.conscious_target else 3] += 1
        else:
            q[4 if roll >= attack.ndy_target_by_pen[r] else 5] += 1
    return q / 6**4


@pytest.mark.parametrize("inputs", CASES, ids=IDS)
def test_exact_engine_against_brute_force(inputs):
    attack = resolved(inputs)
    q = brute_force_single_hit(attack)
    np.testing.assert_allclose(hit_categories(attack), q, atol=1e-12)
    # the worst of k hits by enumerating every pair (k = 2) and the to-hit roll
    pair = np.zeros(6)
    for i, j in itertools.product(range(6), range(6)):
        pair[max(i, j)] += q[i] * q[j]
    joint = np.zeros((attack.max_hits + 1, 6))
    for a, b in itertools.product(range(1, 7), range(1, 7)):
        k = int(attack.wound_hits_by_roll[a + b])
        worst = np.zeros(6)
        if k == 0:
            worst[0] = 1
        else:
            cumulative = np.cumsum(q)
            worst = np.diff(np.concatenate([[0], cumulative**k]))
            if k == 2:
                np.testing.assert_allclose(worst, pair, atol=1e-12)
        joint[int(attack.hits_by_roll[a + b])] += worst / 36
    exact = exact_outcome(attack)
    np.testing.assert_allclose(exact.joint, joint, atol=1e-12)
    assert exact.joint.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("inputs", CASES, ids=IDS)
def test_sampler_matches_exact_distribution(inputs):
    attack = resolved(inputs)
    exact = exact_outcome(attack)
    trials = 200_000
    sampled = sample_attack(attack, trials=trials, seed=20261130, threads=1)
    joint, counts = sampled.tallies
    assert chi_square_p(joint.sum(axis=0), exact.joint.sum(axis=0)) > ALPHA
    assert chi_square_p(joint.sum(axis=1), exact.joint.sum(axis=1)) > ALPHA
    for count, p in ((counts[kernels.DIES_LATER], exact.dies_later), (counts[kernels.INITIATIVE], exact.p_initiative)):
        assert stats.binomtest(int(count), trials, p).pvalue > ALPHA if 0 < p < 1 else count == p * trials
    if attack.suppressive:
        low, high = sampled.ci95["mean_suppression"]
        assert low - (high - low) <= exact.suppression <= high + (high - low)


def test_sampled_result_same_for_any_thread_count_and_block_size():
    inputs = {"weapon": "assault rifle", "mode": "half_clip", "armor": "cloth"}
    results = [
        simlab.get_system("striker")
        .attack.answer(
            simlab.ScenarioRequest(
                scenario=inputs, method="monte_carlo", trials=300_000, seed=4, threads=t, block_size=b
            )
        )
        .to_json()
        for t, b in ((1, 1 << 18), (2, 1 << 18), (2, 12_345))
    ]
    assert results[0] == results[1] == results[2]


@settings(max_examples=30, deadline=None)
@given(skill=st.integers(-3, 5), av=st.integers(0, 20), end=st.integers(2, 15))
def test_properties_more_skill_more_hits_more_armour_less_harm(skill, av, end):
    def metrics(**inputs):
        base = {"weapon": "assault rifle", "mode": "half_clip", "skill": skill, "armor.av": av, "end": end}
        return simlab.attack("striker", **{k.replace(".", "__"): v for k, v in {**base, **inputs}.items()}).metrics

    now = metrics()
    assert metrics(skill=skill + 1)["p_hit"] >= now["p_hit"] - 1e-12
    assert metrics(**{"armor.av": av + 1})["p_incapacitated"] <= now["p_incapacitated"] + 1e-12
    assert sum(now[f"p_{c}"] for c in CATEGORIES) == pytest.approx(1.0, abs=1e-12)
    assert now["p_survives"] + now["p_killed"] + now["p_dies_later"] == pytest.approx(1.0, abs=1e-12)


def test_initiative_and_treatment_exact_values():
    m = simlab.attack("striker", weapon="rifle", tactics=1).metrics
    equal = simlab.attack("striker", weapon="rifle").metrics
    assert equal["p_initiative"] == pytest.approx(0.5)
    assert m["p_initiative"] > 0.5
    no_medic = simlab.attack("striker", weapon="fusion gun", medic_skill=None, armor="none").metrics
    save_fails = 1 - simlab.mechanics.target_number.p_at_least(6, end_dm(7))
    expected = no_medic["p_not_dead_yet"] + (no_medic["p_serious"] + no_medic["p_unconscious"]) * save_fails
    assert no_medic["p_dies_later"] == pytest.approx(expected, abs=1e-12)  # STR-7: nobody to stabilise
    assert no_medic["p_survives"] <= simlab.attack("striker", weapon="fusion gun", armor="none").metrics["p_survives"]


DUEL = ["duel", "striker", "--a", "weapon=assault rifle", "--a", "mode=burst5", "--a", "armor=cloth",
        "--b", "weapon=rifle", "--b", "armor=mesh", "--trials", "50000", "--seed", "3", "--json"]  # fmt: skip


def test_duel_same_for_one_and_two_threads(capsys):
    _, one, _ = run_cli(capsys, *DUEL, "--threads", "1")
    code, two, _ = run_cli(capsys, *DUEL, "--threads", "2")
    assert code == 0 and one == two
    payload = json.loads(one)
    metrics = payload["metrics"]
    total = metrics["p_a_wins"] + metrics["p_b_wins"] + metrics["p_both_down"] + metrics["p_neither"]
    assert total == pytest.approx(1.0)
    assert set(payload["distributions"]) == {"turns", "seconds"} and payload["scenario"]["a"]["magazines"] == 3


def test_duel_of_identical_figures_is_symmetric(capsys):
    side = ["weapon=assault rifle", "mode=half_clip", "armor=cloth", "end=8"]
    args = ["duel", "striker", *[f"--a={s}" for s in side], *[f"--b={s}" for s in side], "--trials", "200000", "--json"]
    code, out, _ = run_cli(capsys, *args)
    assert code == 0
    payload = json.loads(out)
    a, b = payload["metrics"]["p_a_wins"], payload["metrics"]["p_b_wins"]
    # a and b come from one multinomial: Var(a - b) = (a + b - (a - b)^2) / n; test at 99.9 %
    assert abs(a - b) <= 3.29 * ((a + b - (a - b) ** 2) / payload["trials"]) ** 0.5


def test_str_2_1_natural_thresholds_are_rules(capsys):
    """A house rule "a natural 11 always hits" (natural_hit_min = 11) hits on 11 and 12 where only 12 did;
    natural_miss_max = 1 switches the automatic miss off; thresholds outside 2-13 are refused."""
    hopeless = ["--set", "weapon=rifle", "--set", "range_band=extreme", "--set", "cover=full"]

    def p_hit(*rules: str) -> float:
        code, out, _ = run_cli(capsys, "attack", "striker", *hopeless, *rules, "--exact", "--json")
        assert code == 0
        return json.loads(out)["metrics"]["p_hit"]

    assert p_hit() == pytest.approx(1 / 36)
    assert p_hit("--rule", "natural_hit_min=11") == pytest.approx(3 / 36)
    assert p_hit("--rule", "natural_hit_min=13") == 0.0
    sure = exact_outcome(resolve(Scenario(weapon="rifle", dm=20), Rules(natural_miss_max=1), {}, {}))
    assert sure.joint[0].sum() == pytest.approx(0.0)  # no roll misses
    code, _, err = run_cli(capsys, "attack", "striker", *hopeless, "--rule", "natural_hit_min=1", "--exact")
    assert code == 2 and "natural_hit_min" in err and "2 to 13" in err and err.count("\n") == 1


def test_duel_errors(capsys):
    code, _, err = run_cli(capsys, "duel", "striker", "--a", "weapn=rifle", "--b", "weapon=rifle")
    assert code == 2 and "did you mean 'weapon'" in err
    code, _, err = run_cli(
        capsys, "duel", "striker", "--a", "weapon=rifle", "--b", "weapon=revolver", "--b", "mode=full_clip"
    )
    assert code == 2 and err.startswith("error: side B:")
    code, _, err = run_cli(capsys, "duel", "hitech_tft", "--a", "weapon=rifle")
    assert code == 2 and "has no duels" in err
    with pytest.raises(ScenarioError):
        resolved({"weapon": "rifle", "cover": "complete"})


def test_duel_experiments_run_and_validate(tmp_path):
    path = tmp_path / "d.toml"
    path.write_text(
        'name = "d"\nsystem = "striker"\nkind = "duel"\ntrials = 2000\n'
        '[fixed]\n"a.armor" = "cloth"\n[grid]\n"a.weapon" = ["rifle", "submachinegun"]\n"b.weapon" = ["rifle"]\n'
    )
    run = simlab.run(path)
    assert set(run.table["metric"]) >= {"p_a_wins", "p_b_wins", "mean_turns"}
    assert (run.table["method"] == "monte_carlo").all() and len(set(run.table["cell"])) == 2
    path.write_text(path.read_text().replace('"a.armor"', '"a.armour"'))
    with pytest.raises(SimlabError, match=r"d.toml:6: \[fixed\] a.armour: unknown duel side input 'armour'"):
        simlab.run(path)
    path.write_text(path.read_text().replace('"a.armour"', '"c.armor"'))
    with pytest.raises(SimlabError, match="side a or b"):
        simlab.run(path)
    path.write_text(path.read_text().replace('kind = "duel"', 'kind = "duel"\nmethod = "exact"'))
    with pytest.raises(SimlabError, match="duels are sampled"):
        simlab.run(path)


def test_stacked_outcome_chart_and_default_choice():
    from simlab.output import charts
    from simlab.workflow.experiments import load_experiment

    experiment = load_experiment("experiments/striker_weapons_armour.toml")
    metrics = [f"p_{c}" for c in CATEGORIES] + ["p_a_wins"]
    kinds = [c.kind for c in charts.choose_charts(experiment, metrics)]
    assert "stacked" in kinds


def test_str_3_3_and_str_4_1_thresholds_are_rules():
    """suppressive_wound_min = 13: suppressive fire never wounds; armor_halving_min = 13: as crit_halves_armor off."""
    loud = Scenario(weapon="light machinegun", mode="half_clip", suppressive=True, armor="cloth")
    never = exact_outcome(resolve(loud, Rules(suppressive_wound_min=13), {}, {}))
    assert never.joint.sum(axis=0)[1:].sum() == pytest.approx(0.0)
    shot = Scenario(weapon="rifle", armor="cloth")
    off = exact_outcome(resolve(shot, Rules(crit_halves_armor=False), {}, {}))
    late = exact_outcome(resolve(shot, Rules(armor_halving_min=13), {}, {}))
    np.testing.assert_allclose(off.joint, late.joint)
