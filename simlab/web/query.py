"""A page's or an API call's query string → the question it asks (the keys of ``simlab attack``).

The URL holds the whole state of a view, with the command line's keys: scenario inputs as
``KEY=VALUE`` (``weapon.COLUMN=`` overrides among them), rule parameters as ``rule.NAME=``,
and ``method``, ``trials``, ``seed`` and ``variant`` (a file of ``experiments/variants/`` by
name); the kind of question is the address's (``/explosion/tyconian``; ``/attack/tyconian?kind=explosion``
too). A duel's sides are ``a.KEY=`` and ``b.KEY=``.
Empty values are left out (a form's blank field means "the default"), so a link and the form
that made it ask the same question.
"""

from __future__ import annotations

import base64
import re
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from simlab.asking.requests import Request, question_request
from simlab.asking.variants import Variant, load_variant, parse_variant
from simlab.inputs.errors import KEYS_SPELLING, InvalidValueError, SimlabError, UnknownNameError
from simlab.inputs.limits import RAISE_CELLS, RAISE_TRIALS
from simlab.systems import Question, question_of
from simlab.text import whole_number as text_whole_number
from simlab.web.config import Site
from simlab.web.work import threads_now

__all__ = [
    "AttackQuery",
    "DuelQuery",
    "parse_attack",
    "parse_duel",
    "query_items",
    "duel_items",
    "METHODS",
    "WEB_NAMES",
    "WEB_SPELLING",
    "UPLOADED",
    "carry_upload",
    "variant_label",
    "variant_option",
    "joined",
]

#: Values of ``method``.
METHODS = ("exact", "monte_carlo")
#: How messages name the choices of a query (the command line says ``--exact``...).
WEB_NAMES = {"exact": "method=exact", "trials": "trials", "kind": "kind"}
#: How the page says what a message says in the command line's words (:func:`simlab.errors.spelled`):
#: its fields by their names (``--set dx`` is ``dx``, ``--a skill`` is ``a.skill``), never a flag.
WEB_SPELLING = {**KEYS_SPELLING, "--rule": "rule.", "--exact": "method=exact", RAISE_TRIALS: "", RAISE_CELLS: ""}
#: Trials per block of a sampled answer, by form of question: small, so that a client that goes away
#: stops its work within a fraction of a second (sampling stops between blocks; the block size never
#: changes a result). A battle of sixty figures a side samples some 20,000 a second: 1,024 take 50 ms
#: (against 16,384 battles, the shipped battles' pages take some 5 % longer).
BLOCK_SIZE = {"scenario": 1 << 14, "sides": 1 << 10, "battle": 1 << 10}
_CONTROL = ("method", "trials", "seed", "kind", "variant")



def web_request(
    query: Any, site: Site, progress: Callable[[int], None] | None = None, **more: Any
) -> tuple[Question, Request]:
    """A page's question and request, checked as the command line checks them.

    Args:
        query: The page's query (its ``system``, ``kind``, ``inputs``, ``rules``, ``trials``, ``seed``).
        site: The application: its trial limit and each system's own tables.
        progress: Called with the trials sampled so far (it may raise to stop the work).
        **more: Further arguments of :func:`~simlab.asking.requests.question_request`, or
            ones that replace the query's (``exact``, ``variant``, a ``battle``).
    """
    given: dict[str, Any] = {"inputs": query.inputs, "rules": query.rules, "trials": query.trials, "seed": query.seed}
    form = question_of(query.system, query.kind).form
    return question_request(
        query.system,
        query.kind,
        **{**given, **more},
        max_trials=site.max_trials,
        threads=threads_now(),
        names=WEB_NAMES,
        progress=progress,
        block_size=BLOCK_SIZE[form],
        tables=site.own.get(query.system),
    )

@dataclass(frozen=True)
class AttackQuery:
    """One attack question as a URL holds it."""

    system: str
    kind: str = "attack"
    inputs: Mapping[str, str] = field(default_factory=dict)
    rules: Mapping[str, str] = field(default_factory=dict)
    method: str = "exact"
    trials: int | None = None
    seed: int = 0
    variant: str | None = None

    @property
    def sampled(self) -> bool:
        """Whether its answer is sampled."""
        return self.method != "exact"

    def request(self, site: Site, progress: Callable[[int], None] | None = None) -> tuple[Question, Request]:
        """The question and request, checked as the command line checks them.

        Args:
            site: The application (its trial limit and variant files: ``variant=NAME`` picks one).
            progress: Called with the trials sampled so far (it may raise to stop the work).

        Raises:
            SimlabError: One line naming the input at fault.
        """
        variant = load_named_variant(self.variant, self.system, site.variants) if self.variant else None
        return web_request(self, site, progress, exact=self.method == "exact", variant=variant)

    def items(self) -> list[tuple[str, Any]]:
        """Its query string, as pairs (the inverse of :func:`parse_attack`)."""
        return query_items(self)

    def command(self, site: Site | None = None) -> str:
        """The ``simlab attack`` command that asks the same question."""
        parts = ["simlab", "attack", self.system]
        if self.kind != "attack":
            parts += ["--kind", self.kind]
        parts += [f"--set {_quoted(f'{k}={v}')}" for k, v in self.inputs.items()]
        parts += [f"--rule {_quoted(f'{k}={v}')}" for k, v in self.rules.items()]
        parts += variant_option(self.variant)
        if self.method == "exact":
            parts.append("--exact")
        elif self.trials is not None:
            parts.append(f"--trials {self.trials}")
        if self.method != "exact":
            parts.append(f"--seed {self.seed}")
        return " ".join(parts)


def variant_option(variant: str | None) -> list[str]:
    """The ``--variant`` of a page's variant on the command line: its file, or the uploaded file's name."""
    if variant and variant.startswith(UPLOADED):
        return [f"--variant {_quoted(variant_label(variant).removesuffix(' (uploaded)') + '.toml')}"]
    if variant:
        return [f"--variant experiments/variants/{variant}.toml"]
    return []


@dataclass(frozen=True)
class DuelQuery:
    """One duel as a URL holds it."""

    system: str
    a: Mapping[str, str] = field(default_factory=dict)
    b: Mapping[str, str] = field(default_factory=dict)
    rules: Mapping[str, str] = field(default_factory=dict)
    trials: int | None = None
    seed: int = 0

    kind: str = "duel"
    sampled = True
    #: Duels are sampled, under the base rules and ``rule.NAME`` (no variant on the page).
    method: ClassVar[str] = "monte_carlo"
    variant: ClassVar[str | None] = None

    @property
    def inputs(self) -> dict[str, str]:
        """Both sides' inputs by the keys a form and an experiment name them: ``a.KEY``, ``b.KEY``."""
        return {f"{side}.{k}": v for side, given in (("a", self.a), ("b", self.b)) for k, v in given.items()}

    def request(self, site: Site, progress: Callable[[int], None] | None = None) -> tuple[Question, Request]:
        """The question and request, checked as the command line checks them (the arguments as for an attack).

        Raises:
            SimlabError: One line naming the input at fault.
        """
        return web_request(self, site, progress)

    def items(self) -> list[tuple[str, Any]]:
        """Its query string, as pairs (the inverse of :func:`parse_duel`)."""
        return duel_items(self)

    def command(self, site: Site | None = None) -> str:
        """The ``simlab duel`` command that asks the same question."""
        parts = ["simlab", "duel", self.system]
        parts += [f"--a {_quoted(f'{k}={v}')}" for k, v in self.a.items()]
        parts += [f"--b {_quoted(f'{k}={v}')}" for k, v in self.b.items()]
        parts += [f"--rule {_quoted(f'{k}={v}')}" for k, v in self.rules.items()]
        if self.trials is not None:
            parts.append(f"--trials {self.trials}")
        return " ".join([*parts, f"--seed {self.seed}"])


def variant_files(directory: Path) -> dict[str, Path]:
    """The variant files of a directory by name (``experiments/variants/*.toml``): the only ones a page may use."""
    return {path.stem: path for path in sorted(directory.glob("*.toml"))} if directory.is_dir() else {}


#: How a ``variant`` value holds an uploaded variant itself: ``upload:`` and its TOML, compressed.
UPLOADED = "upload:"
#: The longest uploaded variant an address may carry (characters of its compressed form).
MAX_CARRIED = 6000
#: The largest variant file a page takes, in bytes, uploaded or unpacked from an address.
MAX_UPLOAD_BYTES = 64 * 1024


def carry_upload(text: str) -> str:
    """The ``variant`` value that carries an uploaded variant's TOML in the page's address (never on disk).

    Raises:
        SimlabError: When the variant is too large for an address.
    """
    value = UPLOADED + base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    if len(value) > MAX_CARRIED:
        raise SimlabError(
            f"the variant is too large for the page's address ({len(value):,} characters compressed, at most "
            f"{MAX_CARRIED:,}): put it in experiments/variants/ and choose it by name"
        )
    return value


def carried_text(value: str) -> str:
    """The TOML of a ``variant`` value made by :func:`carry_upload`.

    Raises:
        SimlabError: For a value that is not one.
    """
    damaged = SimlabError("variant: the uploaded variant in this address is damaged; upload the file again")
    if len(value) > MAX_CARRIED:
        raise damaged
    unpacking = zlib.decompressobj()  # inflated only as far as an upload may be: a small address may hold a bomb
    try:
        packed = base64.urlsafe_b64decode(value.removeprefix(UPLOADED).encode("ascii"))
        data = unpacking.decompress(packed, MAX_UPLOAD_BYTES + 1)
    except (ValueError, zlib.error, UnicodeError):
        raise damaged from None
    if len(data) > MAX_UPLOAD_BYTES or unpacking.unconsumed_tail:
        raise SimlabError(
            f"variant: the uploaded variant in this address is larger than {MAX_UPLOAD_BYTES // 1024} KiB "
            "unpacked; a variant is far smaller"
        )
    try:
        return data.decode("utf-8")
    except UnicodeError:
        raise damaged from None


def variant_label(value: str) -> str:
    """How a page names a ``variant`` value: a file's name, or an uploaded variant's own ``name``."""
    if not value.startswith(UPLOADED):
        return value
    found = re.search(r'^name\s*=\s*"([^"]*)"', carried_text(value), re.M)
    return f"{found.group(1) if found else 'variant'} (uploaded)"


def load_named_variant(name: str, system: str, variants: Mapping[str, Path]) -> Variant:
    """The variant called ``name`` among ``variants`` (or carried by the address), checked to be for ``system``.

    Raises:
        SimlabError: For a name that is not one of them, with those that are.
    """
    if name.startswith(UPLOADED):
        return parse_variant(carried_text(name), "the uploaded variant", system)
    if name not in variants:
        raise UnknownNameError("variant", name, variants)
    return load_variant(variants[name], system)


def _quoted(text: str) -> str:
    return f'"{text}"' if any(c in text for c in " '\"$&|;<>()") else text


def joined(items: Iterable[tuple[str, str]], keys: Iterable[str]) -> dict[str, str]:
    """The values of ``keys`` among a query's pairs, a key given several times (a list's choices) joined by commas."""
    found: dict[str, list[str]] = {}
    wanted = set(keys)
    for key, value in items:
        if key in wanted and value.strip():
            found.setdefault(key, []).append(value.strip())
    return {key: ",".join(values) for key, values in found.items()}


def _pairs(items: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Keys → values, blank values left out; a key given twice is an error."""
    result: dict[str, str] = {}
    for key, value in items:
        if key in result:
            raise SimlabError(f"{key} is given twice")
        if value.strip() != "":
            result[key] = value
    return result


def whole_number(text: str, key: str) -> int:
    """A whole number typed in a form (``100,000`` and ``100_000`` too), in ASCII digits.

    Raises:
        SimlabError: Naming ``key`` for anything else.
    """
    number = text_whole_number(text)
    if number is None:
        raise InvalidValueError(key, text, "a whole number")
    return number


def _whole(values: Mapping[str, str], key: str, default: int | None) -> int | None:
    text = values.get(key)
    return default if text is None else whole_number(text, key)


def _control(values: Mapping[str, str]) -> tuple[str, int | None, int]:
    method = values.get("method", "exact")
    if method not in METHODS:
        raise InvalidValueError("method", method, f"one of {', '.join(METHODS)}")
    seed = _whole(values, "seed", 0)
    return method, _whole(values, "trials", None), 0 if seed is None else seed


def parse_attack(
    system: str, items: Iterable[tuple[str, str]], sampled_only: bool = False, kind: str | None = None
) -> AttackQuery:
    """The question of one scenario of a query string's ``(key, value)`` pairs.

    Args:
        system: The system's id (from the path).
        items: The query's pairs, in order.
        sampled_only: The question has no exact engine: ``method`` defaults to sampling.
        kind: The kind of question (from the path; None: the query's ``kind``, else ``attack``).

    Raises:
        SimlabError: For a key given twice, an unknown method, a number that is not one.
    """
    values = _pairs(items)
    if sampled_only and "method" not in values:
        values["method"] = "monte_carlo"
    method, trials, seed = _control(values)
    inputs = {k: v for k, v in values.items() if k not in _CONTROL and not k.startswith("rule.")}
    rules = {k.removeprefix("rule."): v for k, v in values.items() if k.startswith("rule.")}
    asked = kind or values.get("kind", "attack")
    return AttackQuery(system, asked, inputs, rules, method, trials, seed, values.get("variant"))


def parse_duel(
    system: str, items: Iterable[tuple[str, str]], sampled_only: bool = True, kind: str | None = None
) -> DuelQuery:
    """The duel of a query string's pairs: ``a.KEY``, ``b.KEY``, ``rule.NAME``, ``trials``, ``seed``.

    Raises:
        SimlabError: For a key that is none of those, given twice, or a number that is not one.
    """
    values = _pairs(items)
    sides: dict[str, dict[str, str]] = {"a": {}, "b": {}}
    rules: dict[str, str] = {}
    for key, value in values.items():
        prefix, dot, rest = key.partition(".")
        if key in ("trials", "seed", "kind"):
            continue
        if dot and prefix in sides:
            sides[prefix][rest] = value
        elif dot and prefix == "rule":
            rules[rest] = value
        else:
            raise SimlabError(f"unknown key {key!r}: a duel takes a.KEY, b.KEY, rule.NAME, trials and seed")
    seed = _whole(values, "seed", 0)
    return DuelQuery(system, sides["a"], sides["b"], rules, _whole(values, "trials", None), seed or 0, kind or "duel")


def query_items(query: AttackQuery) -> list[tuple[str, Any]]:
    """The query string of an attack question (the inverse of :func:`parse_attack`)."""
    items: list[tuple[str, Any]] = list(query.inputs.items())
    items += [(f"rule.{k}", v) for k, v in query.rules.items()]
    if query.kind != "attack":
        items.append(("kind", query.kind))
    if query.variant:
        items.append(("variant", query.variant))
    items.append(("method", query.method))
    if query.method != "exact":
        items += [*([("trials", query.trials)] if query.trials is not None else []), ("seed", query.seed)]
    return items


def duel_items(query: DuelQuery) -> list[tuple[str, Any]]:
    """The query string of a duel (the inverse of :func:`parse_duel`)."""
    items: list[tuple[str, Any]] = [(f"a.{k}", v) for k, v in query.a.items()]
    items += [(f"b.{k}", v) for k, v in query.b.items()]
    items += [(f"rule.{k}", v) for k, v in query.rules.items()]
    return [*items, *([("trials", query.trials)] if query.trials is not None else []), ("seed", query.seed)]
