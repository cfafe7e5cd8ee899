"""External solver binaries (exec:...) keep the Result contract, and so does python-sat's Kissat
on single puzzles; bad answers, hung solvers and dead parents are handled."""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import EMPTY_4X4, PUZZLES, SMALL, SMALL_SOLUTION, UNSOLVABLE_4X4
from satdoku.sat import questions
from satdoku.deadline import Deadline
from satdoku.errors import OptionError, SolverError
from satdoku.sat.external import ExecSolver, check_command, is_exec, parse_command
from satdoku.io.text import format_grid, parse_puzzle
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.model.result import Capabilities
from satdoku.sat.catalogue import capabilities_of, check_for
from satdoku.sat.solver import SatSolver
from satdoku.sat.catalogue import check_sat_solver
from satdoku.sat.catalogue import check_sat_name
from satdoku.tasks.solvers import make_solver, solve
from test_contract import CASES, EXPECTED, checked, signature

BINARIES = {"cadical": "exec:cadical -q", "minisat": "exec:minisat", "picosat": "exec:picosat"}


def _config(binary, encoding):
    marks = pytest.mark.skipif(shutil.which(binary) is None, reason=f"{binary} is not installed")
    return pytest.param((BINARIES[binary], encoding), marks=marks, id=f"{binary}/{encoding}")


CONFIGS = [_config(b, e) for b in BINARIES for e in ("extended", "reduced")]

# Counting 288 solutions is 289 processes: test_counts_every_solution counts 12 instead.
CHEAP_CASES = [c for c in CASES if c != "multiple"]


def _solver(config):
    command, encoding = config
    return make_solver("sat", sat_solver=command, encoding=encoding)


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("case", CHEAP_CASES)
def test_same_answer(config, case):
    with _solver(config) as s:
        result = checked(s, case)
    assert result.solver == "exec:" + config[0].split()[0][5:]
    if case in ("solved", "unique"):
        assert format_grid(result.solution) == SMALL_SOLUTION


@pytest.mark.skipif(shutil.which("picosat") is None, reason="picosat is not installed")
def test_counts_every_solution():
    grid = parse_puzzle("12..3" + "." * 11).grid  # 12 solutions (native search agrees)
    with ExecSolver("exec:picosat", "extended") as s:
        result = solve(s, grid, limit=1000)
    with make_solver("native") as native:
        assert solve(native, grid, limit=1000).count == 12
    assert signature(result) == ("multiple", 12, False, True, True)
    assert result.stats["runs"] == 13  # one more to prove there is no 13th


@pytest.mark.parametrize("config", CONFIGS)
def test_invalid_timeout_refused(config):
    with _solver(config) as s:
        result = solve(s, Grid(geometry(2, 2), (1, 1) + (0,) * 14))
        assert (result.status, result.message) == ("invalid", "r1c2: 1 repeats the given at r1c1")
        result = solve(s, parse_puzzle(SMALL).grid, deadline=Deadline(1e-9))
        assert (result.status, result.solution, result.count) == ("timeout", None, None)
        assert result.message == "time limit of 1e-09 s reached"
    with make_solver("sat", sat_solver=config[0], encoding=config[1], max_clauses=10) as s:
        result = solve(s, parse_puzzle(EMPTY_4X4).grid, limit=2)
    assert (result.status, result.count) == ("refused", None)
    assert "over the limit of 10 (raise it with --max-clauses)" in result.message


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical is not installed")
def test_timeout_while_counting_keeps_what_was_found(tmp_path):
    empty = Grid(geometry(4, 4), (0,) * 256)
    deadline = Deadline(0.5)
    with ExecSolver("exec:cadical -q", "extended", tmpdir=str(tmp_path)) as s:
        result = solve(s, empty, limit=10 ** 9, deadline=deadline)
    assert result.status == "timeout" and result.message == deadline.message(result.count)
    assert (result.second is not None) == (result.count >= 2)
    assert list(tmp_path.iterdir()) == []  # the temporary folder went


def test_command_spelling():
    c = parse_command('exec:kissat -q --seed=2')
    assert (c.name, c.argv, c.model_file, c.stdin) == (
        "exec:kissat", ("kissat", "-q", "--seed=2", "{cnf}"), False, False)
    c = parse_command('exec:"/opt/my solver/bin/s" -model {model} {cnf}')
    assert c.name == "exec:s" and c.model_file
    assert c.arguments("/t/f.cnf", "/t/m") == ["/opt/my solver/bin/s", "-model", "/t/m", "/t/f.cnf"]
    c = parse_command("exec:picosat {stdin}")
    assert c.stdin and c.arguments("/t/f.cnf", "/t/m") == ["picosat"]
    assert parse_command("exec:minisat -rnd-seed=3").argv[-2:] == ("{cnf}", "{model}")
    assert is_exec("exec:x") and not is_exec("cadical195") and not is_exec(None)
    for bad, message in (("exec:", "needs a command"), ("exec:'open", "cannot read"),
                         ("exec:{cnf} x", "must start with a program")):
        with pytest.raises(OptionError, match=message):
            parse_command(bad)
    with pytest.raises(OptionError, match="program 'no-such-solver' not found"):
        check_command("exec:no-such-solver -q")
    with pytest.raises(OptionError, match="not found"):
        make_solver("sat", sat_solver="exec:no-such-solver")
    assert check_sat_name("exec:sh -c true") == "exec:sh -c true"
    assert capabilities_of("exec:anything").time_limit and not capabilities_of("kissat404").time_limit


def _fake(tmp_path, body: str) -> str:
    """An exec: command running a small Python 'solver' (the formula's path is argv[1])."""
    script = tmp_path / "fake_solver.py"
    script.write_text("import sys, os, time\n" + body)
    return f'exec:"{sys.executable}" {script}'


def _all_ones_model():
    # A 4x4 model where every cell holds 1: a grid, but no solution.
    return " ".join(str(v if (v - 1) % 4 == 0 else -v) for v in range(1, 65))


@pytest.mark.parametrize("body, status, message", [
    ("print('hello')", "error", "gave no usable answer: expected 's SATISFIABLE' or 'SAT', "
                                "found 'hello'"),
    ("print('s SATISFIABLE'); print('v 1 -1 0')", "error", "variable 1 is set both"),
    ("print('s SATISFIABLE'); print('v 1 2 0')", "error", "no value to variable 3"),
    ("print('s UNKNOWN'); sys.exit(0)", "error", "the solver gave no answer"),
    ("sys.stderr.write('out of memory\\n'); sys.exit(1)", "error",
     "exited with code 1 without an answer: out of memory"),
    ("os.kill(os.getpid(), 9)", "error", "was stopped by signal 9"),
    ("print('s UNSATISFIABLE'); sys.exit(20)", "unsolvable", None),
    (f"print('s SATISFIABLE'); print('v {_all_ones_model()} 0')", "error",
     "gave a wrong solution"),
])
def test_bad_answers(tmp_path, body, status, message):
    with ExecSolver(_fake(tmp_path, body), "extended", tmpdir=str(tmp_path)) as s:
        result = solve(s, parse_puzzle(SMALL).grid, limit=2)
    assert result.status == status and result.solution is None
    assert (message is None and result.message is None) or message in result.message
    assert "\n" not in (result.message or "")
    assert [p.name for p in tmp_path.iterdir()] == ["fake_solver.py"]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers: look at its state
    try:
        with open(f"/proc/{pid}/stat") as fp:
            return fp.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _wait_gone(pid: int, seconds: float = 3.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _pid_alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_hung_solver_is_killed_at_the_deadline(tmp_path):
    pidfile = tmp_path / "pid"
    body = f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\ntime.sleep(60)\n"
    start = time.perf_counter()
    with ExecSolver(_fake(tmp_path, body), "extended", tmpdir=str(tmp_path)) as s:
        result = solve(s, parse_puzzle(SMALL).grid, deadline=Deadline(0.5))
    assert result.status == "timeout" and time.perf_counter() - start < 3
    assert not _pid_alive(int(pidfile.read_text()))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal: Linux")
def test_solver_dies_with_satdoku(tmp_path):
    pidfile = tmp_path / "pid"
    command = _fake(tmp_path, f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
                              "time.sleep(60)\n")
    code = ("from satdoku.sat.external import ExecSolver; from satdoku.io.text import parse_puzzle;"
            f"ExecSolver({command!r}).solve(parse_puzzle({SMALL!r}).grid)")
    folders = tmp_path / "tmp"
    folders.mkdir()
    parent = subprocess.Popen([sys.executable, "-c", code], env={**os.environ,
                                                                "TMPDIR": str(folders)})
    try:
        for _ in range(100):
            if pidfile.exists() and pidfile.read_text():
                break
            time.sleep(0.05)
        pid = int(pidfile.read_text())
        assert _pid_alive(pid)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        assert _wait_gone(pid)
    finally:
        parent.kill()
        parent.wait()
    # Its folder outlives it (SIGKILL): the next process to make one removes it.
    [left] = os.listdir(folders)
    assert left.startswith(f"satdoku-exec-{parent.pid}-")
    with ExecSolver("exec:true", tmpdir=str(folders)) as s:
        assert s.solve(parse_puzzle(SMALL).grid).status == "error"
    assert os.listdir(folders) == []


# python-sat's Kissat: single puzzles only, through fresh solvers.

@pytest.mark.parametrize("encoding", ["extended", "reduced"])
@pytest.mark.parametrize("case", list(CASES))
def test_kissat_same_answer(encoding, case):
    text, limit = CASES[case]
    grid = parse_puzzle(text).grid
    if case == "multiple":
        limit = 40  # 41 fresh solvers: enough to show counting goes on
    with make_solver("sat", sat_solver="kissat", encoding=encoding) as s:
        result = solve(s, grid, limit=limit)
    expected = EXPECTED[case] if case != "multiple" else ("multiple", 40, True, True, True)
    assert signature(result) == expected, result.message
    assert result.solver == "sat:kissat404" and result.message is None


def test_kissat_refused_where_assumptions_are_needed():
    info = check_sat_solver("kissat")
    assert info.name == "kissat404" and not info.assumptions
    with pytest.raises(OptionError, match="kissat404 ignores assumptions, which explain needs"):
        check_for("kissat404", Capabilities.needs("assumptions"), "explain")
    assert check_for(None, Capabilities.needs("assumptions"), "generate") is None
    with SatSolver("kissat404") as s:
        with pytest.raises(OptionError, match="which explain needs"):
            questions.core(s.backend, parse_puzzle(UNSOLVABLE_4X4).grid)
        grid = parse_puzzle(SMALL).grid
        solution = s.solve(grid).solution
        with pytest.raises(OptionError, match="which generate needs"):
            questions.other_solution(s.backend, grid, solution)
        with pytest.raises(SolverError, match="cannot stop at a time limit"):
            s.solve(grid, deadline=Deadline(5))
    with pytest.raises(OptionError, match="takes no solver options"):
        SatSolver("kissat404", configure={"seed": 1})


@pytest.mark.skipif(shutil.which("picosat") is None, reason="picosat is not installed")
def test_bench_side_by_side():
    from satdoku.run.bench import check_groups, run_bench
    groups = check_groups([], ["exec:picosat", "cadical195"], ["reduced"])
    rows = list(run_bench([str(PUZZLES / "4x4.txt")], groups, limit=2, timeout=10))
    assert [r.solver for r in rows] == ["exec:picosat", "sat:cadical195"]
    assert rows[0].solved == rows[1].solved > 0 and rows[0].errors == 0
    assert rows[0].guesses_per_puzzle is None and rows[0].conflicts_per_puzzle is None


def test_solver_process_cpu_is_measured_apart_from_wall(tmp_path):
    # One fake solver burns 0.3 s of CPU, the other sleeps 0.3 s: the CPU time of its
    # process tells them apart (the wall times do not), and the sleeper's is its start-up.
    from satdoku.sat.external import _children_cpu
    answer = "print('s UNSATISFIABLE')\n"
    burn = "t = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n" + answer
    sleep = "time.sleep(0.3)\n" + answer
    grid = parse_puzzle(SMALL).grid
    cpu = {}
    for name, body in (("burn", burn), ("sleep", sleep)):
        (tmp_path / name).mkdir()
        with ExecSolver(_fake(tmp_path / name, body), "extended", tmpdir=str(tmp_path)) as s:
            before = _children_cpu()
            result = s.solve(grid, deadline=Deadline(30))
        assert result.status == "unsolvable" and result.stats["solve_ms"] >= 300
        cpu[name] = result.stats["solver_cpu_ms"]
        assert cpu[name] <= (_children_cpu() - before) * 1000 + 1e-6
    assert cpu["burn"] >= 280 and cpu["sleep"] < cpu["burn"] - 150


def test_cpu_limit_stops_a_solver():
    from satdoku.sat.external import _limited
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "while True: pass"],
                          preexec_fn=_limited(None, 1), timeout=60)
    assert done.returncode == -signal.SIGXCPU and time.perf_counter() - start < 60


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical is not installed")
def test_bench_exec_is_timed_by_its_cpu_with_par2():
    from satdoku.output.bench import format_table
    from satdoku.run.bench import check_groups, run_bench
    rows = list(run_bench([str(PUZZLES / "4x4.txt")], check_groups([], ["exec:cadical -q"]),
                          timeout=10, levels="none", per_puzzle=True))
    row, = rows
    assert row.clock == "solver-cpu" and row.time_limit_s == 10
    assert row.within_limit == row.solved > 0 and row.par2_ms == row.mean_ms
    times = sorted(r["solver_cpu_ms"] for r in row.puzzle_rows)
    assert times == pytest.approx(row.times_ms, abs=1e-3) and all(r["wall_ms"] > r["solver_cpu_ms"]
                                         for r in row.puzzle_rows)
    table = format_table(rows)
    assert "| clock " in table and "solver-cpu" in table and "PAR-2 ms" in table
