"""Space Combat V4, part by part: the damage fraction table margin by margin (SPC-4.2, SPC-4.3)."""

from fractions import Fraction

import pytest

from simlab.errors import SimlabError
from simlab.systems.space_v4.fractions import applied_hits, criticals, fraction_of

#: The seed's table: exact roll 1/10, 1-2 more 1/4, 3-4 more 1/2, 5-6 more 3/4, 7+ all.
TABLE = {0: Fraction(1, 10), 1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 2),
         5: Fraction(3, 4), 6: Fraction(3, 4), 7: Fraction(1), 8: Fraction(1), 12: Fraction(1)}  # fmt: skip


@pytest.mark.parametrize(("margin", "fraction"), TABLE.items())
def test_spc42_fraction_by_margin(margin, fraction):
    assert fraction_of(margin) == fraction


@pytest.mark.parametrize(
    ("optimal", "margin", "floor", "nearest"),
    [
        (1, 0, 1, 1),  # one laser, exact roll: a tenth, but never below 1
        (3, 0, 1, 1),
        (30, 0, 3, 3),
        (6, 1, 1, 2),  # 6/4 = 1.5: floor 1, nearest 2
        (9, 2, 2, 2),  # 2.25
        (9, 3, 4, 5),  # 4.5
        (7, 5, 5, 5),  # 5.25
        (10, 6, 7, 8),  # 7.5
        (12, 7, 12, 12),
        (40, 9, 40, 40),
    ],
)
def test_spc42_applied_hits_both_readings(optimal, margin, floor, nearest):
    assert applied_hits(optimal, margin) == floor
    assert applied_hits(optimal, margin, "nearest") == nearest


def test_spc42_minimum_one_and_misses():
    assert all(applied_hits(1, m) == 1 for m in range(0, 10))
    with pytest.raises(SimlabError, match="is a miss"):
        fraction_of(-1)


@pytest.mark.parametrize(("applied", "crits"), [(1, 0), (9, 0), (10, 1), (19, 1), (20, 2), (45, 4)])
def test_spc43_a_critical_per_ten_applied_hits(applied, crits):
    assert criticals(applied) == crits
