"""A path of steps a person could follow to solve any puzzle, classic or variant, each step
justified by a minimal set of facts that forces it.

The words (candidates, rule and cell facts, steps, levels) are those of
:mod:`satdoku.tasks.path`.

A classic puzzle's path begins with Sudoku Explainer's ladder (:mod:`satdoku.native.ladder`):
its named steps with SE's ratings, so that the path, ``explain``'s header and ``rate`` tell one
story. Where the ladder stops (a step beyond its rungs) the path goes on as a variant's does.

Each step of a variant's path is the easiest deduction found, tier by tier
(:mod:`satdoku.tasks.deduce`):

1. singles, without SAT, found as the ladder finds them (:mod:`satdoku.native.named`): a
   digit with one place left in a house (hidden single; boxes, then columns, then rows, as
   SE scans them), then a cell with one candidate left (naked single), in SE's order (a
   hidden single rates lower);
2. one rule with the candidates of its cells, fewest facts first: for a house these are the
   subsets (naked and hidden pairs, triples, quads), for a killer cage its sums;
3. two rules that share a cell: locked candidates (a box and a line), a cage and its box;
4. combinations of more rules, fewest rules first, then fewest facts.

The classic techniques are named where a step is one (:func:`satdoku.tasks.deduce.name_step`);
the other steps say which rules and which cells they rest on. The path is the same for classic
and variant puzzles (a classic puzzle is a puzzle with no rules). The solution is known before
the path starts (explain finds it first), so only candidates that are not the solution's are
ever asked about, and a unique puzzle always has a next step, however many rules it takes:
``max_rules`` turns a step that needs more rules into a *guess* (the solution's digit placed
in the open cell with fewest candidates), so that the path says where logic of that size ends.
"""

from __future__ import annotations

from ..records import replace

from ..budget import DEFAULT_MAX_CLAUSES, Budget
from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..model.alphabet import Alphabet, alphabet_for
from ..model.grid import Grid
from ..native.board import Board
from ..native.named import hidden_single, naked_single, se_houses
from ..records import replace
from .deduce import Deducer
from .path import (STEP_KINDS, PathRating, RuleFact, Step, StepPath, path_rating,
                   rule_facts, step_rating)

__all__ = ["RuleFact", "Step", "StepPath", "rule_facts", "step_path", "STEP_KINDS",
           "step_rating", "path_rating", "PathRating"]


def _naked_single(board: Board, path: StepPath) -> Step | None:
    if (found := naked_single(board)) is None or found.place is None:
        return None
    cell, d = found.place
    name = path.geometry.cell_name(cell)
    return Step(0, "naked single", f"{name} = {path.alphabet.symbol(d)}, the only digit "
                f"left in {name}", placed=((cell, d),), cells=((cell, board.cand[cell]),))


def _hidden_single(board: Board, path: StepPath) -> Step | None:
    geo = path.geometry
    if (found := hidden_single(board, se_houses(geo))) is None:
        return None
    h, cell, d = found
    others = tuple((c, board.cand[c]) for c in geo.houses[h] if c != cell)
    return Step(0, "hidden single", f"{geo.cell_name(cell)} = {path.alphabet.symbol(d)},"
                f" the only place for {path.alphabet.symbol(d)} in {geo.house_name(h)}",
                placed=((cell, d),), rules=(h,), cells=others, houses=(h,))


def step_path(grid: Grid, solution: Grid, *, constraints: tuple = (),
              alphabet: Alphabet | None = None, deadline: Deadline = NO_DEADLINE,
              sat_solver: str | None = None, max_clauses: int | None = None,
              max_rules: int | None = None, ladder: bool = True) -> StepPath:
    """The steps a person could follow from ``grid`` (under ``constraints``) to ``solution``,
    its only solution (see the module docstring).

    Args:
        alphabet: how digits are written in the reasons (default: by grid size).
        deadline: the path stops (status ``timeout``, with a last ``timeout`` step) when it
            passes.
        sat_solver, max_clauses: the SAT solver of the facts, and the clause limit building
            them keeps (TooBigError).
        max_rules: a step may combine at most this many rules (None: any number); where none
            does, the path guesses.
        ladder: a classic puzzle's path begins with SE's ladder; False finds and rates it as a
            variant's (how scripts/bench_steps.py calibrates the variant steps' ratings).

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.io.text import parse_puzzle
    >>> grid = parse_puzzle("1.3..4.2.34.4.23").grid
    >>> path = step_path(grid, parse_puzzle("1234341223414123").grid)
    >>> path.status, len(path.steps), path.steps[0].text
    ('solved', 7, 'Full House in box 4: r3c4 = 1')
    """
    geo = grid.geometry
    budget = Budget(DEFAULT_MAX_CLAUSES if max_clauses is None else max_clauses, deadline)
    path = StepPath(geo, alphabet or alphabet_for(geo.size, geo.low),
                    rule_facts(geo, tuple(constraints), budget), max_rules=max_rules)
    board = Board.of_givens(grid)[0]  # clashing givens are the path's to find
    deducer = Deducer(path, board, solution, sat_solver=sat_solver, max_clauses=max_clauses,
                      deadline=deadline, max_rules=max_rules)
    try:
        if ladder and not constraints:
            _ladder(path, board, grid, deadline)
        while not all(board.placed):
            step = (_hidden_single(board, path) or _naked_single(board, path)
                    or deducer.next_step())
            _take(path, board, step)
    except TimeUp:
        left = len(board.open_cells())
        path.status = "timeout"
        path.steps.append(Step(len(path.steps) + 1, "timeout", f"the time limit was reached "
                               f"with {left} cell{'s' * (left > 1)} open", path=path))
    finally:
        path.sat_calls = deducer.close()
    return path


def _ladder(path: StepPath, board: Board, grid: Grid, deadline: Deadline) -> None:
    """SE's ladder's steps on a classic puzzle into ``path`` (its ratings in ``path.se``);
    TimeUp when the ladder stopped at the deadline."""
    from ..native.ladder import se_rate
    se = path.se = se_rate(grid, deadline)
    for named in se.steps:
        removed: dict[int, list[int]] = {}
        for cell, d in named.removes:
            removed.setdefault(cell, []).append(d)
        placed = (named.place,) if named.place is not None else ()
        eliminated = tuple((cell, tuple(sorted(ds))) for cell, ds in removed.items())
        what = path.conclusion_text(placed, eliminated)
        _take(path, board, Step(0, named.technique,
                                f"{named.reason}: {what}" if named.reason else what,
                                placed=placed, eliminated=eliminated, rating=named.rating))
    if se.status == "timeout":
        raise TimeUp


def _take(path: StepPath, board: Board, step: Step) -> None:
    """Number ``step``, add it to the path and apply it to the board."""
    step = replace(step, step=len(path.steps) + 1, path=path)
    path.steps.append(step)
    if step.technique == "guess":
        path.status = "guess"
    board.apply(step.removes, step.placed)
