"""Reading and writing classic puzzles as text, to and from :class:`~satdoku.model.grid.Grid`.

Every format satdoku meets (one-liners, multi-line grids with any separators, rows of
integers; :mod:`satdoku.io.reader` says how lines group into puzzles). A bad puzzle never stops
a stream: it comes out as a :class:`~satdoku.model.puzzle.Puzzle` whose ``error`` says where
(source, line, cell) and what, and reading goes on with the next one.
"""

from __future__ import annotations

import functools
import re
import sys

from ..errors import OptionError, PuzzleError
from ..model.alphabet import (Alphabet,
                              alphabet_for, make_alphabet)
from ..model.geometry import MAX_SIZE, Geometry, geometry_for_size
from ..model.grid import Grid
from ..model.puzzle import Puzzle

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Iterable, Iterator

__all__ = ["parse_puzzles", "read_puzzles", "parse_puzzle", "format_grid", "format_regions",
           "parse_box"]

from .reader import Reader, stream_puzzles


def parse_puzzles(lines: Iterable[str], source: str = "<stdin>", *,
                  box: tuple[int, int] | None = None,
                  alphabet: str | None = None, defer_clashes: bool = False) -> Iterator[Puzzle]:
    """Puzzles from ``lines`` (any of the formats in the module docstring), streamed.

    Args:
        lines: text lines, with or without their line ends.
        source: the name errors give as their place.
        box: force the box shape (r, c); the grid is then (r*c) x (r*c).
        alphabet: force the symbols (``'0123456789ABCDEF'``): the puzzle is read as symbols.
        defer_clashes: leave one-liners' givens unchecked for a clash
            (:attr:`~satdoku.model.puzzle.Puzzle.unchecked`), for a solve's batch to check.

    Returns:
        An iterator of :class:`Puzzle`; bad ones carry ``error`` and reading goes on.
        A bad ``box`` or ``alphabet`` raises :class:`OptionError` at once.

    >>> [p.grid.nclues for p in parse_puzzles(["1.3..4.2.34.4.23", "# done"])]
    [9]
    """
    if box is not None:
        geometry_for_size(box[0] * box[1], box)  # raises ValueError (OptionError) if out of range
    reader = Reader(source, box, make_alphabet(alphabet))
    reader.defer_clashes = defer_clashes
    return stream_puzzles(reader, lines)


def read_puzzles(path: str, *, box: tuple[int, int] | None = None,
                 alphabet: str | None = None) -> Iterator[Puzzle]:
    """Puzzles from the file at ``path`` (``'-'`` is stdin), streamed line by line.

    Any readable path works (a FIFO, ``/dev/stdin``, a process substitution): it is read as a
    stream, in blocks, with :func:`read_lines`. A file that cannot be opened raises
    :class:`PuzzleError` at once ('cannot read: ...').

    >>> next(read_puzzles("/no/such.txt"))
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: /no/such.txt: cannot read: No such file or directory
    """
    if path == "-":
        stream, source = getattr(sys.stdin, "buffer", sys.stdin), "<stdin>"
    else:
        try:
            stream, source = open(path, "rb"), path
        except OSError as exc:
            raise PuzzleError(f"cannot read: {exc.strerror or exc}", source=path) from None
    from .lines import read_lines
    puzzles = parse_puzzles(read_lines(stream, source), source, box=box, alphabet=alphabet)
    return _closing(stream if path != "-" else None, puzzles, source)


def _closing(handle, puzzles: Iterator[Puzzle], path: str) -> Iterator[Puzzle]:
    try:
        yield from puzzles
    except OSError as exc:
        raise PuzzleError(f"cannot read: {exc.strerror or exc}", source=path) from None
    finally:
        if handle is not None:
            handle.close()


def parse_puzzle(text: str, source: str = "<arg>", *, box: tuple[int, int] | None = None,
                 alphabet: str | None = None) -> Puzzle:
    """Exactly one puzzle from ``text`` (one line or several).

    Raises:
        PuzzleError: ``text`` is not one puzzle (naming the line and cell of the problem).
        OptionError: a bad ``box`` or ``alphabet``.

    >>> parse_puzzle("12..\\n..12\\n2...\\n...1").grid.cells[:4]
    (1, 2, 0, 0)
    >>> parse_puzzle("12x.")
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: <arg>:1: 4 cells: a Sudoku has 16, 36, 64, 81, 100, 144, ... cells
    """
    puzzles = parse_puzzles(text.splitlines(), source, box=box, alphabet=alphabet)
    first = next(puzzles, None)
    if first is None:
        raise PuzzleError("no puzzle", source=source)
    if first.error is not None:
        raise first.error
    second = next(puzzles, None)
    if second is not None:
        raise PuzzleError("a second puzzle starts here; give one puzzle", source=source,
                          line=second.line)
    return first


def format_grid(grid: Grid, style: str = "line", alphabet: Alphabet | None = None,
                paint=None) -> str:
    """``grid`` as text: ``'line'`` (one line) or ``'pretty'`` (rows, with box separators).

    ``alphabet`` defaults to :func:`alphabet_for` the grid's size. Numbers write empty cells as
    ``0`` in a line and ``.`` when pretty, right-aligned. ``paint(cell, text)``, pretty only,
    may wrap each cell's text (in terminal colours, say) without changing the layout.

    >>> from satdoku.model.geometry import geometry
    >>> g = Grid(geometry(2, 2), (1, 0, 3, 0) + (0,) * 12)
    >>> format_grid(g)
    '1.3.............'
    >>> print(format_grid(g, "pretty"))
    1 . | 3 .
    . . | . .
    ----+----
    . . | . .
    . . | . .

    Cells outside the grid (:attr:`Geometry.extra`) follow it as ``NAME=value``: after a
    space on a line, on a last line ``outside the grid: VA=3 VB=.`` when pretty.
    """
    extra = _extra_text(grid)
    if extra:
        geo = grid.geometry
        inside = format_grid(Grid(geo.plain, grid.cells[:geo.ngrid]), style, alphabet, paint)
        return f"{inside} {extra}" if style == "line" else \
            f"{inside}\noutside the grid: {extra}"
    if alphabet is None:
        alphabet = alphabet_for(grid.size, grid.geometry.low)
    n = grid.size
    symbols = alphabet.symbols
    if symbols is not None and len(symbols) < n:
        raise OptionError(f"alphabet {symbols!r} is too short for a {n}x{n} grid")
    cells = grid.cells
    if style == "line":
        if symbols is None:
            return " ".join(map(str, cells))
        table = _line_table(symbols) if n < 256 else None
        if table is not None:  # the common case, one C call (a tenth of the loop below)
            return bytes(cells).translate(table).decode("ascii")
        return "".join([symbols[d - 1] if d else "." for d in cells])
    if style != "pretty":
        raise ValueError(f"unknown grid style {style!r} (use 'line' or 'pretty')")
    if symbols is None:
        width = len(str(n))
        texts = [str(d).rjust(width) if d else ".".rjust(width) for d in cells]
    else:
        width = 1
        texts = [symbols[d - 1] if d else "." for d in cells]
    if paint is not None:
        texts = [paint(cell, text) for cell, text in enumerate(texts)]
    r, c = grid.geometry.band_shape
    h, w = grid.geometry.height, grid.geometry.width  # N and N but in a grid of other shape
    group_width = c * (width + 1) - 1
    rule = "-+-".join(["-" * group_width] * (w // c))
    lines = []
    for row in range(h):
        if row and row % r == 0:
            lines.append(rule)
        start = row * w
        groups = [" ".join(texts[start + j:start + j + c]) for j in range(0, w, c)]
        lines.append(" | ".join(groups))
    return "\n".join(lines)


@functools.lru_cache(maxsize=8)
def _line_table(symbols: str) -> bytes | None:
    """The table that turns a grid's digits (bytes) into ``symbols`` ('.' for 0, '?' past
    them), for an alphabet of ASCII symbols; None for any other."""
    if not symbols.isascii():
        return None
    table = bytearray(b"?" * 256)
    table[0] = ord(".")
    for d, ch in enumerate(symbols, 1):
        table[d] = ord(ch)
    return bytes(table)


def _extra_text(grid: Grid) -> str:
    """``VA=3 VB=.``: the cells outside the grid with their values ('' when it has none)."""
    geo = grid.geometry
    if not geo.extra:
        return ""
    return " ".join(f"{name}={geo.value(d) if d else '.'}"
                    for name, d in zip(geo.extra, grid.cells[geo.ngrid:]))


def parse_box(text: str) -> tuple[int, int]:
    """``'3x4'`` -> ``(3, 4)``: a box of 3 rows by 4 columns; OptionError when malformed.

    >>> parse_box("3x4"), parse_box(" 2X3 ")
    ((3, 4), (2, 3))
    """
    match = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", text)
    if not match:
        raise OptionError(f"box must be written RxC, like 3x3 or 2x3 (got {text!r})")
    r, c = int(match[1]), int(match[2])
    if r < 1 or c < 1 or r * c > MAX_SIZE:
        raise OptionError(f"box {r}x{c} is out of range (rows and columns from 1, "
                          f"at most {MAX_SIZE} cells a box)")
    return r, c


#: The letters regions are written with (region i is the i-th), as sigh writes a jigsaw.
REGION_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def format_regions(geometry: Geometry, style: str = "line") -> str:
    """The regions of a jigsaw geometry as letters, region i the i-th letter: one line, or
    rows (``'pretty'``); numbers, space-separated, past 52 regions.

    >>> from satdoku.model.geometry import jigsaw
    >>> print(format_regions(jigsaw([(0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 10, 11),
    ...                              (12, 13, 14, 15)]), "pretty"))
    A A B B
    A A B B
    C C C C
    D D D D
    """
    n, w = geometry.size, geometry.width
    names = [""] * geometry.ncells
    for i, region in enumerate(geometry.regions or ()):
        for cell in region:
            names[cell] = REGION_LETTERS[i] if n <= len(REGION_LETTERS) else str(i + 1)
    if style == "line":
        return ("" if n <= len(REGION_LETTERS) else " ").join(names)
    width = max(map(len, names))
    return "\n".join(" ".join(name.rjust(width) for name in names[row * w:(row + 1) * w])
                     for row in range(geometry.height))
