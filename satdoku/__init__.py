"""satdoku: solve Sudoku of any size by encoding it to SAT, cross-checked by a native solver.

The library calls, one per command; each takes a puzzle in any form the command line takes
inline: classic text (one line or several), satdoku variant JSON (text or a dict), an f-puzzles
link, string or JSON, a SudokuPad link, or a :class:`~satdoku.model.grid.Grid` or
:class:`~satdoku.model.puzzle.Puzzle` already made. A classic puzzle is a puzzle with no rules;
every call serves variant puzzles too. Each call imports what it needs when called, so
``import satdoku`` stays cheap:

>>> import satdoku
>>> satdoku.solve("1.3..4.2.34.4.23").status
'solved'
>>> x = {"type": "diagonal", "direction": "-"}, {"type": "diagonal", "direction": "+"}
>>> satdoku.count({"size": 4, "givens": {"r1c1": 1}, "constraints": x}).count
2
>>> satdoku.rate("1..4.4..2..3...1").label
'easy'

Errors are :mod:`satdoku.errors` classes: a puzzle that cannot be read raises
:class:`~satdoku.errors.PuzzleError` naming the line and cell, a bad option
:class:`~satdoku.errors.OptionError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .cnf.formula import Formula
    from .cnf.reduced import ReducedFormula
    from .model.grid import Grid
    from .model.puzzle import Puzzle
    from .model.result import Result
    from .tasks.candidates import Candidates
    from .tasks.explain import Explanation
    from .tasks.generate import Generated
    from .tasks.rate import Rating

from .version import __version__

__all__ = ["read", "parse", "solve", "count", "encode", "decode", "explain", "candidates",
           "generate", "rate", "__version__"]

#: What a puzzle argument may be: text, a variant JSON document, or a grid or puzzle made.
PuzzleLike = Any


def read(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
         alphabet: str | None = None, ignore_unknown: bool = False) -> "Puzzle":
    """The :class:`~satdoku.model.puzzle.Puzzle` (grid and rules) of ``puzzle``, in any form
    the module docstring lists. ``ignore_unknown`` lets an f-puzzles or SudokuPad import
    through what satdoku cannot use (its ``warnings`` say what).

    >>> read("1.3..4.2.34.4.23").grid.nclues
    9
    """
    import json
    from .errors import PuzzleError
    from .io.inputs import read_puzzle
    from .model.grid import Grid
    from .model.puzzle import Puzzle
    if isinstance(puzzle, Puzzle):
        if puzzle.error is not None:
            raise puzzle.error
        return puzzle
    if isinstance(puzzle, Grid):
        from .model.alphabet import alphabet_for
        return Puzzle(puzzle, "<grid>", 1, 1, alphabet=alphabet_for(puzzle.size))
    if isinstance(puzzle, dict):
        puzzle = json.dumps(puzzle)
    if not isinstance(puzzle, str):
        raise PuzzleError(f"a puzzle is text, a dict, a Grid or a Puzzle, not "
                          f"{type(puzzle).__name__}")
    return read_puzzle(puzzle, box=box, alphabet=alphabet, ignore_unknown=ignore_unknown)


def parse(text: str, *, box: tuple[int, int] | None = None,
          alphabet: str | None = None) -> "Grid":
    """The grid of exactly one puzzle written in ``text`` (its givens; :func:`read` keeps the
    rules of a variant puzzle too).

    >>> parse("1.3..4.2.34.4.23").nclues
    9
    """
    return read(text, box=box, alphabet=alphabet).grid


def solve(puzzle: PuzzleLike, *, solver: str = "sat", sat_solver: str | None = None,
          encoding: str | None = None, timeout: float | None = None, limit: int = 1,
          max_clauses: int | None = None) -> "Result":
    """A verified :class:`~satdoku.model.result.Result` for ``puzzle`` under its rules
    (``limit`` 2 or more counts); ``timeout`` seconds bound every stage, ``max_clauses`` the
    formula (rules included)."""
    from .budget import DEFAULT_MAX_CLAUSES
    from .deadline import check_timeout
    from .errors import OptionError
    from .tasks.solvers import make_solver, solve as solve_with
    p = read(puzzle)
    try:
        seconds = check_timeout(timeout)
    except ValueError as error:
        raise OptionError(str(error)) from None
    with make_solver(solver, sat_solver=sat_solver, encoding=encoding,
                     max_clauses=DEFAULT_MAX_CLAUSES if max_clauses is None else max_clauses
                     ) as s:
        return solve_with(s, p.grid, limit=limit, timeout=seconds, constraints=p.constraints)


def count(puzzle: PuzzleLike, *, limit: int = 2, **options: Any) -> "Result":
    """:func:`solve` counting up to ``limit``: status ``unique``, ``multiple`` (``count``) or
    ``unsolvable``."""
    return solve(puzzle, limit=limit, **options)


def encode(puzzle: PuzzleLike, encoding: str | None = None,
           **options: Any) -> "Formula | ReducedFormula":
    """The CNF formula of ``puzzle`` and its rules (:func:`satdoku.cnf.formula.encode`; the
    encoding by grid size when none is named); write it with
    :func:`satdoku.cnf.export.write_dimacs`."""
    from .cnf.formula import encode as encode_grid
    from .cnf.policy import choose_encoding
    p = read(puzzle)
    return encode_grid(p.grid, encoding or choose_encoding(p.grid.size),
                       constraints=p.constraints, **options)


def decode(model: str, puzzle: PuzzleLike, encoding: str | None = None,
           amo: str | None = None) -> "Grid":
    """The verified solution in a SAT solver's output ``model`` (text) for the CNF that
    :func:`encode` wrote for ``puzzle``."""
    from .cnf.decode import decode_solution, model_formula
    p = read(puzzle)
    formula = model_formula(p.grid, encoding, amo, p.constraints)
    return decode_solution(model, p.grid, formula, constraints=p.constraints)


def explain(puzzle: PuzzleLike, **options: Any) -> "Explanation":
    """Why ``puzzle`` is unsolvable (a minimal core of givens and rules), ambiguous or what it
    takes (:func:`satdoku.tasks.explain.explain` options)."""
    from .tasks.explain import explain as explain_grid
    p = read(puzzle)
    return explain_grid(p.grid, constraints=p.constraints, alphabet=p.alphabet, **options)


def candidates(puzzle: PuzzleLike, **options: Any) -> "Candidates":
    """The true candidates of every empty cell of ``puzzle``: the digits some solution puts
    there (:func:`satdoku.tasks.candidates.true_candidates` options)."""
    from .tasks.candidates import true_candidates
    p = read(puzzle)
    return true_candidates(p.grid, constraints=p.constraints, **options)


def generate(box: tuple[int, int] = (3, 3), **options: Any) -> "Generated":
    """One puzzle with exactly one solution (:class:`satdoku.tasks.generate.Generator`
    options)."""
    from .model.geometry import geometry
    from .tasks.generate import Generator
    with Generator(geometry(*box), **options) as generator:
        return generator.generate()


def rate(puzzle: PuzzleLike, **options: Any) -> "Rating":
    """The difficulty :class:`~satdoku.tasks.rate.Rating` of ``puzzle`` under its rules
    (:class:`satdoku.tasks.rate.Rater` options)."""
    from .tasks.rate import Rater
    p = read(puzzle)
    with Rater(**options) as rater:
        return rater.rate(p.grid, constraints=p.constraints)
