"""Re-plot and re-tabulate a benchmark from its per-puzzle rows, without running it again.

    satdoku bench FILES --solver sat --solver native --rows rows.csv      # once
    python scripts/plot_rows.py rows.csv -o bench.png                      # any time after
    python scripts/plot_rows.py rows-a.csv rows-b.csv -o scatter.svg --panels scatter

Reads the rows ``bench --rows`` writes (CSV or JSON Lines; several files are pooled) and draws
:func:`satdoku.output.plots.plot_rows`'s panels (per file: cactus, CDF, SAT against each search
per puzzle coloured by level, puzzles/s) into a PNG, PDF or SVG by the extension. Prints a
Markdown table per file and solver from the first timed pass: puzzles, answered, puzzles/s and
mean ms by the time charged (``time_ms``), and the mean CPU ms (this process's, or an
``exec:`` solver's own process's), so a table and a figure always come from the same run.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.errors import SatdokuError  # noqa: E402
from satdoku.output.plots import PANELS, label_of, plot_rows, read_rows  # noqa: E402

ANSWERED = ("solved", "unique", "multiple", "unsolvable")


def table(rows: list[dict]) -> str:
    """The Markdown table of the module docstring."""
    lines = ["| file | solver | puzzles | answered | puzzles/s | mean ms | mean CPU ms |",
             "|---|---|---:|---:|---:|---:|---:|"]
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        if r.get("repeat", 1) in (1, None):
            groups.setdefault((r["source"], label_of(r)), []).append(r)
    for (source, label), mine in groups.items():
        answered = [r for r in mine if r["status"] in ANSWERED]
        total = sum(r["time_ms"] for r in mine)
        cpu = [r["solver_cpu_ms"] if r.get("solver_cpu_ms") is not None else r.get("cpu_ms")
               for r in mine]
        cpu = [c for c in cpu if c is not None]
        lines.append(f"| {os.path.basename(source)} | {label} | {len(mine)} | {len(answered)} | "
                     f"{len(mine) / (total / 1000):,.0f} | {total / len(mine):.3f} | "
                     + (f"{sum(cpu) / len(cpu):.3f} |" if cpu else "- |"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="+", help="rows files of 'bench --rows' (.csv, .jsonl)")
    parser.add_argument("-o", "--output", help="the figure: FILE.png, .pdf or .svg (none: "
                                               "the table only)")
    parser.add_argument("--panels", default=",".join(PANELS),
                        help=f"comma-separated, of {', '.join(PANELS)} (default: all)")
    parser.add_argument("--reference", help="the SAT label on the scatter's x axis (default: "
                                            "the first SAT solver/encoding)")
    parser.add_argument("--title", help="a title above the figure")
    args = parser.parse_args(argv)
    try:
        rows = [row for path in args.rows for row in read_rows(path)]
        if not rows:
            raise SatdokuError(f"{', '.join(args.rows)}: no rows")
        print(table(rows))
        if args.output:
            plot_rows(rows, args.output, panels=[p for p in args.panels.split(",") if p],
                      reference=args.reference, title=args.title)
            print(f"wrote {args.output}")
    except SatdokuError as error:
        print(f"plot_rows.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
