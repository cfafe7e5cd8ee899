"""Sudoku as CNF: the variable mapping, the named encodings, and building the formulas.

Glossary (adds to :mod:`satdoku.model.geometry`):

- var: a positive int naming "cell holds digit": ``var(cell, d) = cell*N + d``, dense
  ``1 .. N**3``. Its inverse: ``cell = (v-1) // N``, ``d = (v-1) % N + 1``; the cell's row is
  ``cell // N``, its column ``cell % N`` (0-based). Auxiliary variables of non-pairwise
  at-most-one encodings are numbered above ``N**3``.
- lit: a var or its negation (an int, as in DIMACS and python-sat).
- clause: a list of lits, at least one of which is true.
- encoding: which constraint families make the formula (:data:`ENCODINGS`):

  ========  ===========  ==========  ===========  ============  ==========================
  name      cell >= 1    cell <= 1   house <= 1   house >= 1    variables
  ========  ===========  ==========  ===========  ============  ==========================
  minimal   yes          .           yes          .             every (cell, digit)
  natural   yes          yes         yes          .             every (cell, digit)
  extended  yes          yes         yes          yes           every (cell, digit)
  reduced   yes          yes         yes          yes           only the open pairs
  ========  ===========  ==========  ===========  ============  ==========================

  "house <= 1" is, per house and digit, at most one of the house's cells holds the digit;
  "house >= 1" is that at least one does. For 9x9 with pairwise at-most-one:
  minimal 729 vars / 8,829 clauses, natural 729 / 11,745, extended 729 / 11,988.
- reduced: the givens, then naked and hidden singles (:mod:`satdoku.native.reduce`), settle what they
  can; only the (cell, digit) pairs left open get variables, numbered densely ``1 .. V`` cell by
  cell (:attr:`ReducedFormula.var_cell` and ``var_digit`` map them back). It is what makes
  64x64 to 400x400 grids possible: the full formula has about 2 N**4 clauses.
- amo: how an at-most-one constraint becomes clauses (:data:`AMO_ENCODINGS`): ``pairwise`` (no
  new variables, k*(k-1)/2 binary clauses) or one of python-sat's cardinality encodings. The
  full encodings use :data:`DEFAULT_AMO` (pairwise) throughout; the reduced one writes lists up
  to :data:`PAIRWISE_MAX` literals pairwise and longer ones with :data:`DEFAULT_REDUCED_AMO`.

Clues go in as assumptions of an incremental solver (:func:`clue_literals`, see
:mod:`satdoku.sat.solver`: the base formula of a geometry is built once for thousands of puzzles), as
unit clauses (:func:`encode`, for DIMACS files), or are folded away (reduced). Every builder
takes a :class:`~satdoku.deadline.Deadline` and stops at it, and :func:`check_size` refuses a
formula over ``max_clauses`` before it is built. Measurements behind the choices are in
``docs/large-grids.md``.
"""

from __future__ import annotations

import functools
import itertools
import operator
from array import array
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ..deadline import NO_DEADLINE, Deadline
from ..errors import OptionError
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..model.digits import bits
from ..native.reduce import reduce_candidates
from ..budget import DEFAULT_MAX_CLAUSES, check_size

__all__ = [
    "var", "unvar", "Formula", "ReducedFormula", "Encoding", "ENCODINGS", "AMO_ENCODINGS",
    "DEFAULT_ENCODING", "DEFAULT_AMO", "DEFAULT_REDUCED_AMO", "PAIRWISE_MAX",
    "DEFAULT_MAX_CLAUSES", "check_encoding", "check_amo", "base_clauses", "encode_base",
    "encode", "reduced_formula", "clue_literals", "exclusion_clause", "formula_size",
    "check_size",
]

Clause = list[int]

DEFAULT_ENCODING = "extended"
DEFAULT_AMO = "pairwise"
DEFAULT_REDUCED_AMO = "seqcounter"

#: In the reduced encoding, at-most-one lists up to this long are pairwise, longer ones use
#: the ``amo`` cardinality encoding (the threshold of 8 was measured: docs/large-grids.md).
PAIRWISE_MAX = 8

#: Clauses handed over between two looks at the deadline while building.
_CHUNK = 20_000


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


@dataclass(frozen=True)
class Encoding:
    """A named set of constraint families (see the table in the module docstring)."""

    name: str
    description: str
    cell_amo: bool
    house_alo: bool
    reduced: bool = False


#: The encodings by name; ``extended`` is the default below 36x36, ``reduced`` from it (the
#: choice is :func:`satdoku.tasks.solvers.choose_encoding`).
ENCODINGS: dict[str, Encoding] = {
    "minimal": Encoding("minimal", "every cell has a digit; no digit twice in a house",
                        cell_amo=False, house_alo=False),
    "natural": Encoding("natural", "minimal + every cell has at most one digit",
                        cell_amo=True, house_alo=False),
    "extended": Encoding("extended", "natural + every house has every digit",
                         cell_amo=True, house_alo=True),
    "reduced": Encoding("reduced", "extended over the pairs that givens and singles leave open",
                        cell_amo=True, house_alo=True, reduced=True),
}

#: At-most-one encodings by name: None is pairwise, else python-sat's cardinality encoding.
AMO_ENCODINGS: dict[str, int | None] = {
    "pairwise": None,
    **{name: getattr(EncType, name) for name in (
        "seqcounter", "ladder", "bitwise", "totalizer", "sortnetwrk", "cardnetwrk",
        "mtotalizer", "kmtotalizer")},
}


def check_encoding(name: str) -> Encoding:
    """The :class:`Encoding` called ``name``; :class:`OptionError` naming the choices if none."""
    try:
        return ENCODINGS[name]
    except KeyError:
        raise OptionError(f"unknown encoding {name!r}; choose one of "
                          f"{', '.join(ENCODINGS)}") from None


def check_amo(name: str) -> str:
    """``name`` when it is an at-most-one encoding; :class:`OptionError` naming the choices."""
    if name not in AMO_ENCODINGS:
        raise OptionError(f"unknown at-most-one encoding {name!r}; choose one of "
                          f"{', '.join(AMO_ENCODINGS)}")
    return name


def _amo_clauses(amo: str, pool: IDPool) -> Callable[[Sequence[int]], list[Clause]]:
    """A function that writes "at most one of these lits" in the ``amo`` encoding."""
    kind = AMO_ENCODINGS[check_amo(amo)]
    if kind is None:
        # itertools and map keep the pair loop in C: this is most of the 64x64 build time.
        return lambda lits: list(map(list, itertools.combinations([-x for x in lits], 2)))
    return lambda lits: CardEnc.atmost(lits=list(lits), bound=1, vpool=pool,
                                       encoding=kind).clauses


def _amo_size(k: int, amo: str) -> int:
    """About how many clauses an at-most-one of ``k`` literals takes (exact for pairwise)."""
    if k < 2:
        return 0
    return k * (k - 1) // 2 if amo == "pairwise" else 4 * k


@dataclass
class Formula:
    """A CNF formula over the variables ``1 .. nvars`` of one geometry (full encodings).

    The variables ``1 .. N**3`` mean "cell holds digit" (:func:`var`); those above are
    auxiliary. Base formulas are shared through a cache: do not modify ``clauses``.
    """

    geometry: Geometry
    encoding: str
    amo: str
    nvars: int
    clauses: list[Clause]
    #: A variant puzzle's rules: (description, first clause, last clause), 1-based.
    parts: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def nmapped(self) -> int:
        """``N**3``: the variables that mean "cell holds digit"; the only ones decoded."""
        return self.geometry.size ** 3

    def lit(self, cell: int, d: int) -> int:
        return cell * self.geometry.size + d


def formula_size(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO) -> tuple[int, int]:
    """(variables, clauses) of the base formula, from the counting formulas (nothing built).

    Exact for pairwise at-most-one, an estimate for the others.

    >>> from satdoku.model.geometry import geometry
    >>> [formula_size(geometry(3, 3), e) for e in ("minimal", "natural", "extended")]
    [(729, 8829), (729, 11745), (729, 11988)]
    """
    enc = check_encoding(encoding)
    n = geometry.size
    groups = 3 * n * n + (n * n if enc.cell_amo else 0)
    clauses = n * n + groups * _amo_size(n, amo) + (3 * n * n if enc.house_alo else 0)
    extra = 0 if amo == "pairwise" else groups * n
    return n ** 3 + extra, clauses


def base_clauses(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO, pool: IDPool | None = None) -> Iterator[list[Clause]]:
    """The base formula of ``geometry`` (no clues) in chunks of clauses, built as they go.

    The families come in this order: cell at-least-one, cell at-most-one, house at-most-one,
    house at-least-one (those the encoding has). Auxiliary variables come from ``pool``
    (default: numbered from ``N**3 + 1``).
    """
    enc = check_encoding(encoding)
    if enc.reduced:
        raise OptionError("the reduced encoding has no base formula: it is built per puzzle")
    n = geometry.size
    pool = pool or IDPool(start_from=n ** 3 + 1)
    at_most_one = _amo_clauses(amo, pool)
    cell_lits = [list(range(cell * n + 1, cell * n + n + 1)) for cell in range(n * n)]
    yield [list(lits) for lits in cell_lits]
    chunk: list[Clause] = []
    if enc.cell_amo:
        for lits in cell_lits:
            chunk.extend(at_most_one(lits))
            if len(chunk) >= _CHUNK:
                yield chunk
                chunk = []
    for house in geometry.houses:
        for d in range(1, n + 1):
            chunk.extend(at_most_one([c * n + d for c in house]))
        if len(chunk) >= _CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
    if enc.house_alo:
        yield [[c * n + d for c in house] for house in geometry.houses for d in range(1, n + 1)]


@functools.lru_cache(maxsize=8)
def encode_base(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                amo: str = DEFAULT_AMO) -> Formula:
    """The whole base formula of ``geometry`` without clues (cached: do not modify the result).

    >>> from satdoku.model.geometry import geometry
    >>> f = encode_base(geometry(3, 3))
    >>> f.nvars, len(f.clauses)
    (729, 11988)
    """
    n3 = geometry.size ** 3
    pool = IDPool(start_from=n3 + 1)
    clauses = [c for chunk in base_clauses(geometry, encoding, amo, pool) for c in chunk]
    return Formula(geometry, encoding, amo, max(n3, pool.top), clauses)


@functools.lru_cache(maxsize=None)
def _cell_base(geometry: Geometry) -> tuple[int, ...]:
    """``var(cell, d) - d`` for every cell, in cell order."""
    n = geometry.size
    return tuple(range(0, n ** 3, n))


def clue_literals(grid: Grid) -> list[int]:
    """The variables made true by the givens of ``grid``, in cell order.

    >>> from satdoku.model.geometry import geometry
    >>> clue_literals(Grid(geometry(2, 2), (0, 3) + (0,) * 14))
    [7]
    """
    cells = grid.cells  # compress and map keep this C-level: it runs once per puzzle
    return list(map(operator.add, itertools.compress(_cell_base(grid.geometry), cells),
                    filter(None, cells)))


def exclusion_clause(grid: Grid, solution: Grid, model: list[int],
                     reduced: "ReducedFormula | None" = None) -> list[int]:
    """The clause that rules out ``solution`` of ``grid`` (found as ``model``) in a formula
    solved afresh: in the reduced formula the true variables of the model negated (each an
    open pair), in a full one the literals of the cells that are not given. Empty when no cell
    is open: then there is no other solution.

    >>> from satdoku.model.geometry import geometry
    >>> puzzle = Grid(geometry(2, 2), (1, 2, 3) + (0,) * 13)
    >>> solution = Grid(puzzle.geometry, (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))
    >>> exclusion_clause(puzzle, solution, [])[:2]  # r1c4 is not 4, or r2c1 is not 3, or ...
    [-16, -19]
    """
    if reduced is not None:
        return [-v for v in model if 0 < v <= reduced.nmapped]
    n = grid.size
    return [-(cell * n + d) for cell, (d, given) in enumerate(zip(solution.cells, grid.cells))
            if not given]


def encode(grid: Grid, encoding: str = DEFAULT_ENCODING, amo: str | None = None,
           clues: str = "units", *, max_clauses: int | None = DEFAULT_MAX_CLAUSES,
           deadline: Deadline = NO_DEADLINE, constraints: tuple = ()
           ) -> "Formula | ReducedFormula":
    """The formula of ``grid`` in ``encoding``, ready to write as DIMACS.

    Args:
        grid: the puzzle.
        encoding: a name from :data:`ENCODINGS`; ``'reduced'`` folds the clues away.
        amo: an at-most-one encoding (default :data:`DEFAULT_AMO`, or
            :data:`DEFAULT_REDUCED_AMO` for lists above :data:`PAIRWISE_MAX` when reduced).
        clues: full encodings only: ``'units'`` appends the givens as unit clauses, ``'none'``
            leaves them out (pass :func:`clue_literals` as assumptions instead).
        max_clauses: refuse (:class:`TooBigError`) a formula with more clauses.
        constraints: a variant puzzle's rules (:mod:`satdoku.rules`), appended after
            the clues with their clause ranges in ``parts`` (full encodings only).

    >>> from satdoku.model.geometry import geometry
    >>> len(encode(Grid(geometry(2, 2), (1,) + (0,) * 15)).clauses)
    449
    """
    if check_encoding(encoding).reduced:
        if constraints:
            raise OptionError("variant puzzles need a full encoding (minimal, natural or "
                              "extended), not the reduced one")
        return reduced_formula(grid, amo or DEFAULT_REDUCED_AMO, max_clauses=max_clauses,
                               deadline=deadline)
    if clues not in ("units", "none"):
        raise OptionError(f"clues must be 'units' or 'none', not {clues!r}")
    amo = amo or DEFAULT_AMO
    n = grid.size
    check_size(formula_size(grid.geometry, encoding, amo)[1], max_clauses,
               f"a {n}x{n} grid in the {encoding} encoding")
    n3 = n ** 3
    pool = IDPool(start_from=n3 + 1)
    clauses: list[Clause] = []
    for chunk in base_clauses(grid.geometry, encoding, amo, pool):
        clauses.extend(chunk)
        deadline.check()
    if clues == "units":
        clauses.extend([lit] for lit in clue_literals(grid))
    nvars, parts = max(n3, pool.top), []
    if constraints:
        from ..rules import EncodeContext, encode_constraints
        ctx = EncodeContext(grid.geometry, top=nvars)
        for constraint, group in zip(constraints, encode_constraints(constraints, ctx)):
            parts.append((constraint.describe(grid.geometry), len(clauses) + 1,
                          len(clauses) + len(group)))
            clauses.extend(group)
        nvars = ctx.top
    return Formula(grid.geometry, encoding, amo, nvars, clauses, parts)


@dataclass
class ReducedFormula:
    """A CNF over the open pairs of one puzzle (see the module docstring).

    ``var_cell[v - 1]`` and ``var_digit[v - 1]`` give the pair of variable ``v`` for
    ``v = 1 .. nmapped``; variables ``nmapped + 1 .. nvars`` are auxiliary (cardinality
    encodings). ``settled`` holds the digits known before SAT (0 for open cells);
    ``eliminated`` counts the pairs of the N**3 that got no variable and are not settled.
    When the reduction proves the puzzle unsolvable, ``clauses`` is one empty clause and
    ``contradiction`` says why; when it settles every cell there are no variables.
    """

    geometry: Geometry
    amo: str
    nvars: int
    nmapped: int
    clauses: list[Clause]
    var_cell: array
    var_digit: array
    settled: list[int]
    eliminated: int
    assigned: int
    propagated: bool
    contradiction: str | None = None
    stats: dict = field(default_factory=dict)
    encoding = "reduced"

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
        """The variable of (cell, d), or True / False when the reduction decided it."""
        if self.settled[cell]:
            return self.settled[cell] == d
        v = self.first_var[cell]
        while v <= self.nmapped and self.var_cell[v - 1] == cell:
            if self.var_digit[v - 1] == d:
                return v
            v += 1
        return False


def reduced_formula(grid: Grid, amo: str = DEFAULT_REDUCED_AMO, propagate: bool = True,
                    pairwise_max: int = PAIRWISE_MAX, locked: bool = False, *,
                    max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                    deadline: Deadline = NO_DEADLINE) -> ReducedFormula:
    """The reduced CNF of ``grid``: variables only for open pairs, clues folded away.

    Args:
        grid: the puzzle (givens already checked for clashes).
        amo: the cardinality encoding for at-most-one lists longer than ``pairwise_max``
            (``'pairwise'`` makes every list pairwise).
        propagate: apply naked and hidden singles before encoding
            (:func:`satdoku.native.reduce.reduce_candidates`).
        pairwise_max: the longest at-most-one list written pairwise.
        locked: with ``propagate``, also apply locked candidates.
        max_clauses: refuse (:class:`TooBigError`) a formula with more clauses; the size is
            known exactly once the reduction is done, before any clause is built.
        deadline: stop (:class:`~satdoku.deadline.TimeUp`) when it passes.

    >>> from satdoku.model.geometry import geometry
    >>> f = reduced_formula(Grid(geometry(1, 2), (1, 0, 0, 0)), propagate=False)
    >>> f.nmapped, f.eliminated, [f.pair(v) for v in range(1, 5)]
    (4, 3, [(1, 2), (2, 2), (3, 1), (3, 2)])
    """
    import time
    check_amo(amo)
    t0 = time.perf_counter()
    red = reduce_candidates(grid, propagate, locked, deadline=deadline,
                            max_clauses=max_clauses)
    t1 = time.perf_counter()
    geo = grid.geometry
    n = geo.size
    cells, cand = red.cells, red.cand
    if red.contradiction is not None:
        return ReducedFormula(geo, amo, 0, 0, [[]], array("i"), array("i"), cells, n ** 3,
                              red.assigned, propagate, red.contradiction,
                              {"propagate_ms": (t1 - t0) * 1000})
    var_cell, var_digit = array("i"), array("i")
    cell_groups: list[range] = []
    # house_lits[h * n + d - 1]: the vars of digit d in the open cells of house h, in order
    house_lits: dict[int, list[int]] = {}
    get = house_lits.get
    cell_houses = geo.cell_houses
    v = 0
    for cell, d in enumerate(cells):
        if d:
            continue
        digits = bits(cand[cell])
        lits = range(v + 1, v + 1 + len(digits))
        v += len(digits)
        var_cell.extend([cell] * len(digits))
        var_digit.extend(digits)
        cell_groups.append(lits)
        a, b, c = cell_houses[cell]
        for lit, dd in zip(lits, digits):
            for key in (a * n + dd - 1, b * n + dd - 1, c * n + dd - 1):
                lst = get(key)
                if lst is None:
                    house_lits[key] = [lit]
                else:
                    lst.append(lit)
        if not v & 0xFFF:
            deadline.check()
    nmapped = v

    def amo_size(k: int) -> int:
        return _amo_size(k, "pairwise" if k <= pairwise_max else amo)

    size = (len(cell_groups) + len(house_lits)
            + sum(amo_size(len(g)) for g in cell_groups)
            + sum(amo_size(len(g)) for g in house_lits.values()))
    check_size(size, max_clauses, f"the reduced formula of this {n}x{n} puzzle")
    pool = IDPool(start_from=nmapped + 1)
    long_amo = _amo_clauses(amo, pool)
    pairwise = _amo_clauses("pairwise", pool)
    clauses: list[Clause] = [list(lits) for lits in cell_groups]
    for k, lits in enumerate(itertools.chain(cell_groups, house_lits.values())):
        if k >= len(cell_groups):
            clauses.append(lits)
        if len(lits) > 1:
            clauses.extend(pairwise(lits) if len(lits) <= pairwise_max else long_amo(lits))
        if not k & 0x3FF:
            deadline.check()
    # Without propagation a house-digit with no open place and no settled cell, or an open
    # cell without candidates, is a contradiction the clauses alone would not show.
    contradiction = None if propagate else _unplaceable(geo, cells, cand, house_lits)
    if contradiction:
        clauses.append([])
    settled_pairs = sum(1 for d in cells if d)
    t2 = time.perf_counter()
    return ReducedFormula(geo, amo, max(nmapped, pool.top), nmapped, clauses, var_cell,
                          var_digit, cells, n ** 3 - nmapped - settled_pairs, red.assigned,
                          propagate, contradiction,
                          {"propagate_ms": (t1 - t0) * 1000, "clauses_ms": (t2 - t1) * 1000})


def _unplaceable(geo: Geometry, cells: list[int], cand: list[int],
                 house_lits: dict[int, list[int]]) -> str | None:
    """What makes an unpropagated reduction unsolvable at once, or None."""
    n = geo.size
    placed = [0] * (3 * n)
    for cell, d in enumerate(cells):
        if d:
            for h in geo.cell_houses[cell]:
                placed[h] |= 1 << (d - 1)
    for h in range(3 * n):
        for d in bits(((1 << n) - 1) & ~placed[h]):
            if (h * n + d - 1) not in house_lits:
                return f"{geo.house_name(h)} has no place left for {d}"
    for cell, d in enumerate(cells):
        if not d and not cand[cell]:
            return f"{geo.cell_name(cell)} has no candidate left"
    return None
