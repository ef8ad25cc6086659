"""What the command line prints: a result, a battle, the bench's report, a system's inputs, a table cell.

The command line parses and orchestrates (:mod:`simlab.cli`); these functions render. They
print with ``click.echo``, as the commands do, and import nothing heavy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from simlab.inputs.params import range_text
from simlab.output.resolution import resolution_lines

if TYPE_CHECKING:
    from simlab.engine.results import Answer

__all__ = [
    "SHOWN_OUTCOMES",
    "field_line",
    "cell_text",
    "print_result",
    "print_battle",
    "print_bench",
    "print_cluster_bench",
]

#: Outcomes of a distribution printed one per line (the rest are summed).
SHOWN_OUTCOMES = 30


def field_line(entry: Mapping[str, Any]) -> str:
    """One input of ``simlab systems``: name, type, default, valid range and description."""
    default = "required" if entry["required"] else f"default {entry['default']!r}"
    valid = range_text(entry["minimum"], entry["maximum"]) if entry["minimum"] is not None else ""
    return f"    {entry['name']:<22} {entry['type']:<6} {default:<22} {valid:<18} {entry['doc']}"


def cell_text(value: Any) -> str:
    """A table cell as printed: blank for None."""
    return "" if value is None else str(value)


def print_battle(result: Answer) -> None:
    """A battle's outcomes and means with intervals, then figures standing turn by turn."""
    m, ci = result.metrics, result.ci95
    scenario = result.scenario
    how = f"sampled, {result.trials:,} battles, seed {result.seed}"
    if result.variant is not None:
        how += f", variant {result.variant}"
    sides = [scenario[s] for s in "ab"]

    def roster(side: dict[str, Any]) -> str:
        return " + ".join(f"{g['count']} {g['name']}" for g in side["groups"])

    click.echo(f"{result.system}: {scenario['battle']}: {sides[0]['name']} ({roster(sides[0])}) "
               f"against {sides[1]['name']} ({roster(sides[1])}) ({how})")  # fmt: skip
    click.echo()
    click.echo(f"{'metric':<30} {'value':>10}   {'95% interval':>23}")
    for name, value in m.items():
        if name.startswith("standing_"):
            continue
        line = f"{name:<30} {value:>10.6f}"
        if name in ci:
            line += f"   [{ci[name][0]:>10.6f}, {ci[name][1]:>10.6f}]"
        click.echo(line)
    turns = sorted({int(name.rsplit("_", 1)[1]) for name in m if name.startswith("standing_a_turn_")})
    click.echo()
    click.echo(f"{'after turn':>10} {'standing a':>12} {'standing b':>12}")
    for k in turns:
        click.echo(f"{k:>10} {m[f'standing_a_turn_{k}']:>12.4f} {m[f'standing_b_turn_{k}']:>12.4f}")


def print_result(result: Answer) -> None:
    """Readable metrics (with intervals when sampled) and distributions."""
    how = "exact" if result.method == "exact" else f"sampled, {result.trials:,} trials, seed {result.seed}"
    if result.variant is not None:
        how += f", variant {result.variant}"
    details = result.details
    click.echo(f"{result.system}: {details.get('weapon') or details.get('subject', '')} ({how})")
    for line in resolution_lines(details):
        click.echo(line)
    labels = details.get("labels", {})
    click.echo()
    width = max([20, *(len(name) for name in result.metrics)])
    header = f"{'metric':<{width}} {'value':>10}"
    if result.ci95:
        header += f"   {'95% interval':>23}"
    click.echo(header)
    for name, value in result.metrics.items():
        line = f"{name:<{width}} {value:>10.6f}"
        if name in result.ci95:
            low, high = result.ci95[name]
            line += f"   [{low:.6f}, {high:.6f}]"
        click.echo(line)
    if result.not_exact:
        click.echo(f"not exact (sample them without --exact): {', '.join(result.not_exact)}")
    for name, dist in result.distributions.items():
        click.echo()
        click.echo(f"{name}:")
        names = labels.get(name, {})
        width = max([4, *(len(str(n)) for n in names.values())])
        shown = [(value, p) for value, p in dist.items() if p >= 5e-5]
        for value, p in shown[:SHOWN_OUTCOMES]:
            click.echo(f"  {names.get(value, value)!s:>{width}}  {p:8.4f}  {'#' * round(p * 50)}")
        if len(shown) > SHOWN_OUTCOMES:
            later = shown[SHOWN_OUTCOMES:]
            total = sum(p for _, p in later)
            click.echo(f"  ... {len(later)} more outcomes up to {later[-1][0]} ({total:.4f} together; see --json)")
        rest = sum(p for p in dist.values() if p < 5e-5)
        if rest:
            click.echo(f"  rare  {rest:8.4f}  (outcomes below 0.00005 each)")


def print_side_by_side(compared: Any) -> None:
    """Options side by side (:class:`~simlab.workflow.side_by_side.SideBySide`): a column per option, then Δ.

    Each sampled value carries its 95 % half-width, each difference its paired half-width.
    """
    first = compared.results[0]
    how = "exact" if first.method == "exact" else f"sampled, {first.trials:,} trials each, seed {first.seed}"
    if first.method != "exact":
        how += ", the same random streams for every option; Δ with paired 95 % intervals"
    click.echo(f"{first.system}: {compared.key} side by side ({how})")
    click.echo()
    labels = [f"{compared.key}={option}" for option in compared.options]
    rows = []
    for metric in first.metrics:
        cells = []
        for result in compared.results:
            value = result.metrics.get(metric)
            interval = result.ci95.get(metric)
            text = "" if value is None else f"{value:.6g}"
            if interval is not None and value is not None:
                text += f" ±{(interval[1] - interval[0]) / 2:.2g}"
            cells.append(text)
        for differences in compared.differences:
            delta, half = differences.get(metric, (None, None))
            cells.append("" if delta is None else f"{delta:+.6g}" + ("" if half is None else f" ±{half:.2g}"))
        rows.append((metric, cells))
    header = ["metric", *labels, *(f"Δ {label}" for label in labels[1:])]
    widths = [max(len(header[0]), *(len(m) for m, _ in rows))]
    widths += [max(len(header[i + 1]), *(len(c[i]) for _, c in rows)) for i in range(len(header) - 1)]
    click.echo(
        "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths, strict=True)))
    )
    for metric, cells in rows:
        click.echo("  ".join([metric.ljust(widths[0]), *(c.rjust(w) for c, w in zip(cells, widths[1:], strict=True))]))


def print_bench(report: Mapping[str, Any]) -> None:
    """The report of ``simlab bench``: each workload's rates, the exact engines, the web page, start-up."""
    for w in report["workloads"]:
        share = w["trials_per_s_1thread"] * w["draws_per_trial"] / w["generator_draws_per_s"]
        click.echo(f"{w['name']} ({w['system']})")
        click.echo(f"  compiled, 1 thread    {w['trials_per_s_1thread']:>14,.0f} trials/s")
        click.echo(
            f"  compiled, {w['threads']} threads   {w['trials_per_s_all']:>14,.0f} trials/s"
            f"  (x{w['trials_per_s_all'] / w['trials_per_s_1thread']:.2f})"
        )
        if w["numpy_trials_per_s"] is not None:
            click.echo(
                f"  numpy reference       {w['numpy_trials_per_s']:>14,.0f} trials/s"
                f"  (compiled is x{w['trials_per_s_1thread'] / w['numpy_trials_per_s']:.0f})"
            )
        click.echo(
            f"  pure Python reference {w['python_trials_per_s']:>14,.0f} trials/s"
            f"  (compiled is x{w['trials_per_s_1thread'] / w['python_trials_per_s']:.0f})"
        )
        click.echo(
            f"  draws per trial {w['draws_per_trial']:.2f}; generator {w['generator_draws_per_s']:,.0f} draws/s;"
            f" kernel uses {share:.0%} of it"
        )
    for e in report["exact"]:
        if e.get("oracle") is None:
            icepool = "no icepool oracle for this workload"
        elif e["icepool_seconds"] is None:
            icepool = "icepool not installed"
        else:
            icepool = f"icepool {e['icepool_seconds'] * 1e3:.2f} ms"
        click.echo(f"exact {e['name']}: {e['seconds'] * 1e3:.2f} ms ({icepool})")
    serve = report.get("serve")
    if serve is None:
        click.echo("serve: the web extra is not installed (pip install 'simlab[web]')")
    else:
        for what, entries in (("api", serve["api"]), ("attack page, answer and charts,", serve["pages"])):
            for e in entries:
                verdict = "meets" if e["meets_goal"] else "misses"
                click.echo(
                    f"serve {what} {e['system']}: p50 {e['p50_ms']:.1f} ms, p95 {e['p95_ms']:.1f} ms"
                    f" ({verdict} the {e['goal_ms']:.0f} ms goal)"
                )
        h = serve["heatmap"]
        click.echo(
            f"serve sweep heatmap (TFT weapon x armour, {h['cells']} cells): p50 {h['p50_ms']:.0f} ms,"
            f" p95 {h['p95_ms']:.0f} ms ({'meets' if h['meets_goal'] else 'misses'} the 1 s goal)"
        )
        for b in serve.get("battles", []):
            click.echo(
                f"serve battle page {b['battle']} with its {b['charts']} charts: p50 {b['p50_ms']:.0f} ms,"
                f" p95 {b['p95_ms']:.0f} ms ({'meets' if b['meets_goal'] else 'misses'} the 1 s goal)"
            )
    for e in report["startup"]:
        verdict = "meets" if e["meets_goal"] else "misses"
        click.echo(
            f"startup {e['command']}: {e['seconds'] * 1e3:.0f} ms, x{e['ratio']:.2f} python -c 'import numpy'"
            f" ({e['yardstick_seconds'] * 1e3:.0f} ms; {verdict} the x{e['goal_ratio']:g} goal)"
        )
    click.echo(f"peak memory {report['peak_rss_mb']:.0f} MB")


def print_cluster_bench(cluster: Mapping[str, Any]) -> None:
    """The report of ``simlab bench --scheduler``: the cluster against one thread."""
    click.echo(f"{cluster['scheduler']}: {cluster['workers']} workers, {cluster['task_overhead_ms']:.2f} ms a task")
    for e in cluster["experiments"]:
        click.echo(
            f"  {e['name']}: {e['one_thread_seconds']:.2f} s on one thread, {e['cluster_seconds']:.2f} s on the"
            f" cluster (x{e['speedup']:.2f}), tables {'identical' if e['identical'] else 'DIFFERENT'}"
        )
