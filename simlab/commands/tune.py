"""``simlab tune``: the command of the tune analysis (:mod:`simlab.analyses.tune`), made from its keys."""

from __future__ import annotations

from simlab.commands.analysis import analysis_command

__all__ = ["tune"]

#: The command, as every registered analysis's is made (listed in ``simlab --help`` without loading it).
tune = analysis_command("tune")
