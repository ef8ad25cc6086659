"""The web application of ``simlab serve``: pages and a JSON API generated from the system registry.

Routes (KIND is any kind of question the system asks: ``attack``, ``duel``, ``battle``, ``explosion``...):

* ``/``: the systems and their questions.
* ``/KIND/SYSTEM``: the question's page. Its form is made from the question's inputs and the
  system's rule parameters; the answer beside it follows every change (htmx swaps the answer
  only), and the page's address holds every input. ``/attack/SYSTEM?kind=KIND`` is the same page.
* ``/api/KIND/SYSTEM``: exactly the JSON of ``simlab attack --json`` (``duel``, ``battle``) for the
  same inputs; bad input is a 400 with ``{"error": "<the command line's one-line message>"}``.
  ``/csv/KIND/SYSTEM`` its metrics as CSV, ``/chart/KIND/SYSTEM?distribution=NAME`` one chart.
* ``/sweep/SYSTEM``, ``/compare/SYSTEM`` (``/api/...``, ``/csv/...``): the views of several answers
  (:data:`~simlab.web.views.VIEWS`).
* ``/results``: the reports under the results directory, each opened at
  ``/results/<name>/report.html``.

The endpoints that compute are plain functions, so the server runs them on its worker
threads, never on the event loop: a long sampled answer does not hold up other requests.
Each is bounded by ``max_trials``. Nothing a user sends is written anywhere, and every string
shown is escaped by the templates.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pandas as pd
from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from simlab.about import __version__
from simlab.asking.variants import parse_variant
from simlab.inputs.errors import SimlabError, speaking
from simlab.inputs.files import decode_text
from simlab.output.rendering import render
from simlab.systems import System, all_systems
from simlab.web.answers import answer_chart, chart_response, csv_response, json_response
from simlab.web.battle import battle_files
from simlab.web.cache import answer_of, chart_of
from simlab.web.config import TEMPLATES, Site, own_tables_by_system, variant_systems
from simlab.web.gallery import gallery
from simlab.web.pages import LABELS, question_page
from simlab.web.query import MAX_UPLOAD_BYTES, WEB_SPELLING, carry_upload, variant_files
from simlab.web.questions import parse_query
from simlab.web.varied import view_question
from simlab.web.views import VIEWS, View
from simlab.web.work import DEFAULT_SAMPLED_SLOTS, BusyError, WorkRunner, is_sampled

__all__ = ["create_app", "DEFAULT_WEB_MAX_TRIALS"]

#: The largest variant file a page accepts.
#: The most trials one request may sample unless ``simlab serve --max-trials`` says otherwise.
DEFAULT_WEB_MAX_TRIALS = 2_000_000
_STATIC = Path(__file__).parent / "static"


class _InPageWords:
    """Every message of a request in the page's words: its fields by name (``dx``, ``a.skill``), never a flag."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        with speaking(WEB_SPELLING):
            await self.app(scope, receive, send)


def create_app(
    *,
    max_trials: int = DEFAULT_WEB_MAX_TRIALS,
    results: Path = Path("results"),
    variants: Path = Path("experiments/variants"),
    battles: Path = Path("experiments/battles"),
    sampled_slots: int = DEFAULT_SAMPLED_SLOTS,
    tables: Path | None = None,
) -> FastAPI:
    """The application.

    Args:
        max_trials: The most trials one request may sample.
        results: The directory whose reports the Results page lists.
        variants: The directory of the variant files a page may choose by name.
        battles: The directory of the battle files the Battle view starts from.
        sampled_slots: Sampled answers computed at once; a request beyond them gets HTTP 503.
        tables: A directory of one's own rows, a folder per system (``DIR/hitech_tft/weapons.csv``).
    """
    files = variant_files(variants)
    systems = all_systems()
    own = own_tables_by_system(tables, systems)
    site = Site(max_trials, files, variant_systems(files), battle_files(battles), systems, own=own)
    kinds = {kind for system in systems for kind in system.kinds}
    outcomes_of = {system.name: system.outcome_metrics for system in systems}
    labels_of = {system.name: system.distribution_labels for system in systems}
    runner = WorkRunner(sampled_slots)
    app = FastAPI(title="simlab", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.runner = runner  # the server calls its work off when it stops
    app.state.site = site
    app.mount("/static", StaticFiles(directory=_STATIC), name="static")
    app.add_middleware(_InPageWords)

    @app.exception_handler(SimlabError)
    def _bad_input(request: Request, exc: SimlabError) -> Response:
        return _error(request, str(exc), 503 if isinstance(exc, BusyError) else 400, systems)

    @app.exception_handler(StarletteHTTPException)
    def _not_served(request: Request, exc: StarletteHTTPException) -> Response:
        """A path or method simlab does not serve (a misspelt system, ``..``): the project's error, not a bare body."""
        reason = "no such page" if exc.status_code == 404 else str(exc.detail).lower()
        return _error(request, f"{reason}: {request.url.path[:200]} (the pages are linked from /)", exc.status_code,
                      systems)  # fmt: skip

    @app.exception_handler(Exception)
    def _failure(request: Request, exc: Exception) -> Response:  # pragma: no cover - a bug, shown without a trace
        return _error(request, f"internal error ({type(exc).__name__}): the server is still running", 500, systems)

    def served(kind: str) -> None:
        """Refuse an address whose first part is no kind of question (404, as for any unknown page)."""
        if kind not in kinds:
            raise StarletteHTTPException(404)

    def sampled(kind: str, system: str, items: Sequence[tuple[str, str]]) -> bool:
        """Whether the answer a query asks for is sampled (it then takes one of the sampled slots)."""
        try:
            question, _ = parse_query(system, kind, items)
        except SimlabError:
            return False  # the work refuses it at once
        return is_sampled(items, question.sampled_only)

    def grid_sampled(system: str, items: Sequence[tuple[str, str]]) -> bool:
        try:
            _, question = view_question(system, items)
        except SimlabError:
            return False
        return is_sampled(items, question.sampled_only)

    @app.get("/", response_class=HTMLResponse)
    def home() -> str:
        return render("home.html.j2", TEMPLATES, systems=systems, labels=LABELS, gallery=gallery())

    @app.get("/api/status")
    def status() -> dict[str, Any]:
        """The server's state: its version and the answers being computed now."""
        return {"simlab": __version__, **runner.status(), **site.answers.status(), "max_trials": site.max_trials}

    # --- views of several answers: before the routes of one question, whose first part is a kind ---

    def serve_view(name: str, view: View) -> None:
        """The page, JSON and CSV of one view, at ``/NAME/SYSTEM``, ``/api/NAME/SYSTEM`` and ``/csv/NAME/SYSTEM``."""

        async def view_page(system: str, request: Request) -> Response:
            work = functools.partial(view.page, site, system, request)
            return await runner.run(request, work, sampled=grid_sampled(system, request.query_params.multi_items()))

        async def view_api(system: str, request: Request) -> Response:
            items = request.query_params.multi_items()

            def work(progress: Callable[[int], None]) -> Response:
                return json_response(view.payload(site, system, items))

            return await runner.run(request, work, sampled=grid_sampled(system, items))

        async def view_csv(system: str, request: Request) -> Response:
            items = request.query_params.multi_items()

            def work(progress: Callable[[int], None]) -> Response:
                return Response(view.csv(site, system, items), media_type="text/csv")

            return await runner.run(request, work, sampled=grid_sampled(system, items))

        app.add_api_route(f"/{name}/{{system}}", view_page, methods=["GET"], response_class=HTMLResponse)
        app.add_api_route(f"/api/{name}/{{system}}", view_api, methods=["GET"])
        app.add_api_route(f"/csv/{name}/{{system}}", view_csv, methods=["GET"])

    for name, view in VIEWS.items():
        serve_view(name, view)

    # --- one question of any kind ---

    @app.get("/api/{kind}/{system}")
    async def api_answer(kind: str, system: str, request: Request) -> Response:
        served(kind)
        _, query = parse_query(system, kind, request.query_params.multi_items())

        def work(progress: Callable[[int], None]) -> Response:
            return json_response(answer_of(site.answers, query, query.request(site, progress)))

        return await runner.run(request, work, sampled=query.sampled)

    @app.get("/csv/{kind}/{system}")
    async def csv_answer(kind: str, system: str, request: Request) -> Response:
        served(kind)
        _, query = parse_query(system, kind, request.query_params.multi_items())

        def work(progress: Callable[[int], None]) -> Response:
            return csv_response(answer_of(site.answers, query, query.request(site, progress)))

        return await runner.run(request, work, sampled=query.sampled)

    @app.get("/chart/{kind}/{system}")
    async def chart_answer(kind: str, system: str, request: Request) -> Response:
        served(kind)
        items = [(k, v) for k, v in request.query_params.multi_items() if k not in ("distribution", "at_least")]
        question, query = parse_query(system, kind, items)
        outcomes = outcomes_of.get(system, ()) if not question.input_form.sided else ()

        def work(progress: Callable[[int], None]) -> Response:
            result = answer_of(site.answers, query, query.request(site, progress))
            at_least = request.query_params.get("at_least", "") in ("1", "true")
            name = request.query_params.get("distribution", "")
            draw = lambda: answer_chart(result, name, outcomes, at_least, labels_of.get(system))  # noqa: E731
            return chart_response(chart_of(site.answers, query, (name, at_least), draw))

        return await runner.run(request, work, sampled=query.sampled)

    @app.get("/results", response_class=HTMLResponse)
    def results_page() -> str:
        return render("results.html.j2", TEMPLATES, systems=systems, root=str(results), reports=_reports(results))

    @app.get("/results/{name}/{file}")
    def result_file(name: str, file: str) -> Response:
        known = {report["name"] for report in _reports(results)}
        if name not in known or file not in ("report.html", "report.md", "table.csv", "provenance.json"):
            raise SimlabError(f"no result {name}/{file}: the Results page lists them")
        return FileResponse(results / name / file)

    @app.get("/{kind}/{system}", response_class=HTMLResponse)
    async def page(kind: str, system: str, request: Request) -> Response:
        served(kind)
        work = functools.partial(question_page, site, kind, system, request)
        return await runner.run(request, work, sampled=sampled(kind, system, request.query_params.multi_items()))

    @app.post("/{kind}/{system}", response_class=HTMLResponse)
    async def page_with_upload(kind: str, system: str, request: Request) -> Response:
        """A variant uploaded as a TOML file: checked, then carried in the page's address (never written).

        The answer is a redirect to the same page with the variant in its address, so that it stays in
        force through every change of the form, and its link, charts and CSV carry it too.
        """
        served(kind)
        form = await request.form()
        upload = form.get("variant_file")
        if upload is None or isinstance(upload, str):
            raise SimlabError("no variant file: choose a TOML file to upload")
        data = await upload.read(MAX_UPLOAD_BYTES + 1)
        if len(data) > MAX_UPLOAD_BYTES:
            raise SimlabError(
                f"{upload.filename}: larger than {MAX_UPLOAD_BYTES // 1024} KiB; a variant is far smaller"
            )
        name = Path(upload.filename or "upload.toml").name
        text = decode_text(data, name)
        parse_variant(text, name, system)
        items = [(k, v) for k, v in request.query_params.multi_items() if k != "variant"]
        address = f"/{kind}/{system}?{urlencode([*items, ('variant', carry_upload(text))])}"
        return RedirectResponse(address, status_code=303)

    return app


def _error(request: Request, message: str, status: int, systems: Sequence[System]) -> Response:
    """The message as the address asked: JSON for data, one line of text for a chart (an image), else a page."""
    if request.url.path.startswith(("/api/", "/csv/")):
        return JSONResponse({"error": message}, status_code=status)
    if request.url.path.startswith("/chart/"):
        return PlainTextResponse(f"error: {message}\n", status_code=status)
    return HTMLResponse(render("error.html.j2", TEMPLATES, systems=systems, message=message), status_code=status)


def _reports(root: Path) -> list[dict[str, Any]]:
    """The results directories under ``root`` that hold a report, newest first."""
    if not root.is_dir():
        return []
    found = []
    for directory in root.iterdir():
        report = directory / "report.html"
        if directory.is_dir() and report.is_file():
            rows = ""
            with contextlib.suppress(OSError, ValueError, AttributeError):
                rows = str(json.loads((directory / "provenance.json").read_text(encoding="utf-8")).get("rows", ""))
            stamp = pd.Timestamp(report.stat().st_mtime, unit="s").strftime("%Y-%m-%d %H:%M")
            found.append({"name": directory.name, "written": stamp, "rows": rows, "mtime": report.stat().st_mtime})
    return sorted(found, key=lambda r: -r["mtime"])
