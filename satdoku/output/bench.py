"""Benchmark rows as people and programs read them: a table, CSV or JSON Lines, and a plot.

:func:`format_rows` writes the rows of :func:`satdoku.run.bench.run_bench` and
:class:`PuzzleRows` one row per timed solve; the plots are drawn from those rows
(:mod:`satdoku.output.plots`; matplotlib, the optional extra ``satdoku[plot]``).
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable

from ..errors import OptionError, SatdokuError
from ..io.files import Output
from ..run.records import COLUMNS, PUZZLE_COLUMNS, BenchRow, provenance
from .report import csv_row

__all__ = ["format_rows", "PuzzleRows", "ROWS_FORMATS", "format_table", "check_matplotlib",
           "PLOT_HINT"]

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
