"""The Sudoku Explainer (SE) ladder: step by step, the first rung that makes progress, and the
puzzle's SE ratings.

SE solves as a person would: at each step it asks every technique in a fixed order (the
*ladder*, :data:`LADDER`) and takes the first step the first technique finds; a step that
places a digit (singles, and the *direct* variants, which place the hidden single their
eliminations leave) writes it in and its peers lose it. The ratings:

- ER: the hardest step's rating on the way to the solution;
- EP: the hardest before the first placement;
- ED: the hardest before the first step (the first step's rating).

The ladder is SE 1.2.1's order, which is not by rating everywhere: hidden singles (1.0 full
house, 1.2 box, 1.5 line), direct pointing/claiming (1.7/1.9), direct hidden pair (2.0), naked
single (2.3), direct hidden triple (2.5), pointing/claiming (2.6/2.8), naked pair (3.0),
X-wing (3.2), hidden pair (3.4), naked triple (3.6), swordfish (3.8), hidden triple (4.0),
XY-wing (4.2), XYZ-wing (4.4), unique rectangles and loops (4.5-5.0), naked quad (5.0),
jellyfish (5.2), hidden quad (5.4), BUG types 1 to 4 (5.6-6.2), aligned pair exclusion
(6.2), then SE's chaining rungs: X-, Y- and XY-cycles and forcing chains (6.5 and up,
:mod:`satdoku.native.chains`), aligned triplet exclusion (7.5), nishio (7.5), multiple (8.0)
and dynamic (8.5) forcing chains, dynamic forcing chains with locking, pairs and X-wings inside
(9.0), with cycles and forcing chains nested (9.5), with multiple forcing chains nested (10.0)
and with dynamic forcing chains nested (10.5: SE's levels 1 to 4, the first of its level 4;
:mod:`satdoku.native.nesting`). Past them (SE's other two rungs of level 4, dynamic forcing
chains "+" and nested inside, 10.5 and up) the ladder stops, and says so: the rating is then a
lower bound (``complete`` is False and ``er`` is the least SE could give, the hardest step so
far or :data:`BEYOND`, 10.5, if more).

>>> from satdoku.io.text import parse_puzzle
>>> r = se_rate(parse_puzzle(
...     ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85...").grid)
>>> r.er, r.ep, r.ed, r.hardest, r.complete
(2.3, 1.2, 1.2, 'Naked Single', True)
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from ..deadline import Deadline, TimeUp
from ..model.difficulty import ratings_text
from ..model.grid import Grid
from ..records import field, record
from .board import Board
from .chains import forcing_chain_or_cycle
from .dynamic import dynamic_forcing_chain, multiple_forcing_chain, nishio_forcing_chain
from .named import (NamedStep, aligned_exclusion, aligned_pair_exclusion, direct_locking, fish,
                    full_house_or_hidden_single, hidden_set, locking, naked_set, naked_single,
                    xy_wing)
from .nesting import (dynamic_forcing_chain_plus, nested_dynamic_forcing_chain,
                      nested_forcing_chain, nested_multiple_forcing_chain)
from .uniqueness import bug, unique_rectangle

__all__ = ["LADDER", "SERating", "se_rate", "se_steps", "next_step", "apply_step",
           "rates_above"]

Finder = Callable[..., "NamedStep | None"]  # a board, and the deadline for TIMED rungs

#: SE's rating of the rungs past the ladder: dynamic forcing chains with dynamic forcing chains
#: "+" or nested inside (its level 4, 8.5 + 0.5 * 4), the least a puzzle the ladder stalls on
#: rates.
BEYOND = 10.5

#: SE 1.2.1's techniques in the order it asks them (see the module docstring).
LADDER: tuple[tuple[str, Finder], ...] = (
    ("hidden single", full_house_or_hidden_single),
    ("direct locking", direct_locking),
    ("direct hidden pair", partial(hidden_set, k=2, direct=True)),
    ("naked single", naked_single),
    ("direct hidden triple", partial(hidden_set, k=3, direct=True)),
    ("locking", locking),
    ("naked pair", partial(naked_set, k=2)),
    ("x-wing", partial(fish, k=2)),
    ("hidden pair", partial(hidden_set, k=2)),
    ("naked triple", partial(naked_set, k=3)),
    ("swordfish", partial(fish, k=3)),
    ("hidden triple", partial(hidden_set, k=3)),
    ("xy-wing", xy_wing),
    ("xyz-wing", partial(xy_wing, xyz=True)),
    ("unique rectangle", unique_rectangle),
    ("naked quad", partial(naked_set, k=4)),
    ("jellyfish", partial(fish, k=4)),
    ("hidden quad", partial(hidden_set, k=4)),
    ("bug", bug),
    ("aligned pair exclusion", aligned_pair_exclusion),
    ("forcing chain or cycle", forcing_chain_or_cycle),
    ("aligned triplet exclusion", aligned_exclusion),
    ("nishio forcing chain", nishio_forcing_chain),
    ("multiple forcing chain", multiple_forcing_chain),
    ("dynamic forcing chain", dynamic_forcing_chain),
    ("dynamic forcing chain+", dynamic_forcing_chain_plus),
    ("nested forcing chain", nested_forcing_chain),
    ("nested multiple forcing chain", nested_multiple_forcing_chain),
    ("nested dynamic forcing chain", nested_dynamic_forcing_chain),
)

@record
class SERating:
    """A puzzle's SE ratings and the steps they come from.

    ``complete`` is False when the ladder stalled (or ``status`` is ``timeout``) before the
    grid was full: then ``er`` is a lower bound, and ``ep``/``ed`` too when no placement (or
    no step) was reached. ``hardest`` names the technique of the first step rated ``er``;
    ``stalled`` says where the ladder stopped (or ``'at the time limit after ...'``), e.g.
    ``'beyond the ladder after XY-Cycle: ER >= 7.1'``."""

    er: float = 0.0
    ep: float = 0.0
    ed: float = 0.0
    hardest: str = ""
    complete: bool = True
    status: str = "solved"
    steps: list[NamedStep] = field(default_factory=list)
    stalled: str | None = None
    placements: int = 0

    @property
    def ep_exact(self) -> bool:
        """Whether ``ep`` is SE's EP: the ladder finished or placed a digit before stopping."""
        return self.complete or self.placements > 0

    @property
    def ed_exact(self) -> bool:
        """Whether ``ed`` is SE's ED: the ladder finished or took a step before stopping."""
        return self.complete or bool(self.steps)

    @property
    def text(self) -> str:
        """``'ER 3.0/EP 1.2/ED 1.2 (Naked Pair)'``, with ``>=`` on lower bounds."""
        text = ratings_text(self.er, self.ep, self.ed, not self.complete, not self.ep_exact,
                            not self.ed_exact)
        return f"{text} ({self.hardest})"


#: The least rating of the steps of each rung that is not a chaining one (those have theirs as
#: ``base``, :func:`floor`).
FLOORS = {"hidden single": 1.0, "direct locking": 1.7, "direct hidden pair": 2.0,
          "naked single": 2.3, "direct hidden triple": 2.5, "locking": 2.6, "naked pair": 3.0,
          "x-wing": 3.2, "hidden pair": 3.4, "naked triple": 3.6, "swordfish": 3.8,
          "hidden triple": 4.0, "xy-wing": 4.2, "xyz-wing": 4.4, "unique rectangle": 4.5,
          "naked quad": 5.0, "jellyfish": 5.2, "hidden quad": 5.4, "bug": 5.6,
          "aligned pair exclusion": 6.2, "forcing chain or cycle": 6.5,
          "aligned triplet exclusion": 7.5}


def floor(name: str, finder: Finder) -> float:
    """The least rating of a rung's steps. It rises along the ladder, so a time limit met in a
    rung bounds ER by the rung's floor (the rungs before found nothing there), and from the
    first rung whose floor is above a rating every step rates above it."""
    return getattr(finder, "base", None) or FLOORS[name]


class Stopped(TimeUp):
    """The time limit met the ladder in its rung number ``rung``: on that board every rung
    before it found nothing, so SE's next step rates at least :attr:`floor`."""

    def __init__(self, rung: int) -> None:
        super().__init__(rung)
        self.floor = floor(*LADDER[rung]) if rung < len(LADDER) else BEYOND


#: Rungs whose search is long enough to look at the deadline as it goes.
TIMED = {"forcing chain or cycle", "nishio forcing chain", "multiple forcing chain",
         "dynamic forcing chain", "dynamic forcing chain+", "nested forcing chain",
         "nested multiple forcing chain", "nested dynamic forcing chain"}


def next_step(board: Board, deadline: Deadline | None = None,
              below: float | None = None) -> NamedStep | None:
    """The step SE takes next on ``board``: the first rung's first step, or None. Raises
    :class:`~satdoku.deadline.TimeUp` when ``deadline`` passes. ``below``: the rungs whose
    steps all rate above it are not asked (:func:`floor`)."""
    for rung, (name, finder) in enumerate(LADDER):
        if below is not None and floor(name, finder) > below:
            break
        try:
            if deadline is not None:
                deadline.check()
            step = finder(board, deadline) if name in TIMED else finder(board)
        except Stopped:
            raise
        except TimeUp:
            raise Stopped(rung) from None
        if step is not None:
            return step
    return None


def apply_step(board: Board, step: NamedStep) -> bool:
    """Make ``step`` on ``board``; False when that breaks it (never on a unique puzzle)."""
    return board.apply(step.removes, () if step.place is None else (step.place,))


def se_steps(grid: Grid, deadline: Deadline | None = None, below: float | None = None):
    """The ladder's steps for ``grid`` with the board before each: yields (board, step); a
    board copy is not made, so read it before asking for the next step. Stops when the grid is
    full, the ladder stalls, or ``deadline`` passes (:class:`~satdoku.deadline.TimeUp`);
    ``below``: see :func:`next_step`."""
    board, ok = Board.from_grid(grid)
    if not ok:
        raise ValueError("the givens clash")
    while not board.solved():
        step = next_step(board, deadline, below)
        if step is None:
            return
        yield board, step
        if step.place is None and not any(board.cand[c] >> (d - 1) & 1 for c, d in step.removes):
            raise ValueError(f"{step.technique} changes nothing: a bug in its finder")
        if not apply_step(board, step):
            raise ValueError(f"{step.technique} broke the board: the puzzle has no solution")


def rates_above(grid: Grid, ceiling: float, deadline: Deadline | None = None) -> bool:
    """Whether SE's ER of ``grid`` (one solution) is above ``ceiling``: the ladder stops at its
    first step above it and does not ask the chaining rungs above it, so that a stall, or the
    time limit, counts as above it too."""
    cap, placed = ceiling + 1e-9, 0
    try:
        for _, step in se_steps(grid, deadline, below=cap):
            if step.rating > cap:
                return True
            placed += step.place is not None
    except TimeUp:
        return True
    return placed < grid.geometry.ncells - grid.nclues


def se_rate(grid: Grid, deadline: Deadline | None = None) -> SERating:
    """SE's ER/EP/ED for a puzzle with one solution (see the module docstring); at the time
    limit, lower bounds (the rung it stopped in tells how low, :class:`Stopped`)."""
    r = SERating()
    try:
        for _, step in se_steps(grid, deadline):
            r.steps.append(step)
            if step.rating > r.er:
                r.er, r.hardest = step.rating, step.technique
            if len(r.steps) == 1:
                r.ed = r.er
            if step.place is not None:
                r.placements += 1
                if r.placements == 1:
                    r.ep = r.er
    except TimeUp as stop:
        r.status, r.complete = "timeout", False
        if isinstance(stop, Stopped):
            r.er = max(r.er, stop.floor)
            last = r.steps[-1].technique if r.steps else "the givens"
            r.stalled = f"at the time limit after {last}: ER >= {r.er:.1f}"
    if r.complete and r.placements < grid.geometry.ncells - grid.nclues:
        # SE's next step is one the ladder lacks: the rest of its level 4 (10.5 and up)
        r.complete, r.status = False, "stalled"
        last = r.steps[-1].technique if r.steps else "the givens"
        r.er = max(r.er, BEYOND)
        r.stalled = f"beyond the ladder after {last}: ER >= {r.er:.1f}"
    if not r.placements:
        r.ep = r.er
    if not r.steps:
        r.ed = r.er
    return r
