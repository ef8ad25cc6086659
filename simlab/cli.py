"""The ``simlab`` command line: the group of commands (:mod:`simlab.commands`), one-line errors, signals.

Every user error is a :class:`~simlab.inputs.errors.SimlabError` (or a click usage error); both
are printed as one line ``error: ...`` on stderr with exit status 2, never a traceback. Each
command lives in a module of :mod:`simlab.commands`, imported only when it runs.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import click

from simlab.about import __version__
from simlab.commands import COMMANDS
from simlab.inputs.errors import SimlabError

__all__ = ["main", "cli"]


def _registered_analyses() -> dict[str, str]:
    """The tables of analyses registered so far without a command of their own, with their lines.

    The registry is not imported for this (``simlab --help`` stays quick): an analysis registered by
    a program that imported it is listed.
    """
    registry = sys.modules.get("simlab.analyses")
    if registry is None:
        return {}
    found: dict[str, str] = {}
    for analysis in registry.ANALYSES.values():
        if analysis.table not in COMMANDS:
            found.setdefault(analysis.table, analysis.line)
    return found


class _Commands(click.Group):
    """The commands of :data:`~simlab.commands.COMMANDS`, each imported when it is asked for.

    A registered analysis without a command of its own (:mod:`simlab.analyses`) is a command too,
    made from its keys (:mod:`simlab.commands.analysis`).
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *_registered_analyses()]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            from simlab.analyses import tables

            if cmd_name not in tables():
                return None
            from simlab.commands.analysis import analysis_command

            return analysis_command(cmd_name)
        module, _, name = COMMANDS[cmd_name][0].partition(":")
        command: click.Command = getattr(importlib.import_module(module), name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands from the registry's lines, without importing a command."""
        with formatter.section("Commands"):
            listed = [(name, line) for name, (_, line) in COMMANDS.items()]
            listed += list(_registered_analyses().items())
            formatter.write_dl(listed)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120})
@click.version_option(__version__, prog_name="simlab")
def cli() -> None:
    """simlab: measure combat rules of Traveller-family games, exactly and by sampling."""


class _Stopped(KeyboardInterrupt):
    """SIGTERM, raised where the program is so that it unwinds as on Ctrl+C (workers stopped, nothing half-written)."""


def _stop_on_sigterm(signum: int, frame: Any) -> None:
    raise _Stopped


@contextlib.contextmanager
def _signals_unwind() -> Iterator[None]:
    """SIGTERM and SIGINT unwind the program inside the block (the handlers before it are restored after)."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # SIGINT too: a shell starts background jobs with it ignored, and ``kill -INT`` should still stop them.
    before = signal.signal(signal.SIGTERM, _stop_on_sigterm), signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``simlab`` script: one-line errors and exit status 2.

    SIGINT and SIGTERM stop any command within moments: the work unwinds (worker processes
    stopped, partial files removed, earlier results left as they were), one line says so, and
    the exit status is 130 or 143. Run as the script (``argv`` None), the process then ends at
    once, without waiting for a compiled block of trials still running on a thread.
    """
    try:
        with _signals_unwind():
            cli.main(args=list(argv) if argv is not None else None, prog_name="simlab", standalone_mode=False)
    except SimlabError as exc:
        click.echo(f"error: {_one_line(str(exc))}", err=True)
        sys.exit(2)
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        terminated = isinstance(exc, _Stopped) or isinstance(exc.__cause__, _Stopped)  # click wraps it in Abort
        signal_name = "SIGTERM" if terminated else "SIGINT"
        click.echo(f"error: stopped by {signal_name}; nothing was left half-written", err=True)
        code = 143 if terminated else 130
        if argv is None:
            _exit_now(code)
        sys.exit(code)
    except click.ClickException as exc:  # click quotes what was given whole: a long word of it is cut
        click.echo(f"error: {' '.join(_cut(word) for word in exc.format_message().split())}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)
    except MemoryError:
        click.echo("error: out of memory: ask for a smaller job (fewer trials, cells or dice)", err=True)
        sys.exit(2)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"error: {where}{exc.strerror or exc}", err=True)
        sys.exit(2)


def _exit_now(code: int) -> None:
    """End the process now: sampling threads in a compiled kernel cannot be stopped, only left behind."""
    import os

    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


#: The quotes a value in a message sits between.
QUOTES = "'\""


def _cut(word: str) -> str:
    """A word of a message, cut to 60 characters when over 80 (a value given whole), its quotes kept."""
    if len(word) <= 80:
        return word
    return f"{word[: 57 + (word[0] in QUOTES)]}...{word[-1] if word[-1] in QUOTES else ''}"


def _one_line(message: str) -> str:
    return " ".join(message.split())
