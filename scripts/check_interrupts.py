"""Ctrl-C in every command: each must exit 130, say what it kept, and keep it.

For each command below, ``--runs`` times: start it on work that takes longer than the delay,
send SIGINT (as Ctrl-C does) after ``--delay`` seconds, and check the exit code (130), that
no traceback reached stderr, and, where the command writes results as it goes, that the
results finished before the signal are in its output. Prints one line a command with the
runs that passed; exits 1 if any failed.

    python scripts/check_interrupts.py --runs 20
    python scripts/check_interrupts.py --only bench,solve --runs 5 --delay 2

The puzzle files are the ones shipped in puzzles/ and, for the long runs, ../shared/puzzles
(skipped where absent).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SATDOKU_PUZZLES", ROOT.parent / "shared" / "puzzles"))
SEVENTEEN = SHARED / "9x9" / "17_clue.txt"
HARD = SHARED / "9x9" / "magictour_top1465.txt"
EMPTY_9X9 = "." * 81


def commands(folder: Path) -> dict[str, list[str]]:
    """Each command on work long enough to be interrupted; ``{out}`` is an output file."""
    return {
        "solve": ["solve", str(SEVENTEEN), "--format", "line", "-o", "{out}"],
        "solve -j 2": ["solve", str(SEVENTEEN), "--format", "line", "-j", "2", "-o", "{out}"],
        "count": ["count", str(SEVENTEEN), "--format", "line", "-o", "{out}"],
        "count --all": ["count", "--all", EMPTY_9X9, "-o", "{out}"],
        "explain": ["explain", str(HARD), "--format", "line", "-o", "{out}"],
        "candidates": ["candidates", str(HARD), "--format", "line", "-o", "{out}"],
        "rate": ["rate", str(HARD), "--format", "line", "-o", "{out}"],
        "generate": ["generate", "--box", "4x4", "--count", "1000", "--format", "line",
                     "--seed", "1", "-o", "{out}"],
        "convert": ["convert", str(SEVENTEEN), "-o", "{out}"],
        "bench": ["bench", str(HARD), "--format", "csv", "-o", "{out}"],
    }


def run_once(args: list[str], delay: float, folder: Path) -> str | None:
    """None when the run kept the contract, else what went wrong."""
    out = folder / "out.txt"
    if out.exists():
        out.unlink()
    argv = [sys.executable, "-m", "satdoku", *(a.replace("{out}", str(out)) for a in args)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                      signal.SIG_DFL))
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return "still running 60 s after Ctrl-C"
    if proc.returncode != 130:
        return f"exit {proc.returncode}: {err.strip().splitlines()[-1:] or ''}"
    if "Traceback" in err:
        return "a traceback on stderr"
    if "interrupted" not in err:
        return f"no word of the interruption: {err.strip()[-200:]!r}"
    kept = out.read_text().count("\n") if out.exists() else 0
    said = [w for w in err.split() if w.isdigit()]
    if said and "in " + str(out) in err and not 0 <= kept - int(said[-1]) <= 1:
        # (one more line than results is the result the signal cut off from its count)
        return f"said {said[-1]} kept, the file holds {kept} lines"
    if "in " + str(out) in err and not kept:
        return "said it kept results, the file holds none"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--delay", type=float, default=3.0,
                        help="seconds before Ctrl-C (default 3)")
    parser.add_argument("--only", default=None, help="comma-separated command names")
    args = parser.parse_args()
    if not SEVENTEEN.exists() or not HARD.exists():
        print(f"needs {SEVENTEEN} and {HARD}", file=sys.stderr)
        return 2
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        table = commands(Path(tmp))
        names = args.only.split(",") if args.only else list(table)
        for name in names:
            problems = [p for p in (run_once(table[name], args.delay, Path(tmp))
                                    for _ in range(args.runs)) if p]
            failed += len(problems)
            print(f"{name:<12} {args.runs - len(problems)}/{args.runs} kept the contract"
                  + (f"; first problem: {problems[0]}" if problems else ""), flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
