"""The reader of classic puzzles: lines in, :class:`~satdoku.model.puzzle.Puzzle` records out.

Glossary (see :mod:`satdoku.model.geometry` for size, box, cell, digit):

- symbol: the character(s) a digit is written as. An :class:`Alphabet` maps symbols to digits:
  ``123456789ABC...`` (digit v is the v-th symbol), hex ``0123456789ABCDEF`` for 16x16, or
  *numbers* (space-separated integers, for grids too big for one character a cell).
- empty marker: ``.``, ``_``, ``*``, ``-`` and ``0`` (``0`` only when it is not a symbol).
- row line: one line of a multi-line grid, holding the N cells of one row.
- one-liner: one line holding all N*N cells of a puzzle.
- header: a line naming the next grid (``Grid 01``); a ``#`` comment after a puzzle names it too.

Formats read (mixed freely within one file):

- one-liners: ``.714....5....5..8...39.76...``; ``# comment`` after it becomes the name;
- multi-line grids with any separators: ``|``, ``,`` and spaces inside rows, ``---+---`` rules
  and blank lines between bands, ``Grid 01`` headers between grids;
- rows of space-separated integers (``0`` or ``.`` empty), up to 400 x 400 and beyond.

How lines group into puzzles: a line whose cell count is N*N (N with a box shape) is a puzzle of
its own; a line of N cells starts a grid that takes N row lines. Blank lines, rules and headers
may come between them. Two cases are ambiguous and are decided by the digits in the line:

- 16 symbols: a 4x4 one-liner, or the first row of a 16x16? A one-liner when every given is
  1-4; likewise a line of N*N integers is a one-liner only if every value is at most N (the
  first row of an 81x81 grid has 81 integers too). ``box=`` removes the doubt.
- ``0`` in a 16x16 grid: hex (``0`` is a digit) when the grid has no ``G`` and also uses another
  empty marker, or has at most 16 zeros; otherwise ``0`` is empty. ``alphabet=`` removes the doubt.

A bad puzzle never stops a stream: it comes out as a :class:`Puzzle` whose ``error`` says where
(source, line, cell) and what, and reading goes on with the next one.
"""

from __future__ import annotations

import functools
import re

from ..errors import PuzzleError, abridge
from ..model.alphabet import (DEFAULT, DEFAULT_SYMBOLS, HEX_ALPHABET, NUMBERS, UNKNOWN, Alphabet,
                              alphabet_for)
from ..model.geometry import MAX_SIZE, Geometry, default_box, geometry_for_size, integer_sqrt
from ..model.grid import Grid, check_givens, clash_free
from ..model.puzzle import Puzzle
from ..records import record
from .cells import EITHER, NUMBERS_ROW, SYMBOLS, classify, read_numbers, read_symbols

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Iterable, Iterator

__all__ = ["Reader", "stream_puzzles", "HEADER", "RULE"]

_SUKAKU_LENGTHS = frozenset({64, 216, 512, 729})  # N**3 symbols: satdoku.io.sukaku

@functools.lru_cache(maxsize=None)
def _has_box(size: int) -> bool:
    return 4 <= size <= MAX_SIZE and default_box(size) is not None


def _one_line_size(ncells: int) -> int | None:
    """N when ``ncells`` is N*N for a size with boxes, else None."""
    n = integer_sqrt(ncells)
    return n if n is not None and _has_box(n) else None


def _cell_counts_hint() -> str:
    counts = [n * n for n in range(4, 13) if _has_box(n)]
    return ", ".join(map(str, counts))


_SEPARATORS = str.maketrans("|,", "  ")
RULE = re.compile(r"[-+=|:\s]*[-=][-+=|:\s]*")
#: The words a header line ('Grid 01', 'Puzzle 2') starts with.
HEADER_WORDS = ("grid", "puzzle", "sudoku", "game", "problem", "board")
HEADER = re.compile(rf"({'|'.join(HEADER_WORDS)})\b", re.IGNORECASE)
#: A JSON document or a link among classic puzzles (a file's first puzzle line says which
#: reader reads it).
VARIANT_HERE = ("a variant puzzle (JSON or a link) in a file of classic puzzles: give variant "
                "puzzles a file of their own, or a .json name")


@record
class _Row:
    line: int
    tokens: list[str]
    text: str
    values: list[int | None] | None  # the integers, when the row was read as numbers


class _Block:
    """A multi-line grid being read: row lines so far, and what they say about the grid."""

    def __init__(self, line: int, name: str | None, row_len: int, mode: str) -> None:
        self.line = line
        self.name = name
        self.row_len = row_len
        self.mode = mode
        self.name_from_comment = False  # a trailing comment on a row may still replace it
        self.rows: list[_Row] = []
        self.error: PuzzleError | None = None

    @property
    def complete(self) -> bool:
        return len(self.rows) == self.row_len


class Reader:
    """The line-by-line state machine behind :func:`parse_puzzles`."""

    def __init__(self, source: str, box: tuple[int, int] | None,
                 alphabet: Alphabet | None) -> None:
        self.source = source
        #: leave a one-liner's givens unchecked for a clash (see Puzzle.unchecked)
        self.defer_clashes = False
        self.box = box
        self.size = box[0] * box[1] if box else None
        self.forced = alphabet
        self.max_symbol_row = len(alphabet.symbols or "") if alphabet else len(DEFAULT_SYMBOLS)
        self.index = 0
        self.block: _Block | None = None
        self.header: tuple[int, str] | None = None   # a 'Grid 01' line awaiting its grid
        self.comment: str | None = None              # whole-line comment right above
        self.geometries: dict[int, Geometry] = {}
        # One-liner lengths read by bytes.translate alone: those that cannot be a row line
        # and need no alphabet guess (16x16 may be hex).
        table_alphabet = alphabet or DEFAULT
        self.fast_table = table_alphabet.table
        sizes = [self.size] if self.size else range(4, len(table_alphabet.symbols or "") + 1)
        self.fast_sizes = {n * n: n for n in sizes
                           if _has_box(n) and n * n > self.max_symbol_row
                           and (alphabet or n != 16)}

    # Emitting puzzles.

    def _puzzle(self, line: int, name: str | None, grid: Grid | None = None,
                alphabet: Alphabet | None = None, error: PuzzleError | None = None) -> Puzzle:
        self.index += 1
        name = abridge(name) if name else name  # a name is shown: a 1 MB comment is not
        return Puzzle(grid, self.source, line, self.index, name, alphabet, error)

    def _error(self, line: int, name: str | None, message: str,
               cell: str | None = None) -> Puzzle:
        return self._puzzle(line, name, error=PuzzleError(message, source=self.source,
                                                          line=line, cell=cell))

    def _geometry(self, n: int) -> Geometry:
        geo = self.geometries.get(n)
        if geo is None:
            geo = self.geometries[n] = geometry_for_size(n, self.box)
        return geo

    def _take_header(self, line: int) -> tuple[int, str | None]:
        """Where the next puzzle starts and its header name, consuming the header."""
        if self.header is None:
            return line, None
        (line, name), self.header = self.header, None
        return line, name

    # Feeding lines.

    def feed(self, no: int, raw: str) -> list[Puzzle]:
        s = raw.strip()
        if not s:
            self.comment = None
            return self._blank()
        if s[0] == "#":
            return self._whole_comment(s)
        comment = None
        hash_at = s.find("#")
        if hash_at >= 0:
            comment = s[hash_at + 1:].strip() or None
            s = s[:hash_at].rstrip()
            if not s:
                return self._whole_comment("#" + (comment or ""))
        if self.block is None and len(s) in _SUKAKU_LENGTHS:
            from .sukaku import sukaku_puzzle
            puzzle = sukaku_puzzle(s, self.source, no, comment, len(s) in self.fast_sizes)
            if puzzle is not None:
                self.index += 1
                puzzle.index = self.index
                return [puzzle]
        if self.block is None:
            n = self.fast_sizes.get(len(s))
            if n is not None:
                puzzle = self._fast_one_liner(no, s, n, comment)
                if puzzle is not None:
                    return [puzzle]
        if HEADER.match(s):
            return self._header(no, raw.strip())
        if RULE.fullmatch(s) and not self._is_dash_row(s):
            return []
        return self._content(no, s, comment)

    def _is_dash_row(self, s: str) -> bool:
        """Whether a line of dashes is cells ('-' empty) rather than a rule between bands.

        Cells: a one-liner of dashes only, or, inside a grid, a row of the right length
        whose dashes stand apart ('- - - | - - -', '--- ---'); '---+---' is always a rule.
        """
        if self.block is None:
            return s.strip("-") == "" and self._is_one_liner(len(s), SYMBOLS, s, None)
        if "+" in s or "=" in s:
            return False
        tokens = s.translate(_SEPARATORS).split()
        return len(tokens) > 1 and len("".join(tokens)) == self.block.row_len

    def finish(self) -> list[Puzzle]:
        out = self._end_block()
        if self.header is not None:
            line, name = self.header
            self.header = None
            out.append(self._error(line, name, f"{abridge(name)!r} is not followed by a grid"))
        return out

    def _blank(self) -> list[Puzzle]:
        blk = self.block
        if blk is None or not blk.rows:
            return []
        shape = self.box or default_box(blk.row_len)
        band = shape[0] if shape else blk.row_len
        if len(blk.rows) % band == 0:
            return []  # a gap between bands of one grid
        return self._end_block()

    def _whole_comment(self, s: str) -> list[Puzzle]:
        out = self._end_block()
        self.comment = s.lstrip("#").strip() or None
        return out

    def _header(self, no: int, text: str) -> list[Puzzle]:
        out = self._end_block()
        if self.header is not None:
            line, name = self.header
            out.append(self._error(line, name, f"{abridge(name)!r} is not followed by a grid"))
        self.header = (no, text)
        self.comment = None
        return out

    def _fast_one_liner(self, no: int, s: str, n: int, comment: str | None) -> Puzzle | None:
        """The common case, one puzzle a line, or None to take the general path."""
        try:
            digits = s.encode("ascii").translate(self.fast_table)
        except UnicodeEncodeError:
            return None
        if digits.find(UNKNOWN) >= 0 or max(digits) > n:
            return None
        line, name = self._take_header(no)
        alphabet = self.forced or alphabet_for(n)
        grid = Grid(self._geometry(n), tuple(digits))
        if self.defer_clashes and line == no:  # (a header's line is not where a clash is)
            puzzle = self._puzzle(line, name or comment, grid, alphabet)
            puzzle.unchecked = True
            return puzzle
        return self._checked(line, name or comment, grid, alphabet, lambda cell: no)

    def _checked(self, line: int, name: str | None, grid: Grid, alphabet: Alphabet,
                 line_of) -> Puzzle:
        """The puzzle for ``grid`` (digits already in range), or its clash located."""
        if clash_free(grid):
            return self._puzzle(line, name, grid, alphabet)
        try:
            check_givens(grid)
        except PuzzleError as error:
            cell = error.cell or "r1c1"
            row = int(cell[1:cell.index("c")]) - 1
            error.located(self.source, line_of(row * grid.size))
            return self._puzzle(line, name, alphabet=alphabet, error=error)
        return self._puzzle(line, name, grid, alphabet)

    def _content(self, no: int, s: str, comment: str | None) -> list[Puzzle]:
        tokens = s.translate(_SEPARATORS).split()
        if self.forced:
            kind, values = SYMBOLS, None
        else:
            kind, values = classify(tokens)
        text = "".join(tokens)
        row = _Row(no, tokens, text, values)
        out: list[Puzzle] = []
        blk = self.block
        if blk is not None:
            as_kind = self._row_kind(blk.mode, kind, row, blk.row_len)
            if as_kind is not None:
                self._add_row(blk, row, as_kind, comment)
                if blk.complete:
                    out.append(self._end_block()[0])
                return out
            ncells = len(tokens) if kind == NUMBERS_ROW else len(text)
            if not self._is_one_liner(ncells, kind, text, values):
                # A bad row of this grid (rather than a new grid: those follow a blank line
                # or a header, and end it there).
                if blk.error is None:
                    blk.error = PuzzleError(f"{ncells} cells in a row of {blk.row_len}",
                                            source=self.source, line=no,
                                            cell=f"r{len(blk.rows) + 1}")
                blk.rows.append(row)
                if blk.complete:
                    out.extend(self._end_block())
                return out
            out.extend(self._end_block())
        ncells = len(tokens) if kind == NUMBERS_ROW else len(text)
        if self._is_one_liner(ncells, kind, text, values):
            line, name = self._take_header(no)
            out.append(self._one_liner(line, name or comment, row, kind))
        elif self._is_row_len(ncells, kind):
            line, name = self._take_header(no)
            blk = self.block = _Block(line, name or None, ncells,
                                      SYMBOLS if self.forced else EITHER)
            if blk.name is None and self.comment is not None:
                blk.name = self.comment  # a comment line right above a grid names it
                blk.name_from_comment = True
            self._add_row(blk, row, kind, comment)
        else:
            line, name = self._take_header(no)
            out.append(self._error(line, name or comment, self._count_message(ncells, text)))
        self.comment = None
        return out

    def _count_message(self, ncells: int, text: str) -> str:
        if text.startswith(("{", "http")):
            return VARIANT_HERE
        if self.box:
            rows, cols = self.box
            return f"{ncells} cells: a {rows}x{cols} Sudoku has {(rows * cols) ** 2} cells"
        return f"{ncells} cells: a Sudoku has {_cell_counts_hint()}, ... cells"

    @staticmethod
    def _row_kind(mode: str, kind: str, row: _Row, row_len: int) -> str | None:
        """How ``row`` reads as a row line of a block in ``mode``, or None if it does not fit."""
        if mode == NUMBERS_ROW or (mode == EITHER and kind == NUMBERS_ROW):
            return NUMBERS_ROW if len(row.tokens) == row_len else None
        if mode == SYMBOLS or kind == SYMBOLS:
            return SYMBOLS if len(row.text) == row_len else None
        return EITHER if len(row.tokens) == row_len else None

    @staticmethod
    def _add_row(blk: _Block, row: _Row, kind: str, comment: str | None) -> None:
        if kind != EITHER:
            blk.mode = kind
        if comment and (blk.name is None or blk.name_from_comment):
            blk.name = comment
            blk.name_from_comment = False
        blk.rows.append(row)

    def _is_one_liner(self, ncells: int, kind: str, text: str,
                      values: list[int | None] | None) -> bool:
        if self.size:
            return ncells == self.size * self.size
        n = _one_line_size(ncells)
        if n is None:
            return False
        if not self._is_row_len(ncells, kind):
            return True
        # Ambiguous: a puzzle of its own, or the first row of an ncells x ncells grid.
        if kind == SYMBOLS:
            lookup = (self.forced or DEFAULT).values
            values = [lookup.get(ch, UNKNOWN) for ch in text]
        elif values is None:
            return False
        return any(values) and all(v is not None and v <= n for v in values)

    def _is_row_len(self, ncells: int, kind: str) -> bool:
        if self.size:
            return ncells == self.size
        limit = self.max_symbol_row if kind == SYMBOLS else MAX_SIZE
        return ncells <= limit and _has_box(ncells)

    def _end_block(self) -> list[Puzzle]:
        blk = self.block
        if blk is None:
            return []
        self.block = None
        if blk.error is not None:
            return [self._puzzle(blk.line, blk.name, error=blk.error)]
        rows = blk.rows
        if blk.complete:
            return [self._grid_from_rows(blk)]
        first = rows[0]
        kind = blk.mode
        ncells = len(first.tokens) if kind == NUMBERS_ROW else len(first.text)
        if len(rows) == 1:  # a line alone is a one-liner, good or bad
            if self.size and ncells == self.size ** 2 or not self.size and _one_line_size(ncells):
                return [self._one_liner(blk.line, blk.name, first, kind)]
            return [self._error(blk.line, blk.name, self._count_message(ncells, first.text))]
        return [self._error(blk.line, blk.name,
                            f"grid ends after {len(rows)} of {blk.row_len} rows")]

    # Turning rows into grids.

    def _one_liner(self, line: int, name: str | None, row: _Row, kind: str) -> Puzzle:
        ncells = len(row.tokens) if kind == NUMBERS_ROW else len(row.text)
        n = integer_sqrt(ncells)
        assert n is not None  # a one-liner's cell count is a square (the caller checked)
        return self._make(line, name, n, [row], kind, lambda cell: row.line)

    def _grid_from_rows(self, blk: _Block) -> Puzzle:
        rows, n = blk.rows, blk.row_len
        return self._make(blk.line, blk.name, n, rows, blk.mode,
                          lambda cell: rows[cell // n].line)

    def _make(self, line: int, name: str | None, n: int, rows: list[_Row], kind: str,
              line_of) -> Puzzle:
        try:
            geo = self._geometry(n)
        except ValueError as exc:
            return self._error(line, name, str(exc))
        if kind == SYMBOLS or kind == EITHER and self._either_as_symbols(n, rows):
            text = "".join(r.text for r in rows)
            alphabet = self._choose_alphabet(text, n)
            if isinstance(alphabet, str):
                return self._error(line, name, alphabet)
            digits, bad = read_symbols(text, alphabet, n)
        else:
            alphabet = NUMBERS
            digits, bad = read_numbers([(r.tokens, r.values) for r in rows], n)
        if bad is not None:
            cell, message = bad
            return self._puzzle(line, name, alphabet=alphabet, error=PuzzleError(
                message, source=self.source, line=line_of(cell), cell=geo.cell_name(cell)))
        return self._checked(line, name, Grid(geo, tuple(digits)), alphabet, line_of)

    def _either_as_symbols(self, n: int, rows: list[_Row]) -> bool:
        """Single characters apart ('5 3 . | . 7 .'): symbols, unless numbers fit better."""
        if self.forced:
            return True
        if n > 9:
            return False
        return not any("0" in r.text for r in rows)

    def _choose_alphabet(self, text: str, n: int) -> Alphabet | str:
        """The alphabet of a symbols grid, or an error message."""
        if self.forced:
            symbols = len(self.forced.symbols or "")
            if symbols < n:
                return f"alphabet has {symbols} symbols, a {n}x{n} grid needs {n}"
            return self.forced
        if n > len(DEFAULT_SYMBOLS):
            return (f"a {n}x{n} grid cannot be written one symbol a cell; "
                    f"write it as integers")
        if n == 16 and "0" in text and "G" not in text and "g" not in text:
            if any(m in text for m in "._*-") or text.count("0") <= 16:
                return HEX_ALPHABET
        return alphabet_for(n)


def stream_puzzles(reader: Reader, lines: Iterable[str], first_line: int = 1,
            finish: bool = True) -> Iterator[Puzzle]:
    feed = reader.feed
    for no, line in enumerate(lines, first_line):
        out = feed(no, line)
        if out:
            yield from out
    if finish:
        yield from reader.finish()


