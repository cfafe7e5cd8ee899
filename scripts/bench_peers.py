#!/usr/bin/env python3
"""Satdoku measured beside two peers: sigh's Interactive Sudoku Solver (variants), qqwing (9x9).

    python scripts/bench_peers.py variants --sigh ~/peers/sigh          # both default sets
    python scripts/bench_peers.py variants --sigh DIR --rounds 5 --timeout 60 FILE...
    python scripts/bench_peers.py variants --sigh DIR --only "Wecoc #1,miracle" --json v.json
    python scripts/bench_peers.py classic --qqwing ~/peers/qqwing/qqwing --first 5000
    python scripts/bench_peers.py classic --qqwing BIN --sets top1465,hardest --tasks solve

Neither peer is fetched or built here: ``--sigh`` takes an unpacked checkout of
sigh/Interactive-Sudoku-Solver (run under Node by the headless ``sigh_server.mjs`` of the
shared peers folder, ``--sigh-server``), ``--qqwing`` a qqwing binary the user built. Without
them the part is skipped with a message.

variants: per puzzle, the time to find a solution (solve) and to count to 2 (count2: the proof
of uniqueness a setter wants), both engines warm: one long-lived sigh server, and satdoku in
this process with one solver object reused across puzzles (``--fresh``: a new one for every
measurement). The session's solver keeps a puzzle's rules, and what it learnt from them, while
they are asked about again (the count after the solve, the next round), as a setter's session
does; ``--new-rules`` retires them before each measurement (an untimed question under another
rule), so that every measurement is a new puzzle in a warm session. Each measurement reads the puzzle anew
(sigh's ``total_ms``: parse, build, run; satdoku: reading the variant JSON and a verified
solve). Per puzzle and round: sigh solve, satdoku solve, sigh count2, satdoku count2 (the first
engine alternates by round), after an untimed solve of every puzzle by both (5 s at most);
the median of ``--rounds`` is shown, and a measurement that timed out is not repeated. The
answers are compared: the counts, and when unique, the solutions; a sigh solution is also
checked against satdoku's rules. Ratios are satdoku / sigh (above 1: satdoku is slower);
geometric means over the puzzles both finished. Puzzle files: JSON Lines with ``doc``
(satdoku variant JSON) and ``sigh`` (sigh's constraint string), or satdoku variant documents
(``.json``, ``.jsonl``), which are translated to sigh's constraint language here (sigh reads
no f-puzzles data; a rule without a translation leaves the puzzle to satdoku alone).

classic: whole-process throughput on one core (affinity set in the child) of ``satdoku solve
FILE --format line`` / ``satdoku count FILE --format line`` against ``qqwing --solve
--one-line`` / ``qqwing --solve --nosolution --count-solutions --csv`` (qqwing counts every
solution, satdoku up to 2: the same search on unique puzzles). qqwing reads any digit or ``.``
from standard input, comment lines included, so both programs read the same converted file:
one puzzle of 81 symbols a line. Wall time and CPU time (``getrusage(RUSAGE_CHILDREN)``),
qqwing then satdoku in each round, medians; satdoku's bytecode is cached in a temporary folder
(warmed by an untimed run). Every answer is checked: solutions valid and the same, qqwing's
counts against satdoku's.

The markdown tables go to stdout, with the date, the load before and after and the command
line; ``--json FILE`` also writes the raw figures.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import queue
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PUZZLES = Path(os.environ.get("SATDOKU_PUZZLES", ROOT.parent / "shared" / "puzzles"))
CLASSIC_SETS = {
    "17_clue": "9x9/17_clue.txt",
    "top1465": "9x9/magictour_top1465.txt",
    "hardest": "9x9/forum_hardest_1106.txt",
}
TASKS = ("solve", "count")
ANSWERED = ("solved", "unique", "multiple", "unsolvable")  # statuses that have a time to compare


# --- satdoku: every library call of this script ------------------------------------------------

@dataclass
class Answer:
    """One engine's answer to one question about one puzzle."""

    status: str  # solved, unique, multiple, unsolvable, timeout, error, ...
    solution: tuple[int, ...] | None
    ms: float
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class Satdoku:
    """satdoku as a library, in this process: one SAT solver object for the whole session
    (``fresh``: a new one for every call).

    Every import of the package in this script is in this class (the command line is run as
    ``python -m satdoku`` on this checkout: :func:`run_classic`).
    """

    def __init__(self, fresh: bool = False, new_rules: bool = False) -> None:
        from satdoku.sat.solver import SatSolver
        self.make = lambda: SatSolver(stats=False)
        self.fresh = fresh  # a new solver object (and base formula) for every call
        self.new_rules = new_rules  # the session's solver holds no rule of the puzzle
        self.solver = None if fresh else self.make()

    def forget_rules(self, doc: dict) -> None:
        """Untimed: a question about an empty grid of ``doc``'s geometry under one other rule,
        which retires every rule the session's solver holds (a new puzzle in a warm session:
        nothing of its rules' clauses, nor what the solver learnt from them, is left)."""
        import satdoku
        from satdoku.model.grid import Grid
        from satdoku.rules import Killer
        from satdoku.tasks.solvers import solve
        geo = satdoku.read(doc).grid.geometry
        solve(self.solver, Grid(geo, (0,) * geo.ncells), constraints=(Killer((0, 1), 3),))

    def run(self, doc: dict, limit: int, timeout: float) -> Answer:
        """Read ``doc`` (satdoku variant JSON) and solve it (``limit`` 1) or count to
        ``limit``, verified; the time covers both (and making the solver, when fresh)."""
        import satdoku
        from satdoku.deadline import Deadline
        from satdoku.errors import PuzzleError
        from satdoku.tasks.solvers import solve
        if self.new_rules and not self.fresh:
            self.forget_rules(doc)
        begun, cpu = time.perf_counter(), time.process_time()
        deadline = Deadline(timeout)
        solver = self.make() if self.fresh else self.solver
        try:
            puzzle = satdoku.read(doc)
            result = solve(solver, puzzle.grid, limit=limit, deadline=deadline,
                           constraints=puzzle.constraints, givens_checked=True)
        except PuzzleError as error:
            return Answer("invalid", None, (time.perf_counter() - begun) * 1000, str(error))
        finally:
            if self.fresh:
                solver.close()
        ms = (time.perf_counter() - begun) * 1000
        solution = tuple(result.solution.cells) if result.solution is not None else None
        return Answer(result.status, solution, ms, result.message or "",
                      {"cpu_ms": (time.process_time() - cpu) * 1000})

    @staticmethod
    def problems(doc: dict, solution: tuple[int, ...]) -> list[str]:
        """What is wrong with ``solution`` for ``doc`` by satdoku's rules (empty: nothing)."""
        import satdoku
        from satdoku.model.grid import Grid, solution_problems
        puzzle = satdoku.read(doc)
        geo = puzzle.grid.geometry
        if len(solution) != geo.ncells:
            return [f"{len(solution)} cells, not {geo.ncells}"]
        return solution_problems(Grid(geo, tuple(solution)), puzzle.grid, puzzle.constraints)

    @staticmethod
    def version() -> str:
        from satdoku.tasks.solvers import python_sat_version
        return f"python-sat {python_sat_version()}"

    def close(self) -> None:
        if self.solver is not None:
            self.solver.close()


# --- satdoku variant JSON -> sigh's constraint string: satdoku's own writer -------------------

class Untranslatable(Exception):
    """A puzzle with a rule sigh's constraint language cannot hold."""


def to_sigh(doc: dict) -> str:
    """``doc`` (satdoku variant JSON) in sigh's constraint language (:mod:`satdoku.io.sigh`);
    Untranslatable naming what sigh cannot hold."""
    from satdoku.io.sigh import format_sigh
    from satdoku.io.variant import read_variant
    export = format_sigh(read_variant(doc))
    if export.lost:
        raise Untranslatable("; ".join(export.lost))
    return export.text


# --- sigh's headless server ---------------------------------------------------------------------

class SighServer:
    """One long-lived ``node sigh_server.mjs`` (JSON lines in and out) over a sigh checkout."""

    def __init__(self, checkout: Path, server: Path, node: str = "node") -> None:
        self.args = [node, str(server)]
        self.env = dict(os.environ, ISS=str(checkout))
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=self.env, bufsize=1)
        lines = self.lines = queue.Queue()
        out = self.proc.stdout

        def read() -> None:
            for line in out:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()

    def ask(self, text: str, mode: str, timeout: float) -> Answer:
        """sigh's answer; ``ms`` is its own ``total_ms`` (parse, build, run)."""
        assert self.proc is not None and self.proc.stdin is not None
        request = {"input": text, "mode": mode, "timeout_ms": int(timeout * 1000)}
        begun = time.perf_counter()
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        try:  # sigh looks at its clock between search steps; a hang beyond that is a kill
            line = self.lines.get(timeout=timeout + 30)
        except queue.Empty:
            self.restart()
            return Answer("timeout", None, timeout * 1000, "no reply: server restarted")
        round_trip = (time.perf_counter() - begun) * 1000
        if line is None:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            self.restart()
            return Answer("error", None, round_trip, f"server died: {err.strip()[-300:]}")
        reply = json.loads(line)
        extra = {"round_trip_ms": round_trip, "build_ms": reply.get("build_ms"),
                 "counters": reply.get("counters")}
        if not reply.get("ok"):
            return Answer("error", None, round_trip, str(reply.get("error")), extra)
        ms = reply["total_ms"]
        if reply.get("timed_out"):
            return Answer("timeout", None, ms, "", extra)
        count = reply.get("count")
        solution = tuple(reply["solution"]) if reply.get("solution") else None
        if mode == "solve":
            status = "solved" if solution else "unsolvable"
        else:
            status = {0: "unsolvable", 1: "unique"}.get(count, "multiple")
        return Answer(status, solution, ms, "", extra)

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    try:
                        stream.close()
                    except OSError:
                        pass
            self.proc = None


# --- common -------------------------------------------------------------------------------------

def load_text() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def header(title: str) -> list[str]:
    return [f"## {title}", "",
            f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
            f"{platform.node()}, {os.cpu_count()} cores, {load_text()} (1, 5, 15 min) before",
            f"command: `{' '.join([Path(sys.argv[0]).name] + sys.argv[1:])}`", ""]


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def fmt_ms(ms: float | None, status: str) -> str:
    if status == "timeout":
        return "timeout"
    if ms is None:
        return "-"
    text = f"{ms:,.1f}" if ms < 1000 else f"{ms:,.0f}"
    return text if status not in ("error", "refused", "invalid") else f"{text} ({status})"


def fmt_ratio(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}" if r < 100 else f"{r:,.0f}"


# --- variants ------------------------------------------------------------------------------------

@dataclass
class VariantCase:
    name: str
    group: str
    doc: dict
    sigh: str | None
    note: str = ""  # why sigh does not get it


def read_cases(paths: list[Path]) -> list[VariantCase]:
    cases = []
    for path in paths:
        group = path.stem if path.suffix == ".jsonl" else path.parent.name
        text = path.read_text()
        if path.suffix == ".jsonl":
            items = [json.loads(line) for line in text.splitlines()
                     if line.strip() and not line.lstrip().startswith("#")]
        else:
            data = json.loads(text)
            items = data if isinstance(data, list) else [data]
        for k, item in enumerate(items):
            if "doc" in item:
                doc, sigh, note = item["doc"], item.get("sigh"), ""
                name = item.get("name") or doc.get("name") or f"{path.stem}#{k + 1}"
            else:
                doc, name = item, (path.stem if len(items) == 1 else f"{path.stem}#{k + 1}")
                try:
                    sigh, note = to_sigh(doc), "translated"
                except Untranslatable as why:
                    sigh, note = None, f"no sigh form: {why}"
            cases.append(VariantCase(name, group, doc, sigh, note))
    return cases


def agreement(case: VariantCase, got: dict[tuple[str, str], Answer]) -> str:
    """'yes', 'NO: ...' or '? ...' from the last answers of both engines."""
    s_solve, s_count = got.get(("sigh", "solve")), got.get(("sigh", "count2"))
    d_solve, d_count = got.get(("satdoku", "solve")), got.get(("satdoku", "count2"))
    if s_solve is None or s_count is None or d_solve is None or d_count is None:
        return "? (satdoku only)" if s_solve is None else "? (missing answers)"
    problems = []
    for who, ans in (("sigh", s_solve), ("sigh", s_count), ("satdoku", d_solve),
                     ("satdoku", d_count)):
        if ans.status in ("error", "refused", "invalid") and \
                f"{who} {ans.status}" not in problems:
            problems.append(f"{who} {ans.status}")
    if s_solve.solution is not None:
        wrong = Satdoku.problems(case.doc, s_solve.solution)
        if wrong:
            problems.append("sigh's solution breaks: " + "; ".join(wrong[:2]))
    if problems:
        return "NO: " + "; ".join(problems)
    if "timeout" in (s_count.status, d_count.status):
        if "timeout" not in (s_solve.status, d_solve.status) and \
                (s_solve.solution is None) != (d_solve.solution is None):
            return "NO: solvable in one engine only"
        return "? (timeout)"
    if s_count.status != d_count.status:
        return f"NO: sigh {s_count.status}, satdoku {d_count.status}"
    if d_count.status == "unique":
        for label, ans in (("sigh solve", s_solve), ("satdoku solve", d_solve)):
            if ans.solution is not None and ans.solution != d_count.solution:
                return f"NO: {label} gave another solution"
    if d_count.status == "unsolvable" and (s_solve.solution or d_solve.solution):
        return "NO: a solution of an unsolvable puzzle"
    return "yes"


def run_variants(args: argparse.Namespace) -> int:
    if args.sigh is None or not (args.sigh / "js" / "sudoku_parser.js").exists():
        print("variants: skipped: give --sigh DIR, an unpacked checkout of "
              "sigh/Interactive-Sudoku-Solver (it has js/sudoku_parser.js)", file=sys.stderr)
        return 2
    if not args.sigh_server.exists():
        print(f"variants: skipped: no sigh server at {args.sigh_server} (--sigh-server)",
              file=sys.stderr)
        return 2
    if shutil.which(args.node) is None:
        print(f"variants: skipped: {args.node} is not on PATH (--node)", file=sys.stderr)
        return 2
    paths = args.files or ([p for p in [PUZZLES / "variants" / "sigh_hard.jsonl"] if p.exists()]
                           + sorted((ROOT / "puzzles" / "variants").glob("*.json")))
    cases = read_cases(paths)
    if args.only:
        wanted = {w.strip() for w in args.only.split(",")}
        cases = [c for c in cases if c.name in wanted]
    if not cases:
        print("variants: no puzzles", file=sys.stderr)
        return 2
    node_version = subprocess.run([args.node, "--version"], capture_output=True,
                                  text=True).stdout.strip()
    load_before, started = os.getloadavg(), time.strftime("%Y-%m-%d %H:%M:%S")
    lines = header(f"Variants: satdoku against sigh's Interactive Sudoku Solver "
                   f"(median of {args.rounds} rounds, timeout {args.timeout:g} s)")
    print("\n".join(lines), flush=True)
    sigh = SighServer(args.sigh, args.sigh_server, args.node)
    engine = Satdoku(fresh=args.fresh, new_rules=args.new_rules)
    engines = {"sigh": lambda c, mode: sigh.ask(c.sigh, mode, args.timeout),
               "satdoku": lambda c, mode: engine.run(c.doc, 2 if mode == "count2" else 1,
                                                      args.timeout)}
    records = []
    try:
        if args.warmup:  # untimed, at most 5 s a puzzle: JIT, base formulas, caches
            for case in cases:
                if case.sigh is not None:
                    sigh.ask(case.sigh, "solve", min(args.timeout, 5.0))
                engine.run(case.doc, 1, min(args.timeout, 5.0))
        for case in cases:
            times: dict[tuple[str, str], list[float]] = {}
            last: dict[tuple[str, str], Answer] = {}
            cpus: dict[tuple[str, str], list[float]] = {}
            for rnd in range(args.rounds):
                order = ("sigh", "satdoku") if rnd % 2 == 0 else ("satdoku", "sigh")
                for mode in ("solve", "count2"):
                    for who in order:
                        key = (who, mode)
                        if who == "sigh" and case.sigh is None:
                            continue
                        if key in last and last[key].status not in ANSWERED:
                            continue  # not repeated
                        ans = engines[who](case, mode)
                        last[key] = ans
                        if ans.status != "timeout":
                            times.setdefault(key, []).append(ans.ms)
                            if "cpu_ms" in ans.extra:
                                cpus.setdefault(key, []).append(ans.extra["cpu_ms"])
            rec = {"name": case.name, "group": case.group, "note": case.note,
                   "sigh_input": case.sigh, "agree": agreement(case, last)}
            for (who, mode), ans in last.items():
                rec[f"{who}_{mode}"] = {"status": ans.status, "ms": times.get((who, mode), []),
                                        "median_ms": median(times.get((who, mode), [])),
                                        "message": ans.message, **ans.extra}
                if (who, mode) in cpus:
                    rec[f"{who}_{mode}"]["cpu_ms"] = cpus[who, mode]
            records.append(rec)
            print(f"  {case.group}/{case.name}: " + ", ".join(
                f"{k} {v['status']} {fmt_ms(v['median_ms'], v['status'])}"
                for k, v in rec.items() if isinstance(v, dict))
                + f"; agree {rec['agree']}", file=sys.stderr, flush=True)
    finally:
        sigh.close()
        engine.close()
    out = variant_tables(records)
    out += ["", f"{load_text()} after; node {node_version}; {Satdoku.version()}; sigh at "
            f"{args.sigh}; satdoku: "
            + ("a new SatSolver for every measurement" if args.fresh else
               "one SatSolver for the session"
               + (", its rules retired before each measurement" if args.new_rules else ""))
            + "; times include reading the puzzle (sigh: parse and build)."]
    print("\n".join(out))
    if args.json:
        meta = {"command": sys.argv, "date": started,
                "load_before": load_before, "load_after": os.getloadavg(), "rounds": args.rounds,
                "timeout_s": args.timeout, "node": node_version, "sigh": str(args.sigh),
                "satdoku": Satdoku.version(), "satdoku_fresh": args.fresh,
                "satdoku_new_rules": args.new_rules,
                "machine": platform.node()}
        args.json.write_text(json.dumps({"meta": meta, "puzzles": records}, indent=1))
    return 0


def variant_tables(records: list[dict]) -> list[str]:
    out: list[str] = []
    groups: dict[str, list[dict]] = {}
    for rec in records:
        groups.setdefault(rec["group"], []).append(rec)
    all_ratios: dict[str, list[float]] = {"solve": [], "count2": []}
    for group, recs in groups.items():
        out += ["", f"### {group} ({len(recs)} puzzles)", "",
                "| puzzle | sigh solve ms | satdoku solve ms | ratio | sigh count2 ms | "
                "satdoku count2 ms | ratio | agree |",
                "|---|---:|---:|---:|---:|---:|---:|---|"]
        ratios: dict[str, list[float]] = {"solve": [], "count2": []}
        for rec in recs:
            cells = []
            for mode in ("solve", "count2"):
                s, d = rec.get(f"sigh_{mode}"), rec.get(f"satdoku_{mode}")
                s_ms = s["median_ms"] if s else None
                d_ms = d["median_ms"] if d else None
                ok = (s and d and s["status"] in ANSWERED and d["status"] in ANSWERED
                      and s_ms and d_ms)
                ratio = d_ms / s_ms if ok else None
                if ratio is not None:
                    ratios[mode].append(ratio)
                    all_ratios[mode].append(ratio)
                cells += [fmt_ms(s_ms, s["status"]) if s else "n/a",
                          fmt_ms(d_ms, d["status"]) if d else "-", fmt_ratio(ratio)]
            count = rec.get("satdoku_count2", {}).get("status", "")
            if count in ("timeout", ""):
                count = rec.get("sigh_count2", {}).get("status", "")
            name = rec["name"] + (f" ({count})" if count not in ("unique", "timeout", "")
                                  else "")
            agree = rec["agree"] if not rec["note"].startswith("no sigh") else rec["note"]
            out.append(f"| {name} | " + " | ".join(cells) + f" | {agree} |")
        out += ["", geo_line(ratios), worst_line(recs)]
    if len(groups) > 1:
        out += ["", "All puzzles: " + geo_line(all_ratios)]
    return out


def worst_line(recs: list[dict]) -> str:
    """The puzzles where satdoku is furthest behind, and its timeouts."""
    parts = []
    for mode in ("solve", "count2"):
        scored, timeouts = [], []
        for rec in recs:
            s, d = rec.get(f"sigh_{mode}"), rec.get(f"satdoku_{mode}")
            if d and d["status"] == "timeout":
                timeouts.append(rec["name"])
            elif (s and d and s["median_ms"] and d["median_ms"] and s["status"] in ANSWERED
                  and d["status"] in ANSWERED):
                scored.append((d["median_ms"] / s["median_ms"], rec["name"]))
        scored.sort(reverse=True)
        text = ", ".join(f"{name} {fmt_ratio(r)}" for r, name in scored[:3]) or "-"
        if timeouts:
            text += f"; satdoku timed out on {', '.join(timeouts)}"
        parts.append(f"{mode}: {text}")
    return "Worst for satdoku: " + "; ".join(parts) + "."


def geo_line(ratios: dict[str, list[float]]) -> str:
    parts = []
    for mode, values in ratios.items():
        g = geomean(values)
        parts.append(f"{mode} {fmt_ratio(g)} over {len(values)} puzzles")
    return "Geometric mean of satdoku / sigh: " + "; ".join(parts) + \
        " (puzzles both engines finished)."


# --- classic -------------------------------------------------------------------------------------

def read_grids(path: Path, first: int | None) -> list[str]:
    grids = []
    for line in path.read_text().splitlines():
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        grid = text.split()[0][:81].replace("0", ".")
        if len(grid) != 81:
            continue
        grids.append(grid)
        if first is not None and len(grids) >= first:
            break
    return grids


def solution_ok(grid: str, line: str) -> bool:
    """``line`` is a complete 9x9 solution that keeps the givens of ``grid``."""
    if len(line) != 81 or not line.isdigit() or "0" in line:
        return False
    if any(g != "." and g != s for g, s in zip(grid, line)):
        return False
    for k in range(9):
        row = line[9 * k:9 * k + 9]
        col = line[k::9]
        br, bc = 3 * (k // 3), 3 * (k % 3)
        box = "".join(line[9 * (br + i) + bc + j] for i in range(3) for j in range(3))
        if len(set(row)) != 9 or len(set(col)) != 9 or len(set(box)) != 9:
            return False
    return True


def run_pinned(argv: list[str], stdin_path: Path | None, stdout_path: Path, core: int,
               env: dict[str, str] | None = None) -> tuple[float, float, int, str]:
    """(wall s, CPU s from getrusage(RUSAGE_CHILDREN), exit code, stderr) of one process
    pinned to ``core``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        with open(stdout_path, "wb") as out:
            begun = time.perf_counter()
            proc = subprocess.run(argv, stdin=stdin, stdout=out, stderr=subprocess.PIPE,
                                  env=env, preexec_fn=lambda: os.sched_setaffinity(0, {core}))
            wall = time.perf_counter() - begun
    finally:
        if stdin_path:
            stdin.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode, proc.stderr.decode(errors="replace")[-500:]


def check_classic(task: str, grids: list[str], q_out: str, s_out: str) -> str:
    """'ok', or what is wrong, comparing qqwing's and satdoku's outputs of one task."""
    q_lines = [l.strip().rstrip(",") for l in q_out.splitlines() if l.strip()]
    s_lines = [l.strip() for l in s_out.splitlines() if l.strip()]
    if task == "count" and q_lines and q_lines[0].startswith("Solution Count"):
        q_lines = q_lines[1:]
    if len(q_lines) != len(grids) or len(s_lines) != len(grids):
        return f"lines: {len(grids)} puzzles, qqwing {len(q_lines)}, satdoku {len(s_lines)}"
    bad: list[str] = []
    for k, (grid, q, s) in enumerate(zip(grids, q_lines, s_lines), 1):
        s_solved = solution_ok(grid, s)
        if task == "solve":
            if not s_solved:
                bad.append(f"#{k} satdoku: {s[:30]!r}")
            elif not solution_ok(grid, q):
                bad.append(f"#{k} qqwing: {q[:30]!r}")
            elif q != s:
                bad.append(f"#{k} two different solutions")
        else:
            s_count = 1 if s_solved else 2 if s.startswith("multiple") else \
                0 if s.startswith("unsolvable") else -1
            if s_count < 0:
                bad.append(f"#{k} satdoku: {s[:30]!r}")
            elif not q.isdigit() or min(int(q), 2) != s_count:
                bad.append(f"#{k} qqwing {q!r}, satdoku {s_count}")
    if bad:
        return f"{len(bad)} differ ({', '.join(bad[:3])})"
    return "ok"


def run_classic(args: argparse.Namespace) -> int:
    qqwing = args.qqwing
    if qqwing is None or not (qqwing.is_file() and os.access(qqwing, os.X_OK)):
        print("classic: skipped: give --qqwing PATH, a qqwing binary you built "
              "(stephenostermiller/qqwing, C++)", file=sys.stderr)
        return 0
    names = [s.strip() for s in args.sets.split(",")]
    unknown = [s for s in names if s not in CLASSIC_SETS]
    if unknown:
        print(f"classic: unknown set {unknown[0]!r}; choose from {', '.join(CLASSIC_SETS)}",
              file=sys.stderr)
        return 2
    missing = [CLASSIC_SETS[s] for s in names if not (PUZZLES / CLASSIC_SETS[s]).exists()]
    if missing:
        print(f"classic: {missing[0]} is not under {PUZZLES} (set SATDOKU_PUZZLES)",
              file=sys.stderr)
        return 2
    tasks = [t.strip() for t in args.tasks.split(",")]
    # This checkout's code, whatever is installed (an editable install is the working tree:
    # two checkouts' runs of this script would both have measured it).
    satdoku = [sys.executable, "-m", "satdoku"] if args.satdoku is None else args.satdoku.split()
    q_args = {"solve": ["--solve", "--one-line"],
              "count": ["--solve", "--nosolution", "--count-solutions", "--csv"]}
    load_before, started = os.getloadavg(), time.strftime("%Y-%m-%d %H:%M:%S")
    lines = header(f"Classic 9x9: satdoku against qqwing, whole processes on core {args.core} "
                   f"(median of {args.rounds} rounds)")
    print("\n".join(lines), flush=True)
    records = []
    with tempfile.TemporaryDirectory(prefix="bench_peers_") as tmp_name:
        tmp = Path(tmp_name)
        env = dict(os.environ)  # bytecode cached as after an install, outside the worktree
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        if args.satdoku is None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT),
                                                               env.get("PYTHONPATH"))))
        one = tmp / "one.txt"
        one.write_text(read_grids(PUZZLES / CLASSIC_SETS[names[0]], 1)[0] + "\n")
        run_pinned(satdoku + ["solve", str(one), "--format", "line"], None, tmp / "o", args.core,
                   env)  # untimed: fills the bytecode cache
        startup: dict[str, list[tuple[float, float]]] = {"qqwing": [], "satdoku": []}
        for name in names:
            grids = read_grids(PUZZLES / CLASSIC_SETS[name], args.first)
            puzzles = tmp / f"{name}.txt"
            puzzles.write_text("".join(g + "\n" for g in grids))
            for task in tasks:
                runs: dict[str, list[tuple[float, float]]] = {"qqwing": [], "satdoku": []}
                verdicts = set()
                for _ in range(args.rounds):
                    q_out, s_out = tmp / "q.out", tmp / "s.out"
                    wall, cpu, code, err = run_pinned([str(qqwing)] + q_args[task], puzzles,
                                                      q_out, args.core)
                    if code != 0:
                        verdicts.add(f"qqwing exit {code}: {err.strip()}")
                    runs["qqwing"].append((wall, cpu))
                    wall, cpu, code, err = run_pinned(
                        satdoku + [task, str(puzzles), "--format", "line"], None, s_out,
                        args.core, env)
                    if code not in (0, 1):
                        verdicts.add(f"satdoku exit {code}: {err.strip()}")
                    runs["satdoku"].append((wall, cpu))
                    verdicts.add(check_classic(task, grids, q_out.read_text(),
                                               s_out.read_text()))
                    if len(startup["satdoku"]) < args.rounds:  # one puzzle: start-up cost
                        startup["qqwing"].append(run_pinned(
                            [str(qqwing)] + q_args["solve"], one, tmp / "o", args.core)[:2])
                        startup["satdoku"].append(run_pinned(
                            satdoku + ["solve", str(one), "--format", "line"], None, tmp / "o",
                            args.core, env)[:2])
                rec = {"set": name, "task": task, "puzzles": len(grids),
                       "check": "; ".join(sorted(verdicts))}
                for who, values in runs.items():
                    rec[who] = {"wall_s": [w for w, _ in values], "cpu_s": [c for _, c in values],
                                "median_wall_s": median([w for w, _ in values]),
                                "median_cpu_s": median([c for _, c in values])}
                records.append(rec)
                print(f"  {name} {task}: qqwing {rec['qqwing']['median_wall_s']:.2f} s, "
                      f"satdoku {rec['satdoku']['median_wall_s']:.2f} s; {rec['check']}",
                      file=sys.stderr, flush=True)
    out = classic_table(records, startup)
    out += ["", f"{load_text()} after; qqwing {qqwing}; satdoku `{' '.join(satdoku)}`, "
            f"{Satdoku.version()}."]
    print("\n".join(out))
    if args.json:
        meta = {"command": sys.argv, "date": started,
                "load_before": load_before, "load_after": os.getloadavg(), "rounds": args.rounds,
                "core": args.core, "qqwing": str(qqwing), "satdoku": satdoku,
                "startup": startup, "machine": platform.node()}
        args.json.write_text(json.dumps({"meta": meta, "runs": records}, indent=1))
    return 0


def classic_table(records: list[dict], startup: dict[str, list]) -> list[str]:
    out = ["| set | task | puzzles | qqwing puzzles/s | satdoku puzzles/s | ratio (wall) | "
           "qqwing puzzles/CPU s | satdoku puzzles/CPU s | ratio (CPU) | answers |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for rec in records:
        q, s, n = rec["qqwing"], rec["satdoku"], rec["puzzles"]
        out.append(f"| {rec['set']} | {rec['task']} | {n:,} | "
                   f"{n / q['median_wall_s']:,.0f} | {n / s['median_wall_s']:,.0f} | "
                   f"{fmt_ratio(s['median_wall_s'] / q['median_wall_s'])} | "
                   f"{n / max(q['median_cpu_s'], 1e-6):,.0f} | "
                   f"{n / max(s['median_cpu_s'], 1e-6):,.0f} | "
                   f"{fmt_ratio(s['median_cpu_s'] / max(q['median_cpu_s'], 1e-6))} | "
                   f"{rec['check']} |")
    start = {who: (median([w for w, _ in v]) or 0.0, median([c for _, c in v]) or 0.0)
             for who, v in startup.items()}
    out += ["", "Ratios are satdoku / qqwing time (above 1: satdoku is slower), from the median "
            "wall and CPU times of the whole process (start-up included).",
            f"Start-up and one puzzle (median wall / CPU): qqwing {start['qqwing'][0] * 1000:.1f}"
            f" / {start['qqwing'][1] * 1000:.1f} ms, satdoku {start['satdoku'][0] * 1000:.0f} / "
            f"{start['satdoku'][1] * 1000:.0f} ms."]
    return out


def run_report(args: argparse.Namespace) -> int:
    """The tables of a ``--json`` file again."""
    data = json.loads(args.file.read_text())
    meta = data["meta"]
    print(f"{meta['date']}, {meta.get('machine', '')}, load before "
          f"{' '.join(f'{x:.2f}' for x in meta['load_before'])}, after "
          f"{' '.join(f'{x:.2f}' for x in meta['load_after'])}; "
          f"command: `{' '.join([Path(meta['command'][0]).name] + meta['command'][1:])}`")
    if "puzzles" in data:
        print("\n".join(variant_tables(data["puzzles"])))
    else:
        print("\n".join([""] + classic_table(data["runs"], meta["startup"])))
    return 0


# --- command line --------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:8]))
    sub = parser.add_subparsers(dest="part", required=True)
    v = sub.add_parser("variants", help="variant puzzles against sigh's solver (warm, ms)")
    v.add_argument("files", nargs="*", type=Path,
                   help="puzzle files (default: sigh_hard.jsonl of the shared puzzles and "
                        "puzzles/variants/*.json)")
    v.add_argument("--sigh", type=Path, help="an unpacked sigh/Interactive-Sudoku-Solver")
    v.add_argument("--sigh-server", type=Path,
                   default=PUZZLES.parent / "peers" / "sigh" / "sigh_server.mjs",
                   help="the headless server script (default: %(default)s)")
    v.add_argument("--node", default="node", help="the Node.js command (default: node)")
    v.add_argument("--rounds", type=int, default=3)
    v.add_argument("--timeout", type=float, default=30.0, help="seconds per measurement")
    v.add_argument("--no-warmup", dest="warmup", action="store_false",
                   help="skip the untimed solve of every puzzle before the rounds")
    v.add_argument("--fresh", action="store_true",
                   help="satdoku: a new solver object for every measurement (its base formula "
                        "built inside the timed call) instead of one for the session")
    v.add_argument("--new-rules", action="store_true",
                   help="satdoku: before each measurement, an untimed question under another "
                        "rule, so that the session's solver keeps nothing of the puzzle's "
                        "rules (by default a puzzle asked again reuses them, as a setter's "
                        "next question does)")
    v.add_argument("--only", help="comma-separated puzzle names")
    v.add_argument("--json", type=Path, help="also write the raw figures here")
    c = sub.add_parser("classic", help="9x9 collections against qqwing (whole processes)")
    c.add_argument("--qqwing", type=Path, help="a qqwing binary")
    c.add_argument("--satdoku", help="the satdoku command (default: python -m satdoku on this "
                                     "checkout, so that two checkouts' runs compare them)")
    c.add_argument("--sets", default=",".join(CLASSIC_SETS),
                   help="comma-separated, from: " + ", ".join(CLASSIC_SETS))
    c.add_argument("--tasks", default=",".join(TASKS), help="solve, count or both")
    c.add_argument("--first", type=int, help="the first N puzzles of each set")
    c.add_argument("--rounds", type=int, default=3)
    c.add_argument("--core", type=int, default=0, help="the core both programs run on")
    c.add_argument("--json", type=Path, help="also write the raw figures here")
    r = sub.add_parser("report", help="the tables of a --json file again")
    r.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    if getattr(args, "tasks", None) and any(t.strip() not in TASKS
                                             for t in args.tasks.split(",")):
        parser.error(f"--tasks: choose from {', '.join(TASKS)}")
    return {"variants": run_variants, "classic": run_classic, "report": run_report}[args.part](
        args)


if __name__ == "__main__":
    sys.exit(main())
