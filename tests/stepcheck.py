"""An independent check of a step path (``explain --steps``), for the tests and for
``scripts/replay_steps.py``.

It shares nothing with the code that found the path but the rules' own clauses: it keeps its
own candidates (a placement strikes its digit from the cell's house peers, nothing else
changes them silently), writes each cell's and each house's clauses by hand, and asks a SAT
solver other than the path's (CaDiCaL; the path's facts default to MiniSat) a fresh question
per step:

- the cells a step cites hold exactly the candidates the replay has for them;
- the facts it cites force its conclusions (facts and "not all of the conclusions" have no
  solution);
- no fact can go (without any one of them, the rest and "not all of the conclusions" have a
  solution), unless the step says it is not proven minimal;
- and at the end the replay holds the puzzle's solution.

A guess is not forced (it is the solution's digit, placed where the path says it guesses). A
step of Sudoku Explainer's ladder (a classic path's, which cites no facts) must be forced by the
whole board: every house and every cell's candidates in the replay.
"""

from __future__ import annotations

import itertools

from pysat.solvers import Solver

from satdoku.rules.context import EncodeContext


def _cell_clauses(n: int, ncells: int) -> list[list[int]]:
    out = []
    for cell in range(ncells):
        lits = [cell * n + d for d in range(1, n + 1)]
        out.append(lits)
        out += [[-a, -b] for a, b in itertools.combinations(lits, 2)]
    return out


def _house_clauses(n: int, cells) -> list[list[int]]:
    out = []
    for d in range(1, n + 1):
        lits = [c * n + d for c in cells]
        out.append(lits)
        out += [[-a, -b] for a, b in itertools.combinations(lits, 2)]
    return out


def _forced(geo, path, rules, cells, negation, solver: str) -> bool:
    """Whether the rule facts ``rules`` and cell facts ``cells`` force the conclusions whose
    negation is the clause ``negation``."""
    n = geo.size
    clauses = _cell_clauses(n, geo.ncells)
    top = geo.ncells * n  # after every cell's variables, outside cells too
    for r in rules:
        fact = path.rules[r]
        if fact.house is not None:
            clauses += _house_clauses(n, geo.houses[fact.house])
        else:
            ctx = EncodeContext(geo, top=top, houses=False)
            clauses += fact.rule.encode(ctx)
            top = ctx.top
    for cell, mask in cells:
        clauses += [[-(cell * n + d)] for d in range(1, n + 1) if not mask >> (d - 1) & 1]
    clauses.append(negation)
    with Solver(name=solver, bootstrap_with=clauses) as s:
        return not s.solve()


class _WholeBoard:
    """The question :func:`_forced` asks of a ladder step (every cell's clauses, the path's
    houses, the step's candidates, not all of its conclusions), on one solver for the whole
    path: the clauses once, the candidates as assumptions, each step's negation behind a
    selector of its own (a fresh solver per step took 2.7 s on a 57-step 9x9 path)."""

    def __init__(self, geo, path, solver: str) -> None:
        n = self.n = geo.size
        clauses = _cell_clauses(n, geo.ncells)
        for fact in path.rules:
            if fact.house is not None:
                clauses += _house_clauses(n, geo.houses[fact.house])
        self.top = geo.ncells * n
        self.solver = Solver(name=solver, bootstrap_with=clauses)

    def forces(self, cand: list[int], negation: list[int]) -> bool:
        n = self.n
        self.top += 1
        self.solver.add_clause(negation + [-self.top])
        assumed = [self.top] + [-(cell * n + d) for cell, mask in enumerate(cand)
                                for d in range(1, n + 1) if not mask >> (d - 1) & 1]
        return not self.solver.solve(assumptions=assumed)


def _needless(geo, path, step, negation, solver: str, where: str) -> list[str]:
    """The facts of ``step`` that could go, each said as a problem."""
    out = []
    for r in step.rules:
        if _forced(geo, path, [x for x in step.rules if x != r], step.cells, negation, solver):
            out.append(f"{where}: {path.rules[r].name} is not needed")
    for cited in step.cells:
        if _forced(geo, path, step.rules, [x for x in step.cells if x != cited], negation,
                   solver):
            out.append(f"{where}: {geo.cell_name(cited[0])} is not needed")
    return out


def replay(grid, path) -> list[tuple[list[int], list[bool]]]:
    """This check's own candidates (bitmasks, bit d-1 for digit d) and placed flags before
    each step of ``path`` from ``grid``, then after its last: the givens placed, each placement
    striking its digit from the cell's house peers, each elimination striking its digits."""
    geo, n = grid.geometry, grid.size
    cand = [(1 << n) - 1] * geo.ncells
    placed = [False] * geo.ncells

    def place(cell: int, d: int) -> None:
        cand[cell], placed[cell] = 1 << (d - 1), True
        for p in geo.peers[cell]:
            if not placed[p]:
                cand[p] &= ~(1 << (d - 1))

    for cell, d in grid.givens():
        place(cell, d)
    boards = [(cand[:], placed[:])]
    for step in path.steps:
        for c, ds in step.eliminated:
            for d in ds:
                cand[c] &= ~(1 << (d - 1))
        for c, d in step.placed:
            place(c, d)
        boards.append((cand[:], placed[:]))
    return boards


def check_path(grid, path, solution, *, solver: str = "cadical195", partial: bool = False
               ) -> list[str]:
    """What is wrong with ``path`` (steps from ``grid`` to ``solution``), step by step; empty
    when every step holds (see the module docstring). ``partial``: a path that stopped at a
    time limit, checked as far as it goes."""
    geo, n = grid.geometry, grid.size
    boards = replay(grid, path)
    problems: list[str] = []
    whole: _WholeBoard | None = None  # made at the first ladder step
    try:
        for step, (cand, _) in zip(path.steps, boards):
            where = f"step {step.step} ({step.text})"
            if step.technique == "timeout":
                if not partial:
                    problems.append(f"{where}: the path timed out")
                return problems
            for cell, mask in step.cells:
                if cand[cell] != mask:
                    problems.append(f"{where}: cites {geo.cell_name(cell)} with candidates "
                                    f"{mask:b}, the replay has {cand[cell]:b}")
            negation = [-(c * n + d) for c, d in step.placed]
            negation += [c * n + d for c, ds in step.eliminated for d in ds]
            for c, d in step.placed:
                if solution.cells[c] != d:
                    problems.append(f"{where}: places a digit the solution does not have")
            if step.rating is not None and not step.rules and not step.cells:
                # a step of SE's ladder cites no facts: the whole board (every house, every
                # cell's candidates) must force it
                whole = whole or _WholeBoard(geo, path, solver)
                if not whole.forces(cand, negation):
                    problems.append(f"{where}: the board does not force it")
            elif step.technique != "guess":
                if not _forced(geo, path, step.rules, step.cells, negation, solver):
                    problems.append(f"{where}: its facts do not force it")
                if step.minimal:  # (a step not proven minimal says so: one fact might go)
                    problems += _needless(geo, path, step, negation, solver, where)
    finally:
        if whole is not None:
            whole.solver.delete()
    cand, placed = boards[-1]
    if not all(placed) or tuple(m.bit_length() for m in cand) != solution.cells:
        problems.append("the replay does not end at the solution")
    return problems
