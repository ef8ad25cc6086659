"""Reading the files simlab is given: every failure is one line naming the file (docs/architecture.md, principle 7).

Experiments, variants, tables, baselines and provenance records are all read through these
functions, so each kind of trouble (a missing or unreadable file, a directory, a binary or
UTF-16 or Latin-1 file, a file too large to be one of ours, malformed TOML, CSV or JSON, a
blank or non-numeric cell where a number must be) is reported the same way:
``FILE[:LINE]: what is wrong``, raised as a :class:`FileError`.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import re
import stat
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simlab.inputs.errors import SimlabError, shortened, shown_path

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "described",
    "FileError",
    "MAX_FILE_BYTES",
    "MAX_NESTING",
    "check_nesting",
    "decode_text",
    "read_text",
    "read_toml",
    "parse_toml",
    "read_json",
    "read_csv",
]

#: Largest file simlab reads (experiments, variants, tables, baselines are far smaller).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Deepest nesting of tables and arrays simlab reads (its files nest four or five deep).
MAX_NESTING = 32

_BOMS = {
    codecs.BOM_UTF32_LE: "UTF-32",
    codecs.BOM_UTF32_BE: "UTF-32",
    codecs.BOM_UTF16_LE: "UTF-16",
    codecs.BOM_UTF16_BE: "UTF-16",
}


class FileError(SimlabError):
    """A file that cannot be read or is malformed, located by file and line."""

    def __init__(self, path: Path | str, message: str, line: int | None = None) -> None:
        where = f"{shown_path(path)}:{line}" if line else shown_path(path)
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.reason = Path(path), line, message


def decode_text(data: bytes, path: Path | str) -> str:
    """UTF-8 text of a file's bytes (a UTF-8 byte-order mark is dropped).

    Raises:
        FileError: For a binary file (NUL bytes), UTF-16/32 text or bytes that are not UTF-8,
            naming the line of the first bad byte.
    """
    for bom, encoding in _BOMS.items():
        if data.startswith(bom):
            raise FileError(path, f"is {encoding} text; save it as UTF-8")
    if b"\0" in data[:65536] or b"\0" in data:
        raise FileError(path, "is a binary file, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileError(path, f"byte 0x{data[exc.start]:02x} is not UTF-8 text; save the file as UTF-8", line) from None


def read_text(path: Path | str, what: str = "file") -> str:
    """The UTF-8 text of a file.

    Args:
        path: The file.
        what: What the file is, for the message (``experiment file``).

    Raises:
        FileError: When it is missing, a directory, unreadable, too large, or not UTF-8 text.
    """
    path = Path(path)
    try:
        mode = path.stat().st_mode  # a stat never blocks, where opening a named pipe would
        if stat.S_ISDIR(mode):
            raise FileError(path, f"is a directory, not a {what}")
        if not stat.S_ISREG(mode):
            raise FileError(path, f"is a pipe, socket or device: give the {what} as a regular file")
        with open(path, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):  # replaced since the stat
                raise FileError(path, f"is a pipe, socket or device: give the {what} as a regular file")
            data = stream.read(MAX_FILE_BYTES + 1)  # never more than the cap, whatever the size says
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise FileError(path, f"cannot read the {what} ({getattr(exc, 'strerror', None) or exc})") from None
    if len(data) > MAX_FILE_BYTES:
        raise FileError(path, f"is larger than {MAX_FILE_BYTES:,} bytes, too large for a {what}")
    return decode_text(data, path)


def read_toml(path: Path | str, what: str = "file") -> tuple[dict[str, Any], str]:
    """A TOML file's data and its text (for locating keys).

    Raises:
        FileError: As :func:`read_text`, or for malformed TOML, with its line.
    """
    text = read_text(path, what)
    return parse_toml(text, path), text


def parse_toml(text: str, source: Path | str) -> dict[str, Any]:
    """TOML text's data (``source`` names it in errors: a file, or an upload that is never written).

    Raises:
        FileError: For malformed TOML, with its line.
    """
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise FileError(source, f"not valid TOML: nested more than {MAX_NESTING} tables or arrays deep") from None
    except tomllib.TOMLDecodeError as exc:
        position = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        line = int(position.group(1)) if position else None
        reason = str(exc)[: position.start()].strip() if position else str(exc)
        raise FileError(source, f"not valid TOML: {reason}", line) from None
    depth = check_nesting(data)
    if depth is not None:
        raise FileError(source, f"not valid TOML: nested more than {MAX_NESTING} tables or arrays deep (at {depth})")
    return data


def check_nesting(data: Any, limit: int = MAX_NESTING) -> str | None:
    """The dotted key where ``data`` nests deeper than ``limit`` tables or arrays, else None.

    Walked without recursion, so a hostile file cannot exhaust the stack of whatever reads it next.
    """
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    while stack:
        node, depth, key = stack.pop()
        if depth > limit:
            return key[:80] + ("..." if len(key) > 80 else "")
        if isinstance(node, dict):
            stack.extend((v, depth + 1, f"{key}.{k}" if key else str(k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, depth + 1, f"{key}.{i}" if key else str(i)) for i, v in enumerate(node))
    return None


def read_json(path: Path | str, what: str = "file") -> dict[str, Any]:
    """A JSON file that holds one object.

    Raises:
        FileError: As :func:`read_text`, for malformed JSON (with its line), or another value.
    """
    text = read_text(path, what)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileError(path, f"not valid JSON: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise FileError(path, "not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise FileError(path, f"expected a JSON object, got {type(data).__name__}")
    return data


def read_csv(
    path: Path | str,
    what: str = "file",
    *,
    required: Sequence[str] = (),
    numbers: Sequence[str] = (),
) -> pd.DataFrame:
    """A CSV file as a DataFrame whose blanks stay blank and whose number columns are numbers.

    Args:
        path: The file.
        what: What the file is, for messages.
        required: Columns it must have.
        numbers: Columns whose every cell must be a finite number.

    Raises:
        FileError: As :func:`read_text`, for a malformed or empty file, a missing column, or
            a cell of a number column that is blank or not a finite number (naming its line).
    """
    import numpy as np  # the readers of experiments and variants do without pandas
    import pandas as pd

    text = read_text(path, what)
    if not text.strip():
        raise FileError(path, f"is empty: a {what} has a header line and rows")
    try:
        header = next(csv.reader(io.StringIO(text)))
        table = pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])
    except (pd.errors.ParserError, pd.errors.EmptyDataError, csv.Error, ValueError, StopIteration) as exc:
        reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else "malformed"
        found = re.search(r"line (\d+)", reason)
        raise FileError(path, f"not a valid CSV table: {reason}", int(found.group(1)) if found else None) from None
    if len(set(header)) != len(header):
        raise FileError(path, "the header names a column twice", 1)
    missing = [c for c in required if c not in table.columns]
    if missing:
        raise FileError(path, f"no column {', '.join(missing)} (a {what} has {', '.join(required)})", 1)
    for column in numbers:
        values = pd.to_numeric(table[column], errors="coerce").astype(float)
        bad = ~np.isfinite(values.to_numpy())
        if bad.any():
            row = int(bad.nonzero()[0][0])
            cell = table[column].iloc[row]
            shown = "a blank" if pd.isna(cell) else repr(cell)
            raise FileError(path, f"column {column}: {shown} where a finite number must be", row + 2)
        table[column] = values
    return table


def described(value: Any) -> str:
    """A value read from a file as a message names it: "a list [1, 2]", "a table", "'x'"."""
    if isinstance(value, list):
        shown = repr(value)
        return f"a list {shown[:57] + '...' if len(shown) > 60 else shown}"
    if isinstance(value, dict):
        return "a table"
    return repr(shortened(value))
