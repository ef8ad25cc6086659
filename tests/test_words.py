"""The designer's words: every metric, input and distribution of the registry has them, and they are used."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pandas as pd

from simlab.inputs.battles import load_battle
from simlab.output import plots
from simlab.output.words import Vocabulary, registry
from simlab.systems import all_systems


def test_every_metric_input_and_distribution_of_the_registry_has_words():
    words = registry()

    def known(name: str, kind: str) -> bool:
        numbered = re.match(r"^(.*?)(\d+)$", name)
        return name in words[kind] or bool(numbered and f"{numbered.group(1)}{{k}}" in words[kind])

    missing = []
    for system in all_systems():
        for question in system.questions.values():
            missing += [f"metric {m}" for m in question.metric_docs if not known(m + "1" if m.endswith("_") else m,
                                                                                  "metrics")]  # fmt: skip
            missing += [f"distribution {d}" for d in question.distributions if not known(d, "distributions")]
            fields = dataclasses.fields(question.inputs_type)
            missing += [f"input {f.name}" for f in fields if not known(f.name, "inputs")]
    assert not missing, sorted(set(missing))


def test_a_battle_names_its_sides_groups_and_counts_by_the_battle_file():
    battle = load_battle(Path("experiments/battles/striker_fireteam.toml"))
    words = Vocabulary(battle=battle)
    assert words.name("p_a_wins") == "the fireteam's chance to win"
    assert words.name("mean_standing_b") == "the gunners' figures standing at the end"
    assert words.name("a.count") == "riflemen"
    assert words.name("b.doctrine.suppressors") == "suppressing machinegunners"
    assert words.name("b.groups.0.weapon") == "the machinegunners' weapon"
    assert words.where("b.doctrine.suppressors", 0) == "no suppressing machinegunners"
    assert words.where("b.doctrine.suppressors", 1) == "1 suppressing machinegunner"
    assert Vocabulary().name("p_a_wins") == "A's chance to win"  # a duel: the sides' letters


def test_values_in_words_and_units_on_axes():
    words = Vocabulary({"dx": "DX"})
    assert words.where("armor", "none") == "no armour" and words.where("armor", "flak jacket") == "flak jacket"
    assert words.value("mode", "full") == "full auto" and words.value("laser_scope", True) == "yes"
    assert words.where("range_m", 20.0) == "range 20 m" and words.axis("range_m") == "range (m)"
    assert words.where("adjacent", False) == "not beside the target" and words.lead("adjacent", False) == ""
    assert words.axis("dx") == "DX" and words.name("dice_at_2") == "damage dice 2 hexes from the blast"


def _line(value: float, label: str, x: int) -> dict:
    return {"x": x, "who": label, "metric": "p_hit", "method": "exact", "value": value, "ci_low": value,
            "ci_high": value}  # fmt: skip


def test_curves_that_coincide_are_drawn_once_and_named_together_and_many_series_differ():
    rows = [_line(0.1 * x, who, x) for who in ("auto rifle", "assault rifle") for x in range(5)]
    rows += [_line(0.05 * x, "pistol", x) for x in range(5)]
    figure = plots.curve(pd.DataFrame(rows), "p_hit", "x", by="who")
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert legend == ["auto rifle, assault rifle", "pistol"]
    styles = {plots.series_style(i, 14) for i in range(14)}
    assert len({colour for colour, _ in styles}) == 14  # no colour repeats past ten


def test_a_heatmap_clips_its_colours_where_one_outlier_would_swamp_the_rest():
    values = np.concatenate([np.linspace(0.0, 5.0, 99), [40.0]])
    low, high, clipped = plots.robust_range(values)
    assert clipped and high < 6.0 and low < 0.2
    assert plots.robust_range(np.linspace(0, 5, 100))[2] is False  # an even spread keeps its full range
