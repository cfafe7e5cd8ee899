"""Deductions from facts: one formula whose every fact can be switched on and off, and the three
questions a step-by-step explanation asks of it.

Glossary (adds to :mod:`satdoku.sat.engines`):

- fact: a rule (a house, one rule of a variant puzzle, or one group of a rule made of groups)
  or what is known of one cell (its digit, or the candidates left to it). Each fact's clauses
  are guarded by a *selector*, a variable of its own: ``[-s, ...]``. Assuming ``s`` switches
  the fact on; left out, the solver sets ``s`` false and the fact says nothing. Only "each cell
  holds exactly one digit" is always on.
- conclusion: a literal over the cell variables (``x`` "cell holds d", ``-x`` "it does not").
  Facts *force* a conclusion when the facts with its negation have no solution.
- core: the facts (selectors) of the solver's final conflict when the negated conclusion was
  assumed with them (``get_core``): facts that force it, not necessarily a minimal set.
  :meth:`FactSolver.shrink` drops members one at a time while the rest still force it
  (the deletion method of :func:`satdoku.tasks.explain.minimal_core`): every member of the result
  is needed.

One solver serves a whole explanation: cell facts get a new selector whenever a cell's
candidates change (the old one is simply no longer assumed), so nothing is ever rebuilt.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterable, Iterator, Sequence

from ..closing import Closing
from ..budget import DEFAULT_MAX_CLAUSES, Budget
from ..cnf.rules import RuleContext, encode_rules
from ..cnf.varmap import full_map
from ..deadline import NO_DEADLINE, Deadline
from ..errors import OptionError
from ..model.geometry import Geometry
from ..rules.context import at_most_one
from .catalogue import check_sat_solver
from .binding import new_solver
from .clock import pysat_call

__all__ = ["FactSolver", "MAX_WITNESSES", "FACTS_SAT_SOLVER"]

#: The SAT solver of facts unless one is named: it follows the phases it is given
#: (``set_phases``), which :meth:`FactSolver.forced` steers with, where CaDiCaL does not
#: (docs/setters-guide.md).
FACTS_SAT_SOLVER = "minisat22"

#: Conflicts between two looks at the deadline inside one solve call.
CONFLICT_SLICE = 2_000

#: Witnesses :meth:`FactSolver.forced` keeps for one caller (the oldest go first).
MAX_WITNESSES = 64

#: Literals the local solvers (:meth:`FactSolver._view`) may hold together before they are
#: all dropped (made again as asked), and the share of all the rules' literals one may hold
#: (1/LOCAL_SHARE; a larger question goes to the whole formula's solver).
LOCAL_LITERALS, LOCAL_SHARE = 2_000_000, 4


def _one_digit(n: int, cells: Iterable[int], var: Any = int) -> list[list[int]]:
    """Exactly one digit in each of ``cells``: every cell's at-least-one, then every cell's
    pairwise at-most-one (cell ``c`` holds ``d``: ``var(c * n + d)``)."""
    lits = [[var(c * n + d) for d in range(1, n + 1)] for c in cells]
    return lits + [clause for cell in lits for clause in at_most_one(cell)]


def _holds(n: int, cell: int, mask: int) -> list[int]:
    """The cell fact "``cell`` holds a digit of ``mask``" (a candidate bitmask) as literals:
    its digit when it has one, else "not d" for each digit it lacks."""
    if mask & (mask - 1) == 0:
        return [cell * n + mask.bit_length()]
    return [-(cell * n + d) for d in range(1, n + 1) if not mask >> (d - 1) & 1]


class FactSolver(Closing):
    """The facts of one puzzle as guarded clauses in one python-sat solver (see the module
    docstring).

    Args:
        geometry: the grid.
        rules: the rule facts, each an object with ``encode(ctx)`` and ``describe(geometry)``
            (:mod:`satdoku.rules`; a house is an ``ExtraRegion`` of its cells); their
            selectors are :attr:`rule_selectors`, in order.
        sat_solver: a python-sat solver that takes assumptions (default
            :data:`FACTS_SAT_SOLVER`).
        max_clauses, deadline: the limits building the rules keeps (TooBigError, TimeUp);
            every question stops at ``deadline`` too (TimeUp).
        local: ask about a few rules a small solver of their own (:meth:`_view`); False
            asks every question of the whole formula's solver (the same answers, slower).

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.rules import Killer
    >>> with FactSolver(geometry(2, 2), [Killer((0, 1), 3)]) as s:
    ...     cage = s.rule_selectors[0]
    ...     s.forced([cage], [-s.lit(0, 3), -s.lit(0, 4), -s.lit(0, 1)])
    [-3, -4]
    """

    def __init__(self, geometry: Geometry, rules: Sequence, *, sat_solver: str | None = None,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                 deadline: Deadline = NO_DEADLINE, local: bool = True) -> None:
        self.geometry = geometry
        self.deadline = deadline
        self.local = local
        info = check_sat_solver(sat_solver or FACTS_SAT_SOLVER)
        if not info.budget:
            raise OptionError(f"{info.name} cannot keep a conflict budget, which explaining "
                              f"steps needs; choose another SAT solver")
        self.varmap = full_map(geometry)
        n = geometry.size
        self.top = geometry.ncells * n  # cells outside the grid too: selectors come after
        self.solver = new_solver(info.name)
        self.info_name = info.name
        self.calls = 0  # solve calls made, for the record
        clauses = _one_digit(n, range(geometry.ncells))
        pysat_call(self.solver.append_formula, clauses)
        budget = Budget(max_clauses, deadline, used=len(clauses))
        ctx = RuleContext(self.varmap, self.top, budget, fresh=self._fresh, houses=False)
        self.rule_selectors: list[int] = []

        self._clauses: dict[int, list[list[int]]] = {}  # rule selector -> its clauses
        self._literals: dict[int, int] = {}  # and how many literals they hold, guarded
        self._locals: dict[frozenset[int], _Local] = {}  # see _view
        self._local_size = 0  # literals in the local solvers

        def add(rule: object, rule_clauses: list[list[int]]) -> None:
            selector = self._fresh()
            pysat_call(self.solver.append_formula, [[-selector] + c for c in rule_clauses])
            self.rule_selectors.append(selector)
            self._clauses[selector] = rule_clauses
            self._literals[selector] = sum(map(len, rule_clauses)) + len(rule_clauses)

        encode_rules(rules, ctx, add)
        self._all_literals = sum(self._literals.values())
        self._cells: dict[tuple[int, int], int] = {}
        self._cell_of: dict[int, tuple[int, int]] = {}  # selector -> (cell, mask)
        self._whole = _View(self.solver, self.varmap.decode)
        self._current: dict[int, tuple[int, int]] = {}  # cell -> its latest (cell, mask)
        self._current_sel: dict[int, int] = {}
        self.effort: int | None = None  # conflicts a question may take (None: any number)

    def _fresh(self) -> int:
        self.top += 1
        return self.top

    def lit(self, cell: int, d: int) -> int:
        """The literal "``cell`` holds ``d``"."""
        return cell * self.geometry.size + d

    def cell_fact(self, cell: int, mask: int) -> int:
        """The selector of "``cell`` holds one of the digits of ``mask``" (a candidate bitmask;
        one bit: its digit), made on first use. A cell's candidates only ever shrink along a
        path, so a new mask retires the cell's previous fact for good (a unit clause, which
        the solver then simplifies away)."""
        key = (cell, mask)
        selector = self._cells.get(key)
        if selector is None:
            old = self._current.get(cell)
            if old is not None:  # a cell's candidates only shrink: the old fact is done with
                del self._cells[old], self._cell_of[self._current_sel[cell]]
                pysat_call(self.solver.add_clause, [-self._current_sel[cell]])
            selector = self._cells[key] = self._fresh()
            self._cell_of[selector] = key
            self._current[cell], self._current_sel[cell] = key, selector
            pysat_call(self.solver.append_formula,
                       [[-selector, lit] for lit in _holds(self.geometry.size, cell, mask)])
        return selector

    def _solve(self, assumptions: list[int], solver: Any = None) -> bool | None:
        """One solve call under ``assumptions``; None when :attr:`effort` conflicts did not
        settle it. Questions about facts are small (a few milliseconds on 9x9), so the deadline
        is looked at between calls and, within one, every :data:`CONFLICT_SLICE` conflicts (a
        watchdog thread armed per call cost more than the calls themselves). A question is
        sliced so with no deadline too: a time limit that is not reached changes no step."""
        self.calls += 1
        solver = self.solver if solver is None else solver
        deadline = self.deadline
        if self.effort is not None:
            deadline.check()
            solver.conf_budget(self.effort)
            return pysat_call(solver.solve_limited, assumptions=assumptions)
        while True:  # in slices with a time limit or without, so that one never reached
            # leaves the search, and so the path, as it is without one
            deadline.check()
            solver.conf_budget(CONFLICT_SLICE)
            answer = pysat_call(solver.solve_limited, assumptions=assumptions)
            if answer is not None:
                return answer

    @contextlib.contextmanager
    def limited(self, effort: int | None) -> Iterator[None]:
        """Within the block, a question that takes more than ``effort`` conflicts gets no
        answer: a conclusion is then not counted as forced (None: no limit)."""
        before, self.effort = self.effort, effort
        try:
            yield
        finally:
            self.effort = before

    def _view(self, facts: Sequence[int], conclusions: Iterable[int]) -> _View:
        """Where :meth:`forced` asks about ``facts``: the small solver of their rules alone
        (:class:`_Local`, one per set of rules, kept) when those hold at most
        1/:data:`LOCAL_SHARE` of the rules' literals, else the whole formula's. The other rules
        are off either way (they cannot take a solution away), and cells no rule among the
        facts speaks of keep any digit, so both answer alike; a local solve costs a tenth of
        a whole one or less (it decides only its own variables).

        :meth:`shrink` and :meth:`forces` stay on the whole formula's solver: what it learns
        from them (and from nothing else now) is what keeps the questions of a combination of
        many rules within their conflict budgets (docs/setters-guide.md, timings).
        """
        rules = frozenset(f for f in facts if f in self._clauses)
        size = sum(self._literals[r] for r in rules)
        if not self.local or size * LOCAL_SHARE > self._all_literals or \
                any(f not in rules and f not in self._cell_of for f in facts):
            return self._whole
        local = self._locals.get(rules)
        if local is None:
            if self._local_size + size > LOCAL_LITERALS:
                self._drop_locals()
            local = self._locals[rules] = _Local(
                self.info_name, self.geometry, {r: self._clauses[r] for r in sorted(rules)},
                self._cell_of)
            self._local_size += size
        n = self.geometry.size
        local.cover({self._cell_of[f][0] for f in facts if f in self._cell_of}
                    | {(abs(c) - 1) // n for c in conclusions})
        return local

    def forced(self, facts: Sequence[int], conclusions: Iterable[int],
               witnesses: list[tuple[int, ...]] | None = None) -> list[int]:
        """The ``conclusions`` (literals) that ``facts`` (selectors) force, in their order.

        Those unit propagation from the facts reaches are forced at once. A *witness* (a
        grid, one digit a cell, that keeps the rules among ``facts``, 0 in cells they do not
        speak of: the caller's ``witnesses``, which this call extends) that also keeps their
        cell facts shows every conclusion it breaks not to be forced. Each conclusion left is
        asked of the solver (:meth:`_view`) with its negation assumed: no solution means
        forced, and a solution is one more witness. Witnesses carried from one question to
        the next over the same rules (the cells' candidates only ever shrink) spare most
        calls.
        """
        conclusions = list(conclusions)
        view = self._view(facts, conclusions)
        assumed = view.assume(facts)
        ok, implied = pysat_call(view.solver.propagate, assumptions=assumed)
        if not ok:  # the facts contradict each other: they force anything
            return conclusions
        sure = set(view.back(implied))
        left = [c for c in conclusions if c not in sure]
        if not left:
            return conclusions
        witnesses = [] if witnesses is None else witnesses
        limits = [self._cell_of[f] for f in facts if f in self._cell_of]
        n = self.geometry.size
        witnesses[:] = [w for w in witnesses
                        if all(w[cell] and mask >> (w[cell] - 1) & 1 for cell, mask in limits)]
        true: set[int] = set()  # the cell literals some witness makes true
        for w in witnesses:
            true.update(cell * n + d for cell, d in enumerate(w) if d)
        hint = True
        for c in left:
            if c < 0 and -c in true or c > 0 and any(0 < w[(c - 1) // n] != (c - 1) % n + 1
                                                   for w in witnesses):
                continue  # a witness breaks it
            if hint:  # steer the solver towards solutions that break conclusions left
                pysat_call(view.solver.set_phases,
                           [view.lit(-x) for x in left if -x not in true])
            answer = self._solve(assumed + [view.lit(-c)], view.solver)
            if answer:
                w = view.grid(view.solver.get_model())
                witnesses.append(w)
                true.update(cell * n + d for cell, d in enumerate(w) if d)
                hint = True
            elif answer is not None:
                sure.add(c)
                hint = False
        del witnesses[:-MAX_WITNESSES]
        return [c for c in conclusions if c in sure]

    def _drop_locals(self) -> None:
        for local in self._locals.values():
            local.solver.delete()
        self._locals.clear()
        self._local_size = 0

    def _ask(self, facts: Sequence[int], conclusion: int) -> tuple[bool | None, set[int]]:
        """Whether ``facts`` leave a solution that breaks ``conclusion`` (None: out of
        effort), and when none, the facts of the solver's core."""
        answer = self._solve(list(facts) + [-conclusion])
        if answer is not False:
            return answer, set()
        return answer, set(self.solver.get_core() or ())

    def forces(self, facts: Sequence[int], conclusion: int) -> bool:
        """True when ``facts`` force ``conclusion`` (and, within :meth:`limited`, the solver
        proved it in time)."""
        return self._ask(facts, conclusion)[0] is False

    def shrink(self, facts: Sequence[int], conclusion: int, *,
               keep: Iterable[int] = ()) -> tuple[list[int], bool]:
        """A subset of ``facts`` (which force ``conclusion``) that still forces it, and whether
        it is proven minimal. Members are tried for removal from the last one back (those in
        ``keep`` are never tried), so earlier members are kept where there is a choice; each
        smaller set that still forces it is replaced by its core. Within :meth:`limited`, a
        member whose removal the solver could not settle in time is kept, and the subset is
        then not proven minimal (it still forces the conclusion: only proven cores replace
        it); when even the first core is out of reach, ``facts`` come back whole."""
        kept = set(keep)
        answer, core = self._ask(facts, conclusion)
        if answer is None:  # out of effort before the first core: nothing shrunk, nor proven
            return list(facts), False
        if answer:
            raise ValueError("the facts do not force the conclusion")
        current = [f for f in facts if f in core]
        needed: set[int] = set()
        proven = True
        while True:
            untested = [f for f in reversed(current) if f not in needed and f not in kept]
            if not untested:
                return current, proven
            member = untested[0]
            rest = [f for f in current if f != member]
            answer, core = self._ask(rest, conclusion)
            if answer is False:
                current = [f for f in rest if f in core]
            else:
                needed.add(member)
                proven &= answer is not None

    def close(self) -> None:
        self._drop_locals()
        self.solver.delete()


class _View:
    """Questions about facts asked of the whole formula's solver, where a fact is its
    selector and a literal is itself."""

    def __init__(self, solver: Any, decode: Any) -> None:
        self.solver = solver
        self._decode = decode

    def assume(self, facts: Sequence[int]) -> list[int]:
        """The assumptions that switch ``facts`` on."""
        return list(facts)

    def lit(self, lit: int) -> int:
        """The solver's literal of a cell literal."""
        return lit

    def back(self, lits: Iterable[int]) -> Iterable[int]:
        """The cell literals (and others) of the solver's ``lits``."""
        return lits

    def grid(self, model: list[int]) -> tuple[int, ...]:
        """The digit ``model`` gives each cell (0 where it says nothing)."""
        return self._decode(model).cells


class _Local(_View):
    """A small solver of some rules, each guarded by its selector (numbered anew from 1 with
    every other variable, so that a solve decides only these), with exactly one digit in each
    cell they or a question speak of (:meth:`cover`); a cell fact is assumed as its literals.
    """

    def __init__(self, name: str, geometry: Geometry, rules: dict[int, list[list[int]]],
                 cell_of: dict[int, tuple[int, int]]) -> None:
        self.n, self.ncells = geometry.size, geometry.ncells
        self.solver = new_solver(name)
        self._cell_of = cell_of  # the FactSolver's: cell facts by selector
        self.ids: dict[int, int] = {}  # variable of the whole formula -> its number here
        self.names: list[int] = [0]  # and back
        self.cells: list[int] = []  # the cells covered, in order
        var, cells, n3 = self.lit, set[int](), self.ncells * self.n
        for selector, clauses in rules.items():
            guard = -var(selector)
            pysat_call(self.solver.append_formula, [[guard] + [var(x) for x in c]
                                                    for c in clauses])
            cells.update((abs(x) - 1) // self.n for c in clauses for x in c if abs(x) <= n3)
        self.cover(cells)

    def lit(self, lit: int) -> int:
        v = abs(lit)
        here = self.ids.get(v)
        if here is None:
            here = self.ids[v] = len(self.names)
            self.names.append(v)
        return here if lit > 0 else -here

    def assume(self, facts: Sequence[int]) -> list[int]:
        out: list[int] = []
        for f in facts:
            known = self._cell_of.get(f)  # a cell fact, as its literals; else a rule
            out += map(self.lit, [f] if known is None else _holds(self.n, *known))
        return out

    def back(self, lits: Iterable[int]) -> Iterable[int]:
        names = self.names
        return (names[x] if x > 0 else -names[-x] for x in lits)

    def cover(self, cells: Iterable[int]) -> None:
        """Exactly one digit in each of ``cells`` (those not covered yet)."""
        new = sorted(set(cells) - set(self.cells))
        if not new:
            return
        pysat_call(self.solver.append_formula, _one_digit(self.n, new, self.lit))
        self.cells += new

    def grid(self, model: list[int]) -> tuple[int, ...]:
        n, ids = self.n, self.ids
        cells = [0] * self.ncells
        for cell in self.cells:
            for d in range(1, n + 1):
                if model[ids[cell * n + d] - 1] > 0:
                    cells[cell] = d
                    break
        return tuple(cells)
