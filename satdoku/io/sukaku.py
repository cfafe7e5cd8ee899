"""Sukaku lines: a puzzle given as every cell's candidates (pencil marks), N symbols a cell.

A 9x9 sukaku is a line of 729 characters: for each cell in reading order, nine characters,
the k-th being the digit k when the cell may hold it and ``0`` or ``.`` when it may not
(``123456789`` is an open cell, ``..3......`` a cell that must hold 3). Whitespace between
cells is ignored. N x N grids use N**3 characters the same way (N up to 9: one symbol a
digit).

A cell with one candidate becomes a given; cells with the same candidates, fewer than N, one
``candidates`` rule (:class:`satdoku.rules.Candidates`), so every command serves sukaku
puzzles as variant puzzles.
"""

from __future__ import annotations

import re

from ..errors import PuzzleError, Where
from ..model.alphabet import alphabet_for
from ..model.geometry import default_box, geometry
from ..model.grid import Grid, check_givens
from ..model.puzzle import Puzzle
from ..rules import Candidates

__all__ = ["looks_like_sukaku", "parse_sukaku", "sukaku_puzzle", "SUKAKU_SIZES"]

#: Grid sizes with a sukaku line of N**3 symbols (one symbol a digit, a usual box shape).
SUKAKU_SIZES = {n ** 3: n for n in range(4, 10) if default_box(n)}

_SYMBOLS = re.compile(r"[0-9.]+")


def _cells_text(text: str) -> str:
    return "".join(text.split())


def looks_like_sukaku(text: str) -> bool:
    """Whether ``text`` is one sukaku line (N**3 digits and dots, whitespace aside).

    >>> looks_like_sukaku("123456789" * 81), looks_like_sukaku("1" * 81)
    (True, False)
    """
    body = _cells_text(text)
    return len(body) in SUKAKU_SIZES and bool(_SYMBOLS.fullmatch(body))


def parse_sukaku(text: str, source: str = "<arg>", line: int | None = None,
                 name: str | None = None) -> Puzzle:
    """The puzzle of one sukaku line: givens for single candidates, ``candidates`` rules for
    the other cells that are not open.

    Raises:
        PuzzleError: naming the cell, when its candidates are out of place or empty, or two
            single candidates clash.

    >>> p = parse_sukaku("1..." + ".2.." + "1234" * 12 + "..34" + "1234")
    >>> p.grid.cells[:2], p.constraints
    ((1, 2), (Candidates(cells=(14,), digits=(3, 4)),))
    """
    where: Where = {"source": source, "line": line}
    body = _cells_text(text)
    n = SUKAKU_SIZES.get(len(body))
    box = default_box(n) if n is not None else None  # (every size listed has boxes)
    if n is None or box is None or not _SYMBOLS.fullmatch(body):
        raise PuzzleError(f"not a sukaku line: {len(body)} symbols, not N**3 digits and dots "
                          f"(729 for 9x9)", **where)
    geo = geometry(*box)
    givens = [0] * geo.ncells
    groups: dict[tuple[int, ...], list[int]] = {}
    for cell in range(geo.ncells):
        chunk = body[cell * n:(cell + 1) * n]
        digits = []
        for k, ch in enumerate(chunk, 1):
            if ch in "0.":
                continue
            if int(ch) != k:
                raise PuzzleError(f"sukaku: {ch!r} stands where the candidate {k} goes",
                                  cell=geo.cell_name(cell), **where)
            digits.append(k)
        if not digits:
            raise PuzzleError("sukaku: a cell without candidates", cell=geo.cell_name(cell),
                              **where)
        if len(digits) == 1:
            givens[cell] = digits[0]
        elif len(digits) < n:
            groups.setdefault(tuple(digits), []).append(cell)
    grid = Grid(geo, tuple(givens))
    try:
        check_givens(grid)
    except PuzzleError as exc:
        raise exc.located(source, line) from None
    rules = tuple(Candidates(tuple(cells), digits) for digits, cells in groups.items())
    return Puzzle(grid, source, line or 1, name=name, alphabet=alphabet_for(n), constraints=rules)


def sukaku_puzzle(text: str, source: str, line: int, name: str | None,
                  could_be_classic: bool) -> Puzzle | None:
    """The puzzle of a line of the classic reader that may be a sukaku line: None when it is
    none; a line that ``could_be_classic`` (64 and 729 symbols may also be an 8x8 or a 27x27
    one-liner) is read as such when it is no good sukaku; otherwise a wrong one is an entry
    with its error (its ``index`` is the caller's to set)."""
    if not looks_like_sukaku(text):
        return None
    try:
        return parse_sukaku(text, source, line, name=name)
    except PuzzleError as error:
        if could_be_classic:
            return None
        return Puzzle(None, source, line, 0, name, error=error)
