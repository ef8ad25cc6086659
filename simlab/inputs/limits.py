"""Caps on the size of one job, checked before any work starts (docs/architecture.md, principle 7).

A grid of a million cells or a request for 10^13 trials is almost always a typing mistake,
and would otherwise run for hours with nothing to show. Each job's size is estimated from
its inputs first and refused above a cap, with a message that names the size and the option
that raises the cap:

* ``--max-cells`` (default :data:`DEFAULT_MAX_CELLS`): grid cells of an experiment, every
  rule set (the base rules and each variant) counted;
* ``--max-trials`` (default :data:`DEFAULT_MAX_TRIALS`): trials sampled by one job, summed
  over its cells and rule sets (for an experiment with ``precision``, its first round).

Limits that the engines themselves have (trials per cell of one random stream, draws per
trial, exact state spaces) are hard limits, checked where they are computed.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.inputs.errors import SimlabError, spelled

__all__ = [
    "DEFAULT_MAX_CELLS",
    "DEFAULT_MAX_TRIALS",
    "DEFAULT_TRIALS",
    "DEFAULT_DUELS",
    "DEFAULT_BATTLES",
    "Limits",
    "TooMuchWorkError",
    "RAISE_CELLS",
    "RAISE_TRIALS",
]

#: Grid cells (times rule sets) one experiment may have unless ``--max-cells`` says more.
DEFAULT_MAX_CELLS = 20_000
#: Trials one job may sample unless ``--max-trials`` says more.
DEFAULT_MAX_TRIALS = 10_000_000_000
#: Trials of one sampled attack when none are given.
DEFAULT_TRIALS = 1_000_000
#: Duels sampled when none are given.
DEFAULT_DUELS = 100_000
#: Battles sampled when none are given.
DEFAULT_BATTLES = 100_000
#: How a refusal above a cap says it may be raised (on the command line; a page's cap is its server's).
RAISE_CELLS = ", or raise the cap with --max-cells"
RAISE_TRIALS = ", or raise the cap with --max-trials"


class TooMuchWorkError(SimlabError):
    """A job larger than its cap; the message names the size and the option that raises the cap."""


@dataclass(frozen=True)
class Limits:
    """The caps of one job.

    Attributes:
        max_cells: Most grid cells times rule sets of an experiment.
        max_trials: Most trials sampled by one job.
    """

    max_cells: int = DEFAULT_MAX_CELLS
    max_trials: int = DEFAULT_MAX_TRIALS

    def __post_init__(self) -> None:
        for name in ("max_cells", "max_trials"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SimlabError(f"invalid value {value!r} for --{name.replace('_', '-')}: expected an integer >= 1")

    def check_cells(self, cells: int, what: str) -> None:
        """Refuse more than ``max_cells`` cells.

        Args:
            cells: Cells times rule sets.
            what: What has them, for the message (``experiments/x.toml``).

        Raises:
            TooMuchWorkError: Above the cap.
        """
        if cells > self.max_cells:
            raise TooMuchWorkError(
                f"{what}: {cells:,} cells (grid cells times rule sets) is above the cap of {self.max_cells:,}; "
                f"split the grid{spelled(RAISE_CELLS)}"
            )

    def check_experiment(self, cells: int, rule_sets: int, trials: int | None, what: str) -> None:
        """Refuse an experiment whose cells times rule sets, or trials sampled, are above the caps.

        Args:
            cells: Grid cells.
            rule_sets: The base rules and each variant covered.
            trials: Trials per cell when it samples, else None.
            what: The experiment file, for the message.

        Raises:
            TooMuchWorkError: Above a cap.
        """
        self.check_cells(cells * rule_sets, what)
        if trials is not None:
            self.check_trials(cells * rule_sets * trials, what)

    def check_work(self, questions: int, trials_each: int, what: str, job: str, fewer: str = "ask for fewer") -> None:
        """Refuse a job of more questions than ``max_cells``, or more trials in all than ``max_trials``.

        The one cap of every analysis (a tournament's seatings, a matchup's cells, a sensitivity's
        points): exact questions count too, and however few trials each samples.

        Args:
            questions: Questions the job asks (each value, cell or seating asked once).
            trials_each: Trials each samples (0 when exact).
            what: What the questions are, plural (``points``).
            job: The job, for the message (``the sensitivity``).
            fewer: How to ask for less, for the message.

        Raises:
            TooMuchWorkError: Above a cap.
        """
        if questions > self.max_cells:
            raise TooMuchWorkError(f"{job}: {questions:,} {what} is above the cap of {self.max_cells:,}; {fewer}")
        if trials_each:
            self.check_trials(questions * trials_each, f"{job} ({questions:,} {what})")

    def check_trials(self, trials: int, what: str) -> None:
        """Refuse more than ``max_trials`` trials.

        Args:
            trials: Trials the job would sample.
            what: What would sample them, for the message.

        Raises:
            TooMuchWorkError: Above the cap.
        """
        if trials > self.max_trials:
            raise TooMuchWorkError(
                f"{what}: {trials:,} trials is above the cap of {self.max_trials:,}; "
                f"ask for fewer{spelled(RAISE_TRIALS)}"
            )
