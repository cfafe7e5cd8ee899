"""The named encodings of Sudoku as CNF, and the base formula of a geometry.

Glossary (adds to :mod:`satdoku.model.geometry`; the variable map is :mod:`satdoku.cnf.varmap`):

- var: a positive int naming "cell holds digit": ``var(cell, d) = cell*N + d``, dense
  ``1 .. N**3``; its inverse ``cell = (v-1) // N``, ``d = (v-1) % N + 1``.
- lit: a var or its negation (an int, as in DIMACS and python-sat); clause: a list of lits.
- encoding: which constraint families make the formula (:data:`ENCODINGS`):

  =========  =========  =========  ==========  ==========  ======  ===========================
  name       cell >= 1  cell <= 1  house <= 1  house >= 1  triads  variables
  =========  =========  =========  ==========  ==========  ======  ===========================
  minimal    yes        .          yes         .           .       every (cell, digit)
  natural    yes        yes        yes         .           .       every (cell, digit)
  extended   yes        yes        yes         yes         .       every (cell, digit)
  augmented  yes        yes        .           .           yes     (cell, digit) + triads
  reduced    yes        yes        yes         yes         .       only the open pairs
  =========  =========  =========  ==========  ==========  ======  ===========================

  "house <= 1" is, per house and digit, at most one of the house's cells holds the digit;
  "house >= 1" is that at least one does. For 9x9 with pairwise at-most-one:
  minimal 729 vars / 8,829 clauses, natural 729 / 11,745, extended 729 / 11,988, augmented
  1,215 / 7,695. The reduced encoding is built per puzzle (:mod:`satdoku.cnf.reduced`).
- triad (tdoku's name; the augmented encoding): a variable per segment (a line's cells in one
  box, :attr:`~satdoku.model.geometry.Geometry.segments`) and digit, true when the segment
  holds the digit: exactly one of the segment's cells and its negation is true. The houses are
  then exactly-one over triads: a line over its segments, a box over its row segments and over
  its column segments. Unit propagation over triads does locked candidates (pointing and
  box-line claiming); a segment of one cell is its cell's variable. Triads are numbered from
  ``N**3 + 1`` in segment order, digits within a segment (:func:`triads`); docs/commands.md
  has the definition and the counts for 9x9, 16x16 and 25x25.
- amo: how an at-most-one constraint becomes clauses (:data:`AMO_ENCODINGS`): ``pairwise`` (no
  new variables, k*(k-1)/2 binary clauses) or one of python-sat's cardinality encodings. The
  full encodings use :data:`DEFAULT_AMO` (pairwise) throughout; the reduced one writes lists up
  to :data:`PAIRWISE_MAX` literals pairwise and longer ones with :data:`DEFAULT_REDUCED_AMO`.

Measurements behind the choices are in ``docs/large-grids.md``.
"""

from __future__ import annotations

import functools
import itertools

from ..errors import OptionError
from ..model.geometry import Geometry
from ..records import record

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Callable, Iterator, Sequence

__all__ = [
    "var", "unvar", "Encoding", "ENCODINGS", "AMO_ENCODINGS", "DEFAULT_ENCODING", "DEFAULT_AMO",
    "DEFAULT_REDUCED_AMO", "PAIRWISE_MAX", "check_encoding", "check_amo", "check_choices",
    "Pool", "amo_clauses", "triads",
    "amo_size", "formula_size", "base_clauses", "base_formula", "CHUNK",
]

Clause = list[int]

DEFAULT_ENCODING = "extended"
DEFAULT_AMO = "pairwise"
DEFAULT_REDUCED_AMO = "seqcounter"

#: In the reduced encoding, at-most-one lists up to this long are pairwise, longer ones use
#: the ``amo`` cardinality encoding (the threshold of 8 was measured: docs/large-grids.md).
PAIRWISE_MAX = 8

#: Clauses handed over between two looks at the deadline while building.
CHUNK = 20_000


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


@record(frozen=True)
class Encoding:
    """A named set of constraint families (see the table in the module docstring)."""

    name: str
    description: str
    cell_amo: bool
    house_alo: bool
    reduced: bool = False
    triads: bool = False  # houses through segment variables, not over cells (augmented)


#: The encodings by name; ``extended`` is the default below 36x36, ``reduced`` from it (the
#: choice is :func:`satdoku.tasks.solvers.choose_encoding`).
ENCODINGS: dict[str, Encoding] = {
    "minimal": Encoding("minimal", "every cell has a digit; no digit twice in a house",
                        cell_amo=False, house_alo=False),
    "natural": Encoding("natural", "minimal + every cell has at most one digit",
                        cell_amo=True, house_alo=False),
    "extended": Encoding("extended", "natural + every house has every digit",
                         cell_amo=True, house_alo=True),
    "augmented": Encoding("augmented", "natural's cells + houses as exactly-one over "
                          "box-line triads (tdoku's)", cell_amo=True, house_alo=True,
                          triads=True),
    "reduced": Encoding("reduced", "extended over the pairs that givens and singles leave open",
                        cell_amo=True, house_alo=True, reduced=True),
}

#: At-most-one encodings by name: pairwise, else python-sat's cardinality encoding of that
#: name (``pysat.card.EncType``, imported only when one is used).
AMO_ENCODINGS: tuple[str, ...] = ("pairwise", "seqcounter", "ladder", "bitwise", "totalizer",
                                  "sortnetwrk", "cardnetwrk", "mtotalizer", "kmtotalizer")


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


def check_choices(encoding: str | None, amo: str | None) -> None:
    """OptionError unless ``encoding`` and ``amo`` (either may be None: chosen later) are
    names satdoku knows."""
    if encoding is not None:
        check_encoding(encoding)
    if amo is not None:
        check_amo(amo)


class Pool:
    """The auxiliary variables of a formula, numbered from ``start_from`` up: ``top`` is the
    highest taken, and :meth:`id` gives an object its own. python-sat's ``IDPool`` numbers the
    same way; this one spares a formula of no auxiliary at all (the default 9x9 one) the import
    of ``pysat.formula``, 8 ms of a one-puzzle run.

    >>> pool = Pool(start_from=730)
    >>> pool.id("a"), pool.id("b"), pool.id("a"), pool.top
    (730, 731, 730, 731)
    """

    __slots__ = ("top", "_ids")

    def __init__(self, start_from: int = 1) -> None:
        self.top = start_from - 1
        self._ids: dict[object, int] = {}

    def id(self, obj: object) -> int:
        found = self._ids.get(obj)
        if found is None:
            self.top += 1
            found = self._ids[obj] = self.top
        return found


def amo_clauses(amo: str, pool: Pool) -> Callable[[Sequence[int]], list[Clause]]:
    """A function that writes "at most one of these lits" in the ``amo`` encoding."""
    if check_amo(amo) == "pairwise":
        # itertools and map keep the pair loop in C: this is most of the 64x64 build time.
        return lambda lits: list(map(list, itertools.combinations([-x for x in lits], 2)))
    from pysat.card import CardEnc, EncType
    kind = getattr(EncType, amo)

    def at_most_one(lits: Sequence[int]) -> list[Clause]:
        cnf = CardEnc.atmost(lits=list(lits), bound=1, top_id=pool.top, encoding=kind)
        pool.top = max(pool.top, cnf.nv)
        return cnf.clauses
    return at_most_one


def amo_size(k: int, amo: str) -> int:
    """About how many clauses an at-most-one of ``k`` literals takes (exact for pairwise)."""
    if k < 2:
        return 0
    return k * (k - 1) // 2 if amo == "pairwise" else 4 * k


def formula_size(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO) -> tuple[int, int]:
    """(variables, clauses) of the base formula, from the counting formulas (nothing built).

    Exact for pairwise at-most-one, an estimate for the others.

    >>> from satdoku.model.geometry import geometry
    >>> [formula_size(geometry(3, 3), e) for e in ("minimal", "natural", "extended",
    ...                                            "augmented")]
    [(729, 8829), (729, 11745), (729, 11988), (1215, 7695)]
    """
    enc = check_encoding(encoding)
    n, ncells = geometry.size, geometry.ncells
    if enc.triads:
        return _triad_size(geometry, amo)
    if geometry.is_plain:
        groups = 3 * n * n + (n * n if enc.cell_amo else 0)
        clauses = n * n + groups * amo_size(n, amo) + (3 * n * n if enc.house_alo else 0)
        extra = 0 if amo == "pairwise" else groups * n
        return n ** 3 + extra, clauses
    lengths = [len(h) for h in geometry.houses for _ in range(n)] + \
        ([n] * ncells if enc.cell_amo else [])
    clauses = ncells + sum(amo_size(k, amo) for k in lengths) + \
        (n * sum(geometry.full) if enc.house_alo else 0)
    extra = 0 if amo == "pairwise" else sum(lengths)
    return ncells * n + extra, clauses


def _triad_size(geometry: Geometry, amo: str) -> tuple[int, int]:
    """(variables, clauses) of the augmented encoding: every group below is exactly-one (one
    clause and an at-most-one): cells over digits, each triad's cells and its negation, each
    line over its segments, each box over its row segments and over its column segments."""
    n = geometry.size
    groups = [n] * (n * n)  # (length of an exactly-one group), digit by digit below
    per_line: dict[int, int] = {}
    per_box: dict[tuple[int, bool], int] = {}
    for seg in geometry.segments:
        if len(seg.cells) > 1:
            groups += [len(seg.cells) + 1] * n
        per_line[seg.line] = per_line.get(seg.line, 0) + 1
        key = (seg.box, seg.line < n)
        per_box[key] = per_box.get(key, 0) + 1
    groups += [k for k in (*per_line.values(), *per_box.values()) for _ in range(n)]
    nvars = n ** 3 + n * sum(1 for seg in geometry.segments if len(seg.cells) > 1)
    extra = 0 if amo == "pairwise" else sum(k for k in groups if k > 1)
    return nvars + extra, len(groups) + sum(amo_size(k, amo) for k in groups)


def triads(geometry: Geometry, pool: Pool) -> dict[tuple[int, int], int]:
    """The literal of every (segment index, digit) of ``geometry``: a triad variable from
    ``pool`` (numbered in segment order, digits within, when the pool starts at ``N**3 + 1``)
    or, for a segment of one cell, that cell's variable.

    >>> from satdoku.model.geometry import geometry
    >>> t = triads(geometry(3, 3), Pool(start_from=730))
    >>> t[0, 1], t[0, 9], t[53, 9], len(t)
    (730, 738, 1215, 486)
    """
    n = geometry.size
    out: dict[tuple[int, int], int] = {}
    for i, seg in enumerate(geometry.segments):
        for d in range(1, n + 1):
            out[i, d] = (seg.cells[0] * n + d if len(seg.cells) == 1
                         else pool.id(("triad", i, d)))
    return out


def base_clauses(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO, pool: Pool | None = None) -> Iterator[list[Clause]]:
    """The base formula of ``geometry`` (no clues) in chunks of clauses, built as they go.

    The families come in this order: cell at-least-one, cell at-most-one, then either house
    at-most-one and house at-least-one (those the encoding has), or (augmented) the triads'
    definitions and the houses over triads. Auxiliary variables come from ``pool`` (default:
    numbered from ``N**3 + 1``; triads first).
    """
    enc = check_encoding(encoding)
    if enc.reduced:
        raise OptionError("the reduced encoding has no base formula: it is built per puzzle")
    if enc.triads and not geometry.is_square:
        raise OptionError(f"the {encoding} encoding needs an N x N grid of N digits")
    n = geometry.size
    if pool is None:
        pool = Pool(start_from=geometry.ncells * n + 1)
    at_most_one = amo_clauses(amo, pool)
    triad = triads(geometry, pool) if enc.triads else {}
    cell_lits = [list(range(cell * n + 1, cell * n + n + 1)) for cell in range(geometry.ncells)]
    yield [list(lits) for lits in cell_lits]
    chunk: list[Clause] = []
    if enc.cell_amo:
        for lits in cell_lits:
            chunk.extend(at_most_one(lits))
            if len(chunk) >= CHUNK:
                yield chunk
                chunk = []
    groups = _triad_groups(geometry, triad) if enc.triads else (
        [c * n + d for c in house] for house in geometry.houses for d in range(1, n + 1))
    for lits in groups:
        if enc.triads:  # exactly-one
            chunk.append(lits)
        chunk.extend(at_most_one(lits))
        if len(chunk) >= CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
    if enc.house_alo and not enc.triads:  # a house of fewer cells than digits has none
        yield [[c * n + d for c in house] for house, full in zip(geometry.houses, geometry.full)
               if full for d in range(1, n + 1)]


def _triad_groups(geometry: Geometry, triad: dict[tuple[int, int], int]) -> Iterator[list[int]]:
    """The exactly-one groups of the augmented encoding past the cells: each triad's cells
    and its negation, then for each digit every line over its segments and every box over
    its row segments and over its column segments."""
    n = geometry.size
    segments = geometry.segments
    for i, seg in enumerate(segments):
        if len(seg.cells) > 1:
            for d in range(1, n + 1):
                yield [c * n + d for c in seg.cells] + [-triad[i, d]]
    by_line: dict[int, list[int]] = {}
    by_box: dict[tuple[int, bool], list[int]] = {}
    for i, seg in enumerate(segments):
        by_line.setdefault(seg.line, []).append(i)
        by_box.setdefault((seg.box, seg.line < n), []).append(i)
    for members in (*by_line.values(), *by_box.values()):
        for d in range(1, n + 1):
            yield [triad[i, d] for i in members]


@functools.lru_cache(maxsize=8)
def base_formula(geometry: Geometry, encoding: str = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO) -> tuple[int, tuple[Clause, ...]]:
    """(variables, clauses) of the whole base formula of ``geometry`` without clues, cached
    (do not modify the clauses).

    >>> from satdoku.model.geometry import geometry
    >>> nvars, clauses = base_formula(geometry(3, 3))
    >>> nvars, len(clauses)
    (729, 11988)
    """
    n3 = geometry.ncells * geometry.size
    pool = Pool(start_from=n3 + 1)
    clauses = tuple(c for chunk in base_clauses(geometry, encoding, amo, pool) for c in chunk)
    return max(n3, pool.top), clauses
