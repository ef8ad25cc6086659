"""What Space Combat V4's answers report besides the spec's metrics of one attack (SPC-4.2, SPC-7)."""

from __future__ import annotations

__all__ = ["MARGIN_SERIES", "DUEL_METRICS"]

#: Prefix of the series of expected applied hits of one roll by its margin (SPC-4.2).
MARGIN_SERIES = "mean_applied_margin_"

#: Metrics of a duel of two ships (SPC-7): name → description.
DUEL_METRICS = {
    "p_a_wins": "probability that B is out first",
    "p_b_wins": "probability that A is out first",
    "p_draw": "probability that neither is out after max_turns turns",
    "mean_turns": "expected turns (both ships acting once is a turn)",
    "mean_hits_on_a": "expected applied hits A takes",
    "mean_hits_on_b": "expected applied hits B takes",
    "mean_missiles_a": "expected missiles A launches",
    "mean_missiles_b": "expected missiles B launches",
    "p_a_first": "probability that A acts first",
}
