"""Damage fractions of optimal hits and the criticals they bring (SPC-4.2, SPC-4.3).

The margin of a successful attack roll (total − 8) picks a fraction of the optimal hits
from a data table; the applied hits are that fraction of the optimal hits, rounded down
(``fraction_rounding = "floor"``) or to the nearest (halves up), and never fewer than 1.
Every 10 applied hits bring a critical hit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from simlab.inputs.errors import ScenarioError
from simlab.inputs.params import spec_field
from simlab.inputs.tables import table_loader

__all__ = ["FractionRow", "damage_fractions", "fraction_of", "applied_hits", "criticals", "ROUNDINGS"]

#: The two readings of how a fraction of the optimal hits is rounded (SPC-4.2).
ROUNDINGS = ("floor", "nearest")


@dataclass(frozen=True, kw_only=True)
class FractionRow:
    """A row of the damage fraction table: margins and the fraction of optimal hits applied (SPC-4.2)."""

    name: str = spec_field(doc="row name")
    margin_min: int = spec_field(
        doc="smallest margin (total - 8) of the row", minimum=0, maximum=99, not_above="margin_max"
    )
    margin_max: int = spec_field(doc="largest margin of the row", minimum=0, maximum=99)
    numerator: int = spec_field(doc="fraction of optimal hits applied: numerator", minimum=0, maximum=1000)
    denominator: int = spec_field(doc="... and denominator", minimum=1, maximum=1000)
    notes: str = spec_field("", doc="free text")


damage_fractions = table_loader("simlab.data.space_v4", "fractions.csv", "fractions", "damage fraction", FractionRow)


def fraction_of(margin: int, table: Iterable[FractionRow] | None = None) -> Fraction:
    """The fraction of optimal hits a success by ``margin`` applies (SPC-4.2).

    Raises:
        ScenarioError: For a negative margin (a miss) or a margin the table does not cover.
    """
    if margin < 0:
        raise ScenarioError(f"margin {margin} is a miss: fractions apply to successes (margin 0 or more)")
    for row in table if table is not None else damage_fractions():
        if row.margin_min <= margin <= row.margin_max:
            return Fraction(row.numerator, row.denominator)
    raise ScenarioError(f"margin {margin} is not in the damage fraction table (SPC-4.2)")


def applied_hits(optimal: int, margin: int, rounding: str = "floor", table: Iterable[FractionRow] | None = None) -> int:
    """Applied hits of a success: ``max(1, round(optimal × fraction))``, rounded down or to the nearest (SPC-4.2)."""
    exact = optimal * fraction_of(margin, table)
    if rounding == "floor":
        rounded = math.floor(exact)
    elif rounding == "nearest":
        rounded = math.floor(exact + Fraction(1, 2))
    else:
        raise ValueError(f"unknown rounding {rounding!r} (valid: {', '.join(ROUNDINGS)})")
    return max(1, rounded)


IntOrArray = TypeVar("IntOrArray", int, npt.NDArray[np.int64])


def criticals(applied: IntOrArray, per: int = 10) -> IntOrArray:
    """Critical hits that ``applied`` hits of one attack bring: one per ``per`` (SPC-4.3, per attack)."""
    return applied // per
