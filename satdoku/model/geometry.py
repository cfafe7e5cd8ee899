"""The shape of a Sudoku grid, computed once and shared by every solver.

Glossary (used throughout satdoku):

- box: an r x c block of cells; the grid is N x N with N = r * c (the *size*).
- cell: an int ``0 .. N*N-1``, numbered row by row; ``r3c7`` names it in messages (1-based).
- digit: an int ``1 .. N``; 0 means empty. Symbols ('1'..'9', 'A'.., '.') exist only in
  parsing and formatting.
- value: what a digit stands for. Digits 1..N stand for the values ``low .. low+N-1``
  (``low`` is 1 but for a puzzle of other digits, e.g. 0..8: ``low`` 0). Solvers and the
  checker work on digits; rules whose meaning depends on the values (sums, parity) read
  :meth:`Geometry.value` or refuse a grid whose values are not 1..N.
- house: a row, a column or a box: N cells that must hold every digit once. Houses are numbered
  rows first (``0 .. N-1``), then columns (``N .. 2N-1``), then boxes (``2N .. 3N-1``).
- region: a box of irregular shape. A jigsaw geometry (:func:`jigsaw`) has N regions of N
  cells in place of the boxes; everything else treats them as boxes. A grid may have no box
  (:func:`boxless`: a Latin square), as a chaos construction has before it finds regions.
- peer: another cell that shares a house with a cell.
- line: a row or a column. segment: the cells a line shares with a box (c cells of a row,
  r of a column; any number for regions), the unit of locked candidates: its line's other cells
  are its *line rest*, its box's other cells its *box rest*.

Algorithms only loop over ``houses``, ``cell_houses`` and ``peers``; nothing else knows what a box
is. Peers are built on first use: for 400 x 400 grids they would take gigabytes.
"""

from __future__ import annotations

import functools
import math

from ..errors import OptionError
from ..records import field, record

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

__all__ = ["Geometry", "Segment", "geometry", "jigsaw", "boxless", "shaped", "sigh_box",
           "box_shapes", "default_box", "geometry_for_size"]

#: Largest grid size satdoku accepts (a 400 x 400 grid has 64 million (cell, digit) pairs).
MAX_SIZE = 1024


@record(frozen=True)
class Segment:
    """The cells ``line`` (a row or column house) shares with ``box`` (a box house), and the
    cells of each outside the other: ``line_rest`` and ``box_rest`` (in house order).

    A digit whose places in the box are all in the segment leaves the line rest (*pointing*);
    one whose places in the line are all in it leaves the box rest (*claiming*).
    """

    line: int
    box: int
    cells: tuple[int, ...]
    line_rest: tuple[int, ...]
    box_rest: tuple[int, ...]


@record(frozen=True, eq=False)
class Geometry:
    """Rows, columns and boxes of an N x N grid made of ``box_rows`` x ``box_cols`` boxes, or of
    irregular ``regions`` (then ``box_rows`` and ``box_cols`` are 0), or of no boxes at all
    (``regions`` empty, the grid's side in ``side``).

    Build one with :func:`geometry` or :func:`jigsaw` (both cached), not directly.

    >>> g = geometry(2, 3)
    >>> g.size, g.ncells, len(g.houses)
    (6, 36, 18)
    >>> g.cell_name(g.cell(2, 5))
    'r3c6'
    """

    box_rows: int
    box_cols: int
    regions: tuple[tuple[int, ...], ...] | None = field(default=None, repr=False)
    low: int = 1
    side: int = 0
    grid_rows: int = 0  # a grid of other shape (:func:`shaped`): its rows, columns and values
    grid_cols: int = 0
    nvalues: int = 0
    extra: tuple[str, ...] = ()  # cells outside the grid (:func:`satdoku.model.outside.with_extra`)
    size: int = field(init=False)
    height: int = field(init=False)
    width: int = field(init=False)
    ncells: int = field(init=False)
    houses: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    cell_houses: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        r, c = self.box_rows, self.box_cols
        if self.grid_rows:
            h, w = self.grid_rows, self.grid_cols
        else:
            h = w = r * c if self.regions is None else len(self.regions) or self.side
        if self.regions is None:
            per = w // c  # boxes side by side in a band
            boxes = []
            for b in range(h * w // (r * c)):
                top, left = (b // per) * r, (b % per) * c
                boxes.append(tuple((top + i) * w + left + j for i in range(r) for j in range(c)))
        else:
            boxes = [tuple(sorted(region)) for region in self.regions]
        box_of = [0] * (h * w)
        for b, box in enumerate(boxes):
            for cell in box:
                box_of[cell] = b
        rows = [tuple(range(i * w, (i + 1) * w)) for i in range(h)]
        cols = [tuple(range(j, h * w, w)) for j in range(w)]
        cell_houses: tuple[tuple[int, ...], ...]
        if boxes:
            cell_houses = tuple((cell // w, h + cell % w, h + w + box_of[cell])
                                for cell in range(h * w))
        else:
            cell_houses = tuple((cell // w, h + cell % w) for cell in range(h * w))
        object.__setattr__(self, "size", self.nvalues or max(h, w))
        object.__setattr__(self, "height", h)
        object.__setattr__(self, "width", w)
        object.__setattr__(self, "ncells", h * w + len(self.extra))
        object.__setattr__(self, "houses", tuple(rows + cols + boxes))
        object.__setattr__(self, "cell_houses", cell_houses + ((),) * len(self.extra))

    @property
    def is_square(self) -> bool:
        """True for an N x N grid of N digits, the shape everything in satdoku takes; a grid
        of other shape (:func:`shaped`) is solved and counted, and refused by what needs
        this one (native search, the ladder, pictures, most rules)."""
        return self.height == self.width == self.size

    @property
    def is_plain(self) -> bool:
        """:attr:`is_square` with no cells outside the grid (what native search takes)."""
        return self.is_square and not self.extra

    @functools.cached_property
    def full(self) -> tuple[bool, ...]:
        """For each house, whether it has a cell for every digit (then it holds each once;
        a shorter house holds distinct digits)."""
        return tuple(len(house) == self.size for house in self.houses)

    @property
    def is_boxed(self) -> bool:
        """True for regular boxes, False for a jigsaw of irregular regions."""
        return self.regions is None

    @property
    def has_boxes(self) -> bool:
        """False for a grid of rows and columns only (:func:`boxless`): every cell is then in
        two houses, not three, and what needs boxes (native search, the ladder) refuses it."""
        return self.regions is None or bool(self.regions)

    def refines(self, other: "Geometry") -> bool:
        """True when a grid of this geometry may answer a puzzle of ``other``: the same one, or
        regions found for a grid without boxes (a chaos construction's answer).

        >>> jig = jigsaw(((0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)))
        >>> jig.refines(boxless(4)), boxless(4).refines(jig), jig.refines(jig)
        (True, False, True)
        """
        return self is other or (not other.has_boxes and bool(self.regions)
                                 and self.size == other.size and self.low == other.low
                                 and other.is_square and self.extra == other.extra)

    @property
    def shape(self) -> str:
        """The box shape as written on the command line, e.g. ``'3x3'`` (``'jigsaw'``,
        ``'none'``); a grid of other shape says its size first (``'6x8 grid, 2x4'``)."""
        if self.grid_rows:
            box = f"{self.box_rows}x{self.box_cols}" if self.regions is None else (
                "jigsaw" if self.regions else "no boxes")
            return f"{self.height}x{self.width} grid of {self.size} digits, {box}"
        if self.regions is None:
            return f"{self.box_rows}x{self.box_cols}"
        return "jigsaw" if self.regions else "none"

    @property
    def band_shape(self) -> tuple[int, int]:
        """(rows, columns) between the rules of a printed grid: the box shape, or the whole
        grid for a jigsaw (no straight rules)."""
        if self.regions is None:
            return self.box_rows, self.box_cols
        return self.height, self.width

    @functools.cached_property
    def segments(self) -> tuple[Segment, ...]:
        """Every non-empty intersection of a line with a box: rows first, then columns, each
        line's segments left to right (top to bottom). Built on first use (the rests of a
        400 x 400 grid hold millions of cells).

        >>> first = geometry(2, 2).segments[0]
        >>> first.cells, first.line_rest, first.box_rest
        ((0, 1), (2, 3), (4, 5))
        """
        out: list[Segment] = []
        if not self.has_boxes:
            return ()
        for line in range(self.height + self.width):
            by_box: dict[int, list[int]] = {}
            for cell in self.houses[line]:
                by_box.setdefault(self.cell_houses[cell][2], []).append(cell)
            for box, cells in by_box.items():
                inside = set(cells)
                out.append(Segment(line, box, tuple(cells),
                                   tuple(x for x in self.houses[line] if x not in inside),
                                   tuple(x for x in self.houses[box] if x not in inside)))
        return tuple(out)

    @functools.cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the sorted cells that share a house with it (itself excluded)."""
        result = []
        for cell, hs in enumerate(self.cell_houses):
            ps: set[int] = set()
            for h in hs:
                ps.update(self.houses[h])
            ps.discard(cell)
            result.append(tuple(sorted(ps)))
        return tuple(result)

    @property
    def high(self) -> int:
        """The value of digit N."""
        return self.low + self.size - 1

    @property
    def values_text(self) -> str:
        """The values as the variant format writes them: ``'0-8'`` (``'1-9'`` for 9x9).

        >>> geometry(3, 3, low=0).values_text, geometry(3, 3).value(9)
        ('0-8', 9)
        """
        return f"{self.low}-{self.high}"

    def value(self, digit: int) -> int:
        """The value digit ``digit`` stands for."""
        return digit + self.low - 1

    def cell(self, row: int, col: int) -> int:
        """The cell at 0-based ``row``, ``col``."""
        return row * self.width + col

    def row_col(self, cell: int) -> tuple[int, int]:
        """0-based (row, column) of ``cell``; ValueError for a cell outside the grid."""
        if cell >= self.height * self.width:
            raise ValueError(f"{self.cell_name(cell)} is outside the grid: it has no row or column")
        return divmod(cell, self.width)

    @property
    def ngrid(self) -> int:
        """How many cells the grid has: the cells outside it (:attr:`extra`) follow them."""
        return self.height * self.width

    def outside_cell(self, name: Any) -> int:
        """The cell outside the grid named ``name`` (ValueError: not that, nor like r1c1)."""
        if isinstance(name, str) and name in self.extra_cell:
            return self.extra_cell[name]
        known = f" or a cell outside the grid ({', '.join(self.extra[:3])}...)" * bool(self.extra)
        raise ValueError(f"{name!r} is not a cell name like 'r1c1'{known}")

    @functools.cached_property
    def extra_cell(self) -> dict[str, int]:
        """Each cell outside the grid by its name (``'VA1'``) -> its cell int."""
        return {name: self.ngrid + i for i, name in enumerate(self.extra)}

    @property
    def plain(self) -> "Geometry":
        """This geometry without its cells outside the grid (itself when it has none)."""
        make, args = self._make()
        return make(*args) if self.extra else self

    def cell_name(self, cell: int) -> str:
        """``'r3c7'``: the 1-based name of ``cell`` used in every message; a cell outside
        the grid is named by its own name (``'VA1'``)."""
        if cell >= self.height * self.width:
            return self.extra[cell - self.height * self.width]
        r, c = divmod(cell, self.width)
        return f"r{r + 1}c{c + 1}"

    def house_name(self, house: int) -> str:
        """``'row 3'``, ``'column 7'`` or ``'box 5'`` (1-based)."""
        h, w = self.height, self.width
        if house < h:
            return f"row {house + 1}"
        if house < h + w:
            return f"column {house - h + 1}"
        return f"{'box' if self.regions is None else 'region'} {house - h - w + 1}"

    def __repr__(self) -> str:
        values = "" if self.low == 1 else f", values={self.values_text}"
        return f"Geometry({self.shape}, size={self.size}{values})"

    def __reduce__(self) -> tuple[Callable[..., Geometry], tuple[Any, ...]]:
        # Unpickled in a worker process, a geometry is the cached one of that process, so
        # identity checks (``solution.geometry is puzzle.geometry``) hold across processes.
        if self.extra:
            return (named_cells, (self.plain, self.extra))
        return self._make()

    def _make(self) -> tuple[Callable[..., Geometry], tuple[Any, ...]]:
        if self.grid_rows:
            return (_shaped, (self.grid_rows, self.grid_cols, self.nvalues, self.box_rows,
                              self.box_cols, self.regions, self.low))
        if self.regions == ():
            return (boxless, (self.size, self.low))
        if self.regions is not None:
            return (jigsaw, (self.regions, self.low))
        return (geometry, (self.box_rows, self.box_cols, self.low))


def geometry(box_rows: int, box_cols: int, low: int = 1) -> Geometry:
    """The shared, cached geometry for boxes of ``box_rows`` x ``box_cols`` cells, whose
    digits stand for the values ``low .. low+N-1``.

    >>> geometry(3, 3) is geometry(3, 3), geometry(3, 3, low=0)
    (True, Geometry(3x3, size=9, values=0-8))
    """
    return _geometry(box_rows, box_cols, low)  # one cache key however ``low`` is passed


@functools.lru_cache(maxsize=None)
def _geometry(box_rows: int, box_cols: int, low: int) -> Geometry:
    if box_rows < 1 or box_cols < 1 or box_rows * box_cols > MAX_SIZE:
        raise OptionError(f"box shape {box_rows}x{box_cols} is out of range")
    check_low(low, box_rows * box_cols)
    return Geometry(box_rows, box_cols, low=low)


#: The highest value a digit may stand for: the last symbol of the default alphabet ('Z').
MAX_VALUE = 35


def check_low(low: int, size: int) -> None:
    """Refuse values ``low .. low+size-1`` that satdoku cannot write one symbol each."""
    if low != 1 and not (0 <= low and low + size - 1 <= MAX_VALUE):
        raise OptionError(f"values {low}-{low + size - 1}: a grid's values must lie in "
                          f"0..{MAX_VALUE} (one symbol each) unless they are 1..N")


def jigsaw(regions: Sequence[Sequence[int]], low: int = 1) -> Geometry:
    """The shared, cached geometry whose boxes are the irregular ``regions`` (N of N cells each,
    together every cell once; cells numbered row by row).

    >>> g = jigsaw(((0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)))
    >>> g.shape, g.size, g.house_name(9)
    ('jigsaw', 4, 'region 2')
    """
    return _jigsaw(tuple(sorted(tuple(sorted(region)) for region in regions)), low)


@functools.lru_cache(maxsize=64)
def _jigsaw(regions: tuple[tuple[int, ...], ...], low: int = 1) -> Geometry:
    n = len(regions)
    if not 1 <= n <= MAX_SIZE:
        raise OptionError(f"{n} regions: a jigsaw needs 1 to {MAX_SIZE}")
    seen = sorted(cell for region in regions for cell in region)
    if any(len(region) != n for region in regions) or seen != list(range(n * n)):
        raise OptionError(f"regions must split the {n * n} cells of a {n}x{n} grid into {n} "
                         f"regions of {n} cells")
    check_low(low, n)
    return Geometry(0, 0, regions, low)


@functools.lru_cache(maxsize=None)
def boxless(size: int, low: int = 1) -> Geometry:
    """The shared, cached geometry of an N x N grid of rows and columns only (no boxes).

    >>> g = boxless(4)
    >>> g.shape, len(g.houses), g.cell_houses[5], g.has_boxes
    ('none', 8, (1, 5), False)
    """
    if not 1 <= size <= MAX_SIZE:
        raise OptionError(f"{size}x{size} is out of range")
    check_low(low, size)
    return Geometry(0, 0, (), low, size)


def shaped(height: int, width: int, values: int | None = None, *,
           box: tuple[int, int] | None = None, regions: Sequence[Sequence[int]] | None = None,
           low: int = 1) -> Geometry:
    """The geometry of a ``height`` x ``width`` grid of ``values`` digits (default the longer
    side; never fewer), with boxes of ``box`` (R x C, tiling the grid), or ``regions`` (equal
    sizes, tiling it), or neither (rows and columns only). Rows, columns and boxes hold
    distinct digits; one with a cell for every digit holds each once (sigh's semantics).
    An N x N grid of N digits is the usual geometry (:func:`geometry`, :func:`jigsaw`,
    :func:`boxless`).

    >>> g = shaped(6, 8, box=(2, 4))
    >>> g.size, g.ncells, len(g.houses), g.cell_name(47), g.house_name(14), g.is_square
    (8, 48, 20, 'r6c8', 'box 1', False)
    >>> shaped(4, 4, box=(2, 2)) is geometry(2, 2)
    True
    """
    k = values if values is not None else max(height, width)
    if not (1 <= height <= MAX_SIZE and 1 <= width <= MAX_SIZE) or k < max(height, width):
        raise OptionError(f"a {height}x{width} grid needs {max(height, width)} to {MAX_SIZE} "
                          f"digits, not {k}")
    if height == width == k:
        if regions is not None:
            return jigsaw(regions, low)
        return geometry(*box, low=low) if box is not None else boxless(k, low)
    regs = None if regions is None else tuple(sorted(tuple(sorted(r)) for r in regions))
    r, c = box or (0, 0)
    return _shaped(height, width, k, r, c, () if box is None and regs is None else regs, low)


@functools.lru_cache(maxsize=64)
def _shaped(height: int, width: int, k: int, r: int, c: int,
            regions: tuple[tuple[int, ...], ...] | None, low: int) -> Geometry:
    check_low(low, k)
    if regions is None:
        if height % r or width % c or r * c > k:
            raise OptionError(f"boxes of {r}x{c} do not tile a {height}x{width} grid of {k} "
                              f"digits")
    elif regions:
        size = len(regions[0])
        seen = sorted(cell for region in regions for cell in region)
        if any(len(region) != size for region in regions) or size > k or \
                seen != list(range(height * width)):
            raise OptionError(f"regions must split the {height * width} cells of a "
                              f"{height}x{width} grid into regions of one size, at most {k}")
    return Geometry(r, c, regions, low, 0, height, width, k)


@functools.lru_cache(maxsize=64)
def named_cells(base: Geometry, names: tuple[str, ...]) -> Geometry:
    """``base`` with the cells outside the grid ``names`` (checked: :mod:`.outside`)."""
    return Geometry(base.box_rows, base.box_cols, base.regions, base.low, base.side,
                    base.grid_rows, base.grid_cols, base.nvalues, names)


def sigh_box(height: int, width: int, size: int | None = None) -> tuple[int, int] | None:
    """The boxes sigh's solver gives a grid: ``size`` cells (default as many as the longer
    side; sigh's ``RegionSize``), the squarest shape that tiles it (its ``boxDimsForSize``),
    or None.

    >>> sigh_box(6, 8), sigh_box(9, 8), sigh_box(6, 9), sigh_box(5, 10), sigh_box(7, 7)
    ((2, 4), None, (3, 3), (5, 2), None)
    >>> sigh_box(6, 6, 9), sigh_box(7, 7, 9)
    ((3, 3), None)
    """
    size = max(height, width) if size is None else size
    for small in range(math.isqrt(size), 1, -1):
        if size % small:
            continue
        large = size // small
        if height % small == 0 and width % large == 0:
            return small, large
        if large != small and height % large == 0 and width % small == 0:
            return large, small
    return None


def box_shapes(size: int) -> list[tuple[int, int]]:
    """Every box shape (r, c) with r * c == size, most square first, fewer rows first on ties.

    >>> box_shapes(12)
    [(3, 4), (4, 3), (2, 6), (6, 2), (1, 12), (12, 1)]
    """
    shapes = [(r, size // r) for r in range(1, size + 1) if size % r == 0]
    return sorted(shapes, key=lambda rc: (abs(rc[0] - rc[1]), rc[0] > rc[1], rc[0]))


def default_box(size: int) -> tuple[int, int] | None:
    """The usual box shape for a grid of ``size``: square, else r < c as close as possible.

    Sizes whose only shapes are 1 x N (primes) have no Sudoku boxes and give None.

    >>> default_box(9), default_box(6), default_box(12), default_box(7)
    ((3, 3), (2, 3), (3, 4), None)
    """
    if size < 1:
        return None
    if size == 1:
        return (1, 1)
    r, c = box_shapes(size)[0]
    if r == 1:
        return None
    return (r, c)


def geometry_for_size(size: int, box: tuple[int, int] | None = None) -> Geometry:
    """The geometry of an N x N grid, with ``box`` forcing the shape (it must multiply to N)."""
    if box is None:
        shape = default_box(size)
        if shape is None:
            raise OptionError(f"a {size}x{size} grid has no box shape (give one with --box RxC)")
    else:
        shape = box
        if shape[0] * shape[1] != size:
            raise OptionError(f"box {shape[0]}x{shape[1]} does not fit a {size}x{size} grid")
    return geometry(*shape)


def integer_sqrt(n: int) -> int | None:
    """The integer square root of ``n`` when ``n`` is a perfect square, else None."""
    root = math.isqrt(n) if n >= 0 else -1
    return root if root >= 0 and root * root == n else None
