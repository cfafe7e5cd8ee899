"""sat: the python-sat backend solves, counts, keeps time limits and stays reusable."""

import io
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from satdoku.encode import decode_model, encode, parse_model, write_dimacs
from satdoku.errors import SolverError
from satdoku.generate import pattern_grid
from satdoku.geometry import geometry
from satdoku.grid import Grid, is_solution
from satdoku.sat import DEFAULT_SAT_SOLVER, SAT_SOLVERS, SatSolver, check_sat_solver

SOLVERS = sorted({"minisat22", "glucose4", DEFAULT_SAT_SOLVER})

SAMPLE = ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85..."
SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
SAMPLE_HARD = ".714....5....5..8...39.76.......1....9...6..3......82.....4...83......9.....85..."


def grid_9x9(text):
    return Grid(geometry(3, 3), tuple(0 if ch == "." else int(ch) for ch in text))


def pattern_solution(box_rows, box_cols):
    return pattern_grid(geometry(box_rows, box_cols))


def with_holes(grid, every):
    """``grid`` with every ``every``-th cell (and a diagonal band) emptied."""
    n = grid.size
    cells = [0 if i % every == 0 or (i // n + i % n) % 3 == 0 else d
             for i, d in enumerate(grid.cells)]
    return Grid(grid.geometry, tuple(cells))


PUZZLES = {
    "sample": grid_9x9(SAMPLE),
    "17-clue": grid_9x9(SEVENTEEN),
    "4x4": Grid(geometry(2, 2), (1, 0, 3, 0, 0, 4, 0, 2, 0, 3, 4, 0, 4, 0, 2, 3)),  # sampleSmall
    "6x6": with_holes(pattern_solution(2, 3), 2),
    "12x12": with_holes(pattern_solution(3, 4), 2),
}

# No two givens clash, yet r1c4 must be 4 and column 4 already has a 4.
UNSOLVABLE_4X4 = Grid(geometry(2, 2), (1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0))


@pytest.fixture(params=SOLVERS)
def solver(request):
    with SatSolver(request.param) as s:
        yield s


def test_pattern_grids_are_valid():
    for shape in [(2, 2), (2, 3), (3, 3), (3, 4)]:
        full = pattern_solution(*shape)
        assert is_solution(full, full)


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
    assert {"conflicts", "decisions", "propagations"} <= set(result.stats)
    assert result.time_ms > 0


def test_unsolvable(solver):
    assert solver.solve(UNSOLVABLE_4X4).status == "unsolvable"
    counted = solver.solve(UNSOLVABLE_4X4, limit=2)
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
    assert solver.solve(grid_9x9(SAMPLE_HARD), limit=2).status == "multiple"


def test_non_incremental_agrees():
    with SatSolver(DEFAULT_SAT_SOLVER, incremental=False) as fresh, SatSolver() as inc:
        for puzzle in list(PUZZLES.values()) + [UNSOLVABLE_4X4, grid_9x9(SAMPLE_HARD)]:
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
        assert s.solve(UNSOLVABLE_4X4).status == "unsolvable"


@pytest.mark.parametrize("name", ["kissat404", "kissat", "ks"])
def test_kissat_refused(name):
    with pytest.raises(SolverError, match="kissat ignores assumptions"):
        SatSolver(name)


def test_unknown_solver_lists_choices():
    with pytest.raises(SolverError, match="minisat22") as info:
        SatSolver("zchaff")
    assert "unknown SAT solver 'zchaff'" in str(info.value)
    assert check_sat_solver("m22").name == "minisat22"


@pytest.mark.parametrize("name", [n for n in SAT_SOLVERS if n != "lingeling"])
def test_every_offered_solver_works_with_assumptions(name):
    with SatSolver(name) as s:
        assert s.solve(PUZZLES["sample"], limit=2).status == "unique"
        assert s.solve(PUZZLES["17-clue"]).status == "solved"
        assert s.solve(UNSOLVABLE_4X4).status == "unsolvable"


def test_lingeling_solves_but_cannot_keep_time():
    with SatSolver("lingeling") as s:
        assert is_solution(s.solve(PUZZLES["sample"]).solution, PUZZLES["sample"])
        with pytest.raises(SolverError, match="time limit"):
            s.solve(PUZZLES["sample"], timeout=1)


@pytest.mark.parametrize("name", ["minisat22", "cadical195"])
def test_timeout_while_counting(name):
    # Counting the solutions of an empty 16x16 grid goes on for hours.
    empty = Grid(geometry(4, 4), (0,) * 256)
    with SatSolver(name) as s:
        s.solve(empty)  # build the solver outside the timed part
        begun = time.perf_counter()
        result = s.solve(empty, limit=10 ** 9, timeout=0.2)
        elapsed = time.perf_counter() - begun
        assert result.status == "timeout"
        assert elapsed < 1.0
        assert result.count >= 1 and is_solution(result.solution, empty)
        # and the solver is usable afterwards
        assert s.solve(PUZZLES["4x4"], timeout=5).status == "solved"
        assert s.solve(pattern_solution(4, 4), limit=2).status == "unique"


def test_zero_timeout():
    with SatSolver("minisat22") as s:
        result = s.solve(PUZZLES["12x12"], timeout=0.0)
        assert result.status == "timeout" and result.solution is None
        assert s.solve(PUZZLES["12x12"], timeout=10).status == "solved"


FRISCH = (Path(__file__).resolve().parents[1].parent / "shared" / "puzzles" / "25x25"
          / "gecode_frisch_25x25.txt")


@pytest.mark.skipif(not FRISCH.exists(), reason="shared puzzle collection absent")
@pytest.mark.parametrize("name", ["minisat22", "cadical195"])
def test_timeout_inside_one_solve(name):
    # Frisch's minimal 25x25 puzzles: proving uniqueness takes seconds to minutes.
    alphabet = "123456789ABCDEFGHIJKLMNOP"
    line = next(x for x in FRISCH.read_text().splitlines() if x and not x.startswith("#"))
    puzzle = Grid(geometry(5, 5), tuple(alphabet.index(ch) + 1 if ch != "." else 0
                                        for ch in line.split()[0]))
    with SatSolver(name) as s:
        s.solve(Grid(puzzle.geometry, (0,) * 625))  # build the solver outside the timed part
        begun = time.perf_counter()
        result = s.solve(puzzle, limit=2, timeout=0.05)
        assert result.status == "timeout"
        assert time.perf_counter() - begun < 1.0


def write_sample_cnf(tmp_path):
    puzzle = PUZZLES["sample"]
    path = tmp_path / "in.cnf"
    with open(path, "w") as fp:
        write_dimacs(encode(puzzle), fp, puzzle_text=SAMPLE, grid=puzzle)
    return puzzle, path


@pytest.mark.skipif(not shutil.which("minisat"), reason="minisat binary not installed")
def test_end_to_end_minisat(tmp_path):
    puzzle, cnf = write_sample_cnf(tmp_path)
    out = tmp_path / "out.txt"
    done = subprocess.run([shutil.which("minisat"), str(cnf), str(out)], capture_output=True)
    assert done.returncode == 10  # SATISFIABLE
    solution = decode_model(parse_model(out.read_text()), puzzle.geometry)
    assert is_solution(solution, puzzle)


@pytest.mark.skipif(not shutil.which("cadical"), reason="cadical binary not installed")
def test_end_to_end_cadical(tmp_path):
    puzzle, cnf = write_sample_cnf(tmp_path)
    done = subprocess.run([shutil.which("cadical"), str(cnf)], capture_output=True, text=True)
    assert done.returncode == 10  # 10 SAT, 20 UNSAT
    solution = decode_model(parse_model(done.stdout), puzzle.geometry)
    assert is_solution(solution, puzzle)


@pytest.mark.skipif(not shutil.which("cadical"), reason="cadical binary not installed")
def test_end_to_end_cadical_unsat(tmp_path):
    path = tmp_path / "unsat.cnf"
    buffer = io.StringIO()
    write_dimacs(encode(UNSOLVABLE_4X4), buffer)
    path.write_text(buffer.getvalue())
    done = subprocess.run([shutil.which("cadical"), str(path)], capture_output=True, text=True)
    assert done.returncode == 20
    with pytest.raises(Exception, match="unsolvable"):
        parse_model(done.stdout)


def test_huge_pairwise_base_refused_before_building():
    with SatSolver() as s:
        with pytest.raises(SolverError, match="81x81 grid needs 85,056,804 clauses"):
            s.solve(Grid(geometry(9, 9), (0,) * 81 ** 2))


def test_stats_off_still_solves_and_verifies():
    from satdoku.solvers import solve
    with SatSolver(stats=False) as s:
        result = solve(s, PUZZLES["sample"])
        assert result.status == "solved" and is_solution(result.solution, PUZZLES["sample"])
        assert not {"variables", "conflicts"} & set(result.stats)
        assert solve(s, UNSOLVABLE_4X4).status == "unsolvable"
        counted = solve(s, PUZZLES["sample"], limit=2)
        assert (counted.status, counted.count) == ("unique", 1)


@pytest.mark.parametrize("name", list(PUZZLES))
def test_fast_clue_literals_match_encode(name):
    from satdoku.encode import clue_literals
    from satdoku.sat import _clue_literals
    assert _clue_literals(PUZZLES[name]) == clue_literals(PUZZLES[name])


def test_solver_options_are_applied(monkeypatch):
    import satdoku.sat as sat
    seen = []

    class Spy:
        def __init__(self, inner):
            self.inner = inner

        def configure(self, options):
            seen.append(dict(options))
            self.inner.configure(options)

        def __getattr__(self, name):
            return getattr(self.inner, name)

    real = sat.PysatSolver

    def make(name):
        solver = real(name=name)
        solver.solver = Spy(solver.solver) if name.startswith("cadical") else solver.solver
        return solver

    monkeypatch.setattr(sat, "SOLVER_OPTIONS", {"cadical195": {"chrono": 0}})
    monkeypatch.setattr(sat, "PysatSolver", lambda name: make(name))
    with SatSolver("cadical195") as s:
        assert s.solve(PUZZLES["sample"]).status == "solved"
    assert seen == [{"chrono": 0}]


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (2, 3), (4, 4), (5, 5)])
def test_verifier_fast_path_agrees_with_house_by_house(shape):
    # solution_problems checks right answers with one precomputed sum and explains wrong ones
    # house by house; both must give the same verdict on every corrupted grid.
    import random
    from satdoku.grid import _solution_ok, solution_problems
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
    cells, witness = solver.core(UNSOLVABLE_4X4)
    assert witness is None
    assert set(cells) <= {c for c, _ in UNSOLVABLE_4X4.givens()} and cells
    cells, witness = solver.core(PUZZLES["4x4"])
    assert cells is None and is_solution(witness, PUZZLES["4x4"])


def test_other_solution_anywhere_or_at_given_cells(solver):
    sample = grid_9x9(SAMPLE)
    solution = solver.solve(sample).solution
    assert solver.other_solution(sample, solution) == ("unique", None)
    hard = grid_9x9(SAMPLE_HARD)  # 'sampleHard' has several solutions
    answer, other = solver.other_solution(hard, solution)
    assert answer == "multiple" and other != solution and is_solution(other, hard)
    emptied = [c for c in range(81) if sample.cells[c] and not hard.cells[c]]
    answer, other = solver.other_solution(hard, solution, cells=emptied)
    assert answer == "multiple" and other.differences(solution)
    # The same solution asked about again reuses its clause; the solver stays reusable.
    assert solver.other_solution(sample, solution)[0] == "unique"
    assert solver.solve(hard, limit=2).status == "multiple"


@pytest.mark.parametrize("name", sorted({"minisat22", DEFAULT_SAT_SOLVER}))
def test_other_solution_out_of_conflicts_is_unknown(name):
    sample = grid_9x9(SAMPLE)  # proving it unique takes a few conflicts, more than 1
    with SatSolver(name) as fresh:
        solution = fresh.solve(sample).solution
    with SatSolver(name) as fresh:
        assert fresh.other_solution(sample, solution, conflicts=1) == ("unknown", None)
        assert fresh.other_solution(sample, solution, conflicts=10_000) == ("unique", None)
        with pytest.raises(SolverError, match="at least 1"):
            fresh.other_solution(sample, solution, conflicts=0)
