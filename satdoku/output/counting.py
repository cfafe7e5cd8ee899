"""Reports of ``count --all`` (every solution, one a line) and ``count --estimate``.

``count --all`` writes JSON Lines, one object a solution: ``source``, ``line``, ``name``
(the puzzle's, as every record has them), ``number`` (1, 2, ... within the puzzle) and
``solution``; ``--format line`` writes the solution's grid alone, one a line.
"""

from __future__ import annotations

import json
from typing import Any

from ..io.text import format_grid
from .report import Report, place, plural, printable, puzzle_fields, warning_lines

__all__ = ["solution_line", "EstimateReport", "ALL_FORMATS"]

#: The formats of ``count --all``.
ALL_FORMATS = ("json", "line")


def solution_line(puzzle, number: int, solution, fmt: str) -> str:
    """One solution of ``puzzle`` as ``count --all`` writes it (see the module docstring)."""
    grid = format_grid(solution, "line", puzzle.alphabet)
    if fmt == "line":
        return printable(grid) + "\n"
    rec = {key: value for key, value in puzzle_fields(puzzle).items()
           if key in ("source", "line", "name")}
    return json.dumps({**rec, "number": number, "solution": grid}) + "\n"


class EstimateReport(Report):
    """``count --estimate``: (puzzle, :class:`~satdoku.tasks.enumerate.Estimated` or None)."""

    fields = ("source", "line", "name", "puzzle", "status", "estimate", "low", "high",
              "exact", "confidence", "epsilon", "delta", "seed", "time_ms", "message")

    def record(self, item) -> dict[str, Any]:
        p, r = item.puzzle, item.result
        rec = puzzle_fields(p, r is None)
        if r is None:
            return rec
        rec.update(status=r.status, message=r.message)
        e = r.estimate
        if e is not None:
            rec.update(estimate=e.count, low=e.low, high=e.high, exact=e.exact,
                       confidence=round(e.confidence, 6), epsilon=e.epsilon, delta=e.delta,
                       seed=e.seed, time_ms=round(e.time_ms, 3))
        return rec

    def line(self, item) -> str:
        r = item.result
        if r is None:
            return "invalid"
        if r.estimate is None:
            return r.status
        return str(r.estimate.count)

    def pretty(self, item) -> str:
        p, r = item.puzzle, item.result
        title = f"{place(p)}: "
        if r is None or r.estimate is None:
            title += "invalid" if r is None else r.status + (f": {r.message}" if r.message
                                                             else "")
        elif r.estimate.exact:
            title += f"exactly {plural(r.estimate.count, 'solution')} (ApproxMC, no hashing)"
        else:
            e = r.estimate
            title += (f"about {e.count:,} solutions ({e.low:,} to {e.high:,} with "
                      f"{e.confidence:.0%} confidence; ApproxMC, epsilon {e.epsilon:g}, "
                      f"delta {e.delta:g}, seed {e.seed})")
        if p.name:
            title += f"  # {printable(p.name)}"
        return title + "\n"

    def diagnostics(self, item) -> list[str]:
        p, r = item.puzzle, item.result
        if r is None:
            return [printable(str(p.error))] if p.error else []
        lines = warning_lines(p)
        if r.estimate is None:
            lines.append(f"{place(p)}: {r.status}" + (f": {r.message}" if r.message else ""))
        return lines
