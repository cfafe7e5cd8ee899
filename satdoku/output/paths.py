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
    """``'87 steps, score 4.30; the hardest, step 52, combines 4 rules (combination)'``
    (without ``score``: ``'87 steps; the hardest...'``)."""
    from ..tasks.steps import path_score, step_level
    level, _, value = path_score(path)
    text = plural(len(path.steps), 'step') + (f", score {value:.2f}" if score else "")
    if path.steps and level <= 1 and all(s.technique.endswith("single") or
                                         s.technique == "timeout" for s in path.steps):
        text += f"; {'hidden' if level else 'naked'} singles only"
    elif path.steps:
        hardest = max(path.steps, key=step_level)
        text += (f"; the hardest, step {hardest.step}, combines "
                 f"{plural(len(hardest.rules), 'rule')} ({hardest.technique})")
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
    steps, the hardest level and how many steps come near it, the score, SAT calls)."""
    from ..tasks.steps import path_score
    level, count, score = path_score(path)
    return {"steps": [step.as_dict() for step in path.steps],
            "path": {"status": path.status, "steps": len(path.steps), "hardest_level": level,
                     "near_hardest": count, "score": score, "sat_calls": path.sat_calls}}


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
