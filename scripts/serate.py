"""Rate 9x9 puzzles with Sudoku Explainer's ``serate`` (SukakuExplainer), the reference oracle.

serate is never a dependency of satdoku: it is a benchmark oracle, built outside the checkout.
To build it (Java 17; nothing of it is committed here):

    git clone https://github.com/SudokuMonster/SukakuExplainer /work/peers/serate
    cd /work/peers/serate && mkdir -p build
    javac -encoding ISO-8859-1 -nowarn -d build $(find diuf -name '*.java')
    (cd diuf && find . -type f ! -name '*.java' | cpio -pdm ../build/diuf)

Then:

    python scripts/serate.py FILE... [--first N] [--every K] [--classpath DIR] [--timeout S]

prints one line per puzzle: ``puzzle<TAB>ER/EP/ED<TAB>technique of the hardest step<TAB>source``
(``source`` is ``file:line``), the lines tests/data/serate_sample.txt is made of. Puzzles are
read with satdoku's own reader (any format it takes: Project Euler's ``Grid 01`` blocks too);
``--every K`` keeps one puzzle in K so a sample spans the file. Each puzzle is rated by its own
serate process bounded by ``--timeout`` seconds (a puzzle that takes longer is printed with
``timeout``), so one very hard puzzle cannot hold the rest. serate runs with Sudoku Explainer
1.2.1's techniques (``NOT_SE121`` below), the set the published ratings use.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.io.text import read_puzzles  # noqa: E402

CLASSPATH = "/work/peers/serate/build"
FORMAT = "%r/%p/%d\t%R"
#: SukakuExplainer's techniques (``serate --techs=`` lists them, 1-based) that Sudoku Explainer
#: 1.2.1 does not have: generalized intersections and naked sets, turbot fish, the strong-linked
#: fishes and the WXYZ- to TUVWXYZ-wings. The published SE scale is 1.2.1's, so they are off.
NOT_SE121 = {11, 13, 17, 20, 23, 26, 29, 30, 31, 32, 34, 36, 37, 38, 40}
TECHS = "".join("0" if i in NOT_SE121 else "1" for i in range(1, 47))


def sample(path: Path, first: int, every: int):
    """(puzzle line, source) for one puzzle in ``every`` of the first ``first`` of ``path``."""
    kept = 0
    for i, puzzle in enumerate(read_puzzles(str(path))):
        if kept >= first:
            return
        if puzzle.grid is None or i % every:
            continue
        kept += 1
        line = "".join(str(d) if d else "." for d in puzzle.grid.cells)
        yield line, f"{path.name}:{puzzle.line}"


def serate(line: str, classpath: str, timeout: float) -> str:
    """serate's ``ER/EP/ED<TAB>technique`` for one 81-character puzzle, or ``timeout``."""
    try:
        done = subprocess.run(["java", "-Xrs", "-Xmx500m", "-cp", classpath,
                               "diuf.sudoku.test.serate", f"--techs={TECHS}", f"--format={FORMAT}",
                               line],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return "timeout\t"
    out = done.stdout.strip()
    if done.returncode or not out:
        return f"error\t{done.stderr.strip()[:80]}"
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--first", type=int, default=50, help="puzzles kept per file")
    parser.add_argument("--every", type=int, default=1, help="keep one puzzle in K")
    parser.add_argument("--classpath", default=CLASSPATH, help="serate's built classes")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per puzzle")
    args = parser.parse_args(argv)
    if not (Path(args.classpath) / "diuf" / "sudoku" / "test" / "serate.class").is_file():
        print(f"serate is not built in {args.classpath}: see this script's docstring",
              file=sys.stderr)
        return 2
    for path in args.files:
        for line, source in sample(path, args.first, args.every):
            print(f"{line}\t{serate(line, args.classpath, args.timeout)}\t{source}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
