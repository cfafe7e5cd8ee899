"""Re-plot and re-tabulate a benchmark from its per-puzzle rows, without running it again.

    satdoku bench FILES --solver sat --solver native --rows rows.csv      # once
    python scripts/plot_rows.py rows.csv -o bench.png                      # any time after
    python scripts/plot_rows.py rows-a.csv rows-b.csv -o scatter.svg --panels scatter

Reads the rows ``bench --rows`` writes (CSV or JSON Lines; several files are pooled) and draws
:func:`satdoku.output.plots.plot_rows`'s panels (per file: cactus, CDF, SAT against each search
per puzzle coloured by level, puzzles/s) into a PNG, PDF or SVG by the extension. Prints a
Markdown table per file and solver from the first timed pass: puzzles, answered, puzzles/s and
mean ms by the time charged (``time_ms``), and the mean CPU ms and puzzles per CPU second
(this process's CPU, or an ``exec:`` solver's own process's), so a table and a figure always
come from the same run. ``--clock cpu`` draws CPU times too.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.errors import SatdokuError  # noqa: E402
from satdoku.output.plots import (CLOCKS, PANELS, cpu_rows, label_of, plot_rows,  # noqa: E402
                                  read_rows)

ANSWERED = ("solved", "unique", "multiple", "unsolvable")


def table(rows: list[dict]) -> str:
    """The Markdown table of the module docstring."""
    lines = ["| file | solver | puzzles | answered | puzzles/s | mean ms | mean CPU ms | "
             "puzzles per CPU s |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        if r.get("repeat", 1) in (1, None):
            groups.setdefault((r["source"], label_of(r)), []).append(r)
    for (source, label), mine in groups.items():
        answered = [r for r in mine if r["status"] in ANSWERED]
        total = sum(r["time_ms"] for r in mine)
        cpu = sum(r["time_ms"] for r in cpu_rows(mine))
        lines.append(f"| {os.path.basename(source)} | {label} | {len(mine)} | {len(answered)} | "
                     f"{len(mine) / (total / 1000):,.0f} | {total / len(mine):.3f} | "
                     f"{cpu / len(mine):.3f} | {len(mine) / (cpu / 1000):,.0f} |")
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
    parser.add_argument("--clock", choices=CLOCKS, default="charged",
                        help="draw the times charged (default) or CPU times (steadier on a "
                             "loaded machine)")
    parser.add_argument("--dpi", type=int, default=110, help="a PNG's resolution (default 110)")
    args = parser.parse_args(argv)
    try:
        rows = [row for path in args.rows for row in read_rows(path)]
        if not rows:
            raise SatdokuError(f"{', '.join(args.rows)}: no rows")
        print(table(rows))
        if args.output:
            plot_rows(rows, args.output, panels=[p for p in args.panels.split(",") if p],
                      reference=args.reference, title=args.title, clock=args.clock,
                      dpi=args.dpi)
            print(f"wrote {args.output}")
    except SatdokuError as error:
        print(f"plot_rows.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
