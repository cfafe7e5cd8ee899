"""Puzzles, paths and helpers shared by the tests (imported as ``from conftest import ...``).

Test data as data: each puzzle once, with its known solution or count where a test needs it.
"""

from __future__ import annotations

import gc
import json
import os
import re
import sys
import tempfile
from pathlib import Path

# The suite starts a few hundred ``python -m satdoku`` processes, which import the package from
# this tree. Where bytecode is not written (PYTHONDONTWRITEBYTECODE), each of them compiled every
# module again: about a third of a child's start-up. This process, the workers and the children
# keep compiled modules in a private cache outside the tree instead.
if sys.dont_write_bytecode:
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = str(
        Path(tempfile.gettempdir()) / f"satdoku-tests-pycache-{os.getuid()}")
    sys.dont_write_bytecode = False

# The tests build formulas, boards and rule objects by the million, almost none of them in
# cycles; Python's cyclic collector, run every 700 allocations by default, scanned them for about
# a tenth of the suite's CPU (five of the heaviest test files, -n 0, A B A B, 2026-11-28: 40.3 and
# 38.8 s at the default, 34.7 and 36.0 s with these thresholds; freezing what collection built, as
# below, takes off another second or two). Only the tests' processes are tuned, not satdoku.
gc.set_threshold(50_000, 20, 100)

import pytest

from satdoku.io.text import parse_puzzle
from satdoku.model.geometry import geometry
from satdoku.model.grid import Grid
from satdoku.tasks.generate import pattern_grid

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
#: The shared puzzle collections beside the checkout (absent: the tests that need them skip).
SHARED = ROOT.parent / "shared" / "puzzles"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/puzzles is absent")

#: Tests of seconds each (a browser, mypy on a cold cache, processes of their own), longest
#: first: they run before the rest, so that the two workers, which take work from each other
#: at the end (``--dist worksteal`` in pyproject.toml), finish together rather than one waiting
#: out the other's last long test. Only the order changes; a name that goes stale costs time.
FIRST = (
    "test_typing.py::test_mypy_passes_and_the_api_has_precise_types",
    "test_screenshot.py::test_step_one_and_the_last_step_are_screenshotted",
    "test_hostile.py::test_the_variant_corpus_is_read_one_line_a_case",
    "test_scripts.py::test_each_script_runs_on_a_tiny_input",
    "test_steps.py::test_a_classic_path_is_rated_by_se_ladder_which_it_begins_with",
    "test_shapes.py::test_rules_that_read_values_count_as_a_brute_force_on_values_from_0",
    "test_ladder.py::test_ratings_agree_with_serate_and_every_step_keeps_the_solution",
    "test_hostile.py::test_sigterm_reaches_a_long_solve_without_a_time_limit",
    "test_setters_guide.py::test_every_example_shows_what_the_command_prints",
    "test_hostile.py::test_a_grid_too_big_for_memory_is_refused_at_once",
    "test_hostile.py::test_an_ignored_interrupt_stays_ignored",
    "test_engines.py::test_retired_rules_are_dropped_by_a_rebuild",
    "test_cli.py::test_a_pool_stopped_by_a_broken_pipe_never_hangs",
    "test_batch.py::test_pieces_parse_as_the_whole_stream",
    "test_parallel.py::test_ctrl_c_with_two_jobs_keeps_whole_results_and_exits_130",
)


def pytest_collection_finish(session):
    gc.freeze()  # the modules and test items collected stay to the end: never scan them again


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.rsplit("/", 1)[-1].split("[")[0],
                                         len(FIRST)))


#: The shipped variant puzzles and their published solutions (stem -> digits).
VARIANTS = PUZZLES / "variants"
VARIANT_SOLUTIONS = dict(
    line.split("\t") for line in (VARIANTS / "solutions.tsv").read_text().splitlines()
    if line and not line.startswith("#"))
#: Fields of a rule that say only how to draw it.
DRAWING_ONLY = {"label", "clue", "direction"}


def rules_of(document: dict) -> list[str]:
    """A document's rules as satdoku writes them (defaults left out), sorted, without the
    fields that only draw."""
    from satdoku.io.variant import read_variant, variant_document
    written = variant_document(read_variant(document))
    return sorted(json.dumps({k: v for k, v in c.items() if k not in DRAWING_ONLY},
                             sort_keys=True) for c in written["constraints"])


def canonical_puzzle(document: dict, drawing: bool = True) -> dict:
    """A document as satdoku reads and writes it, whatever the order of its rules and regions,
    without its name and source (``drawing=False``: nor the fields that only draw). Two
    documents with the same canonical form have the same solutions."""
    from satdoku.io.variant import read_variant, variant_document
    written = variant_document(read_variant(document))
    for key in ("name", "author", "source"):
        written.pop(key, None)
    written["constraints"] = sorted(
        json.dumps({k: v for k, v in c.items() if drawing or k not in DRAWING_ONLY},
                   sort_keys=True) for c in written.get("constraints", []))
    if "regions" in written:
        written["regions"] = sorted(sorted(region) for region in written["regions"])
    return written

# 'sample' of Sudoku Redux (2013): unique.
SAMPLE = ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85..."
SAMPLE_SOLUTION = ("971468235624153987853927641538291476492876153716534829265349718387612594"
                   "149785362")
# 'sampleHard' of the seed puzzles: several solutions.
SAMPLE_HARD = ".714....5....5..8...39.76.......1....9...6..3......82.....4...83......9.....85..."
# A 17-clue puzzle (Royle's collection): unique.
SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
SEVENTEEN_SOLUTION = ("693784512487512936125963874932651487568247391741398625319475268856129743"
                      "274836159")
# 'sampleSmall': a unique 4x4.
SMALL = "1.3..4.2.34.4.23"
SMALL_SOLUTION = "1234341223414123"
# A 4x4 taken by naked singles alone.
NAKED_4X4 = "1..4.4..2..3...1"
# No two givens clash, yet r1c4 must be 4 and column 4 already has a 4.
UNSOLVABLE_4X4 = "123." + "...4" + "...." + "...."
# An empty 4x4 has 288 solutions.
EMPTY_4X4 = "." * 16
EMPTY_4X4_SOLUTIONS = 288
# A 6x6 (2x3 boxes) with its first row fixed: 28,200,960 grids / 6! orders of a row = 39,168.
ROW_FIXED_6X6 = "123456" + "." * 30
ROW_FIXED_6X6_SOLUTIONS = 39_168
# The Miracle Sudoku's rules (Mitchell Lee): 72 solutions with no givens, 8 with r5c3=1.
MIRACLE_RULES = ('"constraints": [{"type": "anti-knight"}, {"type": "anti-king"}, '
                 '{"type": "non-consecutive"}]')
MIRACLE_EMPTY = '{"size": 9, ' + MIRACLE_RULES + '}'
MIRACLE_R5C3 = '{"size": 9, "givens": {"r5c3": 1}, ' + MIRACLE_RULES + '}'
MIRACLE_COUNTS = {MIRACLE_EMPTY: 72, MIRACLE_R5C3: 8}


def grid_of(text: str, box: tuple[int, int] | None = None) -> Grid:
    """The grid of one puzzle written in any format satdoku reads."""
    return parse_puzzle(text, box=box).grid


def with_holes(grid: Grid, every: int) -> Grid:
    """``grid`` with every ``every``-th cell (and a diagonal band) emptied."""
    n = grid.size
    cells = [0 if i % every == 0 or (i // n + i % n) % 3 == 0 else d
             for i, d in enumerate(grid.cells)]
    return Grid(grid.geometry, tuple(cells))


#: Solvable puzzles of several sizes and box shapes, by name (6x6 and 12x12 have several
#: solutions).
PUZZLES_BY_NAME = {
    "sample": grid_of(SAMPLE),
    "17-clue": grid_of(SEVENTEEN),
    "4x4": grid_of(SMALL),
    "6x6": with_holes(pattern_grid(geometry(2, 3)), 2),
    "12x12": with_holes(pattern_grid(geometry(3, 4)), 2),
}


def all_solutions(grid: Grid, constraints: tuple = ()) -> list[Grid]:
    """Every solution of a small grid (under variant ``constraints``), by plain backtracking
    over the cells: the brute force the tests check solvers against."""
    geo, cells, out = grid.geometry, list(grid.cells), []

    def fill(i):
        if i == geo.ncells:
            full = Grid(geo, tuple(cells))
            if all(not c.check(full) for c in constraints):
                out.append(full)
            return
        if grid.cells[i]:
            if all(cells[p] != cells[i] for p in geo.peers[i] if p < i):
                fill(i + 1)
            return
        for d in range(1, geo.size + 1):
            if all(cells[p] != d for p in geo.peers[i] if p < i):
                cells[i] = d
                fill(i + 1)
        cells[i] = 0

    fill(0)
    return out


def cli_commands() -> dict:
    """The command line's commands by name (each module imported, as ``satdoku --help`` does)."""
    from satdoku.cli import commands
    return commands()


class CliResult:
    """What ``satdoku ARGS`` run in-process printed (``stdout``, ``stderr``, and ``output``:
    both as a terminal shows them) and its ``exit_code``; ``exception``, one it raised."""

    def __init__(self, out: bytes, err: bytes, both: bytes, exit_code: int,
                 exception: BaseException | None) -> None:
        self.stdout, self.stderr = out.decode(errors="replace"), err.decode(errors="replace")
        self.output = both.decode(errors="replace")
        self.exit_code, self.exception = exit_code, exception


def run_cli(*args, input=None, env=None) -> CliResult:
    """Run ``satdoku ARGS`` in-process, stdin from ``input``, with ``env`` set (None: unset)
    and an 80-column terminal's width for help: stdout and stderr are captured (no
    terminal), an exception other than the exit is kept (exit 1)."""
    import io
    import os
    import sys
    from satdoku.cli import main
    both = io.BytesIO()

    class Tee(io.BytesIO):
        def write(self, data):
            both.write(data)
            return super().write(data)

    out, err = Tee(), Tee()
    if isinstance(input, str):
        input = input.encode()
    saved = sys.stdin, sys.stdout, sys.stderr, dict(os.environ)
    code, exception = 0, None
    try:
        os.environ["COLUMNS"] = "80"
        for name, value in (env or {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        sys.stdin = io.TextIOWrapper(io.BytesIO(input or b""), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
        sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace",
                                      write_through=True)
        main([str(a) for a in args])
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except Exception as error:  # noqa: BLE001 - kept for the test to see
        code, exception = 1, error
    finally:
        for stream in (sys.stdout, sys.stderr):
            if stream not in saved:
                stream.flush()
        written = out.getvalue(), err.getvalue(), both.getvalue()  # before the wrappers go
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        os.environ.clear()
        os.environ.update(saved[3])
    return CliResult(*written, code, exception)


@pytest.fixture
def run():
    return run_cli


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds process ``pid`` has used so far (Linux /proc); 0.0 once gone."""
    import os
    try:
        with open(f"/proc/{pid}/stat") as fp:
            fields = fp.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_cpu(proc, seconds: float, deadline: float = 60.0) -> None:
    """Wait until ``proc`` (a Popen) has used ``seconds`` of CPU: past its start-up and into
    its work however loaded the machine is, where a sleep of wall time is a race. Fails the
    test if the process ends first or ``deadline`` wall seconds pass."""
    import time
    end = time.monotonic() + deadline
    while cpu_seconds(proc.pid) < seconds:
        assert proc.poll() is None, f"the process ended (exit {proc.returncode}) too soon"
        assert time.monotonic() < end, f"{seconds} s of CPU not used in {deadline} s"
        time.sleep(0.02)


#: The line a count cut short by a signal says before the session's own (cli/session.show).
TALLY_LINE = re.compile(r".+: interrupted while counting, [\d,]+ solutions? found so far")


def last_word(err: str) -> str:
    """The session's last line on stderr, after the tally of a count cut short, if any."""
    *before, last = err.strip().splitlines()
    assert all(TALLY_LINE.fullmatch(line) for line in before), err
    return last
