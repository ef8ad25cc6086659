"""Balance experiments (kind = "solve", "sensitivity"): checked like every file, run into the tidy table."""

from pathlib import Path

import pytest
from conftest import run_cli

from simlab.inputs.errors import SimlabError
from simlab.workflow.experiments import load_experiment
from simlab.workflow.runner import run_experiment

SOLVE = """\
name = "dx_for_three_in_four"
system = "hitech_tft"
kind = "solve"
variants = ["{variant}"]

[fixed]
weapon = "assault rifle"
armor = "flak jacket"

[grid]
range_m = [4, 40]

[solve]
find = "dx"
in = "6..20"
target = "p_hit=0.75"
"""


def test_a_solve_experiment_answers_every_cell_and_rule_set_in_the_tidy_table(tmp_path, capsys):
    variant = tmp_path / "v.toml"
    variant.write_text('name = "harder"\nsystem = "hitech_tft"\n[rules]\nautomatic_hit_max = 3\n')
    path = tmp_path / "dx.toml"
    path.write_text(SOLVE.format(variant="v.toml"))
    run = run_experiment(load_experiment(path))
    found = run.table[run.table["metric"] == "found"].set_index(["variant", "range_m"])["value"]
    assert found[("base", 4)] < found[("base", 40)]  # farther off takes more DX (TFT-2.2)
    assert set(run.table["variant"]) == {"base", "harder"} and run.table["ci_low"].isna().all()  # exact
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"), "--jobs", "1")
    report = (tmp_path / "out" / "dx_for_three_in_four" / "report.md").read_text()
    assert code == 0, err
    assert f"- At range 4 m, under the base rules, DX {int(found[('base', 4)])} is the lowest DX" in report


REFLEC = 'reflec = { armor = "reflec" }'
#: A balance experiment of each kind that refuses: a solve, and a matchup of attacks against defenders.
BASES = {
    "solve": SOLVE.replace('variants = ["{variant}"]\n', ""),
    "matchup": Path("experiments/striker_small_arms_against_armour.toml").read_text(),
}


@pytest.mark.parametrize(
    ("base", "change", "message"),
    [
        ("solve", ('find = "dx"', 'find = "weapon"'), "[solve] find: weapon: the input takes text"),
        ("solve", ("range_m = [4, 40]", "dx = [8, 12]"), "[grid] dx: dx is the unknown [solve] searches"),
        ("solve", ('target = "p_hit=0.75"', 'target = "p_hit=0.75"\n[solve.a]\narmor = "none"'),
         "[solve] a: [solve.a] is a setup of equal; a target has one setup"),
        ("solve", ('in = "6..20"', 'in = "6..20"\ntol = 0.1'),
         "[solve] tol: a precision of a real unknown: dx is found to the unit"),
        ("solve", ('find = "dx"\nin = "6..20"', 'find = "range_m"\nin = "0..100"\ntol = -1'),
         "[solve] tol: invalid value '-1': expected a positive number"),
        ("solve", ('in = "6..20"', 'in = "20..6"'),
         "[solve] in: invalid value '20..6': expected LOW..HIGH with LOW below HIGH"),
        ("solve", ('target = "p_hit=0.75"', 'target = "p_nope=0.75"'), "unknown metric of attack 'p_nope'"),
        ("solve", ('target = "p_hit=0.75"', "goal = 1"), "[solve] goal: unknown key 'goal'"),
        ("solve", ('kind = "solve"', 'kind = "solve"\nmethod = "both"'), "a solve is exact or monte_carlo, not both"),
        ("solve", ('kind = "solve"', 'kind = "attack"'), 'solve: [solve] belongs to kind = "solve"'),
        ("matchup", ('metric = "p_incapacitated"', 'metric = "p_nope"'), "unknown metric of attack 'p_nope'"),
        ("matchup", ('metric = "p_incapacitated"', ""), "[tournament] metric: expected the metric the attacker wants"),
        ("matchup", ("[tournament]", '[tournament]\nagainst = "armor"'), 'against = "INPUT" and [tournament.defenders'),
        ("matchup", ("[tournament]", '[tournament]\nevery = "weapon"'), 'every = "INPUT" and [tournament.options]'),
        ("matchup", ("[tournament.defenders]", "[tournament.armours]"), "[tournament] armours: unknown key"),
        ("matchup", (REFLEC, 'reflec = { armor = "kevlar" }'), "defender 'reflec': unknown armor"),
        ("matchup", (REFLEC, 'reflec = { weapon = "rifle" }'), "defender 'reflec' sets weapon"),
    ],
)
def test_a_bad_balance_experiment_is_refused_with_its_line(tmp_path, base, change, message):
    path = tmp_path / f"{base}.toml"
    path.write_text(BASES[base].replace(*change))
    with pytest.raises(SimlabError) as error:
        load_experiment(path)
    assert message in str(error.value) and str(error.value).startswith(str(path)), error.value


def test_a_sensitivity_has_no_grid(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('name = "s"\nsystem = "striker"\nkind = "sensitivity"\n[fixed]\nweapon = "rifle"\n'
                    '[grid]\narmor = ["none", "cloth"]\n[sensitivity]\nmetric = "p_hit"\n'
                    'vary = { skill = "0..4", cover = ["none", "full"] }\n')  # fmt: skip
    with pytest.raises(SimlabError, match="a sensitivity spreads"):
        load_experiment(path)


def test_the_whole_job_runs_every_shipped_experiment_the_sensitivity_among_them(capsys):
    from pathlib import Path

    from simlab.commands.options import load_experiments

    _, every = load_experiments([], None, 20_000, 10**10)
    shipped = {path.stem for path in Path("experiments").glob("*.toml")}
    assert {e.name for e in every} >= {"striker_what_moves_hits", "striker_riflemen_needed"}
    assert len(every) == len(shipped) and "left out" not in capsys.readouterr().err


def test_a_tournament_experiment_fights_battles_of_each_loadout_eng_1(tmp_path):
    path = tmp_path / "loadouts.toml"
    battle = Path("experiments/battles/striker_fireteam.toml").resolve()
    path.write_text(f'name = "loadouts"\nsystem = "striker"\nkind = "tournament"\n'
                    f'battle = "{battle}"\ntrials = 200\nseed = 1\n'
                    '[tournament.options.rifles]\n"groups.0.weapon" = "rifle"\n"groups.0.mode" = "single"\n'
                    '[tournament.options.machineguns]\n"groups.0.weapon" = "light machinegun"\n'
                    '"groups.0.mode" = "half_clip"\n')  # fmt: skip
    run = run_experiment(load_experiment(path))
    mix = run.table[run.table["metric"] == "equilibrium"].set_index("option")["value"]
    assert mix["machineguns"] == 1.0 and run.balance[0][2].fights == "battles"
    path.write_text(path.read_text().replace('"groups.0.mode" = "single"\n', ""))  # a rifle cannot fire half_clip
    with pytest.raises(SimlabError, match="not half_clip"):
        load_experiment(path)
