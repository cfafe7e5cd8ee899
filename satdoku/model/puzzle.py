"""One puzzle as every command, task and format meets it: a grid, its rules, what describes
it, and where it came from.

A classic puzzle is a puzzle with no rules. A puzzle that could not be read keeps its place in
the stream (``source``, ``line``, ``index``) with the error that says why, so that a batch
reports it and goes on. Made with its rules, a puzzle binds them to each other (a negative
rule such as ``no-kropki`` learns the dots of its own puzzle: ``Rule.bind``).
"""

from __future__ import annotations

import re

from ..errors import PuzzleError
from ..records import record
from .alphabet import Alphabet
from .geometry import Geometry
from .grid import Grid, Rule, check_givens, clash_free, solution_problems

__all__ = ["Puzzle"]


@record
class Puzzle:
    """One puzzle: its grid of givens and rules, or the error that kept it from being one.

    - ``source``, ``line``, ``index``: where it was read (a file or ``<stdin>``, its first
      line, its number in that input); ``parse_ms`` the time reading it took.
    - ``name``, ``author``, ``citation`` (a URL or reference: the variant format's
      ``source`` field) describe it and play no part in solving.
    - ``constraints``: its variant rules, beyond Sudoku's; ``warnings``: what an import left
      out; ``solution``: the setter's solution an import carried, row by row (0: not given).
    - ``unchecked``: its givens are not yet checked for a clash. Only a solve or count's
      reader leaves them so (``defer_clashes``), for the task to check: in bulk, by verifying
      the batch's answers, or alone (:meth:`check_clashes`).

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(2, 2)
    >>> p = Puzzle(Grid(g, (1,) + (0,) * 15), name="tiny")
    >>> p.geometry.size, p.ok, p.check(Grid(g, tuple(map(int, "2143341212344321"))))
    (4, True, ['r1c1: given 1 changed to 2'])
    >>> p.valid_grid is p.grid, Puzzle(None, error=PuzzleError("no digits")).ok
    (True, False)
    >>> Puzzle(None, error=PuzzleError("no digits")).valid_grid
    Traceback (most recent call last):
    ValueError: a puzzle that could not be read has no grid
    """

    grid: Grid | None
    source: str = "<puzzle>"
    line: int = 1
    index: int = 1
    name: str | None = None
    alphabet: Alphabet | None = None
    error: PuzzleError | None = None
    parse_ms: float = 0.0  # time spent reading and parsing it (set by inputs.iter_inputs)
    constraints: tuple[Rule, ...] = ()
    warnings: tuple[str, ...] = ()
    author: str | None = None
    citation: str | None = None
    solution: tuple[int, ...] | None = None
    unchecked: bool = False

    def __post_init__(self) -> None:
        if self.constraints:
            rules = tuple(self.constraints)
            self.constraints = tuple(rule.bind(rules) for rule in rules)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def valid_grid(self) -> Grid:
        """The grid of a puzzle that was read (ValueError for one that could not be: ask
        :attr:`ok` first), for code that is only handed puzzles that were read."""
        if self.grid is None:
            raise ValueError("a puzzle that could not be read has no grid")
        return self.grid

    @property
    def geometry(self) -> Geometry:
        return self.valid_grid.geometry

    def check_clashes(self) -> "Puzzle":
        """This puzzle, with the givens its reader left unchecked (:attr:`unchecked`) checked
        now: a clash makes it a puzzle that could not be read (``error``, no ``grid``), the
        clash located as the reader locates it (a one-liner: its line)."""
        if not self.unchecked:
            return self
        self.unchecked = False
        grid = self.valid_grid
        if clash_free(grid):
            return self
        try:
            check_givens(grid)
        except PuzzleError as error:
            self.error, self.grid = error.located(self.source, self.line), None
        return self

    def __repr__(self) -> str:
        """Where it was read, its size, givens and rules; then the grid as rows."""
        from .display import text_of
        where = f"{self.source}:{self.line}" + (f" {self.name!r}" if self.name else "")
        if self.grid is None:
            return f"<Puzzle {where}: {self.error}>"
        n, rules = self.grid.size, len(self.constraints)
        rows = text_of(self.grid, self.alphabet)
        return (f"<Puzzle {where}, {n}x{n}, {self.grid.nclues} given, {rules} "
                f"rule{'s' * (rules != 1)}>" + (f"\n{rows}" if rows else ""))

    def _repr_svg_(self) -> str | None:
        """The puzzle and its rules as a picture, for Jupyter."""
        from .display import svg_of
        if self.grid is None:
            return None
        return svg_of(self.grid, None, self.constraints, self.alphabet)

    def file_stem(self, index: int | None = None) -> str:
        """The name (without extension) of a file made for this puzzle in a folder (a
        picture, a proof): the input's name and line, ``puzzles-12``, ``arg-2`` (the second
        puzzle given inline: ``index``, by default :attr:`index`), ``stdin-3``. Two puzzles
        of one run may share a name (two inputs named alike): the writer numbers the second.

        >>> Puzzle(None, "data/top95.txt", line=12).file_stem(), Puzzle(None, "<arg>").file_stem(2)
        ('top95-12', 'arg-2')
        """
        index = self.index if index is None else index
        if not self.source:
            return f"puzzle-{index}"
        if self.source == "<arg>":
            return f"arg-{index}"
        stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", self.source.rsplit("/", 1)[-1])
        stem = re.sub(r"[^A-Za-z0-9_-]+", "", stem) or "puzzle"
        return f"{stem}-{self.line or index}"

    def check(self, solution: Grid) -> list[str]:
        """Everything wrong with ``solution``: the Sudoku rules and givens, then each rule's
        own check (:func:`satdoku.model.grid.solution_problems`)."""
        return solution_problems(solution, self.valid_grid, self.constraints)

    def is_solution(self, solution: Grid) -> bool:
        return not self.check(solution)
