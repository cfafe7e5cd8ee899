"""Reading back what an external SAT solver wrote for a CNF that ``satdoku encode`` exported."""

from __future__ import annotations

import sys

from .encode import decode_model, parse_model
from .errors import ModelError
from .grid import Grid, solution_problems

__all__ = ["decode_solution", "decode_file"]


def decode_solution(text: str, puzzle: Grid, *, source: str | None = None,
                    reduced: bool = False) -> Grid:
    """The verified solution of ``puzzle`` in a solver's output ``text``.

    ``reduced``: the CNF was exported with ``--clues reduced``; its variable mapping is rebuilt
    from the puzzle (the reduction is deterministic).

    Raises:
        ModelError: UNSAT, a malformed model, or a model that does not solve ``puzzle``.
    """
    try:
        model = parse_model(text)
    except ModelError as error:
        raise error.located(source=source) from None
    try:
        if reduced:
            grid = _decode_reduced(model, puzzle)
        else:
            grid = decode_model(model, puzzle.geometry)
    except ModelError as error:
        n = puzzle.geometry.size
        top = max((abs(lit) for lit in model), default=0)
        if top != n ** 3 and not reduced:
            error.message += (f" (the model has {top} variables, a {n}x{n} puzzle has {n ** 3}:"
                              " was it made from another puzzle?)")
        raise error.located(source=source) from None
    problems = solution_problems(grid, puzzle)
    if problems:
        raise ModelError("the model does not solve this puzzle: " + "; ".join(problems[:3]),
                         source=source)
    return grid


def _decode_reduced(model: list[int], puzzle: Grid) -> Grid:
    from .reduce import decode_reduced, reduced_formula
    formula = reduced_formula(puzzle)
    if formula.contradiction:
        raise ModelError(f"the puzzle is unsolvable ({formula.contradiction}); "
                         "no model can solve it")
    mapped = {abs(lit) for lit in model if abs(lit) <= formula.nmapped}
    if len(mapped) < formula.nmapped:
        raise ModelError(f"the model sets {len(mapped)} of the {formula.nmapped} variables of "
                         "this puzzle's reduced CNF (a model of another puzzle?)")
    return decode_reduced(formula, sorted(model, key=abs))


def decode_file(path: str, puzzle: Grid, *, reduced: bool = False) -> Grid:
    """:func:`decode_solution` on the file at ``path`` ('-' for stdin)."""
    if path == "-":
        return decode_solution(sys.stdin.read(), puzzle, source="<stdin>", reduced=reduced)
    try:
        with open(path, encoding="utf-8", errors="replace") as fp:
            text = fp.read()
    except OSError as error:
        raise ModelError(f"cannot read: {error.strerror}", source=path) from None
    return decode_solution(text, puzzle, source=path, reduced=reduced)
