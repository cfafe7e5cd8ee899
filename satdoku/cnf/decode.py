"""Models in: the formula a model belongs to, and the verified grid it describes.

:func:`model_formula` rebuilds what ``satdoku encode`` wrote (as far as decoding needs it:
the variable count and map); :func:`decode_solution` reads a solver's answer
(:func:`satdoku.io.dimacs.parse_model`), turns it into a grid through the formula's variable
map, strictly, and verifies it against the puzzle and its rules.
"""

from __future__ import annotations

from ..errors import ModelError
from ..io.dimacs import parse_model, read_model_text
from ..model.grid import Grid, solution_problems
from .encodings import DEFAULT_AMO, check_encoding
from .formula import Formula, encode
from .policy import choose_encoding
from .reduced import ReducedFormula

__all__ = ["model_formula", "decode_solution", "decode_file"]


def model_formula(puzzle: Grid, encoding: str | None = None, amo: str | None = None,
                  constraints: tuple = ()) -> Formula | ReducedFormula:
    """The formula ``satdoku encode`` wrote for ``puzzle`` with these options, as far as
    decoding needs it: its variable count (and, reduced, its variable map, rebuilt the same
    way: the reduction is deterministic). The encoding defaults to the choice by size."""
    encoding = encoding or choose_encoding(puzzle.size)
    if constraints or check_encoding(encoding).reduced or (amo or DEFAULT_AMO) != DEFAULT_AMO:
        # Rules' and cardinality encodings' auxiliary variables: built the same way again.
        return encode(puzzle, encoding, amo, max_clauses=None, constraints=constraints)
    return Formula(puzzle.geometry, encoding, DEFAULT_AMO, puzzle.size ** 3, [])


def decode_solution(text: str, puzzle: Grid, formula: Formula | ReducedFormula, *,
                    source: str | None = None, constraints: tuple = ()) -> Grid:
    """The verified solution of ``puzzle`` in a solver's output ``text`` for ``formula`` (the
    formula that was exported: full or reduced, rebuilt the same way as ``encode`` built it).

    Raises:
        ModelError: UNSAT, a malformed model, or a model that does not solve ``puzzle``.
    """
    try:
        if formula.contradiction:
            raise ModelError(f"the puzzle is unsolvable ({formula.contradiction}); "
                             "no model can solve it")
        grid = formula.varmap.read(parse_model(text, formula.nvars))
    except ModelError as error:
        raise error.located(source=source) from None
    problems = solution_problems(grid, puzzle, constraints)
    if problems:
        raise ModelError("the model does not solve this puzzle: " + "; ".join(problems[:3]),
                         source=source)
    return grid


def decode_file(path: str, puzzle: Grid, formula: Formula | ReducedFormula,
                constraints: tuple = ()) -> Grid:
    """:func:`decode_solution` on the model file at ``path`` ('-' for stdin)."""
    source, text = read_model_text(path)
    return decode_solution(text, puzzle, formula, source=source, constraints=constraints)
