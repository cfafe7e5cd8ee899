"""The Result contract: every registered solver and every encoding answers the same situation
with the same status, fields and message (see satdoku.model.result)."""

import importlib.util

import pytest

from conftest import EMPTY_4X4, EMPTY_4X4_SOLUTIONS, SMALL, SMALL_SOLUTION, UNSOLVABLE_4X4
from satdoku.deadline import Deadline
from satdoku.cnf.encodings import ENCODINGS
from satdoku.io.text import format_grid, parse_puzzle
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, is_solution
from satdoku.tasks.solvers import SOLVERS, make_solver, solve

# Every solver; SAT with every encoding, and both ways of keeping time (interrupt, budgets);
# CaDiCaL also with its fast path (the engine kept ready, the batch pass) turned off.
CONFIGS = [("native", None, None)] + [
    ("sat", sat_solver, encoding) for encoding in ENCODINGS
    for sat_solver in ("cadical195", "minisat22")] + [
    ("sat", "cadical195/slow", encoding) for encoding in ENCODINGS] + [
    pytest.param((name, None, None), marks=pytest.mark.skipif(
        importlib.util.find_spec(module) is None, reason=f"needs {module}"))
    for name, module in (("exact-cover", "exact_cover"), ("cp-sat", "ortools"))]


def _solver(config):
    method, sat_solver, encoding = config
    if sat_solver and sat_solver.endswith("/slow"):
        from satdoku.sat.config import SatConfig
        return SatConfig(sat_solver.split("/")[0], encoding).solver(fast=False)
    return make_solver(method, sat_solver=sat_solver, encoding=encoding)


CASES = {
    # name: (puzzle, limit)
    "solved": (SMALL, 1),
    "unique": (SMALL, 2),
    "multiple": (EMPTY_4X4, 1000),
    "multiple at the limit": (EMPTY_4X4, 5),
    "unsolvable": (UNSOLVABLE_4X4, 1),
    "unsolvable counted": (UNSOLVABLE_4X4, 2),
}

EXPECTED = {
    "solved": ("solved", None, False, True, False),
    "unique": ("unique", 1, False, True, False),
    "multiple": ("multiple", EMPTY_4X4_SOLUTIONS, False, True, True),
    "multiple at the limit": ("multiple", 5, True, True, True),
    "unsolvable": ("unsolvable", None, False, False, False),
    "unsolvable counted": ("unsolvable", 0, False, False, False),
}


def signature(result):
    return (result.status, result.count, result.at_limit, result.solution is not None,
            result.second is not None)


def checked(solver, case):
    """The result of ``solver`` on ``CASES[case]``, once it has kept the contract: the expected
    signature, no message, the limit asked for, and every solution right."""
    text, limit = CASES[case]
    grid = parse_puzzle(text).grid
    result = solve(solver, grid, limit=limit)
    assert signature(result) == EXPECTED[case], result.message
    assert result.message is None and result.limit == limit
    for answer in (result.solution, result.second):
        if answer is not None:
            assert is_solution(answer, grid)
    return result


def _config(c):
    return c.values[0] if hasattr(c, "values") else c


def test_every_solver_is_covered():
    assert {_config(c)[0] for c in CONFIGS} == set(SOLVERS)
    assert {_config(c)[2] for c in CONFIGS if _config(c)[2]} == set(ENCODINGS)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "/".join(filter(None, c)))
@pytest.mark.parametrize("case", list(CASES))
def test_same_answer(config, case):
    with _solver(config) as s:
        result = checked(s, case)
        again = checked(s, case)  # the second puzzle of a geometry: the fast path, where on
        method, sat_solver, encoding = config
        if method == "sat" and encoding != "reduced" and sat_solver == "cadical195":
            assert s.fast.answers == 1
        elif sat_solver and sat_solver.endswith("/slow"):
            assert s.fast is None
    if case in ("solved", "unique"):
        assert format_grid(result.solution) == format_grid(again.solution) == SMALL_SOLUTION


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "/".join(filter(None, c)))
def test_invalid(config):
    with _solver(config) as s:
        result = solve(s, Grid(geometry(2, 2), (1, 1) + (0,) * 14))
    assert (result.status, result.solution, result.count) == ("invalid", None, None)
    assert result.message == "r1c2: 1 repeats the given at r1c1"


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "/".join(filter(None, c)))
def test_timeout_before_anything(config):
    with _solver(config) as s:
        result = solve(s, parse_puzzle(SMALL).grid, deadline=Deadline(1e-9))
    assert (result.status, result.solution, result.count) == ("timeout", None, None)
    assert result.message == "time limit of 1e-09 s reached"


@pytest.mark.parametrize("config", [c for c in CONFIGS if _config(c)[0] != "exact-cover"],
                         ids=lambda c: "/".join(filter(None, c)))
def test_timeout_while_counting(config):
    # exact-cover counts up to 10,000 (it holds every solution): test_baselines times it out.
    # An empty 16x16 grid has too many solutions to count in 0.1 s.
    empty = Grid(geometry(4, 4), (0,) * 256)
    deadline = Deadline(0.1)
    with _solver(config) as s:
        result = solve(s, empty, limit=10 ** 9, deadline=deadline)
    assert result.status == "timeout" and result.count is not None
    assert result.message == deadline.message(result.count)
    assert (result.solution is not None) == (result.count >= 1)
    assert (result.second is not None) == (result.count >= 2)
    if result.solution is not None:
        assert is_solution(result.solution, empty)


@pytest.mark.parametrize("config", [c for c in CONFIGS if _config(c)[0] == "sat"],
                         ids=lambda c: "/".join(filter(None, c)))
def test_refused(config):
    method, sat_solver, encoding = config
    sat_solver = sat_solver.split("/")[0]
    with make_solver(method, sat_solver=sat_solver, encoding=encoding, max_clauses=10) as s:
        result = solve(s, parse_puzzle(EMPTY_4X4).grid, limit=2)
    assert (result.status, result.solution, result.count) == ("refused", None, None)
    assert "clauses, over the limit of 10 (raise it with --max-clauses)" in result.message


def test_the_batch_pass_keeps_the_clause_limit():
    # a batch of puzzles propagation settles is refused all the same over --max-clauses
    from satdoku.tasks.solvers import SolveOptions
    puzzles = [parse_puzzle(SMALL) for _ in range(70)]
    outcomes = list(SolveOptions(max_clauses=10).make().run_many(puzzles))
    assert {o.result.status for o in outcomes} == {"refused"}
    task = SolveOptions().make()
    outcomes = list(task.run_many(puzzles))
    assert {(o.result.status, format_grid(o.result.solution, "line")) for o in outcomes} == \
        {("solved", SMALL_SOLUTION)}
    assert task.solver.backend.engines == {}  # the pass settled them: no solver was built


def test_what_the_capabilities_declare_is_there():
    """A solver whose capabilities say ``steer`` or ``settle`` has what SolveTask then uses
    (model.result.can_steer/can_settle narrow on the capabilities alone)."""
    from satdoku.model.result import can_settle, can_steer
    grid = parse_puzzle(SMALL).grid
    declared = set()
    for config in [c for c in CONFIGS if not hasattr(c, "values")] + [("sat", "portfolio", None)]:
        with (make_solver("sat", portfolio=2) if config[1] == "portfolio"
              else _solver(config)) as s:
            if can_steer(s):
                declared.add("steer")
                assert isinstance(s.steer, bool)
            if can_settle(s):
                declared.add("settle")
                settled = s.settle([grid], 2)
                assert len(settled) == 1
                assert settled[0] is None or settled[0].status == "unique"
    assert declared == {"steer", "settle"}  # the check above ran on both
