"""solvers: the registry, the choice of encoding, independent verification, and every shipped
puzzle solved by each solver."""

import pytest

from conftest import PUZZLES, SHARED, needs_shared
from satdoku.errors import OptionError
from satdoku.io.text import read_puzzles
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid, is_solution
from satdoku.model.result import Result
from satdoku.sat.catalogue import DEFAULT_SAT_SOLVER
from satdoku.cnf.policy import LARGE_MIN_SIZE, REDUCED_MIN_SIZE, choose_encoding
from satdoku.tasks.solvers import SOLVERS, describe, make_solver, solve, verify

GOOD_FILES = sorted(p for p in PUZZLES.glob("*.txt")
                    if p.name not in ("bad.txt", "unsolvable.txt"))


def test_shipped_puzzle_files_exist():
    names = {p.name for p in GOOD_FILES}
    assert {"4x4.txt", "6x6.txt", "9x9.txt", "12x12.txt", "16x16.txt", "25x25.txt"} <= names


@pytest.mark.parametrize("sat_solver", [  # every offered solver, on a few: test_sat
    pytest.param("minisat22", marks=pytest.mark.slow), pytest.param("glucose4", marks=pytest.mark.slow),
    DEFAULT_SAT_SOLVER])
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
        assert is_solution(result.solution, p.grid)


def test_shipped_unsolvable_puzzles_are_unsolvable():
    puzzles = list(read_puzzles(str(PUZZLES / "unsolvable.txt")))
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
    from satdoku.native.baselines import BASELINES
    from satdoku.tasks.commands import BASELINE_NAMES, SOLVER_NAMES
    assert tuple(SOLVERS) == SOLVER_NAMES == ("sat", "native", "exact-cover", "cp-sat")
    assert BASELINE_NAMES == tuple(BASELINES) == SOLVER_NAMES[2:]
    with make_solver("sat", sat_solver="g4") as s:
        assert s.name == "sat:glucose4"
    with pytest.raises(OptionError, match="unknown solver 'dlx'; choose one of sat, native, exact-cover, cp-sat"):
        make_solver("dlx")


def test_choice_of_encoding_by_size():
    assert choose_encoding(REDUCED_MIN_SIZE - 1) == "extended"
    assert choose_encoding(REDUCED_MIN_SIZE) == "reduced"
    # explain, generate and rate keep the full formula up to LARGE_MIN_SIZE; variant puzzles
    # get the same choice as classic ones (rules encode over any variable map).
    assert choose_encoding(LARGE_MIN_SIZE - 1, LARGE_MIN_SIZE) == "extended"
    assert choose_encoding(LARGE_MIN_SIZE, LARGE_MIN_SIZE) == "reduced"
    from satdoku.sat.solver import SatSolver
    empty = Grid(geometry(5, 5), (0,) * 625)
    with SatSolver() as s:
        assert s.encoding_for(empty) == "reduced"


def test_describe_lists_every_encoding_and_the_python_sat_version():
    info = describe()
    assert [e["name"] for e in info["encodings"]] == ["minimal", "natural", "extended", "augmented",
                                                      "reduced"]
    assert any(s["name"] == DEFAULT_SAT_SOLVER and s["default"] for s in info["sat_solvers"])
    assert info["python_sat"][0].isdigit()


def test_clashing_givens_are_invalid_for_every_solver():
    grid = Grid(geometry(2, 2), (1, 1) + (0,) * 14)
    for name in SOLVERS:
        try:
            solver = make_solver(name)
        except OptionError as error:  # an optional baseline not installed (satdoku[baselines])
            assert "satdoku[baselines]" in str(error)
            continue
        with solver as s:
            result = solve(s, grid)
        assert (result.status, result.message) == ("invalid", "r1c2: 1 repeats the given at r1c1")
    out_of_range = Grid(geometry(2, 2), (5,) + (0,) * 15)
    with make_solver() as s:
        assert solve(s, out_of_range).message == "r1c1: 5 is not a digit of a 4x4 grid"


@needs_shared
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
