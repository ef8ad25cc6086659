"""Reading numbers written as text, the same way in every layer (options, forms, files, addresses)."""

from __future__ import annotations

__all__ = ["is_digits"]


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (``str.isdigit`` also takes ``²`` and ``٣``)."""
    return text.isascii() and text.isdigit()
