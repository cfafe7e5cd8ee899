"""sat: the python-sat backend solves, counts, keeps time limits and stays reusable, on the
full and the reduced encoding."""

import time

import pytest

from conftest import (PUZZLES as PUZZLE_FILES, PUZZLES_BY_NAME as PUZZLES, SAMPLE, SAMPLE_HARD,
                      SHARED, UNSOLVABLE_4X4, grid_of, needs_shared)
from satdoku.sat import questions
from satdoku.deadline import Deadline
from satdoku.errors import OptionError, SolverError
from satdoku.tasks.generate import pattern_grid
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, is_solution
from satdoku.sat.catalogue import DEFAULT_SAT_SOLVER, SAT_SOLVERS, check_sat_solver
from satdoku.sat.solver import SatSolver

SOLVERS = sorted({"minisat22", "glucose4", DEFAULT_SAT_SOLVER})
UNSOLVABLE = grid_of(UNSOLVABLE_4X4)


def pattern_solution(box_rows, box_cols):
    return pattern_grid(geometry(box_rows, box_cols))


@pytest.fixture(params=SOLVERS)
def solver(request):
    with SatSolver(request.param) as s:
        yield s


@pytest.mark.parametrize("name", list(PUZZLES))
def test_solves(solver, name):
    puzzle = PUZZLES[name]
    result = solver.solve(puzzle)
    assert result.status == "solved"
    assert is_solution(result.solution, puzzle)
    assert result.count is None
    assert result.solver == solver.name == f"sat:{solver.sat_solver}"
    assert result.encoding == "extended"
    n = puzzle.size
    assert result.stats["variables"] == n ** 3
    assert result.stats["clauses"] > n ** 2
    assert {"conflicts", "decisions", "propagations", "encode_ms", "load_ms",
            "solve_ms"} <= set(result.stats)
    assert result.time_ms > 0


def test_unsolvable(solver):
    assert solver.solve(UNSOLVABLE).status == "unsolvable"
    counted = solver.solve(UNSOLVABLE, limit=2)
    assert (counted.status, counted.count, counted.solution) == ("unsolvable", 0, None)


def test_counting_then_reuse(solver):
    empty = Grid(geometry(2, 2), (0,) * 16)
    result = solver.solve(empty, limit=2)
    assert (result.status, result.count) == ("multiple", 2)
    assert is_solution(result.solution, empty) and is_solution(result.second, empty)
    assert result.solution != result.second
    # the blocking clauses are switched off: the same solver still finds and counts correctly
    puzzle = PUZZLES["4x4"]
    again = solver.solve(puzzle, limit=2)
    assert again.status == "unique" and again.count == 1 and again.second is None
    assert is_solution(again.solution, puzzle)
    assert solver.solve(empty, limit=5).count == 5
    assert solver.solve(puzzle).status == "solved"
    sample = solver.solve(PUZZLES["sample"], limit=2)
    assert sample.status == "unique"
    assert solver.solve(grid_of(SAMPLE_HARD), limit=2).status == "multiple"


def test_non_incremental_agrees():
    with SatSolver(DEFAULT_SAT_SOLVER, incremental=False) as fresh, SatSolver() as inc:
        for puzzle in list(PUZZLES.values()) + [UNSOLVABLE, grid_of(SAMPLE_HARD)]:
            a, b = fresh.solve(puzzle, limit=2), inc.solve(puzzle, limit=2)
            assert (a.status, a.count) == (b.status, b.count)
            if a.solution is not None:
                assert is_solution(a.solution, puzzle)


@pytest.mark.parametrize("encoding", ["minimal", "natural"])
@pytest.mark.parametrize("amo", ["pairwise", "seqcounter", "ladder"])
def test_other_encodings(encoding, amo):
    with SatSolver("minisat22", encoding=encoding, amo=amo) as s:
        result = s.solve(PUZZLES["sample"], limit=2)
        assert result.status == "unique" and is_solution(result.solution, PUZZLES["sample"])
        assert s.solve(UNSOLVABLE).status == "unsolvable"


@pytest.mark.parametrize("name", ["kissat404", "kissat", "ks"])
def test_kissat_names(name):  # what Kissat may do: tests/test_external.py
    info = check_sat_solver(name)
    assert info.name == "kissat404" and not info.assumptions


def test_unknown_solver_lists_choices():
    with pytest.raises(OptionError, match="minisat22") as info:
        SatSolver("zchaff")
    assert "unknown SAT solver 'zchaff'" in str(info.value)
    assert check_sat_solver("m22").name == "minisat22"


@pytest.mark.parametrize("name", [n for n in SAT_SOLVERS if n != "lingeling"])
def test_every_offered_solver_works_with_assumptions(name):
    with SatSolver(name) as s:
        assert s.solve(PUZZLES["sample"], limit=2).status == "unique"
        assert s.solve(PUZZLES["17-clue"]).status == "solved"
        assert s.solve(UNSOLVABLE).status == "unsolvable"


def test_lingeling_solves_but_cannot_keep_time():
    with SatSolver("lingeling") as s:
        assert is_solution(s.solve(PUZZLES["sample"]).solution, PUZZLES["sample"])
        with pytest.raises(SolverError, match="time limit"):
            s.solve(PUZZLES["sample"], deadline=Deadline(1))


@pytest.mark.parametrize("name", ["minisat22", "cadical195"])
def test_timeout_while_counting(name):
    # Counting the solutions of an empty 16x16 grid goes on for hours.
    empty = Grid(geometry(4, 4), (0,) * 256)
    with SatSolver(name) as s:
        s.solve(empty)  # build the solver outside the timed part
        begun = time.perf_counter()
        result = s.solve(empty, limit=10 ** 9, deadline=Deadline(0.2))
        elapsed = time.perf_counter() - begun
        assert result.status == "timeout"
        assert elapsed < 1.0
        assert result.count >= 1 and is_solution(result.solution, empty)
        assert result.message == f"time limit of 0.2 s reached after {result.count} solutions"
        # and the solver is usable afterwards
        assert s.solve(PUZZLES["4x4"], deadline=Deadline(5)).status == "solved"
        assert s.solve(pattern_solution(4, 4), limit=2).status == "unique"


def test_expired_deadline():
    with SatSolver("minisat22") as s:
        result = s.solve(PUZZLES["12x12"], deadline=Deadline(1e-9))
        assert result.status == "timeout" and result.solution is None
        assert result.message == "time limit of 1e-09 s reached"
        assert s.solve(PUZZLES["12x12"], deadline=Deadline(10)).status == "solved"


@needs_shared
@pytest.mark.parametrize("name", ["minisat22", "cadical195"])
def test_timeout_inside_one_solve(name):
    # Frisch's minimal 25x25 puzzles: proving uniqueness takes seconds to minutes.
    from satdoku.io.text import read_puzzles
    puzzle = next(read_puzzles(str(SHARED / "25x25" / "gecode_frisch_25x25.txt"))).grid
    with SatSolver(name) as s:
        # build the formula outside the timed part: a solution's last 20 rows as givens (a
        # blank grid would cost seconds of search)
        full = pattern_solution(5, 5)
        assert s.solve(Grid(full.geometry, (0,) * 125 + tuple(full.cells[125:]))).status == "solved"
        begun = time.process_time()  # CPU, not wall: a loaded machine stretches wall time
        result = s.solve(puzzle, limit=2, deadline=Deadline(0.05))
        assert result.status == "timeout"
        assert time.process_time() - begun < 1.0


def test_building_the_formula_keeps_the_deadline_and_resumes():
    # A 30x30 base formula takes seconds to build: a short deadline stops it, and the next
    # puzzle of that geometry goes on loading where the first stopped.
    empty = Grid(geometry(5, 6), (0,) * 900)
    with SatSolver("cadical195", "extended") as s:
        begun = time.process_time()  # CPU, not wall: a loaded machine stretches wall time
        first = s.solve(empty, deadline=Deadline(0.1))
        assert first.status == "timeout" and time.process_time() - begun < 1.0
        loaded = s.backend.engines[(empty.geometry, "extended")].nclauses
        assert 0 < loaded
        second = s.solve(empty, deadline=Deadline(0.1))
        assert s.backend.engines[(empty.geometry, "extended")].nclauses > loaded or \
            second.status == "solved"


def test_huge_formula_refused_before_building():
    with SatSolver(encoding="extended") as s:
        result = s.solve(Grid(geometry(9, 9), (0,) * 81 ** 2))
    assert result.status == "refused" and result.solution is None
    assert result.message == ("a 81x81 grid in the extended encoding needs 85,056,804 clauses, "
                              "over the limit of 10,000,000 (raise it with --max-clauses)")


def test_stats_off_still_solves_and_verifies():
    from satdoku.tasks.solvers import solve
    with SatSolver(stats=False) as s:
        result = solve(s, PUZZLES["sample"])
        assert result.status == "solved" and is_solution(result.solution, PUZZLES["sample"])
        assert not {"conflicts", "decisions"} & set(result.stats)
        assert solve(s, UNSOLVABLE).status == "unsolvable"
        counted = solve(s, PUZZLES["sample"], limit=2)
        assert (counted.status, counted.count) == ("unique", 1)


def test_solver_options_are_applied(monkeypatch):
    import satdoku.sat.engines as sat
    from satdoku.sat.binding import Cadical
    seen = []
    real = Cadical.configure

    def spy(self, options):
        seen.append(dict(options))
        real(self, options)

    monkeypatch.setattr(Cadical, "configure", spy)
    monkeypatch.setattr(sat, "SOLVER_OPTIONS", {"cadical195": {"chrono": 0}})
    with SatSolver("cadical195") as s:
        assert s.solve(PUZZLES["sample"]).status == "solved"
    assert seen == [{"chrono": 0}]


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (2, 3), (4, 4), (5, 5)])
def test_verifier_fast_path_agrees_with_house_by_house(shape):
    # solution_problems checks right answers with one precomputed sum and explains wrong ones
    # house by house; both must give the same verdict on every corrupted grid.
    import random
    from satdoku.model.grid import _solution_ok, solution_problems
    full = pattern_solution(*shape)
    n = full.size
    rnd = random.Random(7)
    for _ in range(300):
        cells = list(full.cells)
        for _ in range(rnd.choice([0, 1, 2])):
            cells[rnd.randrange(n * n)] = rnd.randrange(-n - 2, 2 * n + 3)
        if rnd.random() < 0.5:
            i, j = rnd.randrange(n * n), rnd.randrange(n * n)
            cells[i], cells[j] = cells[j], cells[i]
        answer = Grid(full.geometry, tuple(cells))
        puzzle = Grid(full.geometry, tuple(d if rnd.random() < 0.3 else 0 for d in full.cells))
        problems = solution_problems(answer, puzzle)
        assert _solution_ok(answer, puzzle) == (not problems)
        right = (all(1 <= d <= n for d in cells)
                 and all(len({cells[c] for c in house}) == n for house in full.geometry.houses)
                 and all(cells[c] == d for c, d in puzzle.givens()))
        assert right == (not problems)
        if not right:
            assert problems


def test_core_of_unsolvable_givens(solver):
    (cells, rules), witness = questions.core(solver.backend, UNSOLVABLE)
    assert witness is None and rules == []
    assert set(cells) <= {c for c, _ in UNSOLVABLE.givens()} and cells
    core, witness = questions.core(solver.backend, PUZZLES["4x4"])
    assert core is None and is_solution(witness, PUZZLES["4x4"])


def test_other_solution_anywhere_or_at_given_cells(solver):
    sample = grid_of(SAMPLE)
    solution = solver.solve(sample).solution
    assert questions.other_solution(solver.backend, sample, solution) == ("unique", None)
    hard = grid_of(SAMPLE_HARD)  # 'sampleHard' has several solutions
    answer, other = questions.other_solution(solver.backend, hard, solution)
    assert answer == "multiple" and other != solution and is_solution(other, hard)
    emptied = [c for c in range(81) if sample.cells[c] and not hard.cells[c]]
    answer, other = questions.other_solution(solver.backend, hard, solution, cells=emptied)
    assert answer == "multiple" and other.differences(solution)
    # The same solution asked about again reuses its clause; the solver stays reusable.
    assert questions.other_solution(solver.backend, sample, solution)[0] == "unique"
    assert solver.solve(hard, limit=2).status == "multiple"


@pytest.mark.parametrize("name", sorted({"minisat22", DEFAULT_SAT_SOLVER}))
def test_other_solution_out_of_conflicts_is_unknown(name):
    sample = grid_of(SAMPLE)  # proving it unique takes a few conflicts, more than 1
    with SatSolver(name) as fresh:
        solution = fresh.solve(sample).solution
    with SatSolver(name) as fresh:
        other = questions.other_solution
        assert other(fresh.backend, sample, solution, conflicts=1) == ("unknown", None)
        assert other(fresh.backend, sample, solution, conflicts=10_000) == ("unique", None)
        with pytest.raises(SolverError, match="at least 1"):
            questions.other_solution(fresh.backend, sample, solution, conflicts=0)


# The reduced encoding: one fresh formula per puzzle, through the same backend.

@pytest.mark.parametrize("name", sorted(PUZZLES))
@pytest.mark.parametrize("reduction", [{}, {"propagate": False, "pairwise_max": 3},
                                       {"locked": True}])
def test_reduced_agrees_with_full(name, reduction):
    grid = PUZZLES[name]
    with SatSolver("cadical195", "reduced", reduction=reduction) as reduced, \
            SatSolver("minisat22", "extended") as full:
        a, b = reduced.solve(grid, limit=2), full.solve(grid, limit=2)
    assert (a.status, a.count) == (b.status, b.count), a.message
    assert is_solution(a.solution, grid) and a.encoding == "reduced"


@pytest.mark.parametrize("sat_solver", SOLVERS)
def test_reduced_counts_several_solutions(sat_solver):
    grid = grid_of(SAMPLE_HARD)
    with SatSolver(sat_solver, "reduced") as s:
        result = s.solve(grid, limit=2)
    assert result.status == "multiple" and result.count == 2
    assert result.second != result.solution and is_solution(result.second, grid)


def test_reduced_settled_and_unsolvable_need_no_solver():
    full = pattern_solution(2, 3)
    with SatSolver(encoding="reduced") as s:
        result = s.solve(full, limit=2)
        assert result.status == "unique" and result.solution == full
        assert "variables" not in result.stats and result.stats["solve_ms"] == 0
        for limit in (1, 2):
            result = s.solve(UNSOLVABLE, limit=limit)
            assert result.status == "unsolvable" and result.solution is None


def test_size_chooses_the_encoding():
    with SatSolver() as s:
        assert s.encoding_for(PUZZLES["sample"]) == "extended"
        assert s.encoding_for(Grid(geometry(6, 6), (0,) * 36 ** 2)) == "reduced"


@pytest.mark.slow  # a large grid solved: test_formats solves a 400x400 one
@needs_shared
def test_large_100x100_solves():
    from satdoku.io.text import read_puzzles
    grid = next(read_puzzles(str(SHARED / "large" / "rkkautsar_sudoku-100-1.txt"))).grid
    with SatSolver() as s:
        result = s.solve(grid, deadline=Deadline(60))
    assert result.status == "solved" and is_solution(result.solution, grid)
    assert result.encoding == "reduced" and result.stats["variables"] < 0.1 * 100 ** 3


def test_reduced_core_and_other_solution():
    with SatSolver(encoding="reduced") as s:
        (cells, rules), witness = questions.core(s.backend, UNSOLVABLE)
        assert witness is None and cells == [c for c, _ in UNSOLVABLE.givens()] and rules == []
        sample, hard = grid_of(SAMPLE), grid_of(SAMPLE_HARD)
        solution = s.solve(sample).solution
        assert questions.other_solution(s.backend, sample, solution) == ("unique", None)
        answer, other = questions.other_solution(s.backend, hard, solution)
        assert answer == "multiple" and is_solution(other, hard) and other != solution


# Counting to 2 with the decision test, and engines rebuilt over a long batch (docs/floor.md).

def _variants(grid):
    """``grid`` with each of its givens dropped in turn (a 17-clue puzzle is minimal, so each
    of these has several solutions)."""
    return [Grid(grid.geometry, grid.cells[:c] + (0,) + grid.cells[c + 1:])
            for c, _ in grid.givens()]


def _count_signature(result, grid):
    for answer in (result.solution, result.second):
        assert answer is None or is_solution(answer, grid)
    assert result.second is None or result.second != result.solution
    return result.status, result.count


@pytest.mark.parametrize("steer", [False, True])
def test_counting_never_calls_two_solutions_unique(steer):
    seventeen = PUZZLES["17-clue"]
    empty = Grid(seventeen.geometry, (0,) * 81)
    shortcut = 0
    with SatSolver(DEFAULT_SAT_SOLVER) as s:
        s.steer = steer  # as a batch counts
        for variant in _variants(seventeen) + [empty]:
            for _ in range(2):  # twice in a row: nothing of the first count may leak
                assert _count_signature(s.solve(variant, limit=2), variant) == ("multiple", 2)
            assert s.solve(variant, limit=3).count == 3
            result = s.solve(seventeen, limit=2)
            assert _count_signature(result, seventeen) == ("unique", 1)
            sample = s.solve(PUZZLES["sample"], limit=2)
            assert _count_signature(sample, PUZZLES["sample"]) == ("unique", 1)
            shortcut += sample.stats["decisions"] == 0
    assert shortcut  # the no-decision test did answer some of them


def test_decision_test_only_where_it_was_checked(monkeypatch):
    import satdoku.sat.engines as sat
    sample = PUZZLES["sample"]
    with SatSolver("cadical195") as s:
        s.solve(sample, limit=2)
        assert s.backend.engines[(sample.geometry, "extended")].decision_test
    with SatSolver("minisat22") as s:
        s.solve(sample, limit=2)
        assert not s.backend.engines[(sample.geometry, "extended")].decision_test
    with SatSolver("cadical195", incremental=False) as s:  # rate's fresh solvers: unchanged
        assert s.solve(grid_of(SAMPLE_HARD), limit=2).status == "multiple"
        assert not s.backend.engines
    monkeypatch.setattr(sat, "COUNT_OPTIONS", {})  # lucky phases left on
    with SatSolver("cadical195") as s:
        assert s.solve(grid_of(SAMPLE_HARD), limit=2).status == "multiple"
        assert not s.backend.engines[(sample.geometry, "extended")].decision_test


def test_rebuilt_engines_keep_answers_and_few_variables(monkeypatch):
    import satdoku.sat.engines as sat
    monkeypatch.setattr(sat, "REBUILD_EVERY", 3)
    grids = [PUZZLES["sample"], grid_of(SAMPLE_HARD)] + _variants(PUZZLES["17-clue"])[:4]
    with SatSolver(stats=False) as rebuilt:
        engine = None
        seen: dict[int, object] = {}  # the solvers kept alive, so that no id is reused
        for _ in range(3):
            for grid in grids:
                for limit in (1, 2):
                    result = rebuilt.solve(grid, limit=limit)
                    assert result.status == ("solved" if limit == 1 else
                                             "unique" if grid is grids[0] else "multiple")
                    assert is_solution(result.solution, grid)
                    engine = rebuilt.backend.engines[(grid.geometry, "extended")]
                    seen[id(engine.solver)] = engine.solver
                    assert engine.uses <= 3 and engine.top <= 729 + 3
        assert len(seen) > 5  # a new solver every 3 puzzles
        assert questions.other_solution(rebuilt.backend, grids[1], result.solution)[0] == "multiple"


@needs_shared
def test_counting_agrees_with_the_plain_method_on_17_clue_variants():
    # 150 17-clue puzzles and a 16-clue variant of each, each counted twice in a row, by the
    # decision test (CaDiCaL, steering as in a batch) and by a second solve every time
    # (MiniSat).
    from satdoku.io.text import read_puzzles
    import itertools
    puzzles = [p.grid for p in itertools.islice(
        read_puzzles(str(SHARED / "9x9" / "17_clue.txt")), 150)]
    grids = []
    for i, grid in enumerate(puzzles):
        grids += [grid, _variants(grid)[i % 17]]
    with SatSolver("cadical195") as fast, SatSolver("minisat22") as plain:
        fast.steer = True  # as a batch counts
        for grid in grids:
            expected = _count_signature(plain.solve(grid, limit=2), grid)
            for _ in range(2):
                assert _count_signature(fast.solve(grid, limit=2), grid) == expected
    assert expected == ("multiple", 2)


def test_generate_and_explain_answers_do_not_depend_on_rebuilds(monkeypatch):
    # Their answers hang on what the solver learnt before (conflict budgets, the first
    # solution found): the engines that serve core() and other_solution() are never rebuilt.
    import satdoku.sat.engines as sat
    from satdoku.tasks.explain import explain
    from satdoku.tasks.generate import Generator
    made = {}
    for every in (0, 2):
        monkeypatch.setattr(sat, "REBUILD_EVERY", every)
        with Generator(geometry(2, 3), seed=3, minimal=True) as generator:
            puzzles = [generator.generate().puzzle for _ in range(4)]
        with SatSolver() as s:
            explained = [explain(grid, solver=s) for grid in puzzles + [grid_of(SAMPLE_HARD)]]
        made[every] = puzzles, [(e.status, e.solution, e.second) for e in explained]
    assert made[0] == made[2]


def test_rebuilt_engines_add_variant_rules_again(monkeypatch):
    import satdoku.sat.engines as sat
    from satdoku.io.inputs import iter_inputs
    monkeypatch.setattr(sat, "REBUILD_EVERY", 2)
    puzzle = next(iter_inputs([str(PUZZLE_FILES / "variants" / "159-arrows.json")]))
    with SatSolver() as s:
        for _ in range(5):  # the same rules asked about again, across rebuilds
            result = s.solve(puzzle.grid, limit=2, constraints=puzzle.constraints)
            assert result.status == "unique"
            assert all(not c.check(result.solution) for c in puzzle.constraints)


@pytest.mark.parametrize("name", ["glucose4", "cadical195"])
def test_a_conflict_budget_does_not_stop_the_next_timed_call(name):
    # Variant puzzles first solve within a budget (implied sums join after it): a MiniSat-like
    # solver kept that budget into the timed call and answered "timeout" at once.
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver
    from satdoku.sat.clock import Clock
    clock = Clock(check_sat_solver(name))
    with Solver(name=name, bootstrap_with=PHP(6).clauses) as s:
        assert clock.solve(s, [], Deadline(None), conflicts=1) is None
        assert clock.solve(s, [], Deadline(60)) is False


@pytest.mark.parametrize("per_clause, settings, calls", [
    (1.0, None, [{"elim": 0, "probe": 0}, {"elim": 1, "probe": 1}]),
    (1.0, {"elim": 0, "seed": 3}, [{"elim": 0, "probe": 0}, {"elim": 0, "probe": 1}]),
    (0.0, None, []),
])
def test_a_close_deadline_turns_off_the_inprocessing_no_budget_bounds(monkeypatch, per_clause,
                                                                      settings, calls):
    # On 225-1 bounded variable elimination took 7 s inside one slice of 443 conflicts, and
    # --timeout 5 ended at 12.5 s: once the time left is under what it may take on the formula
    # (here, with 1 s a clause, at once), it is off, and set back as the solver was made.
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver
    from satdoku.sat import clock as clock_module
    monkeypatch.setattr(clock_module, "INPROCESS_S_PER_CLAUSE", per_clause)
    clock = clock_module.Clock(check_sat_solver("cadical195"))
    with Solver(name="cadical195", bootstrap_with=PHP(6).clauses) as s:
        seen: list[dict[str, int]] = []
        configure = s.solver.configure
        monkeypatch.setattr(s.solver, "configure", lambda o: (seen.append(o), configure(o)))
        assert clock.solve(s, [], Deadline(60), small=False, settings=settings) is False
        assert seen == calls


def test_a_puzzle_past_the_conflicts_of_the_shared_engine_gets_its_own(monkeypatch):
    # Escalated at once, a puzzle is counted again on an engine of its own (clues and rules
    # as unit clauses) with the same answer; the shared engine serves the next puzzle.
    import satdoku
    from satdoku.model.grid import Grid
    from satdoku.sat import solver as solver_module
    arrows = next(iter(satdoku.puzzles(str(PUZZLE_FILES / "variants" / "159-arrows.json"))))
    empty = Grid(arrows.grid.geometry, (0,) * 81)  # half its arrows alone: many solutions
    cases = [(grid_of(SAMPLE), ()), (empty, tuple(arrows.constraints[::2]))]
    with SatSolver() as s:
        plain = [s.solve(grid, limit=2, deadline=Deadline(60), constraints=rules)
                 for grid, rules in cases]
    monkeypatch.setattr(solver_module, "ESCALATE_AFTER", 0)
    monkeypatch.setattr(solver_module, "ESCALATE_CLAUSES", 10**9)
    with SatSolver() as s:
        for (grid, rules), before in zip(cases * 2, plain * 2):
            result = s.solve(grid, limit=2, deadline=Deadline(60), constraints=rules)
            assert result.stats.get("escalated") == 1 and "escalated" not in before.stats
            assert (result.status, result.count) == (before.status, before.count)
            assert is_solution(result.solution, grid)


def test_a_puzzle_asked_again_goes_to_the_engine_it_escalated_to(monkeypatch):
    """The engine a puzzle escalated to is kept while the same puzzle (grid and rules) comes
    again: the next solve or count goes straight to it, unit clauses and what it learnt there
    included; another puzzle frees it."""
    from satdoku.sat import solver as solver_module
    from satdoku.sat.backend import Backend
    made = []
    full = Backend._full

    def spy(self, *args, **kwargs):
        made.append(full(self, *args, **kwargs))
        return made[-1]

    monkeypatch.setattr(Backend, "_full", spy)
    monkeypatch.setattr(solver_module, "ESCALATE_AFTER", 0)
    monkeypatch.setattr(solver_module, "ESCALATE_CLAUSES", 10**9)
    from satdoku.sat.engines import Engine
    freed = []
    delete = Engine.delete

    def freeing(engine):
        freed.append(engine)
        delete(engine)

    monkeypatch.setattr(Engine, "delete", freeing)
    import satdoku
    arrows = next(iter(satdoku.puzzles(str(PUZZLE_FILES / "variants" / "159-arrows.json"))))
    with SatSolver() as s:
        first = s.solve(arrows.grid, limit=1, constraints=arrows.constraints)
        assert first.stats.get("escalated") == 1 and len(made) == 2  # shared, then its own
        own = made[1]
        again = s.solve(arrows.grid, limit=2, constraints=arrows.constraints)
        assert again.status == "unique" and again.solution == first.solution
        assert len(made) == 2 and "escalated" not in again.stats and own not in freed
        assert s.backend.own(arrows.grid, arrows.constraints) is own
        other = s.solve(arrows.grid, limit=2, constraints=arrows.constraints[1:])
        assert other.status in ("unique", "multiple")
        assert s.backend.own(arrows.grid, arrows.constraints) is None
        assert own in freed  # freed for the other puzzle


def test_a_hard_puzzle_gets_the_solvers_own_defaults(monkeypatch):
    # The options that speed up easy 9x9 puzzles (no inprocessing...) slow down a long
    # search: an escalated puzzle's own engine, and a cube's, keep CaDiCaL's defaults.
    from satdoku.sat import solver as solver_module
    from satdoku.sat.backend import Backend
    from satdoku.sat.catalogue import SOLVER_OPTIONS
    made = []
    engine = Backend.engine

    def spy(self, grid, deadline, units=False, keep=False, hard=False, rules=None):
        made.append((units, hard, engine(self, grid, deadline, units, keep, hard, rules)))
        return made[-1][2]

    monkeypatch.setattr(Backend, "engine", spy)
    monkeypatch.setattr(solver_module, "ESCALATE_AFTER", 0)
    monkeypatch.setattr(solver_module, "ESCALATE_CLAUSES", 10**9)
    import satdoku
    arrows = next(iter(satdoku.puzzles(str(PUZZLE_FILES / "variants" / "159-arrows.json"))))
    with SatSolver() as s:
        result = s.solve(arrows.grid, limit=2, deadline=Deadline(60),
                         constraints=arrows.constraints)
    assert result.status == "unique" and result.stats.get("escalated") == 1
    (shared, _, first), (units, hard, own) = made
    assert not shared and first.settings == SOLVER_OPTIONS["cadical195"]
    assert units and hard and own.settings is None
    with SatSolver(incremental=False) as s:  # a fresh engine that did not escalate: as before
        s.solve(Grid(arrows.grid.geometry, (0,) * 81), deadline=Deadline(60))
    assert made[-1][:2] == (True, False) and made[-1][2].settings is not None
