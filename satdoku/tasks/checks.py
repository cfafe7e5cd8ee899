"""Publishing checks for setters (``rate --checks``): what to look at in a puzzle's solving path
before publishing it, read from the same path its rating comes from (:mod:`satdoku.tasks.rate`).

- break-in: the first step past singles (full house, hidden and naked singles), where a solver
  first has to find something; None when singles solve the puzzle.
- spike: the hardest step when it stands :data:`SPIKE` or more above every other step of the
  path (one step far harder than the rest, which solvers find unfair); None otherwise.
- tedium: how many steps of each label's band the path takes (many steps near the hardest make
  a long solve; :mod:`satdoku.model.difficulty`).
- unused rules: the rules of a variant puzzle that no step of its path cites (a rule that does
  no work, or whose work the givens or other rules already do).
- removable: the givens and rules that could each go alone with the puzzle staying unique
  (each a count to 2 by SAT, verified: :func:`satdoku.tasks.members.redundant_members`).

A path cut short (``bound``) makes the first three as far as it goes, and leaves unused rules
unsaid (a later step might cite them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..deadline import Deadline
from ..model.difficulty import LABELS, label_for
from ..model.grid import Grid
from ..records import field, record
from .members import Member

if TYPE_CHECKING:  # pragma: no cover
    from .rate import Rating

__all__ = ["Checks", "SPIKE", "SINGLES", "check_rating"]

#: How far above every other step the hardest must stand to be a spike (SE's scale).
SPIKE = 1.5

#: The techniques of singles, as the ladder and a variant's path name them.
SINGLES = frozenset({"Full House", "Hidden Single", "Naked Single", "hidden single",
                     "naked single"})


@record
class Checks:
    """The publishing checks of one unique puzzle (see the module docstring). A step is
    (step number, technique, rating); ``unused_rules`` are indices into the puzzle's rules
    (None: not known, the path was cut short); ``removable`` members (None: not looked for)."""

    break_in: tuple[int, str, float] | None = None
    spike: tuple[int, str, float] | None = None
    next_hardest: float = 0.0
    by_label: dict[str, int] = field(default_factory=dict)
    unused_rules: list[int] | None = None
    removable: list[Member] | None = None

    def as_dict(self, describe: Any) -> dict[str, Any]:
        """JSON-ready; ``describe(member)`` names a given or rule (``'r1c6=5'``)."""
        def step(s):
            return None if s is None else {"step": s[0], "technique": s[1], "rating": s[2]}
        return {"break_in": step(self.break_in), "spike": step(self.spike),
                "next_hardest": self.next_hardest, "steps_by_label": self.by_label,
                "unused_rules": None if self.unused_rules is None else
                [describe(("rule", i)) for i in self.unused_rules],
                "removable": None if self.removable is None else
                [describe(m) for m in self.removable]}


def _steps(rating: Rating) -> list[tuple[int, str, float]]:
    """(number, technique, rating) of each step the rating comes from."""
    if rating.path is not None:
        from .path import step_rating
        return [(s.step, s.technique, step_rating(s)) for s in rating.path.steps
                if s.technique != "timeout"]
    if rating.se is not None:
        return [(i, s.technique, s.rating) for i, s in enumerate(rating.se.steps, 1)]
    return []


def check_rating(rating: Rating, grid: Grid, constraints: tuple = (), *, solver: Any = None,
                 deadline: Deadline | None = None) -> Checks:
    """The :class:`Checks` of a unique puzzle's ``rating``; with a SAT ``solver``
    (:class:`~satdoku.sat.solver.SatSolver`), its removable givens and rules too (TimeUp when
    ``deadline`` passes)."""
    steps = _steps(rating)
    checks = Checks()
    checks.break_in = next((s for s in steps if s[1] not in SINGLES), None)
    if steps:
        hardest = max(steps, key=lambda s: s[2])
        others = [s[2] for s in steps if s is not hardest]
        checks.next_hardest = max(others, default=0.0)
        if hardest[2] - checks.next_hardest >= SPIKE - 1e-9:
            checks.spike = hardest
    counts: dict[str, int] = {}
    for s in steps:
        counts[label_for(s[2])] = counts.get(label_for(s[2]), 0) + 1
    checks.by_label = {name: counts[name] for _, name in LABELS if name in counts}
    path = rating.path
    if not constraints:
        checks.unused_rules = []
    elif path is not None and not rating.bound:
        cited = {path.rules[r].constraint for s in path.steps for r in s.rules}
        checks.unused_rules = [i for i in range(len(constraints)) if i not in cited]
    if solver is not None:
        from .members import redundant_members
        checks.removable, _, _ = redundant_members(solver, grid, constraints, deadline=deadline,
                                                   kept=False)
    return checks
