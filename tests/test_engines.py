"""Engines: a session of variant puzzles does not carry every earlier puzzle's rules, and a
puzzle's rules keep the limits (the clause limit up front, the deadline in the middle)."""

import signal
import time

import pytest

from conftest import PUZZLES as PUZZLE_FILES
from satdoku.io.inputs import iter_inputs
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.rules.base import Constraint
from satdoku.sat.solver import SatSolver
from satdoku.tasks.solvers import make_solver, solve


def test_retired_rules_are_dropped_by_a_rebuild():
    # Every shipped 9x9 variant is unique (test_cli checks each against its published
    # solution); one session serving them in turn must say so of each, dropping the clauses of
    # the rules it retired several times on the way.
    puzzles = [p for p in iter_inputs([str(p) for p in sorted(
        (PUZZLE_FILES / "variants").glob("*.json"))]) if p.grid.size == 9]
    with SatSolver() as session:
        statuses, rebuilt, largest = [], 0, 0
        for p in puzzles:
            engine = session.backend.engines.get((p.grid.geometry, "extended"))
            before = engine.solver if engine is not None else None
            statuses.append(session.solve(p.grid, limit=2, constraints=p.constraints).status)
            engine = session.backend.engines[(p.grid.geometry, "extended")]
            rebuilt += before is not None and engine.solver is not before
            # Never more retired rule clauses than base clauses, plus one puzzle's worth.
            largest = max(largest, engine.rule_clauses)
            assert engine.retired <= engine.base + largest
        assert statuses == ["unique"] * len(puzzles)
        assert rebuilt >= 3


def test_a_puzzles_formula_size_leaves_out_earlier_puzzles_rules():
    # --stats: the clauses of a puzzle's own formula, however many puzzles came before it
    names = ("sandwich.json", "miracle.txt", "sandwich.json")
    puzzles = [next(iter_inputs([str(PUZZLE_FILES / "variants" / name)])) for name in names]
    classic = next(iter_inputs([str(PUZZLE_FILES / "9x9.txt")]))

    def clauses(session, p):
        return session.solve(p.grid, constraints=p.constraints).stats["clauses"]

    alone = []
    for p in puzzles + [classic]:
        with SatSolver() as fresh:
            alone.append(clauses(fresh, p))
    with SatSolver() as session:
        assert [clauses(session, p) for p in puzzles + [classic]] == alone
    assert alone[0] == alone[2] > alone[3] and alone[1] > alone[3]


class _Endless(Constraint, register=False):
    """A rule whose encoding never ends (as a hostile long sum once did)."""

    type = "endless"
    cells = (0,)

    def describe(self, geometry):
        return "endless rule"

    def encode(self, ctx):
        while True:
            sum(range(1000))

    def check(self, grid):
        return []


class _Huge(_Endless):
    """A rule that says up front it would need more clauses than any limit allows."""

    def describe(self, geometry):
        return "huge rule"

    def clause_estimate(self, geometry):
        return 10 ** 12


def test_a_rule_too_big_is_refused_up_front_by_name():
    grid = Grid(geometry(2, 2), (0,) * 16)
    start = time.perf_counter()
    result = solve(make_solver("sat"), grid, constraints=(_Huge(),))
    assert result.status == "refused" and time.perf_counter() - start < 2
    assert result.message.startswith("rule huge rule needs at least 1,000,000,000,000 clauses")


@pytest.mark.parametrize("after", [None, "maplechrono"])
def test_the_deadline_stops_a_rule_in_the_middle_of_its_encoding(after):
    grid = Grid(geometry(2, 2), (0,) * 16)
    if after:  # a solver that leaves a C alarm of its own running (the suite once hung on it)
        with make_solver("sat", sat_solver=after) as solver:
            assert solve(solver, grid).status == "solved"
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0
    start = time.perf_counter()
    with make_solver("sat") as solver:
        result = solve(solver, grid, constraints=(_Endless(),), timeout=0.3)
    assert result.status == "timeout" and time.perf_counter() - start < 3
