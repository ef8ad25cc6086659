"""The Balance view: solve for the value that makes it right, or rank what moves a metric, from a form.

``/balance/SYSTEM?do=solve&find=dx&in=6..20&target=p_hit%3D0.75&weapon=assault+rifle&method=exact``
and ``/balance/SYSTEM?do=sensitivity&metric=p_hit&vary=skill%3D0..4%3B+cover%3Dnone,partial,full``,
with the question's other inputs as on its own page (any kind: ``kind=battle&battle=...`` with
``find=a.count``). The answer is what ``simlab solve`` or ``simlab sensitivity`` prints, in the
same words, with the search's or the ranking's chart, a link that holds every input, JSON, CSV, and
the command that gives the same from the command line.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simlab.balance.setup import Setup
from simlab.inputs.errors import SimlabError
from simlab.output import plots
from simlab.output.document import Chart
from simlab.output.words import Vocabulary
from simlab.systems import Question
from simlab.web.answers import chart_png, grid_answer, shown
from simlab.web.config import Site
from simlab.web.forms import field
from simlab.web.query import WEB_NAMES, joined, load_named_variant, variant_option
from simlab.web.questions import Query
from simlab.web.varied import view_items, view_query
from simlab.web.work import threads_now

__all__ = ["BalanceQuery", "BALANCE_KEYS", "parse_balance", "balance_answer", "balance_fields", "balance_payload"]

#: The keys of the view besides those of the question it asks.
BALANCE_KEYS = ("do", "find", "in", "target", "tol", "metric", "vary", "every", "options", "against", "defenders")
#: What the view does.
DOINGS = ("solve", "sensitivity", "tournament")
#: The sizes of a sensitivity on the page: Morris trajectories and Sobol base points (the command's are larger).
WEB_TRAJECTORIES, WEB_BASE = 10, 64


@dataclass(frozen=True)
class BalanceQuery:
    """A balance question as a URL holds it: what to do, and the question each value asks."""

    query: Query
    do: str
    find: str = ""
    within: str = ""
    target: str = ""
    metric: str = ""
    vary: tuple[str, ...] = ()
    every: str = ""
    options: tuple[str, ...] = ()
    against: str = ""
    defenders: tuple[str, ...] = ()
    tol: str = ""

    @property
    def matchup(self) -> bool:
        """A tournament of attacks scored against defenders (``against`` or ``defenders``), not of duels."""
        return self.do == "tournament" and bool(self.against or self.defenders)

    def items(self) -> list[tuple[str, Any]]:
        """The query string (the inverse of :func:`parse_balance`)."""
        own: list[tuple[str, Any]] = [("do", self.do)]
        if self.do == "solve":
            own += [("find", self.find), ("in", self.within), ("target", self.target)]
            own += [("tol", self.tol)] if self.tol else []
        elif self.do == "tournament":
            own += [("every", self.every)] if self.every else [("options", " | ".join(self.options))]
            if self.matchup:
                own += [("against", self.against)] if self.against else [("defenders", " | ".join(self.defenders))]
                own.append(("metric", self.metric))
        else:
            own += [("metric", self.metric), ("vary", "; ".join(self.vary))]
        return own + view_items(self.query)

    def command(self, site: Site) -> str:
        """The ``simlab solve``, ``sensitivity`` or ``tournament`` command that gives the same answer.

        Every input of the page is on it: the question's inputs (a tournament's side inputs as
        ``a.KEY``/``b.KEY``), rule parameters, the variant, the battle file, and the trials the page
        sampled (its defaults differ from the command's).
        """
        asked = self.query
        fights = self.do == "tournament" and not self.matchup
        parts = ["simlab", self.do, asked.system]
        if asked.kind == "battle":
            files = site.battles
            name = str(getattr(asked, "battle", ""))
            parts += ["--battle", shlex.quote(str(files[name][1]) if name in files else f"{name}.toml")]
        elif asked.kind != "attack" and not fights:
            parts += ["--kind", asked.kind]
        chosen_by = {self.find, self.every, self.against}  # inputs the search or the options set
        parts += [f"--set {shlex.quote(f'{k}={v}')}" for k, v in asked.inputs.items() if k not in chosen_by]
        parts += [f"--rule {shlex.quote(f'{k}={v}')}" for k, v in asked.rules.items()]
        parts += variant_option(getattr(asked, "variant", None))
        if self.do == "solve":
            parts += ["--find", self.find, "--target", shlex.quote(self.target), "--in", self.within]
            parts += ["--tol", self.tol] if self.tol else []
        elif self.do == "tournament":
            parts += ["--every", self.every] if self.every else [f"--option {shlex.quote(o)}" for o in self.options]
            if self.matchup:
                parts += ["--against", self.against] if self.against else [
                    f"--defender {shlex.quote(d)}" for d in self.defenders
                ]  # fmt: skip
                parts += ["--metric", self.metric]
        else:
            parts += ["--metric", self.metric, *(f"--vary {shlex.quote(v)}" for v in self.vary)]
            parts += ["--trajectories", str(WEB_TRAJECTORIES), "--base", str(WEB_BASE)]
        if asked.method == "exact" and not fights:
            parts.append("--exact")
        else:  # the trials the page sampled: its default is the question's, not the command's
            parts += ["--trials", str(self.setup(site).trials_each), "--seed", str(asked.seed)]
        return " ".join(parts)

    @property
    def trials(self) -> int | None:
        """The trials of each value, seating or cell: the page's, else a tournament's as the command's default."""
        if self.query.trials is not None or self.do != "tournament":
            return self.query.trials
        from simlab.balance.matchup import MATCHUP_TRIALS
        from simlab.balance.tournament import TOURNAMENT_TRIALS

        return MATCHUP_TRIALS if self.matchup else TOURNAMENT_TRIALS

    def setup(self, site: Site, progress: Callable[[int], None] | None = None) -> Setup:
        """The question each value asks, as ``simlab solve`` builds it (the page's trial cap for each)."""
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


def parse_balance(site: Site, system: str, items: Iterable[tuple[str, str]]) -> BalanceQuery:
    """The balance question of a query string's pairs.

    Raises:
        SimlabError: For a missing or unknown key of the view, or a question that does not read.
    """
    pairs = list(items)
    own = joined(pairs, BALANCE_KEYS)
    fights = own.get("do") == "tournament" and not (own.get("against") or own.get("defenders"))
    if fights and not any(k == "kind" and v for k, v in pairs):  # a tournament fights duels unless told, as the command
        pairs.append(("kind", "duel"))
    _, _, question = view_query(site, system, pairs, BALANCE_KEYS)
    do = own.get("do", "solve")
    if do not in DOINGS:
        raise SimlabError(f"invalid value {do[:40]!r} for do: expected {', '.join(DOINGS)}")
    needed = {"solve": ("find", "in", "target"), "sensitivity": ("metric", "vary"), "tournament": ()}[do]
    for key in needed:
        if not own.get(key):
            raise SimlabError(f"a {do} needs {key}: " + _NEEDS[key])
    if do == "tournament" and not (own.get("every") or own.get("options")):
        raise SimlabError("a tournament needs every (an input naming a table row, such as ship) or options")
    if do == "tournament" and (own.get("against") or own.get("defenders")) and not own.get("metric"):
        raise SimlabError("attacks against defenders need metric: what the attacker wants high (p_hit)")
    vary = tuple(part.strip() for part in own.get("vary", "").replace("\n", ";").split(";") if part.strip())
    options, defenders = (
        tuple(part.strip() for part in own.get(key, "").replace("\n", "|").split("|") if part.strip())
        for key in ("options", "defenders")
    )
    return BalanceQuery(question, do, own.get("find", ""), own.get("in", ""), own.get("target", ""),
                        own.get("metric", ""), vary, own.get("every", ""), options, own.get("against", ""),
                        defenders, own.get("tol", ""))  # fmt: skip


_NEEDS = {
    "find": "the input, rule parameter or ROW.COLUMN searched",
    "in": "its range, LOW..HIGH",
    "target": "METRIC=VALUE, the value the metric must reach",
    "metric": "the metric whose variance is shared out",
    "vary": "the knobs, NAME=LOW..HIGH or NAME=A,B,C, separated by semicolons",
}


def _solve(balance: BalanceQuery, site: Site, progress: Callable[[int], None] | None) -> Any:
    from simlab.balance.solve import Goal, parse_target, solve
    from simlab.balance.unknowns import find_unknown
    from simlab.inputs.limits import Limits

    setup = balance.setup(site, progress)
    unknown = find_unknown(setup.owner, setup.question, balance.find, balance.within, balance.tol or None, "tol")
    metric, value = parse_target(balance.target)
    return solve(setup, unknown, Goal(metric, value), limits=Limits(max_trials=site.max_trials))


def _rank(balance: BalanceQuery, site: Site, progress: Callable[[int], None] | None) -> Any:
    from simlab.balance.sensitivity import parse_factor, sensitivity
    from simlab.inputs.limits import Limits

    setup = balance.setup(site, progress)
    factors = [parse_factor(setup, text) for text in balance.vary]
    return sensitivity(setup, balance.metric, factors, trajectories=WEB_TRAJECTORIES, base=WEB_BASE,
                       limits=Limits(max_trials=site.max_trials))  # fmt: skip


def _fight(balance: BalanceQuery, site: Site, progress: Callable[[int], None] | None) -> Any:
    from simlab.balance.matchup import matchup
    from simlab.balance.options import every_row, parse_options
    from simlab.balance.tournament import tournament
    from simlab.inputs.limits import Limits

    setup = balance.setup(site, progress)
    chosen, names = every_row(setup, balance.every) if balance.every else parse_options(balance.options, "options")
    if balance.matchup:
        if balance.against:
            defenders, defender_names = every_row(setup, balance.against, "against")
        else:
            defenders, defender_names = parse_options(balance.defenders, "defenders")
        return matchup(setup, chosen, defenders, balance.metric, names, defender_names,
                       limits=Limits(max_trials=site.max_trials))  # fmt: skip
    return tournament(setup, chosen, names, limits=Limits(max_trials=site.max_trials), noun=balance.every or "option")


def balance_payload(site: Site, system: str, items: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """What ``/api/balance/SYSTEM`` returns: the JSON of ``simlab solve`` or ``simlab sensitivity``."""
    balance = parse_balance(site, system, items)
    payload: dict[str, Any] = _answered(balance, site, None).to_json()
    return payload


def _answered(balance: BalanceQuery, site: Site, progress: Callable[[int], None] | None) -> Any:
    """The balance question's result, worked out once: its page, JSON and CSV share it (as answers do)."""
    from simlab.web.cache import answer_key

    doing = {"solve": _solve, "sensitivity": _rank, "tournament": _fight}[balance.do]
    own = tuple(sorted((str(k), str(v)) for k, v in balance.items()))
    return site.answers.get(("balance", *answer_key(balance.query), own),
                            lambda: {"result": doing(balance, site, progress)})["result"]  # fmt: skip


def balance_csv(site: Site, system: str, items: Sequence[tuple[str, str]]) -> str:
    """What ``/csv/balance/SYSTEM`` returns: every value tried, or the ranking."""
    balance = parse_balance(site, system, items)
    if balance.do == "tournament":
        fought = _answered(balance, site, None)
        import pandas as pd

        if balance.matchup:
            table = pd.DataFrame(fought.value, index=list(fought.attackers), columns=list(fought.defenders))
        else:
            table = pd.DataFrame(fought.score, index=list(fought.names), columns=list(fought.names))
        return str(table.to_csv(lineterminator="\n"))
    found = _answered(balance, site, None)
    table = found.tried_frame() if balance.do == "solve" else found.frame()
    return str(table.to_csv(index=False, lineterminator="\n"))


def balance_answer(balance: BalanceQuery, site: Site, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The answer region: the sentences, the chart, the values tried (or the ranking), links and command."""
    from simlab.balance.solve import NoCrossingError
    from simlab.output.balance_report import search_chart, shares_chart
    from simlab.output.balance_sentences import sensitivity_sentences, solution_sentences

    setup_words = Vocabulary(battle=balance.setup(site).battle if balance.query.kind == "battle" else None)
    rows: list[dict[str, Any]] = []
    with plots.speaking(setup_words):
        if balance.do == "solve":
            try:
                found = _answered(balance, site, progress)
            except NoCrossingError as none:
                raise SimlabError(f"no crossing: {none}") from None
            sentences = solution_sentences(found, setup_words)
            figure = search_chart(found)
            unknown = found.unknown
            for point in found.tried:
                interval = f"{shown(point.interval[0])} – {shown(point.interval[1])}" if point.interval else ""
                at = int(point.x) if unknown.whole else round(point.x, 4)
                rows.append({"name": unknown.shown(point.x), "words": setup_words.where(unknown.name, at),
                             "shown": shown(point.value), "doc": "", "interval": interval})  # fmt: skip
            caption = f"{setup_words.name(found.goal.metric, 'metrics')} at every value tried"
        elif balance.matchup:
            from simlab.balance.matchup import matchup_mixes
            from simlab.output.balance_report import matchup_chart
            from simlab.output.balance_sentences import matchup_sentences

            fought = scored = _answered(balance, site, progress)
            said = matchup_sentences(scored, setup_words)
            sentences = said[: said.index("")] if "" in said else said
            figure = matchup_chart(scored)
            attack, defence, _ = matchup_mixes(scored)
            for names, mix, side in ((scored.attackers, attack, "attack"), (scored.defenders, defence, "defender")):
                for name, share in zip(names, mix, strict=True):
                    rows.append({"name": name, "words": name, "shown": f"{share:.0%}", "interval": "",
                                 "doc": f"{side}: its share of the best mix"})  # fmt: skip
            caption = f"{setup_words.name(scored.metric, 'metrics')} of each attack against each defender"
        elif balance.do == "tournament":
            from simlab.balance.tournament import worth
            from simlab.output.balance_report import matrix_chart
            from simlab.output.balance_sentences import tournament_sentences

            fought = _answered(balance, site, progress)
            said = tournament_sentences(fought)
            sentences = said[: said.index("")] if "" in said else said
            figure = matrix_chart(fought)
            for valued in worth(fought):
                low, high = valued["strength_ci95"]
                rows.append({"name": valued["option"], "words": valued["option"],
                             "shown": f"{valued['strength']:.2f}", "interval": f"{low:.2f} – {high:.2f}",
                             "doc": f"mean score {valued['mean_score']:.3f}"})  # fmt: skip
            caption = "The chance of each row to beat each column, the strongest first"
        else:
            ranked = _answered(balance, site, progress)
            sentences = sensitivity_sentences(ranked, setup_words)
            figure = shares_chart(ranked)
            for effect in ranked.effects:
                share = "" if effect.st is None else f"{effect.st:.3f}"
                interval = "" if effect.st is None else f"± {effect.st_conf:.3f}"
                rows.append({"name": effect.name, "words": setup_words.name(effect.name, "inputs"), "shown": share,
                             "interval": interval, "doc": f"alone {effect.s1:.3f}, Morris μ* {effect.mu_star:.3f}"
                             if effect.s1 is not None else f"Morris μ* {effect.mu_star:.3f}"})  # fmt: skip
            caption = f"What moves {setup_words.name(balance.metric, 'metrics')}"
    charts = [_chart("balance", caption, figure)]
    if balance.do == "tournament":  # the equilibrium as bars, beside the matrix (both sides' of a matchup)
        from simlab.output.balance_report import mix_chart

        with plots.speaking(setup_words):
            charts.append(_chart("mix", "The equilibrium mix, and how often each option enters it", mix_chart(fought)))
    note = f"The same from the command line (simlab {balance.do}):"
    answered = grid_answer("balance", balance.query, balance.items(), rows, charts, balance.command(site), note)
    listed = {"solve": "values tried", "sensitivity": "knobs"}.get(balance.do, "shares of the mixes")
    if balance.do == "tournament" and not balance.matchup:
        listed = "strengths"
    answered["balance"] = {"sentences": sentences, "do": balance.do, "rows": listed}
    return answered


def _chart(name: str, caption: str, figure: Any) -> Chart:
    """One chart of the answer region, at the size it was drawn."""
    width, height = (float(v) for v in figure.get_size_inches())
    return Chart(name, caption, chart_png(figure), width, height)


def balance_fields(
    fields: Mapping[str, dict[str, Any]], question: Question, given: dict[str, str]
) -> list[dict[str, Any]]:
    """The view's own fields: what to do, then a solve's unknown, range and target, or a sensitivity's knobs."""
    do = field({"name": "do", "default": "solve", "choices": list(DOINGS),
                "doc": "solve: the value at which a metric reaches a target; sensitivity: what moves a metric; "
                       "tournament: every option against every other (duels), or attacks against defenders"},
               "do", given.get("do"))  # fmt: skip
    if given.get("do") == "tournament":
        own = [
            field({"name": "every", "default": "",
                   "doc": "every row of this table as an option (ship), or leave it blank"}, "every",
                  given.get("every")),
            field({"name": "options", "default": "",
                   "doc": "or the options: [NAME:] KEY=VALUE;KEY=VALUE for each, separated by |"}, "options",
                  given.get("options")),
            field({"name": "against", "default": "",
                   "doc": "attacks: score the options against every row of this table (armor)"}, "against",
                  given.get("against")),
            field({"name": "defenders", "default": "",
                   "doc": "or against these defenders: [NAME:] KEY=VALUE;KEY=VALUE each, separated by |"}, "defenders",
                  given.get("defenders")),
            field({"name": "metric", "default": "", "choices": ["", *question.metrics],
                   "doc": "attacks: what the attacker wants high"}, "metric", given.get("metric")),
        ]  # fmt: skip
        return [{**do, "reload": True}, *own]
    if (given.get("do") or "solve") == "solve":
        names = [k for k, f in fields.items() if f.get("control") == "number"]
        asked = given.get("find")
        if asked and asked not in names:  # a rule parameter, ROW.COLUMN or a.count from the address
            names.insert(0, asked)
        own = [
            field({"name": "find", "default": names[0] if names else "", "choices": names,
                   "doc": "the unknown (or type a rule parameter or ROW.COLUMN in the address)"}, "find",
                  given.get("find")),
            field({"name": "in", "default": "", "doc": "its range, LOW..HIGH: 6..20, or 0.5..3 for a real one"},
                  "in", given.get("in")),
            field({"name": "target", "default": "", "doc": f"METRIC=VALUE: {', '.join(list(question.metrics)[:4])}..."},
                  "target", given.get("target")),
            field({"name": "tol", "default": "",
                   "doc": "a real unknown's precision (blank: a millionth of the range, exact; a thousandth, sampled)"},
                  "tol", given.get("tol")),
        ]  # fmt: skip
    else:
        own = [
            field({"name": "metric", "default": "", "choices": list(question.metrics),
                   "doc": "the metric whose variance is shared out"}, "metric", given.get("metric")),
            field({"name": "vary", "default": "",
                   "doc": "the knobs: NAME=LOW..HIGH or NAME=A,B,C, separated by semicolons"}, "vary",
                  given.get("vary")),
        ]  # fmt: skip
    return [{**do, "reload": True}, *own]
