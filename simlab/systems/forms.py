"""How a question's inputs are given: one :class:`InputForm` each, all that the form means in one place.

A **scenario** is one attack (or other question) of one figure: its inputs are the scenario's
own, and it has an exact engine. **Sides** are two figures or ships, a duel: each input is a
side's, ``a.KEY`` or ``b.KEY``. A **battle** is groups of figures a side (ENG): it asks a battle
file, and a figure's input is ``a.groups.N.KEY``. Every layer asks the form what it needs (does it
fight, does it ask a battle file, which part of an input name a figure reads) instead of
branching on its name; the front ends' tables of builders, parsers and pages are keyed by its name.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["InputForm", "FORMS", "get_form"]


@dataclass(frozen=True)
class InputForm:
    """One way a question's inputs are given.

    Attributes:
        name: ``scenario``, ``sides`` or ``battle`` (:attr:`Question.form <simlab.systems.base.Question.form>`).
        sided: Two sides fight (a duel or a battle): a tournament's options fight each other, and the
            answer is priced per side, not per weapon.
        battle: Groups of figures a side, from a battle file (ENG): the answer is a battle's outcomes.
        exact: It has an exact engine (a scenario); the others are only sampled.
        fights: What a tournament of it fights, in words (``duels``, ``battles``; a scenario: none).
        figure_depth: How many leading parts of an input name say whose it is before a figure's own
            input (``a.armor``: 1; ``a.groups.0.armor``: 3).
    """

    name: str
    sided: bool
    battle: bool
    exact: bool
    fights: str
    figure_depth: int

    def figure_parts(self, name: str) -> list[str]:
        """The parts of an input name a figure reads as its own input (``KEY``, ``ROW.COLUMN``); none: not a figure's.

        ``a.armor`` of a duel and ``a.groups.0.armor`` of a battle both read ``armor``; a battle's
        ``a.count`` or a duel's ``range_band`` reads none of a figure's.
        """
        parts = name.split(".")
        if not self.sided:
            return parts
        if parts[0] not in ("a", "b") or len(parts) <= self.figure_depth:
            return []
        if self.battle and parts[1] != "groups":
            return []
        return parts[self.figure_depth :]


#: Every form, by name.
FORMS: dict[str, InputForm] = {
    form.name: form
    for form in (
        InputForm("scenario", sided=False, battle=False, exact=True, fights="", figure_depth=0),
        InputForm("sides", sided=True, battle=False, exact=False, fights="duels", figure_depth=1),
        InputForm("battle", sided=True, battle=True, exact=False, fights="battles", figure_depth=3),
    )
}


def get_form(name: str) -> InputForm:
    """The form called ``name``.

    Raises:
        ValueError: For an unknown name, with the valid ones (a system's definition is at fault).
    """
    if name not in FORMS:
        raise ValueError(f"form {name!r} is not one of {', '.join(FORMS)}")
    return FORMS[name]
