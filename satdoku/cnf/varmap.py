"""The one variable map: "cell holds digit" to a variable and back, for every formula.

Every encoder, decoder, engine and DIMACS writer goes through a :class:`VarMap` (as PySAT's
``IDPool`` maps objects to ids): :meth:`~VarMap.lit` names the literal of a (cell, digit) pair,
:meth:`~VarMap.decode` reads a solver's model back into a grid, :meth:`~VarMap.read` does so
strictly for models from outside, :meth:`~VarMap.blocking` and :meth:`~VarMap.exclusion` write
the clauses that rule a solution out, and :meth:`~VarMap.comments` says in DIMACS comments how
to decode by hand.

- :class:`FullMap` (one per geometry, :func:`full_map`): ``var(cell, d) = cell*N + d``, dense
  ``1 .. N**3``; clues are assumptions or unit clauses.
- :class:`ReducedMap` (one per puzzle): only the pairs left open by the givens and singles get
  variables, numbered ``1 .. V`` cell by cell; a settled pair is ``True``, a pair ruled out
  ``False`` (:mod:`satdoku.cnf.reduced`).

The fast paths (decoding a model in one list comprehension, assumptions through
``itertools.compress``) live here, measured once: a 9x9 decode costs about 5 us.
"""

from __future__ import annotations

import functools
import itertools
import operator
from array import array

from ..errors import ModelError
from ..model.geometry import Geometry
from ..model.grid import Grid

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Iterable, Sequence

__all__ = ["VarMap", "FullMap", "ReducedMap", "full_map", "clue_literals"]


class VarMap:
    """What every variable map offers (see the module docstring)."""

    geometry: Geometry
    #: Variables ``1 .. nmapped`` describe cells; any above them are auxiliary.
    nmapped: int

    def lit(self, cell: int, d: int) -> int | bool:
        """The variable of "``cell`` holds ``d``", or True / False when that is decided."""
        raise NotImplementedError

    def cell_vars(self, cell: int) -> list[int]:
        """The variables of ``cell``'s pairs that are not decided, digits increasing (none
        for a settled cell)."""
        raise NotImplementedError

    def clue_literals(self, grid: Grid) -> list[int]:
        """The literals the givens of ``grid`` make true (none when they are folded away)."""
        raise NotImplementedError

    def decode(self, model: Sequence[int]) -> Grid:
        """The grid of a model from a python-sat solver of this formula (trusted: complete,
        one true digit per cell)."""
        raise NotImplementedError

    def read(self, model: Iterable[int]) -> Grid:
        """The grid of a model from outside (a solver binary, a file), checked: ModelError
        naming the cell when a cell has no true digit or several, or a variable is missing."""
        raise NotImplementedError

    def blocking(self, solution: Grid, grid: Grid) -> list[int]:
        """The clause "not ``solution``" over the cells ``grid`` leaves open (empty: none is
        open, so there is no other solution)."""
        raise NotImplementedError

    def exclusion(self, solution: Grid) -> list[int]:
        """The clause "not this complete grid" over every mapped cell."""
        raise NotImplementedError

    def comments(self) -> list[str]:
        """Lines (without ``c``) that tell a person how to decode a model of this map."""
        raise NotImplementedError


class FullMap(VarMap):
    """``var(cell, d) = cell*N + d`` over every pair of one geometry (use :func:`full_map`)."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        n = self.size = geometry.size
        self.nmapped = geometry.ncells * n  # N**3 on an N x N grid
        # digit_of[v] for v = 1..N**3: decoding is one slice and one lookup per true variable.
        self.digit_of = [0] + list(range(1, n + 1)) * geometry.ncells
        self.cellbase = tuple(range(0, self.nmapped, n))  # var(cell, d) - d, in cell order
        self.negbase = tuple(-v for v in self.cellbase)  # -var(cell, d) = negbase[cell] - d

    def lit(self, cell: int, d: int) -> int:
        return cell * self.size + d

    def cell_vars(self, cell: int) -> list[int]:
        return list(range(cell * self.size + 1, cell * self.size + self.size + 1))

    def clue_literals(self, grid: Grid) -> list[int]:
        """The variables the givens make true, in cell order.

        >>> from satdoku.model.geometry import geometry
        >>> full_map(geometry(2, 2)).clue_literals(Grid(geometry(2, 2), (0, 3) + (0,) * 14))
        [7]
        """
        cells = grid.cells  # compress and map keep this C-level: it runs once per puzzle
        return list(map(operator.add, itertools.compress(self.cellbase, cells),
                        filter(None, cells)))

    def decode(self, model: Sequence[int]) -> Grid:
        # Measured (instructions, 9x9): this list comprehension 137k, map/filter with
        # (0).__lt__ 301k, compress over map(operator.lt) 212k.
        digit_of = self.digit_of
        if len(model) > self.nmapped:  # activation literals follow the cell variables
            model = model[:self.nmapped]
        return Grid(self.geometry, tuple([digit_of[v] for v in model if v > 0]))

    def read(self, model: Iterable[int]) -> Grid:
        """The checked grid of a model; only variables ``1 .. N**3`` are read.

        >>> from satdoku.model.geometry import geometry
        >>> full_map(geometry(1, 1)).read([1]).cells
        (1,)
        """
        geometry, n, n3 = self.geometry, self.size, self.nmapped
        value = bytearray(n3 + 1)  # 0 unknown, 1 false, 2 true
        for lit in model:
            v = lit if lit > 0 else -lit
            if v <= n3:
                value[v] = 2 if lit > 0 else 1
        if 0 in value[1:]:
            v = value.index(0, 1)
            cell, d0 = divmod(v - 1, n)
            given = sum(1 for x in value[1:] if x)
            raise ModelError(f"the model gives no value to variable {v} "
                             f"({geometry.cell_name(cell)}, digit {d0 + 1}); it sets {given} of "
                             f"the {n3} variables (a model of another puzzle size?)")
        cells = []
        for cell in range(geometry.ncells):
            true = [d for d in range(1, n + 1) if value[cell * n + d] == 2]
            if len(true) != 1:
                raise ModelError(_problem(true), cell=geometry.cell_name(cell))
            cells.append(true[0])
        return Grid(geometry, tuple(cells))

    def blocking(self, solution: Grid, grid: Grid) -> list[int]:
        # From the decoded cells: 3 us on 9x9, against 11 us for the same list from the model.
        return list(itertools.compress(map(operator.sub, self.negbase, solution.cells),
                                       map(operator.not_, grid.cells)))

    def exclusion(self, solution: Grid) -> list[int]:
        return list(map(operator.sub, self.negbase, solution.cells))

    def comments(self) -> list[str]:
        n, w = self.size, self.geometry.width
        return [f"variable v = cell*{n} + d means 'cell holds digit d' (cells "
                f"0..{self.geometry.ncells - 1} row by row, digits 1..{n}, v = 1..{self.nmapped})",
                f"decoding: cell = (v-1) // {n}, digit = (v-1) % {n} + 1, "
                f"row = cell // {w} + 1, column = cell % {w} + 1"] + [
                f"cells {self.geometry.ngrid}.. are outside the grid, in order: "
                f"{' '.join(self.geometry.extra)}"] * bool(self.geometry.extra)

    def __repr__(self) -> str:
        return f"FullMap({self.geometry!r})"


@functools.lru_cache(maxsize=None)
def full_map(geometry: Geometry) -> FullMap:
    """The :class:`FullMap` of ``geometry`` (one per geometry, shared)."""
    return FullMap(geometry)


def clue_literals(grid: Grid) -> list[int]:
    """The variables the givens of ``grid`` make true in a full formula, in cell order."""
    return full_map(grid.geometry).clue_literals(grid)


class ReducedMap(VarMap):
    """The open pairs of one puzzle: ``var_cell[v - 1]`` and ``var_digit[v - 1]`` are the pair
    of variable ``v`` (consecutive for one cell, digits increasing); ``settled[cell]`` is the
    digit known before SAT (0 for an open cell)."""

    def __init__(self, geometry: Geometry, var_cell: array, var_digit: array,
                 settled: list[int]) -> None:
        self.geometry = geometry
        self.var_cell, self.var_digit, self.settled = var_cell, var_digit, settled
        self.nmapped = len(var_cell)

    def pair(self, v: int) -> tuple[int, int]:
        """(cell, digit) of mapped variable ``v``."""
        return self.var_cell[v - 1], self.var_digit[v - 1]

    @functools.cached_property
    def first_var(self) -> dict[int, int]:
        """Open cell -> its first variable (its candidates' variables are consecutive)."""
        out: dict[int, int] = {}
        for v, cell in enumerate(self.var_cell, 1):
            out.setdefault(cell, v)
        return out

    def lit(self, cell: int, d: int) -> int | bool:
        if self.settled[cell]:
            return self.settled[cell] == d
        v = self.first_var.get(cell)
        while v is not None and v <= self.nmapped and self.var_cell[v - 1] == cell:
            if self.var_digit[v - 1] == d:
                return v
            v += 1
        return False

    def cell_vars(self, cell: int) -> list[int]:
        """The cell's variables: consecutive from its first (a few, where :meth:`lit` looks
        through them for one digit).

        >>> from satdoku.model.geometry import geometry
        >>> m = ReducedMap(geometry(1, 2), array("i", [1, 1, 3]), array("i", [1, 2, 2]),
        ...                [2, 0, 0, 0])
        >>> m.cell_vars(0), m.cell_vars(1), m.cell_vars(3)
        ([], [1, 2], [3])
        """
        v = self.first_var.get(cell)
        if v is None:
            return []
        out = []
        while v <= self.nmapped and self.var_cell[v - 1] == cell:
            out.append(v)
            v += 1
        return out

    def clue_literals(self, grid: Grid) -> list[int]:
        return []

    def decode(self, model: Sequence[int]) -> Grid:
        cells = list(self.settled)
        var_cell, var_digit = self.var_cell, self.var_digit
        for lit in model[:self.nmapped]:
            if lit > 0:
                cells[var_cell[lit - 1]] = var_digit[lit - 1]
        return Grid(self.geometry, tuple(cells))

    def read(self, model: Iterable[int]) -> Grid:
        """The checked grid: settled digits plus the true mapped variables. Only variables
        ``1 .. nmapped`` are read (CaDiCaL reports variables in no clause as true), and the
        model must set every one of them."""
        cells = list(self.settled)
        var_cell, var_digit = self.var_cell, self.var_digit
        mapped = 0
        for lit in model:
            v = abs(lit)
            if v > self.nmapped:
                continue
            mapped += 1
            if lit > 0:
                cell = var_cell[v - 1]
                if cells[cell]:
                    raise ModelError(f"digits {cells[cell]} and {var_digit[v - 1]} are both "
                                     "true", cell=self.geometry.cell_name(cell))
                cells[cell] = var_digit[v - 1]
        if mapped < self.nmapped:
            raise ModelError(f"the model sets {mapped} of the {self.nmapped} variables of this "
                             "puzzle's reduced CNF (a model of another puzzle?)")
        if 0 in cells:
            raise ModelError("no digit is true in the model",
                             cell=self.geometry.cell_name(cells.index(0)))
        return Grid(self.geometry, tuple(cells))

    def blocking(self, solution: Grid, grid: Grid) -> list[int]:
        return self.exclusion(solution)

    def exclusion(self, solution: Grid) -> list[int]:
        out = []
        for cell, d in enumerate(solution.cells):
            if not self.settled[cell]:
                v = self.lit(cell, d)
                if v is False:  # a solution outside the open pairs: nothing to rule out
                    return []
                out.append(-v)
        return out

    def comments(self) -> list[str]:
        return [f"mapping: variables 1..{self.nmapped}, one line per open cell: "
                "'c cell rRcC vars FIRST-LAST digits D...' (consecutive vars, digits in order)"]

    def mapping_lines(self) -> Iterable[str]:
        """``cell rRcC vars A-B digits ...``: one line per open cell (without ``c``)."""
        geo, var_cell, var_digit = self.geometry, self.var_cell, self.var_digit
        v, total = 1, self.nmapped
        while v <= total:
            cell = var_cell[v - 1]
            w = v
            while w < total and var_cell[w] == cell:
                w += 1
            span = f"{v}" if w == v else f"{v}-{w}"
            yield (f"cell {geo.cell_name(cell)} vars {span} digits "
                   f"{' '.join(map(str, var_digit[v - 1:w]))}")
            v = w + 1


def _problem(true: list[int]) -> str:
    if not true:
        return "no digit is true in the model"
    return (f"digits {', '.join(map(str, true[:-1]))} and {true[-1]} are "
            f"{'both ' if len(true) == 2 else 'all '}true")
