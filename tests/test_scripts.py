"""Every script under scripts/ runs: its --help, in one child process (so that no script's set-up
leaks into the tests), through runpy as ``python SCRIPT --help`` would (its folder first on the
path). A module the scripts share (no ``__main__`` block) is imported by them, not run."""

import subprocess
import sys

import pytest

from conftest import ROOT, SHARED

SCRIPTS = sorted(p for p in (ROOT / "scripts").rglob("*.py")
                 if '__name__ == "__main__"' in p.read_text())

DRIVER = """
import runpy, sys
failed = []
for path in sys.argv[1:]:
    sys.argv = [path, "--help"]
    sys.path.insert(0, path.rsplit("/", 1)[0])
    try:
        runpy.run_path(path, run_name="__main__")
        failed.append(f"{path}: --help did not exit")
    except SystemExit as stop:
        if stop.code not in (0, None):
            failed.append(f"{path}: exit {stop.code}")
    except Exception as error:
        failed.append(f"{path}: {type(error).__name__}: {error}")
    finally:
        del sys.path[0]
print("\\n".join(failed))
"""


def test_every_script_answers_help():
    assert SCRIPTS
    done = subprocess.run([sys.executable, "-c", DRIVER, *map(str, SCRIPTS)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    failed = [line for line in done.stdout.splitlines() if ": " in line and line.startswith("/")]
    assert not failed, "\n".join(failed)


# Each script once on a tiny input, as a user runs it (``python scripts/NAME.py ARGS``), checked
# by a line of what it prints. The 9x9 sets the benchmarks read from ../shared/puzzles are
# stood in for by one-puzzle files (SATDOKU_PUZZLES), so most run on a clean clone too. A run
# that starts many processes or makes its own sets is marked slow (``-m slow``); --help above
# covers every script in the default run.

def _first_9x9():
    from satdoku.io.text import read_puzzles
    return next(p for p in read_puzzles(str(ROOT / "puzzles" / "9x9.txt")) if p.grid)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A folder with one.txt (one 9x9 puzzle), a stand-in for the shared 9x9 sets (p/9x9/)
    and one variant puzzle as bench_sums reads them (sums.jsonl)."""
    import json
    folder = tmp_path_factory.mktemp("scripts")
    line = "".join(map(str, _first_9x9().grid.cells)).replace("0", ".") + "\n"
    (folder / "one.txt").write_text(line)
    (folder / "p" / "9x9").mkdir(parents=True)
    for name in ("17_clue", "magictour_top1465", "forum_hardest_1106", "project_euler_096"):
        (folder / "p" / "9x9" / f"{name}.txt").write_text(line)
    killer = json.loads((ROOT / "puzzles" / "variants" / "6x6-extreme-killer.json").read_text())
    (folder / "sums.jsonl").write_text(json.dumps({"doc": killer, "name": "k6"}) + "\n")
    sample = (ROOT / "tests" / "data" / "serate_sample.txt").read_text().splitlines()
    (folder / "se.txt").write_text("\n".join([l for l in sample if not l.startswith("#")][:2])
                                   + "\n")
    return folder


slow = pytest.mark.slow
shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/puzzles is absent")
#: bench_steps also looks one folder further up (a worktree beside the main checkout).
shared_or_above = pytest.mark.skipif(
    not any((p / "shared" / "puzzles").is_dir() for p in (ROOT.parent, ROOT.parent.parent)),
    reason="../shared/puzzles is absent")

#: script: (arguments, a line it prints) with {T} the tiny folder and {ROOT} the checkout.
RUNS = {
    "a109252.py": (["--grids", "0:1"], "4x4 grids: 288; used 1; puzzles with 4 clues: 1,820"),
    "bench_generate.py": (["--case", "2x2:none:unique:2"], "| 4x4 | none | unique | 2 |"),
    "norvig.py": (["{T}/one.txt"], "1 puzzles, 1 solved"),
    "crosscheck.py": (["--timeout", "5", "{T}/one.txt"], "one.txt | 1 | 1 | 0 | 0 | 0 |"),
    "bench_rate.py": (["{T}/one.txt", "--first", "1"], "| one.txt | 1 |"),
    "replay_steps.py": (["{ROOT}/puzzles/4x4.txt"], "every step holds"),
    "make_puzzles.py": (["--count", "1", "--only", "8x8", "-o", "{T}"], ""),
    "make_variants.py": (["killer", "--count", "1", "--box", "2x2"], '"name": "killer 4x4"'),
    "bench_hard.py": (["file", "{T}/one.txt", "--timeout", "30"], "unique 1"),
    "bench_large.py": (["{ROOT}/puzzles/4x4.txt", "--timeout", "30"], "| 4x4 | 4 |"),
    "bench_native.py": (["{T}/one.txt"], "| native | 1 | 1 |"),
    "bench_variants.py": (["{ROOT}/puzzles/variants/miracle.json", "--rounds", "1", "--modes",
                           "fresh", "--kinds", "solve"], "| geometric mean |"),
    "bench_sums.py": (["--file", "{T}/sums.jsonl", "--rounds", "1"], "| k6 | table | 1 x 1 |"),
    "bench_peers.py": (["classic", "--sets", "17_clue", "--first", "1", "--rounds", "1"], ""),
    "bench_checkouts.py": pytest.param(["{ROOT}", "{ROOT}", "--rounds", "1", "--files",
                                        "17_clue", "--tasks", "solve"], "| 17_clue | solve |",
                                       marks=slow),
    "bench_sat.py": pytest.param(["--files", "17_clue", "--solvers", "cadical195",
                                  "--fresh-limit", "1", "--norvig", "1"],
                                 "| 17_clue | cadical195 | incremental | 1 | 1 |", marks=slow),
    "bench_floor.py": pytest.param(["--first", "1", "--rounds", "1", "--startup-runs", "1",
                                    "--files", "17_clue"], "start-up:", marks=slow),
    "bench_parallel.py": pytest.param(["{T}/one.txt", "--jobs", "1", "--tasks", "solve",
                                       "--rounds", "1"], "solve wall per round: jobs 1:",
                                      marks=slow),
    "bench_scaling.py": pytest.param(["--quick", "--puzzles", "{T}/p", "--cache", "{T}/c.json",
                                      "--no-plot", "--timeout", "5"], "| 9x9 |", marks=slow),
    "bench_steps.py": pytest.param(["1"], "| set | ladder ER: mean", marks=[slow, shared_or_above]),
    "bench_se.py": (["{T}/se.txt"], "2 puzzles rated by serate"),
    "plot_rows.py": (["{ROOT}/tests/data/bench_rows.csv"], "| 9x9.txt | native | 4 | 4 |"),
    "check_interrupts.py": pytest.param(["--only", "rate", "--runs", "1", "--delay", "1.5"],
                                        "rate         1/1 kept the contract",
                                        marks=[slow, shared]),
    "experiments/uniqueness.py": pytest.param(
        ["--methods", "today", "--rounds", "1", "--first", "1", "--sets", "17_clue"],
        "today:", marks=[slow, shared]),
}
#: Scripts with no tiny input to give: what they read is fixed (their --help is run above).
NOT_RUN = {"native_digest.py": "every shipped puzzle and the shared sets, no option to take fewer",
           "serate.py": "runs SukakuExplainer's serate, built outside the checkout (its "
                        "docstring says how); bench_se.py runs on what it wrote",
           "screenshot_steps.py": "needs Chromium: tests/test_screenshot.py runs it where "
                                  "there is one",
           "sigh_collection.py": "needs a checkout of sigh's solver and Node: tests/test_sigh.py "
                                 "reads sigh's puzzles where the checkout is ($SIGH, /tmp/sigh)"}


def test_every_script_has_a_run_or_says_why_not():
    named = {str(p.relative_to(ROOT / "scripts")) for p in SCRIPTS}
    assert named == set(RUNS) | set(NOT_RUN)


@pytest.mark.parametrize("script, args, says", [
    pytest.param(name, *run.values, marks=run.marks, id=name) if hasattr(run, "values")
    else pytest.param(name, *run, id=name) for name, run in RUNS.items()])
def test_each_script_runs_on_a_tiny_input(tiny, script, args, says):
    import os
    argv = [a.format(T=tiny, ROOT=ROOT) for a in args]
    env = dict(os.environ, SATDOKU_PUZZLES=str(tiny / "p"))
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / script), *argv], cwd=tiny,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert says in done.stdout, done.stdout[-2000:]
    if script == "make_puzzles.py":
        from satdoku.io.text import read_puzzles
        from satdoku.tasks.solvers import make_solver, solve
        [made] = list(read_puzzles(str(tiny / "8x8.txt")))
        with make_solver("sat") as solver:
            assert solve(solver, made.grid, limit=2).status == "unique"
    if script == "bench_peers.py" and not done.stdout:
        assert "skipped: give --qqwing" in done.stderr
