"""Chaos construction: the solver draws the regions.

Glossary (adds to :mod:`satdoku.rules.base`): in a grid without boxes (``"box": "none"``),
``chaos`` asks for N regions of N cells each, every region orthogonally connected and holding
every digit once; which cells make which region is part of the answer. A solution is then a
grid of digits *and* a partition, and the answer carries the partition as its geometry (a
jigsaw that :meth:`~satdoku.model.geometry.Geometry.refines` the puzzle's grid).

The encoding (:func:`region_clauses`), with label ``r`` one of N region numbers:

- ``x[c][r]``: cell c is in region r; exactly one a cell.
- Labels, one per partition (so the search meets each partition once): a region holds one
  1 and so does each row, so region r is the one whose 1 is in row r. That cell is the
  region's *root*.
- Digits: ``y[c][r][d]`` is x[c][r] and "c holds d"; per region and digit exactly one y holds.
  That also makes every region N cells.
- ``together``: groups of cells the setter puts in one region (sigh's ``SameValues`` over its
  region cells: a cage that no region border crosses): ``x[a][r]`` equals ``x[b][r]``.
- Connected: ``reach[c][k]``, c is within k steps of its region's root through cells of its
  region (``reach[c][0]`` is ``root[c]``; a step goes to an orthogonal neighbour ``same`` as c,
  in the same region); every cell has ``reach[c][N-1]``. A region of N connected cells is
  within N-1 steps of any of its cells, and a chain of same-region steps ends at that region's
  root only, so this holds exactly when every region is connected (sigh's solver proves the
  same with shards and flood fills: its chaos_construction.md).

Roads not taken: canonical labels (region r's first cell comes after region r-1's), the
usual symmetry breaking: a chain of "seen" variables, and finding the regions of a known
answer took 3-5 s of CPU on a 9x9 against milliseconds with the 1s as roots; a root variable
per region and cell (N times more reach variables); pairwise "same region, different digits"
over every pair of cells (N**2 x N**2 x N / 2 clauses against the 3 N**4 of the y's).
"""

from __future__ import annotations

from collections import deque

from ..model.geometry import Geometry
from ..model.grid import Grid
from ..records import record
from .base import Clause, Constraint, cell_span, orthogonal_pairs
from .chaos_clues import Clues, ChaosClue, clue_clauses, clue_problem
from .context import sequential_at_most_one
from .fields import Field, Fields, parse_cell

__all__ = ["Chaos", "region_clauses", "connected"]


def region_clauses(ctx, geometry: Geometry, together: tuple[tuple[int, ...], ...] = ()
                   ) -> tuple[list[Clause], list[list[int]]]:
    """The clauses of a chaos construction over ``geometry`` (see the module docstring), its
    ``together`` groups each in one region, and ``x``: ``x[c][r]`` the variable "cell c is
    in region r", to read the regions back."""
    n, ncells = geometry.size, geometry.ngrid
    clauses: list[Clause] = []
    x = [[ctx.fresh() for _ in range(n)] for _ in range(ncells)]
    for lits in x:
        clauses.append(list(lits))
        clauses += sequential_at_most_one(ctx, lits)
    # Labels: a region holds one 1, and each row holds one: region r is the one whose 1 is
    # in row r, and that cell is its root.
    root = [ctx.var(c, 1) for c in range(ncells)]
    clauses += [[-root[c], x[c][c // n]] for c in range(ncells)]
    for r in range(n):
        for d in range(1, n + 1):
            ys = []
            for c in range(ncells):
                y, v = ctx.fresh(), ctx.var(c, d)
                clauses += [[-x[c][r], -v, y], [-y, x[c][r]], [-y, v]]
                ys.append(y)
            clauses.append(ys)
            clauses += sequential_at_most_one(ctx, ys)
    for group in together:
        for a, b in zip(group, group[1:]):
            clauses += [[-x[a][r], x[b][r]] for r in range(n)]
            clauses += [[x[a][r], -x[b][r]] for r in range(n)]
    _connected(ctx, geometry, x, root, clauses)
    return clauses, x


def _connected(ctx, geometry: Geometry, x: list[list[int]], root: list[int],
               clauses: list[Clause]) -> None:
    """Every cell within N-1 same-region steps of its region's root."""
    n = geometry.size
    same: dict[tuple[int, int], int] = {}
    neighbours: list[list[int]] = [[] for _ in x]
    for a, b in orthogonal_pairs(geometry):
        s = same[a, b] = same[b, a] = ctx.fresh()
        neighbours[a].append(b)
        neighbours[b].append(a)
        for r in range(n):
            clauses += [[-s, -x[a][r], x[b][r]], [-s, x[a][r], -x[b][r]],
                        [-x[a][r], -x[b][r], s]]
    if n > 1:  # redundant, for propagation: no cell is alone in its region
        clauses += [[-x[c][r]] + [x[nb][r] for nb in neighbours[c]]
                    for c in range(len(x)) for r in range(n)]
    reach = [root[c] for c in range(len(x))]
    for _ in range(1, n):
        layer = []
        for c in range(len(x)):
            here, ways = ctx.fresh(), [reach[c]]
            for nb in neighbours[c]:
                step = ctx.fresh()
                clauses += [[-step, reach[nb]], [-step, same[c, nb]]]
                ways.append(step)
            clauses += [[-here] + ways, [-reach[c], here]]
            layer.append(here)
        reach = layer
    clauses += [[lit] for lit in reach]


def connected(geometry: Geometry, cells: tuple[int, ...]) -> bool:
    """True when ``cells`` are orthogonally connected (a flood fill; no SAT).

    >>> from satdoku.model.geometry import boxless
    >>> connected(boxless(3), (0, 1, 4)), connected(boxless(3), (0, 4))
    (True, False)
    """
    inside, n = set(cells), geometry.size
    todo, seen = deque(cells[:1]), set(cells[:1])
    while todo:
        r, c = divmod(todo.popleft(), n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            nb = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and nb in inside and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(inside)


class Groups(Field):
    """A list of groups of cells, each 2 or more distinct cells (cell names)."""

    kind = "groups"

    def read(self, f: Fields) -> tuple[tuple[int, ...], ...]:
        if not f.has(self.name):
            return self.default
        value = f.data[self.name]
        message = f"'{self.name}' must be a list of lists of 2 or more cell names"
        if not isinstance(value, list) or not all(
                isinstance(group, list) and len(group) >= 2 for group in value):
            raise ValueError(message)
        out = []
        for group in value:
            cells = tuple(parse_cell(name, f.geometry) for name in group)
            if len(set(cells)) != len(cells):
                raise ValueError(f"'{self.name}': a group names a cell twice")
            out.append(cells)
        return tuple(out)

    def write(self, value, geometry: Geometry) -> list[list[str]]:
        return [[geometry.cell_name(c) for c in group] for group in value]

    def schema(self) -> dict:
        return {"type": "array", "items": {"type": "array", "items": {"$ref": "#/$defs/cell"},
                                           "minItems": 2, "uniqueItems": True}}

    def text(self) -> str:
        return "list of groups of cells"


@record(frozen=True)
class Chaos(Constraint):
    """``chaos``: chaos construction: the solver draws N orthogonally connected regions of N
    cells, each holding every digit once, in a grid without boxes (``"box": "none"``); the
    answer shows them. Each group of cells in ``together`` lies in one region; ``arrows`` and
    ``counts`` are digits that count region cells (:mod:`.chaos_clues`).

    >>> from satdoku.model.geometry import boxless
    >>> Chaos(boxless(4)).describe(boxless(4))
    'chaos construction'
    """

    type = "chaos"
    reads_values = False
    fields = (Groups("together", required=False, default=(), omit_default=True,
                     doc="groups of cells that lie in one region (cages no border crosses)"),
              Clues("arrows", True, required=False, default=(), omit_default=True,
                    doc="the cell's value is the cells of its arms' runs in the region of "
                        "their start (sigh's ChaosArrow)"),
              Clues("counts", False, required=False, default=(), omit_default=True,
                    doc="the cell's value is how many of the cells share the first one's "
                        "region (sigh's ChaosCount)"))
    geometry: Geometry
    together: tuple[tuple[int, ...], ...] = ()
    arrows: tuple[ChaosClue, ...] = ()
    counts: tuple[ChaosClue, ...] = ()

    def __post_init__(self) -> None:
        if self.geometry.has_boxes:
            raise ValueError("chaos construction draws the regions: give the grid none "
                             "('box': 'none')")

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(range(self.geometry.ngrid))

    def describe(self, geometry: Geometry) -> str:
        return "chaos construction"

    def encode(self, ctx) -> list[Clause]:
        return self.region_formula(ctx)[0]

    def region_formula(self, ctx) -> tuple[list[Clause], list[list[int]]]:
        """The rule's clauses and ``x`` (``x[c][r]``: cell c is in region r), to read an
        answer's regions back (:mod:`satdoku.sat.regions`)."""
        clauses, x = region_clauses(ctx, self.geometry, self.together)
        return clauses + clue_clauses(ctx, x, self.arrows + self.counts), x

    def clause_estimate(self, geometry: Geometry) -> int:
        """The digits' y definitions alone: 3 clauses per cell, region and digit."""
        return 3 * geometry.ngrid * geometry.size ** 2

    def check(self, grid: Grid) -> list[str]:
        """The answer's regions (its geometry) each connected; their sizes and digits are the
        houses' check (:func:`~satdoku.model.grid.solution_problems`)."""
        geo = grid.geometry
        if not geo.regions:
            return ["chaos construction: the answer draws no regions"]
        problems = [f"chaos construction: region {i + 1} ({cell_span(geo, region)}) is not "
                    f"connected" for i, region in enumerate(geo.regions)
                    if not connected(geo, region)]
        region_of = {c: hs[2] for c, hs in enumerate(geo.cell_houses) if hs}
        problems += [f"chaos construction: {cell_span(geo, group)} are not in one region"
                     for group in self.together if len({region_of[c] for c in group}) > 1]
        values = [geo.value(d) for d in grid.cells]
        regions = [region_of[c] for c in range(geo.ngrid)]
        return problems + [p for clue in self.arrows + self.counts
                           if (p := clue_problem(clue, geo, values, regions))]

    def prune(self, cand: list[int]) -> list[int] | None:
        """Nothing: native search refuses a grid without boxes."""
        return []

    def draw(self, canvas) -> None:
        """Each ``together`` group shaded; a note: the regions are the answer's (drawn with
        it)."""
        for group in self.together:
            canvas.shade(group, "extra_region", area=True)
        for clue in self.arrows + self.counts:  # as sigh marks them: the clue cell ringed
            canvas.circle(clue.cell, radius=0.42)
        canvas.note("chaos construction: the solver draws the regions"
                    + ("; a ringed digit counts region cells" if self.arrows + self.counts
                       else ""))
