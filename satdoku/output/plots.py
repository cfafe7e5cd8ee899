"""Benchmark plots from per-puzzle rows: cactus and CDF per file, SAT against search per puzzle.

Everything is drawn from the rows ``bench --rows`` writes (:data:`~satdoku.run.records.PUZZLE_COLUMNS`,
one per timed solve), so ``bench --plot`` and ``scripts/plot_rows.py`` (which re-plots a rows
file without re-running) draw the same figure. Only the first timed pass (``repeat`` 1) is
drawn; the time of a solve is its ``time_ms``, the time the summary charges (wall, or an
``exec:`` solver's own CPU; a timeout at the limit). A line or series is a *label*: the solver,
and ``/encoding`` for SAT.

Panels (``panels``, in this order; each a row of the figure, one column per file):

- ``cactus``: the SAT papers' cactus plot, one per file: x = puzzles answered, y = time per
  puzzle (log), each label's answered times sorted. Lower and further right is better.
- ``cdf``: the share of the file's puzzles answered within a time (x log): the cactus turned
  on its side and normalised, so files of different sizes compare.
- ``scatter``: per puzzle, the time of the reference SAT label (x) against each search label
  (y), log-log, with the diagonal; points coloured by the puzzle's inference level when the
  SAT rows carry it (:data:`~satdoku.sat.levels.LEVELS`), grey where not measured.
- ``throughput``: puzzles/s per label (answered puzzles over their summed time) and, beside
  it, the share settled without a guess (SAT: level ``propagation``; search: no guess),
  written ``n/m`` where not measured, so 0% and unknown differ.

The file's extension picks the format (``.png``, ``.pdf``, ``.svg``); it is written atomically.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from typing import Any, Iterable, Sequence

from ..errors import SatdokuError
from ..io.files import publish

__all__ = ["PANELS", "PLOT_FORMATS", "CLOCKS", "read_rows", "plot_rows", "cpu_rows", "label_of",
           "check_plot_path"]

PANELS = ("cactus", "cdf", "scatter", "throughput")

#: matplotlib's format for each extension ``--plot`` takes.
PLOT_FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}

_ANSWERED = ("solved", "unique", "multiple", "unsolvable")
_LEVEL_COLOURS = {"propagation": "tab:green", "failed literals": "tab:orange",
                  "search": "tab:red"}


def check_plot_path(path: str) -> str:
    """matplotlib's format for ``path`` by its extension, else SatdokuError."""
    extension = os.path.splitext(path)[1].lower()
    if extension not in PLOT_FORMATS:
        raise SatdokuError(f"{path}: plots are written as {', '.join(PLOT_FORMATS)}; "
                           "name the file so")
    return PLOT_FORMATS[extension]


def _number(text: str) -> Any:
    """A CSV cell as Python: '' is None, numbers are numbers, the rest stays text."""
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_rows(path: str) -> list[dict[str, Any]]:
    """The per-puzzle rows of a ``bench --rows`` file (CSV or JSON Lines, by extension).

    Raises SatdokuError naming ``path`` and the line for a row that cannot be read.
    """
    rows: list[dict[str, Any]] = []
    try:
        with open(path, encoding="utf-8", newline="") as fp:
            if path.lower().endswith(".csv"):
                for rec in csv.DictReader(fp):
                    rows.append({k: _number(v) for k, v in rec.items()})
                return rows
            for number, line in enumerate(fp, 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except ValueError as error:
                        raise SatdokuError(f"{path}:{number}: not a JSON row: {error}") from None
    except OSError as error:
        raise SatdokuError(f"{path}: cannot read: {error.strerror or error}") from None
    return rows


def label_of(row: dict[str, Any]) -> str:
    """``'sat:cadical195/extended'``, ``'native'``: what names a row's line in a plot."""
    return f"{row['solver']}/{row['encoding']}" if row.get("encoding") else str(row["solver"])


def _shown(label: str) -> str:
    """A label as a plot shows it: an ``exec:`` command by its program's base name."""
    if not label.startswith("exec:"):
        return label
    program, _, rest = label[len("exec:"):].strip().partition(" ")
    return f"exec:{os.path.basename(program.strip(chr(34) + chr(39)))} {rest}".strip()


def _first_pass(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r.get("repeat", 1) in (1, None) and r.get("time_ms") is not None]


#: What ``clock`` of :func:`plot_rows` can be: the time charged, or CPU time.
CLOCKS = ("charged", "cpu")


def cpu_rows(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with ``time_ms`` replaced by the CPU time of the solve (an ``exec:`` solver's
    own process's, else this process's; a timeout keeps the limit): on a loaded machine wall
    times stretch, CPU times much less."""
    out = []
    for r in rows:
        cpu = r.get("solver_cpu_ms") if r.get("solver_cpu_ms") is not None else r.get("cpu_ms")
        out.append(r if cpu is None or r.get("status") == "timeout" else {**r, "time_ms": cpu})
    return out


def plot_rows(rows: Sequence[dict[str, Any]], path: str, *,
              panels: Sequence[str] = PANELS, reference: str | None = None,
              title: str | None = None, clock: str = "charged", dpi: int = 110) -> None:
    """Draw ``panels`` of per-puzzle ``rows`` into ``path`` (see the module docstring).

    ``reference`` is the SAT label the scatter puts on x (default: the first SAT label);
    ``clock`` ``'cpu'`` draws CPU times (:func:`cpu_rows`) instead of the times charged;
    ``dpi`` sets a PNG's resolution.
    Raises SatdokuError for an unknown panel or clock, a bad extension or no rows to draw.
    """
    if clock not in CLOCKS:
        raise SatdokuError(f"unknown clock {clock!r}; choose {' or '.join(CLOCKS)}")
    if clock == "cpu":
        rows = cpu_rows(rows)
    from .bench import check_matplotlib
    fmt = check_plot_path(path)
    unknown = [p for p in panels if p not in PANELS]
    if unknown:
        raise SatdokuError(f"unknown panel {unknown[0]!r}; choose from {', '.join(PANELS)}")
    rows = _first_pass(rows)
    if not rows:
        raise SatdokuError("no timed rows to plot")
    check_matplotlib()
    from matplotlib.figure import Figure  # no pyplot: no global state, no GUI backend
    files = list(dict.fromkeys(r["source"] for r in rows))
    labels = list(dict.fromkeys(label_of(r) for r in rows))
    sat = list(dict.fromkeys(label_of(r) for r in rows if r.get("encoding")))
    searches = [label for label in labels if label not in sat]
    reference = reference or (sat[0] if sat else None)
    if reference is not None and reference not in labels:
        raise SatdokuError(f"no rows of {reference!r}; the labels are {', '.join(labels)}")
    layout: list[tuple[str, str | None]] = []
    for panel in panels:
        if panel == "scatter":
            layout += [("scatter", s) for s in searches if reference]
        else:
            layout.append((panel, None))
    if not layout:
        raise SatdokuError("nothing to draw: the scatter needs a SAT and a search solver")
    styles = {label: (f"C{i % 10}", "os^vD<>ph*"[i % 10]) for i, label in enumerate(labels)}
    fig = Figure(figsize=(5.2 * len(files) + 0.5, 4.2 * len(layout)), layout="constrained")
    axes = fig.subplots(len(layout), len(files), squeeze=False)
    for i, (panel, search) in enumerate(layout):
        for j, source in enumerate(files):
            mine = [r for r in rows if r["source"] == source]
            ax = axes[i][j]
            if panel == "cactus":
                _cactus(ax, mine, labels, styles)
            elif panel == "cdf":
                _cdf(ax, mine, labels, styles)
            elif panel == "scatter":
                _scatter(ax, mine, reference, search)
            else:
                _throughput(ax, mine, labels, styles)
            ax.set_title(f"{os.path.basename(source)}: {_TITLES[panel]}"
                         + (f"\n{_shown(search)} against {_shown(reference or '')}"
                            if search else ""),
                         fontsize="medium")
    if title or clock == "cpu":
        fig.suptitle((title or "") + (" (CPU times)" if clock == "cpu" else ""))
    _save_atomically(fig, path, fmt, dpi)


_TITLES = {"cactus": "cactus plot", "cdf": "share answered within a time",
           "scatter": "per puzzle", "throughput": "puzzles/s and no-guess share"}


def _times(rows: list[dict[str, Any]], label: str) -> list[float]:
    return sorted(max(r["time_ms"], 1e-3) for r in rows
                  if label_of(r) == label and r["status"] in _ANSWERED)


def _cactus(ax: Any, rows: list[dict[str, Any]], labels: list[str],
            styles: dict[str, tuple[str, str]]) -> None:
    for label in labels:
        times = _times(rows, label)
        if times:
            colour, marker = styles[label]
            ax.plot(range(1, len(times) + 1), times, color=colour, marker=marker,
                    markevery=max(1, len(times) // 8), markersize=4, linewidth=1.4,
                    label=_shown(label))
    ax.set_yscale("log")
    ax.set_xlabel("puzzles answered")
    ax.set_ylabel("time per puzzle (ms, log)")
    ax.grid(True, which="both", alpha=0.3)
    if ax.lines:
        ax.legend(fontsize="x-small")


def _cdf(ax: Any, rows: list[dict[str, Any]], labels: list[str],
         styles: dict[str, tuple[str, str]]) -> None:
    for label in labels:
        total = sum(1 for r in rows if label_of(r) == label)
        times = _times(rows, label)
        if times:
            colour, _ = styles[label]
            ax.step(times, [100.0 * (k + 1) / total for k in range(len(times))], where="post",
                    color=colour, linewidth=1.4, label=_shown(label))
    ax.set_xscale("log")
    ax.set_ylim(0, 102)
    ax.set_xlabel("time per puzzle (ms, log)")
    ax.set_ylabel("% of puzzles answered")
    ax.grid(True, which="both", alpha=0.3)
    if ax.lines:
        ax.legend(fontsize="x-small", loc="lower right")


def _scatter(ax: Any, rows: list[dict[str, Any]], reference: str | None,
             search: str | None) -> None:
    """Per puzzle (source line), the reference's time on x and the search's on y."""
    def by_line(label: str | None) -> dict[Any, dict[str, Any]]:
        return {r["line"]: r for r in rows if label_of(r) == label and r["status"] in _ANSWERED}
    xs, ys = by_line(reference), by_line(search)
    common = [line for line in xs if line in ys]
    groups: dict[str | None, list[Any]] = {}
    for line in common:
        groups.setdefault(xs[line].get("level"), []).append(line)
    for level, lines in sorted(groups.items(), key=lambda kv: _level_order(kv[0])):
        ax.scatter([max(xs[k]["time_ms"], 1e-3) for k in lines],
                   [max(ys[k]["time_ms"], 1e-3) for k in lines], s=7, alpha=0.6,
                   color=_LEVEL_COLOURS.get(level or "", "grey"), linewidths=0,
                   label=f"{level or 'level not measured'} ({len(lines)})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    if common:
        low = min(min(xs[k]["time_ms"], ys[k]["time_ms"]) for k in common)
        high = max(max(xs[k]["time_ms"], ys[k]["time_ms"]) for k in common)
        low, high = max(low, 1e-3) / 1.5, high * 1.5
        ax.plot([low, high], [low, high], color="black", linewidth=0.8, linestyle="--")
        faster = sum(1 for k in common if ys[k]["time_ms"] < xs[k]["time_ms"])
        ax.text(0.02, 0.98, f"{len(common)} puzzles; search faster on {faster}",
                transform=ax.transAxes, va="top", fontsize="x-small")
        ax.legend(fontsize="x-small", loc="lower right", title="level (SAT)",
                  title_fontsize="x-small")
    ax.set_xlabel(f"{_shown(reference or '')} (ms, log)")
    ax.set_ylabel(f"{_shown(search or '')} (ms, log)")
    ax.grid(True, which="both", alpha=0.3)


def _level_order(level: str | None) -> int:
    order = list(_LEVEL_COLOURS)
    return order.index(level) if level in order else len(order)


def _no_guess(rows: list[dict[str, Any]]) -> float | None:
    """The share settled without a guess, in %: SAT by level, search by its guesses; None
    when the rows do not say."""
    levels = [r.get("level") for r in rows if r.get("level") is not None]
    if levels:
        return 100.0 * levels.count("propagation") / len(levels)
    guesses = [r.get("guesses") for r in rows if r.get("guesses") is not None]
    if guesses:
        return 100.0 * sum(1 for g in guesses if g == 0) / len(guesses)
    return None


def _throughput(ax: Any, rows: list[dict[str, Any]], labels: list[str],
                styles: dict[str, tuple[str, str]]) -> None:
    rates = []
    for i, label in enumerate(labels):
        mine = [r for r in rows if label_of(r) == label]
        times = _times(rows, label)
        rate = len(times) / (sum(times) / 1000.0) if times and sum(times) > 0 else 0.0
        rates.append(rate)
        ax.bar(i, rate, color=styles[label][0], label=_shown(label))
        share = _no_guess(mine)
        ax.text(i, rate, "n/m" if share is None else f"{share:.0f}%", ha="center",
                va="bottom", fontsize="x-small")
    positive = [r for r in rates if r > 0]
    if positive and min(positive) * 50 < max(positive):
        ax.set_yscale("log")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels([_shown(label) for label in labels], rotation=30, ha="right",
                       fontsize="x-small")
    ax.set_ylabel("puzzles/s (above each bar: % settled without a guess)")
    ax.grid(True, axis="y", which="both", alpha=0.3)


def _save_atomically(fig: Any, path: str, fmt: str, dpi: int) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=f".{fmt}",
                               dir=folder)
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=dpi, format=fmt)
        publish(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise

