"""A step path (:mod:`satdoku.tasks.steps`) in each format: a summary, one line a step, a JSON
record, and the picture of one step.

The picture of step N shows the grid as it stands before that step (the givens, and the digits
placed by the steps before it), the candidates of its open cells as pencil marks (a replay of
the path: :func:`satdoku.tasks.path.replay`), the cells the step changes and the cells it
cites in colours of their own, and the step's text under the grid. The page of all the steps
is :mod:`satdoku.output.html`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..model.digits import bits
from ..model.grid import Grid
from .report import NoPicture, plural, printable

if TYPE_CHECKING:  # pragma: no cover
    from .svg import StepMarks

__all__ = ["path_summary", "path_lines", "path_record", "board_at", "board_grid", "step_marks",
           "named_cells", "step_picture"]


def path_summary(path, score: bool = True) -> str:
    """``'57 steps, ER 2.3/EP 1.2/ED 1.2; the hardest, step 7: Naked Single'`` (without
    ``score``: no ratings), the ratings those of :func:`~satdoku.tasks.path.path_rating`."""
    from ..tasks.path import path_rating
    rating = path_rating(path)
    text = plural(len(path.steps), 'step') + (f", {rating.text}" if score else "")
    hardest = rating.hardest
    if hardest is not None:
        text += f"; the hardest, step {hardest.step}: {hardest.kind}"
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
                     "ep_bound": rating.ep_bound, "ed_bound": rating.ed_bound,
                     "hardest_step": rating.hardest.step if rating.hardest else None,
                     "sat_calls": path.sat_calls}}


def board_at(grid: Grid, path, number: int) -> tuple[Grid, dict[int, list[int]]]:
    """The grid as it stands before step ``number`` (1-based; one past the last: after it) of
    ``path`` from ``grid``, and the candidates of its open cells."""
    from ..tasks.path import replay
    return board_grid(grid, replay(grid, path)[number - 1])


def board_grid(grid: Grid, board) -> tuple[Grid, dict[int, list[int]]]:
    """A :meth:`~satdoku.native.board.Board.snapshot` as a grid of its placed digits and the
    candidates of its open cells."""
    cand, placed = board
    cells = tuple(m.bit_length() if done else 0 for m, done in zip(cand, placed))
    return Grid(grid.geometry, cells), {c: bits(m) for c, m in enumerate(cand) if not placed[c]}


def step_marks(path, step) -> "StepMarks":
    """What ``step`` places, strikes and rests on (:class:`~satdoku.output.svg.StepMarks`).

    The cells it rests on are those of its cell facts, else of its rule facts (a house, a
    cage). A step of SE's ladder records no facts, only words (``'X-Wing on 4 in r2,r7
    c3,c8'``): its cells are the ones its words name, else where the houses they name meet
    (``'Pointing on 2 in box 5 and column 6'``), else those houses."""
    from .svg import StepMarks
    cited = {c for c, _ in step.cells}
    if not cited:
        for r in step.rules:
            cited.update(path.rules[r].cells)
        for h in step.houses:
            cited.update(path.geometry.houses[h])
    if not cited and step.rating is not None and ": " in step.reason:
        cited = named_cells(path.geometry, step.reason.rsplit(": ", 1)[0])
    return StepMarks(placed=tuple(step.placed),
                     struck=tuple((c, d) for c, ds in step.eliminated for d in ds),
                     cited=tuple(sorted(cited)))


_CELL = re.compile(r"\br(\d+)c(\d+)\b")
_LINES = re.compile(r"\b(r\d+(?:,r\d+)*) (c\d+(?:,c\d+)*)\b")
_HOUSE = re.compile(r"\b(row|column|box|region) (\d+)\b")


def named_cells(geo, words: str) -> set[int]:
    """The cells ``words`` name (``r3c7``; ``r2,r7 c3,c8``: where those rows and columns
    cross), else the cells the houses they name share, else those houses' cells.

    >>> from satdoku.model.geometry import geometry
    >>> geo = geometry(3, 3)
    >>> sorted(named_cells(geo, "on 4 in r2,r7 c3,c8")), sorted(named_cells(geo, "in row 9"))[:2]
    ([11, 16, 56, 61], [72, 73])
    >>> sorted(named_cells(geo, "on 2 in box 5 and column 6"))
    [32, 41, 50]
    """
    n = geo.size

    def at(r: int, c: int) -> list[int]:
        return [(r - 1) * n + c - 1] if 1 <= r <= n and 1 <= c <= n else []
    cells = {cell for r, c in _CELL.findall(words) for cell in at(int(r), int(c))}
    for rows, cols in _LINES.findall(words):
        cells.update(cell for r in rows.split(",") for c in cols.split(",")
                     for cell in at(int(r[1:]), int(c[1:])))
    if cells:
        return cells
    kinds = {"row": 0, "column": 1, "box": 2, "region": 2}
    houses = [set(geo.houses[kinds[kind] * n + int(i) - 1]) for kind, i in _HOUSE.findall(words)
              if 1 <= int(i) <= n]
    if not houses:
        return set()
    shared = set.intersection(*houses)
    return shared or set.union(*houses)


def step_picture(grid: Grid, path, number: int, *, title: str | None, constraints=(),
                 alphabet=None) -> str:
    """The SVG picture of step ``number`` (1-based) of ``path`` from ``grid``: the grid as
    it stands before the step, the candidates of its open cells as pencil marks, and what the
    step places, strikes and rests on in colours (:func:`step_marks`); ValueError when the
    path has no such step (:class:`~satdoku.output.report.NoPicture`)."""
    from .svg import render_svg
    if not 1 <= number <= len(path.steps):
        raise NoPicture(f"step {number}: the path has {plural(len(path.steps), 'step')}")
    step = path.steps[number - 1]
    state, candidates = board_at(grid, path, number)
    return render_svg(grid, state, alphabet=alphabet, title=title, constraints=constraints,
                      candidates=candidates, marks=step_marks(path, step),
                      caption=f"step {number} of {len(path.steps)}: {step.text}")
