"""simlab solve: the value at which a metric reaches a target, exact and sampled (common random numbers)."""

import json

import pytest
from conftest import run_cli

import simlab
from simlab.balance.setup import Setup
from simlab.balance.solve import Goal, NoCrossingError, solve
from simlab.balance.unknowns import find_unknown
from simlab.inputs.battles import load_battle
from simlab.inputs.errors import SimlabError
from simlab.systems import get_system

RIFLE_AT_20 = ["--set", "weapon=assault rifle", "--set", "armor=flak jacket", "--set", "range_m=20"]
FIRETEAM = "experiments/battles/striker_fireteam.toml"


def test_exact_solve_gives_the_lowest_dx_reaching_the_target_with_the_exact_table_on_both_sides(capsys):
    code, out, _ = run_cli(capsys, "solve", "hitech_tft", *RIFLE_AT_20, "--find", "dx", "--target", "p_hit=0.75",
                           "--in", "6..20", "--exact", "--json")  # fmt: skip
    assert code == 0
    found = json.loads(out)["crossings"]
    assert len(found) == 1 and found[0]["value"] == 15 and found[0]["direction"] == "rises"
    for side, dx in (("before", 14), ("after", 15)):
        exact = simlab.attack("hitech_tft", weapon="assault rifle", armor="flak jacket", range_m=20, dx=dx)
        assert found[0][side]["value"] == dx and found[0][side]["metric"] == exact.metrics["p_hit"]
    assert found[0]["before"]["metric"] < 0.75 <= found[0]["after"]["metric"]
    code, out, _ = run_cli(capsys, "solve", "hitech_tft", *RIFLE_AT_20, "--find", "dx", "--target", "p_hit=0.75",
                           "--in", "6..20", "--exact")  # fmt: skip
    assert out.startswith("DX 15 is the lowest DX for which the chance to hit reaches 0.75: 0.8380; DX 14: 0.7407.")


def test_sampled_solve_finds_the_riflemen_that_beat_two_gunners_with_intervals_eng_1(capsys):
    code, out, _ = run_cli(capsys, "solve", "striker", "--battle", FIRETEAM, "--find", "a.count",
                           "--target", "p_a_wins=0.75", "--in", "1..8", "--trials", "20000", "--json")  # fmt: skip
    assert code == 0
    (answer,) = json.loads(out)["crossings"]
    assert answer["value"] == 4 and answer["ci95"] == [4, 4]
    three, four = answer["before"], answer["after"]
    assert three["value"] == 3 and three["ci95"][1] < 0.75 and four["value"] == 4 and four["ci95"][0] > 0.75
    code, out, _ = run_cli(capsys, "solve", "striker", "--battle", FIRETEAM, "--find", "a.count",
                           "--target", "p_a_wins=0.75", "--in", "1..8", "--trials", "20000")  # fmt: skip
    assert out.startswith("4 riflemen are the fewest for which the fireteam's chance to win reaches 0.75: 0.84")


def test_the_same_seed_gives_the_same_search_and_the_values_share_their_streams():
    setup = Setup("striker", "battle", battle=load_battle(FIRETEAM), trials=5000, seed=7)
    unknown = find_unknown(get_system("striker"), setup.question, "a.count", "1..8")
    first, again = (solve(setup, unknown, Goal("p_a_wins", 0.75)) for _ in range(2))
    assert first.to_json() == again.to_json()


def test_the_sampled_interval_covers_the_exact_answer_in_at_least_90_of_100_seeds():
    """Coverage of the inverted intervals, on a target 0.002 under the exact chance at DX 14 (the answer)."""
    inputs = {"weapon": "assault rifle", "armor": "flak jacket", "range_m": 20}
    target = simlab.attack("hitech_tft", dx=14, **inputs).metrics["p_hit"] - 0.002
    exact = Setup("hitech_tft", inputs=inputs, exact=True)
    unknown = find_unknown(get_system("hitech_tft"), exact.question, "dx", "12..16")
    assert solve(exact, unknown, Goal("p_hit", target)).answer.value == 14
    covered = missed_by_the_estimate = 0
    for seed in range(100):
        sampled = Setup("hitech_tft", inputs=inputs, trials=4000, seed=seed, threads=1)
        answer = solve(sampled, unknown, Goal("p_hit", target)).answer
        low, high = answer.interval or (0, 0)
        covered += low <= 14 <= high
        missed_by_the_estimate += answer.value != 14
    assert covered >= 90
    assert missed_by_the_estimate >= 10  # the estimate alone often misses: the interval is what covers


def test_a_metric_that_is_not_monotone_is_said_so_with_every_crossing(capsys):
    """Tyconian aimed fire (TYC-2.3, TYC-3.2): a second aim point costs a shot, a third buys it back."""
    code, out, _ = run_cli(capsys, "solve", "tyconian", "--set", "weapon=revolver", "--set", "plan=aimed",
                           "--set", "skill=6", "--find", "aim", "--target", "mean_hits=1.62", "--in", "1..3",
                           "--exact", "--json")  # fmt: skip
    solution = json.loads(out)
    assert code == 0 and solution["shape"] == "not monotone"
    assert [(c["direction"], c["value"]) for c in solution["crossings"]] == [("falls", 2), ("rises", 3)]


def test_no_crossing_is_one_line_with_the_metrics_range_and_exit_status_1(capsys):
    code, out, err = run_cli(capsys, "solve", "striker", "--set", "weapon=rifle", "--find", "natural_hit_min",
                             "--target", "p_hit=0.3", "--in", "2..13", "--exact")  # fmt: skip
    assert code == 1 and out == ""
    assert err.startswith("no crossing: p_hit never crosses 0.3 over natural_hit_min 2..13: it runs from 0.5")
    assert len(err.strip().splitlines()) == 1


def test_a_rule_parameter_and_a_real_unknown_are_solved_str_2_1_tft_2_2():
    rule = simlab.solve("striker", find="natural_hit_min", within="2..13", target="p_hit=0.9", weapon="rifle",
                        range_band="long")  # fmt: skip
    assert rule.unknown.rule and rule.answer.before.value > 0.9 >= rule.answer.after.value
    real = simlab.solve("hitech_tft", find="range_m", within=(1, 200), target=("p_hit", 0.5), weapon="assault rifle")
    assert not real.unknown.whole and not real.answer.rises
    assert real.answer.before.value > 0.5 >= real.answer.after.value
    assert real.answer.after.x - real.answer.before.x <= 199 * 1e-4


def test_equal_makes_two_weapons_equal_by_a_column_of_one_with_a_paired_interval(capsys):
    args = [
        "solve",
        "hitech_tft",
        "--set",
        "armor=flak jacket",
        "--set",
        "range_m=40",
        "--find",
        "weapon.dice",
        "--equal",
        "mean_damage",
        "--a",
        "weapon=assault rifle",
        "--b",
        "weapon=gauss rifle",
        "--in",
        "1..12",
    ]
    code, out, _ = run_cli(capsys, *args, "--exact", "--json")
    (exact,) = json.loads(out)["crossings"]
    assert code == 0 and exact["before"]["gap"] < 0 <= exact["after"]["gap"]
    assert exact["after"]["other"] == simlab.attack("hitech_tft", weapon="gauss rifle", armor="flak jacket",
                                                    range_m=40).metrics["mean_damage"]  # fmt: skip
    code, out, _ = run_cli(capsys, *args, "--trials", "20000", "--json")
    (sampled,) = json.loads(out)["crossings"]
    low, high = sampled["ci95"]
    assert low <= exact["value"] <= high and json.loads(out)["interval_method"].endswith("(paired)")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--find", "weapon", "--in", "1..3"], "error: --find weapon: the input takes text"),
        (["--find", "dx", "--in", "20..6"], "error: invalid value '20..6' for --in: expected LOW..HIGH with LOW below"),
        (["--find", "dx", "--in", "6..x"], "error: invalid value '6..x' for --in: expected LOW..HIGH"),
        (["--find", "dx", "--in", "6.5..20"], "error: --find dx takes whole numbers"),
        (["--find", "dx", "--in", "6..200"], "error: --in 6..200: dx takes an integer from 0 to 99"),
        (["--find", "dx", "--in", "6..20", "--target", "p_nope=1"], "error: unknown metric of attack 'p_nope'"),
        (["--find", "dx", "--in", "6..20", "--target", "p_hit"], "error: invalid value 'p_hit' for --target"),
        (["--find", "dx", "--in", "6..20", "--tol", "0.5"], "error: --tol sets the precision of a real unknown"),
        (["--find", "range_m", "--in", "0..100", "--tol", "nan"], "error: invalid value 'nan' for --tol"),
        (["--find", "range_m", "--in", "0..100", "--tol", "200"], "error: invalid value '200' for --tol: expected a"),
        (["--find", "dx", "--in", "6..20", "--target", "p_hit=inf"], "error: invalid value 'p_hit=inf' for --target"),
    ],
)
def test_a_bad_search_is_refused_in_one_line(capsys, args, message):
    extra = [] if "--target" in args else ["--target", "p_hit=0.5"]
    code, out, err = run_cli(capsys, "solve", "hitech_tft", "--set", "weapon=assault rifle", *args, *extra, "--exact")
    assert code == 2 and out == "" and err.startswith(message), err
    assert len(err.strip().splitlines()) == 1


def test_a_sampled_search_is_capped_before_it_starts():
    with pytest.raises(SimlabError, match=r"the search \(up to \d+ values tried\): .* above the cap of 1,000"):
        setup = Setup("hitech_tft", inputs={"weapon": "assault rifle"}, trials=1000)
        unknown = find_unknown(get_system("hitech_tft"), setup.question, "dx", "6..20")
        from simlab.inputs.limits import Limits

        solve(setup, unknown, Goal("p_hit", 0.5), limits=Limits(max_trials=1000))
    with pytest.raises(NoCrossingError):
        solve(Setup("hitech_tft", inputs={"weapon": "assault rifle"}, exact=True), unknown, Goal("p_hit", 2.0))


@pytest.mark.parametrize(("target", "within", "answer"), [(0.5, "6..20", 10), (0.375, "9..12", 9), (0.375, "4..9", 9),
                                                          (0.625, "6..11", 11)])  # fmt: skip
def test_an_exact_metric_that_hits_the_target_exactly_reaches_it_at_any_place_in_the_range_tft_2_1(
    capsys, target, within, answer
):
    """3d6 sums are fractions of 216 whose floating-point sums round (108/216 as 0.4999999999999999)."""
    given = ["--set", "weapon=assault rifle", "--set", "range_m=1", "--find", "dx", "--target", f"p_hit={target}"]
    code, out, err = run_cli(capsys, "solve", "hitech_tft", *given, "--in", within, "--exact", "--json")
    assert code == 0, err
    assert json.loads(out)["crossings"][0]["value"] == answer


def test_a_real_answer_is_bisected_to_its_precision_and_said_with_its_bracket_tft_2_2(capsys):
    args = ["solve", "hitech_tft", "--set", "weapon=assault rifle", "--set", "dx=12", "--find", "range_m",
            "--target", "p_hit=0.5", "--in", "0..1000000", "--exact"]  # fmt: skip
    code, out, _ = run_cli(capsys, *args, "--tol", "0.01", "--json")
    found = json.loads(out)
    low, high = found["crossings"][0]["bracket"]
    assert code == 0 and found["precision"] == 0.01 and high - low <= 0.01 and low <= 16 < high  # the band's step
    code, out, _ = run_cli(capsys, *args, "--tol", "0.01")
    first = out.splitlines()[0]
    assert "at range 16.004 m (between 15.996 and 16.004 m: bracketed to 0.01)" in first
    assert "(range 15.996 m: 0.6250; range 16.004 m: 0.5000)" in first  # both sides of the step read apart
    code, out, _ = run_cli(capsys, *args, "--json")
    assert json.loads(out)["precision"] == 1.0  # the default: a millionth of the range
