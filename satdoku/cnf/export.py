"""A formula as a DIMACS file, with ``c`` comments that say how to decode a model by hand.

Every comment line starts with ``c `` (a line without it makes the file unreadable to solvers;
a stray newline in a caller's text is split into comment lines too). A full formula explains the
variable mapping ``v = cell*N + d`` in three lines; a reduced one lists its variables one open
cell a line (``c cell r3c7 vars 17-19 digits 2 5 9``: var 17 means r3c7 holds 2, 18 that it
holds 5, 19 that it holds 9) and the settled digits in one ``c settled:`` line. A variant
puzzle's rules are named with the clauses each owns.
"""

from __future__ import annotations

from typing import Sequence

from ..io.dimacs import TextSink, write_clauses
from ..model.grid import Grid
from .encodings import ENCODINGS, PAIRWISE_MAX, check_encoding, formula_size
from .formula import Formula
from .reduced import ReducedFormula

__all__ = ["write_dimacs", "dimacs_header"]


def dimacs_header(formula: Formula | ReducedFormula, *, puzzle_text: str | None = None,
                  grid: Grid | None = None, extra: Sequence[str] = (),
                  version: str | None = None, document: str | None = None) -> list[str]:
    """The comment lines :func:`write_dimacs` puts before ``p cnf`` (without newlines);
    ``document``: a variant puzzle as satdoku JSON on one line, written as ``c document:``
    (what ``satdoku decode --cnf`` rebuilds the rules from)."""
    if version is None:
        from ..version import __version__ as version
    geo = formula.geometry
    n = geo.size
    reduced = isinstance(formula, ReducedFormula)
    if geo.grid_rows:  # a grid of other shape: its shape says its size first
        size, _, box = geo.shape.partition(", ")
        what = f"Sudoku on a {size} ({box if box == 'no boxes' else 'boxes ' + box})"
    else:
        what = f"{n}x{n} Sudoku (boxes {geo.shape})"
    lines = [f"satdoku {version}: a {what} as {'reduced ' if reduced else ''}CNF"]
    if puzzle_text is not None:
        lines += [f"puzzle: {part}" for part in puzzle_text.splitlines() or [""]]
    if grid is not None:
        left_out = isinstance(formula, Formula) and not formula.givens
        lines.append(f"clues: {grid.nclues}" + (" given, not in this formula (give them as "
                                                "assumptions)" if left_out else ""))
    lines += list(extra)
    if isinstance(formula, ReducedFormula):
        lines += [
            f"encoding: reduced (only open (cell, digit) pairs get variables; givens"
            f"{' and singles' if formula.propagated else ''} folded away), at-most-one: "
            f"pairwise up to {PAIRWISE_MAX} literals, else {formula.amo}",
            f"size: {n}, box: {geo.shape}, settled cells: "
            f"{sum(1 for d in formula.settled if d)}, open pairs: {formula.nmapped}, "
            f"eliminated pairs: {formula.eliminated}",
            "settled: " + " ".join(map(str, formula.settled)),
            *formula.varmap.comments(),
        ]
        if formula.contradiction:
            lines.append(f"unsolvable: {formula.contradiction}")
    else:
        lines += [
            f"size: {n}, box: {geo.shape}, encoding: {formula.encoding} "
            f"({ENCODINGS[formula.encoding].description}), at-most-one: {formula.amo}",
            *formula.varmap.comments(),
        ]
        if formula.parts:
            lines.append(f"variant rules: {len(formula.parts)}, each with the clauses it owns "
                         f"(numbered from 1 after the 'p cnf' line):")
            lines += [f"rule {i}: {what}: clauses {first}-{last}"
                      for i, (what, first, last) in enumerate(formula.parts, 1)]
    if document is not None:
        lines.append("document: " + " ".join(document.split("\n")))
    return ["c " + part for line in lines for part in line.splitlines()]


def _auxiliary_sources(formula: Formula | ReducedFormula) -> str:
    """What a formula's auxiliary variables come from: its at-most-one encoding (pairwise
    needs none) and its variant rules (sums, counts), as far as the formula tells."""
    sources = []
    if isinstance(formula, ReducedFormula):
        sources.append(f"{formula.amo} at-most-one over lists longer than {PAIRWISE_MAX}")
    elif formula.amo != "pairwise":
        sources.append(f"{formula.amo} at-most-one")
    if formula.parts:
        sources.append("the variant rules' encodings")
    return f" ({'; '.join(sources)})" if sources else ""


def write_dimacs(formula: Formula | ReducedFormula, fp: TextSink, *,
                 puzzle_text: str | None = None, grid: Grid | None = None,
                 extra: Sequence[str] = (), version: str | None = None,
                 cubes: Sequence[Sequence[int]] | None = None,
                 document: str | None = None) -> None:
    """Write ``formula`` in DIMACS CNF: comments saying how to decode, ``p cnf``, the clauses
    (with ``cubes``, ICNF: ``p inccnf``, the clauses, an ``a`` line of assumptions a cube:
    :func:`satdoku.io.dimacs.write_clauses`).

    Args:
        formula: from :func:`satdoku.cnf.formula.encode` (full, clues as unit clauses, or reduced).
        fp: a text file open for writing.
        puzzle_text: the puzzle in one-line form, written as a comment.
        grid: the puzzle, for the number of clues.
        extra: more comment lines (without the ``c``), for example the symbols used.
        version: satdoku's version (default ``satdoku.__version__``).
        cubes: the assumptions of each puzzle of ``formula``'s geometry (its clues:
            :meth:`satdoku.cnf.varmap.FullMap.clue_literals`), for a formula without them.
        document: a variant puzzle as satdoku JSON on one line (:func:`dimacs_header`).
    """
    header = dimacs_header(formula, puzzle_text=puzzle_text, grid=grid, extra=extra,
                           version=version, document=document)
    fp.write("\n".join(header) + "\n")
    nmapped = formula.nmapped
    if isinstance(formula, ReducedFormula):
        lines = [f"c {line}\n" for line in formula.varmap.mapping_lines()]
        for start in range(0, len(lines), 65536):
            fp.write("".join(lines[start:start + 65536]))
    if formula.nvars > nmapped:
        first = nmapped + 1
        if not isinstance(formula, ReducedFormula) and check_encoding(formula.encoding).triads:
            first = formula_size(formula.geometry, formula.encoding, "pairwise")[0] + 1
            fp.write(f"c variables {nmapped + 1}..{first - 1} are triads: segment by segment "
                     "(rows, then columns), each segment's digits 1..N (docs/commands.md)\n")
        if formula.nvars >= first:
            fp.write(f"c variables {first}..{formula.nvars} are auxiliary"
                     f"{_auxiliary_sources(formula)}\n")
    write_clauses(fp, formula.nvars, formula.clauses, cubes)


