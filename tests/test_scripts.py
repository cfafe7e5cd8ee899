"""Every script under scripts/ runs: its --help, in one child process (so that no script's set-up
leaks into the tests), through runpy as ``python SCRIPT --help`` would (its folder first on the
path). A module the scripts share (no ``__main__`` block) is imported by them, not run."""

import subprocess
import sys

import pytest

from conftest import ROOT

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
# by a line of what it prints: all of them in turn in one child process (through runpy, as for
# --help above; a script's own child processes are its own), so that the start-up of Python and
# satdoku is paid once. The 9x9 sets the benchmarks read from ../shared/puzzles are stood in for
# by a file of three puzzles (SATDOKU_PUZZLES), so they run on a clean clone too. Scripts that
# need a peer (java's serate, node, qqwing) skip that part when it is absent and say so. The
# runs too long for the default suite (a calibration over sets, the scaling over sizes) are
# marked slow; --help above covers every script in the default run.

#: Three published unique 9x9 puzzles: Sudoku Redux's 'sample', a 17-clue puzzle, Project Euler
#: 96's first grid.
THREE = [".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85...",
         ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
         "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A folder with three.txt, a stand-in for the shared 9x9 sets (p/9x9/), one variant puzzle
    as bench_sums reads them (sums.jsonl) and two of serate's ratings (se.txt)."""
    import json
    folder = tmp_path_factory.mktemp("scripts")
    text = "".join(line + "\n" for line in THREE)
    (folder / "three.txt").write_text(text)
    (folder / "p" / "9x9").mkdir(parents=True)
    for name in ("17_clue", "magictour_top1465", "forum_hardest_1106", "project_euler_096"):
        (folder / "p" / "9x9" / f"{name}.txt").write_text(text)
    killer = json.loads((ROOT / "puzzles" / "variants" / "6x6-extreme-killer.json").read_text())
    (folder / "sums.jsonl").write_text(json.dumps({"doc": killer, "name": "k6"}) + "\n")
    sample = (ROOT / "tests" / "data" / "serate_sample.txt").read_text().splitlines()
    (folder / "se.txt").write_text("\n".join([l for l in sample if not l.startswith("#")][:2])
                                   + "\n")
    return folder


#: script: (arguments, what it prints when it ran, what it prints when it skipped a peer
#: that is absent or None), {T} the tiny folder and {ROOT} the checkout.
RUNS = {
    "a109252.py": (["--grids", "0:1", "--clues", "15"],
                   "4x4 grids: 288; used 1; puzzles with 15 clues: 16; unique: 16", None),
    "bench_generate.py": (["--case", "2x2:none:unique:2"], "| 4x4 | none | unique | 2 |", None),
    "norvig.py": (["{T}/three.txt"], "3 puzzles, 3 solved", None),
    "crosscheck.py": (["--timeout", "5", "{T}/three.txt"], "three.txt | 3 | 3 | 0 | 0 | 0 |",
                      None),
    "bench_rate.py": (["{T}/three.txt", "--first", "3"], "| three.txt | 3 |", None),
    "replay_steps.py": (["{ROOT}/puzzles/4x4.txt"], "every step holds", None),
    "make_puzzles.py": (["--count", "1", "--only", "8x8", "-o", "{T}"], "", None),
    "make_variants.py": (["killer", "--count", "1", "--box", "2x2"], '"name": "killer 4x4"',
                         None),
    "bench_hard.py": (["file", "{T}/three.txt", "--timeout", "30"], "unique 3", None),
    "bench_large.py": (["{ROOT}/puzzles/4x4.txt", "--timeout", "30"], "| 4x4 | 4 |", None),
    "bench_native.py": (["{T}/three.txt"], "| native | 3 | 3 |", None),
    "bench_variants.py": (["{ROOT}/puzzles/variants/miracle.json", "--rounds", "1", "--modes",
                           "fresh", "--kinds", "solve"], "| geometric mean |", None),
    "bench_sums.py": (["--file", "{T}/sums.jsonl", "--rounds", "1"], "| k6 | table | 1 x 1 |",
                      None),
    "bench_peers.py": (["classic", "--sets", "17_clue", "--first", "1", "--rounds", "1"],
                       "| 17_clue |", "skipped: give --qqwing"),
    "bench_se.py": (["{T}/se.txt"], "2 puzzles rated by serate", None),
    "tdoku_minisat.py": (["--first", "2", "--sets", "top1465", "--encodings", "augmented"],
                         "| top1465 | augmented | 2 | 4.0 |", None),
    "plot_rows.py": (["{ROOT}/tests/data/bench_rows.csv"], "| 9x9.txt | native | 4 | 4 |",
                     None),
    "serate.py": (["{T}/three.txt", "--first", "1", "--timeout", "20"], "\t",
                  "serate is not built"),
    "native_digest.py": (["--first", "1", "--timeout", "0.1"], "variants/", None),
    "experiments/uniqueness.py": (["--methods", "today", "--rounds", "1", "--first", "3",
                                   "--sets", "17_clue"], "today:", None),
    "experiments/parity_facts.py": (["{ROOT}/puzzles/variants/6x6-extreme-killer.json",
                                     "--count", "30"], "unique: 1 solution(s) found", None),
}
#: Runs too long for the default suite, under ``-m slow`` (in one child process too): the
#: benchmarks that time many whole satdoku processes, Ctrl-C sent to commands once they are
#: under way (seconds of waiting), a calibration over sets, the scaling over sizes, sigh's
#: collection (read under Node).
SLOW_RUNS = {
    "bench_checkouts.py": (["{ROOT}", "{ROOT}", "--rounds", "1", "--files", "17_clue",
                            "--tasks", "solve"], "| 17_clue | solve |", None),
    "bench_sat.py": (["--files", "17_clue", "--solvers", "cadical195", "--fresh-limit", "1",
                      "--norvig", "1"], "| 17_clue | cadical195 | incremental | 1 | 3 |", None),
    "bench_floor.py": (["--first", "3", "--rounds", "1", "--startup-runs", "1", "--files",
                        "17_clue"], "start-up:", None),
    "bench_parallel.py": (["{T}/three.txt", "--jobs", "1", "--tasks", "solve", "--rounds", "1"],
                          "solve wall per round: jobs 1:", None),
    "check_interrupts.py": (["--only", "count --all", "--runs", "1", "--delay", "3"],
                            "1/1 kept the contract", None),
    "bench_scaling.py": (["--quick", "--puzzles", "{T}/p", "--cache", "{T}/c.json",
                          "--no-plot", "--timeout", "5"], "| 9x9 |", None),
    "bench_steps.py": (["1"], "| set | ladder ER: mean", None),
    "bench_fold.py": (["{ROOT}/puzzles/4x4.txt", "--rounds", "1"], "| yes |", None),
    "sigh_collection.py": (["--only", "Classic sudoku", "--timeout", "10"],
                           "| Classic sudoku | string | yes | unique |", "no sigh checkout"),
}
#: Scripts with no run here: what they need is tested elsewhere (their --help is run above).
NOT_RUN = {"screenshot_steps.py": "needs Chromium: tests/test_screenshot.py runs it where "
                                  "there is one"}

DRIVER_RUNS = """
import contextlib, io, json, os, runpy, sys, time, traceback
runs, report = json.loads(sys.argv[1]), sys.argv[2]
results = {}
for path, argv in runs.items():
    sys.argv = [path, *argv]
    sys.path.insert(0, os.path.dirname(path))
    out, err, code = io.StringIO(), io.StringIO(), 0
    began = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            runpy.run_path(path, run_name="__main__")
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:
        code = -1
        err.write(traceback.format_exc())
    finally:
        del sys.path[0]
    results[path] = {"code": code, "out": out.getvalue(), "err": err.getvalue(),
                     "seconds": round(time.perf_counter() - began, 2)}
    with open(report, "w") as f:  # after each: a run that hangs leaves the others' results
        json.dump(results, f)
    print(path, results[path]["seconds"], file=sys.__stderr__, flush=True)
"""


def test_every_script_has_a_run_or_says_why_not():
    named = {str(p.relative_to(ROOT / "scripts")) for p in SCRIPTS}
    assert named == set(RUNS) | set(SLOW_RUNS) | set(NOT_RUN)
    assert not set(RUNS) & set(SLOW_RUNS)


def _run_all(tiny, runs):
    """Every script of ``runs`` in one child process: where each failed or printed something
    else than promised, and the seconds each took."""
    import json
    import os
    argv = {str(ROOT / "scripts" / name): [a.format(T=tiny, ROOT=ROOT) for a in args]
            for name, (args, _, _) in runs.items()}
    report = tiny / "report.json"
    env = dict(os.environ, SATDOKU_PUZZLES=str(tiny / "p"))
    done = subprocess.run([sys.executable, "-c", DRIVER_RUNS, json.dumps(argv), str(report)],
                          cwd=tiny, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(report.read_text())
    failed, seconds = [], {}
    for name, (_, says, skipped) in runs.items():
        r = results[str(ROOT / "scripts" / name)]
        seconds[name] = r["seconds"]
        if skipped is not None and skipped in r["err"]:
            continue  # its peer is absent: it said so
        if r["code"] != 0 or "Traceback" in r["err"] or says not in r["out"]:
            failed.append(f"{name}: exit {r['code']}\n{r['out'][-1500:]}\n{r['err'][-1500:]}")
    return failed, seconds


def test_each_script_runs_on_a_tiny_input(tiny):
    failed, seconds = _run_all(tiny, RUNS)
    assert not failed, "\n\n".join(failed) + f"\n(seconds: {seconds})"
    from satdoku.io.text import read_puzzles
    from satdoku.tasks.solvers import make_solver, solve
    [made] = list(read_puzzles(str(tiny / "8x8.txt")))  # make_puzzles.py wrote it
    with make_solver("sat") as solver:
        assert solve(solver, made.grid, limit=2).status == "unique"


@pytest.mark.slow
def test_the_long_scripts_run_on_a_tiny_input(tiny):
    failed, seconds = _run_all(tiny, SLOW_RUNS)
    assert not failed, "\n\n".join(failed) + f"\n(seconds: {seconds})"
