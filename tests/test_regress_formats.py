"""``simlab regress --format markdown`` and ``--junit``: a check a pull request's reviewer and any CI can read."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from conftest import run_cli

from simlab.workflow.regress import Regression
from simlab.workflow.regress_formats import regress_markdown

EXPERIMENT = "experiments/tft_autofire_modes.toml"
VARIANT = "experiments/variants/tft_extra_hit_every_2.toml"


def test_a_change_is_a_markdown_comment_ranked_by_weight_a_junit_failure_and_a_page(tmp_path, capsys):
    junit = tmp_path / "regress.xml"
    code, out, err = run_cli(capsys, "regress", EXPERIMENT, "--variant", VARIANT, "--format", "markdown",
                             "--junit", str(junit), "--limit", "5", "--report", str(tmp_path / "moved"))  # fmt: skip
    assert code == 1, err
    lines = out.splitlines()
    assert lines[0].startswith("## simlab regress: ") and "rows moved in 1 of 1 experiment(s)" in lines[0]
    header = lines.index("| weapon | mode | metric | before | after | Δ | evidence |")
    first = lines[header + 2]
    assert first.startswith("| auto rifle | full | p_killed | 0.2455 [") and "SE |" in first  # the heaviest first
    assert lines[header + 8].startswith("… and ") and "more (`simlab regress --all` lists them)." in lines[header + 8]
    suites = ElementTree.parse(junit).getroot()
    (case,) = suites.iter("testcase")
    assert suites.get("failures") == "1" and case.get("name") == "tft_autofire_modes"
    assert case.find("failure").get("message").endswith("of 256 rows moved")
    page = (tmp_path / "moved" / "index.html").read_text(encoding="utf-8")  # every moved row, and their chart
    link = f"{tmp_path}/moved/index.html"
    assert lines[-1] == f"Every moved row, charted before and after: [{link}]({link})"
    assert page.count("<tr><td>") == int(lines[0].split()[3]) and 'src="data:image/png;base64,' in page


def test_no_change_is_said_once_and_every_junit_case_passes(tmp_path, capsys):
    junit = tmp_path / "regress.xml"
    code, out, err = run_cli(capsys, "regress", EXPERIMENT, "--format", "markdown", "--junit", str(junit))
    assert code == 0, err
    assert out == "## simlab regress: no change\n\nAll 256 rows of 1 experiment(s) match their baselines.\n"
    suites = ElementTree.parse(junit).getroot()
    assert suites.get("failures") == "0" and [c.find("failure") for c in suites.iter("testcase")] == [None]


def test_a_comment_stays_within_its_size_and_says_how_many_more(capsys):
    import pandas as pd

    rows = {}
    for k in range(30):
        rows[f"e{k}"] = pd.DataFrame({
            "cell": [0], "weapon": ["rifle"], "method": ["exact"], "metric": ["p_hit"], "baseline": [0.5],
            "current": [0.6], "delta": [0.1], "p_value": [float("nan")], "weight": [0.2], "changed": [True],
        })  # fmt: skip
    said = regress_markdown(Regression(rows, []), most=1200)
    assert len(said) <= 1300 and said.rstrip().endswith("more experiment(s) that moved.")


def test_a_baseline_says_what_moved_for_the_commit_message(tmp_path, capsys):
    import shutil

    experiment = tmp_path / "tft_autofire_modes.toml"
    shutil.copy(EXPERIMENT, experiment)
    baselines = tmp_path / "baselines"
    code, out, err = run_cli(capsys, "baseline", str(experiment), "--dir", str(baselines))
    assert code == 0 and out.splitlines()[-1] == "- tft_autofire_modes: a new baseline", err
    code, out, _ = run_cli(capsys, "baseline", str(experiment), "--dir", str(baselines))
    assert code == 0 and out.splitlines()[-1] == "Nothing moved since the last baselines."
    experiment.write_text(experiment.read_text(encoding="utf-8") + "\n[rules]\nautofire_step = 2\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "baseline", str(experiment), "--dir", str(baselines))
    said = out.splitlines()
    assert code == 0 and said[-2] == "What moved since the last baselines:"
    assert said[-1].startswith("- tft_autofire_modes: ") and "of 256 rows (p_killed of auto rifle, full " in said[-1]
