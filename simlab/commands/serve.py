"""``simlab serve``: the local web page (the ``web`` extra)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from simlab.commands.options import PATH, WHOLE
from simlab.engine.bounds import check_trials
from simlab.inputs.errors import SimlabError

__all__ = ["serve"]


@click.command(short_help="A local web page to ask, see and share answers.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (this machine only).")
@click.option("--port", type=WHOLE, default=8765, show_default=True, help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@click.option(
    "--results", type=PATH, default=Path("results"), show_default=True, help="Results root."
)
@click.option(
    "--max-trials",
    type=WHOLE,
    default=None,
    help="The most trials one request may sample [default: 2,000,000].",
)
@click.option(
    "--tables",
    "tables_dir",
    type=PATH,
    metavar="DIR",
    help="Your own rows: a folder per system (DIR/hitech_tft/weapons.csv), offered beside the shipped ones.",
)
def serve(
    host: str, port: int, open_browser: bool, results: Path, max_trials: int | None, tables_dir: Path | None
) -> None:
    """Serve the web page: Ask (/attack/SYSTEM), Results (/results) and the JSON API (/api/...)."""
    try:
        import uvicorn

        from simlab.web.app import DEFAULT_WEB_MAX_TRIALS, create_app
    except ImportError as exc:
        hint = "pip install 'simlab[web]'"
        raise SimlabError(f"simlab serve needs the web extra ({exc.name} is missing): {hint}") from None
    if not 1 <= port <= 65535:
        raise SimlabError(f"invalid value {port} for --port: expected a whole number from 1 to 65535")
    limit = DEFAULT_WEB_MAX_TRIALS if max_trials is None else max_trials
    check_trials(limit)
    app = create_app(max_trials=limit, results=results, tables=tables_dir)
    listening = _listen(host, port)
    url = f"http://{host}:{port}/"
    click.echo(f"simlab serve: {url} (Ctrl+C stops it)")
    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    _server_class(app.state.runner.stop_all)(config).run(sockets=[listening])


def _server_class(stop_work: Callable[[], None]) -> type[Any]:
    """The uvicorn server, whose stop (SIGINT, SIGTERM) first calls ``stop_work`` (the answers being computed)."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            stop_work()  # sampling ends at its next block of trials
            super().handle_exit(sig, frame)

    return Server


def _listen(host: str, port: int) -> Any:
    """A socket listening at ``host:port`` for the server, or one line saying why there cannot be one.

    Raises:
        SimlabError: For an unknown host, a port taken or not allowed.
    """
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise SimlabError(f"cannot serve on --host {host!r}: {getattr(exc, 'strerror', None) or exc}") from None
    family, kind, proto, _, address = infos[0]
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(128)
    except OSError as exc:
        listening.close()
        taken = " (try another --port)" if exc.errno == errno.EADDRINUSE else ""
        raise SimlabError(f"cannot serve on {host}:{port}: {exc.strerror or exc}{taken}") from None
    listening.set_inheritable(True)
    return listening
