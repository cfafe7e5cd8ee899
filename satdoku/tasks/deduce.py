"""The next deduction of a step path beyond singles, from minimal sets of facts found by SAT.

:class:`Deducer` keeps one :class:`~satdoku.sat.facts.FactSolver` for a puzzle and answers
:meth:`Deducer.next_step` by tiers (see :mod:`satdoku.tasks.steps`):

- one rule: each rule fact, with the cell facts of its cells, is asked which candidates it
  forces out (:meth:`FactSolver.forced`); each one is shrunk to a minimal set of facts, and the
  fewest facts win. A rule is asked again only when one of its cells changed.
- two rules: the same for every pair of rule facts that share two cells or more (rules that
  share one cell, as a row and a column do, force nothing together that each does not force
  alone: they meet in one variable).
- combinations: for each candidate that is not the solution's and each open cell's digit, the
  rules around its cell, layer by layer (those holding it, then those sharing a cell with
  them, ...), until they force it; of those forced within the fewest layers, the
  :data:`COMBINATION_TRIES` with fewest rules are shrunk, rules first (inner layers kept where
  there is a choice), then cells; the fewest rules win, then the fewest facts. This tier is the best of its tries,
  not proven the smallest.

A step takes every candidate its facts force out in the cells it speaks of (the same facts
strike a digit from a whole line, as locked candidates do): each is checked by SAT, within
:data:`MAX_SHRINK_EFFORT` conflicts (one that takes more is left to a later step).
"""

from __future__ import annotations

from ..budget import DEFAULT_MAX_CLAUSES
from ..deadline import Deadline
from ..model.digits import bit, bits
from ..model.grid import Grid
from ..native.board import Board
from ..records import record, replace
from ..sat.facts import FactSolver
from .path import Step, StepPath

__all__ = ["Deducer", "name_step", "COMBINATION_TRIES"]

#: Cores shrunk per combination step: the cores with fewest rules are shrunk first, and the
#: best of these many is taken.
COMBINATION_TRIES = 4

#: Conflicts a combination may take to be proved, at first: the deductions proved within it are
#: looked for first; when there is none, ten times more, up to MAX_EFFORT, then any number.
#: (A near-empty grid's long combinations can take seconds a question: Orbit.)
COMBINATION_EFFORT = 1_000
MAX_EFFORT = 100_000
#: Conflicts a question may take while a combination is shrunk, at first, and at most (see
#: :meth:`Deducer._shrunk`).
SHRINK_EFFORT = 2_000
MAX_SHRINK_EFFORT = 20_000
#: Conflicts a question may take while the shortest start of a combination's layers is looked
#: for (:meth:`Deducer._prefix`): one out of effort counts as not forcing, and the shrink that
#: follows starts from more facts. (At 100,000, Bird in a Storm spent 21 of its first 30 s
#: there.)
PREFIX_EFFORT = 2_000


@record
class _Found:
    """A deduction: the facts (selectors) that force ``conclusion``; ``cost`` orders them;
    ``minimal``: proven so (see :meth:`FactSolver.shrink`)."""

    cost: tuple
    conclusion: int
    facts: list[int]
    minimal: bool = True


class Deducer:
    """Finds the next step beyond singles for one puzzle (see the module docstring)."""

    def __init__(self, path: StepPath, board: Board, solution: Grid, *,
                 sat_solver: str | None, max_clauses: int | None, deadline: Deadline,
                 max_rules: int | None) -> None:
        self.path, self.board, self.solution = path, board, solution.cells
        self.sat_solver, self.deadline = sat_solver, deadline
        self.max_clauses = DEFAULT_MAX_CLAUSES if max_clauses is None else max_clauses
        self.max_rules = max_rules
        self.solver: FactSolver | None = None  # made when first needed
        rules = path.rules
        ncells = path.geometry.ncells
        self.cell_rules: list[list[int]] = [[] for _ in range(ncells)]
        for r, fact in enumerate(rules):
            for c in fact.cells:
                self.cell_rules[c].append(r)
        # Two rules that share one cell force nothing that each does not force alone with the
        # candidates of that cell (they meet in one variable: a tree), so pairs share two.
        shared: dict[tuple[int, int], int] = {}
        for rs in self.cell_rules:
            for i, a in enumerate(rs):
                for b in rs[i + 1:]:
                    shared[a, b] = shared.get((a, b), 0) + 1
        self.pairs = sorted(pair for pair, k in shared.items() if k >= 2)
        self.scopes = [self._scope(a, b) for a, b in self.pairs]
        self.cell_pairs: list[list[int]] = [[] for _ in range(ncells)]
        for p, scope in enumerate(self.scopes):
            for c in scope:
                self.cell_pairs[c].append(p)
        self.neighbours = [sorted({q for c in fact.cells for q in self.cell_rules[c]} - {r})
                           for r, fact in enumerate(rules)]
        self.layers: dict[int, list[list[int]]] = {}
        self.by_rule: dict[int, _Found | None] = {}  # cached best deduction per rule
        self.by_pair: dict[int, _Found | None] = {}
        # Witnesses (FactSolver.forced) of each rule and pair, by their rules, and of each
        # cell's layers, by (cell, radius).
        self.witnesses: dict[tuple[int, ...], list] = {}

    def _scope(self, a: int, b: int) -> tuple[int, ...]:
        """The cells a pair of rules is asked about: all of theirs, but a rule over most of
        the grid (anti-knight, non-consecutive...) paired with a smaller one only over the
        smaller one's cells and their partners under the wide rule's pairs of cells: a
        deduction that reaches farther cites more cells, and every step would ask it again."""
        rules, n = self.path.rules, self.path.geometry.size
        cells = set(rules[a].cells) | set(rules[b].cells)
        wide = [r for r in (a, b) if len(rules[r].cells) > 2 * n]
        if len(wide) != 1:
            return tuple(sorted(cells))
        big = rules[wide[0]]
        small = set(rules[b if wide[0] == a else a].cells)
        pairs = getattr(big.rule, "pairs", None)
        if pairs is None:
            return tuple(sorted(cells))
        return tuple(sorted(small | {y for x, y in pairs if x in small}
                            | {x for x, y in pairs if y in small}))

    def close(self) -> int:
        """Free the solver; the SAT calls made."""
        if self.solver is None:
            return 0
        self.solver.close()
        return self.solver.calls

    def _facts(self) -> FactSolver:
        """The fact solver, made when first needed."""
        if self.solver is None:
            s = self.solver = FactSolver(self.path.geometry, [f.rule for f in self.path.rules],
                                         sat_solver=self.sat_solver,
                                         max_clauses=self.max_clauses, deadline=self.deadline)
            self.rule_of = {sel: r for r, sel in enumerate(s.rule_selectors)}
            ncells = self.path.geometry.ncells
            self.cell_sel: list[int] = [0] * ncells  # each cell's fact, kept by _forget
            self.rank: list[tuple] = [()] * ncells
        return self.solver

    def _forget(self) -> None:
        """Drop the cached deductions of every rule and pair whose cells changed, and bring
        the cell facts up to date."""
        s, cand, placed = self._facts(), self.board.cand, self.board.placed
        for cell in self.board.changes():
            for r in self.cell_rules[cell]:
                self.by_rule.pop(r, None)
            for p in self.cell_pairs[cell]:
                self.by_pair.pop(p, None)
            self.cell_sel[cell] = s.cell_fact(cell, cand[cell])
            self.rank[cell] = (not placed[cell], bin(cand[cell]).count("1"), cell)

    def _cell_facts(self, cells) -> list[int]:
        """Selectors of the cell facts of ``cells``: placed ones first, then open cells, fewest
        candidates first (shrinking keeps the first ones where there is a choice, so placed
        digits, the easiest facts to read, are the ones cited)."""
        sel = self.cell_sel
        return [sel[c] for c in sorted(cells, key=self.rank.__getitem__)]

    def _open_conclusions(self, cells) -> list[int]:
        """"Not d" for each candidate of the open ``cells`` that is not the solution's."""
        s, cand, placed, sol = self._facts(), self.board.cand, self.board.placed, self.solution
        return [-s.lit(c, d) for c in sorted(cells) if not placed[c] for d in bits(cand[c])
                if d != sol[c]]

    def _best_of(self, rules: tuple[int, ...], cells: tuple[int, ...]) -> _Found | None:
        """The deduction with fewest facts that ``rules`` (all of them needed) make with the
        cell facts of ``cells``, about those cells."""
        s = self._facts()
        selectors = [s.rule_selectors[r] for r in rules]
        facts = selectors + self._cell_facts(cells)
        best = None
        witnesses = self.witnesses.setdefault(rules, [])
        for conclusion in s.forced(facts, self._open_conclusions(cells), witnesses):
            shrunk, _ = s.shrink(facts, conclusion, keep=selectors)
            if any(sel not in shrunk for sel in selectors):
                continue  # fewer rules do it: a tier below found it, or will
            if best is None or len(shrunk) < len(best.facts):
                best = _Found((len(rules), len(shrunk)), conclusion, shrunk)
                if len(shrunk) == len(rules):
                    break  # the rules alone: nothing has fewer facts
        return best

    def next_step(self) -> Step:
        """The easiest next deduction (see the module docstring); raises TimeUp."""
        self._facts()
        self._forget()
        found = self._tier(self.by_rule, [((r,), fact.cells)
                                          for r, fact in enumerate(self.path.rules)])
        if found is None and (self.max_rules is None or self.max_rules >= 2):
            found = self._tier(self.by_pair, list(zip(self.pairs, self.scopes)))
        if found is None:
            found = self._combination()
        if found is None:
            return self._guess()
        return self._step(found)

    def _tier(self, cache: dict, groups: list) -> _Found | None:
        """The best deduction of the groups (rules, cells), each asked again only when one of
        its cells changed."""
        best = None
        for key, (rules, cells) in enumerate(groups):
            if key not in cache:
                cache[key] = self._best_of(rules, cells)
            found = cache[key]
            if found is not None and (best is None or found.cost < best.cost):
                best = found
        return best

    def _layers(self, cell: int) -> list[list[int]]:
        """The rules around ``cell`` in layers: those holding it, then those that share a cell
        with an earlier layer, and so on (the rules' graph is fixed: computed once a cell)."""
        layers = self.layers.get(cell)
        if layers is None:
            seen = set(self.cell_rules[cell])
            layers = [sorted(seen)]
            while True:
                ring = sorted({r for q in layers[-1] for r in self.neighbours[q]} - seen)
                if not ring:
                    break
                seen.update(ring)
                layers.append(ring)
            self.layers[cell] = layers
        return layers

    def _combination(self) -> _Found | None:
        """The combination with fewest rules found: for each conclusion, the layers of rules
        around its cell are added one by one (with the cell facts of their cells) until they
        force it; the conclusions forced within the fewest layers are shrunk, rules first
        (inner layers kept where there is a choice, so the rules cited stay near), then
        cells."""
        s = self._facts()
        effort: int | None = COMBINATION_EFFORT
        while True:  # the deductions easy to prove first, then harder ones
            with s.limited(effort):
                near = self._near()
            if near or effort is None:
                break
            effort = effort * 10 if effort < MAX_EFFORT else None
        best = None
        for _, _, conclusion, rules in sorted(near)[:COMBINATION_TRIES]:
            found = self._shrunk(conclusion, rules, best)
            if found is not None and (best is None or found.cost < best.cost):
                best = found
        return best

    def _shrunk(self, conclusion: int, rules: list[int], best: _Found | None) -> _Found | None:
        """``conclusion`` with the fewest facts of ``rules`` and their cells' facts, rules
        first (inner layers kept where there is a choice), then cells; None when it takes more
        rules than ``best`` or than allowed. Each shrink first gets :data:`SHRINK_EFFORT`
        conflicts a question, ten times more while that leaves it unproven, up to
        :data:`MAX_SHRINK_EFFORT` (past it the step says it is not proven minimal)."""
        s = self._facts()
        rules = self._prefix(conclusion, rules)
        facts = self._group_facts(rules)
        rule_sels = set(s.rule_selectors[r] for r in rules)
        fewer, proven = self._patiently(facts, conclusion,
                                        [f for f in facts if f not in rule_sels])
        kept = [f for f in fewer if f in rule_sels]
        if self.max_rules is not None and len(kept) > self.max_rules:
            return None
        if best is not None and len(kept) > best.cost[0]:
            return None
        shrunk, cells_proven = self._patiently(fewer, conclusion, kept)
        return _Found((len(kept), len(shrunk)), conclusion, shrunk, proven and cells_proven)

    def _prefix(self, conclusion: int, rules: list[int]) -> list[int]:
        """The shortest start of ``rules`` (inner layers first) that forces ``conclusion``
        with its cells' facts, found by halving (forcing only grows with more rules): the
        shrink that follows then starts from fewer facts."""
        s = self._facts()
        low, high = 0, len(rules)  # rules[:high] forces it; rules[:low] does not (or 0)
        with s.limited(PREFIX_EFFORT):
            while high - low > 1:
                middle = (low + high) // 2
                if s.forces(self._group_facts(rules[:middle]), conclusion):
                    high = middle
                else:
                    low = middle
        return rules[:high]

    def _patiently(self, facts: list[int], conclusion: int, keep: list[int]
                   ) -> tuple[list[int], bool]:
        s, effort = self._facts(), SHRINK_EFFORT
        while True:
            with s.limited(effort):
                shrunk, proven = s.shrink(facts, conclusion, keep=keep)
            if proven or effort >= MAX_SHRINK_EFFORT:
                return shrunk, proven
            facts, effort = shrunk, effort * 10

    def _near(self) -> list[tuple[int, int, int, list[int]]]:
        """For each open cell, the conclusions about it forced by the fewest layers of rules
        around it (the fewest over all cells): (rules, cell, conclusion, rules) each."""
        s = self._facts()
        reach = len(self.path.rules)
        near: list[tuple[int, int, int, list[int]]] = []
        for cell in self.board.open_cells():
            at_cell = self._open_conclusions((cell,)) + [s.lit(cell, self.solution[cell])]
            rules: list[int] = []
            for radius, ring in enumerate(self._layers(cell)):
                if radius > reach:
                    break
                rules += ring
                witnesses = self.witnesses.setdefault((cell, radius), [])
                forced = s.forced(self._group_facts(rules), at_cell, witnesses)
                if forced:
                    if radius < reach:
                        reach, near = radius, []
                    near += [(len(rules), cell, c, list(rules)) for c in forced]
                    break
        return near

    def _group_facts(self, rules: list[int]) -> list[int]:
        """The selectors of ``rules`` and of the cell facts of their cells."""
        s = self._facts()
        cells = {c for r in rules for c in self.path.rules[r].cells}
        return [s.rule_selectors[r] for r in rules] + self._cell_facts(cells)

    def _step(self, found: _Found) -> Step:
        """The step of ``found``: every candidate its facts force out in the cells it speaks
        of, or its placement."""
        s, path = self._facts(), self.path
        rules = tuple(sorted(self.rule_of[f] for f in found.facts if f in self.rule_of))
        cited = {c for c, _ in self._cited(found.facts)}
        cells = cited | {c for r in rules for c in path.rules[r].cells}
        cells.add((abs(found.conclusion) - 1) // path.geometry.size)
        placed: tuple = ()
        eliminated: tuple = ()
        if found.conclusion > 0:
            placed = (cells_of(found.conclusion, path.geometry.size),)
        else:
            struck: dict[int, list[int]] = {}
            with s.limited(MAX_SHRINK_EFFORT):  # (what is not proven in time is left out)
                forced = set(s.forced(found.facts, self._open_conclusions(cells)))
            forced.add(found.conclusion)  # proven already
            for lit in sorted(forced, reverse=True):
                cell, d = cells_of(-lit, path.geometry.size)
                struck.setdefault(cell, []).append(d)
            eliminated = tuple((c, tuple(ds)) for c, ds in sorted(struck.items()))
        step = Step(0, "", "", placed=placed, eliminated=eliminated, rules=rules,
                    cells=tuple(sorted(self._cited(found.facts))), minimal=found.minimal,
                    path=path)
        return name_step(step, self.board.cand)

    def _cited(self, facts: list[int]) -> list[tuple[int, int]]:
        """The (cell, candidates) of the cell facts among ``facts``."""
        s, cand = self._facts(), self.board.cand
        wanted = set(facts)
        return [(c, cand[c]) for c in range(self.path.geometry.ncells)
                if s.cell_fact(c, cand[c]) in wanted]

    def _guess(self) -> Step:
        board, path = self.board, self.path
        cell = min(board.open_cells(), key=lambda c: (bin(board.cand[c]).count("1"), c))
        d = self.solution[cell]
        name, symbol = path.geometry.cell_name(cell), path.alphabet.symbol(d)
        return Step(0, "guess", f"no deduction from at most {self.max_rules} rules is left: "
                    f"{name} = {symbol} is guessed (the solution's digit), in the open cell "
                    f"with fewest candidates ({path.digits_text(bits(board.cand[cell]))})",
                    placed=((cell, d),))


def cells_of(lit: int, size: int) -> tuple[int, int]:
    """(cell, digit) of a positive cell literal."""
    cell, d0 = divmod(lit - 1, size)
    return cell, d0 + 1


def name_step(step: Step, cand: list[int]) -> Step:
    """``step`` with its technique and reason: a classic technique where it is one (subsets,
    locked candidates), else "one rule" or "combination" with the facts it rests on.
    ``cand``: the candidates before the step."""
    from ..records import replace
    path = step.path
    if path is None:
        raise ValueError("a step is named from its path's rules: Step.path is unset")
    named = _subset(step, path, cand) or _locked(step, path)
    if named is not None:
        technique, reason, houses = named
        return replace(step, technique=technique, reason=reason, houses=houses)
    technique = "one rule" if len(step.rules) == 1 else "combination"
    rules = ", ".join(path.rules[r].name for r in step.rules)
    cells = ", ".join(path.cell_text(c, m) for c, m in step.cells)
    reason = f"{path.conclusion_text(step.placed, step.eliminated)}, by {rules}"
    if cells:
        reason += f" with {cells}"
    if not step.minimal:
        reason += " (not proven minimal: the solver ran out of effort deciding whether a fact " \
                  "can go)"
    return replace(step, technique=technique, reason=reason)


_SUBSETS = {2: "pair", 3: "triple", 4: "quad"}

#: A classic technique a step is: its name, the reason, the houses it names.
_Named = tuple[str, str, tuple[int, ...]]


def _subset(step: Step, path: StepPath, cand: list[int]) -> _Named | None:
    """(technique, reason, houses) of a naked or hidden subset, or None."""
    h = path.rules[step.rules[0]].house if len(step.rules) == 1 else None
    if h is None or step.placed:
        return None
    house = set(path.geometry.houses[h])
    losers = {c for c, _ in step.eliminated}
    cited = dict(step.cells)
    name, hname = path.geometry.cell_name, path.geometry.house_name(h)
    union = 0
    for m in cited.values():
        union |= m
    k = len(cited)
    if k in _SUBSETS and not losers & set(cited) and bin(union).count("1") == k and \
            all(bit(d) & union for _, ds in step.eliminated for d in ds):
        return (f"naked {_SUBSETS[k]}", f"{', '.join(map(name, sorted(cited)))} hold "
                f"{path.digits_text(bits(union))} between them in {hname}, so "
                f"{path.conclusion_text((), step.eliminated)}", (h,))
    inside = house - set(cited)
    k = len(inside)
    if k in _SUBSETS and losers <= inside:
        confined = 0
        for c in inside:
            confined |= cand[c]
        confined &= ~union
        if bin(confined).count("1") == k:
            return (f"hidden {_SUBSETS[k]}", f"{path.digits_text(bits(confined))} have no "
                    f"other place in {hname} than {', '.join(map(name, sorted(inside)))}, so "
                    f"{path.conclusion_text((), step.eliminated)}", (h,))
    return None


def _locked(step: Step, path: StepPath) -> _Named | None:
    """(technique, reason, houses) of pointing or claiming, or None."""
    if len(step.rules) != 2 or step.placed or len(step.eliminated) == 0:
        return None
    geo = path.geometry
    houses = [h for r in step.rules if (h := path.rules[r].house) is not None]
    if len(houses) != len(step.rules):
        return None
    n = geo.size
    boxes = [h for h in houses if h >= 2 * n]
    lines = [h for h in houses if h < 2 * n]
    digits = {d for _, ds in step.eliminated for d in ds}
    if len(boxes) != 1 or len(lines) != 1 or len(digits) != 1:
        return None
    box, line = set(geo.houses[boxes[0]]), set(geo.houses[lines[0]])
    losers = {c for c, _ in step.eliminated}
    cited = {c for c, _ in step.cells}
    d = digits.pop()
    sym = path.alphabet.symbol(d)
    names = ", ".join(geo.cell_name(c) for c in sorted(losers))
    verb = "lose" if len(losers) > 1 else "loses"
    for kind, where, rest, w, r in (("pointing", box, line, boxes[0], lines[0]),
                                    ("claiming", line, box, lines[0], boxes[0])):
        if losers <= rest - where and cited <= where - rest:
            return (kind, f"{sym} in {geo.house_name(w)} lies only in {geo.house_name(r)}, "
                          f"so {names} {verb} {sym}", (w, r))
    return None
