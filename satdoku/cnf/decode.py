"""Models in: reading what an external SAT solver wrote, and the grid it describes.

:func:`parse_model` reads the SAT-competition form (``s SATISFIABLE``, ``v ... 0`` lines, ``c``
comments; CaDiCaL, Kissat, ...) and MiniSat's result file (``SAT`` then literals ending in 0,
or ``UNSAT``), strictly: a literal set both ways, a literal beyond the formula's variables,
``-0`` or anything that is not an integer is an error naming its line. :func:`decode_solution`
turns the literals into a grid (full or reduced mapping) and verifies it against the puzzle.
"""

from __future__ import annotations

import re
import sys
from typing import Iterable, Sequence

from .encode import (DEFAULT_AMO, DEFAULT_REDUCED_AMO, Formula, ReducedFormula, check_encoding,
                     encode_base, reduced_formula, unvar)
from ..errors import ModelError
from ..model.geometry import Geometry
from ..model.grid import Grid, solution_problems

__all__ = ["UnsatisfiableError", "parse_model", "decode_model", "decode_reduced",
           "decode_solution", "decode_file", "model_formula", "MAX_MODEL_BYTES"]

#: Solver output longer than this is refused (a 400x400 reduced model takes a few MB).
MAX_MODEL_BYTES = 128 << 20

_INT = re.compile(r"-?[0-9]{1,19}")
_STATUS_WORDS = ("s", "SAT", "UNSAT", "UNSATISFIABLE", "SATISFIABLE", "INDET", "UNKNOWN")


class UnsatisfiableError(ModelError):
    """The external solver proved the formula unsatisfiable: the puzzle has no solution."""


def parse_model(text: str, nvars: int | None = None) -> list[int]:
    """The literals of a SAT solver's answer, without the closing 0.

    Args:
        text: the solver's output.
        nvars: the formula's variables; a literal beyond them is an error (None: no check).

    Raises:
        UnsatisfiableError: the solver found no solution (a :class:`ModelError`).
        ModelError: the text is not a model; the line number says where.

    >>> parse_model("s SATISFIABLE\\nv 1 -2\\nv 3 0\\n")
    [1, -2, 3]
    >>> parse_model("SAT\\n-1 2 0\\n")
    [-1, 2]
    >>> parse_model("v 1 -1 0\\n")
    Traceback (most recent call last):
    ...
    satdoku.errors.ModelError: 1: variable 1 is set both true and false
    """
    lits: list[int] = []
    seen: dict[int, int] = {}
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
        if status is None and head in _STATUS_WORDS:
            status = (rest.strip() if head == "s" else line).upper()
            if status in ("UNSATISFIABLE", "UNSAT"):
                raise UnsatisfiableError("the solver found no solution: the puzzle is "
                                         "unsolvable", line=number)
            if status not in ("SATISFIABLE", "SAT"):
                raise ModelError(f"the solver gave no answer ({line[:40]!r})", line=number)
            continue
        if head in ("s", "SAT", "UNSAT") or line.upper() in ("SATISFIABLE", "UNSATISFIABLE"):
            raise ModelError(f"a second status line: {line[:40]!r}", line=number)
        if closed:
            raise ModelError(f"text after the closing 0 of the model: {line[:40]!r}",
                             line=number)
        if head != "v" and status != "SAT":
            what = "a 'v' line" if status else "'s SATISFIABLE' or 'SAT'"
            raise ModelError(f"expected {what}, found {line[:40]!r}", line=number)
        for word in rest.split() if head == "v" else line.split():
            if closed:
                raise ModelError(f"literal {word[:40]!r} after the closing 0", line=number)
            if not _INT.fullmatch(word) or word == "-0":
                raise ModelError(f"{word[:40]!r} is not a literal", line=number)
            lit = int(word)
            if lit == 0:
                closed = True
                continue
            v = abs(lit)
            if nvars is not None and v > nvars:
                raise ModelError(f"literal {lit} is beyond the formula's {nvars:,} variables",
                                 line=number)
            if seen.setdefault(v, lit) != lit:
                raise ModelError(f"variable {v} is set both true and false", line=number)
            lits.append(lit)
    if status is None and not lits:
        raise ModelError("no solver answer found (empty output?)", line=last or None)
    if not closed:
        raise ModelError("the model does not end with 0 (was the output cut short?)",
                         line=last or None)
    return lits


def decode_model(model: Iterable[int], geometry: Geometry) -> Grid:
    """The grid a model of a full formula describes; only variables ``1 .. N**3`` are read.

    Raises:
        ModelError: a cell with no true digit or several, or a variable the model leaves out
            (naming the cell, e.g. ``r3c7: digits 4 and 7 are both true``).

    >>> from satdoku.model.geometry import geometry
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


def decode_reduced(formula: ReducedFormula, model: Sequence[int]) -> Grid:
    """The grid a model of a reduced ``formula`` describes: settled digits plus the true
    mapped variables. Only variables ``1 .. nmapped`` are read (CaDiCaL reports variables in
    no clause as true), and the model must set every one of them."""
    cells = list(formula.settled)
    var_cell, var_digit = formula.var_cell, formula.var_digit
    mapped = 0
    for lit in model:
        v = abs(lit)
        if v > formula.nmapped:
            continue
        mapped += 1
        if lit > 0:
            cell = var_cell[v - 1]
            if cells[cell]:
                raise ModelError(f"digits {cells[cell]} and {var_digit[v - 1]} are both true",
                                 cell=formula.geometry.cell_name(cell))
            cells[cell] = var_digit[v - 1]
    if mapped < formula.nmapped:
        raise ModelError(f"the model sets {mapped} of the {formula.nmapped} variables of this "
                         "puzzle's reduced CNF (a model of another puzzle?)")
    if 0 in cells:
        raise ModelError("no digit is true in the model",
                         cell=formula.geometry.cell_name(cells.index(0)))
    return Grid(formula.geometry, tuple(cells))


def model_formula(puzzle: Grid, encoding: str | None = None, amo: str | None = None,
                  constraints: tuple = ()) -> Formula | ReducedFormula:
    """The formula ``satdoku encode`` wrote for ``puzzle`` with these options, as far as
    decoding needs it: its variable count (and, reduced, its variable map, rebuilt the same
    way: the reduction is deterministic). The encoding defaults to the choice by size."""
    if encoding is None:
        from ..tasks.solvers import choose_encoding
        encoding = choose_encoding(puzzle.size, variant=bool(constraints))
    if check_encoding(encoding).reduced:
        return reduced_formula(puzzle, amo or DEFAULT_REDUCED_AMO, max_clauses=None)
    amo = amo or DEFAULT_AMO
    n3 = puzzle.size ** 3
    if constraints:  # their auxiliary variables come after the base formula's
        from .encode import encode
        return encode(puzzle, encoding, amo, max_clauses=None, constraints=constraints)
    if amo == DEFAULT_AMO:  # no auxiliary variables: nothing to build
        return Formula(puzzle.geometry, encoding, amo, n3, [])
    return encode_base(puzzle.geometry, encoding, amo)


def decode_solution(text: str, puzzle: Grid, formula: Formula | ReducedFormula, *,
                    source: str | None = None, constraints: tuple = ()) -> Grid:
    """The verified solution of ``puzzle`` in a solver's output ``text`` for ``formula`` (the
    formula that was exported: full or reduced, rebuilt the same way as ``encode`` built it).

    Raises:
        ModelError: UNSAT, a malformed model, or a model that does not solve ``puzzle``.
    """
    reduced = isinstance(formula, ReducedFormula)
    try:
        if reduced and formula.contradiction:
            raise ModelError(f"the puzzle is unsolvable ({formula.contradiction}); "
                             "no model can solve it")
        model = parse_model(text, formula.nvars)
        grid = (decode_reduced(formula, model) if reduced
                else decode_model(model, puzzle.geometry))
    except ModelError as error:
        raise error.located(source=source) from None
    problems = solution_problems(grid, puzzle, constraints)
    if problems:
        raise ModelError("the model does not solve this puzzle: " + "; ".join(problems[:3]),
                         source=source)
    return grid


def decode_file(path: str, puzzle: Grid, formula: Formula | ReducedFormula,
                constraints: tuple = ()) -> Grid:
    """:func:`decode_solution` on the file at ``path`` ('-' for stdin), read up to
    :data:`MAX_MODEL_BYTES`."""
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read(MAX_MODEL_BYTES + 1)
        else:
            with open(path, encoding="utf-8", errors="replace") as fp:
                text = fp.read(MAX_MODEL_BYTES + 1)
    except OSError as error:
        raise ModelError(f"cannot read: {error.strerror or error}", source=source) from None
    if len(text) > MAX_MODEL_BYTES:
        raise ModelError(f"more than {MAX_MODEL_BYTES >> 20} MB: not a model of this puzzle",
                         source=source)
    return decode_solution(text, puzzle, formula, source=source, constraints=constraints)
