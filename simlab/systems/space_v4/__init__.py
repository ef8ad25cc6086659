"""Traveller Space Combat V4 (system id ``space_v4``; ``rules/space_v4.md``).

Built so far: the damage fractions of optimal hits and their criticals (SPC-4.2, SPC-4.3,
:mod:`.fractions`). The system joins the registry (``simlab systems``) with its attack.
"""
