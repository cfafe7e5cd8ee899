"""The reduced encoding for large grids: only the (cell, digit) pairs the givens leave open.

The full formula of an N x N grid has N**3 variables and about 2 N**4 clauses: 4 billion pairwise
clauses at 400 x 400. Most of it is decided by the givens anyway, so here the givens (and, by
default, everything that naked and hidden singles settle) are folded away first and the formula is
written over what is left.

Glossary (adds to :mod:`satdoku.geometry` and :mod:`satdoku.encode`):

- candidates: the digits a cell may still take, as an int bitmask (bit ``d - 1`` for digit ``d``).
- settled: a cell whose digit is known before SAT: a given, or one that propagation assigned.
- open pair: a (cell, digit) of an unsettled cell with ``d`` among its candidates. Each open pair
  gets a variable, numbered densely ``1 .. V`` cell by cell, digits in increasing order;
  :attr:`ReducedFormula.var_cell` / :attr:`ReducedFormula.var_digit` map a var back.
- eliminated: the pairs of the N**3 that got no variable (settled cells' other digits included,
  the settled digits themselves not).

Clauses, per open cell and per (house, digit) whose digit is not settled in the house: at least
one of its open pairs, and at most one of them. At-most-one is pairwise for lists of up to
:data:`PAIRWISE_MAX` literals and python-sat's cardinality encoding ``amo`` (default sequential
counter, auxiliary variables above ``V``) for longer ones.

Roads not taken:

- Reusing :mod:`satdoku.search` for propagation: it wants a peer table (gigabytes at 400 x 400)
  or walks full houses. Here each house keeps a list of its open cells, compacted as cells
  settle, so an assignment costs the few open cells left rather than 3 N.
- Clues as assumptions of one incremental solver per geometry (:mod:`satdoku.sat`): the full
  formula does not fit in memory past about 100 x 100; a fresh small formula per puzzle does.

What makes rkkautsar 64-1 and 225-1 hard (measured on a loaded 2-core machine, CPU seconds, the
Debian ``cadical`` binary on exported CNF unless named): a few nearly empty lines in an otherwise
dense grid. 64-1 has six rows with 2 clues each (1, 14, 27, 36, 49, 62); with any two of them
filled from a solution, cadical195 solves the rest in 0.8 s (3,116 conflicts), with three in
0.26 s, with all six singles alone do; with one filled it still times out at 15 s. So the
difficulty is choosing those rows, and CDCL meets it as pigeonhole-like (matching) conflicts.
None of the following brought 64-1 under 10 s, so none is on by default:

- Locked candidates (``locked=True``): 64-1 12,777 -> 12,291 open pairs, 225-1 218,430 ->
  212,742, but both still time out at 30 s, and the easy files lose 0.1-0.4 s to the pass
  (scripts/bench_large.py --locked).
- Alldiff filtering at the root (Regin: drop pairs in no perfect matching of a house, and per
  digit rows against columns): 64-1 -> 11,928 pairs, 81-1 solved outright but in 4.5 s of
  Python (SAT takes 1 s); 64-1 unchanged in difficulty.
- Failed-literal probing with the SAT solver's unit propagation (``propagate([lit])`` per open
  pair, to a fixed point): 842 pairs go on 64-1 in 0.6 s, 15,225 on 225-1 in 75 s; 64-1 still
  ~20 s, 225-1 not solved in 220 s.
- rkkautsar/sudoku-solver's encoding (MIT; full N**3 variables with units, exactly-one with
  pairwise up to 5, commander up to 10, bimander above): 67.8 s, 138,031 conflicts on 64-1,
  the same as ours (~69 s). Its reported 0.4 s must be a lucky run.
- Segment variables y(line, box, digit) with exactly-one per line and per box in the band:
  18.3 s once, but seeds 1-3 over 20 s.
- CaDiCaL settings: seeds 1-7, ``--sat``, ``--unsat``, ``--phase=0``, ``--stabilize=0``,
  ``--stabilizeonly``, ``--walk=0``, ``--elim=0``, variable order (sparse rows first or last,
  ``--reverse``): one solve under 20 s (seed 2, 15 s), the rest over 10-25 s. python-sat's
  lingeling, mergesat3 and minicard: over 25 s.
"""

from __future__ import annotations

import itertools
import threading
import time
from array import array
from dataclasses import dataclass, field
from typing import Sequence, TextIO

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from .encode import write_clauses
from .errors import SolverError
from .geometry import Geometry
from .grid import Grid
from .result import Result, counted_status

__all__ = [
    "Reduction", "ReducedFormula", "ReducedSatSolver", "reduce_candidates", "reduced_formula",
    "write_reduced_dimacs", "decode_reduced", "PAIRWISE_MAX", "DEFAULT_REDUCED_SAT_SOLVER",
    "SizeSwitchSolver", "REDUCED_MIN_SIZE",
]

#: At-most-one lists up to this long are pairwise; longer ones use a cardinality encoding.
#: Measured end to end (scripts/bench_large.py, loaded 2-core machine, seconds for 81-1 / 100-1):
#: 4: 3.6 / 0.8, 8: 1.1 / 0.6, 16: 1.35 / 1.05, 64 (all pairwise): 2.9 / 0.9. Below 8 the
#: solver works harder; above it the clauses (and loading them, ~2 us each from Python) grow.
PAIRWISE_MAX = 8

#: Grids at least this big use the reduced encoding when no encoding is named: from 36 x 36 the
#: full formula (N**3 variables, ~2 N**4 clauses, 3.3 million at 36) costs seconds to build and
#: hundreds of MB, while the givens of real puzzles leave a few thousand open pairs.
REDUCED_MIN_SIZE = 36

#: Solver for the reduced formula when none is named.
DEFAULT_REDUCED_SAT_SOLVER = "cadical195"

#: Conflicts between two looks at the clock for solvers without interrupt() (CaDiCaL).
_CONFLICT_SLICE = 2000

_AMO_TYPES = {"seqcounter": EncType.seqcounter, "ladder": EncType.ladder,
              "totalizer": EncType.totalizer, "bitwise": EncType.bitwise,
              "cardnetwrk": EncType.cardnetwrk, "sortnetwrk": EncType.sortnetwrk,
              "mtotalizer": EncType.mtotalizer, "kmtotalizer": EncType.kmtotalizer}


@dataclass
class Reduction:
    """Candidates after folding the givens (and optionally singles) away.

    ``cells[i]`` is the settled digit of cell ``i`` or 0; ``cand[i]`` its candidate bitmask (one
    bit for a settled cell). ``contradiction`` names what went wrong when the puzzle has no
    solution (then the other fields are partial).
    """

    geometry: Geometry
    cells: list[int]
    cand: list[int]
    assigned: int = 0
    contradiction: str | None = None


def _bits(mask: int) -> list[int]:
    """The digits (1-based) of a candidate bitmask, increasing."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def reduce_candidates(grid: Grid, propagate: bool = True,
                      locked: bool = False) -> Reduction:
    """The candidates of every cell once the givens are removed from their houses.

    With ``propagate``, naked singles (one candidate left) and hidden singles (one place left for
    a digit in a house) are applied to a fixed point; every such step is implied by the givens,
    so no solution is lost and the count of solutions is unchanged. With ``locked`` too, each
    time singles stall a pass of locked candidates (pointing and claiming, see
    :func:`_locked_pass`) runs, and singles resume if it removed anything.

    >>> from satdoku.geometry import geometry
    >>> r = reduce_candidates(Grid(geometry(1, 2), (1, 0, 0, 0)))
    >>> r.cells, r.assigned
    ([1, 2, 2, 1], 3)
    """
    geo = grid.geometry
    n = geo.size
    full = (1 << n) - 1
    houses, cell_houses = geo.houses, geo.cell_houses
    cells = list(grid.cells)
    placed = [0] * (3 * n)
    for h, house in enumerate(houses):
        m = 0
        for d in map(cells.__getitem__, house):
            if d:
                m |= 1 << (d - 1)
        placed[h] = m
    cand = [0] * len(cells)
    queue: list[int] = []
    red = Reduction(geo, cells, cand)
    for cell, d in enumerate(cells):
        if d:
            cand[cell] = 1 << (d - 1)
            continue
        a, b, c = cell_houses[cell]
        m = full & ~(placed[a] | placed[b] | placed[c])
        cand[cell] = m
        if not m & (m - 1):
            queue.append(cell)
    if not propagate:
        for cell in queue:
            if not cand[cell]:
                red.contradiction = f"{geo.cell_name(cell)} has no candidate left"
                break
        return red
    # holders[h * n + d - 1]: the open cells of house h that had candidate d when propagation
    # started (later some lose it: look at cand). Walking these instead of whole houses keeps
    # the work per assignment to the few cells concerned; with 400-bit masks every ``&`` costs.
    # places[...]: how many of those still have d.
    holders: list[list[int]] = [[] for _ in range(3 * n * n)]
    for cell, d in enumerate(cells):
        if d:
            continue
        a, b, c = cell_houses[cell]
        a, b, c = a * n - 1, b * n - 1, c * n - 1
        x = cand[cell]
        while x:
            low = x & -x
            e = low.bit_length()
            holders[a + e].append(cell)
            holders[b + e].append(cell)
            holders[c + e].append(cell)
            x ^= low
    places = list(map(len, holders))
    hidden = [h * n + d - 1 for h in range(3 * n) for d in _bits(full & ~placed[h])]
    assigned = 0
    open_cells = sum(1 for d in cells if not d)

    def eliminate(c: int, bit: int, d0: int) -> None:
        """Take digit ``d0 + 1`` (``bit``) from open cell ``c``; queue what becomes single."""
        x = cand[c] ^ bit
        cand[c] = x
        if not x & (x - 1):
            queue.append(c)
        for k in cell_houses[c]:
            k = k * n + d0
            places[k] -= 1
            if places[k] < 2:
                hidden.append(k)

    while True:
        while queue or hidden:
            while queue:
                cell = queue.pop()
                if cells[cell]:
                    continue
                m = cand[cell]
                if not m:
                    red.contradiction = f"{geo.cell_name(cell)} has no candidate left"
                    return red
                d = m.bit_length()
                cells[cell] = d
                assigned += 1
                hs = cell_houses[cell]
                for h in hs:
                    if placed[h] & m:
                        red.contradiction = (f"{geo.cell_name(cell)}: {d} would repeat in "
                                             f"{geo.house_name(h)}")
                        return red
                    placed[h] |= m
                for h in hs:
                    # A settled cell other than ``cell`` holding d would have failed the check
                    # above, so the hits are ``cell`` and the open cells that lose d.
                    for c in holders[h * n + d - 1]:
                        x = cand[c]
                        if c == cell or not x & m:
                            continue
                        x ^= m
                        cand[c] = x
                        if not x & (x - 1):
                            queue.append(c)
                        # c's houses have one place fewer for d
                        for k in cell_houses[c]:
                            k = k * n + d - 1
                            places[k] -= 1
                            if places[k] < 2:
                                hidden.append(k)
            while hidden and not queue:
                k = hidden.pop()
                h, d0 = divmod(k, n)
                bit = 1 << d0
                if placed[h] & bit or places[k] > 1:
                    continue
                if not places[k]:
                    red.contradiction = f"{geo.house_name(h)} has no place left for {d0 + 1}"
                    return red
                for c in holders[k]:
                    x = cand[c]
                    if x & bit and not cells[c]:
                        if x != bit:
                            cand[c] = bit
                            # c's other digits lose a place in each of c's houses
                            x ^= bit
                            while x:
                                low = x & -x
                                e = low.bit_length() - 1
                                for k2 in cell_houses[c]:
                                    k2 = k2 * n + e
                                    places[k2] -= 1
                                    if places[k2] < 2:
                                        hidden.append(k2)
                                x ^= low
                        queue.append(c)
                        break
        if not locked or assigned == open_cells or not _locked_pass(
                geo, cells, cand, placed, holders, eliminate):
            break
    red.assigned = assigned
    return red


def _locked_pass(geo: Geometry, cells: list[int], cand: list[int], placed: list[int],
                 holders: list[list[int]], eliminate) -> int:
    """One pass of locked candidates over every (house, digit); returns how many pairs went.

    Pointing: the places of a digit in a box all in one row (column) take it from the rest of
    that line. Claiming: its places in a line all in one box take it from the rest of the box.
    ``holders`` lists are compacted to their live cells on the way.
    """
    n = geo.size
    full = (1 << n) - 1
    cell_houses = geo.cell_houses
    removed = 0
    for h in range(3 * n):
        free = full & ~placed[h]
        is_box = h >= 2 * n
        while free:
            bit = free & -free
            free ^= bit
            d0 = bit.bit_length() - 1
            k = h * n + d0
            live = [c for c in holders[k] if cand[c] & bit and not cells[c]]
            holders[k] = live
            if len(live) < 2:
                continue  # a hidden single (or a contradiction) the singles loop sees
            if is_box:
                row, col = divmod(live[0], n)
                if all(c // n == row for c in live):
                    line = row
                elif all(c % n == col for c in live):
                    line = n + col
                else:
                    continue
                targets = [c for c in holders[line * n + d0] if cell_houses[c][2] != h]
            else:
                box = cell_houses[live[0]][2]
                if any(cell_houses[c][2] != box for c in live):
                    continue
                targets = [c for c in holders[box * n + d0] if h not in cell_houses[c]]
            for c in targets:
                if cand[c] & bit and not cells[c]:
                    eliminate(c, bit, d0)
                    removed += 1
    return removed


@dataclass
class ReducedFormula:
    """A CNF over the open pairs of one puzzle (see the module docstring).

    ``var_cell[v - 1]`` and ``var_digit[v - 1]`` give the pair of variable ``v`` for
    ``v = 1 .. nmapped``; variables ``nmapped + 1 .. nvars`` are auxiliary (cardinality
    encodings). ``settled`` holds the digits known before SAT (0 for open cells).
    """

    geometry: Geometry
    amo: str
    nvars: int
    nmapped: int
    clauses: list[list[int]]
    var_cell: array
    var_digit: array
    settled: list[int]
    eliminated: int
    assigned: int
    propagated: bool
    contradiction: str | None = None
    stats: dict = field(default_factory=dict)

    @property
    def encoding(self) -> str:
        return "reduced"

    def pair(self, v: int) -> tuple[int, int]:
        """(cell, digit) of mapped variable ``v``."""
        return self.var_cell[v - 1], self.var_digit[v - 1]


def _amo_builder(amo: str, pool: IDPool):
    if amo == "pairwise":
        return None
    try:
        enc = _AMO_TYPES[amo]
    except KeyError:
        raise ValueError(f"unknown at-most-one encoding {amo!r} for the reduced encoding; choose "
                         f"pairwise or one of {', '.join(_AMO_TYPES)}") from None

    def build(lits: list[int]) -> list[list[int]]:
        return CardEnc.atmost(lits=lits, bound=1, vpool=pool, encoding=enc).clauses
    return build


def reduced_formula(grid: Grid, amo: str = "seqcounter", propagate: bool = True,
                    pairwise_max: int = PAIRWISE_MAX, locked: bool = False) -> ReducedFormula:
    """The reduced CNF of ``grid``: variables only for open pairs, clues folded away.

    Args:
        grid: the puzzle (givens already checked for clashes).
        amo: the cardinality encoding for at-most-one lists longer than ``pairwise_max``
            (``'pairwise'`` makes every list pairwise).
        propagate: apply naked and hidden singles before encoding (see
            :func:`reduce_candidates`).
        pairwise_max: the longest at-most-one list written pairwise.
        locked: with ``propagate``, also apply locked candidates (see
            :func:`reduce_candidates`).

    Returns:
        A :class:`ReducedFormula`. When propagation proves the puzzle unsolvable it holds one
        empty clause and ``contradiction`` says why; when it settles every cell it has no
        variables and no clauses.

    >>> from satdoku.geometry import geometry
    >>> f = reduced_formula(Grid(geometry(1, 2), (1, 0, 0, 0)), propagate=False)
    >>> f.nmapped, f.eliminated, [f.pair(v) for v in range(1, 5)]
    (4, 3, [(1, 2), (2, 2), (3, 1), (3, 2)])
    """
    t0 = time.perf_counter()
    red = reduce_candidates(grid, propagate, locked)
    t1 = time.perf_counter()
    geo = grid.geometry
    n = geo.size
    cells, cand = red.cells, red.cand
    if red.contradiction is not None:
        return ReducedFormula(geo, amo, 0, 0, [[]], array("i"), array("i"), cells, n ** 3,
                              red.assigned, propagate, red.contradiction,
                              {"propagate_ms": (t1 - t0) * 1000})
    var_cell, var_digit = array("i"), array("i")
    cell_first: dict[int, int] = {}
    clauses: list[list[int]] = []
    v = 0
    # house_lits[(h * n + d - 1)]: the vars of digit d in the open cells of house h, in order
    house_lits: dict[int, list[int]] = {}
    get = house_lits.get
    cell_houses = geo.cell_houses
    for cell, d in enumerate(cells):
        if d:
            continue
        digits = _bits(cand[cell])
        first = v + 1
        cell_first[cell] = first
        lits = list(range(first, first + len(digits)))
        v += len(digits)
        var_cell.extend([cell] * len(digits))
        var_digit.extend(digits)
        clauses.append(lits)
        a, b, c = cell_houses[cell]
        for lit, dd in zip(lits, digits):
            for key in (a * n + dd - 1, b * n + dd - 1, c * n + dd - 1):
                lst = get(key)
                if lst is None:
                    house_lits[key] = [lit]
                else:
                    lst.append(lit)
    nmapped = v
    pool = IDPool(start_from=nmapped + 1)
    build = _amo_builder(amo, pool)
    combinations = itertools.combinations

    def at_most_one(lits: list[int]) -> None:
        if len(lits) <= pairwise_max or build is None:
            clauses.extend(map(list, combinations([-x for x in lits], 2)))
        else:
            clauses.extend(build(lits))

    for cell in cell_first:
        first = cell_first[cell]
        k = cand[cell].bit_count()
        if k > 1:
            at_most_one(list(range(first, first + k)))
    for lits in house_lits.values():
        clauses.append(lits)
        if len(lits) > 1:
            at_most_one(lits)
    # a house-digit that is not settled and has no open pair left makes the puzzle unsolvable
    # (only possible without propagation, which reports it as a contradiction)
    contradiction = None
    if not propagate:
        placed = [0] * (3 * n)
        for cell, d in enumerate(cells):
            if d:
                for h in cell_houses[cell]:
                    placed[h] |= 1 << (d - 1)
        full = (1 << n) - 1
        for h in range(3 * n):
            missing = full & ~placed[h]
            for dd in _bits(missing):
                if (h * n + dd - 1) not in house_lits:
                    contradiction = f"{geo.house_name(h)} has no place left for {dd}"
                    clauses.append([])
                    break
            if contradiction:
                break
        if contradiction is None and red.contradiction is None:
            for cell in cell_first:
                if not cand[cell]:
                    contradiction = f"{geo.cell_name(cell)} has no candidate left"
                    clauses.append([])
                    break
    open_pairs = nmapped
    settled_pairs = sum(1 for d in cells if d)
    t2 = time.perf_counter()
    return ReducedFormula(geo, amo, max(nmapped, pool.top), nmapped, clauses, var_cell,
                          var_digit, cells, n ** 3 - open_pairs - settled_pairs, red.assigned,
                          propagate, contradiction,
                          {"propagate_ms": (t1 - t0) * 1000, "clauses_ms": (t2 - t1) * 1000})


def decode_reduced(formula: ReducedFormula, model: Sequence[int]) -> Grid:
    """The grid a model of ``formula`` describes: settled digits plus the true mapped vars.

    Only variables ``1 .. nmapped`` are read (CaDiCaL reports unused variables as true).
    """
    cells = list(formula.settled)
    var_cell, var_digit = formula.var_cell, formula.var_digit
    for lit in itertools.islice(model, formula.nmapped):
        if lit > 0:
            cells[var_cell[lit - 1]] = var_digit[lit - 1]
    return Grid(formula.geometry, tuple(cells))


def write_reduced_dimacs(formula: ReducedFormula, fp: TextIO, *,
                         puzzle_text: str | None = None, version: str | None = None) -> None:
    """Write ``formula`` in DIMACS CNF with the meaning of every variable in ``c`` lines.

    Mapped variables are listed one open cell per line, as a range::

        c cell r3c7 vars 17-19 digits 2 5 9

    which reads: var 17 means r3c7 holds 2, var 18 that it holds 5, var 19 that it holds 9. Each
    cell's candidates get consecutive variables, so this is the full mapping in one line per open
    cell (about 45,000 lines for the 400 x 400 example before propagation settles it). Settled
    cells are listed as ``c settled r1c1 = 7`` lines only as a count plus the solved digits in
    the ``c settled:`` line (one line, row by row, 0 for open), so a model can be decoded by hand.
    """
    if version is None:
        from . import __version__ as version
    geo = formula.geometry
    n = geo.size
    out = [f"c satdoku {version}: a {n}x{n} Sudoku (boxes {geo.shape}) as reduced CNF"]
    if puzzle_text is not None:
        out += [f"c puzzle: {part}" for part in puzzle_text.splitlines() or [""]]
    out += [
        f"c encoding: reduced (only open (cell, digit) pairs get variables; givens"
        f"{' and singles' if formula.propagated else ''} folded away), at-most-one: pairwise "
        f"up to {PAIRWISE_MAX} literals, else {formula.amo}",
        f"c size: {n}, box: {geo.shape}, settled cells: "
        f"{sum(1 for d in formula.settled if d)}, open pairs: {formula.nmapped}, "
        f"eliminated pairs: {formula.eliminated}",
        "c settled: " + " ".join(map(str, formula.settled)),
        f"c mapping: variables 1..{formula.nmapped}, one line per open cell: "
        "'c cell rRcC vars FIRST-LAST digits D...' (consecutive vars, digits in order)",
    ]
    if formula.contradiction:
        out.append(f"c unsolvable: {formula.contradiction}")
    fp.write("\n".join(out) + "\n")
    var_cell, var_digit = formula.var_cell, formula.var_digit
    lines = []
    v = 1
    total = formula.nmapped
    while v <= total:
        cell = var_cell[v - 1]
        w = v
        while w < total and var_cell[w] == cell:
            w += 1
        digits = " ".join(map(str, var_digit[v - 1:w]))
        span = f"{v}" if w == v else f"{v}-{w}"
        lines.append(f"c cell {geo.cell_name(cell)} vars {span} digits {digits}\n")
        v = w + 1
        if len(lines) >= 65536:
            fp.write("".join(lines))
            lines.clear()
    fp.write("".join(lines))
    if formula.nvars > formula.nmapped:
        fp.write(f"c variables {formula.nmapped + 1}..{formula.nvars} are auxiliary "
                 f"({formula.amo} at-most-one)\n")
    write_clauses(fp, formula.nvars, formula.clauses)


def _new_solver(name: str):
    from pysat.solvers import Solver
    try:
        return Solver(name=name)
    except Exception as error:  # pysat raises NotImplementedError / ValueError for bad names
        raise SolverError(f"cannot start SAT solver {name!r}: {error}") from None


class ReducedSatSolver:
    """SAT on the reduced encoding: a fresh formula and python-sat solver per puzzle.

    Meant for big grids (36 x 36 and up), where the full formula of :mod:`satdoku.sat` costs
    more to build than the puzzle costs to solve.

    >>> from satdoku.geometry import geometry
    >>> with ReducedSatSolver() as s:
    ...     s.solve(Grid(geometry(1, 2), (1, 0, 0, 0)), limit=2).status
    'unique'
    """

    encoding = "reduced"

    def __init__(self, sat_solver: str | None = None, amo: str | None = None,
                 propagate: bool = True, pairwise_max: int = PAIRWISE_MAX,
                 locked: bool = False) -> None:
        from .sat import check_sat_solver
        self.info = check_sat_solver(sat_solver or DEFAULT_REDUCED_SAT_SOLVER)
        self.sat_solver = self.info.name
        self.name = f"sat:{self.sat_solver}"
        self.amo = amo or "seqcounter"
        self.propagate = propagate
        self.pairwise_max = pairwise_max
        self.locked = locked
        if self.amo != "pairwise":
            _amo_builder(self.amo, IDPool())  # fail early on a bad name

    def solve(self, grid: Grid, *, limit: int = 1, timeout: float | None = None) -> Result:
        """Solve (``limit=1``) or count solutions up to ``limit`` of ``grid``."""
        start = time.perf_counter()
        if timeout is not None and not (self.info.interrupt or self.info.budget):
            raise SolverError(f"{self.sat_solver} cannot stop at a time limit; choose another "
                              "SAT solver")
        deadline = None if timeout is None else start + timeout
        formula = reduced_formula(grid, self.amo, self.propagate, self.pairwise_max,
                                  self.locked)
        t_enc = time.perf_counter()
        stats = {"variables": formula.nvars, "clauses": len(formula.clauses),
                 "eliminated": formula.eliminated, "propagated": formula.assigned,
                 "encode_ms": round((t_enc - start) * 1000, 3)}
        stats.update({k: round(x, 3) for k, x in formula.stats.items()})

        def result(status: str, solutions: list[Grid], extra: dict) -> Result:
            stats.update(extra)
            count = None if limit < 2 or status == "timeout" else len(solutions)
            return Result(status=status, solution=solutions[0] if solutions else None,
                          count=count if status != "timeout" else None,
                          second=solutions[1] if len(solutions) > 1 else None,
                          solver=self.name, encoding="reduced",
                          time_ms=(time.perf_counter() - start) * 1000, stats=stats)

        if formula.contradiction is not None:
            return result("unsolvable", [], {"load_ms": 0.0, "solve_ms": 0.0, "decode_ms": 0.0})
        if formula.nmapped == 0:
            solved = Grid(grid.geometry, tuple(formula.settled))
            status = "solved" if limit < 2 else "unique"
            return result(status, [solved], {"load_ms": 0.0, "solve_ms": 0.0,
                                             "decode_ms": 0.0, "conflicts": 0, "decisions": 0,
                                             "propagations": 0})
        solver = _new_solver(self.sat_solver)
        try:
            t0 = time.perf_counter()
            add = solver.add_clause
            for clause in formula.clauses:
                add(clause)
            formula.clauses = []  # let the memory go while the solver works
            t1 = time.perf_counter()
            stats["load_ms"] = round((t1 - t0) * 1000, 3)
            solutions: list[Grid] = []
            solve_s = decode_s = 0.0
            status = None
            while True:
                ts = time.perf_counter()
                answer = _solve_until(solver, self.info.interrupt, deadline)
                td = time.perf_counter()
                solve_s += td - ts
                if answer is None:
                    status = "timeout"
                    break
                if not answer:
                    break
                model = solver.get_model()
                solutions.append(decode_reduced(formula, model))
                decode_s += time.perf_counter() - td
                if len(solutions) >= max(limit, 1):
                    break
                # block this model: some mapped var true in it must become false
                solver.add_clause([-lit for lit in model[:formula.nmapped] if lit > 0])
            acc = solver.accum_stats() or {}
            extra = {"load_ms": stats["load_ms"], "solve_ms": round(solve_s * 1000, 3),
                     "decode_ms": round(decode_s * 1000, 3),
                     "conflicts": acc.get("conflicts", 0), "decisions": acc.get("decisions", 0),
                     "propagations": acc.get("propagations", 0)}
            if status == "timeout":
                if solutions and limit >= 2:
                    pass  # found some, could not finish counting: still a timeout
                return result("timeout", solutions if limit >= 2 else [], extra)
            if limit < 2:
                return result("solved" if solutions else "unsolvable", solutions, extra)
            return result(counted_status(len(solutions)), solutions, extra)
        finally:
            solver.delete()

    def close(self) -> None:
        pass

    def __enter__(self) -> "ReducedSatSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _solve_until(solver, interrupt: bool, deadline: float | None) -> bool | None:
    """True (SAT), False (UNSAT) or None (deadline passed first)."""
    if deadline is None:
        return solver.solve()
    if not interrupt:
        # no interrupt(): solve in slices of conflicts, looking at the clock in between
        while True:
            if time.perf_counter() >= deadline:
                return None
            solver.conf_budget(_CONFLICT_SLICE)
            answer = solver.solve_limited()
            if answer is not None:
                return answer
    remaining = deadline - time.perf_counter()
    if remaining <= 0:
        return None
    timer = threading.Timer(remaining, solver.interrupt)
    timer.start()
    try:
        answer = solver.solve_limited(expect_interrupt=True)
    finally:
        timer.cancel()
    solver.clear_interrupt()
    return answer


class SizeSwitchSolver:
    """One solver for small grids and another for big ones, chosen per puzzle by grid size.

    ``make_solver('sat')`` without an encoding uses it: the incremental full formula
    (:class:`~satdoku.sat.SatSolver`) below ``min_size``, :class:`ReducedSatSolver` from it.
    """

    def __init__(self, small, large, min_size: int = REDUCED_MIN_SIZE) -> None:
        self.small, self.large, self.min_size = small, large, min_size
        self.name = small.name
        self.encoding = small.encoding

    def solve(self, grid: Grid, *, limit: int = 1, timeout: float | None = None) -> Result:
        solver = self.large if grid.size >= self.min_size else self.small
        return solver.solve(grid, limit=limit, timeout=timeout)

    def close(self) -> None:
        self.small.close()
        self.large.close()

    def __enter__(self) -> "SizeSwitchSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
