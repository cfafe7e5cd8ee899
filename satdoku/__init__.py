"""satdoku: solve Sudoku of any size by encoding it to SAT, cross-checked by a native solver.

The main library calls, one per command (each imports what it needs when called, so
``import satdoku`` stays cheap). A puzzle is a :class:`~satdoku.model.grid.Grid` or text in any
format satdoku reads:

>>> import satdoku
>>> satdoku.solve("1.3..4.2.34.4.23").status
'solved'
>>> satdoku.count("1.3..4.2.34.4.23").status
'unique'
>>> satdoku.rate("1..4.4..2..3...1").label
'easy'

Errors are :mod:`satdoku.errors` classes: a puzzle that cannot be read raises
:class:`~satdoku.errors.PuzzleError` naming the line and cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .model.grid import Grid

__version__ = "0.1.0"

__all__ = ["parse", "solve", "count", "encode", "decode", "explain", "generate", "rate",
           "__version__"]


def parse(text: str, *, box: tuple[int, int] | None = None,
          alphabet: str | None = None) -> "Grid":
    """The grid of exactly one puzzle written in ``text`` (one line or several).

    >>> parse("1.3..4.2.34.4.23").nclues
    9
    """
    from .io.text import parse_puzzle
    return parse_puzzle(text, box=box, alphabet=alphabet).grid


def _grid(puzzle: Any) -> "Grid":
    return parse(puzzle) if isinstance(puzzle, str) else puzzle


def solve(puzzle: Any, *, solver: str = "sat", sat_solver: str | None = None,
          encoding: str | None = None, timeout: float | None = None, limit: int = 1,
          constraints: tuple = ()):
    """A verified :class:`~satdoku.model.result.Result` for ``puzzle`` (``limit`` 2+ counts)."""
    from .tasks.solvers import make_solver, solve as solve_with
    with make_solver(solver, sat_solver=sat_solver, encoding=encoding) as s:
        return solve_with(s, _grid(puzzle), limit=limit, timeout=timeout,
                          constraints=constraints)


def count(puzzle: Any, *, limit: int = 2, **options: Any):
    """:func:`solve` counting up to ``limit``: status ``unique``, ``multiple`` (``count``) or
    ``unsolvable``."""
    return solve(puzzle, limit=limit, **options)


def encode(puzzle: Any, encoding: str | None = None, **options: Any):
    """The CNF formula of ``puzzle`` (:func:`satdoku.cnf.formula.encode`; the encoding by grid size
    when none is named); write it with :func:`satdoku.io.dimacs.write_dimacs`."""
    from .cnf.formula import encode as encode_grid
    from .cnf.policy import choose_encoding
    grid = _grid(puzzle)
    return encode_grid(grid, encoding or choose_encoding(grid.size), **options)


def decode(model: str, puzzle: Any, encoding: str | None = None, amo: str | None = None):
    """The verified solution in a SAT solver's output ``model`` (text) for the CNF that
    :func:`encode` wrote for ``puzzle``."""
    from .cnf.decode import decode_solution, model_formula
    grid = _grid(puzzle)
    return decode_solution(model, grid, model_formula(grid, encoding, amo))


def explain(puzzle: Any, **options: Any):
    """Why ``puzzle`` is unsolvable (a minimal core), ambiguous or what it takes
    (:func:`satdoku.tasks.explain.explain`)."""
    from .tasks.explain import explain as explain_grid
    return explain_grid(_grid(puzzle), **options)


def generate(box: tuple[int, int] = (3, 3), **options: Any):
    """One puzzle with exactly one solution (:class:`satdoku.tasks.generate.Generator` options)."""
    from .tasks.generate import Generator
    from .model.geometry import geometry
    with Generator(geometry(*box), **options) as generator:
        return generator.generate()


def rate(puzzle: Any, **options: Any):
    """The difficulty :class:`~satdoku.tasks.rate.Rating` of ``puzzle`` (:class:`satdoku.tasks.rate.Rater`
    options)."""
    from .tasks.rate import Rater
    with Rater(**options) as rater:
        return rater.rate(_grid(puzzle))
