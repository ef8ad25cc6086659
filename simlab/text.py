"""Reading numbers written as text, the same way in every layer (options, forms, files, addresses)."""

from __future__ import annotations

import re

__all__ = ["is_digits", "whole_number"]


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (``str.isdigit`` also takes ``²`` and ``٣``)."""
    return text.isascii() and text.isdigit()


def whole_number(text: str) -> int | None:
    """The whole number ``text`` writes (``-12``, ``+3``; ``100,000`` and ``100_000`` too), else None.

    ASCII digits only, and at most 40 of them: ``int()`` also reads ``٣``, and no count needs more.
    """
    plain = text.strip().replace(",", "").replace("_", "")
    if len(plain) > 40 or re.fullmatch(r"[+-]?[0-9]+", plain) is None:
        return None
    return int(plain)
