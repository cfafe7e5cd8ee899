"""satdoku.sat.binding: CaDiCaL through python-sat's compiled module answers as python-sat's
own Cadical195 does, call for call."""

import random

import pytest
from pysat.solvers import Solver

from satdoku.cnf.formula import encode
from satdoku.sat import binding
from satdoku.sat.binding import Cadical, abandon, configure, new_solver

from conftest import SAMPLE, grid_of

HARD = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")


def _both(clauses):
    return new_solver("cadical195", clauses), Solver(name="cadical195", bootstrap_with=clauses)


def _random_3sat(seed, nvars=60, ratio=4.26):
    rnd = random.Random(seed)
    return [[rnd.choice((-1, 1)) * v for v in rnd.sample(range(1, nvars + 1), 3)]
            for _ in range(int(nvars * ratio))]


def test_the_default_solver_is_driven_directly_and_any_other_through_python_sat():
    assert isinstance(new_solver("cadical195"), Cadical)
    assert not isinstance(new_solver("glucose4"), Cadical)
    assert not isinstance(new_solver("cadical195", with_proof=True), Cadical)


@pytest.mark.parametrize("seed", range(12))
def test_answers_models_and_cores_are_python_sats(seed):
    clauses = _random_3sat(seed)
    rnd = random.Random(seed)
    direct, pysat = _both(clauses)
    for _ in range(6):
        assumptions = [rnd.choice((-1, 1)) * v for v in rnd.sample(range(1, 61), 8)]
        answer = direct.solve(assumptions=assumptions)
        assert answer == pysat.solve(assumptions=assumptions)
        assert direct.get_model() == pysat.get_model()
        assert direct.get_core() == pysat.get_core()
        if answer:  # the model satisfies every clause and every assumption
            true = set(direct.get_model())
            assert all(any(lit in true for lit in c) for c in clauses)
            assert set(assumptions) <= true
        else:
            assert direct.get_model() is None and set(direct.get_core()) <= set(assumptions)
    assert direct.accum_stats() == pysat.accum_stats()
    assert (direct.nof_vars(), direct.nof_clauses()) == (pysat.nof_vars(), pysat.nof_clauses())


def test_a_conflict_budget_stops_a_call_as_python_sats_does():
    clauses = encode(grid_of(HARD)).clauses
    direct, pysat = _both(clauses)
    for solver in (direct, pysat):
        configure(solver, {"lucky": 0})
        solver.conf_budget(1)
    assert direct.solve_limited() is None and pysat.solve_limited() is None
    assert direct.get_model() is None and direct.get_core() is None
    direct.conf_budget(0)  # no budget
    assert direct.solve_limited() is True
    assert direct.accum_stats()["conflicts"] > 1


def test_phases_and_unsatisfiable_clauses():
    direct = new_solver("cadical195", [[1, 2], [-1, 2]])
    direct.set_phases([-2])
    assert direct.solve() is True and 2 in direct.get_model()
    direct.add_clause([-2])
    pysat = Solver(name="cadical195", bootstrap_with=[[1, 2], [-1, 2], [-2]])
    assert direct.solve() is False and pysat.solve() is False
    assert direct.get_core() == pysat.get_core()  # no assumptions: python-sat says None
    with new_solver("cadical195") as solver:
        solver.add_clause([])
        assert solver.solve() is False
    solver.delete()  # a second delete does nothing


def test_an_abandoned_solver_is_never_freed():
    direct = new_solver("cadical195", [[1]])
    abandon(direct)
    direct.delete()
    other = new_solver("glucose4", [[1]])
    abandon(other)
    other.delete()


def test_without_the_compiled_calls_python_sats_layer_is_used(monkeypatch):
    monkeypatch.setattr(binding, "_module", lambda: None)
    solver = new_solver("cadical195", encode(grid_of(SAMPLE)).clauses)
    assert not isinstance(solver, Cadical) and solver.solve() is True


def test_ctrl_c_is_left_to_python_outside_the_main_thread_and_when_ignored():
    # the compiled module sets its own SIGINT handler only when told it may: from the main
    # thread (a handler can be set nowhere else) with SIGINT not ignored; read at every call
    import signal
    import threading
    seen = []
    worker = threading.Thread(target=lambda: seen.append(binding._main_thread()))
    worker.start()
    worker.join()
    assert seen == [0] and binding._main_thread() == 1
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert binding._main_thread() == 0
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_deleted_solver_answers_none_as_python_sats_does():
    direct = new_solver("cadical195", [[1, 2]])
    assert direct.solve() is True
    direct.delete()
    pysat = Solver(name="cadical195", bootstrap_with=[[1, 2]])
    pysat.solve()
    pysat.delete()
    for call in ("solve", "solve_limited", "get_model", "get_core", "nof_vars", "accum_stats"):
        assert getattr(direct, call)() is None, call
        assert getattr(pysat, call)() is None, call
    direct.add_clause([1])
    direct.append_formula([[2]])
    direct.conf_budget(5)
    configure(direct, {"lucky": 0})
