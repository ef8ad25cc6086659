"""Battles of several figures a side (docs/rules/engagements.md, ENG-1 to ENG-5).

The battle file and its overrides; Striker battles (ENG-4.1) against the duel, by hand, by
their exact first turn and by the properties the spec implies; the compiled kernel against
its interpreted twin; the command line, experiments and their errors.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conftest import chi_square_p, run_cli

from simlab.inputs.battles import BattleError, battle_from_data, load_battle, override
from simlab.systems import BattleRequest, DuelRequest, get_system
from simlab.systems.battles import battle_outcome, break_threshold
from simlab.systems.striker.battle import (
    first_turn_exact,
    resolve_battle,
)

FIRETEAM = "experiments/battles/striker_fireteam.toml"
STRIKER = get_system("striker")


def battle_data(system: str, a_groups: list[dict], b_groups: list[dict], **extra) -> dict:
    """A battle's values: side a's and side b's groups, and anything else (``a={...}`` merges into side a)."""
    data = {"system": system, "name": "test", "a": {"groups": a_groups}, "b": {"groups": b_groups}}
    for key, value in extra.items():
        if key in ("a", "b"):
            data[key].update(value)
        else:
            data[key] = value
    return data


def striker_battle(a_groups: list[dict], b_groups: list[dict], **extra) -> dict:
    return battle_data("striker", a_groups, b_groups, **extra)


def fight(data: dict, trials: int = 100_000, seed: int = 1, **options):
    return STRIKER.questions["battle"].answer(
        BattleRequest(battle_from_data(data), trials=trials, seed=seed, **options)
    )


def close(x: float, y: float, ci_x: tuple[float, float], ci_y: tuple[float, float], sigmas: float = 4.0) -> bool:
    """Two independent estimates agree within ``sigmas`` of their combined standard error."""
    se = math.hypot((ci_x[1] - ci_x[0]) / 3.92, (ci_y[1] - ci_y[0]) / 3.92)
    return abs(x - y) <= sigmas * max(se, 1e-9)


RIFLEMAN = {"count": 1, "name": "rifleman", "weapon": "rifle", "armor": "cloth", "skill": 1}
GUNNER = {"count": 1, "name": "gunner", "weapon": "assault rifle", "mode": "burst5", "armor": "mesh", "skill": 1}


# ENG-1 to ENG-3: the battle file.


def test_the_shipped_battle_file_reads_with_its_sides_and_groups():
    battle = load_battle(FIRETEAM)
    assert battle.system == "striker"
    assert [side.count for side in battle.sides] == [4, 2]
    assert battle.sides[0].doctrine.targets == "spread"


def test_overrides_change_a_count_a_doctrine_and_a_groups_input():
    battle = load_battle(FIRETEAM)
    changed = override(battle, {"a.count": 6, "b.doctrine.targets": "focus", "a.groups.0.weapon": "assault rifle"})
    assert changed.sides[0].count == 6
    assert changed.sides[1].doctrine.targets == "focus"
    assert changed.sides[0].groups[0].inputs["weapon"] == "assault rifle"
    assert battle.sides[0].count == 4  # the original stays as it was


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (
            'system = "striker"\n[a]\nname = "x"\ncolour = 1\n[[a.groups]]\n[b]\n[[b.groups]]\n',
            4,
            "a.colour: unknown side key 'colour'",
        ),
        ('system = "striker"\n[a]\n[[a.groups]]\ncount = 0\n[b]\n[[b.groups]]\n', 4, "a.groups.0.count"),
        ('system = "striker"\n[a]\n[a.doctrine]\ntargets = "all"\n[[a.groups]]\n[b]\n[[b.groups]]\n', 4, "targets"),
        ('system = "striker"\n[a]\n[[a.groups]]\n', None, "b: missing"),
        ('system = "striker"\nx = = 1\n[a]\n', 2, "not valid TOML"),
    ],
)
def test_a_bad_battle_file_is_one_line_naming_file_line_and_key(tmp_path, text, line, fragment):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(BattleError) as caught:
        load_battle(path)
    message = str(caught.value)
    assert "\n" not in message and fragment in message
    assert message.startswith(f"{path}:{line}:" if line else f"{path}:")


def test_a_template_input_the_system_does_not_know_names_its_line(tmp_path):
    path = tmp_path / "battle.toml"
    path.write_text(Path(FIRETEAM).read_text().replace('weapon = "rifle"', 'weapon = "gaus"'))
    battle = load_battle(path)
    with pytest.raises(BattleError) as caught:
        resolve_battle(BattleRequest(battle))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "gaus" in text)
    assert str(caught.value).startswith(f"{path}:")
    assert "a.groups.0" in str(caught.value) and "gaus" in str(caught.value)
    assert battle.lines["a.groups.0"] < line


def test_break_points_and_outcomes_eng_2_eng_5():
    assert break_threshold(0.0, 4) == -1
    assert break_threshold(0.5, 4) == 2  # exact: 0.5 of 4 is 2
    assert break_threshold(0.3, 10) == 3
    assert battle_outcome(0, 0, -1, -1) == 2  # both out
    assert battle_outcome(2, 0, -1, -1) == 0  # a wins
    assert battle_outcome(0, 1, -1, -1) == 1  # b wins
    assert battle_outcome(2, 3, 2, -1) == 4  # a breaks
    assert battle_outcome(2, 3, 2, 3) == 3  # both break: a draw
    assert battle_outcome(3, 3, 2, 2) == -1


# ENG-4.1: Striker battles.


def test_eng_4_1_first_turn_of_two_against_one_by_hand():
    """2 fusion gunners against 1, blowthrough off: every hit is a dead result (total >= 12), so out.

    Hit: 2d6 + skill 1 >= 8, i.e. 2d6 >= 7: 21/36 (STR-2.1). B is out after the first turn
    unless both miss: 1 - (15/36)^2 = 1071/1296. B's one shot at A's first figure: 21/36.
    """
    gun = {"name": "gunner", "weapon": "fusion gun", "armor": "none", "skill": 1}
    data = striker_battle([{**gun, "count": 2}], [{**gun, "count": 1}], rules={"blowthrough": False})
    exact = first_turn_exact(resolve_battle(BattleRequest(battle_from_data(data))))
    assert exact is not None
    assert exact["first_turn_out_b"][1] == pytest.approx(float(Fraction(1071, 1296)), abs=1e-12)
    assert exact["first_turn_out_a"] == pytest.approx({0: 15 / 36, 1: 21 / 36}, abs=1e-12)
    result = fight(data, trials=200_000)
    low, high = result.ci95["mean_first_turn_out_b"]
    assert low <= 1071 / 1296 <= high
    assert result.metrics["exact_mean_first_turn_out_b"] == pytest.approx(1071 / 1296)


def assert_first_turn_matches(result, side):
    """The sampled first turn's figures out of ``side`` against the exact distribution: chi-square at its seed."""
    exact = result.distributions[f"first_turn_out_{side}_exact"]
    sampled = result.distributions[f"first_turn_out_{side}"]
    top = max(*exact, *sampled) + 1
    counts = np.array([round(sampled.get(k, 0.0) * result.trials) for k in range(top)])
    assert chi_square_p(counts, np.array([exact.get(k, 0.0) for k in range(top)])) > 1e-4


@pytest.mark.parametrize("doctrine", ["focus", "spread"])
def test_eng_4_1_the_exact_first_turn_matches_the_sampler(doctrine):
    data = striker_battle(
        [{**RIFLEMAN, "count": 3}, {**GUNNER, "count": 1}],
        [{**GUNNER, "count": 2}, {**RIFLEMAN, "count": 1, "armor": "mesh"}],
        range_band="medium",
        a={"doctrine": {"targets": doctrine}},
        b={"doctrine": {"targets": doctrine}},
    )
    result = fight(data, trials=200_000)
    for side in "ab":
        assert_first_turn_matches(result, side)


def test_eng_4_1_one_against_one_is_the_duel():
    """A battle of one against one fights the duel of STR-11.2 (simultaneous fire, reloads).

    The stream layouts differ (the duel draws each turn's length in seconds and ends on a dead
    result without its Not Dead Yet roll, which changes nothing of who is down), so the
    outcomes agree in distribution: within four standard errors at a fixed seed.
    """
    a = {"weapon": "assault rifle", "mode": "burst5", "armor": "cloth", "skill": 2, "magazines": 2}
    b = {"weapon": "submachinegun", "mode": "burst5", "armor": "mesh", "skill": 1, "magazines": 2}
    duel = STRIKER.questions["duel"].answer(DuelRequest(a=a, b=b, rules={"max_turns": 60}, trials=200_000, seed=3))
    battle = fight(striker_battle([{**a, "count": 1}], [{**b, "count": 1}], max_turns=60), trials=200_000, seed=4)
    pairs = [("p_a_wins", "p_a_wins"), ("p_b_wins", "p_b_wins"), ("p_both_down", "p_both_out"),
             ("p_neither", "p_draw"), ("mean_turns", "mean_turns")]  # fmt: skip
    for duel_name, battle_name in pairs:
        assert close(duel.metrics[duel_name], battle.metrics[battle_name], duel.ci95[duel_name],
                     battle.ci95[battle_name]), duel_name  # fmt: skip


def test_eng_4_1_adding_a_figure_never_lowers_the_win_probability():
    base = striker_battle([{**RIFLEMAN, "count": 2}], [{**GUNNER, "count": 2}], range_band="medium")
    chances = []
    for count in (1, 2, 3, 4):
        data = json.loads(json.dumps(base))
        data["a"]["groups"][0]["count"] = count
        result = fight(data, trials=40_000)
        chances.append((result.metrics["p_a_wins"], result.ci95["p_a_wins"]))
    for (p, (low, _)), (q, (_, high)) in itertools.pairwise(chances):
        assert q >= p or high >= low  # never lower, within the intervals
    assert chances[-1][0] > chances[0][0]


def test_eng_2_focus_gets_a_target_out_no_later_than_spread():
    """Side b breaks when its first figure is out (break_at = 0.5 of 2): the battle's length is that time."""
    results = {}
    for doctrine in ("focus", "spread"):
        data = striker_battle(
            [{**RIFLEMAN, "count": 4, "armor": "battle dress"}],  # the dummies' autopistols cannot hurt them
            [{"count": 2, "name": "dummy", "weapon": "autopistol", "armor": "none"}],
            a={"doctrine": {"targets": doctrine}},
            b={"doctrine": {"break_at": 0.5}},
        )
        results[doctrine] = fight(data, trials=100_000)
    focus, spread = results["focus"], results["spread"]
    assert focus.metrics["mean_turns"] <= spread.ci95["mean_turns"][1]
    assert focus.metrics["p_b_breaks"] > 0.99


def test_str_3_2_extra_hits_to_adjacent_targets_raise_enemies_out_in_the_first_turn():
    shooters = [{"count": 2, "name": "gunner", "weapon": "light machinegun", "mode": "full_clip", "skill": 3}]
    targets = [{"count": 5, "name": "rifleman", "weapon": "rifle", "armor": "cloth"}]
    out = {}
    for extra in ("target", "adjacent"):
        data = striker_battle(shooters, targets, a={"doctrine": {"targets": "focus", "extra_hits": extra}})
        result = fight(data, trials=50_000)
        out[extra] = (result.metrics["mean_first_turn_out_b"], result.ci95["mean_first_turn_out_b"])
    assert out["adjacent"][1][0] > out["target"][1][1]


def test_eng_4_1_suppressive_hits_spread_to_adjacent_targets_with_adjacent_extra_hits():
    """STR-3.2, STR-3.3: with ``extra_hits = "adjacent"`` a suppressing gunner's extra hits suppress the
    target's neighbours, so fewer of their shots land in the first turn than when all go on the target."""
    gunner = [{"count": 1, "name": "gunner", "weapon": "light machinegun", "mode": "half_clip", "skill": 4,
               "suppressive": True, "armor": "flak jacket"}]  # fmt: skip
    riflemen = [{**RIFLEMAN, "count": 5}]
    out = {}
    for extra in ("target", "adjacent"):
        data = striker_battle(gunner, riflemen, a={"doctrine": {"targets": "focus", "extra_hits": extra}}, max_turns=1)
        result = fight(data, trials=100_000)
        out[extra] = (result.metrics["mean_first_turn_out_a"], result.ci95["mean_first_turn_out_a"])
    assert out["adjacent"][1][1] < out["target"][1][0]


def test_eng_4_1_suppressive_fire_goes_first_and_lowers_the_shots_of_that_turn():
    """Two gunners suppressing (half a clip each) against four riflemen: fewer riflemen's hits land."""
    gunners = [
        {"count": 2, "name": "gunner", "weapon": "light machinegun", "mode": "half_clip", "armor": "flak jacket"}
    ]
    riflemen = [{**RIFLEMAN, "count": 4}]
    quiet = fight(striker_battle(riflemen, gunners), trials=50_000)
    loud = fight(striker_battle(riflemen, gunners, b={"doctrine": {"suppressors": 2}}), trials=50_000)
    # Suppression makes the riflemen miss more in the first turn; it wounds only on a natural 12.
    assert loud.metrics["mean_first_turn_out_b"] < quiet.metrics["mean_first_turn_out_b"]
    assert loud.metrics["mean_first_turn_out_a"] < quiet.metrics["mean_first_turn_out_a"]
    assert "first_turn_out_a_exact" not in loud.distributions  # suppression: not tractable


def test_a_battle_is_the_same_for_any_thread_count_and_block_size():
    data = json.loads(json.dumps(load_battle(FIRETEAM).data))
    one = fight(data, trials=30_000, threads=1)
    two = fight(data, trials=30_000, threads=2, block_size=777)
    assert one.to_json() == two.to_json()


# The command line and experiments.


def test_simlab_battle_json_prints_outcomes_with_intervals_and_the_standing_series(capsys):
    args = ["battle", "striker", FIRETEAM, "--trials", "200000", "--seed", "1", "--json"]
    code, out, err = run_cli(capsys, *args, "--threads", "1")
    assert code == 0, err
    code, again, err = run_cli(capsys, *args, "--threads", "2")
    assert code == 0, err
    assert out == again
    payload = json.loads(out)
    for name in ("p_a_wins", "p_b_wins", "p_draw", "standing_a_turn_1", "standing_b_turn_20"):
        assert name in payload["metrics"] and name in payload["ci95"]
    total = sum(payload["metrics"][f"p_{o}"] for o in ("a_wins", "b_wins", "both_out", "draw", "a_breaks", "b_breaks"))
    assert total == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["battle", "tyconian", FIRETEAM], "the battle is for 'striker', not 'tyconian'"),
        (["battle", "hitech_tft", FIRETEAM], "the battle is for 'striker', not 'hitech_tft'"),
        (["battle", "striker", "nowhere.toml"], "nowhere.toml"),
        (["battle", "striker", FIRETEAM, "--set", "a.groups.3.weapon=rifle"], "no group 3"),
        (["battle", "striker", FIRETEAM, "--set", "a.groups.0.weapon=gaus"], "gaus"),
        (["battle", "striker", FIRETEAM, "--set", "c.count=2"], "unknown battle key 'c'"),
        (["battle", "striker", FIRETEAM, "--trials", "0"], "--trials"),
        (["battle", "striker", FIRETEAM, "--rule", "max_turns=100000"], "max_turns"),
        (["battle", "striker", FIRETEAM, "--set", "a.groups.0.range_band=long"], "give range_band at the top"),
        (
            ["battle", "space_v4", "experiments/battles/space_squadron.toml", "--set", "a.groups.0.ship=nothing"],
            ":17: a.groups.0.ship: unknown ship 'nothing'",  # the key once
        ),
    ],
)
def test_bad_battle_input_is_one_line_and_exit_2(capsys, args, fragment):
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err and fragment in err


def test_a_battle_experiment_runs_with_survival_curves(tmp_path, capsys):
    experiment = tmp_path / "battle.toml"
    battle = tmp_path / "battles" / "fireteam.toml"
    battle.parent.mkdir()
    battle.write_text(Path(FIRETEAM).read_text())
    experiment.write_text(
        'name = "small_battle"\nsystem = "striker"\nkind = "battle"\nbattle = "battles/fireteam.toml"\n'
        'trials = 2000\n[grid]\n"a.count" = [3, 4]\n"b.doctrine.suppressors" = [0, 1]\n'
    )
    code, _, err = run_cli(capsys, "run", str(experiment), "--out", str(tmp_path / "out"))
    assert code == 0, err
    folder = tmp_path / "out" / "small_battle"
    assert (folder / "survival.png").exists() and (folder / "heatmap_p_a_wins.png").exists()
    table = (folder / "table.csv").read_text()
    assert "standing_a_turn_20" in table and "a.count" in table


def test_a_battle_experiment_with_a_bad_grid_key_names_its_line(tmp_path, capsys):
    (tmp_path / "battles").mkdir()
    (tmp_path / "battles" / "fireteam.toml").write_text(Path(FIRETEAM).read_text())
    experiment = tmp_path / "battle.toml"
    experiment.write_text(
        'name = "bad"\nsystem = "striker"\nkind = "battle"\nbattle = "battles/fireteam.toml"\n'
        '[grid]\n"b.doctrine.targets" = ["spread", "all"]\n'
    )
    code, _, err = run_cli(capsys, "run", str(experiment), "--out", str(tmp_path / "out"))
    assert code == 2
    assert err.startswith(f"error: {experiment}:6:") and "'all'" in err
    assert not (tmp_path / "out").exists()


# ENG-4.2: Tyconian battles.

TYCONIAN = get_system("tyconian")
RIFLE = {"weapon": "battle rifle", "armor": "flak vest", "skill": 12}
AUTO = {"weapon": "assault rifle", "mode": "full_auto", "armor": "flak vest", "skill": 10}


def tyconian_battle(a_groups: list[dict], b_groups: list[dict], **extra) -> dict:
    return battle_data("tyconian", a_groups, b_groups, **{"range_m": 40, **extra})


def tyconian_fight(data: dict, trials: int = 50_000, seed: int = 3, **options):
    return TYCONIAN.questions["battle"].answer(
        BattleRequest(battle_from_data(data), trials=trials, seed=seed, **options)
    )


def test_eng_4_2_one_against_one_is_the_duel_to_the_last_trial():
    """With the shots of a second landing together (``same_second = "together"``, the duel's reading),
    one against one draws exactly as the duel of TYC-2 to TYC-6 on the same stream: the same tallies."""
    a, b = {**RIFLE, "range_m": 40}, {**AUTO, "range_m": 40}
    duel = TYCONIAN.questions["duel"].answer(DuelRequest(a=a, b=b, rules={"max_turns": 20}, trials=50_000, seed=3))
    battle = tyconian_fight(tyconian_battle([{**RIFLE, "count": 1}], [{**AUTO, "count": 1}], same_second="together"))
    pairs = [("p_a_wins", "p_a_wins"), ("p_b_wins", "p_b_wins"), ("p_both_down", "p_both_out"),
             ("p_neither", "p_draw"), ("mean_turns", "mean_turns"), ("mean_seconds", "mean_seconds")]  # fmt: skip
    for duel_name, battle_name in pairs:
        assert duel.metrics[duel_name] == battle.metrics[battle_name], duel_name
    assert duel.distributions["seconds"] == battle.distributions["seconds"]


def test_eng_4_2_ties_in_d20_plus_dex_are_rolled_off_again():
    """Two identical figures, one a side: equal chances within their intervals; with the old reading (ties
    to the place in line, side a first) side a wins more often."""
    data = tyconian_battle([{**RIFLE, "count": 1}], [{**RIFLE, "count": 1}])
    fair = tyconian_fight(data, trials=100_000)
    a, b = fair.ci95["p_a_wins"], fair.ci95["p_b_wins"]
    assert a[0] <= b[1] and b[0] <= a[1]
    by_line = tyconian_fight({**data, "same_second": "initiative_by_line"}, trials=100_000)
    assert by_line.ci95["p_a_wins"][0] > by_line.ci95["p_b_wins"][1]


def test_eng_4_2_the_danger_zone_hits_only_figures_within_3_m():
    """Full-auto misses fly at the target's friends within 3 m: a line 3.01 m apart draws exactly as one
    100 m apart (no danger-zone dice at all), a line 3 m apart does not."""
    gunners = [{**AUTO, "count": 2, "skill": 6}]
    targets = [{**RIFLE, "count": 3, "armor": "none"}]

    def first_turn(spacing: float):
        data = tyconian_battle(gunners, targets, max_turns=1, a={"doctrine": {"targets": "focus"}},
                               b={"formation": {"spacing_m": spacing}})  # fmt: skip
        return tyconian_fight(data, trials=20_000)

    far, beyond, within = first_turn(100.0), first_turn(3.01), first_turn(3.0)
    assert far.to_json()["metrics"] == beyond.to_json()["metrics"]
    assert within.metrics["mean_first_turn_out_b"] > far.ci95["mean_first_turn_out_b"][1]


def test_eng_4_2_adding_a_figure_never_lowers_the_win_probability():
    chances = []
    for count in (1, 2, 3):
        result = tyconian_fight(tyconian_battle([{**RIFLE, "count": count, "skill": 8}], [{**AUTO, "count": 2}]),
                                trials=20_000)  # fmt: skip
        chances.append((result.metrics["p_a_wins"], result.ci95["p_a_wins"]))
    for (p, (low, _)), (q, (_, high)) in itertools.pairwise(chances):
        assert q >= p or high >= low
    assert chances[-1][0] > chances[0][0]


def test_a_tyconian_battle_is_the_same_for_any_thread_count(capsys):
    args = ["battle", "tyconian", "experiments/battles/tyconian_squads.toml", "--trials", "20000", "--json"]
    code, one, err = run_cli(capsys, *args, "--threads", "1")
    assert code == 0, err
    code, two, err = run_cli(capsys, *args, "--threads", "2")
    assert code == 0 and one == two
    assert "mean_seconds" in json.loads(one)["metrics"]


def test_variants_compare_and_regress_take_battle_experiments(tmp_path, capsys):
    """A house rule on a battle: compared by common random numbers, and caught by regress."""
    (tmp_path / "battles").mkdir()
    (tmp_path / "battles" / "fireteam.toml").write_text(Path(FIRETEAM).read_text())
    experiment = tmp_path / "battle.toml"
    experiment.write_text(
        'name = "small_battle"\nsystem = "striker"\nkind = "battle"\nbattle = "battles/fireteam.toml"\n'
        'trials = 4000\n[grid]\n"a.count" = [3, 4]\n'
    )
    variant = "experiments/variants/striker_extra_hit_every_3.toml"
    code, out, err = run_cli(capsys, "compare", str(experiment), "--variant", variant, "--out", str(tmp_path / "c"))
    assert code == 0, err
    assert (tmp_path / "c" / "compare_small_battle" / "table.csv").exists()
    baselines = str(tmp_path / "baselines")
    code, _, err = run_cli(capsys, "baseline", str(experiment), "--dir", baselines)
    assert code == 0, err
    code, out, _ = run_cli(capsys, "regress", str(experiment), "--dir", baselines)
    assert code == 0 and "no change" in out
    code, out, _ = run_cli(capsys, "regress", str(experiment), "--dir", baselines, "--variant", variant, "--all")
    assert code == 1 and "changed:" in out and "standing_a_turn_" in out
    listed = [line.split() for line in out.splitlines()]
    metrics = [words[2] for words in listed if len(words) > 3 and words[1] == "monte_carlo"]
    assert metrics[0].startswith("p_") and metrics.index("p_b_wins") < metrics.index("mean_rounds_b")  # chances first


# ENG-4.4: Space Combat V4 fleets.

SPACE = get_system("space_v4")


def test_eng_4_4_one_ship_against_one_is_the_duel():
    """One ship a side fights SPC-7's duel; the battle draws a roll-off per ship where the duel draws one
    coin, so the two agree in distribution: within four standard errors at a fixed seed."""
    a, b = {"ship": "patrol cruiser"}, {"ship": "mercenary cruiser", "pd_hold": 3}
    request = DuelRequest(a={**a, "range_policy": "close"}, b=b, rules={"max_turns": 20}, trials=40_000, seed=3)
    duel = SPACE.questions["duel"].answer(request)
    data = {"system": "space_v4", "a": {"formation": {"range_policy": "close"}, "groups": [{**a, "count": 1}]},
            "b": {"groups": [{**b, "count": 1}]}}  # fmt: skip
    battle = SPACE.questions["battle"].answer(BattleRequest(battle_from_data(data), trials=40_000, seed=4))
    for name in ("p_a_wins", "p_b_wins", "p_draw", "mean_turns"):
        assert close(duel.metrics[name], battle.metrics[name], duel.ci95[name], battle.ci95[name]), name


def test_eng_4_4_more_scouts_beat_the_cruiser_and_the_same_for_any_thread_count(capsys):
    args = ["battle", "space_v4", "experiments/battles/space_squadron.toml", "--trials", "4000", "--json"]
    code, one, err = run_cli(capsys, *args, "--threads", "1")
    assert code == 0, err
    code, two, _ = run_cli(capsys, *args, "--threads", "2")
    assert one == two
    code, many, _ = run_cli(capsys, *args, "--set", "a.count=12", "--set", "b.formation.range_policy=close")
    few, more = json.loads(one)["metrics"], json.loads(many)["metrics"]
    assert more["p_a_wins"] > few["p_a_wins"] and more["mean_killed_b"] + more["mean_incapacitated_b"] > 0.5


# ENG-4.3: HiTech TFT battles.

TFT = get_system("hitech_tft")
BURSTS = {"weapon": "assault rifle", "mode": "four", "armor": "flak jacket"}


def tft_battle(a_groups: list[dict], b_groups: list[dict], **extra) -> dict:
    return battle_data("hitech_tft", a_groups, b_groups, **{"range_m": 20, **extra})


def tft_fight(data: dict, trials: int = 50_000, seed: int = 1, **options):
    return TFT.questions["battle"].answer(BattleRequest(battle_from_data(data), trials=trials, seed=seed, **options))


def test_eng_4_3_the_exact_first_turn_matches_the_sampler():
    """Without blasts or splash the first turn's shots are independent attacks (TFT-3, TFT-4): a target
    is out when their summed damage reaches ST - 1 (TFT-6.1)."""
    data = tft_battle(
        [{**BURSTS, "count": 3}],
        [{"count": 2, "weapon": "gauss rifle", "armor": "flak jacket", "st": 10},
         {"count": 1, "weapon": "submachinegun", "mode": "four", "armor": "none"}],
        b={"doctrine": {"targets": "spread"}},
    )  # fmt: skip
    result = tft_fight(data, trials=200_000)
    for side in "ab":
        assert_first_turn_matches(result, side)


def test_eng_4_3_he_rounds_splash_only_the_figures_within_one_hex():
    """TFT-4.5's adjacent hexes along a line: figures 1.3 m apart (one hex of 4/3 m) are splashed; 2 m apart
    (1.5 hexes: 2) or 4 m apart (3 hexes) they are not, and the battle is the one without splash."""
    shooters = [{"count": 3, "weapon": "snub pistol", "ammo": "HE", "dx": 14}]
    targets = [{"count": 5, "weapon": "assault rifle", "armor": "none", "st": 8}]

    def first_turn(spacing: float, **rules):
        data = tft_battle(shooters, targets, range_m=4, max_turns=1, a={"doctrine": {"targets": "focus"}},
                          b={"formation": {"spacing_m": spacing}})  # fmt: skip
        return TFT.questions["battle"].answer(BattleRequest(battle_from_data(data), rules=rules, trials=20_000, seed=1))

    none = first_turn(1.3, he_splash_per_die=0)
    assert first_turn(1.3).metrics["mean_first_turn_out_b"] > none.ci95["mean_first_turn_out_b"][1]
    for spacing in (2.0, 4.0):
        assert first_turn(spacing).metrics == first_turn(spacing, he_splash_per_die=0).metrics


def test_eng_4_3_half_hex_distances_round_up_on_both_sides_of_a_burst():
    """Distances in hexes are exact and rounded half up, the same to the left and to the right: at 2 m
    spacing and hexes of 4/3 m, a neighbour is 1.5 hexes away, 2 on either side of a figure; a burst one
    hex to the right of a figure is 0.5 hexes from its right neighbour (1) and 2.5 from its left one (3)."""
    from simlab.systems.hitech_tft.battle import hex_distance
    from simlab.systems.hitech_tft.battle import resolve_battle as resolve_tft

    hex_m = Fraction(4, 3)
    assert hex_distance(Fraction(2), hex_m) == hex_distance(Fraction(-2), hex_m) == 2
    assert hex_distance(Fraction(2, 3), hex_m) == hex_distance(Fraction(-2, 3), hex_m) == 1
    assert hex_distance(Fraction(-10, 3), hex_m) == 3
    grenadier = [{"count": 1, "weapon": "rifle grenade TL12", "dx": 13}]
    line = [{"count": 3, "weapon": "assault rifle"}]
    resolved = resolve_tft(BattleRequest(battle_from_data(tft_battle(grenadier, line))))
    hexes = resolved.arrays[9]  # (target, figure, scatter + 6): the middle figure of side b is 2
    assert hexes[2, 1, 6] == hexes[2, 3, 6] == 2  # its neighbours, left and right
    assert hexes[2, 3, 7] == 1 and hexes[2, 1, 7] == 3  # a burst one hex to the right
    assert hexes[2, 1, 5] == 1 and hexes[2, 3, 5] == 3  # and one to the left: the mirror image


def test_eng_4_3_a_clip_runs_dry_and_a_spent_figure_reloads_or_stops():
    """Rounds are counted (ENG-4.3): a rifle grenade (clip 1) with 2 grenades fires in turns 1 and 3 (turn 2
    reloads) and then no more; four-round bursts from a 20-round clip fire 5 times, reload, 5 more. The
    targets can neither fall (ST 1000) nor hurt the firers (battle dress), so the rounds are certain."""
    tough = [{"count": 1, "weapon": "lt pistol", "st": 1000}]
    armoured = {"count": 1, "armor": "battle TL14", "dx": 13}
    cases = (({"weapon": "rifle grenade TL12", "magazines": 2}, 2),
             ({"weapon": "rifle grenade TL12", "magazines": 1}, 1),
             ({"weapon": "assault rifle", "mode": "four", "magazines": 2}, 40))  # fmt: skip
    for inputs, rounds in cases:
        data = tft_battle([{**armoured, **inputs}], tough, max_turns=20, range_m=4)
        result = TFT.questions["battle"].answer(
            BattleRequest(battle_from_data(data), rules={"criticals": False}, trials=2_000, seed=1)
        )
        assert result.metrics["mean_rounds_a"] == rounds, inputs
        assert result.metrics["p_draw"] == 1.0


def test_tft_7_a_blast_reaches_only_figures_within_3_hexes():
    """Rifle grenades at a line of figures 100 m apart hurt the target alone (a scatter of 1d6 hexes
    reaches nobody else); 1 m apart, the burst takes the neighbours too."""
    grenadiers = [{"count": 2, "weapon": "rifle grenade TL12", "dx": 13}]
    line = [{"count": 4, "weapon": "assault rifle", "armor": "flak jacket"}]

    def first_turn(spacing: float):
        data = tft_battle(grenadiers, line, max_turns=1, a={"doctrine": {"targets": "focus"}},
                          b={"formation": {"spacing_m": spacing}})  # fmt: skip
        return tft_fight(data, trials=20_000)

    far, near = first_turn(100.0), first_turn(1.0)
    assert far.distributions["first_turn_out_b"].keys() <= {0, 1}
    assert near.metrics["mean_first_turn_out_b"] > far.ci95["mean_first_turn_out_b"][1]


def test_a_big_battle_takes_a_wider_window_of_draws_and_stays_the_same_for_any_thread_count():
    """64 against 64 needs more draws a trial than a duel's window: the battle gets a wider one."""
    from simlab.systems.tyconian.battle import resolve_battle as resolve_tyconian

    data = tyconian_battle([{**RIFLE, "count": 64}], [{**AUTO, "count": 64}])
    resolved = resolve_tyconian(BattleRequest(battle_from_data(data)))
    assert resolved.arrays[0] > 1 << 16
    one = tyconian_fight(data, trials=600, threads=1)
    two = tyconian_fight(data, trials=600, threads=2, block_size=77)
    assert one.to_json() == two.to_json()
    assert one.metrics["p_a_wins"] + one.metrics["p_b_wins"] + one.metrics["p_both_out"] > 0.9


@pytest.mark.parametrize(
    ("system", "path", "change", "fragment"),
    [
        ("striker", FIRETEAM, "same_second=together", "striker battles do not read same_second"),
        ("tyconian", "experiments/battles/tyconian_squads.toml", "b.doctrine.suppressors=1", "a Striker doctrine"),
        ("space_v4", "experiments/battles/space_squadron.toml", "a.doctrine.extra_hits=adjacent", "extra_hits"),
        ("hitech_tft", "experiments/battles/tft_hexes.toml", "b.doctrine.go_prone=when_suppressed", "go_prone"),
    ],
)
def test_keys_another_system_reads_are_refused_not_ignored(capsys, system, path, change, fragment):
    code, _, err = run_cli(capsys, "battle", system, path, "--set", change, "--trials", "100")
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_eng_4_4_the_exact_first_turn_of_a_small_fleet_matches_the_sampler():
    """Ship by ship in order of G (the scouts' roll-off in every order), every state carried exactly."""
    result = SPACE.questions["battle"].answer(
        BattleRequest(load_battle("experiments/battles/space_squadron.toml"), trials=100_000, seed=2)
    )
    assert result.details["first_turn_exact"]
    assert_first_turn_matches(result, "a")


@pytest.mark.parametrize(
    ("system", "path"),
    [("hitech_tft", "experiments/battles/tft_hexes.toml"), ("striker", FIRETEAM),
     ("tyconian", "experiments/battles/tyconian_squads.toml")],
)  # fmt: skip
def test_eng_3_sides_hold_the_range_where_the_duel_never_moves_it(capsys, system, path):
    """close or open is refused in one line, naming the key, where only Space Combat's duels move the range."""
    code, out, err = run_cli(capsys, "battle", system, path, "--set", "a.range_policy=close")
    assert code == 2 and not out and err.count("\n") == 1
    assert "a.formation.range_policy" in err and "'close'" in err and "do not read range_policy" in err


def test_every_shipped_battle_s_description_names_only_the_gear_its_file_gives():
    """A description that names a weapon, armour or ship names one of the file's groups' (not another row)."""
    from simlab.inputs.battles import load_battle

    for path in sorted(Path("experiments/battles").glob("*.toml")):
        battle = load_battle(path)
        tables = get_system(battle.system).tables()
        rows = {str(r.name).lower() for name in ("weapons", "armor", "ships") if name in tables for r in tables[name]}
        used = {str(v).lower() for side in battle.sides for g in side.groups for v in g.inputs.values()}
        text = str(battle.data.get("description", "")).lower()
        for name in sorted(used, key=len, reverse=True):  # what the file gives, then what is left
            text = re.sub(rf"\b{re.escape(name)}(s|es)?\b", " ", text)
        named = [row for row in rows if re.search(rf"\b{re.escape(row)}(s|es)?\b", text)]
        assert not named, f"{path.name}: the description names {named}, which no group of the file has"


def test_every_row_of_every_table_is_suggested_when_typed_in_the_wrong_case():
    from simlab.inputs.errors import UnknownNameError
    from simlab.systems import all_systems

    for system in all_systems():
        for table in system.tables().values():
            for row in table:
                typed = str(row.name).swapcase()
                if typed == str(row.name):
                    continue  # no letters to mistype
                with pytest.raises(UnknownNameError, match=f"did you mean {re.escape(repr(str(row.name)))}"):
                    table.row(typed)


def test_a_misspelt_armour_is_blamed_on_the_side_that_wears_it():
    """An attack reads the shooter's weapon and the target's armour: the armour's mistake is the target's."""
    from simlab.api import battle, duel
    from simlab.inputs.errors import SimlabError

    with pytest.raises(SimlabError, match=r"^side A: unknown armor 'Cloth'"):
        duel("striker", a={"weapon": "rifle", "armor": "Cloth"}, b={"weapon": "rifle"}, trials=10)
    with pytest.raises(SimlabError, match=r"a\.groups\.0\.armor: unknown armor 'flak jaket'"):
        battle("striker", FIRETEAM, changes={"a.groups.0.armor": "flak jaket"}, trials=10)
