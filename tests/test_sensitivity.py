"""simlab sensitivity: Morris screening, then Sobol shares, ranked as the exact variance shares are."""

import itertools
import json
import sys

import numpy as np
import pytest
from conftest import run_cli

import simlab
from simlab.balance.sensitivity import parse_factor, sensitivity
from simlab.balance.setup import Setup
from simlab.inputs.battles import load_battle

FACTORS = {
    "skill": range(0, 5),
    "range_band": ("short", "medium", "long", "extreme"),
    "cover": ("none", "partial", "full"),
}
VARY = ["--vary", "skill=0..4", "--vary", "range_band=short,medium,long,extreme", "--vary", "cover=none,partial,full"]


def exact_shares() -> dict[str, tuple[float, float]]:
    """First-order and total variance shares of the Striker chance to hit over the full grid (STR-2.1 to STR-2.3)."""
    grid = [dict(zip(FACTORS, values, strict=True)) for values in itertools.product(*FACTORS.values())]
    chances = np.array([simlab.attack("striker", weapon="rifle", **cell).metrics["p_hit"] for cell in grid])
    cube = chances.reshape([len(v) for v in FACTORS.values()])
    total = cube.var()
    shares = {}
    for axis, name in enumerate(FACTORS):
        others = tuple(a for a in range(cube.ndim) if a != axis)
        shares[name] = (cube.mean(axis=others).var() / total, 1 - cube.mean(axis=axis).var() / total)
    return shares


def test_striker_hit_chance_factors_rank_as_their_exact_variance_shares_str_2(capsys, tmp_path):
    exact = exact_shares()
    chart = tmp_path / "ranking.png"
    code, out, err = run_cli(capsys, "sensitivity", "striker", "--set", "weapon=rifle", *VARY, "--metric", "p_hit",
                             "--exact", "--json", "--chart", str(chart))  # fmt: skip
    assert code == 0 and err.startswith("sensitivity: up to 1,360 points (exact)")
    ranking = json.loads(out)["ranking"]
    assert [e["name"] for e in ranking] == sorted(exact, key=lambda n: -exact[n][1])  # by total share
    assert sorted(ranking, key=lambda e: -e["s1"]) == sorted(ranking, key=lambda e: -exact[e["name"]][0])
    for effect in ranking:
        first, total = exact[effect["name"]]
        assert abs(effect["s1"] - first) <= effect["s1_conf"] and abs(effect["st"] - total) <= effect["st_conf"]
    assert chart.read_bytes().startswith(b"\x89PNG")  # the ranking in words: the guide's example (docs/guide)


def test_a_sampled_battle_sensitivity_is_the_same_for_the_same_seed_and_names_counts_in_words():
    setup = Setup("striker", "battle", battle=load_battle("experiments/battles/striker_fireteam.toml"),
                  trials=500, seed=3)  # fmt: skip
    factors = [parse_factor(setup, text) for text in ("a.count=2..6", "b.suppressors=0..2")]
    first, again = (sensitivity(setup, "p_a_wins", factors, trajectories=4, base=16) for _ in range(2))
    assert first.to_json() == again.to_json()
    from simlab.output.balance_sentences import sensitivity_sentences
    from simlab.output.words import Vocabulary

    said = sensitivity_sentences(first, Vocabulary(battle=setup.battle))
    assert said[0].startswith("The number of ") and "moves the fireteam's chance to win most" in said[0]
    assert "then the number of " in said[0]  # riflemen, suppressing machinegunners: counts in words


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "skill=0..4"], "error: --vary: give at least two factors to rank"),
        (["--vary", "skill=0..4", "--vary", "cover=none,nope"], "error: unknown --vary cover 'nope'"),
        (["--vary", "skill=0..4", "--vary", "cover=none"], "error: --vary cover: give at least two different values"),
        (["--vary", "skill", "--vary", "cover=none,full"], "error: invalid value 'skill' for --vary"),
        (["--vary", "skill=0..4", "--vary", "cover=none,full", "--base", "100"], "error: invalid value 100 for --base"),
        (
            ["--vary", "skill=0..4", "--vary", "cover=none,full", "--trials", "5000", "--max-trials", "100000"],
            "error: the sensitivity (1,084 points): 5,420,000 trials is above the cap of 100,000",
        ),
    ],
)
def test_a_bad_sensitivity_is_refused_in_one_line_before_it_starts(capsys, args, message):
    if "--trials" not in args:
        args = [*args, "--exact"]
    code, out, err = run_cli(capsys, "sensitivity", "striker", "--set", "weapon=rifle", "--metric", "p_hit", *args)
    lines = [line for line in err.strip().splitlines() if not line.startswith("sensitivity: up to")]
    assert code == 2 and out == "" and lines[0].startswith(message), err
    assert len(lines) == 1


def test_without_salib_the_command_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "SALib", None)
    code, _, err = run_cli(
        capsys, "sensitivity", "striker", "--set", "weapon=rifle", *VARY, "--metric", "p_hit", "--exact"
    )
    assert code == 2 and "simlab sensitivity needs SALib, a dependency of simlab: pip install SALib" in err
