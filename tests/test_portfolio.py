"""Portfolios: configurations race in processes, the first verified answer wins, the others are
killed, and the Result contract holds."""

import os
import sys
import time

import pytest

from conftest import ROOT, SMALL, SMALL_SOLUTION
from satdoku.run.stream import stream
from satdoku.tasks.solvers import CountOptions
from satdoku.deadline import Deadline
from satdoku.errors import OptionError
from satdoku.io.text import format_grid, parse_puzzle, parse_puzzles
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.io.inputs import single_puzzle
from satdoku.sat.portfolio import (DEFAULT_PORTFOLIO, Config, PortfolioSolver, parse_config,
                                   portfolio_size)
from satdoku.tasks.solvers import make_solver, solve
from test_contract import CASES, checked
from test_external import _fake, _wait_gone

RACE = [parse_config("cadical195/reduced"), parse_config("minisat22/extended")]


@pytest.mark.parametrize("case", [c for c in CASES if c != "multiple"])
def test_same_answer(case):
    with PortfolioSolver(RACE, jobs=2) as s:
        result = checked(s, case)
    assert result.solver in ("portfolio:cadical195/reduced", "portfolio:minisat22/extended")
    assert result.stats["portfolio"] == result.solver[len("portfolio:"):]


def test_timeouts_and_refusals():
    with PortfolioSolver(RACE, jobs=2) as s:
        result = solve(s, parse_puzzle(SMALL).grid, deadline=Deadline(1e-9))
        assert (result.status, result.solution, result.count) == ("timeout", None, None)
        assert result.message == "time limit of 1e-09 s reached"
        empty = Grid(geometry(4, 4), (0,) * 256)
        deadline = Deadline(0.3)
        result = solve(s, empty, limit=10 ** 9, deadline=deadline)
        assert result.status == "timeout" and result.message == deadline.message(result.count)
        assert (result.second is not None) == (result.count >= 2)
    with PortfolioSolver(RACE, jobs=2, max_clauses=10) as s:
        result = solve(s, parse_puzzle("." * 16).grid, limit=2)
    assert result.status == "refused" and "over the limit of 10" in result.message


def test_a_wrong_answer_does_not_win(tmp_path):
    # The liar answers at once with a grid of 1s; the honest racer's answer must win.
    model = " ".join(str(v if (v - 1) % 4 == 0 else -v) for v in range(1, 65))
    liar = parse_config(_fake(tmp_path, f"print('s SATISFIABLE'); print('v {model} 0')")
                        + "/extended")
    with PortfolioSolver([liar, parse_config("cadical195")], jobs=2) as s:
        result = solve(s, parse_puzzle(SMALL).grid, limit=2)
    assert result.status == "unique" and format_grid(result.solution) == SMALL_SOLUTION
    assert result.solver == "portfolio:cadical195"


def test_the_losers_are_killed(tmp_path, monkeypatch):
    # The winner answers (rightly) once the loser has started its solver, which never ends.
    import tempfile
    folders = tmp_path / "tmp"
    folders.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folders))  # the racers' temporary folders
    pidfile = tmp_path / "pid"
    loser = parse_config(_fake(tmp_path, f"open({str(pidfile)!r} + '.tmp', 'w').write("
                                         f"str(os.getpid())); os.rename({str(pidfile)!r} + "
                                         f"'.tmp', {str(pidfile)!r}); time.sleep(60)"))
    model = " ".join(str(v if int(SMALL_SOLUTION[(v - 1) // 4]) == (v - 1) % 4 + 1 else -v)
                     for v in range(1, 65))
    (tmp_path / "winner.py").write_text(
        f"import os, time\nwhile not os.path.exists({str(pidfile)!r}): time.sleep(0.01)\n"
        f"print('s SATISFIABLE'); print('v {model} 0')\n")
    winner = parse_config(f'exec:"{sys.executable}" {tmp_path / "winner.py"}')
    start = time.perf_counter()
    before = set(_children())  # other tests' processes, if any
    with PortfolioSolver([loser, winner], jobs=2) as s:
        result = solve(s, parse_puzzle(SMALL).grid)
    assert result.status == "solved" and time.perf_counter() - start < 10
    assert result.solver == f"portfolio:{winner.label}"
    assert _wait_gone(int(pidfile.read_text()))
    assert set(_children()) <= before  # every racer reaped, the winner too: no zombies
    assert os.listdir(folders) == []  # the loser's exec: folder went with it (SIGTERM first)


def _children():
    """The processes whose parent is this one (Linux /proc; [] elsewhere)."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fp:
                    fields = fp.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                found.append((int(entry), fields[0]))
    return found


def test_only_failures(tmp_path):
    broken = parse_config(_fake(tmp_path, "sys.exit(3)"))
    with PortfolioSolver([broken], jobs=1) as s:
        result = solve(s, parse_puzzle(SMALL).grid)
    assert result.status == "error" and "exited with code 3" in result.message


def test_configurations():
    assert parse_config("cadical195/reduced/seed=1,phase=0") == Config(
        "cadical195", "reduced", (("seed", 1), ("phase", 0)))
    assert parse_config("g4").label == "glucose4"
    assert parse_config("exec:/usr/bin/env cadical -q/extended") == Config(
        "exec:/usr/bin/env cadical -q", "extended")
    for bad, message in (("minisat22/seed=1", "takes no solver options"),
                         ("cadical195/seed=x", "bad solver options"),
                         ("nosuch/reduced", "unknown SAT solver"), ("/reduced", "no SAT solver")):
        with pytest.raises(OptionError, match=message):
            parse_config(bad)
    assert len({c.label for c in DEFAULT_PORTFOLIO}) == len(DEFAULT_PORTFOLIO)
    for config in DEFAULT_PORTFOLIO:  # every default configuration reads back as itself
        assert parse_config(config.label) == config
    s = make_solver("sat", sat_solver="kissat", encoding="extended", portfolio=2)
    small, big = parse_puzzle(SMALL).grid, Grid(geometry(6, 6), (0,) * 36 ** 2)
    assert [c.label for c in s.racers(small)] == ["kissat404/extended",
                                                  DEFAULT_PORTFOLIO[0].label][:s.jobs]
    assert make_solver("native", portfolio=2).name == "native"
    # From 36x36 on every racer gets the reduced formula (the full one does not fit).
    s = PortfolioSolver([parse_config("cadical195/extended"), parse_config("cadical195"),
                         parse_config("cadical195/reduced/seed=1")], jobs=3)
    assert [c.label for c in s.racers(big)] == [
        "cadical195/reduced", "cadical195", "cadical195/reduced/seed=1"][:s.jobs]
    # Variant rules need a full encoding: reduced racers stay out.
    assert [c.label for c in s.racers(small, constraints=("rule",))] == [
        "cadical195/extended", "cadical195"][:s.jobs]


def test_batch_option_and_single_puzzle_rule():
    cores = os.cpu_count()
    assert portfolio_size(1, requested=True, single=False) == cores
    assert portfolio_size(2, requested=False, single=True) == min(2, cores)
    assert portfolio_size(0, requested=False, single=True) == cores
    assert portfolio_size(2, requested=False, single=False) == 0
    assert portfolio_size(1, requested=False, single=True) == 0
    one, again = single_puzzle(parse_puzzles([SMALL]))
    assert one and len(list(again)) == 1
    many, again = single_puzzle(parse_puzzles([SMALL, SMALL, SMALL]))
    assert not many and len(list(again)) == 3
    outcomes = list(stream(parse_puzzles([SMALL]), CountOptions(racers=2)))
    assert outcomes[0].result.status == "unique"
    assert outcomes[0].result.solver.startswith("portfolio:")


def test_variant_puzzles_race_every_encoding():
    # Rules encode over the reduced map too: a variant puzzle races what a classic one races.
    from satdoku.io.variant import read_variants
    [entry] = list(read_variants(str(ROOT / "puzzles" / "variants" / "miracle.json")))
    puzzle = entry
    with PortfolioSolver(jobs=2) as s:
        assert s.racers(puzzle.grid, puzzle.constraints) == s.racers(puzzle.grid)
        result = solve(s, puzzle.grid, limit=2, constraints=puzzle.constraints)
    assert result.status == "unique" and result.solver.startswith("portfolio:")
