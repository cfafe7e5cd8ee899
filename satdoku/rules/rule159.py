"""``rule-159``: column indexing on columns 1, 5 and 9."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.geometry import Geometry
from ..model.grid import Grid
from .base import Clause, GlobalRule, bit, restrict

__all__ = ["Rule159"]

INDEXING_COLUMNS = (1, 5, 9)


@dataclass(frozen=True)
class Rule159(GlobalRule):
    """``rule-159``: in every row, the digit d in column c (c = 1, 5, 9) says that column d of
    that row holds c. Grids of size 9 or more.

    One binary clause per (row, c, d): ``r c = d  ->  r d = c``. The converse follows from
    the row rule (c appears once in the row), so it is not written.

    >>> from satdoku.rules import EncodeContext
    >>> from satdoku.model.geometry import geometry
    >>> len(Rule159(geometry(3, 3)).encode(EncodeContext(geometry(3, 3))))
    216
    """

    type = "rule-159"
    geometry: Geometry

    def __post_init__(self) -> None:
        if self.geometry.size < 9:
            raise ValueError(f"rule 1-5-9 needs columns 1 to 9, not a {self.geometry.size}x"
                             f"{self.geometry.size} grid")

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(range(self.geometry.ncells))

    def _links(self):
        """(row start, c, d) for every indexing cell and digit d != c."""
        n = self.geometry.size
        return [(r * n, c, d) for r in range(n) for c in INDEXING_COLUMNS
                for d in range(1, n + 1) if d != c]

    def describe(self, geometry: Geometry) -> str:
        return "rule 1-5-9"

    def draw(self, canvas) -> None:
        """Columns 1, 5 and 9 tinted (as f-puzzles colours its column indexers), and a note."""
        n = self.geometry.size
        canvas.shade([r * n + c - 1 for c in INDEXING_COLUMNS for r in range(n)], "indexer",
                     area=True)
        canvas.note(self.describe(canvas.geometry))

    def encode(self, ctx) -> list[Clause]:
        return [[-ctx.var(row + c - 1, d), ctx.var(row + d - 1, c)]
                for row, c, d in self._links()]

    def check(self, grid: Grid) -> list[str]:
        n, cells, name = grid.size, grid.cells, grid.geometry.cell_name
        out = []
        for r in range(n):
            for c in INDEXING_COLUMNS:
                d = cells[r * n + c - 1]
                if 1 <= d <= n and cells[r * n + d - 1] != c:
                    out.append(f"rule 1-5-9: {name(r * n + c - 1)} is {d} but "
                               f"{name(r * n + d - 1)} is not {c}")
        return out

    def prune(self, cand: list[int]) -> list[int] | None:
        n = self.geometry.size
        changed: set[int] = set()
        for r in range(n):
            row = r * n
            for c in INDEXING_COLUMNS:
                pointer = row + c - 1
                keep = bit(c)  # d here needs c at column d; c at column k needs k here
                for d in range(1, n + 1):
                    if d != c and cand[row + d - 1] & bit(c):
                        keep |= bit(d)
                if not restrict(cand, pointer, keep, changed):
                    return None
                for k in range(1, n + 1):
                    if k != c and not cand[pointer] & bit(k):
                        if not restrict(cand, row + k - 1, ~bit(c), changed):
                            return None
        return sorted(changed)
