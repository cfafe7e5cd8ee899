"""Benchmark rows as people and programs read them: a table, CSV or JSON Lines, and a plot.

:func:`format_rows` writes the rows of :func:`satdoku.run.bench.run_bench` and
:class:`PuzzleRows` one row per timed solve; :func:`plot_bench`
draws a cactus plot and puzzles per second per file (matplotlib, the optional extra
``satdoku[plot]``).
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any, Iterable, Sequence

from ..errors import OptionError, SatdokuError
from ..io.files import Output, publish
from ..run.records import COLUMNS, PUZZLE_COLUMNS, BenchRow, provenance
from .report import csv_row

__all__ = ["format_rows", "PuzzleRows", "ROWS_FORMATS", "format_table", "check_matplotlib",
           "plot_bench", "PLOT_HINT"]

PLOT_HINT = "install satdoku[plot] for --plot"


def _number(value: Any) -> str:
    """A figure for the table: three significant digits or so, '-' for none."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, int):
        return str(value)
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


_TABLE = (("source", "file"), ("solver", "solver"), ("encoding", "encoding"),
          ("puzzles", "puzzles"), ("solved", "solved"), ("unsolvable", "unsolv"),
          ("multiple", "multi"), ("timeouts", "t/o"), ("invalid", "invalid"),
          ("puzzles_per_s", "puzzles/s"), ("mean_ms", "mean ms"), ("median_ms", "median ms"),
          ("p90_ms", "p90 ms"), ("p99_ms", "p99 ms"), ("max_ms", "max ms"),
          ("conflicts_per_puzzle", "conflicts"), ("decisions_per_puzzle", "decisions"),
          ("guesses_per_puzzle", "guesses"), ("nodes_per_puzzle", "nodes"),
          ("no_guess_pct", "no guess %"), ("failed_literals_pct", "FL %"))


def format_table(rows: Iterable[BenchRow]) -> str:
    """Rows as a Markdown table (aligned, so it reads in a terminal too); numbers rounded.

    Files are shown by base name; refusals, errors, a spread, a time limit (puzzles answered
    within it, PAR-2) or a partial group add a column, an ``exec:`` solver's CPU clock one. "no
    guess %" is the share settled without a guess (SAT: by unit propagation of the clues),
    "FL %" by propagation and failed-literal probing (:mod:`satdoku.sat.levels`).
    """
    rows = list(rows)
    columns = list(_TABLE)
    for key, head in (("refused", "refused"), ("errors", "errors"), ("spread_pct", "spread %"),
                      ("within_limit", "within limit"), ("par2_ms", "PAR-2 ms"),
                      ("partial", "partial")):
        if any(getattr(r, key) for r in rows):
            columns.append((key, head))
    if any(r.clock != "wall" for r in rows):
        columns.insert(3, ("clock", "clock"))
    cells = [[h for _, h in columns]]
    for row in rows:
        rec = row.record()
        rec["source"] = os.path.basename(row.source)
        rec["encoding"] = row.encoding or "-"
        for key in ("no_guess_pct", "failed_literals_pct"):
            if rec[key] is not None:
                rec[key] = f"{rec[key]:.1f}"
        cells.append([v if isinstance(v := rec[k], str) else _number(v) for k, _ in columns])
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    numeric = [k not in ("source", "solver", "encoding", "clock") for k, _ in columns]

    def line(values: list[str]) -> str:
        return "| " + " | ".join(v.rjust(w) if num else v.ljust(w)
                                 for v, w, num in zip(values, widths, numeric)) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if num else ("-" * (w + 2))
                          for w, num in zip(widths, numeric)) + "|"
    return "\n".join([line(cells[0]), rule] + [line(c) for c in cells[1:]]) + "\n"


def _meta(settings: dict[str, Any] | None) -> dict[str, Any]:
    """What every row ends with: the run's provenance, then its settings."""
    return {**provenance(), **(settings or {})}


def format_rows(rows: Iterable[BenchRow], fmt: str = "table",
                settings: dict[str, Any] | None = None) -> str:
    """Rows as a ``table``, ``csv`` (a header of :data:`COLUMNS`, then the run's provenance
    and ``settings``; plain values) or ``json`` (JSON Lines: one object a row, with the same
    fields)."""
    rows = list(rows)
    if fmt == "table":
        return format_table(rows)
    meta = _meta(settings)
    if fmt == "csv":
        return csv_row(COLUMNS + tuple(meta)) + "".join(
            csv_row([*(r.record()[k] for k in COLUMNS), *meta.values()]) for r in rows)
    if fmt != "json":
        raise OptionError(f"unknown format {fmt!r}; choose table, csv or json")
    return "".join(json.dumps({**r.record(), **meta}) + "\n" for r in rows)


#: The formats of ``bench --rows FILE``, by FILE's extension.
ROWS_FORMATS = {".csv": "csv", ".jsonl": "json", ".ndjson": "json", ".json": "json"}


class PuzzleRows:
    """``bench --rows FILE``: one row per timed solve (:data:`PUZZLE_COLUMNS`, then the
    run's provenance and ``settings``), CSV or JSON Lines by FILE's extension
    (:data:`ROWS_FORMATS`). Each group's rows are written as it ends (and let go of), and
    the file is put in place by :meth:`commit` (an existing FILE needs ``force``, as ``-o``
    does: :class:`~satdoku.io.files.Output`). Raises SatdokuError for another extension."""

    def __init__(self, path: str, *, force: bool = False, inputs: Iterable[str] = (),
                 settings: dict[str, Any] | None = None) -> None:
        extension = os.path.splitext(path)[1].lower()
        if extension not in ROWS_FORMATS:
            raise SatdokuError(f"{path}: per-puzzle rows are written as "
                               f"{', '.join(ROWS_FORMATS)}; name the file so")
        self.fmt = ROWS_FORMATS[extension]
        self.meta = _meta({k: v for k, v in (settings or {}).items()
                           if k not in PUZZLE_COLUMNS})
        self.out = Output(path, force=force, inputs=inputs)
        self.columns = PUZZLE_COLUMNS + tuple(self.meta)
        if self.fmt == "csv":
            self.out.write(csv_row(self.columns))

    def write(self, row: BenchRow) -> None:
        """The rows of ``row``'s timed solves (then dropped from it)."""
        for rec in row.puzzle_rows:
            rec = {**rec, **self.meta}
            self.out.write(json.dumps(rec) + "\n" if self.fmt == "json" else
                           csv_row(rec.get(k) for k in self.columns))
        row.puzzle_rows = []

    def commit(self) -> None:
        self.out.commit()

    def discard(self) -> None:
        self.out.discard()


def check_matplotlib() -> None:
    """Raise :class:`SatdokuError` with :data:`PLOT_HINT` when matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise SatdokuError(PLOT_HINT) from None


def plot_bench(rows: Sequence[BenchRow], path: str, *, title: str | None = None) -> None:
    """One PNG with two or three panels: a cactus plot, puzzles/s per file and solver, and
    (when measured) the share of puzzles settled by propagation and by failed literals.

    Left, the cactus plot of SAT papers: for each solver (and encoding) the answered puzzles
    of all files, sorted by time, x = puzzles answered, y = time per puzzle on a log axis; the
    line that stays lower and reaches further right is better. Right, puzzles/s per file as
    grouped bars (log axis when the rates span more than a factor of 50). Third, per file and
    solver, the share settled without a guess (solid) and with failed-literal probing
    (light, behind).
    Written atomically (temporary file, then rename).
    """
    check_matplotlib()
    from matplotlib.figure import Figure  # no pyplot: no global state, no GUI backend

    labels = list(dict.fromkeys(r.label for r in rows))
    files = list(dict.fromkeys(r.source for r in rows))
    levels = any(r.no_guess_pct is not None for r in rows)
    fig = Figure(figsize=(17 if levels else 12, 5), layout="constrained")
    panels = fig.subplots(1, 3 if levels else 2,
                          width_ratios=(1.1, 1, 1) if levels else (1.1, 1))
    cactus, bars = panels[0], panels[1]
    # One colour per solver, one line style (and bar hatch) per encoding: ten lines stay legible.
    solvers = list(dict.fromkeys(r.solver for r in rows))
    encodings = list(dict.fromkeys(r.encoding for r in rows if r.encoding))
    styles = {label: _style(r.solver, r.encoding, solvers, encodings)
              for label, r in ((r.label, r) for r in rows)}
    for label in labels:
        times = sorted(t for r in rows if r.label == label for t in r.times_ms)
        if not times:
            continue
        colour, linestyle, marker, _ = styles[label]
        cactus.plot(range(1, len(times) + 1), [max(t, 1e-3) for t in times], color=colour,
                    linestyle=linestyle, marker=marker, markevery=max(1, len(times) // 8),
                    markersize=4, linewidth=1.5, label=label)
    cactus.set_yscale("log")
    cactus.set_xlabel("puzzles answered")
    cactus.set_ylabel("time per puzzle (ms, log scale)")
    cactus.set_title("Cactus plot: puzzles answered within a time (all files)")
    cactus.grid(True, which="both", alpha=0.3)
    if cactus.lines:
        cactus.legend(fontsize="small")

    width = 0.8 / max(1, len(labels))
    rates = []
    for i, label in enumerate(labels):
        xs, ys = [], []
        for j, source in enumerate(files):
            row = next((r for r in rows if r.label == label and r.source == source), None)
            if row is not None and row.puzzles_per_s:
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(row.puzzles_per_s)
        rates += ys
        colour, _, _, hatch = styles[label]
        bars.bar(xs, ys, width=width, color=colour, hatch=hatch, edgecolor="white",
                 linewidth=0, label=label)
    if rates and max(rates) / min(rates) > 50:
        bars.set_yscale("log")
    bars.set_xticks(range(len(files)))
    bars.set_xticklabels([_file_label(source, rows) for source in files], fontsize="small",
                         rotation=15 if len(files) > 3 else 0)
    bars.set_ylabel("puzzles per second" + (" (log scale)" if bars.get_yscale() == "log"
                                            else ""))
    bars.set_title("Throughput per file")
    bars.grid(True, axis="y", which="both", alpha=0.3)
    if rates:
        # Headroom above the tallest bar, so the legend never hides one.
        if bars.get_yscale() == "log":
            bars.set_ylim(top=max(rates) * 15)
        else:
            bars.set_ylim(top=max(rates) * 1.7)
        bars.legend(fontsize="small", ncols=2, loc="upper right")
    if levels:
        _levels_panel(panels[2], rows, labels, files, styles)
    if title:
        fig.suptitle(title)
    _save_atomically(fig, path)


def _levels_panel(axes: Any, rows: Sequence[BenchRow], labels: list[str], files: list[str],
                  styles: dict[str, tuple[str, str, str, str]]) -> None:
    """Grouped bars per file: the share settled without a guess, the failed-literal share
    behind it."""
    width = 0.8 / max(1, len(labels))
    for i, label in enumerate(labels):
        colour, _, _, hatch = styles[label]
        for j, source in enumerate(files):
            row = next((r for r in rows if r.label == label and r.source == source), None)
            if row is None or row.no_guess_pct is None:
                continue
            x = j - 0.4 + width * (i + 0.5)
            if row.failed_literals_pct is not None:
                axes.bar(x, row.failed_literals_pct, width=width, color=colour, alpha=0.3,
                         linewidth=0)
            axes.bar(x, row.no_guess_pct, width=width, color=colour, hatch=hatch,
                     edgecolor="white", linewidth=0, label=label if j == 0 else None)
    axes.set_ylim(0, 105)
    axes.set_xticks(range(len(files)))
    axes.set_xticklabels([_file_label(source, rows) for source in files], fontsize="small",
                         rotation=15 if len(files) > 3 else 0)
    axes.set_ylabel("% of puzzles settled")
    axes.set_title("No guess (solid) and failed literals (light)")
    axes.grid(True, axis="y", alpha=0.3)
    if axes.containers:
        axes.legend(fontsize="small")


def _style(solver: str, encoding: str | None, solvers: list[str],
           encodings: list[str]) -> tuple[str, str, str, str]:
    """(colour, line style, marker, hatch) of a solver and encoding in a plot."""
    i = solvers.index(solver)
    j = encodings.index(encoding) if encoding in encodings else len(encodings) - 1
    # The last encoding (usually 'extended', the default) is drawn solid and unhatched.
    k = len(encodings) - 1 - max(j, 0)
    return (f"C{i % 10}", ("-", "--", ":", "-.")[k % 4], "os^vD<>ph*"[i % 10],
            ("", "//", "..", "xx")[k % 4])


def _file_label(path: str, rows: Sequence[BenchRow]) -> str:
    row = next(r for r in rows if r.source == path)
    size = f"\n{row.size}x{row.size}, {row.puzzles} puzzles" if row.size else ""
    return os.path.basename(path) + size


def _save_atomically(fig: Any, path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".png", dir=folder)
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110, format="png")
        publish(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
