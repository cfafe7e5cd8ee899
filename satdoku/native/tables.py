"""What propagation reads about a geometry, computed once per geometry.

Glossary (besides the one in :mod:`satdoku.model.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (:mod:`satdoku.model.digits`).
  ``full`` has all N bits set; one bit set means the cell is assigned; 0 is a contradiction.
- position: a cell's place in a house, as a bit (bit ``i`` for the house's ``i``-th cell).
- key: a (house, digit) pair as one int, ``house * (N + 1) + digit``; the positions of a key
  are the bitmask of the places in the house where the digit may still go (the list of them is
  the *positions*, one layout for the passes of :mod:`~satdoku.native.propagate`, the ladder's
  board and its dynamic chains; index ``house * (N + 1)`` is unused).
- segment: where a line meets a box (:attr:`Geometry.segments`), as the positions it takes in
  each of the two houses.

:func:`tables` gives each cell's three (house, position), an ``itemgetter`` per house, and, for
locked candidates, each house's segments by position (:attr:`Tables.locks`).
"""

from __future__ import annotations

import functools
from operator import itemgetter

from ..errors import SolverError
from ..model.digits import full_mask
from ..model.geometry import Geometry
from ..records import record

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Callable, Sequence

#: The largest naked and hidden subsets looked for, by grid size: (from size, largest); 0 for
#: none. Measured in docs/native-search.md.
SUBSETS_BY_SIZE = ((25, 3), (16, 2), (0, 0))

#: Native search looks for locked candidates on boxed grids up to this size (and on jigsaw
#: regions); past it they do not pay. Measured in docs/native-search.md.
LOCKED_MAX_SIZE = 64

#: About how many cell visits pass between two looks at the clock (a few milliseconds' work).
CLOCK_WORK = 20_000


class Timeout(Exception):
    """The deadline passed during propagation or search."""


#: One house's segments by position: for each position, (its segment's positions in this
#: house, the other house's key base ``house * stride``, the segment's positions there), for each
#: other house it may lock into (a box: its row and column; a line: its box).
Locks = tuple[tuple[tuple[int, int, int], ...], ...]


@record(frozen=True, eq=False)
class Tables:
    """Everything the passes read for one geometry."""

    geometry: Geometry
    ncells: int
    nhouses: int
    full: int
    cell_houses: tuple[tuple[int, ...], ...]  # three a cell: need_boxes
    houses: tuple[tuple[int, ...], ...]
    house_getters: tuple[Callable[[list[int]], tuple[int, ...]], ...]
    stride: int  # keys a house: N + 1 (digits 1..N)
    # each cell's (key base ``house * stride``, position bit, the house's cells), its 3 houses
    slots: tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]
    subsets: int  # the largest naked and hidden subsets that pay at this size (0: none)
    propagate_interval: int  # dequeued cells between clock checks
    search_interval: int  # nodes between clock checks

    @functools.cached_property
    def locks(self) -> tuple[Locks, ...]:
        """Each house's segments by position (:data:`Locks`), for locked candidates: only the
        segments of two cells or more with cells outside them in both houses (a digit locked
        in one cell is a hidden single; boxes of one line have none). Built
        from the houses, not :attr:`Geometry.segments`, whose rests would hold millions of
        cells at 400 x 400."""
        geo, n, stride = self.geometry, self.geometry.size, self.stride
        houses, cell_houses = self.houses, self.cell_houses
        one = [1 << i for i in range(n)]
        where = [{c: one[i] for i, c in enumerate(house)} for house in houses]
        out: list[list[tuple[tuple[int, int, int], ...]]] = [[()] * n for _ in houses]
        for line in range(geo.height + geo.width):
            by_box: dict[int, list[int]] = {}
            for cell in houses[line]:
                by_box.setdefault(cell_houses[cell][2], []).append(cell)
            for box, cells in by_box.items():
                if len(cells) in (1, len(houses[line]), len(houses[box])):
                    continue  # one cell, or the box is the line or lies in it
                in_line = sum(map(where[line].__getitem__, cells))
                in_box = sum(map(where[box].__getitem__, cells))
                for cell in cells:
                    i = where[line][cell].bit_length() - 1
                    out[line][i] += ((in_line, box * stride, in_box),)
                    j = where[box][cell].bit_length() - 1
                    out[box][j] += ((in_box, line * stride, in_line),)
        return tuple(map(tuple, out))


def getter(cells: Sequence[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """``itemgetter(*cells)``, returning a tuple even for one cell."""
    if len(cells) == 1:
        only = cells[0]
        return lambda cand: (cand[only],)
    return itemgetter(*cells)


def need_boxes(geo: Geometry, what: str) -> None:
    """Refuse a grid without boxes, or not N x N of N digits: native search and the ladder
    count three houses of N cells a cell."""
    if not geo.has_boxes:
        raise SolverError(f"{what} needs boxes or regions; this grid has none")
    if not geo.is_square:
        raise SolverError(f"{what} needs an N x N grid of N digits; this is a {geo.shape}")
    if geo.extra:
        raise SolverError(f"{what} takes the grid's cells only; this puzzle has "
                          f"{len(geo.extra)} outside it ({geo.extra[0]}...)")


def _slots(geo: Geometry) -> tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]:
    """Each cell's (key base, position bit, house cells) in its houses, in house order."""
    n = geo.size
    one = [1 << i for i in range(n)]  # one int a position, shared (400-bit ints at 400 x 400)
    out: list[list[tuple[int, int, tuple[int, ...]]]] = [[] for _ in range(geo.ncells)]
    for h, house in enumerate(geo.houses):
        base = h * (n + 1)
        for i, c in enumerate(house):
            out[c].append((base, one[i], house))
    return tuple(map(tuple, out))


@functools.lru_cache(maxsize=32)
def tables(geo: Geometry) -> Tables:
    """The tables of ``geo`` (cached)."""
    need_boxes(geo, "native search")
    n = geo.size
    return Tables(
        geometry=geo,
        ncells=geo.ncells,
        nhouses=len(geo.houses),
        full=full_mask(n),
        stride=n + 1,
        cell_houses=geo.cell_houses,
        houses=geo.houses,
        house_getters=tuple(getter(house) for house in geo.houses),
        slots=_slots(geo),
        subsets=next(k for size, k in SUBSETS_BY_SIZE if n >= size),
        propagate_interval=max(1, CLOCK_WORK // (3 * n)),
        search_interval=max(1, CLOCK_WORK // geo.ncells),
    )
