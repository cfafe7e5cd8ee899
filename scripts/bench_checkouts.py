#!/usr/bin/env python3
"""Two checkouts of satdoku side by side: whole files through the command line, A B A B.

For "no regression" checks: each round runs ``python -m satdoku TASK FILE --format line`` in
the first checkout, then in the second, for every file and task, stdout to /dev/null, and
reports every round's wall and CPU seconds (the child's) with the load before and after.

    python scripts/bench_checkouts.py ../main . --rounds 3
    python scripts/bench_checkouts.py OLD NEW --files 17_clue,top1465,hardest,variants

Each checkout's own ``satdoku`` package is imported (the checkout is the working directory of
``python -m``), with the Python running this script. ``variants`` is the shipped variant
puzzles (``puzzles/variants/*.json`` of this script's checkout), all in one run. The table
ends with the medians and B / A of the medians (below 1: B is faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = Path(os.environ.get("SATDOKU_PUZZLES", ROOT.parent / "shared" / "puzzles")) / "9x9"
FILES = {"17_clue": "17_clue.txt", "top1465": "magictour_top1465.txt",
         "hardest": "forum_hardest_1106.txt"}


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _paths(name: str) -> list[Path]:
    """The files of one ``--files`` name."""
    if name == "variants":
        return sorted((ROOT / "puzzles" / "variants").glob("*.json"))
    return [PUZZLES / FILES[name]]


def _run(checkout: Path, task: str, paths: list[Path]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of the command line in ``checkout``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "satdoku", task, *map(str, paths), "--format", "line"],
                   cwd=checkout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the first checkout (A)")
    parser.add_argument("after", type=Path, help="the second checkout (B)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--files", default="17_clue,top1465",
                        help=f"comma-separated, of {', '.join(FILES)}, variants")
    parser.add_argument("--tasks", default="solve,count")
    args = parser.parse_args(argv)
    names = args.files.split(",")
    unknown = [name for name in names if name not in FILES and name != "variants"]
    if unknown:
        parser.error(f"unknown --files {unknown[0]!r}; choose from {', '.join(FILES)}, variants")
    files = {name: _paths(name) for name in names}
    tasks = args.tasks.split(",")
    for paths in files.values():
        if not paths or not all(path.exists() for path in paths):
            parser.error(f"{paths[0] if paths else 'puzzles/variants'} is missing (see the "
                         "README's puzzle collections; set SATDOKU_PUZZLES)")
    print(f"# bench_checkouts {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC; "
          f"A = {args.before}, B = {args.after}; load before {_load()}")
    for checkout in (args.before, args.after):  # untimed: bytecode and file caches
        _run(checkout, "solve", files[names[0]])
    times: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for name, paths in files.items():
            for task in tasks:
                for label, checkout in (("A", args.before), ("B", args.after)):
                    times.setdefault((name, task, label), []).append(
                        _run(checkout, task, paths))
    print(f"# load after {_load()}\n")
    print("| file | task | A wall s | B wall s | A CPU s | B CPU s | median CPU A / B | B / A |")
    print("|---|---|---|---|---|---|---|---|")
    for name in files:
        for task in tasks:
            a, b = times[name, task, "A"], times[name, task, "B"]
            ma, mb = (statistics.median(c for _, c in x) for x in (a, b))
            print(f"| {name} | {task} | {' '.join(f'{w:.2f}' for w, _ in a)} | "
                  f"{' '.join(f'{w:.2f}' for w, _ in b)} | "
                  f"{' '.join(f'{c:.2f}' for _, c in a)} | {' '.join(f'{c:.2f}' for _, c in b)} "
                  f"| {ma:.2f} / {mb:.2f} | {mb / ma:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
