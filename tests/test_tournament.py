"""Tournaments: the score matrix, dominated options, the equilibrium mix and its stability, strengths."""

import numpy as np
import pytest

from simlab.balance.games import equilibrium
from simlab.balance.setup import Setup
from simlab.balance.strengths import strengths
from simlab.balance.tournament import Tournament, dominated, equilibrium_stability, resampled, tournament, worth

SHIPS = ["scout", "free trader", "far trader", "yacht", "patrol cruiser", "mercenary cruiser", "frigate", "cruiser"]


def game(score, half=0.01, names="abc"):
    score = np.asarray(score, dtype=float)
    return Tournament(tuple(names[: len(score)]), score, np.full(score.shape, half), 1000, 7)


def test_rock_paper_scissors_has_the_uniform_mix_and_nothing_dominated():
    rps = game([[0.5, 0.9, 0.1], [0.1, 0.5, 0.9], [0.9, 0.1, 0.5]])
    np.testing.assert_allclose(equilibrium(rps.score), [1 / 3] * 3, atol=1e-9)
    assert dominated(rps) == []
    _, share = equilibrium_stability(rps)
    assert (share == 1.0).all()  # every resample keeps all three in the mix


def test_an_option_beaten_everywhere_is_dominated_and_never_in_the_mix():
    score = [[0.5, 0.6, 0.9], [0.4, 0.5, 0.8], [0.1, 0.2, 0.5]]
    ordered = game(score)
    assert dominated(ordered) == [(1, 0), (2, 0), (2, 1)]  # every option that dominates another
    mix, share = equilibrium_stability(ordered)
    assert mix.tolist() == [1.0, 0.0, 0.0] and share[1] == share[2] == 0.0
    s = strengths(ordered.score)
    assert s[0] > s[1] > s[2] and abs(s.mean()) < 1e-12


def test_the_shipped_ships_fight_every_pair_fairly_on_the_same_streams_spc_7():
    setup = Setup("space_v4", "duel", trials=400, seed=1)
    result = tournament(setup, [{"ship": ship} for ship in SHIPS[:4]], SHIPS[:4])
    np.testing.assert_allclose(result.score + result.score.T, 1.0)
    assert result.to_json() == tournament(setup, [{"ship": ship} for ship in SHIPS[:4]], SHIPS[:4]).to_json()


def test_a_tournament_needs_duels_and_two_different_options():
    from simlab.inputs.errors import SimlabError

    with pytest.raises(SimlabError, match="a tournament fights duels or battles"):
        tournament(Setup("space_v4", "attack", exact=True), [{"ship": "scout"}, {"ship": "yacht"}])
    with pytest.raises(SimlabError, match="two options of the tournament are the same"):
        tournament(Setup("space_v4", "duel", trials=100), [{"ship": "scout"}, {"ship": "scout"}])


def test_worth_fits_strength_on_price_and_names_the_bargain():
    score = [[0.5, 0.7, 0.9, 0.8], [0.3, 0.5, 0.7, 0.6], [0.1, 0.3, 0.5, 0.4], [0.2, 0.4, 0.6, 0.5]]
    priced = Tournament(tuple("abcd"), np.asarray(score), np.full((4, 4), 0.01), 1000, 7, (), (40.0, 20.0, 10.0, 10.0))
    rows = {w["option"]: w for w in worth(priced)}
    assert rows["d"]["residual"] > 0 > rows["c"]["residual"]  # same price, d the stronger: the bargain
    assert rows["d"]["fair_cost"] > 10.0 > rows["c"]["fair_cost"]
    low, high = rows["a"]["strength_ci95"]
    assert low <= rows["a"]["strength"] <= high


#: A rock-paper-scissors game of Striker rows (STR-4.2): each weapon wounds one armour and not the other.
#: The heavy slug beats the laser's armour, the laser the thick slab, the light slug the reflec coat.
STRIKER_RPS = {
    "heavy slug, reflec coat": {"weapon": "rifle", "weapon.blowthrough": "18mm", "weapon.pen": 40,
                                "armor": "none", "armor.av": 0, "armor.av_laser": 40},
    "laser, plate": {"weapon": "laser rifle", "weapon.pen": 20, "armor": "none", "armor.av": 30,
                     "armor.av_laser": 0},
    "light slug, slab": {"weapon": "rifle", "weapon.blowthrough": "18mm", "weapon.pen": 20,
                         "armor": "none", "armor.av": 60, "armor.av_laser": 0},
}  # fmt: skip


def test_a_striker_rock_paper_scissors_has_the_uniform_mix_within_the_sampling_error_str_4_2():
    result = tournament(Setup("striker", "duel", trials=2000, seed=3), list(STRIKER_RPS.values()), list(STRIKER_RPS))
    assert dominated(result) == []
    assert all(result.score[i, (i + 1) % 3] > 0.9 for i in range(3))  # each beats the next
    mix, share = equilibrium_stability(result)
    spread = np.array([equilibrium(matrix) for matrix in resampled(result)])
    low, high = np.percentile(spread, [2.5, 97.5], axis=0)
    assert (low <= 1 / 3).all() and (high >= 1 / 3).all() and (share == 1.0).all()
    np.testing.assert_allclose(mix, 1 / 3, atol=0.02)


def test_an_even_battle_says_what_one_enemy_figure_is_worth_eng_1(capsys):
    from conftest import run_cli

    battle = "experiments/battles/striker_fireteam.toml"
    code, out, _ = run_cli(capsys, "solve", "striker", "--battle", battle, "--find", "a.count",
                           "--target", "p_a_wins=0.5", "--in", "1..8", "--trials", "4000")  # fmt: skip
    even = out.splitlines()[1]
    assert code == 0 and even.startswith("An even fight at 3.") and "against 2 machinegunners" in even
    assert "one machinegunner is worth about 1." in even


def test_a_tournament_of_battles_gives_each_loadout_to_both_sides_eng_1():
    from simlab.inputs.battles import load_battle

    battle = load_battle("experiments/battles/striker_fireteam.toml")
    loadouts = {
        "rifles": {"groups.0.weapon": "rifle", "groups.0.mode": "single", "groups.0.count": 3},
        "machineguns": {"groups.0.weapon": "light machinegun", "groups.0.mode": "half_clip", "groups.0.count": 3},
    }
    result = tournament(Setup("striker", "battle", battle=battle, trials=400, seed=1), list(loadouts.values()),
                        list(loadouts))  # fmt: skip
    assert result.fights == "battles" and result.score[1, 0] > 0.8  # three machineguns beat three rifles
    np.testing.assert_allclose(result.score + result.score.T, 1.0)


def test_attacks_against_defenders_give_both_sides_mixes_and_the_dominated_attacks_tft_4():
    from simlab.balance.games import game_mixes, maximin
    from simlab.balance.matchup import dominated_rows, matchup

    pennies = game_mixes(np.array([[1.0, 0.0], [0.0, 1.0]]))  # matching pennies: each side mixes evenly
    np.testing.assert_allclose(pennies[0], 0.5) and np.testing.assert_allclose(pennies[1], 0.5)
    # both rows are sure of 0.2 against the second column; the first does more against the other: it alone
    np.testing.assert_array_equal(maximin(np.array([[0.4, 0.2], [0.15, 0.2]]))[0], [1.0, 0.0])
    weapons, armours = ["assault rifle", "submachinegun", "gauss rifle"], ["none", "flak jacket", "nylon"]
    result = matchup(Setup("hitech_tft", inputs={"range_m": 20}, exact=True), [{"weapon": w} for w in weapons],
                     [{"armor": a} for a in armours], "p_incapacitated", weapons, armours)  # fmt: skip
    assert dominated_rows(result) == [(0, 2), (1, 2)]  # the gauss rifle does better against every armour
    assert result.to_json()["attacker_mix"]["gauss rifle"] == 1.0


def test_simlab_tournament_scores_attacks_against_every_armour_str_4_2(capsys):
    from conftest import run_cli

    args = ["tournament", "striker", "--option", "weapon=rifle", "--option", "weapon=laser carbine", "--option",
            "weapon=shotgun", "--defender", "armor=mesh", "--defender", "armor=cloth + reflec", "--metric",
            "p_incapacitated", "--set", "range_band=medium", "--exact"]  # fmt: skip
    code, out, err = run_cli(capsys, *args)
    lines = out.splitlines()
    assert code == 0, err
    assert lines[0].startswith("The attacker's best mix is the laser carbine alone: the chance to incapacitate is")
    assert "the defender's best answer is the cloth + reflec alone" in lines[0]
    assert lines[1] == ("The laser carbine and the rifle do better than the shotgun against every defender: "
                        "the shotgun is never the better choice.")  # fmt: skip
    code, out, _ = run_cli(capsys, *args, "--json")
    found = __import__("json").loads(out)
    assert found["dominated"] == [{"option": "shotgun", "by": ["rifle", "laser carbine"]}]
    assert found["value_of_the_game"] == pytest.approx(found["value"][0][1])  # the rifle through cloth + reflec
    code, _, err = run_cli(capsys, *args[:-5])  # no --metric, no --exact
    assert code == 2 and "need --metric" in err


def test_a_sampled_matchup_says_how_stable_both_mixes_are():
    from simlab.balance.matchup import matchup
    from simlab.output.balance_sentences import matchup_sentences

    weapons, armours = ["rifle", "laser carbine"], ["mesh", "cloth + reflec"]
    scored = matchup(Setup("striker", inputs={"range_band": "medium"}, trials=4000, seed=2),
                     [{"weapon": w} for w in weapons], [{"armor": a} for a in armours], "p_incapacitated",
                     weapons, armours)  # fmt: skip
    said = matchup_sentences(scored)
    assert said[1].startswith("In the matrix resampled within its sampling error, the laser carbine enters")
    assert scored.to_json()["method"] == "monte_carlo" and scored.half_width.all()


def test_the_python_api_answers_as_the_command_does():
    import simlab

    options = {"rifle": {"weapon": "rifle"}, "shotgun": {"weapon": "shotgun"}}
    scored = simlab.tournament("striker", options=options, defenders={"mesh": {"armor": "mesh"}},
                               metric="p_incapacitated", method="exact")  # fmt: skip
    assert scored.to_json()["attacker_mix"] == {"rifle": 1.0, "shotgun": 0.0}
    with pytest.raises(simlab.SimlabError, match="give one of every and options"):
        simlab.tournament("space_v4")


def test_a_matchup_or_tournament_over_the_cap_of_cells_is_refused_before_the_first():
    from simlab.balance.matchup import matchup
    from simlab.inputs.limits import Limits, TooMuchWorkError

    setup, two = Setup("striker", exact=True), [{"weapon": "rifle"}, {"weapon": "shotgun"}]
    with pytest.raises(TooMuchWorkError, match="the matchup: 4 cells is above the cap of 3; give fewer options"):
        matchup(setup, two, [{"armor": "none"}, {"armor": "mesh"}], "p_hit", ["r", "s"], ["n", "m"],
                limits=Limits(max_cells=3))  # fmt: skip
    with pytest.raises(TooMuchWorkError, match="the tournament: 2 seatings is above the cap of 1"):
        tournament(Setup("striker", "duel", trials=100), two, ["r", "s"], limits=Limits(max_cells=1))


def test_every_draw_counts_half_on_both_seatings_eng_5():
    """A battle's "both out" and "undecided" are draws: each seating scores win + draw / 2 for its own side."""
    from simlab.inputs.battles import load_battle

    setup = Setup("striker", "battle", battle=load_battle("experiments/battles/striker_fireteam.toml"), trials=300,
                  seed=4)  # fmt: skip
    loadouts = [{"groups.0.count": 1}, {"groups.0.count": 2}]
    result = tournament(setup, loadouts, ["one", "two"])

    def seating(first, second):
        sides = {**{f"a.{k}": v for k, v in first.items()}, **{f"b.{k}": v for k, v in second.items()}}
        metrics = setup.answer(sides).metrics
        return metrics["p_a_wins"], metrics["p_b_wins"]

    (a_wins, b_wins), (b_as_a, a_as_b) = seating(*loadouts), seating(*reversed(loadouts))
    expected = ((a_wins + (1 - a_wins - b_wins) / 2) + (a_as_b + (1 - b_as_a - a_as_b) / 2)) / 2
    assert result.score[0, 1] == pytest.approx(expected, abs=1e-12)
    assert 0 < result.half_width[0, 1] < 0.1


def test_bradley_terry_strengths_are_the_converged_maximum_likelihood():
    from scipy.optimize import minimize
    from scipy.special import log_expit

    from simlab.balance.strengths import STRENGTH_CLIP

    rng = np.random.default_rng(5)
    upper = np.triu(rng.uniform(0, 1, (6, 6)), 1)
    upper[0, 1:] = 1.0  # a sweep: read as one fight in a thousand
    score = upper + np.tril(1 - upper.T, -1) + np.eye(6) * 0.5
    clipped = np.clip(score, STRENGTH_CLIP, 1 - STRENGTH_CLIP)
    off = ~np.eye(6, dtype=bool)

    def loss(s):
        return -(clipped * log_expit(s[:, None] - s[None, :]))[off].sum()

    fitted = minimize(loss, np.zeros(6), method="BFGS", options={"gtol": 1e-12}).x
    np.testing.assert_allclose(strengths(score), fitted - fitted.mean(), atol=1e-6)
    np.testing.assert_allclose(strengths(np.stack([score, score.T]))[0], strengths(score), atol=1e-12)


def test_a_tie_is_said_as_a_tie_identical_options_share_the_mix():
    from simlab.balance.games import game_mix
    from simlab.balance.tournament import tournament_mix
    from simlab.output.balance_sentences import tournament_sentences

    twins = game([[0.5, 0.5, 0.8], [0.5, 0.5, 0.8], [0.2, 0.2, 0.5]], names="xyz")
    np.testing.assert_allclose(equilibrium(twins.score), [0.5, 0.5, 0.0], atol=1e-9)
    assert not tournament_mix(twins).unique and tournament_mix(twins).varies == (0, 1)
    assert "the mix is not unique: the x and the y can trade shares" in tournament_sentences(twins)[0]
    attack = game_mix(np.array([[0.3, 0.6], [0.3, 0.6], [0.1, 0.2]]))  # two identical attacks
    np.testing.assert_allclose(attack.mix, [0.5, 0.5, 0.0], atol=1e-9)
    assert game_mix(np.array([[0.4, 0.2], [0.15, 0.2]])).unique  # a tie of value settled by the average: unique


def test_prices_give_a_verdict_only_beyond_the_sampling_error():
    from simlab.output.balance_sentences import tournament_sentences

    score = np.array([[0.5, 0.7, 0.9], [0.3, 0.5, 0.7], [0.1, 0.3, 0.5]])
    line = np.exp(strengths(score))  # priced exactly at the strength's line: every residual 0
    exact = Tournament(tuple("abc"), score, np.zeros((3, 3)), 0, 1, (), tuple(10 * line))
    assert {w["verdict"] for w in worth(exact)} == {"in line"}
    assert "every option is priced in line with its strength" in tournament_sentences(exact)[2]
    falling = Tournament(tuple("abc"), score, np.full((3, 3), 0.01), 1000, 1, (), (10.0, 20.0, 40.0))
    said = tournament_sentences(falling)  # strength falls with price: no fair price, and no crash
    assert "strength does not rise with price here" in said[2]
    assert all(w["fair_cost"] is None and w["verdict"] is None for w in worth(falling))


def test_a_defender_never_replaces_an_attacks_own_input_and_option_values_are_checked(capsys):
    from conftest import run_cli

    base = ["tournament", "striker", "--option", "weapon=rifle", "--metric", "p_incapacitated", "--exact"]
    shotgunner = ["--defender", "shotgunner: weapon=shotgun"]
    code, out, err = run_cli(capsys, *base, "--option", "weapon=laser carbine", *shotgunner)
    assert (code, out) == (2, "") and err.strip().count("\n") == 0
    assert "defender 'shotgunner' sets weapon, which attack 'rifle' sets too" in err
    code, out, err = run_cli(capsys, *base, "--option", "weapon=shotgun;armor=plate", "--against", "armor")
    assert code == 2 and "attack 'shotgun + plate': unknown armor 'plate'" in err
