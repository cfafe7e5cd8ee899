"""Turning outcomes into text: ``pretty``, ``line``, ``json`` (one object a line) and ``csv``.

Every format carries the same statuses. Diagnostics (errors, disagreements, stats in the text
formats) are returned separately so the CLI can send them to stderr.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .batch import Outcome
from .formats import format_grid
from .grid import Grid

__all__ = ["FORMATS", "STAT_KEYS", "Reporter", "record", "place", "csv_row",
           "format_generated", "format_rating"]

FORMATS = ("pretty", "line", "json", "csv")

#: Stats columns of the CSV format, in order (a solver fills the ones that apply to it).
STAT_KEYS = ("parse_ms", "encode_ms", "load_ms", "solve_ms", "verify_ms",
             "variables", "clauses", "conflicts", "decisions", "propagations",
             "nodes", "guesses", "backtracks", "no_guess")

_CSV_FIELDS = ("source", "line", "name", "puzzle", "solution", "status", "count", "solver",
               "encoding", "time_ms", "message")


def _text(grid: Grid | None, outcome: Outcome, style: str = "line") -> str | None:
    if grid is None:
        return None
    return format_grid(grid, style, outcome.puzzle.alphabet)


def record(outcome: Outcome, *, stats: bool = False) -> dict[str, Any]:
    """The outcome as a flat dict: the JSON object and the CSV row are made from it."""
    p, r = outcome.puzzle, outcome.result
    rec: dict[str, Any] = {
        "source": p.source, "line": p.line, "name": p.name,
        "puzzle": _text(p.grid, outcome), "solution": _text(r.solution, outcome),
        "status": r.status, "solver": r.solver or None, "encoding": r.encoding,
        "time_ms": round(r.time_ms, 3),
    }
    if r.count is not None:
        rec["count"] = r.count
        if r.second is not None:
            rec["second"] = _text(r.second, outcome)
    if r.message:
        rec["message"] = r.message
    if outcome.disagreements:
        rec["disagreements"] = outcome.disagreements
    if stats:
        rec["stats"] = _stats(outcome)
    return rec


def _stats(outcome: Outcome) -> dict[str, Any]:
    """The solver's stats with the stages the solver does not see (parse) added."""
    return {"parse_ms": round(outcome.puzzle.parse_ms, 3),
            **{k: round(v, 3) if isinstance(v, float) else v
               for k, v in outcome.result.stats.items()}}


def place(puzzle) -> str:
    """Where a puzzle came from, for messages: ``file:line``, or the source alone."""
    return f"{puzzle.source}:{puzzle.line}" if puzzle.line else puzzle.source


def csv_row(values) -> str:
    """One CSV line (None written as an empty field), ending in a newline."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(["" if v is None else v for v in values])
    return buf.getvalue()


def _where(outcome: Outcome) -> str:
    return place(outcome.puzzle)


def diagnostics(outcome: Outcome, *, stats: bool = False, fmt: str = "pretty") -> list[str]:
    """Lines for stderr: the error of a bad puzzle, disagreements, and stats for text formats."""
    r = outcome.result
    lines = []
    if r.status == "invalid" and r.message:
        lines.append(r.message)
    elif r.message:
        lines.append(f"{_where(outcome)}: {r.message}")
    elif r.status in ("unsolvable", "timeout"):
        lines.append(f"{_where(outcome)}: {r.status}")
    lines.extend(f"{_where(outcome)}: disagreement: {d}" for d in outcome.disagreements)
    if stats and fmt == "line" and r.status != "invalid":
        lines.append(f"{_where(outcome)}: stats: {_stats_text(_stats(outcome))}")
    return lines


def _stats_text(stats: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in stats.items())


class Reporter:
    """Formats outcomes one at a time (``header()`` first, for CSV)."""

    def __init__(self, fmt: str = "pretty", *, stats: bool = False) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}")
        self.fmt = fmt
        self.stats = stats

    def header(self) -> str:
        if self.fmt != "csv":
            return ""
        fields = _CSV_FIELDS + (STAT_KEYS if self.stats else ())
        return csv_row(fields)

    def format(self, outcome: Outcome) -> str:
        """The text for one outcome, ending in a newline."""
        return getattr(self, f"_{self.fmt}")(outcome)

    def _line(self, outcome: Outcome) -> str:
        r = outcome.result
        if r.solution is not None and r.status in ("solved", "unique"):
            return _text(r.solution, outcome) + "\n"
        return r.status + "\n"

    def _json(self, outcome: Outcome) -> str:
        return json.dumps(record(outcome, stats=self.stats)) + "\n"

    def _csv(self, outcome: Outcome) -> str:
        rec = record(outcome, stats=self.stats)
        row = [rec.get(k) for k in _CSV_FIELDS]
        if self.stats:
            row += [rec["stats"].get(k) for k in STAT_KEYS]
        return csv_row(row)

    def _pretty(self, outcome: Outcome) -> str:
        p, r = outcome.puzzle, outcome.result
        if r.status == "invalid":  # the error itself goes to stderr, with file, line and cell
            return f"{_where(outcome)}: invalid\n\n"
        title = f"{_where(outcome)}: {r.status}"
        if r.solver:
            title += f" by {r.solver}"
        if p.name:
            title += f"  # {p.name}"
        out = [title]
        if r.solution is not None:
            out.append(_text(r.solution, outcome, "pretty"))
        if r.second is not None:
            cells = r.solution.differences(r.second)
            geo = r.solution.geometry
            names = ", ".join(geo.cell_name(c) for c in cells[:12])
            more = f" and {len(cells) - 12} more" if len(cells) > 12 else ""
            out.append(f"another solution, differing at {len(cells)} cells ({names}{more}):")
            out.append(_text(r.second, outcome, "pretty"))
        if self.stats:
            out.append(f"stats: time_ms={round(r.time_ms, 3)} {_stats_text(_stats(outcome))}")
        return "\n".join(out) + "\n\n"


#: Fields of a generated puzzle in the json and csv formats, in order.
GENERATED_FIELDS = ("index", "seed", "box", "symmetry", "clues", "minimal", "puzzle", "solution",
                    "attempts", "sat_calls", "time_ms")


def generated_record(made, alphabet=None) -> dict[str, Any]:
    """A :class:`satdoku.generate.Generated` as a flat dict (json and csv)."""
    geo = made.puzzle.geometry
    return {"index": made.index, "seed": made.seed, "box": geo.shape,
            "symmetry": made.symmetry, "clues": made.puzzle.nclues, "minimal": made.minimal,
            "puzzle": format_grid(made.puzzle, "line", alphabet),
            "solution": format_grid(made.solution, "line", alphabet),
            "attempts": made.attempts, "sat_calls": made.sat_calls,
            "time_ms": round(made.time_ms, 3)}


def format_generated(made, fmt: str, alphabet=None) -> str:
    """One generated puzzle in ``fmt`` (the formats of ``solve``), ending in a newline.

    ``line`` is the puzzle alone, so the output can be fed back to ``satdoku solve``.
    """
    if fmt == "line":
        return format_grid(made.puzzle, "line", alphabet) + "\n"
    rec = generated_record(made, alphabet)
    if fmt == "json":
        return json.dumps(rec) + "\n"
    if fmt == "csv":
        return csv_row([rec[k] for k in GENERATED_FIELDS])
    minimal = {True: "minimal", False: "not minimal", None: "minimality not proven"}
    return (f"#{made.index} (seed {made.seed}): {rec['clues']} clues, unique, "
            f"{minimal[made.minimal]}\n{format_grid(made.puzzle, 'pretty', alphabet)}\n\n")


#: Fields of a rating in the csv format, in order.
RATING_FIELDS = ("source", "line", "name", "puzzle", "status", "score", "label", "hardest",
                 "naked_singles", "hidden_singles", "locked_candidates", "open_cells",
                 "guesses", "nodes", "conflicts", "time_ms", "message")


def rating_record(puzzle, rating) -> dict[str, Any]:
    """A puzzle and its :class:`satdoku.rate.Rating` (or an invalid puzzle) as a flat dict."""
    rec: dict[str, Any] = {"source": puzzle.source, "line": puzzle.line, "name": puzzle.name,
                           "puzzle": (format_grid(puzzle.grid, "line", puzzle.alphabet)
                                      if puzzle.grid is not None else None)}
    if rating is None:
        rec.update(status="invalid", message=str(puzzle.error))
        return rec
    rec.update(rating.as_dict())
    return rec


def format_rating(puzzle, rating, fmt: str) -> str:
    """One rating in ``fmt``; ``rating`` None for a puzzle that could not be read."""
    rec = rating_record(puzzle, rating)
    if fmt == "json":
        return json.dumps(rec) + "\n"
    if fmt == "csv":
        flat = {**rec, **rec.get("techniques", {})}
        return csv_row([flat.get(k) for k in RATING_FIELDS])
    if rating is None or rating.score is None:
        word = rec["status"]
        return word + "\n" if fmt == "line" else f"{place(puzzle)}: {word}\n"
    if fmt == "line":
        return f"{rating.score:.2f} {rating.label}\n"
    s = rating.steps
    return (f"{place(puzzle)}: {rating.score:.2f} {rating.label} (takes {s.hardest}; "
            f"{_plural(rating.guesses, 'guess', 'guesses')}, "
            f"{_plural(rating.conflicts, 'conflict', 'conflicts')})\n")


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
