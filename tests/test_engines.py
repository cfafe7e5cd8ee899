"""Engines: a session of variant puzzles does not carry every earlier puzzle's rules."""

from conftest import PUZZLES as PUZZLE_FILES
from satdoku.io.inputs import iter_inputs
from satdoku.sat.solver import SatSolver


def test_retired_rules_are_dropped_by_a_rebuild():
    puzzles = [p for p in iter_inputs([str(p) for p in sorted(
        (PUZZLE_FILES / "variants").glob("*.json"))]) if p.grid.size == 9]
    with SatSolver() as alone:
        expected = [alone.solve(p.grid, limit=2, constraints=p.constraints).status
                    for p in puzzles]
    with SatSolver() as session:
        statuses, rebuilt, largest = [], 0, 0
        for p in puzzles * 2:
            engine = session._engines.get((p.grid.geometry, "extended"))
            before = engine.solver if engine is not None else None
            statuses.append(session.solve(p.grid, limit=2, constraints=p.constraints).status)
            engine = session._engines[(p.grid.geometry, "extended")]
            rebuilt += before is not None and engine.solver is not before
            # Never more retired rule clauses than base clauses, plus one puzzle's worth.
            largest = max(largest, engine.rules[3])
            assert engine.retired <= engine.base + largest
        assert statuses == expected * 2
        assert rebuilt >= 1
