"""The Jinja2 templates of every HTML page simlab writes or serves (``simlab/output/templates/``).

One environment, autoescaping everything a template is given (experiment descriptions,
variant names and table values come from files a user wrote), with the filters the
templates share: ``b64`` for embedded PNG charts.
"""

from __future__ import annotations

import base64
from functools import lru_cache
from typing import Any

import jinja2

__all__ = ["environment", "render"]


#: The templates of the reports (a page served extends them with its own: ``simlab.web``'s).
REPORTS = ("simlab.output",)


@lru_cache(maxsize=4)
def environment(packages: tuple[str, ...] = REPORTS) -> jinja2.Environment:
    """The templates of ``packages``, loaded from them (so they work installed and offline).

    The reports' (``simlab/output/templates``); the web page adds its own (``simlab/web/templates``),
    which extend them.
    """
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [jinja2.PackageLoader(package, "templates") for package in packages]
        ),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "j2"), default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["b64"] = lambda data: base64.b64encode(data).decode("ascii")
    return env


def render(template: str, packages: tuple[str, ...] = REPORTS, **context: Any) -> str:
    """One template of ``packages`` (the first that has it) rendered with ``context``."""
    return environment(packages).get_template(template).render(**context)
