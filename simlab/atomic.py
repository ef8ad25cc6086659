"""Writing results without ever leaving a partial file or directory (DESIGN.md principle 5).

A file is written to a temporary name beside its destination and moved into place with
``os.replace``; a results directory is filled under a temporary name and swapped in whole.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["write_bytes", "write_text", "staged_directory"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: Permissions of what is written: as ``open`` would make them (temporary files are private).
_FILE_MODE = 0o666 & ~_umask()
_DIRECTORY_MODE = 0o777 & ~_umask()


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a reader sees the old file or the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, _FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_text(path: Path, text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically."""
    write_bytes(path, text.encode("utf-8"))


@contextlib.contextmanager
def staged_directory(destination: Path) -> Iterator[Path]:
    """Fill a temporary directory that replaces ``destination`` only if the block succeeds.

    Yields:
        The temporary directory to write into (beside ``destination``). On an exception it
        is removed and ``destination`` is left as it was.
    """
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent))
    os.chmod(staging, _DIRECTORY_MODE)
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    retired = None
    if destination.exists():
        retired = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", suffix=".old", dir=destination.parent))
        os.replace(destination, retired / destination.name)
    os.replace(staging, destination)
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)
