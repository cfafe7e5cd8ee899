"""A step path (:mod:`satdoku.tasks.steps`) in each format: a summary, one line a step, a JSON
record, and the picture of one step.

The picture of step N shows the grid as it stands before that step (the givens, and the digits
placed by the steps before it), with the cells the step changes and the cells it cites
marked, and the step's text under the grid.
"""

from __future__ import annotations

from typing import Any

from ..model.grid import Grid
from .report import NoPicture, plural, printable

__all__ = ["path_summary", "path_lines", "path_record", "step_picture"]


def path_summary(path, score: bool = True) -> str:
    """``'57 steps, ER 2.3/EP 1.2/ED 1.2; the hardest, step 7: Naked Single'`` (without
    ``score``: no ratings), the ratings those of :func:`~satdoku.tasks.path.path_rating`."""
    from ..tasks.path import path_rating
    rating = path_rating(path)
    text = plural(len(path.steps), 'step') + (f", {rating.text}" if score else "")
    hardest = rating.hardest
    if hardest is not None:
        text += f"; the hardest, step {hardest.step}: {hardest.technique}"
        if hardest.technique in ("combination", "guess"):
            text += f" of {plural(len(hardest.rules), 'rule')}" if hardest.rules else ""
    if path.se is not None and path.se.stalled:
        text += f"; SE's ladder stops {path.se.stalled.removeprefix('beyond the ladder ')}"
    if path.status == "guess":
        text += f"; it guesses (no step of at most {path.max_rules} rules is left there)"
    elif path.status == "timeout":
        text += "; the time ran out first"
    return text


def path_lines(path) -> list[str]:
    """The steps, one an indented numbered line (pretty format)."""
    return [f"  {step.step:>4}. {printable(step.text)}" for step in path.steps]


def path_record(path) -> dict[str, Any]:
    """The JSON fields of a path: its ``steps`` (each :meth:`Step.as_dict`) and ``path`` (status,
    steps, its ratings ER/EP/ED and whether they are bounds, the hardest step, SAT calls)."""
    from ..tasks.path import path_rating
    rating = path_rating(path)
    return {"steps": [step.as_dict() for step in path.steps],
            "path": {"status": path.status, "steps": len(path.steps), "er": rating.er,
                     "ep": rating.ep, "ed": rating.ed, "bound": rating.bound,
                     "hardest_step": rating.hardest.step if rating.hardest else None,
                     "sat_calls": path.sat_calls}}


def step_picture(grid: Grid, path, number: int, *, title: str | None, constraints=(),
                 alphabet=None) -> str:
    """The SVG picture of step ``number`` (1-based) of ``path`` from ``grid``: ValueError when
    the path has no such step (:class:`~satdoku.output.report.NoPicture`)."""
    from .svg import render_svg
    if not 1 <= number <= len(path.steps):
        raise NoPicture(f"step {number}: the path has {plural(len(path.steps), 'step')}")
    cells = list(grid.cells)
    for step in path.steps[:number - 1]:
        for cell, d in step.placed:
            cells[cell] = d
    step = path.steps[number - 1]
    marked = {c for c, _ in step.placed} | {c for c, _ in step.eliminated} | \
        {c for c, _ in step.cells}
    state = Grid(grid.geometry, tuple(cells))
    return render_svg(grid, state, highlight=sorted(marked), alphabet=alphabet, title=title,
                      constraints=constraints,
                      caption=f"step {number} of {len(path.steps)}: {step.text}")
