"""Traveller Space Combat V4 (system id ``space_v4``; ``rules/space_v4.md``).

Built so far: the damage fractions of optimal hits and their criticals (SPC-4.2, SPC-4.3,
:mod:`.fractions`), the rule parameters and attack inputs (:mod:`.rules`), and the exact
distribution of one attack's applied hits with the attack roll's DMs and point defence
(SPC-3, SPC-5, SPC-8; :mod:`.exact`). The system joins the registry (``simlab systems``)
with its sampler and duels.
"""
