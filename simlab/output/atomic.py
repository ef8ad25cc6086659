"""Writing results without ever leaving a partial directory (docs/architecture.md, principle 5).

A results directory (or a baseline) is filled under a temporary name (``.NAME.PID.<random>.tmp``)
and swapped in whole:

* where the file system can exchange two paths atomically (Linux ``renameat2`` with
  ``RENAME_EXCHANGE``), the new directory and the old one trade places in one step, so at
  every moment ``NAME`` is either the old complete results or the new ones;
* elsewhere the old directory is renamed aside (``.NAME.PID.<random>.old``) only once the new one
  is complete, the new one is renamed into place, and the old one is put back if that fails.
  A process killed between the two renames leaves the old results aside; the next write of
  the same destination puts them back first.

Before it stages anything, a write removes what earlier writes of the same destination left
behind when they were killed (their process is gone), so no stray staging directory survives
the next run. Every failure to write (no such directory, a path below a file, a read-only or
full disk) is a :class:`OutputError`, one line naming the path, and the old results stay as
they were.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from simlab.inputs.errors import SimlabError

__all__ = ["OutputError", "staged_directory", "staged_file", "check_writable", "clean_stale"]


class OutputError(SimlabError):
    """Results could not be written (the path, a read-only or full disk); nothing was changed."""

    def __init__(self, path: Path, exc: OSError) -> None:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ENOSPC:
            reason = "no space left on the device"
        super().__init__(f"cannot write {path}: {reason}")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: Permissions of what is written: as ``mkdir`` would make them (temporary directories are private).
_DIRECTORY_MODE = 0o777 & ~_umask()
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(first: Path, second: Path) -> bool:
    """Swap two existing paths atomically; False where the system cannot (then nothing changed)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def _prefix(destination: Path) -> str:
    """Prefix of the temporary names beside ``destination``: ``.NAME.PID.`` (the PID tells stale from busy)."""
    return f".{destination.name}.{os.getpid()}."


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _leftovers(destination: Path) -> Iterator[tuple[Path, str]]:
    """What killed writes of ``destination`` left beside it: ``(path, "tmp" or "old")``."""
    pattern = re.compile(rf"\.{re.escape(destination.name)}\.(\d+)\.[^.]+\.(tmp|old)")
    with contextlib.suppress(OSError):
        for entry in destination.parent.iterdir():
            match = pattern.fullmatch(entry.name)
            if match and not _alive(int(match.group(1))):
                yield entry, match.group(2)


def clean_stale(destination: Path) -> None:
    """Remove what killed writes of ``destination`` left, putting aside old results back first.

    A staging directory (``.tmp``) of a dead process is incomplete and removed. An old
    directory (``.old``) of a dead process holds the previous results: put back when
    ``destination`` is missing, removed otherwise.
    """
    for path, kind in sorted(_leftovers(destination), key=lambda item: item[1] != "old"):
        inside = path / destination.name
        if kind == "old" and inside.is_dir() and not destination.exists():
            with contextlib.suppress(OSError):
                os.rename(inside, destination)
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                path.unlink()


def check_writable(directory: Path) -> None:
    """Fail now, before any computing, when results cannot be written below ``directory``.

    Raises:
        OutputError: When the directory cannot be made, or a file cannot be written in it.
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        raise OutputError(directory, exc) from None


def _swap_in(staging: Path, destination: Path) -> None:
    """Put the complete ``staging`` at ``destination``; never leaves ``destination`` missing for good."""
    if not destination.exists():
        os.rename(staging, destination)
        return
    if _exchange(staging, destination):
        shutil.rmtree(staging, ignore_errors=True)  # now the old results
        return
    retired = Path(tempfile.mkdtemp(prefix=_prefix(destination), suffix=".old", dir=destination.parent))
    os.rename(destination, retired / destination.name)
    try:
        os.rename(staging, destination)
    except BaseException:
        os.rename(retired / destination.name, destination)
        raise
    shutil.rmtree(retired, ignore_errors=True)


@contextlib.contextmanager
def staged_directory(destination: Path) -> Iterator[Path]:
    """Fill a temporary directory that replaces ``destination`` only if the block succeeds.

    Yields:
        The temporary directory to write into (beside ``destination``). On an exception it
        is removed and ``destination`` is left as it was.

    Raises:
        OutputError: For any failure to write (the block's own included), ``destination``
            left as it was.
    """
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        clean_stale(destination)
        staging = Path(tempfile.mkdtemp(prefix=_prefix(destination), suffix=".tmp", dir=destination.parent))
        os.chmod(staging, _DIRECTORY_MODE)
    except OSError as exc:
        raise OutputError(destination, exc) from None
    try:
        yield staging
        _swap_in(staging, destination)
    except BaseException as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):
            raise OutputError(Path(exc.filename) if exc.filename else destination, exc) from None
        raise


@contextlib.contextmanager
def staged_file(destination: Path) -> Iterator[Path]:
    """A temporary file beside ``destination`` that replaces it only if the block succeeds.

    Yields:
        The path to write (``.NAME.<random>.tmp``); removed on an exception, ``destination`` left as it was.

    Raises:
        OutputError: For any failure to write, ``destination`` left as it was.
    """
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent)
        os.close(handle)
        os.chmod(name, 0o666 & ~_umask())  # as a file written in place (mkstemp makes it private)
    except OSError as exc:
        raise OutputError(destination, exc) from None
    staging = Path(name)
    try:
        yield staging
        os.replace(staging, destination)
    except BaseException as exc:
        staging.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(destination, exc) from None
        raise
