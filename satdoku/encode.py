"""Sudoku as CNF: the variable mapping, the named encodings, DIMACS out and solver models in.

Glossary (adds to :mod:`satdoku.geometry`):

- var: a positive int naming "cell holds digit": ``var(cell, d) = cell*N + d``, dense
  ``1 .. N**3``. Its inverse: ``cell = (v-1) // N``, ``d = (v-1) % N + 1``; the cell's row is
  ``cell // N``, its column ``cell % N`` (0-based). Auxiliary variables of non-pairwise
  at-most-one encodings are numbered above ``N**3``.
- lit: a var or its negation (an int, as in DIMACS and python-sat).
- clause: a list of lits, at least one of which is true.
- encoding: which constraint families make the formula (:data:`ENCODINGS`):

  ========  ===========  ==========  ===========  ============
  name      cell >= 1    cell <= 1   house <= 1   house >= 1
  ========  ===========  ==========  ===========  ============
  minimal   yes          .           yes          .
  natural   yes          yes         yes          .
  extended  yes          yes         yes          yes
  ========  ===========  ==========  ===========  ============

  "house <= 1" is, per house and digit, at most one of the house's cells holds the digit;
  "house >= 1" is that at least one does. For 9x9 with pairwise at-most-one:
  minimal 729 vars / 8,829 clauses, natural 729 / 11,745, extended 729 / 11,988.
- amo: how an at-most-one constraint becomes clauses (:data:`AMO_ENCODINGS`): ``pairwise``
  (no new variables, N*(N-1)/2 binary clauses) or one of python-sat's cardinality encodings.

Roads not taken: a row and a box share cells, so a few pairwise clauses appear twice; removing
them saves about 1/c of the house clauses but makes the clause counts (which tests and the
README quote) depend on the box shape. Sequential counters and the other linear at-most-one
encodings were slower than pairwise in measurements up to 64x64, so pairwise is the default.

Clues go in either as unit clauses (:func:`encode`, for DIMACS files) or as assumptions of an
incremental solver (:func:`clue_literals`, see :mod:`satdoku.sat`), which is what makes
thousands of puzzles a second possible: the base formula of a geometry is built once.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence, TextIO

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from .errors import ModelError
from .geometry import Geometry
from .grid import Grid

__all__ = [
    "var", "unvar", "Formula", "Encoding", "ENCODINGS", "AMO_ENCODINGS", "DEFAULT_ENCODING",
    "DEFAULT_AMO", "encode_base", "encode", "clue_literals", "formula_size", "write_dimacs",
    "dimacs_header", "write_clauses", "parse_model", "decode_model", "UnsatisfiableError",
]

Clause = list[int]

DEFAULT_ENCODING = "extended"
DEFAULT_AMO = "pairwise"


def var(cell: int, d: int, size: int) -> int:
    """The variable "``cell`` holds digit ``d``" of an N x N grid (N = ``size``).

    >>> var(0, 1, 9), var(80, 9, 9)
    (1, 729)
    """
    return cell * size + d


def unvar(v: int, size: int) -> tuple[int, int]:
    """(cell, digit) of variable ``v``: the inverse of :func:`var`.

    >>> unvar(729, 9)
    (80, 9)
    """
    cell, d0 = divmod(v - 1, size)
    return cell, d0 + 1


@dataclass
class Formula:
    """A CNF formula for one geometry: ``clauses`` over variables ``1 .. nvars``.

    ``nvars`` counts the auxiliary variables of the at-most-one encoding too (they are numbered
    above ``size**3``). Base formulas are shared through a cache: do not modify ``clauses``.
    """

    geometry: Geometry
    encoding: str
    amo: str
    nvars: int
    clauses: list[Clause]

    @property
    def ncells_vars(self) -> int:
        """``N**3``: the variables that mean "cell holds digit"; the only ones decoded."""
        return self.geometry.size ** 3


AmoBuilder = Callable[[Sequence[int], IDPool], list[Clause]]


def _amo_pairwise(lits: Sequence[int], pool: IDPool) -> list[Clause]:
    # itertools and map keep the pair loop in C: this is most of the 64x64 build time.
    return list(map(list, itertools.combinations([-x for x in lits], 2)))


def _amo_cardenc(enc: int) -> AmoBuilder:
    def build(lits: Sequence[int], pool: IDPool) -> list[Clause]:
        return CardEnc.atmost(lits=list(lits), bound=1, vpool=pool, encoding=enc).clauses
    return build


#: At-most-one encodings by name. All but ``pairwise`` add auxiliary variables above N**3.
AMO_ENCODINGS: dict[str, AmoBuilder] = {"pairwise": _amo_pairwise}
for _name in ("seqcounter", "ladder", "bitwise", "totalizer", "sortnetwrk", "cardnetwrk",
              "mtotalizer", "kmtotalizer"):
    AMO_ENCODINGS[_name] = _amo_cardenc(getattr(EncType, _name))


@dataclass(frozen=True)
class Encoding:
    """A named set of constraint families (see the table in the module docstring)."""

    name: str
    description: str
    cell_amo: bool
    house_alo: bool


#: The encodings by name; ``extended`` is the default (the extra clauses help propagation).
ENCODINGS: dict[str, Encoding] = {
    "minimal": Encoding("minimal", "every cell has a digit; no digit twice in a house",
                        cell_amo=False, house_alo=False),
    "natural": Encoding("natural", "minimal + every cell has at most one digit",
                        cell_amo=True, house_alo=False),
    "extended": Encoding("extended", "natural + every house has every digit",
                         cell_amo=True, house_alo=True),
}


def _check_names(encoding: str, amo: str) -> Encoding:
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    if amo not in AMO_ENCODINGS:
        raise ValueError(f"unknown at-most-one encoding {amo!r}; choose one of "
                         f"{', '.join(AMO_ENCODINGS)}")
    return ENCODINGS[encoding]


@functools.lru_cache(maxsize=8)
def encode_base(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                amo: str = DEFAULT_AMO) -> Formula:
    """The formula of ``geometry`` without clues (cached: do not modify the result).

    Args:
        geometry: the grid shape.
        encoding: a name from :data:`ENCODINGS`.
        amo: a name from :data:`AMO_ENCODINGS`.

    Returns:
        A :class:`Formula` whose clauses are cell at-least-one, cell at-most-one, house
        at-most-one, house at-least-one, in that order (the families the encoding has).

    >>> from satdoku.geometry import geometry
    >>> f = encode_base(geometry(3, 3))
    >>> f.nvars, len(f.clauses)
    (729, 11988)
    """
    enc = _check_names(encoding, amo)
    n = geometry.size
    n3 = n ** 3
    pool = IDPool(start_from=n3 + 1)
    at_most_one = AMO_ENCODINGS[amo]
    digits = range(1, n + 1)
    cell_lits = [list(range(cell * n + 1, cell * n + n + 1)) for cell in range(n * n)]
    # house_lits[h][d-1]: the variables "digit d in cell c" for the cells c of house h
    house_lits = [[[c * n + d for c in house] for d in digits] for house in geometry.houses]
    clauses: list[Clause] = [list(lits) for lits in cell_lits]
    if enc.cell_amo:
        for lits in cell_lits:
            clauses.extend(at_most_one(lits, pool))
    for per_digit in house_lits:
        for lits in per_digit:
            clauses.extend(at_most_one(lits, pool))
    if enc.house_alo:
        for per_digit in house_lits:
            clauses.extend(per_digit)
    return Formula(geometry, encoding, amo, max(n3, pool.top), clauses)


def formula_size(geometry: Geometry, encoding: str = DEFAULT_ENCODING) -> tuple[int, int]:
    """(variables, clauses) of the pairwise base formula, from the counting formulas.

    Cheap for any size (nothing is built), for tables and for deciding what fits in memory.

    >>> from satdoku.geometry import geometry
    >>> [formula_size(geometry(3, 3), e) for e in ENCODINGS]
    [(729, 8829), (729, 11745), (729, 11988)]
    """
    enc = _check_names(encoding, "pairwise")
    n = geometry.size
    pairs = n * (n - 1) // 2
    clauses = n * n + 3 * n * n * pairs
    if enc.cell_amo:
        clauses += n * n * pairs
    if enc.house_alo:
        clauses += 3 * n * n
    return n ** 3, clauses


def clue_literals(grid: Grid) -> list[int]:
    """The variables made true by the givens of ``grid``, in cell order.

    >>> from satdoku.geometry import geometry
    >>> clue_literals(Grid(geometry(2, 2), (0, 3) + (0,) * 14))
    [7]
    """
    n = grid.geometry.size
    return [base + d for base, d in zip(range(0, n ** 3, n), grid.cells) if d]


def encode(grid: Grid, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
           clues: str = "units") -> Formula:
    """The formula of ``grid``: the base formula plus one unit clause per given.

    Args:
        grid: the puzzle.
        encoding, amo: as for :func:`encode_base`.
        clues: ``'units'`` appends the givens as unit clauses; ``'none'`` leaves them out
            (the caller passes :func:`clue_literals` as assumptions instead).

    >>> from satdoku.geometry import geometry
    >>> len(encode(Grid(geometry(2, 2), (1,) + (0,) * 15)).clauses)
    449
    """
    if clues not in ("units", "none"):
        raise ValueError(f"clues must be 'units' or 'none', not {clues!r}")
    base = encode_base(grid.geometry, encoding, amo)
    clauses = list(base.clauses)
    if clues == "units":
        clauses.extend([lit] for lit in clue_literals(grid))
    return Formula(base.geometry, encoding, amo, base.nvars, clauses)


def dimacs_header(formula: Formula, *, puzzle_text: str | None = None,
                  grid: Grid | None = None, alphabet_line: str | None = None,
                  version: str | None = None) -> list[str]:
    """The ``c`` comment lines :func:`write_dimacs` puts before ``p cnf`` (without newlines)."""
    if version is None:
        from . import __version__ as version
    geo = formula.geometry
    n = geo.size
    lines = [f"satdoku {version}: a {n}x{n} Sudoku (boxes {geo.shape}) as CNF"]
    if puzzle_text is not None:
        lines += [f"puzzle: {part}" for part in puzzle_text.splitlines() or [""]]
    if grid is not None:
        lines.append(f"clues: {grid.nclues}")
    if alphabet_line is not None:
        lines.append(alphabet_line)
    lines += [
        f"size: {n}, box: {geo.shape}, encoding: {formula.encoding} "
        f"({ENCODINGS[formula.encoding].description}), at-most-one: {formula.amo}",
        f"variable v = cell*{n} + d means 'cell holds digit d' (cells 0..{n * n - 1} row by "
        f"row, digits 1..{n}, v = 1..{n ** 3})",
        f"decoding: cell = (v-1) // {n}, digit = (v-1) % {n} + 1, "
        f"row = cell // {n} + 1, column = cell % {n} + 1",
    ]
    if formula.nvars > n ** 3:
        lines.append(f"variables {n ** 3 + 1}..{formula.nvars} are auxiliary "
                     f"({formula.amo} at-most-one)")
    # A stray newline in a caller's text must not start a line that is not a comment.
    return ["c " + part for line in lines for part in line.splitlines()]


def write_dimacs(formula: Formula, fp: TextIO, *, puzzle_text: str | None = None,
                 grid: Grid | None = None, alphabet_line: str | None = None,
                 version: str | None = None) -> None:
    """Write ``formula`` in DIMACS CNF: comments saying how to decode, ``p cnf``, the clauses.

    Args:
        formula: usually ``encode(grid)`` (clues as unit clauses).
        fp: a text file open for writing.
        puzzle_text: the puzzle in one-line form, written as a comment.
        grid: the puzzle, for the number of clues.
        alphabet_line: one more comment (for example the symbols used), written as given.
        version: satdoku's version (default ``satdoku.__version__``).
    """
    header = dimacs_header(formula, puzzle_text=puzzle_text, grid=grid,
                           alphabet_line=alphabet_line, version=version)
    fp.write("\n".join(header) + "\n")
    write_clauses(fp, formula.nvars, formula.clauses)


def write_clauses(fp: TextIO, nvars: int, clauses: Sequence[Sequence[int]]) -> None:
    """The ``p cnf`` line and the clauses, each ending in 0, written in large blocks."""
    fp.write(f"p cnf {nvars} {len(clauses)}\n")
    chunk = 65536
    for start in range(0, len(clauses), chunk):
        fp.write("".join(" ".join(map(str, clause)) + " 0\n"
                         for clause in clauses[start:start + chunk]))


class UnsatisfiableError(ModelError):
    """The external solver proved the formula unsatisfiable: the puzzle has no solution."""


_INT = re.compile(r"^-?\d+$")


def parse_model(text: str) -> list[int]:
    """The literals of a SAT solver's answer, without the closing 0.

    Reads the SAT-competition form (``s SATISFIABLE``, ``v ... 0`` lines, ``c`` comments;
    CaDiCaL, Kissat, ...) and MiniSat's result file (``SAT`` then literals ending in 0, or
    ``UNSAT``).

    Raises:
        UnsatisfiableError: the solver found no solution (a :class:`ModelError`).
        ModelError: the text is not a model; the line number says where.

    >>> parse_model("s SATISFIABLE\\nv 1 -2\\nv 3 0\\n")
    [1, -2, 3]
    >>> parse_model("SAT\\n-1 2 0\\n")
    [-1, 2]
    """
    lits: list[int] = []
    status: str | None = None
    closed = False
    last = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        last = number
        head, _, rest = line.partition(" ")
        if head == "c":
            continue
        if status is None and head in ("s", "SAT", "UNSAT", "UNSATISFIABLE", "SATISFIABLE",
                                       "INDET", "UNKNOWN"):
            status = (rest.strip() if head == "s" else line).upper()
            if status in ("UNSATISFIABLE", "UNSAT"):
                raise UnsatisfiableError("the solver found no solution: the puzzle is "
                                         "unsolvable", line=number)
            if status not in ("SATISFIABLE", "SAT"):
                raise ModelError(f"the solver gave no answer ({line!r})", line=number)
            continue
        if head in ("s", "SAT", "UNSAT") or line.upper() in ("SATISFIABLE", "UNSATISFIABLE"):
            raise ModelError(f"a second status line: {line!r}", line=number)
        if closed:
            raise ModelError(f"text after the closing 0 of the model: {line[:40]!r}",
                             line=number)
        words = rest.split() if head == "v" else line.split()
        if head != "v" and status != "SAT":
            what = "a 'v' line" if status else "'s SATISFIABLE' or 'SAT'"
            raise ModelError(f"expected {what}, found {line[:40]!r}", line=number)
        for word in words:
            if closed:
                raise ModelError(f"literal {word!r} after the closing 0", line=number)
            if not _INT.match(word):
                raise ModelError(f"{word!r} is not a literal", line=number)
            lit = int(word)
            if lit == 0:
                closed = True
            else:
                lits.append(lit)
    if status is None and not lits:
        raise ModelError("no solver answer found (empty output?)", line=last or None)
    if not closed:
        raise ModelError("the model does not end with 0 (was the output cut short?)",
                         line=last or None)
    return lits


def decode_model(model: Iterable[int], geometry: Geometry) -> Grid:
    """The grid a model describes; only variables ``1 .. N**3`` are looked at.

    Raises:
        ModelError: a cell with no true digit or several, or a variable the model leaves out
            (naming the cell, e.g. ``r3c7: digits 4 and 7 are both true``).

    >>> from satdoku.geometry import geometry
    >>> decode_model([1], geometry(1, 1)).cells
    (1,)
    """
    n = geometry.size
    n3 = n ** 3
    value = bytearray(n3 + 1)  # 0 unknown, 1 false, 2 true
    for lit in model:
        v = lit if lit > 0 else -lit
        if v <= n3:
            value[v] = 2 if lit > 0 else 1
    if 0 in value[1:]:
        v = value.index(0, 1)
        cell, d = unvar(v, n)
        given = sum(1 for x in value[1:] if x)
        raise ModelError(f"the model gives no value to variable {v} ({geometry.cell_name(cell)}, "
                         f"digit {d}); it sets {given} of the {n3} variables "
                         f"(a model of another puzzle size?)")
    cells = []
    for cell in range(n * n):
        true = [d for d in range(1, n + 1) if value[cell * n + d] == 2]
        if len(true) != 1:
            if not true:
                problem = "no digit is true in the model"
            else:
                problem = (f"digits {', '.join(map(str, true[:-1]))} and {true[-1]} "
                           f"are {'both ' if len(true) == 2 else 'all '}true")
            raise ModelError(problem, cell=geometry.cell_name(cell))
        cells.append(true[0])
    return Grid(geometry, tuple(cells))
