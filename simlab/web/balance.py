"""The Balance view: any registered analysis (:mod:`simlab.analyses`) asked from a form.

``/balance/SYSTEM?do=solve&find=dx&in=6..20&target=p_hit%3D0.75&weapon=assault+rifle&method=exact``
and ``/balance/SYSTEM?do=sensitivity&metric=p_hit&vary=skill%3D0..4%3B+cover%3Dnone,partial,full``,
with the question's other inputs as on its own page (any kind: ``kind=battle&battle=...`` with
``find=a.count``). ``do`` names an analysis's table (``tournament`` is a matchup when it has
defenders); the view's fields are the analysis's keys. The answer is what the analysis's command
prints, in the same words, with its charts, a link that holds every input, JSON, CSV, and the
command that gives the same from the command line.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from simlab.analyses import Analysis, analysis_for, tables
from simlab.analyses.base import GivenReader, Key, as_given
from simlab.balance.setup import Setup
from simlab.inputs.errors import InvalidValueError, SimlabError
from simlab.inputs.limits import Limits
from simlab.output import plots
from simlab.output.document import Chart
from simlab.output.words import Vocabulary
from simlab.systems import Question
from simlab.web.answers import chart_png, grid_answer
from simlab.web.config import Site
from simlab.web.forms import field
from simlab.web.query import WEB_NAMES, joined, load_named_variant, variant_option
from simlab.web.questions import Query
from simlab.web.varied import view_items, view_query
from simlab.web.work import threads_now

__all__ = ["BalanceQuery", "balance_keys", "leading_keys", "parse_balance", "check_do", "balance_answer",
           "balance_fields", "balance_payload", "balance_csv"]  # fmt: skip


def _page_keys(table: str) -> list[Key]:
    """The keys of a table's analyses that the page shows, each once, in order."""
    keys: dict[str, Key] = {}
    for analysis in tables()[table]:
        keys.update({key.name: key for key in analysis.keys if key.web and key.name not in keys})
    return list(keys.values())


def balance_keys() -> tuple[str, ...]:
    """The keys of the view besides those of the question it asks: ``do`` and every analysis's fields."""
    return ("do", *dict.fromkeys(key.name for table in tables() for key in _page_keys(table)))


def leading_keys() -> tuple[str, ...]:
    """The keys whose value asks for the answer (a solve's unknown, a sensitivity's knobs, the options)."""
    return tuple(dict.fromkeys(key.name for table in tables() for key in _page_keys(table) if key.leads))


@dataclass(frozen=True)
class BalanceQuery:
    """An analysis as a URL holds it: its table (``do``), its keys as given, and the question each value asks."""

    query: Query
    do: str
    given: tuple[tuple[str, str], ...] = ()

    @property
    def analysis(self) -> Analysis:
        """The analysis the table's values state (a tournament with defenders is a matchup)."""
        return analysis_for(self.do, dict(self.given))

    def items(self) -> list[tuple[str, Any]]:
        """The query string (the inverse of :func:`parse_balance`)."""
        return [("do", self.do), *self.given, *view_items(self.query)]

    def values(self) -> dict[str, Any]:
        """The analysis's table of values, as an experiment would hold it (and the page's own sizes)."""
        analysis = self.analysis
        texts = {name: analysis.key(name).split(text) for name, text in self.given}
        return {**analysis.page_given, **as_given(analysis.keys, texts)}

    def command(self, site: Site) -> str:
        """The command that gives the same answer (``simlab solve``, ``sensitivity`` or ``tournament``).

        Every input of the page is on it: the question's inputs (a tournament's side inputs as
        ``a.KEY``/``b.KEY``), rule parameters, the variant, the battle file, the analysis's keys
        with the page's own sizes, and the trials the page sampled (its defaults may differ).
        """
        asked, analysis = self.query, self.analysis
        parts = ["simlab", self.do, asked.system]
        if asked.kind == "battle":
            files = site.battles
            name = str(getattr(asked, "battle", ""))
            parts += ["--battle", shlex.quote(str(files[name][1]) if name in files else f"{name}.toml")]
        elif asked.kind != analysis.asks:
            parts += ["--kind", asked.kind]
        chosen_by = {text for name, text in self.given if analysis.key(name).names_input}  # set by the analysis
        parts += [f"--set {shlex.quote(f'{k}={v}')}" for k, v in asked.inputs.items() if k not in chosen_by]
        parts += [f"--rule {shlex.quote(f'{k}={v}')}" for k, v in asked.rules.items()]
        parts += variant_option(getattr(asked, "variant", None))
        for name, text in self.given:
            key = analysis.key(name)
            parts += [f"{key.option} {shlex.quote(value)}" for value in key.split(text)]
        parts += [f"--{name} {shlex.quote(str(value))}" for name, value in analysis.page_given.items()]
        if asked.method == "exact" and analysis.exact:
            parts.append("--exact")
        else:  # the trials the page sampled: its default is the question's, not the command's
            parts += ["--trials", str(self.setup(site).trials_each), "--seed", str(asked.seed)]
        return " ".join(parts)

    @property
    def trials(self) -> int | None:
        """The trials of each value, seating or cell: the page's, else the analysis's default, as its command's."""
        return self.query.trials if self.query.trials is not None else self.analysis.trials

    def setup(self, site: Site, progress: Callable[[int], None] | None = None) -> Setup:
        """The question each value asks, as the analysis's command builds it (the page's trial cap for each)."""
        asked = self.query
        battle = asked.load(site.battles) if asked.kind == "battle" else None  # type: ignore[attr-defined]
        variant = getattr(asked, "variant", None)
        return Setup(
            system=asked.system, kind=asked.kind, inputs={} if battle is not None else dict(asked.inputs),
            rules=dict(asked.rules), battle=battle,
            variant=load_named_variant(variant, asked.system, site.variants) if variant else None,
            tables=site.own.get(asked.system) or {}, exact=asked.method == "exact", trials=self.trials,
            seed=asked.seed, threads=threads_now(), max_trials=site.max_trials, names=WEB_NAMES, progress=progress,
        )  # fmt: skip


def check_do(items: Iterable[tuple[str, str]]) -> None:
    """Refuse a ``do`` that is no analysis (the page says so even before its keys are filled in).

    Raises:
        SimlabError: Naming the analyses.
    """
    do = joined(items, ("do",)).get("do", "solve")
    if do not in tables():
        raise InvalidValueError("do", do[:40], ", ".join(tables()))


def parse_balance(site: Site, system: str, items: Iterable[tuple[str, str]]) -> BalanceQuery:
    """The analysis a query string's pairs ask.

    Raises:
        SimlabError: For an unknown ``do``, or a question that does not read.
    """
    pairs = list(items)
    check_do(pairs)
    own = joined(pairs, balance_keys())
    do = own.get("do", "solve")
    given = tuple((key.name, own[key.name]) for key in _page_keys(do) if own.get(key.name))
    asks = analysis_for(do, dict(given)).asks
    if asks != "attack" and not any(k == "kind" and v for k, v in pairs):  # as its command asks unless told
        pairs.append(("kind", asks))
    _, _, question = view_query(site, system, pairs, balance_keys())
    return BalanceQuery(question, do, given)


def _work(balance: BalanceQuery, site: Site, progress: Callable[[int], None] | None) -> Any:
    """The analysis's result: its keys read as its experiment's are, then its one question answered."""
    analysis = balance.analysis
    missing = analysis.missing()
    if missing is not None:
        raise SimlabError(f"a {analysis.name} needs {missing}: pip install {missing} on the server")
    setup = balance.setup(site, progress)
    ask = analysis.read(GivenReader(analysis.name, balance.values(), setup))
    words = Vocabulary(battle=setup.battle)
    result = analysis.answer(setup, ask, Limits(max_trials=site.max_trials), lambda _: None, words)
    if isinstance(result, str):  # no answer here, said in a sentence (a solve's range that holds no crossing)
        raise SimlabError(result)
    return result


def _answered(balance: BalanceQuery, site: Site, progress: Callable[[int], None] | None) -> Any:
    """The analysis's result, worked out once: its page, JSON and CSV share it (as answers do)."""
    from simlab.web.cache import answer_key

    own = tuple(sorted((str(k), str(v)) for k, v in balance.items()))
    return site.answers.get(("balance", *answer_key(balance.query), own),
                            lambda: {"result": _work(balance, site, progress)})["result"]  # fmt: skip


def balance_payload(site: Site, system: str, items: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """What ``/api/balance/SYSTEM`` returns: the JSON of the analysis's command."""
    balance = parse_balance(site, system, items)
    return balance.analysis.json_of(_answered(balance, site, None))


def balance_csv(site: Site, system: str, items: Sequence[tuple[str, str]]) -> str:
    """What ``/csv/balance/SYSTEM`` returns: the analysis's table (every value tried, the ranking, the matrix)."""
    balance = parse_balance(site, system, items)
    table = balance.analysis.table_of(_answered(balance, site, None))
    return str(table.to_csv(index=not isinstance(table.index, pd.RangeIndex), lineterminator="\n"))


def balance_answer(balance: BalanceQuery, site: Site, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The answer region: the sentences, the charts, what the analysis lists, links and command."""
    analysis = balance.analysis
    result = _answered(balance, site, progress)
    words = Vocabulary(battle=balance.setup(site).battle if balance.query.kind == "battle" else None)
    said = analysis.sentences(result, words)
    sentences = said[: said.index("")] if "" in said else said
    with plots.speaking(words):
        charts = [_chart(name, caption, figure) for name, caption, figure in analysis.figures(result, words)]
    listed = analysis.listing(result, words)
    note = f"The same from the command line (simlab {balance.do}):"
    answered = grid_answer("balance", balance.query, balance.items(), listed.rows, charts, balance.command(site), note)
    answered["balance"] = {"sentences": sentences, "do": balance.do, "rows": listed.noun}
    return answered


def _chart(name: str, caption: str, figure: Any) -> Chart:
    """One chart of the answer region, at the size it was drawn."""
    width, height = (float(v) for v in figure.get_size_inches())
    return Chart(name, caption, chart_png(figure), width, height)


def _field(key: Key, fields: Mapping[str, dict[str, Any]], question: Question, given: str | None) -> dict[str, Any]:
    """The page's field of one key: its choices (the question's metrics or number inputs) where it has them."""
    metrics = list(question.metric_docs)  # its own and those it adds (per price, a battle's series)
    spec: dict[str, Any] = {"name": key.name, "default": "", "doc": key.doc.format(metrics=", ".join(metrics[:4]))}
    if key.choices == "metrics":
        spec["choices"] = ["", *metrics]
    elif key.choices == "numbers":
        names = [k for k, f in fields.items() if f.get("control") == "number"]
        if given and given not in names:  # a rule parameter, ROW.COLUMN or a.count from the address
            names.insert(0, given)
        spec.update(choices=names, default=names[0] if names else "")
    if key.many:
        spec["doc"] += f", separated by {key.many}"
    return field(spec, key.name, given)


def balance_fields(
    fields: Mapping[str, dict[str, Any]], question: Question, given: dict[str, str]
) -> list[dict[str, Any]]:
    """The view's own fields: which analysis (``do``), then its keys."""
    found = tables()
    doing = given.get("do") or "solve"
    doc = "; ".join(f"{table}: {' or '.join(a.summary for a in analyses)}" for table, analyses in found.items())
    do = field({"name": "do", "default": "solve", "choices": list(found), "doc": doc}, "do", given.get("do"))
    own = [_field(key, fields, question, given.get(key.name)) for key in _page_keys(doing)] if doing in found else []
    return [{**do, "reload": True}, *own]
