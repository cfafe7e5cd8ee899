"""DIMACS CNF out: the clauses, and ``c`` comments that say how to decode a model by hand.

Every comment line starts with ``c `` (a line without it makes the file unreadable to solvers;
a stray newline in a caller's text is split into comment lines too). A full formula explains the
variable mapping ``v = cell*N + d`` in three lines; a reduced one lists its variables one open
cell a line (``c cell r3c7 vars 17-19 digits 2 5 9``: var 17 means r3c7 holds 2, 18 that it
holds 5, 19 that it holds 9) and the settled digits in one ``c settled:`` line.
"""

from __future__ import annotations

from typing import Sequence, TextIO

from ..cnf.encode import ENCODINGS, PAIRWISE_MAX, Formula, ReducedFormula
from ..model.grid import Grid

__all__ = ["write_dimacs", "dimacs_header", "write_clauses"]


def dimacs_header(formula: Formula | ReducedFormula, *, puzzle_text: str | None = None,
                  grid: Grid | None = None, extra: Sequence[str] = (),
                  version: str | None = None) -> list[str]:
    """The comment lines :func:`write_dimacs` puts before ``p cnf`` (without newlines)."""
    if version is None:
        from .. import __version__ as version
    geo = formula.geometry
    n = geo.size
    reduced = isinstance(formula, ReducedFormula)
    lines = [f"satdoku {version}: a {n}x{n} Sudoku (boxes {geo.shape}) as "
             f"{'reduced ' if reduced else ''}CNF"]
    if puzzle_text is not None:
        lines += [f"puzzle: {part}" for part in puzzle_text.splitlines() or [""]]
    if grid is not None:
        lines.append(f"clues: {grid.nclues}")
    lines += list(extra)
    if reduced:
        lines += [
            f"encoding: reduced (only open (cell, digit) pairs get variables; givens"
            f"{' and singles' if formula.propagated else ''} folded away), at-most-one: "
            f"pairwise up to {PAIRWISE_MAX} literals, else {formula.amo}",
            f"size: {n}, box: {geo.shape}, settled cells: "
            f"{sum(1 for d in formula.settled if d)}, open pairs: {formula.nmapped}, "
            f"eliminated pairs: {formula.eliminated}",
            "settled: " + " ".join(map(str, formula.settled)),
            f"mapping: variables 1..{formula.nmapped}, one line per open cell: "
            "'c cell rRcC vars FIRST-LAST digits D...' (consecutive vars, digits in order)",
        ]
        if formula.contradiction:
            lines.append(f"unsolvable: {formula.contradiction}")
    else:
        lines += [
            f"size: {n}, box: {geo.shape}, encoding: {formula.encoding} "
            f"({ENCODINGS[formula.encoding].description}), at-most-one: {formula.amo}",
            f"variable v = cell*{n} + d means 'cell holds digit d' (cells 0..{n * n - 1} row "
            f"by row, digits 1..{n}, v = 1..{n ** 3})",
            f"decoding: cell = (v-1) // {n}, digit = (v-1) % {n} + 1, "
            f"row = cell // {n} + 1, column = cell % {n} + 1",
        ]
        if formula.parts:
            lines.append(f"variant rules: {len(formula.parts)}, each with the clauses it owns "
                         f"(numbered from 1 after the 'p cnf' line):")
            lines += [f"rule {i}: {what}: clauses {first}-{last}"
                      for i, (what, first, last) in enumerate(formula.parts, 1)]
    return ["c " + part for line in lines for part in line.splitlines()]


def _mapping_lines(formula: ReducedFormula) -> list[str]:
    """``c cell rRcC vars A-B digits ...``: one line per open cell of a reduced formula."""
    geo = formula.geometry
    var_cell, var_digit = formula.var_cell, formula.var_digit
    lines = []
    v, total = 1, formula.nmapped
    while v <= total:
        cell = var_cell[v - 1]
        w = v
        while w < total and var_cell[w] == cell:
            w += 1
        digits = " ".join(map(str, var_digit[v - 1:w]))
        span = f"{v}" if w == v else f"{v}-{w}"
        lines.append(f"c cell {geo.cell_name(cell)} vars {span} digits {digits}\n")
        v = w + 1
    return lines


def write_dimacs(formula: Formula | ReducedFormula, fp: TextIO, *,
                 puzzle_text: str | None = None, grid: Grid | None = None,
                 extra: Sequence[str] = (), version: str | None = None) -> None:
    """Write ``formula`` in DIMACS CNF: comments saying how to decode, ``p cnf``, the clauses.

    Args:
        formula: from :func:`satdoku.cnf.encode.encode` (full, clues as unit clauses, or reduced).
        fp: a text file open for writing.
        puzzle_text: the puzzle in one-line form, written as a comment.
        grid: the puzzle, for the number of clues.
        extra: more comment lines (without the ``c``), for example the symbols used.
        version: satdoku's version (default ``satdoku.__version__``).
    """
    header = dimacs_header(formula, puzzle_text=puzzle_text, grid=grid, extra=extra,
                           version=version)
    fp.write("\n".join(header) + "\n")
    nmapped = formula.nmapped
    if isinstance(formula, ReducedFormula):
        lines = _mapping_lines(formula)
        for start in range(0, len(lines), 65536):
            fp.write("".join(lines[start:start + 65536]))
    if formula.nvars > nmapped:
        fp.write(f"c variables {nmapped + 1}..{formula.nvars} are auxiliary "
                 f"({formula.amo} at-most-one)\n")
    write_clauses(fp, formula.nvars, formula.clauses)


def write_clauses(fp: TextIO, nvars: int, clauses: Sequence[Sequence[int]]) -> None:
    """The ``p cnf`` line and the clauses, each ending in 0, written in large blocks."""
    fp.write(f"p cnf {nvars} {len(clauses)}\n")
    chunk = 65536
    for start in range(0, len(clauses), chunk):
        fp.write("".join(" ".join(map(str, clause)) + " 0\n"
                         for clause in clauses[start:start + chunk]))
