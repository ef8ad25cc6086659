"""The web application of ``simlab serve``: pages and a JSON API generated from the system registry.

Routes:

* ``/``: the systems and their questions.
* ``/attack/<system>`` (``?kind=`` for a further question): the Ask page. Its form is made
  from the question's scenario inputs and the system's rule parameters; the answer below it
  follows every change (htmx swaps the answer only), and the page's address holds every input.
* ``/api/attack/<system>``, ``/api/duel/<system>``: exactly the JSON of ``simlab attack --json``
  and ``simlab duel --json`` for the same inputs; bad input is a 400 with
  ``{"error": "<the command line's one-line message>"}``.
* ``/results``: the reports under the results directory, each opened at
  ``/results/<name>/report.html``.

The endpoints that compute are plain functions, so the server runs them on its worker
threads, never on the event loop: a long sampled answer does not hold up other requests.
Each is bounded by ``max_trials``. Nothing a user sends is written anywhere, and every string
shown is escaped by the templates.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pandas as pd
from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from simlab import __version__
from simlab.inputs.errors import SimlabError
from simlab.inputs.files import decode_text
from simlab.inputs.params import describe
from simlab.inputs.requests import DEFAULT_TRIALS
from simlab.inputs.variants import Variant, load_variant, parse_variant
from simlab.output import plots
from simlab.output.document import Chart
from simlab.output.publish import png_bytes
from simlab.output.rendering import render
from simlab.systems import System, all_systems, get_system, require_battles, require_duels
from simlab.web.battle import battle_files, battle_form, battle_items, parse_battle
from simlab.web.compare import CompareQuery, compare_items, compare_loadouts, parse_compare
from simlab.web.query import (
    AttackQuery,
    DuelQuery,
    duel_items,
    parse_attack,
    parse_duel,
    query_items,
    variant_files,
)
from simlab.web.sweep import (
    SWEEP_KEYS,
    SweepQuery,
    parse_sweep,
    sweep_chart,
    sweep_experiment,
    sweep_items,
    sweep_table,
)
from simlab.web.work import DEFAULT_SAMPLED_SLOTS, BusyError, WorkRunner, is_sampled

__all__ = ["create_app", "DEFAULT_WEB_MAX_TRIALS"]

#: The links an answer offers: the page itself, its JSON and its CSV.
_LINKS = {"page": "", "json": "/api", "csv": "/csv"}
#: The name of the outcome-breakdown chart among an answer's charts.
OUTCOMES = "outcomes"
#: The name of a battle's survival curves among its charts.
SURVIVAL = "survival"
#: The largest variant file a page accepts.
MAX_UPLOAD_BYTES = 64 * 1024
#: The most trials one request may sample unless ``simlab serve --max-trials`` says otherwise.
DEFAULT_WEB_MAX_TRIALS = 2_000_000
_STATIC = Path(__file__).parent / "static"


@dataclass(frozen=True)
class _Config:
    """What every view of one application shares."""

    max_trials: int
    variants: Mapping[str, Path]
    variant_systems: Mapping[str, str]
    battles: Mapping[str, tuple[str, Path]]


def create_app(
    *,
    max_trials: int = DEFAULT_WEB_MAX_TRIALS,
    results: Path = Path("results"),
    variants: Path = Path("experiments/variants"),
    battles: Path = Path("experiments/battles"),
    sampled_slots: int = DEFAULT_SAMPLED_SLOTS,
) -> FastAPI:
    """The application.

    Args:
        max_trials: The most trials one request may sample.
        results: The directory whose reports the Results page lists.
        variants: The directory of the variant files a page may choose by name.
        battles: The directory of the battle files the Battle view starts from.
        sampled_slots: Sampled answers computed at once; a request beyond them gets HTTP 503.
    """
    files = variant_files(variants)
    config = _Config(max_trials, files, _variant_systems(files), battle_files(battles))
    runner = WorkRunner(sampled_slots)
    app = FastAPI(title="simlab", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.runner = runner  # the server calls its work off when it stops
    app.mount("/static", StaticFiles(directory=_STATIC), name="static")
    systems = all_systems()

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

    @app.get("/", response_class=HTMLResponse)
    def home() -> str:
        return render("home.html.j2", systems=systems)

    @app.get("/api/attack/{system}")
    async def api_attack(system: str, request: Request) -> Response:
        query = _attack_query(system, request)

        def work(progress: Callable[[int], None]) -> Response:
            chosen, attack = query.request(config.max_trials, config.variants, progress)
            return _json(chosen.attack(attack).to_json())

        return await runner.run(request, work, sampled=query.method != "exact")

    @app.get("/api/duel/{system}")
    async def api_duel(system: str, request: Request) -> Response:
        query = parse_duel(system, request.query_params.multi_items())

        def work(progress: Callable[[int], None]) -> Response:
            chosen, duel = query.request(config.max_trials, progress)
            assert chosen.duel is not None
            return _json(chosen.duel(duel).to_json())

        return await runner.run(request, work, sampled=True)

    @app.get("/api/status")
    def status() -> dict[str, Any]:
        """The server's state: its version and the answers being computed now."""
        return {"simlab": __version__, **runner.status(), "max_trials": config.max_trials}

    @app.get("/attack/{system}", response_class=HTMLResponse)
    async def ask(system: str, request: Request) -> Response:
        page = functools.partial(ask_page, system, request)
        return await runner.run(request, page, sampled=_sampled_query(system, request))

    @app.post("/attack/{system}", response_class=HTMLResponse)
    async def ask_with_upload(system: str, request: Request) -> Response:
        """The Ask page with a variant uploaded as a TOML file: parsed in memory, never written."""
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
        variant = parse_variant(decode_text(data, name), name, system)
        page = functools.partial(ask_page, system, request, uploaded=variant)
        return await runner.run(request, page, sampled=_sampled_query(system, request))

    def ask_page(
        system: str, request: Request, progress: Callable[[int], None], uploaded: Variant | None = None
    ) -> Response:
        items = request.query_params.multi_items()
        base, kind, chosen = _question(system, items)
        title = chosen.title if kind != "attack" else f"One attack: {base.title}"
        context = _view_context(
            systems, base, kind, "attack", title, "Choose the inputs above: the answer appears here."
        )
        query = AttackQuery(system, kind)
        try:
            query = parse_attack(system, items, chosen.sampled_only)
            if query.inputs or query.rules or not chosen.row_inputs or uploaded is not None:
                context.update(_answer(chosen, query, config, progress, uploaded))
        except SimlabError as exc:
            if query.inputs or query.rules:  # a page opened with nothing chosen yet shows the hint, not an error
                context["error"] = str(exc)
                context["error_field"] = _field_named(str(exc), chosen, base)
        context["groups"] = _form_groups(base, chosen, query, config)
        context["query_string"] = request.url.query
        return _page(request, context)

    @app.get("/duel/{system}", response_class=HTMLResponse)
    async def duel(system: str, request: Request) -> Response:
        return await runner.run(request, functools.partial(duel_page, system, request), sampled=True)

    def duel_page(system: str, request: Request, progress: Callable[[int], None]) -> Response:
        base = get_system(system)
        require_duels(base)
        items = request.query_params.multi_items()
        hint = "Choose both sides above: the duels are sampled and their outcome appears here."
        context = _view_context(systems, base, "duel", "duel", f"A duel: {base.title}", hint)
        query = DuelQuery(system)
        try:
            query = parse_duel(system, items)
            if query.a or query.b:
                chosen, duel = query.request(config.max_trials, progress)
                assert chosen.duel is not None
                encoded = urlencode(duel_items(query))
                docs = {**base.metrics, **base.extra_metrics}
                answer = chosen.duel(duel).to_json()
                context.update(_answer_context(answer, docs, "duel", system, encoded, query.command()))
        except SimlabError as exc:
            context["error"] = str(exc)
        context["groups"] = _duel_groups(base, query)
        return _page(request, context)

    @app.get("/battle/{system}", response_class=HTMLResponse)
    async def battle(system: str, request: Request) -> Response:
        return await runner.run(request, functools.partial(battle_page, system, request), sampled=True)

    def battle_page(system: str, request: Request, progress: Callable[[int], None]) -> Response:
        base = get_system(system)
        require_battles(base)
        items = request.query_params.multi_items()
        hint = (
            "Change a side's groups, doctrine or range: the battles are sampled and their survival curves appear here."
        )
        context = _view_context(systems, base, "battle", "battle", f"A battle: {base.title}", hint)
        shipped = sorted(name for name, (owner, _) in config.battles.items() if owner == system)
        context.update(battles=shipped, add_group=None, groups=[])
        query = parse_battle(system, items)
        if not query.battle and shipped:
            query = dataclasses.replace(query, battle=shipped[0])
        context["battle_name"] = query.battle
        try:
            found = query.load(config.battles)
            context["groups"] = _battle_groups(base, found, query)
            context["add_group"] = {  # a new group, like the side's last one
                label: f"/battle/{system}?"
                + urlencode([*battle_items(query), (f"{label}.groups.{len(side.groups)}.count", 1)])
                for label, side in zip("ab", found.sides, strict=True)
            }
            chosen, battle_request = query.request(config.battles, config.max_trials, progress)
            assert chosen.battle is not None
            answer = chosen.battle(battle_request).to_json()
            encoded = urlencode(battle_items(query))
            docs = {**base.metrics, **base.extra_metrics}
            shown = _answer_context(answer, docs, "battle", system, encoded, query.command(config.battles))
            shown["answer"]["chart_urls"].insert(
                0,
                {
                    "url": f"/chart/battle/{system}?{encoded}&distribution={SURVIVAL}",
                    "name": SURVIVAL,
                    "caption": "Figures standing after each turn, per side (95 % bands)",
                },
            )
            shown["answer"]["metrics"] = [
                m for m in shown["answer"]["metrics"] if not m["name"].startswith("standing_")
            ]
            context.update(shown)
        except SimlabError as exc:
            context["error"] = str(exc)
        return _page(request, context)

    @app.get("/api/battle/{system}")
    async def api_battle(system: str, request: Request) -> Response:
        query = parse_battle(system, request.query_params.multi_items())

        def work(progress: Callable[[int], None]) -> Response:
            chosen, battle_request = query.request(config.battles, config.max_trials, progress)
            assert chosen.battle is not None
            return _json(chosen.battle(battle_request).to_json())

        return await runner.run(request, work, sampled=True)

    @app.get("/chart/battle/{system}")
    async def chart_battle(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            items = [(k, v) for k, v in request.query_params.multi_items() if k != "distribution"]
            chosen, battle_request = parse_battle(system, items).request(config.battles, config.max_trials)
            assert chosen.battle is not None
            answer = chosen.battle(battle_request).to_json()
            name = request.query_params.get("distribution", "")
            if name == SURVIVAL:
                frame = _metrics_frame(answer).assign(method=answer["method"])
                figure = plots.survival(frame, title=f"Figures standing: {answer['scenario']['battle']}")
                return Response(
                    png_bytes(figure), media_type="image/png", headers={"Cache-Control": "private, max-age=3600"}
                )
            return _chart_response(answer, name)

        return await runner.run(request, work, sampled=True)

    @app.get("/csv/battle/{system}")
    async def csv_battle(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            query = parse_battle(system, request.query_params.multi_items())
            chosen, battle_request = query.request(config.battles, config.max_trials)
            assert chosen.battle is not None
            return _csv(chosen.battle(battle_request).to_json())

        return await runner.run(request, work, sampled=True)

    @app.get("/csv/duel/{system}")
    async def csv_duel(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            chosen, duel = parse_duel(system, request.query_params.multi_items()).request(config.max_trials)
            assert chosen.duel is not None
            return _csv(chosen.duel(duel).to_json())

        return await runner.run(request, work, sampled=True)

    def grid_page(
        system: str,
        request: Request,
        view: str,
        hint: str,
        asked: Callable[[dict[str, str]], bool],
        answer: Callable[[System, Sequence[tuple[str, str]]], tuple[AttackQuery, dict[str, Any]]],
        own_fields: Callable[[System, dict[str, str]], list[dict[str, Any]]],
    ) -> Response:
        """A view of several answers (Sweep, Compare): its own fields above the Ask page's form."""
        items = request.query_params.multi_items()
        base, kind, chosen = _question(system, items)
        title = f"{view.capitalize()}: {chosen.title if kind != 'attack' else base.title}"
        context = _view_context(systems, base, kind, view, title, hint)
        attack = None
        try:
            if asked(dict(items)):
                attack, shown = answer(chosen, items)
                context.update(shown)
        except SimlabError as exc:
            context["error"] = str(exc)
        attack = attack or parse_attack(system, [], chosen.sampled_only)
        context["groups"] = [(view, own_fields(chosen, dict(items))), *_form_groups(base, chosen, attack, config)]
        return _page(request, context)

    @app.get("/sweep/{system}", response_class=HTMLResponse)
    async def sweep_page(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            def answer(chosen: System, items: Sequence[tuple[str, str]]) -> tuple[AttackQuery, dict[str, Any]]:
                query = parse_sweep(system, items, chosen.sampled_only)
                return query.attack, _sweep_answer(query, config)

            hint = "Choose the input along the x axis, its values and a metric: the chart appears here."
            return grid_page(
                system, request, "sweep", hint, lambda given: any(k in given for k in SWEEP_KEYS), answer, _sweep_fields
            )

        return await runner.run(request, work, sampled=_sampled_query(system, request))

    @app.get("/api/sweep/{system}")
    async def api_sweep(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            items = request.query_params.multi_items()
            _, _, chosen = _question(system, items)
            query = parse_sweep(system, items, chosen.sampled_only)
            points = [{"inputs": dict(p.inputs), **_sweep_point(p, config)} for p in query.points()]
            return _json({"x": query.x, "metric": query.metric, "series": query.series, "points": points})

        return await runner.run(request, work, sampled=_sampled_query(system, request))

    @app.get("/compare/{system}", response_class=HTMLResponse)
    async def compare_page(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            def answer(chosen: System, items: Sequence[tuple[str, str]]) -> tuple[AttackQuery, dict[str, Any]]:
                query = parse_compare(system, items, chosen.sampled_only)
                return query.attack, _compare_answer(chosen, query, config)

            hint = "Choose the input that varies and its options, or a variant: the loadouts side by side."
            return grid_page(
                system,
                request,
                "compare",
                hint,
                lambda given: "vary" in given or "variant" in given,
                answer,
                _compare_fields,
            )

        return await runner.run(request, work, sampled=_sampled_query(system, request))

    @app.get("/api/compare/{system}")
    async def api_compare(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            items = request.query_params.multi_items()
            _, _, chosen = _question(system, items)
            query = parse_compare(system, items, chosen.sampled_only)
            table, _ = compare_loadouts(query, config.max_trials, config.variants)
            return _json({"columns": [c.label for c in query.columns()], "table": table.to_dict("records")})

        return await runner.run(request, work, sampled=_sampled_query(system, request))

    @app.get("/chart/attack/{system}")
    async def chart_attack(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            items = [(k, v) for k, v in request.query_params.multi_items() if k != "distribution"]
            _, _, chosen = _question(system, items)
            query = parse_attack(system, items, chosen.sampled_only)
            system_of, attack = query.request(config.max_trials, config.variants)
            answer = system_of.attack(attack).to_json()
            return _chart_response(answer, request.query_params.get("distribution", ""), chosen.outcome_metrics)

        return await runner.run(request, work, sampled=_sampled_query(system, request))

    @app.get("/chart/duel/{system}")
    async def chart_duel(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            items = [(k, v) for k, v in request.query_params.multi_items() if k != "distribution"]
            chosen, duel = parse_duel(system, items).request(config.max_trials)
            assert chosen.duel is not None
            return _chart_response(chosen.duel(duel).to_json(), request.query_params.get("distribution", ""))

        return await runner.run(request, work, sampled=True)

    @app.get("/csv/sweep/{system}")
    async def csv_sweep(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            items = request.query_params.multi_items()
            _, _, chosen = _question(system, items)
            query = parse_sweep(system, items, chosen.sampled_only)
            table = sweep_table(query, [_sweep_point(point, config) for point in query.points()])
            return Response(table.to_csv(index=False, lineterminator="\n"), media_type="text/csv")

        return await runner.run(request, work, sampled=_sampled_query(system, request))

    @app.get("/csv/compare/{system}")
    async def csv_compare(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            items = request.query_params.multi_items()
            _, _, chosen = _question(system, items)
            table, _ = compare_loadouts(
                parse_compare(system, items, chosen.sampled_only), config.max_trials, config.variants
            )
            return Response(table.to_csv(index=False, lineterminator="\n"), media_type="text/csv")

        return await runner.run(request, work, sampled=_sampled_query(system, request))

    @app.get("/csv/attack/{system}")
    async def csv_attack(system: str, request: Request) -> Response:
        def work(progress: Callable[[int], None]) -> Response:
            query = _attack_query(system, request)
            chosen, attack = query.request(config.max_trials, config.variants)
            return _csv(chosen.attack(attack).to_json())

        return await runner.run(request, work, sampled=_sampled_query(system, request))

    @app.get("/results", response_class=HTMLResponse)
    def results_page() -> str:
        return render("results.html.j2", systems=systems, root=str(results), reports=_reports(results))

    @app.get("/results/{name}/{file}")
    def result_file(name: str, file: str) -> Response:
        known = {report["name"] for report in _reports(results)}
        if name not in known or file not in ("report.html", "report.md", "table.csv", "provenance.json"):
            raise SimlabError(f"no result {name}/{file}: the Results page lists them")
        return FileResponse(results / name / file)

    return app


def _sampled_query(system: str, request: Request) -> bool:
    """Whether the answer a query asks for is sampled (it then takes one of the sampled slots)."""
    items = request.query_params.multi_items()
    try:
        _, _, chosen = _question(system, items)
    except SimlabError:
        return False  # the work refuses it at once
    return is_sampled(items, chosen.sampled_only)


def _question(system: str, items: Sequence[tuple[str, str]]) -> tuple[System, str, System]:
    """The system of a view, the kind of question its query asks (``kind=``), and the system that answers it."""
    base = get_system(system)
    kind = dict(items).get("kind", "attack")
    return base, kind, base.for_kind(kind)


def _view_context(
    systems: Sequence[System], base: System, kind: str, view: str, title: str, hint: str
) -> dict[str, Any]:
    """What every page's template starts from (an answer, an error and the form are added to it)."""
    return {
        "systems": systems,
        "system": base,
        "kind": kind,
        "view": view,
        "title": title,
        "hint": hint,
        "error": None,
        "error_field": None,
        "answer": None,
    }


def _page(request: Request, context: dict[str, Any]) -> HTMLResponse:
    """The whole page, or only its answer for htmx (which swaps the answer in place); 400 with an error."""
    template = "answer.html.j2" if request.headers.get("HX-Request") else "ask.html.j2"
    return HTMLResponse(render(template, **context), status_code=400 if context["error"] else 200)


def _attack_query(system: str, request: Request) -> AttackQuery:
    items = request.query_params.multi_items()
    _, _, chosen = _question(system, items)
    return parse_attack(system, items, chosen.sampled_only)


def _sweep_point(point: AttackQuery, config: _Config) -> dict[str, Any]:
    system, attack = point.request(config.max_trials, config.variants)
    result = system.attack(attack).to_json()
    return {"method": result["method"], "metrics": result["metrics"], "ci95": result.get("ci95", {})}


def _sweep_answer(query: SweepQuery, config: _Config) -> dict[str, Any]:
    """The chart and table of a sweep, its links, and the experiment file that runs it."""
    answers = [_sweep_point(point, config) for point in query.points()]
    table = sweep_table(query, answers)
    figure = sweep_chart(query, table)
    width, height = (float(v) for v in figure.get_size_inches())
    chart = Chart("sweep", f"{query.metric} against {query.x}", png_bytes(figure), width, height)
    keys = [query.x, *([query.series] if query.series else [])]
    metrics = [
        {
            "name": ", ".join(_shown(row[k]) for k in keys),
            "shown": _shown(row["value"]),
            "interval": f"{_shown(row['ci_low'])} – {_shown(row['ci_high'])}",
            "doc": "",
        }
        for row in table.to_dict("records")
    ]
    note = "The same as an experiment: save it as sweep.toml and run simlab run sweep.toml"
    return _grid_answer("sweep", query.attack, sweep_items(query), metrics, [chart], sweep_experiment(query), note)


def _grid_answer(
    view: str,
    attack: AttackQuery,
    items: list[tuple[str, Any]],
    metrics: list[dict[str, Any]],
    charts: list[Chart],
    command: str,
    note: str,
) -> dict[str, Any]:
    """What ``answer.html.j2`` shows of a view of several answers: its points, charts, links and command."""
    encoded = urlencode(items)
    return {
        "answer": {
            "method": attack.method,
            "trials": attack.trials or DEFAULT_TRIALS,
            "seed": attack.seed,
            "metrics": metrics,
            "charts": charts,
        },
        "links": {kind: f"{prefix}/{view}/{attack.system}?{encoded}" for kind, prefix in _LINKS.items()},
        "command": command,
        "command_note": note,
    }


def _sweep_fields(chosen: System, given: Mapping[str, str]) -> list[dict[str, Any]]:
    names = [spec["name"] for spec in describe(chosen.scenario_type)]
    return [
        _field(
            {"name": "x", "default": "", "choices": names, "doc": "the input along the x axis"}, "x", given.get("x")
        ),
        _field(
            {"name": "values", "default": "", "doc": "its values, separated by commas"}, "values", given.get("values")
        ),
        _field(
            {"name": "metric", "default": "", "choices": list(chosen.metrics), "doc": "the metric shown"},
            "metric",
            given.get("metric"),
        ),
        _field(
            {"name": "series", "default": "", "doc": "an input with one line per value (optional)"},
            "series",
            given.get("series"),
            ["", *names],
        ),
        _field(
            {"name": "series_values", "default": "", "doc": "its values, separated by commas"},
            "series_values",
            given.get("series_values"),
        ),
    ]


def _compare_answer(chosen: System, query: CompareQuery, config: _Config) -> dict[str, Any]:
    """The loadouts side by side, their distributions overlaid, and the links."""
    table, answers = compare_loadouts(query, config.max_trials, config.variants)
    columns = [c.label for c in query.columns()]
    frames = []
    for label, answer in zip(columns, answers, strict=True):
        for name, pmf in answer["distributions"].items():
            frames += [
                {
                    "distribution": name,
                    "outcome": int(k),
                    "probability": p,
                    "method": answer["method"],
                    "loadout": label,
                }
                for k, p in pmf.items()
            ]
    charts = []
    frame = pd.DataFrame(frames)
    for name in dict.fromkeys(frame["distribution"]) if len(frame) else []:
        figure = plots.distribution(frame, name=name, by="loadout")
        width, height = (float(v) for v in figure.get_size_inches())
        charts.append(Chart(f"distribution_{name}", f"Distribution of the {name}", png_bytes(figure), width, height))
    rows = []
    for record in table.to_dict("records"):
        cells = [_shown(record[c]) for c in columns]
        deltas = []
        for c in columns[1:]:
            delta = record.get(f"Δ {c}")
            half = record.get(f"± {c}")
            if delta is not None and abs(delta) < 1e-12:  # a rounding error of equal answers
                delta = 0.0
            deltas.append("" if delta is None else _shown(delta) + ("" if half is None else f" ± {_shown(half)}"))
        rows.append(
            {
                "metric": record["metric"],
                "doc": chosen.metrics.get(record["metric"], ""),
                "cells": cells,
                "deltas": deltas,
            }
        )
    command = " \\\n  ".join(c.attack.command() for c in query.columns())
    note = "Each loadout from the command line (simlab compare does the same for an experiment's grid):"
    shown = _grid_answer("compare", query.attack, compare_items(query), [], charts, command, note)
    shown["comparison"] = {"columns": columns, "rows": rows, "paired": query.attack.method != "exact"}
    return shown


def _compare_fields(chosen: System, given: Mapping[str, str]) -> list[dict[str, Any]]:
    names = [spec["name"] for spec in describe(chosen.scenario_type)]
    return [
        _field(
            {"name": "vary", "default": "", "doc": "the input whose options are compared"},
            "vary",
            given.get("vary"),
            ["", *names],
        ),
        _field(
            {"name": "options", "default": "", "doc": "its options, separated by commas"},
            "options",
            given.get("options"),
        ),
    ]


def _csv(result: dict[str, Any]) -> Response:
    """The metrics of a result (with their intervals when sampled) as CSV."""
    buffer = io.StringIO()
    _metrics_frame(result).to_csv(buffer, index=False, lineterminator="\n")
    return Response(buffer.getvalue(), media_type="text/csv")


def _json(payload: Any) -> Response:
    """The JSON text the command line prints (NaN included where it prints NaN)."""
    return Response(json.dumps(payload, indent=2), media_type="application/json")


def _error(request: Request, message: str, status: int, systems: Sequence[System]) -> Response:
    if request.url.path.startswith(("/api/", "/csv/")):
        return JSONResponse({"error": message}, status_code=status)
    return HTMLResponse(render("error.html.j2", systems=systems, message=message), status_code=status)


def _answer(
    chosen: System,
    query: AttackQuery,
    config: _Config,
    progress: Callable[[int], None] | None = None,
    uploaded: Variant | None = None,
) -> dict[str, Any]:
    """The answer part of the Ask page: metrics, charts, links and the command."""
    system, attack = query.request(config.max_trials, config.variants, progress, uploaded)
    encoded = urlencode(query_items(query))
    context = _answer_context(
        system.attack(attack).to_json(),
        chosen.metrics,
        "attack",
        query.system,
        encoded,
        query.command(),
        chosen.outcome_metrics,
    )
    if uploaded is not None:  # the numbers are the upload's; a link cannot carry the file
        context["uploaded"] = uploaded.name
        context["links"] = {}
        context["command"] = query.command() + f" --variant {uploaded.path.name}"
    return context


def _answer_context(
    result: dict[str, Any],
    docs: Mapping[str, str],
    view: str,
    system: str,
    encoded: str,
    command: str,
    outcomes: Sequence[str] = (),
) -> dict[str, Any]:
    """What ``answer.html.j2`` shows of one result's JSON: metrics with intervals, charts, links, command."""
    intervals = result.get("ci95", {})
    metrics = []
    for name, value in result["metrics"].items():
        low_high = intervals.get(name)
        metrics.append(
            {
                "name": name,
                "shown": _shown(value),
                "interval": f"{_shown(low_high[0])} – {_shown(low_high[1])}" if low_high else "",
                "doc": docs.get(name, ""),
            }
        )
    # The charts are images of their own (/chart/...): the numbers come at once, each chart as it is drawn.
    chart_urls = [
        {
            "url": f"/chart/{view}/{system}?{encoded}&{urlencode({'distribution': name})}",
            "name": name,
            "caption": f"Distribution of the {name}",
        }
        for name, pmf in result["distributions"].items()
        if pmf
    ]
    if outcomes and all(m in result["metrics"] for m in outcomes):  # the system's breakdown of exclusive outcomes
        chart_urls.insert(
            0,
            {
                "url": f"/chart/{view}/{system}?{encoded}&distribution={OUTCOMES}",
                "name": OUTCOMES,
                "caption": "How the attack ends: its exclusive outcomes",
            },
        )
    return {
        "answer": {
            "method": result["method"],
            "trials": result["trials"],
            "seed": result["seed"],
            "metrics": metrics,
            "charts": [],
            "chart_urls": chart_urls,
        },
        "links": {kind: f"{prefix}/{view}/{system}?{encoded}" for kind, prefix in _LINKS.items()},
        "command": command,
    }


def _shown(value: Any) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.6g}"
    return str(value)


def _metrics_frame(result: dict[str, Any]) -> pd.DataFrame:
    intervals = result.get("ci95", {})
    return pd.DataFrame(
        [
            {
                "metric": name,
                "value": value,
                "ci_low": intervals.get(name, [None, None])[0],
                "ci_high": intervals.get(name, [None, None])[1],
            }
            for name, value in result["metrics"].items()
        ]
    )


def _chart_response(result: dict[str, Any], name: str, outcomes: Sequence[str] = ()) -> Response:
    """One distribution of an answer (or its outcome breakdown) as a PNG: the same answer draws the same image."""
    if name == OUTCOMES and outcomes:
        rows = [
            {"answer": "this attack", "metric": m, "value": result["metrics"][m], "method": result["method"]}
            for m in outcomes
        ]
        figure = plots.stacked(pd.DataFrame(rows), metrics=outcomes, rows="answer", title="How the attack ends")
        return Response(png_bytes(figure), media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})
    pmf = result["distributions"].get(name)
    if not pmf:
        raise SimlabError(f"unknown distribution {name!r} (valid: {', '.join(result['distributions'])})")
    chart = _distribution_chart(name, pmf, result["method"])
    return Response(chart.png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


def _distribution_chart(name: str, pmf: dict[str, float], method: str) -> Chart:
    """One distribution of the answer, drawn as the reports draw distributions."""
    frame = pd.DataFrame(
        {"distribution": name, "outcome": [int(k) for k in pmf], "probability": list(pmf.values()), "method": method}
    )
    figure = plots.distribution(frame, name=name)
    width, height = (float(v) for v in figure.get_size_inches())
    return Chart(f"distribution_{name}", f"Distribution of the {name}", png_bytes(figure), width, height)


def _form_groups(
    base: System, chosen: System, query: AttackQuery, config: _Config
) -> list[tuple[str, list[dict[str, Any]]]]:
    """The form's fields, generated from the registry: the scenario, then the rules (and a variant)."""
    tables = base.tables()
    scenario = []
    for spec in describe(chosen.scenario_type):
        rows = chosen.row_inputs.get(spec["name"])
        choices = [str(r["name"]) for r in tables[rows].as_records()] if rows else None
        scenario.append(_field(spec, spec["name"], query.inputs.get(spec["name"]), choices))
    rules = [_field(spec, f"rule.{spec['name']}", query.rules.get(spec["name"])) for spec in describe(base.rules_type)]
    mine = [name for name, system in config.variant_systems.items() if system == base.name]
    if mine:
        doc = "a house-rule variant of experiments/variants/ (blank: the base rules)"
        rules.insert(0, _field({"name": "variant", "default": "", "doc": doc}, "variant", query.variant, ["", *mine]))
    sampling = [
        _field(
            {
                "name": "method",
                "default": query.method,
                "doc": "exact values, or sampled with 95 % intervals",
                "choices": ["monte_carlo"] if chosen.sampled_only else ["exact", "monte_carlo"],
            },
            "method",
            query.method,
        ),
        *_sampling_fields(query.trials, query.seed, "trials to sample"),
    ]
    fields = {spec["name"] for spec in describe(chosen.scenario_type)}
    edits = [
        (f"edit {name}", _row_fields(name, tables[table].as_records(), query.inputs))
        for name, table in chosen.row_inputs.items()
        if name in fields
    ]
    return [("scenario", scenario), *edits, ("rules", rules), ("method", sampling)]


def _row_fields(name: str, records: list[dict[str, Any]], inputs: Mapping[str, str]) -> list[dict[str, Any]]:
    """``ROW.COLUMN`` overrides of the chosen row (or a row of one's own): one text box per column."""
    chosen = next((r for r in records if str(r["name"]) == inputs.get(name)), None)
    fields = []
    for column in [c for c in (records[0] if records else {}) if c != "name"]:
        shown = "" if chosen is None or chosen[column] is None else str(chosen[column])
        doc = f"{name} column {column}" + (f" (the {chosen['name']} has {shown})" if chosen is not None else "")
        fields.append(
            _field({"name": column, "default": shown, "doc": doc}, f"{name}.{column}", inputs.get(f"{name}.{column}"))
        )
    return fields


def _battle_groups(base: System, battle: Any, query: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """The battle form: the battle's own values by dotted path, then the rules, trials and seed."""
    groups = battle_form(base, battle, query, _field)
    rules = [_field(spec, f"rule.{spec['name']}", query.rules.get(spec["name"])) for spec in describe(base.rules_type)]
    return [*groups, ("rules", rules), ("sampling", _sampling_fields(query.trials, query.seed, "battles to sample"))]


def _duel_groups(base: System, query: DuelQuery) -> list[tuple[str, list[dict[str, Any]]]]:
    """The duel form: each side's inputs (``a.KEY``, ``b.KEY``), the rules, trials and seed."""
    assert base.duel_side_type is not None
    tables = base.tables()
    groups = []
    for side, given in (("a", query.a), ("b", query.b)):
        fields = []
        for spec in describe(base.duel_side_type):
            rows = base.row_inputs.get(spec["name"])
            choices = [str(r["name"]) for r in tables[rows].as_records()] if rows else None
            fields.append(_field(spec, f"{side}.{spec['name']}", given.get(spec["name"]), choices))
        groups.append((f"side {side.upper()}", fields))
    rules = [_field(spec, f"rule.{spec['name']}", query.rules.get(spec["name"])) for spec in describe(base.rules_type)]
    return [*groups, ("rules", rules), ("sampling", _sampling_fields(query.trials, query.seed, "duels to sample"))]


def _sampling_fields(trials: int | None, seed: int, what: str) -> list[dict[str, Any]]:
    """The trials and seed of a sampled answer."""
    return [
        _field(
            {"name": "trials", "type": "int", "default": None, "minimum": 1, "doc": what},
            "trials",
            None if trials is None else str(trials),
        ),
        _field(
            {"name": "seed", "type": "int", "default": 0, "minimum": 0, "doc": "root seed of the random streams"},
            "seed",
            str(seed),
        ),
    ]


def _field(spec: dict[str, Any], key: str, given: str | None, rows: list[str] | None = None) -> dict[str, Any]:
    """One form control: a select for choices and table rows, a checkbox for a boolean, a number box..."""
    default = spec.get("default")
    value: Any = given if given is not None else ("" if default is None else default)
    field: dict[str, Any] = {
        "key": key,
        "name": spec["name"],
        "doc": spec.get("doc", ""),
        "value": value,
        "placeholder": "" if default in (None, "") else str(default),
        "minimum": spec.get("minimum"),
        "maximum": spec.get("maximum"),
        "blank": "",
    }
    kind = str(spec.get("type", "str")).rstrip("?")
    if rows is not None:
        field.update(control="select", choices=rows, blank="(choose)")
    elif spec.get("choices"):
        field.update(control="select", choices=[str(c) for c in spec["choices"]], value=str(value))
    elif kind == "bool" and default is not True:
        field.update(control="checkbox", value=str(value).lower() in ("true", "1", "yes", "on"))
    elif kind == "bool":
        field.update(control="select", choices=["true", "false"], value=str(value).lower())
    elif kind in ("int", "float"):
        field.update(control="number", step="1" if kind == "int" else "any", value="" if given is None else given)
    else:
        field.update(control="text", value="" if given is None else given)
    return field


def _field_named(message: str, chosen: System, base: System) -> str | None:
    """The form field a one-line message is about (the first input it names), for the inline mark."""
    names = [s["name"] for s in describe(chosen.scenario_type)]
    names += [f"rule.{s['name']}" for s in describe(base.rules_type)]
    for name in names:
        if name.removeprefix("rule.") in message:
            return name
    return None


def _variant_systems(files: Mapping[str, Path]) -> dict[str, str]:
    """The system of each variant file (files that do not load are left out)."""
    systems = {}
    for name, path in files.items():
        with contextlib.suppress(SimlabError):
            systems[name] = load_variant(path).system
    return systems


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
