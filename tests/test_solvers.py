"""solvers: the registry, independent verification, and every shipped puzzle solved by each solver."""

from pathlib import Path

import pytest

from satdoku.errors import SolverError
from satdoku.formats import read_puzzles
from satdoku.geometry import geometry
from satdoku.grid import Grid, is_solution
from satdoku.result import Result
from satdoku.sat import DEFAULT_SAT_SOLVER
from satdoku.solvers import make_solver, parse_method, solve, verify

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "puzzles"
GOOD_FILES = sorted(p for p in (ROOT / "puzzles").glob("*.txt")
                    if p.name not in ("bad.txt", "unsolvable.txt"))


def test_shipped_puzzle_files_exist():
    names = {p.name for p in GOOD_FILES}
    assert {"4x4.txt", "6x6.txt", "9x9.txt", "12x12.txt", "16x16.txt", "25x25.txt"} <= names


@pytest.mark.parametrize("sat_solver", ["minisat22", "glucose4", DEFAULT_SAT_SOLVER])
@pytest.mark.parametrize("path", GOOD_FILES, ids=lambda p: p.name)
def test_every_shipped_puzzle_solved_by_sat(path, sat_solver):
    solver = make_solver("sat", sat_solver=sat_solver)
    try:
        puzzles = list(read_puzzles(str(path)))
        assert puzzles and all(p.error is None for p in puzzles)
        for p in puzzles:
            result = solve(solver, p.grid)
            assert result.status == "solved", f"{path.name}:{p.line}: {result.message}"
            assert is_solution(result.solution, p.grid)
    finally:
        solver.close()


@pytest.mark.parametrize("path", [p for p in GOOD_FILES if p.name != "25x25.txt"],
                         ids=lambda p: p.name)
def test_every_shipped_puzzle_solved_by_native(path):
    solver = make_solver("native")
    for p in read_puzzles(str(path)):
        result = solve(solver, p.grid, timeout=30)
        assert result.status == "solved", f"{path.name}:{p.line}"


def test_shipped_unsolvable_puzzles_are_unsolvable():
    puzzles = list(read_puzzles(str(ROOT / "puzzles" / "unsolvable.txt")))
    assert len(puzzles) == 2 and all(p.error is None for p in puzzles)
    with make_solver("sat") as sat:
        assert [solve(sat, p.grid).status for p in puzzles] == ["unsolvable"] * 2
    # Native search proves the planted one at once; Norvig's impossible puzzle (the first) is
    # its worst case: 181 s and 4.6 million guesses (SAT: milliseconds).
    native = solve(make_solver("native"), puzzles[1].grid, timeout=30)
    assert native.status == "unsolvable"


def test_verify_turns_a_wrong_answer_into_an_error():
    puzzle = Grid(geometry(2, 2), (1,) + (0,) * 15)
    wrong = Grid(geometry(2, 2), (2, 1, 4, 3) * 4)  # rows fine, columns and the given wrong
    result = verify(Result(status="solved", solution=wrong, solver="sat:test"), puzzle)
    assert result.status == "error" and result.solution is None
    assert "internal error: sat:test gave a wrong solution" in result.message


def test_verify_catches_the_same_solution_counted_twice():
    solution = Grid(geometry(2, 2), tuple(int(c) for c in "1234341221434321"))
    puzzle = Grid(geometry(2, 2), (1,) + (0,) * 15)
    result = verify(Result(status="multiple", solution=solution, second=solution, count=2,
                           solver="native"), puzzle)
    assert result.status == "error" and "counted one solution twice" in result.message


def test_registry_names():
    assert parse_method("sat:glucose4") == ("sat", "glucose4")
    assert parse_method("native") == ("native", None)
    with pytest.raises(SolverError):
        parse_method("dlx")
    with pytest.raises(SolverError):
        make_solver("dlx")


@pytest.mark.skipif(not (SHARED / "9x9" / "project_euler_096.txt").exists(),
                    reason="../shared/puzzles absent")
@pytest.mark.parametrize("method", ["sat", "native"])
def test_project_euler_96(method):
    solver = make_solver(method)
    total = 0
    for p in read_puzzles(str(SHARED / "9x9" / "project_euler_096.txt")):
        result = solve(solver, p.grid)
        assert result.status == "solved"
        total += int("".join(map(str, result.solution.cells[:3])))
    solver.close()
    assert total == 24702
