"""The vocabulary of step paths (:mod:`satdoku.tasks.steps`): rule facts, steps, paths, and how
hard a step and a path are. A path is taken on the ladder's candidates board
(:class:`satdoku.native.board.Board`), one step at a time (:attr:`Step.removes`,
:attr:`Step.placed`).

Glossary (adds to :mod:`satdoku.sat.facts`):

- candidates: the digits each cell may still hold (bitmasks, :mod:`satdoku.model.digits`): at
  first the givens, their digits struck from the cells that share a house with them. Every
  placement strikes its digit from its house peers silently, as a person's pencil marks do;
  every other change is a step.
- rule fact: a house (``row 3``, ``box 5``), a rule of the puzzle (``killer cage r1c1-r2c1 =
  9``), or a part of a rule made of independent parts (``rule 1-5-9 at r3c1-...-r3c9``);
  cell fact: what the candidates say of one cell when the step is taken (``r4c4=9``,
  ``r4c5 in {1,2,5}``).
- step: placements or eliminations, and the facts that force them all; each fact is needed
  (drop one and the rest no longer force them all). Its size is how many facts it cites.
- rating: how hard a step is on Sudoku Explainer's scale (:func:`step_rating`); a path's
  ER/EP/ED (:func:`path_rating`) are what ``rate`` and ``explain`` say of a puzzle.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..budget import Budget
from ..model.alphabet import Alphabet
from ..model.difficulty import ratings_text
from ..model.digits import bits
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..native.board import Board
from ..records import field, record

if TYPE_CHECKING:  # pragma: no cover
    from ..native.ladder import SERating

__all__ = ["STEP_KINDS", "RuleFact", "Piece", "rule_facts", "Step", "StepPath",
           "SE_RATINGS", "step_rating", "PathRating", "path_rating", "replay"]


#: What a :class:`Step` can be, easiest first: the classic techniques, a deduction from one
#: rule, from a combination of rules, and what ends a path early.
STEP_KINDS = ("naked single", "hidden single", "naked pair", "naked triple", "naked quad",
              "hidden pair", "hidden triple", "hidden quad", "pointing", "claiming",
              "one rule", "combination", "guess", "timeout")


@record(frozen=True)
class RuleFact:
    """One rule fact: its name, its cells, and what encodes it (an object with ``encode(ctx)``
    and ``describe(geometry)``: a :mod:`satdoku.rules` constraint, an ``ExtraRegion`` for a
    house, a :class:`Piece` for a part of a rule). ``house`` is the house number of a house,
    ``constraint`` the index of the puzzle's rule it is (part of)."""

    name: str
    cells: tuple[int, ...]
    rule: Any
    house: int | None = None
    constraint: int | None = None


@record(frozen=True)
class Piece:
    """One connected part of a rule's clauses (cells and auxiliary variables linked by
    clauses), kept as clauses: cell variables as they are (outside cells included),
    auxiliary ones numbered after them and made fresh again by :meth:`encode`."""

    name: str
    cells: tuple[int, ...]
    clauses: tuple[tuple[int, ...], ...]

    def describe(self, geometry: Geometry) -> str:
        return self.name

    def clause_estimate(self, geometry) -> int:
        return len(self.clauses)

    def encode(self, ctx) -> list[list[int]]:
        n3 = ctx.geometry.ncells * ctx.size  # the cells' variables, outside cells included
        fresh: dict[int, int] = {}

        def var(v: int) -> int:
            if v <= n3:
                cell, d0 = divmod(v - 1, ctx.size)
                return ctx.var(cell, d0 + 1)
            if v not in fresh:
                fresh[v] = ctx.fresh()
            return fresh[v]
        return [[var(lit) if lit > 0 else -var(-lit) for lit in clause]
                for clause in self.clauses]


def _pieces(rule: Any, geometry: Geometry, budget: Budget) -> list[tuple[tuple[int, ...], list]]:
    """The connected parts of ``rule``'s clauses (a cell's variables are one node, as the
    cell holds one digit): (cells, clauses) each, in cell order. Encoding it keeps
    ``budget``."""
    from ..cnf.rules import RuleContext, encode_rules
    from ..cnf.varmap import full_map
    n = geometry.size
    n3 = geometry.ncells * n  # the cells' variables, outside cells included
    clauses: list[list[int]] = []
    encode_rules((rule,), RuleContext(full_map(geometry), n3, budget, houses=False),
                 lambda _, encoded: clauses.extend(encoded))
    parent: dict[int, int] = {}

    def root(v: int) -> int:
        parent.setdefault(v, v)
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    def node(lit: int) -> int:  # a cell's variables are one node: the cell (as -1 - cell)
        v = abs(lit)
        return v if v > n3 else -1 - (v - 1) // n

    for clause in clauses:
        first = root(node(clause[0]))
        for lit in clause[1:]:
            parent[root(node(lit))] = first
    parts: dict[int, tuple[set[int], list]] = {}
    for clause in clauses:
        cells, group = parts.setdefault(root(node(clause[0])), (set(), []))
        group.append(tuple(clause))
        cells.update((abs(lit) - 1) // n for lit in clause if abs(lit) <= n3)
    return sorted(((tuple(sorted(cells)), group) for cells, group in parts.values()),
                  key=lambda part: part[0])


def rule_facts(geometry: Geometry, constraints: tuple = (),
               budget: Budget | None = None) -> list[RuleFact]:
    """The rule facts of a puzzle: its houses (rows, columns, boxes), then its rules. A rule
    over more than two houses' worth of cells whose clauses fall into parts that share no
    cell and no variable (the groups of ``disjoint-groups``, the rows of ``rule-159``) is a
    fact per part, named by its cells: a step then cites the part it uses, and a change in
    one part leaves the others' deductions standing. Splitting a rule keeps ``budget``
    (the clause limit and the deadline: TooBigError, TimeUp).

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.rules import DisjointGroups
    >>> facts = rule_facts(geometry(2, 2), (DisjointGroups(geometry(2, 2)),))
    >>> len(facts), facts[12].name
    (16, 'disjoint groups at r1c1-r1c3-r3c1-r3c3')
    """
    from ..rules import ExtraRegion
    from ..rules.base import cell_span
    out = [RuleFact(geometry.house_name(h), cells, ExtraRegion(cells), house=h)
           for h, cells in enumerate(geometry.houses)]
    for i, rule in enumerate(constraints):
        name = rule.describe(geometry)
        wide = len(rule.cells) > 2 * geometry.size
        parts = _pieces(rule, geometry, budget or Budget()) if wide else []
        if len(parts) < 2:
            out.append(RuleFact(name, tuple(rule.cells), rule, constraint=i))
            continue
        for cells, clauses in parts:
            piece = Piece(f"{name} at {cell_span(geometry, cells)}", cells, tuple(clauses))
            out.append(RuleFact(piece.name, cells, piece, constraint=i))
    return out


@record(frozen=True)
class Step:
    """One step of a path (:func:`step_path`).

    - ``technique``: one of :data:`STEP_KINDS`, or on a classic puzzle's path the name of a
      step of SE's ladder (``'X-Wing'``, :mod:`satdoku.native.ladder`); ``reason``: why.
    - ``placed``: (cell, digit) placed; ``eliminated``: (cell, digits) struck.
    - ``rules``: the rule facts cited (indices into the path's :attr:`StepPath.rules`);
      ``cells``: the cell facts cited, (cell, candidate bitmask at the time).
    - ``houses``: the houses a classic technique names (house numbers).
    - ``minimal``: False when a combination's facts could not all be proven needed within the
      solver's effort (:mod:`satdoku.tasks.deduce`): they force the step, but one might go.
    - ``rating``: SE's rating of a step of its ladder (else :func:`step_rating` values it).
    """

    step: int
    technique: str
    reason: str
    placed: tuple[tuple[int, int], ...] = ()
    eliminated: tuple[tuple[int, tuple[int, ...]], ...] = ()
    rules: tuple[int, ...] = ()
    cells: tuple[tuple[int, int], ...] = ()
    houses: tuple[int, ...] = ()
    minimal: bool = True
    rating: float | None = None
    path: "StepPath | None" = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        """How many facts the step cites."""
        return len(self.rules) + len(self.cells)

    @property
    def removes(self) -> tuple[tuple[int, int], ...]:
        """The (cell, digit) pairs the step strikes, one digit a pair."""
        return tuple((cell, d) for cell, ds in self.eliminated for d in ds)

    @property
    def kind(self) -> str:
        """The technique, with its rules' count for a combination or guess: ``'combination of
        2 rules'``, ``'X-Wing'``."""
        if self.technique in ("combination", "guess") and self.rules:
            return f"{self.technique} of {len(self.rules)} rule{'s' * (len(self.rules) > 1)}"
        return self.technique

    @property
    def text(self) -> str:
        """``'hidden single: r3c7 = 5, the only place for 5 in box 3'``; a step of SE's ladder
        as SE writes it, ``'X-Wing on 4 in r2,r7 c3,c8: r5c3 != 4'``."""
        if self.rating is not None and ": " in self.reason:
            return f"{self.technique} {self.reason}"
        return f"{self.technique}: {self.reason}"

    @property
    def on_path(self) -> StepPath:
        """The path this step belongs to, which names its facts (ValueError for a step made
        apart from one)."""
        if self.path is None:
            raise ValueError(f"step {self.step} belongs to no path that names its facts")
        return self.path

    def fact_names(self) -> list[str]:
        """The facts cited, rules first: ``['box 5', 'r4c4=9', 'r4c5 in {1,2,5}']``."""
        path = self.on_path
        return [path.rules[r].name for r in self.rules] + [path.cell_text(c, m)
                                                          for c, m in self.cells]

    def as_dict(self) -> dict:
        """A JSON-ready dict: cells by name (``r3c7``), digits as symbols, facts by name."""
        path = self.on_path
        name, symbol = path.geometry.cell_name, path.alphabet.symbol
        return {"step": self.step, "technique": self.technique,
                "placed": {name(c): symbol(d) for c, d in self.placed},
                "eliminated": {name(c): [symbol(d) for d in ds] for c, ds in self.eliminated},
                "facts": {"rules": [path.rules[r].name for r in self.rules],
                          "cells": {name(c): [symbol(d) for d in bits(m)] for c, m in self.cells}},
                "size": self.size, "minimal": self.minimal, "rating": step_rating(self),
                "reason": self.reason}


@record
class StepPath:
    """The steps of one puzzle and what they speak of; ``status`` is ``solved`` (the steps
    reach the solution), ``timeout`` (the time ran out first) or ``guess`` (a step needed
    more rules than allowed: the path guessed, and goes on after the guess). ``se`` holds a
    classic puzzle's SE ratings (:class:`~satdoku.native.ladder.SERating`), whose steps the
    path begins with."""

    geometry: Geometry
    alphabet: Alphabet
    rules: list[RuleFact]
    steps: list[Step] = field(default_factory=list)
    status: str = "solved"
    sat_calls: int = 0
    max_rules: int | None = None
    se: SERating | None = None

    def cell_text(self, cell: int, mask: int) -> str:
        """``'r4c4=9'`` for one candidate, ``'r4c5 in {1,2,5}'`` for several."""
        digits = [self.alphabet.symbol(d) for d in bits(mask)]
        name = self.geometry.cell_name(cell)
        return f"{name}={digits[0]}" if len(digits) == 1 else f"{name} in {{{','.join(digits)}}}"

    def digits_text(self, digits) -> str:
        return ", ".join(self.alphabet.symbol(d) for d in digits)

    def conclusion_text(self, placed, eliminated) -> str:
        """``'r4c5 != 7, 8; r4c6 != 7'`` or ``'r3c7 = 5'``."""
        name = self.geometry.cell_name
        parts = [f"{name(c)} = {self.alphabet.symbol(d)}" for c, d in placed]
        parts += [f"{name(c)} != {self.digits_text(ds)}" for c, ds in eliminated]
        return "; ".join(parts)


#: SE's ratings of the techniques a path names (:func:`satdoku.tasks.deduce.name_step`) where
#: satdoku's ladder did not take the step: pointing and claiming, the naked and hidden subsets.
SE_RATINGS = {"naked single": 2.3, "pointing": 2.6, "claiming": 2.8, "naked pair": 3.0,
              "hidden pair": 3.4, "naked triple": 3.6, "hidden triple": 4.0, "naked quad": 5.0,
              "hidden quad": 5.4}


def step_rating(step: Step) -> float:
    """How hard a step is, on Sudoku Explainer's scale (:mod:`satdoku.model.difficulty`).

    A step of SE's ladder (a classic puzzle's path) carries SE's rating; so do the classic
    techniques a variant's path names (:data:`SE_RATINGS`; a hidden single 1.2 in a box, 1.5
    in a line, as SE rates them). A step only a variant has is valued as the SE step it is
    most like: a rule read with placed digits alone (a thermometer's bulb, a cage's digits
    beside a given) 1.5, like a hidden single in a line; with one cell's candidates 2.3, like a
    naked single; with two or more 3.0, like a naked pair; a deduction that combines ``r``
    rules ``2 + 1.5 log2(r)`` (3.5 for two, 5.0 for four, 6.5 for eight: each doubling of
    the rules adds what SE adds from a subset to a wing to a forcing chain), at most 11.0. A
    guess counts as the rules it stands in for (``max_rules + 1``); a ``timeout`` record 0.
    """
    if step.rating is not None:
        return step.rating
    if step.technique == "timeout":
        return 0.0
    if step.technique == "hidden single":
        path = step.path
        box = path is not None and step.houses and step.houses[0] >= 2 * path.geometry.size
        return 1.2 if box else 1.5
    if step.technique in SE_RATINGS:
        return SE_RATINGS[step.technique]
    rules = len(step.rules)
    if step.technique == "guess":
        rules = (step.path.max_rules or 0) + 1 if step.path is not None else 1
    elif rules == 1:
        open_cells = sum(1 for _, mask in step.cells if mask & (mask - 1))
        return (1.5, 2.3, 3.0)[min(open_cells, 2)]
    return min(11.0, round(2 + 1.5 * math.log2(max(rules, 1)), 1))


@record(frozen=True)
class PathRating:
    """A path's ratings on SE's scale: ``er`` the hardest step's, ``ep`` the hardest before
    the first placement, ``ed`` the first step's; ``hardest`` the first step rated ``er``
    (None for an empty path); ``bound`` True when they are lower bounds (the path stopped at
    the time limit, or a classic puzzle went beyond satdoku's SE ladder)."""

    er: float
    ep: float
    ed: float
    hardest: Step | None
    bound: bool = False
    ep_bound: bool = False
    ed_bound: bool = False

    @property
    def text(self) -> str:
        """``'ER 3.0/EP 1.2/ED 1.2'``, with ``>=`` on lower bounds."""
        return ratings_text(self.er, self.ep, self.ed, self.bound, self.ep_bound, self.ed_bound)


def path_rating(path: StepPath) -> PathRating:
    """The :class:`PathRating` of ``path``. A classic puzzle's path begins with SE's ladder
    (its ``se``): its ratings are then the ladder's, so that ``rate``, ``explain``'s header
    and the path cannot disagree; the steps that follow where the ladder stops only make the
    ER a lower bound. A variant's path is rated by :func:`step_rating` alone."""
    steps = [s for s in path.steps if s.technique != "timeout"]
    se = path.se
    if se is not None:
        ladder = steps[:len(se.steps)]
        hardest = next((s for s in ladder if s.rating == se.er), None)
        return PathRating(se.er, se.ep, se.ed, hardest, not se.complete, not se.ep_exact,
                          not se.ed_exact)
    er = ep = 0.0
    hardest = None
    placed = False
    for s in steps:
        rating = step_rating(s)
        if rating > er:
            er, hardest = rating, s
        if not placed:
            ep = er
            placed = bool(s.placed)
    ed = step_rating(steps[0]) if steps else 0.0
    bound = path.status == "timeout"
    return PathRating(er, ep, ed, hardest, bound, bound and not placed, bound and not steps)


def replay(grid: Grid, path: StepPath) -> list[tuple[tuple[int, ...], tuple[bool, ...]]]:
    """The board (:meth:`Board.snapshot`) before each step of ``path`` from ``grid``, then
    after its last: the candidates a person's pencil marks show along the path.

    >>> from satdoku.io.text import parse_puzzle
    >>> from satdoku.tasks.steps import step_path
    >>> grid = parse_puzzle("1.3..4.2.34.4.23").grid
    >>> boards = replay(grid, step_path(grid, parse_puzzle("1234341223414123").grid))
    >>> len(boards), sum(boards[0][1]), all(boards[-1][1])
    (8, 9, True)
    """
    board = Board.of_givens(grid)[0]
    boards = [board.snapshot()]
    for step in path.steps:
        board.apply(step.removes, step.placed)
        boards.append(board.snapshot())
    return boards
