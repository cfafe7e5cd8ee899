"""Variant Sudoku constraints: one small class per rule, registered by its type name.

Every constraint (see :class:`Constraint`) has ``type``, its parameters, ``cells``,
``describe(geometry)``, ``to_json(geometry)`` / ``from_json(data, geometry)``,
``encode(ctx)`` (CNF clauses), ``check(grid)`` (what is wrong with a finished grid, straight
from the digits) and ``prune(cand)`` (candidate elimination for native search). The JSON
vocabulary is satdoku's variant format, version 1 (``satdoku/schema/variant-1.schema.json``;
:mod:`satdoku.io.variant` reads and writes whole puzzles). Sums and their two encodings are in
:mod:`.sums` and ``docs/sum-encodings.md``.

Modules by family: :mod:`.groups` (all different), :mod:`.pairs` (pair relations and the
global chess rules), :mod:`.dots`, :mod:`.cells`, :mod:`.lines`, :mod:`.ranges`,
:mod:`.killer` (cages, little killers, arrows), :mod:`.line_sums`, :mod:`.outside`,
:mod:`.quadruple`, :mod:`.indexers`; sigh's types in :mod:`.tallies` (counts),
:mod:`.cages`, :mod:`.views` (outside clues, full rank), :mod:`.everywhere` (global rules),
:mod:`.machine` (``nfa``) and :mod:`.connected`; :mod:`.sums` holds the sum encodings and
:mod:`.base` the shared pieces. Each class declares in its body its ``type``, its JSON fields (:mod:`.fields`,
read and written by the one reader of :class:`Constraint`) and its f-puzzles keys
(:mod:`.exchange`); defining the class registers it, and :mod:`.registry` lists them all
(:func:`rule_types`).

The SAT backend's side::

    ctx = EncodeContext(geometry, fresh=engine.fresh_var)      # or top=highest var in use
    for constraint, clauses in zip(constraints, encode_constraints(constraints, ctx)):
        ...  # add them, or guarded: [-act] + clause for each

Each constraint's clauses are sound and complete for its rule on their own (with the cells'
exactly-one-digit clauses; rules about "the 1 and the N" of a line presume the line holds each
once): none leans on another constraint's clauses, so any subset of them can be switched off by
activation literals.
"""

from __future__ import annotations

from typing import Sequence

from .base import Clause, Constraint, EncodeContext, cell_span, parse_cell
from .cells import Candidates, Even, Maximum, Minimum, Odd
from .custom import GreaterThan, PairRelation, Regex
from .dots import XV, EdgeSum, KropkiBlack, KropkiWhite, NoKropki, NoXV
from .groups import Diagonal, DisjointGroups, ExtraRegion, Windoku
from .indexers import BoxIndexer, ColumnIndexer, RowIndexer, Rule159, ValueIndexing
from .killer import Arrow, Killer, LittleKiller
from .line_sums import DoubleArrow, RegionSum, Zipper
from .multikiller import MultiKiller
from .logic import AllOf, AnyOf
from .lines import (Clone, Entropic, GermanWhispers, Modular, Nabner, Palindrome,
                    SlowThermometer, Thermometer)
from .outside import Sandwich, Skyscraper, XSum
from .pairs import AntiKing, AntiKnight, DiagonalNonConsecutive, NonConsecutive
from .quadruple import Quadruple
from .ranges import Between, Lockout, Renban
from .registry import CONSTRAINTS, RuleType, constraint_from_json, rule_types
from .sum_line import SumLine
# issue 32's rules from sigh's solver, after the others (the order `satdoku rules` lists)
from .tallies import ContainAtLeast, ContainExact, CountDistinct, CountingCircles, LookAndSay
from .cages import EqualityCage, EqualSum, Lunchbox, RellikCage, WeightedSum
from .views import FullRank, FullRankTies, HiddenSkyscraper, NumberedRoom
from .everywhere import AntiTaxicab, Doppelganger, DutchFlatmates, GlobalEntropy, GlobalMod
from .machine import StateMachine
from .connected import ConnectedValues
from .chaos import Chaos  # noqa: E402,I001 - the registry lists types in import order
from .same import RegionSameValues, SameValues  # noqa: E402,I001 - after chaos (its field)
from .sums import DEFAULT_SUM_ENCODING, SUM_ENCODINGS

__all__ = [
    "CONSTRAINTS", "Constraint", "EncodeContext", "encode_constraints", "constraint_from_json",
    "guarded", "bind_all", "SUM_ENCODINGS", "DEFAULT_SUM_ENCODING", "Clause", "cell_span",
    "parse_cell", "rule_types", "RuleType", *(cls.__name__ for cls in CONSTRAINTS.values())]


def bind_all(constraints: Sequence[Constraint]) -> list[Constraint]:
    """Every constraint bound to the others (what negative constraints need)."""
    return [c.bind(constraints) for c in constraints]


def encode_constraints(constraints: Sequence[Constraint], ctx) -> list[list[Clause]]:
    """Each constraint's clauses, one list per constraint (for guarding and naming).

    >>> from satdoku.model.geometry import geometry
    >>> ctx = EncodeContext(geometry(2, 2))
    >>> [len(cl) for cl in encode_constraints([Killer((0, 1), 3), Odd((5,))], ctx)]
    [28, 2]
    """
    return [c.encode(ctx) for c in constraints]


def guarded(clauses: Sequence[Clause], act: int) -> list[Clause]:
    """``clauses`` switched on by the activation literal ``act`` (assume it to enforce them)."""
    return [[-act] + list(clause) for clause in clauses]
