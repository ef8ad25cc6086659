"""The errors simlab reports to its users, where the input readers have always found them (:mod:`simlab.errors`)."""

from simlab.errors import InvalidValueError, ScenarioError, SimlabError, UnknownNameError, close_names

__all__ = ["SimlabError", "UnknownNameError", "InvalidValueError", "ScenarioError", "close_names"]
