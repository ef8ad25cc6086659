"""Space Combat V4 end to end: ships (SPC-1), one attack exact against sampled (SPC-8), duels (SPC-7)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np
import pytest
from conftest import Case, chi_square_p, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

import simlab
from simlab.engine.rng import stream_key
from simlab.inputs.errors import SimlabError
from simlab.systems import DuelRequest, get_system
from simlab.systems.space_v4.duel import resolve_duel
from simlab.systems.space_v4.exact import exact_attack
from simlab.systems.space_v4.reference import icepool_applied, numpy_attack_tallies
from simlab.systems.space_v4.resolve import resolve
from simlab.systems.space_v4.rules import BANDS, Rules, Scenario
from simlab.systems.space_v4.sample import attack_tallies
from simlab.systems.space_v4.ships import hull_hits_of, lasers_per_turret, sandcasters_of, ships, turrets_of

SYSTEM = get_system("space_v4")

# --- SPC-1 ships as data ------------------------------------------------------------------------------------

CLASSIC = ("scout", "free trader", "far trader", "yacht", "patrol cruiser", "mercenary cruiser", "frigate", "cruiser")


def test_spc1_the_classic_ships_are_shipped_with_default_toughness():
    table = ships()
    assert tuple(table.rows) == CLASSIC
    for ship in table:
        assert turrets_of(ship), ship.name
        assert hull_hits_of(ship) == ship.tons // 10
        assert ship.crits_to_disable == 3
    assert table.row("frigate").tons == 800 and table.row("cruiser").tons == 1000
    patrol = table.row("patrol cruiser")
    assert sandcasters_of(patrol) == 3 and lasers_per_turret(patrol) == [3]


def test_spc8_named_ships_fill_the_blank_inputs():
    resolved = resolve(Scenario(weapon="missile", attacker="patrol cruiser", defender="mercenary cruiser"), Rules())
    s = resolved.scenario
    assert (s.count, s.attacker_computer, s.attacker_g) == (6, 3, 4)
    assert (s.defender_computer, s.defender_g, s.defender_tons, s.defender_sandcasters) == (3, 3, 800, 6)
    assert s.pd_turrets == "3,3,3,3"
    given_inputs = resolve(Scenario(weapon="beam", attacker="scout", count=2, attacker_computer=4), Rules()).scenario
    assert (given_inputs.count, given_inputs.attacker_computer) == (2, 4)


def test_spc8_ship_columns_can_be_overridden_and_ad_hoc():
    resolved = resolve(Scenario(weapon="beam", attacker="scout"), Rules(), {"attacker": {"computer": "5"}})
    assert resolved.scenario.attacker_computer == 5
    ad_hoc = {"defender": {"name": "drone", "tons": "50", "g": "6", "computer": "2", "turrets": "beam+beam"}}
    resolved = resolve(Scenario(weapon="missile", count=2), Rules(), ad_hoc)
    assert resolved.scenario.defender_g == 6 and resolved.scenario.pd_turrets == "2"


@pytest.mark.parametrize(
    ("inputs", "overrides", "message"),
    [
        ({"attacker": "scot"}, {}, "unknown ship 'scot'.*scout"),
        ({"weapon": "missile", "attacker": "yacht"}, {}, "ship 'yacht' mounts no missile: set count"),
        ({"attacker": "scout"}, {"attacker": {"turrets": "beam+laser"}}, "'laser' .* is not a turret weapon"),
        ({}, {"ship": {"g": "2"}}, "one attack takes attacker.COLUMN and defender.COLUMN"),
        ({"pd_turrets": "3;2", "weapon": "missile"}, {}, "pd_turrets: '3;2'"),
    ],
)
def test_spc8_bad_inputs_name_what_is_valid(inputs, overrides, message):
    with pytest.raises(SimlabError, match=message):
        resolve(Scenario(**inputs), Rules(), overrides)


# --- SPC-8 one attack: exact against sampled on a registry -------------------------------------------------


#: Sand levels: none, -1 and -2 by sandcasters per 200 tons, and the literal +1.
SAND_LEVELS = (
    ({}, {}),
    ({"sand": "true", "defender_sandcasters": 1}, {}),
    ({"sand": "true", "defender_sandcasters": 2}, {}),
    ({"sand": "true", "defender_sandcasters": 2}, {"sand_dm": "plus_one"}),
)
#: Point-defence layouts: none, one laser, a triple and a double turret, three doubles; held back or not.
PD_LAYOUTS = (
    {},
    {"pd_turrets": "1"},
    {"pd_turrets": "3,2", "pd_dedicated": "true"},
    {"pd_turrets": "2,2,2", "defender_computer": 3},
)


def registry() -> list[Case]:
    """Every weapon type at every band it reaches, with every sand level or point-defence layout."""
    cases = []
    counts = itertools.cycle([1, 3, 2, 6])
    for weapon in ("beam", "pulse", "missile", "nuclear"):
        for band in BANDS:
            laser = weapon in ("beam", "pulse")
            base_rules = {} if laser else {"missiles_beyond_very_long": "true"}
            for extra, rules in SAND_LEVELS if laser else [(layout, {}) for layout in PD_LAYOUTS]:
                inputs = {"weapon": weapon, "range_band": band, "count": next(counts), **extra}
                cases.append(Case(inputs, {**base_rules, **rules}))
    cases += [
        Case({"weapon": "beam", "attacker": "cruiser", "defender": "frigate", "sand": "true", "gunner_bonus": "true"}),
        Case({"weapon": "missile", "attacker": "frigate", "defender": "patrol cruiser", "engineer_bonus": "true"}),
        Case({"weapon": "nuclear", "attacker": "cruiser", "defender": "mercenary cruiser"}, {"pd_computer_dm": -2}),
        Case({"weapon": "missile", "count": 4, "pd_turrets": "3,1"}, {"grouping": "per_weapon"}),
        Case({"weapon": "pulse", "count": 6, "range_band": "very_short"}, {"fraction_rounding": "nearest"}),
        Case({"weapon": "nuclear", "count": 3, "range_band": "very_short"}, {"crit_accounting": "cumulative"}),
        Case({"weapon": "beam", "count": 12, "attacker_g": 4}, {"natural_rules": "true", "grouping": "per_weapon"}),
    ]
    return cases


REGISTRY = registry()


def test_the_registry_covers_every_weapon_band_sand_level_and_pd_layout():
    seen = {(c.scenario["weapon"], c.scenario.get("range_band")) for c in REGISTRY}
    assert {w for w, _ in seen} == {"beam", "pulse", "missile", "nuclear"}
    assert {b for _, b in seen} >= set(BANDS)
    assert {c.scenario.get("pd_turrets") for c in REGISTRY} >= {"1", "3,2", "2,2,2"}
    assert {
        (c.scenario.get("defender_sandcasters"), c.rules.get("sand_dm")) for c in REGISTRY if "sand" in c.scenario
    } >= {
        (1, None),
        (2, None),
        (2, "plus_one"),
    }


def attack_json(capsys: pytest.CaptureFixture[str], case: Case, *method: str) -> dict[str, Any]:
    code, out, err = run_cli(capsys, "attack", "space_v4", *case.options(), *method, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("case", REGISTRY, ids=[c.id for c in REGISTRY])
def test_spc8_exact_agrees_with_sampling(capsys, case):
    exact = attack_json(capsys, case, "--exact")
    sampled = attack_json(capsys, case, "--trials", "200000", "--seed", "3", "--threads", "1")
    assert exact["not_exact"] == []
    series = {name for name in exact["metrics"] if name.startswith("mean_applied_margin_")}
    assert set(exact["metrics"]) - series == set(SYSTEM.attack.metrics)
    assert set(sampled["metrics"]) == set(exact["metrics"])
    for name, value in exact["metrics"].items():
        low, high = sampled["ci95"][name]
        slack = (high - low) * 0.6 + 1e-12  # a 99.99 % interval: ~2 of 3.9 half-widths beyond the 95 % one
        assert low - slack <= value <= high + slack, (name, value, (low, high))
    outcomes = sorted(
        int(v) for v in {**exact["distributions"]["applied_hits"], **sampled["distributions"]["applied_hits"]}
    )
    expected = np.array([exact["distributions"]["applied_hits"].get(str(v), 0.0) for v in outcomes])
    observed = np.array([round(sampled["distributions"]["applied_hits"].get(str(v), 0.0) * 200000) for v in outcomes])
    assert chi_square_p(observed, expected) > 1e-4
    assert sum(exact["distributions"]["applied_hits"].values()) == pytest.approx(1)


@pytest.mark.parametrize(
    ("inputs", "rules"),
    [
        ({"weapon": "missile", "count": 6, "pd_turrets": "3,2,1"}, Rules()),
        ({"weapon": "beam", "count": 5, "engineer_bonus": True}, Rules(grouping="per_weapon")),
        (
            {"weapon": "nuclear", "count": 2, "pd_turrets": "2", "pd_dedicated": True},
            Rules(crit_accounting="cumulative"),
        ),
        ({"weapon": "pulse", "attacker": "mercenary cruiser", "defender": "frigate", "sand": True}, Rules()),
    ],
)
def test_spc8_numpy_twin_and_icepool_oracle(inputs, rules):
    """The numpy twin takes the kernel's very draws; icepool computes the exact distribution independently."""
    attack = resolve(Scenario(**inputs), rules)
    key = stream_key(8, 1)
    for ours, theirs in zip(
        attack_tallies(attack, key, 7, 8_007), numpy_attack_tallies(attack, key, 7, 8_007), strict=True
    ):
        np.testing.assert_array_equal(ours, theirs)
    die = icepool_applied(attack)
    oracle = {int(o): float(die.probability(o)) for o in die.outcomes()}
    assert exact_attack(attack).applied.to_dict() == pytest.approx(oracle, abs=1e-14)


def test_spc8_sampling_is_identical_for_any_thread_count_and_block_size():
    scenario = {"weapon": "missile", "attacker": "frigate", "defender": "cruiser"}
    answers = [
        SYSTEM.attack.answer(_request(scenario, threads=threads, block_size=block))
        for threads, block in ((1, None), (2, None), (2, 3_000))
    ]
    assert answers[0].to_json() == answers[1].to_json() == answers[2].to_json()


def _request(scenario: dict[str, Any], **options: Any) -> Any:
    from simlab.systems import ScenarioRequest

    return ScenarioRequest(scenario=scenario, method="monte_carlo", trials=50_000, seed=9, **options)


@settings(max_examples=40, deadline=None)
@given(
    weapon=st.sampled_from(["beam", "pulse", "missile", "nuclear"]),
    count=st.integers(1, 6),
    computer=st.integers(0, 5),
    g=st.integers(0, 5),
    lasers=st.integers(0, 4),
)
def test_spc8_properties(weapon, count, computer, g, lasers):
    """A better computer or drive never lowers the damage; more point defence never raises it."""

    def metrics(**changes: Any) -> dict[str, float]:
        inputs = {"weapon": weapon, "count": count, "attacker_computer": computer, "attacker_g": g,
                  "pd_turrets": ",".join(["1"] * lasers), **changes}  # fmt: skip
        exact = exact_attack(resolve(Scenario(**inputs), Rules()))
        assert exact.applied.total() == pytest.approx(1)
        return exact.metrics()

    base = metrics()
    for better in (metrics(attacker_computer=computer + 1), metrics(attacker_g=g + 1)):
        assert better["p_hit"] >= base["p_hit"] - 1e-12
        assert better["mean_applied_hits"] >= base["mean_applied_hits"] - 1e-12
    more_pd = metrics(pd_turrets=",".join(["1"] * (lasers + 1)))
    assert more_pd["mean_applied_hits"] <= base["mean_applied_hits"] + 1e-12
    assert 0 <= base["mean_missiles_destroyed"] <= count


# --- SPC-7 duels -------------------------------------------------------------------------------------------


def duel_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run_cli(capsys, "duel", "space_v4", *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("ship", ["scout", "patrol cruiser", "mercenary cruiser"])
def test_spc7_a_duel_of_identical_ships_is_symmetric_and_thread_independent(capsys, ship):
    args = ("--a", f"ship={ship}", "--b", f"ship={ship}", "--trials", "20000", "--seed", "4")
    one = duel_json(capsys, *args, "--threads", "1")
    two = duel_json(capsys, *args, "--threads", "2")
    assert one == two
    m, ci = one["metrics"], one["ci95"]
    half = (ci["p_a_wins"][1] - ci["p_a_wins"][0] + ci["p_b_wins"][1] - ci["p_b_wins"][0]) / 2
    assert abs(m["p_a_wins"] - m["p_b_wins"]) <= half
    assert m["p_a_wins"] + m["p_b_wins"] + m["p_draw"] == pytest.approx(1)
    assert ci["p_a_first"][0] <= 0.5 <= ci["p_a_first"][1]


def duel_metrics(a: dict[str, Any], b: dict[str, Any], trials: int = 4_000, **rules: Any) -> dict[str, float]:
    request = DuelRequest(a=a, b=b, rules=rules, trials=trials, seed=1, threads=1)
    return SYSTEM.questions["duel"].answer(request).metrics


def test_spc7_a_cruiser_beats_a_scout_and_an_unarmed_ship_never_wins():
    lopsided = duel_metrics({"ship": "cruiser"}, {"ship": "scout"})
    assert lopsided["p_a_wins"] > 0.95
    unarmed = DuelRequest(a={"ship": "yacht"}, b={"ship": "far trader"}, a_rows={"ship": {"turrets": "sandcaster"}},
                          trials=2_000, seed=1, threads=1)  # fmt: skip
    metrics = SYSTEM.questions["duel"].answer(unarmed).metrics
    assert metrics["p_a_wins"] == 0 and metrics["mean_hits_on_b"] == 0


def test_spc7_a_faster_ship_that_opens_the_range_escapes_into_a_draw():
    start = {"ship": "patrol cruiser", "start_band": "very_long"}
    running = duel_metrics({**start, "range_policy": "open"}, {"ship": "free trader"}, max_turns=20)
    assert running["p_draw"] > 0.5
    holding = duel_metrics(start, {"ship": "free trader"}, max_turns=20)
    assert holding["p_a_wins"] > running["p_a_wins"]


def test_spc7_magazines_limit_the_missiles_spent():
    metrics = duel_metrics({"ship": "scout", "start_band": "very_long"}, {"ship": "scout"})
    assert 0 < metrics["mean_missiles_a"] <= 6 and 0 < metrics["mean_missiles_b"] <= 6


def test_spc43_cumulative_crits_shorten_duels_of_big_ships():
    per_attack = duel_metrics({"ship": "frigate"}, {"ship": "frigate"}, trials=2_000)
    cumulative = duel_metrics({"ship": "frigate"}, {"ship": "frigate"}, trials=2_000, crit_accounting="cumulative")
    assert cumulative["mean_turns"] < per_attack["mean_turns"]


def test_spc52_holding_lasers_back_saves_hits_from_missiles():
    target = {"ship": "patrol cruiser"}
    hold = duel_metrics({"ship": "frigate", "range_policy": "hold"}, {**target, "pd_hold": 3}, trials=3_000)
    fire = duel_metrics({"ship": "frigate", "range_policy": "hold"}, target, trials=3_000)
    assert hold["mean_hits_on_a"] < fire["mean_hits_on_a"]  # the held lasers do not fire back


@pytest.mark.parametrize(
    ("a", "b", "rows", "message"),
    [
        ({}, {"ship": "scout"}, {}, "--a ship: name a ship"),
        ({"ship": "scout", "start_band": "very_short"}, {"ship": "scout", "start_band": "typical"}, {}, "start_band"),
        ({"ship": "scout", "range_policy": "flee"}, {"ship": "scout"}, {}, "range_policy"),
        ({"ship": "scout"}, {"ship": "scout"}, {"attacker": {"g": "2"}}, "ship.COLUMN overrides only"),
    ],
)
def test_spc7_bad_duel_inputs(a, b, rows, message):
    with pytest.raises(SimlabError, match=message):
        resolve_duel(a, b, Rules(), (rows, {}))


def test_spc7_the_python_api_asks_duels_as_the_command_line_does(capsys):
    import simlab

    ours = simlab.duel("space_v4", a={"ship": "scout", "ship__computer": 3}, b={"ship": "yacht"}, trials=5_000, seed=2)
    cli = duel_json(capsys, "--a", "ship=scout", "--a", "ship.computer=3", "--b", "ship=yacht",
                    "--trials", "5000", "--seed", "2")  # fmt: skip
    assert ours.to_json() == cli
    assert cli["scenario"]["a"]["ship.computer"] == 3


def test_spc_7_the_faster_ship_moves_the_range_at_the_end_of_every_ships_turn():
    """A fast pulse-laser yacht closing from extreme range reaches pulse range twice as fast."""
    a = {"ship": "yacht", "ship__g": 6, "ship__hull_hits": 1000, "range_policy": "close", "start_band": "extreme"}
    b = {"ship": "free trader", "ship__hull_hits": 1000}

    def hits_on_b(reading):
        result = simlab.duel("space_v4", a=a, b=b, trials=4000, rules={"range_moves": reading, "max_turns": 4})
        return result.metrics["mean_hits_on_b"], result.ci95["mean_hits_on_b"]

    (every, (low, _)), (own, (_, high)) = hits_on_b("every_turn"), hits_on_b("faster_turn_only")
    assert every > own and low > high


def test_spc_3_2_the_chief_gunners_plus_one_goes_to_one_roll_only():
    """With grouping = per_weapon, nine beams: the first roll has +1, the other eight do not."""

    def mean_hits(count, gunner, method="exact"):
        inputs = {"weapon": "beam", "count": count, "gunner_bonus": gunner, "defender_tons": 2000}
        result = simlab.attack("space_v4", method=method, trials=200_000, rules={"grouping": "per_weapon"}, **inputs)
        return result.metrics["mean_applied_hits"], result.ci95.get("mean_applied_hits")

    nine = mean_hits(9, True)[0]
    assert nine == pytest.approx(mean_hits(1, True)[0] + 8 * mean_hits(1, False)[0], abs=1e-12)
    assert nine < 9 * mean_hits(1, True)[0]
    _, (low, high) = mean_hits(9, True, "monte_carlo")
    assert low <= nine <= high


def test_spc_3_1_natural_thresholds_are_rules():
    """With natural_rules, naturals at or above natural_hit_min always hit, at or below natural_miss_max miss."""
    from simlab.systems.space_v4.resolve import hit_by_natural
    from simlab.systems.space_v4.rules import Rules as SpaceRules

    hit, _ = hit_by_natural(-20, SpaceRules(natural_rules=True, natural_hit_min=10))
    assert [bool(hit[n]) for n in range(2, 13)] == [False] * 8 + [True] * 3
    hit, _ = hit_by_natural(20, SpaceRules(natural_rules=True, natural_miss_max=3))
    assert [bool(hit[n]) for n in range(2, 13)] == [False] * 2 + [True] * 9
    hit, _ = hit_by_natural(-20, SpaceRules(natural_hit_min=10))  # the reading off: no natural rule
    assert not hit.any()
