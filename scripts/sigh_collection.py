"""sigh's own example and collection puzzles read and solved by satdoku, each answer checked.

    python scripts/sigh_collection.py --sigh /tmp/sigh                 # every puzzle
    python scripts/sigh_collection.py --sigh DIR --only "Wecoc,Clone" --timeout 30
    python scripts/sigh_collection.py --sigh DIR --markdown            # the docs' tables too

``--sigh`` takes an unpacked checkout of sigh/Interactive-Sudoku-Solver (MIT). Its data files
(``data/example_puzzles.js``, ``data/collections.js``) are loaded by ``sigh_entries.mjs`` under
Node, which gives each entry as a sigh constraint string (see that file: other text forms are
serialized by sigh's own parser, sandbox scripts run by sigh's own runner). Entries with the
same string are one puzzle. Each is read by satdoku's sigh reader (``satdoku.io.sigh``), counted
to 2 by satdoku (a verified answer) and compared with the entry's ``solution`` when it has one,
else with sigh's own answer (``sigh_server.mjs`` of the shared peers folder, mode count2 and
solve). One row a puzzle: name, form, read (or why not), satdoku's status and time, agreement;
then a summary and the sigh types satdoku lacks, by how many puzzles use each. Any
disagreement is a wrong answer and exits 1.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import satdoku  # noqa: E402
from satdoku.io.sigh import read_sigh  # noqa: E402
from satdoku.io.sigh.types import Bad  # noqa: E402

from bench_peers import PUZZLES, SighServer, load_text  # noqa: E402  (one sigh driver)

_LETTERS = "0ABCDEFGHIJKLMNOP"


@dataclass
class Case:
    """One puzzle: the first entry with its string, and how many entries share it."""

    name: str
    group: str
    form: str
    text: str | None
    solution: str | None
    entries: int = 1
    read: bool = False
    reason: str = ""
    missing: list[str] = field(default_factory=list)
    status: str = ""
    ms: float = 0.0
    agrees: str = ""
    reference: str = ""


def entries(checkout: Path, node: str) -> list[Case]:
    """Every entry of sigh's data files, one case a distinct constraint string."""
    out = subprocess.run([node, str(HERE / "sigh_entries.mjs"), str(checkout)], check=True,
                         capture_output=True, text=True).stdout
    cases: dict[str, Case] = {}
    for line in out.splitlines():
        e = json.loads(line)
        key = e["constraints"] or e["input"]
        if key in cases:
            cases[key].entries += 1
            cases[key].solution = cases[key].solution or e["solution"]
            continue
        name = e["name"] if e["name"] != e["input"] else f"{e['group']}[{e['index']}]"
        text = "".join(e["constraints"].split()) if e["constraints"] else None  # one line
        cases[key] = Case(name, e["group"], e["form"], text, e["solution"])
    return list(cases.values())


def short(values, high: int) -> str:
    """Values as sigh writes a solution: digits, or letters A.. for 1.. when they reach 10."""
    return "".join(str(v) if high < 10 or v == 0 else _LETTERS[v] for v in values)


def values(grid) -> list[int]:
    """A solved grid's values (its digits as the values they stand for: 0-8 grids...), the
    grid's cells only: sigh's solutions leave out its ``Var`` cells (satdoku's checker has
    verified theirs with every rule)."""
    return [grid.geometry.value(d) for d in grid.cells[:grid.geometry.ngrid]]


def read_case(case: Case) -> None:
    if case.text is None:
        case.reason = case.form
        return
    try:
        reading = read_sigh(case.text)
    except Bad as exc:
        case.reason = f"bad string: {exc}"
        return
    if reading.missing:
        case.missing = sorted(reading.missing)
        case.reason = "missing: " + ", ".join(case.missing)
        return
    case.read = True


def solve_case(case: Case, timeout: float, sigh: SighServer | None) -> bool:
    """satdoku's answer and whether it agrees; False for a wrong answer."""
    begun = time.perf_counter()
    result = satdoku.count(case.text, limit=2, timeout=timeout)
    case.ms = (time.perf_counter() - begun) * 1000
    case.status = result.status
    high = result.solution.geometry.high if result.solution else 0
    mine = short(values(result.solution), high) if result.solution else None
    if case.solution and result.status == "unique":
        case.reference = "solution"
        case.agrees = "yes" if mine == case.solution else f"NO: solution {mine}"
        return mine == case.solution
    if sigh is None:
        case.agrees = "no reference (give --sigh-server)"
        return True
    count = sigh.ask(case.text, "count2", timeout)
    case.reference = "sigh count2"
    if count.status == "timeout" or result.status not in ("unique", "multiple", "unsolvable"):
        case.agrees = f"unknown: sigh {count.status}, satdoku {result.status}"
        return True
    if count.status != result.status:
        case.agrees = f"NO: sigh {count.status}, satdoku {result.status}"
        return False
    if result.status == "unique":
        theirs = sigh.ask(case.text, "solve", timeout)
        other = short(theirs.solution, high) if theirs.solution else None
        if other != mine:
            case.agrees = f"NO: sigh's solution {other}"
            return False
    case.agrees = "yes" + (" (known solution, puzzle not unique)" if case.solution else "")
    return True


def written(paths: list[Path], timeout: float, sigh: SighServer) -> tuple[int, int, list[str]]:
    """satdoku's variant puzzles written as sigh strings (``satdoku convert --format sigh``)
    and answered by sigh: (written, agreeing, a line for each that was not written or that
    sigh answers otherwise)."""
    from satdoku.io.sigh import format_sigh
    count = agree = 0
    notes = []
    for path in paths:
        for line, puzzle in enumerate(satdoku.puzzles(str(path)), 1):
            if puzzle.error is not None:
                notes.append(f"not read: {puzzle.error}")
                continue
            export = format_sigh(puzzle)
            if export.lost:
                notes.append(f"{path.name}:{line}: not written: {export.lost[0]}")
                continue
            count += 1
            mine = satdoku.count(puzzle, limit=2, timeout=timeout)
            theirs = sigh.ask(export.text, "count2", timeout)
            same = mine.status == theirs.status
            if same and mine.status == "unique":
                solved = sigh.ask(export.text, "solve", timeout)
                same = list(solved.solution or ()) == values(mine.solution)
            agree += same
            if not same:
                notes.append(f"{path.name}:{line}: satdoku {mine.status}, sigh {theirs.status} "
                             f"{theirs.message[:80]}")
    return count, agree, notes


def summary(cases: list[Case], wrong: int) -> list[str]:
    read = [c for c in cases if c.read]
    statuses = collections.Counter(c.status for c in read)
    agree = sum(c.agrees.startswith("yes") for c in read)
    lines = ["| puzzles | read | answered and agreeing | wrong | statuses |", "|---|---|---|---|---|",
             f"| {len(cases)} ({sum(c.entries for c in cases)} entries) | {len(read)} | {agree} | "
             f"{wrong} | {', '.join(f'{k} {v}' for k, v in statuses.most_common())} |"]
    forms = collections.Counter((c.form, c.read) for c in cases)
    lines += ["", "| form of the entry | puzzles | read |", "|---|---|---|"]
    for form in sorted({f for f, _ in forms}):
        lines.append(f"| {form} | {forms[form, True] + forms[form, False]} | "
                     f"{forms[form, True]} |")
    return lines


def reasons(cases: list[Case]) -> list[str]:
    tally: collections.Counter = collections.Counter()
    for c in cases:
        for kind in c.missing or ([c.reason.split(":")[0]] if not c.read else []):
            tally[kind] += 1
    lines = ["| why not read | puzzles |", "|---|---|"]
    lines += [f"| {kind} | {count} |" for kind, count in tally.most_common()]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sigh", type=Path, default=Path(os.environ.get("SIGH", "/tmp/sigh")),
                    help="an unpacked sigh/Interactive-Sudoku-Solver (default $SIGH or /tmp/sigh)")
    ap.add_argument("--sigh-server", type=Path,
                    default=PUZZLES.parent / "peers" / "sigh" / "sigh_server.mjs")
    ap.add_argument("--node", default="node")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a puzzle, each engine")
    ap.add_argument("--only", help="comma-separated parts of names: only those puzzles")
    ap.add_argument("--markdown", action="store_true", help="print the docs' tables too")
    ap.add_argument("--json", type=Path, help="write every row to this JSON Lines file")
    ap.add_argument("--read-only", action="store_true",
                    help="only read each puzzle (what is read, and why not), no solving")
    ap.add_argument("--strings", type=Path, metavar="FILE",
                    help="instead: write each read puzzle (of --only) to FILE, one a line, as "
                         "the sigh string satdoku reads (a batch for bench_checkouts.py)")
    ap.add_argument("--written", nargs="*", type=Path, metavar="FILE",
                    help="instead: write these satdoku variant files as sigh strings and "
                         "compare sigh's answers with satdoku's (the writer's check)")
    args = ap.parse_args(argv)
    if not (args.sigh / "data" / "collections.js").exists() or not shutil.which(args.node):
        print(f"sigh_collection: skipped: no sigh checkout at {args.sigh} or no {args.node} "
              "(give --sigh DIR, --node)", file=sys.stderr)
        return 2
    started = datetime.datetime.now(datetime.timezone.utc)
    before = load_text()
    if args.written is not None:
        server = SighServer(args.sigh, args.sigh_server, args.node)
        try:
            count, agree, notes = written(args.written, args.timeout, server)
        finally:
            server.close()
        print("\n".join(notes))
        print(f"{count} written as sigh strings, {agree} answered alike by sigh; "
              f"{started:%Y-%m-%d %H:%M} UTC, {before}")
        return 0 if agree == count else 1
    cases = entries(args.sigh, args.node)
    if args.only:
        parts = [p.strip() for p in args.only.split(",")]
        cases = [c for c in cases if any(p in c.name for p in parts)]
    if args.strings:
        for case in cases:
            read_case(case)
        texts = [c.text for c in cases if c.read]
        args.strings.write_text("".join(t + "\n" for t in texts))
        print(f"{len(texts)} of {len(cases)} puzzles read, written to {args.strings}")
        return 0
    sigh = SighServer(args.sigh, args.sigh_server, args.node) \
        if args.sigh_server.exists() else None
    wrong = 0
    print("| puzzle | form | read | satdoku | ms | agrees |")
    print("|---|---|---|---|---|---|")
    try:
        for case in cases:
            read_case(case)
            if case.read and not args.read_only and not solve_case(case, args.timeout, sigh):
                wrong += 1
            shown = case.name.replace("|", "/")[:50]
            print(f"| {shown} | {case.form} | {'yes' if case.read else case.reason} | "
                  f"{case.status} | {case.ms:,.0f} | {case.agrees} |", flush=True)
    finally:
        if sigh is not None:
            sigh.close()
    print()
    print("\n".join(summary(cases, wrong)))
    if args.markdown:
        print()
        print("\n".join(reasons(cases)))
    print(f"\n{started:%Y-%m-%d %H:%M} UTC; {before} before, {load_text()} after; "
          f"{satdoku.__version__}; command: `{' '.join(['scripts/sigh_collection.py'] + (argv or sys.argv[1:]))}`")
    if args.json:
        with open(args.json, "w") as out:
            for c in cases:
                out.write(json.dumps(c.__dict__) + "\n")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
