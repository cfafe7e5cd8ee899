#!/usr/bin/env python3
"""Time to solve and to prove unique each variant puzzle with SAT: fresh and warm, one checkout
or two side by side (A B A B), and optionally the native search.

    python scripts/bench_variants.py                          # puzzles/variants/*.json
    python scripts/bench_variants.py ../shared/puzzles/variants/sigh_hard.jsonl --timeout 30
    python scripts/bench_variants.py FILE --against /tmp/base --modes fresh,warm --rounds 3
    python scripts/bench_variants.py --native                 # native search beside SAT

Files are satdoku variant documents (``.json``, JSON Lines), or JSON Lines whose objects carry
the document under ``doc`` and a ``name`` (``sigh_hard.jsonl``). Every measurement is a
verified solve (``satdoku.tasks.solvers.solve``) with a time limit: ``solve`` finds one
solution, ``count`` counts to 2 (the proof of uniqueness a setter wants).

Each checkout (this one, and ``--against`` another) runs in a child process of its own that
imports its own ``satdoku``; the children take turns on every measurement (A B A B), so that
drifting load hits both alike. Modes: ``fresh``, a new SAT solver for each measurement (the
figure includes building the base formula and encoding the rules); ``warm``, one solver for
every puzzle of the run, as in a setter's session (the base formula is built once, each puzzle's
rules are encoded when it comes). Medians of the rounds, in ms; geometric means per column; the
date and the load are printed with the table.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("solve", "count")


def read_puzzles(paths: list[Path]) -> list[tuple[str, dict]]:
    """(name, document) of every puzzle in ``paths``."""
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            docs = [json.loads(text)]
        else:
            docs = [json.loads(line) for line in text.splitlines() if line.strip()]
        for i, doc in enumerate(docs):
            if "doc" in doc:
                out.append((doc.get("name") or f"{path.stem}:{i + 1}", doc["doc"]))
            else:
                out.append((doc.get("name") or path.stem if len(docs) == 1
                            else f"{path.stem}:{i + 1}", doc))
    return out


# -- the child: one checkout's satdoku, answering measurement requests on stdin ----------------

def serve(files: list[Path], timeout: float) -> None:
    """Read requests ``{"i", "kind", "mode", "solver"}`` a line; answer ``{"ms", "status",
    "conflicts", "encode_ms"}``. Runs inside the checkout being measured."""
    sys.path.insert(0, os.getcwd())
    from satdoku.deadline import Deadline
    import satdoku
    from satdoku.tasks.solvers import make_solver, solve

    puzzles = [satdoku.read(doc) for _, doc in read_puzzles(files)]
    warm = {}
    for line in sys.stdin:
        req = json.loads(line)
        puzzle = puzzles[req["i"]]
        method = req.get("solver", "sat")
        fresh = req["mode"] == "fresh"
        solver = make_solver(method) if fresh else warm.get(method)
        if solver is None:
            solver = warm[method] = make_solver(method)
        limit = 1 if req["kind"] == "solve" else 2
        # New constraint objects each time, as a setter's program reads them again: a warm
        # solver that keeps rules by value (since 2026-11-25) reuses their clauses.
        constraints = tuple(copy.copy(c) for c in puzzle.constraints)
        try:
            start = time.perf_counter()
            result = solve(solver, puzzle.grid, limit=limit, deadline=Deadline(timeout),
                           constraints=constraints)
            ms = (time.perf_counter() - start) * 1000
        finally:
            if fresh:
                solver.close()
        stats = result.stats or {}
        print(json.dumps({"ms": ms, "status": result.status,
                          "conflicts": stats.get("conflicts"),
                          "encode_ms": stats.get("encode_ms")}), flush=True)


class Child:
    """A checkout's server process."""

    def __init__(self, checkout: Path, files: list[Path], timeout: float) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", "--timeout",
             str(timeout), *map(str, files)],
            cwd=checkout, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def ask(self, **req) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the measuring child died")
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(max(v, 1e-3)) for v in values) / len(values))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path,
                        default=sorted((ROOT / "puzzles" / "variants").glob("*.json")))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per measurement")
    parser.add_argument("--modes", default="fresh,warm", help="fresh, warm or both")
    parser.add_argument("--kinds", default="solve,count", help="solve, count or both")
    parser.add_argument("--against", type=Path, help="another checkout, measured A B A B")
    parser.add_argument("--native", action="store_true", help="the native search too")
    parser.add_argument("--only", help="puzzles whose name contains this")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    files = [p.resolve() for p in args.files]
    if args.serve:
        serve(files, args.timeout)
        return 0
    puzzles = read_puzzles(files)
    chosen = [i for i, (name, _) in enumerate(puzzles)
              if not args.only or args.only.lower() in name.lower()]
    checkouts = [("this", ROOT)] + ([("against", args.against.resolve())]
                                    if args.against else [])
    children = {label: Child(path, files, args.timeout) for label, path in checkouts}
    solvers = ["sat"] + (["native"] if args.native else [])
    columns = [(label, solver, mode, kind) for mode in args.modes.split(",")
               for kind in args.kinds.split(",") for solver in solvers
               for label, _ in checkouts]
    start_load = os.getloadavg()
    print(f"satdoku variant puzzles: median of {args.rounds} rounds (ms), timeout "
          f"{args.timeout:g} s, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, load "
          + " ".join(f"{x:.2f}" for x in start_load))
    print("checkouts: " + ", ".join(f"{label} = {path}" for label, path in checkouts) + "\n")
    head = [f"{label} {solver} {mode} {kind}" if len(checkouts) > 1 else
            f"{solver} {mode} {kind}" for label, solver, mode, kind in columns]
    print("| puzzle | " + " | ".join(head) + " |")
    print("|---|" + "---:|" * len(columns))
    medians: dict[tuple, list[float]] = {col: [] for col in columns}
    try:
        for i in chosen:
            times: dict[tuple, list[float]] = {col: [] for col in columns}
            status: dict[tuple, str] = {}
            for _ in range(args.rounds):
                for col in columns:
                    label, solver, mode, kind = col
                    answer = children[label].ask(i=i, kind=kind, mode=mode, solver=solver)
                    times[col].append(answer["ms"])
                    status[col] = answer["status"]
            cells = []
            for col in columns:
                m = statistics.median(times[col])
                medians[col].append(m)
                ok = status[col] in ("solved", "unique", "unsolvable")
                cells.append(f"{m:,.1f}" + ("" if ok else f" ({status[col]})"))
            print(f"| {puzzles[i][0]} | " + " | ".join(cells) + " |", flush=True)
    finally:
        for child in children.values():
            child.close()
    print("| geometric mean | " + " | ".join(f"{geomean(medians[c]):,.1f}" for c in columns)
          + " |")
    print("\nload at the end " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
