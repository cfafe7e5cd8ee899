"""What propagation reads about a geometry, computed once per geometry.

Glossary (besides the one in :mod:`satdoku.model.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (:mod:`satdoku.model.digits`).
  ``full`` has all N bits set; one bit set means the cell is assigned; 0 is a contradiction.
- packed grid: every cell's candidates in one big int, cell ``i`` at bits ``i * width ..``
  (width 16, 32 or 64 bits); shifts and masks of it look at every segment at once.
- slot: where a segment starts in the packed grid (its first cell).

:func:`tables` gives the peers (a table up to 64 x 64, the three houses beyond), an
``itemgetter`` per house, and locked-candidate tables derived from :attr:`Geometry.segments`:
packed for boxes of at least two rows and columns up to 64 x 64, segment by segment otherwise.
"""

from __future__ import annotations

import functools
import sys
from array import array
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable, Iterable, Sequence

from ..errors import SolverError
from ..model.digits import full_mask
from ..model.geometry import Geometry

#: Grids up to this size use the shared ``Geometry.peers`` table; bigger ones walk their houses.
PEER_TABLE_MAX_SIZE = 64

#: The largest naked and hidden subsets looked for, by grid size: (from size, largest); 0 for
#: none. Measured in docs/native-search.md.
SUBSETS_BY_SIZE = ((25, 3), (16, 2), (0, 0))

#: About how many cell visits pass between two looks at the clock (a few milliseconds' work).
CLOCK_WORK = 20_000


class Timeout(Exception):
    """The deadline passed during propagation or search."""


class HousePeers:
    """``peers[cell]`` built on demand from the cell's three houses (itself left out).

    Used for grids too big for a peer table; a cell in both the box and the row (or column)
    appears twice, which costs one skipped test.
    """

    __slots__ = ("houses", "cell_houses")

    def __init__(self, geo: Geometry) -> None:
        self.houses = geo.houses
        self.cell_houses = geo.cell_houses

    def __getitem__(self, cell: int) -> tuple[int, ...]:
        out: tuple[int, ...] = ()
        for h in self.cell_houses[cell]:
            house = self.houses[h]
            i = house.index(cell)
            out += house[:i] + house[i + 1:]
        return out


@dataclass(frozen=True, eq=False)
class PackedSegments:
    """Where lines of one direction (rows or columns) meet boxes, in the packed grid.

    The union of a segment is the OR of the packed grid shifted by ``seg_shifts``, read at the
    segment's slot in ``seg_mask``. Folding slots by ``line_shifts`` (``box_shifts``) meets each
    line's (box's) other segments at its first slot (``line_first``, ``box_first``).
    ``line_rest[slot]`` are the line's cells outside the segment's box, ``box_rest[slot]`` the
    box's cells outside the segment's line.
    """

    seg_shifts: tuple[int, ...]
    seg_mask: int
    line_shifts: tuple[int, ...]
    line_first: int
    box_shifts: tuple[int, ...]
    box_first: int
    line_rest: tuple[tuple[int, ...] | None, ...]
    box_rest: tuple[tuple[int, ...] | None, ...]


@dataclass(frozen=True, eq=False)
class Packed:
    """Packing and masks for locked candidates: ``typecode`` packs cells ``width`` bits apart."""

    typecode: str
    width: int
    parts: tuple[PackedSegments, PackedSegments]  # rows, then columns


#: Locked candidates segment by segment: (segment cells, line rest, box rest) getters, then the
#: line rest and box rest cells, for each segment.
SegmentGetters = tuple[tuple[Callable, Callable, Callable, tuple[int, ...], tuple[int, ...]], ...]


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything the passes read for one geometry."""

    geometry: Geometry
    ncells: int
    nhouses: int
    full: int
    peers: Any  # tuple of tuples, or HousePeers
    cell_houses: tuple[tuple[int, ...], ...]  # three a cell: need_boxes
    houses: tuple[tuple[int, ...], ...]
    house_getters: tuple[Callable[[list[int]], tuple[int, ...]], ...]
    packed: Packed | None  # packed locked candidates, or None
    subsets: int  # the largest naked and hidden subsets that pay at this size (0: none)
    propagate_interval: int  # dequeued cells between clock checks
    search_interval: int  # nodes between clock checks

    @functools.cached_property
    def segments(self) -> SegmentGetters:
        """Segment-by-segment locked-candidate tables (for jigsaw regions, and wherever the
        packed grid does not serve)."""
        return tuple((getter(seg.cells), getter(seg.line_rest), getter(seg.box_rest),
                      seg.line_rest, seg.box_rest)
                     for seg in self.geometry.segments if seg.line_rest and seg.box_rest)


def getter(cells: Sequence[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """``itemgetter(*cells)``, returning a tuple even for one cell."""
    if len(cells) == 1:
        only = cells[0]
        return lambda cand: (cand[only],)
    return itemgetter(*cells)


def _packed_tables(geo: Geometry) -> Packed | None:
    """Packed locked-candidate tables from ``geo.segments``, or None when boxes are a single
    line, irregular, or N is above 64."""
    r, c, n = geo.box_rows, geo.box_cols, geo.size
    if not geo.is_boxed or r == 1 or c == 1 or n > 64 or sys.byteorder != "little":
        return None  # (array bytes are read as a little-endian int)
    width = 16 if n <= 16 else 32 if n <= 32 else 64
    typecode = next(tc for tc in "HILQ" if array(tc).itemsize * 8 == width)
    slot_full = full_mask(n)

    def mask(cells: Iterable[int]) -> int:
        return sum(slot_full << (cell * width) for cell in cells)

    def offsets(cells: Sequence[int]) -> tuple[int, ...]:
        return tuple((cell - cells[0]) * width for cell in cells[1:])

    def part(column: bool) -> PackedSegments:
        segs = [s for s in geo.segments if (s.line >= n) == column]
        by_line: dict[int, list[int]] = {}
        by_box: dict[int, list[int]] = {}
        line_rest: list[tuple[int, ...] | None] = [None] * geo.ncells
        box_rest: list[tuple[int, ...] | None] = [None] * geo.ncells
        for s in segs:
            slot = s.cells[0]
            by_line.setdefault(s.line, []).append(slot)
            by_box.setdefault(s.box, []).append(slot)
            line_rest[slot], box_rest[slot] = s.line_rest, s.box_rest
        seg_shifts = offsets(segs[0].cells)
        line_shifts = offsets(next(iter(by_line.values())))
        box_shifts = offsets(next(iter(by_box.values())))
        # Regular boxes: every segment, line and box of a direction has the same offsets.
        assert all(offsets(s.cells) == seg_shifts for s in segs)
        assert all(offsets(v) == line_shifts for v in by_line.values())
        assert all(offsets(v) == box_shifts for v in by_box.values())
        return PackedSegments(
            seg_shifts=seg_shifts,
            seg_mask=mask(s.cells[0] for s in segs),
            line_shifts=line_shifts,
            line_first=mask(v[0] for v in by_line.values()),
            box_shifts=box_shifts,
            box_first=mask(v[0] for v in by_box.values()),
            line_rest=tuple(line_rest),
            box_rest=tuple(box_rest),
        )

    return Packed(typecode, width, (part(False), part(True)))


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
        peers=geo.peers if n <= PEER_TABLE_MAX_SIZE else HousePeers(geo),
        cell_houses=geo.cell_houses,
        houses=geo.houses,
        house_getters=tuple(getter(house) for house in geo.houses),
        packed=_packed_tables(geo),
        subsets=next(k for size, k in SUBSETS_BY_SIZE if n >= size),
        propagate_interval=max(1, CLOCK_WORK // (3 * n)),
        search_interval=max(1, CLOCK_WORK // geo.ncells),
    )
