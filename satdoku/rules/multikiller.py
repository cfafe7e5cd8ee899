"""``multi-killer``: a killer cage whose total is one of several sums (a "digital root" cage:
its total's digital root is given, so the sum is one of r, r + 9, r + 18...).

Encoded as a killer cage whose total is a new one-hot integer over ``sums``
(:func:`.sums.encode_sum` with a term target), plus the cage's no-repeat clauses. Pruning
keeps the digits of the sets of different digits that fit one of the sums, then the digits a
choice of candidates summing into ``sums`` uses (MultiSumKillerCageConstraint.cs in
dclamage/SudokuSolver reads the f-puzzles ``cage`` of value ``DRn`` this way).
"""

from __future__ import annotations

from ..model.geometry import Geometry
from ..records import record
from .base import Clause, Constraint, cell_span
from .exchange import FPuzzles
from .fields import Cells, Ints
from .killer import cage_problem, encode_cage, prune_cage
from .sums import one_hot

__all__ = ["MultiKiller", "digital_root_sums"]


def digital_root_sums(n: int, cells: int, root: int) -> tuple[int, ...]:
    """The totals ``cells`` different digits 1..N can reach whose digital root is ``root``:
    ``root``, ``root + 9``... (what SudokuSolver makes of an f-puzzles cage ``DRn``).

    >>> digital_root_sums(9, 2, 3), digital_root_sums(9, 3, 9)
    ((3, 12), (9, 18))
    """
    low = cells * (cells + 1) // 2
    high = n * (n + 1) // 2 - (n - cells) * (n - cells + 1) // 2
    return tuple(t for t in range(root, high + 1, 9) if t >= low)


@record(frozen=True)
class MultiKiller(Constraint):
    """``multi-killer``: no repeats in the cage; its digits sum to one of ``sums``.

    >>> from satdoku.model.geometry import geometry
    >>> cage = MultiKiller((0, 1), (3, 12))
    >>> cage.describe(geometry(3, 3)), cage.holds((4, 8)), cage.holds((4, 5))
    ('killer cage r1c1-r1c2 = 3 or 12', True, False)
    """

    type = "multi-killer"
    cells: tuple[int, ...]
    sums: tuple[int, ...]
    fields = (Cells(doc="the cage"),
              Ints("sums", low=1, high=None, unique=True, what="totals",
                   doc="the totals the cage may have"))
    fpuzzles = (FPuzzles("cage", "drcage", source="SudokuSolver",
                         how="a drawn cage of value 'DRn' (digital root n): the totals with "
                             "that digital root; other drawn cages only draw"),)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sums", tuple(sorted(self.sums)))

    def describe(self, geometry: Geometry) -> str:
        return f"killer cage {cell_span(geometry, self.cells)} = " + \
            " or ".join(map(str, self.sums))

    def draw(self, canvas) -> None:
        """A dashed outline, the totals small in its top-left cell (``3|12``)."""
        canvas.cage(self.cells, "|".join(map(str, self.sums)))

    def encode(self, ctx) -> list[Clause]:
        total, more = one_hot(ctx, list(self.sums))
        return more + encode_cage(ctx, self.cells, total)

    def holds(self, digits: tuple[int, ...]) -> bool:
        return len(set(digits)) == len(digits) and sum(digits) in self.sums

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        return cage_problem(self, geometry, digits)

    def prune(self, cand: list[int]) -> list[int] | None:
        return prune_cage(self.cells, cand, self.sums)
