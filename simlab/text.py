"""Numbers and text: read the same way in every layer (options, forms, files, addresses), and shown one way."""

from __future__ import annotations

import math
import re
from typing import Any

__all__ = ["is_digits", "whole_number", "shown", "shown_interval", "same_value"]


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


def shown(value: Any, digits: int = 6) -> str:
    """A value as a page or a listing shows it: a float to six significant digits (or ``digits``), NaN blank."""
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.{digits}g}"
    return str(value)


def shown_interval(low: Any, high: Any, digits: int = 6) -> str:
    """An interval as a page or a listing shows it: ``0.557 – 0.6``, each end as :func:`shown` shows it."""
    return f"{shown(float(low), digits)} – {shown(float(high), digits)}"


def same_value(a: float, b: float) -> bool:
    """Whether two exact values are the same but for a rounding error (a tie is said as a tie)."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
