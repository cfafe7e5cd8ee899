"""How the cost of SAT and native search grows with the grid size: 4x4, 9x9, 16x16, 25x25.

    python scripts/bench_scaling.py --quick        # a minute or two: a few puzzles per size
    python scripts/bench_scaling.py                # the full run (minutes; 25x25 dominates)
    python scripts/bench_scaling.py --fresh        # forget cached groups and measure again

Each (file, method) group is measured with :func:`satdoku.run.bench.run_bench` (answers verified
in an untimed warm-up, timed in a seeded order, a timeout counted at the time limit) and saved
to a cache (``docs/scaling.json``) as soon as it finishes, so an interrupted run resumes where
it stopped; a group is measured again only when its settings (limit, time limit, count-to,
seed) change, or with ``--fresh``. Prints a Markdown table and draws ``docs/scaling.png``:
median ms per puzzle against N on log-log axes, one line per method.

Sets: the shared collections (``../shared/puzzles``, see its README) and the project's own
``puzzles/*.txt`` but ``bad*.txt`` (drawn as separate points: they are small and mixed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.output.bench import check_matplotlib  # noqa: E402
from satdoku.run.bench import check_groups, run_bench  # noqa: E402
from satdoku.errors import SatdokuError  # noqa: E402
from satdoku.io.files import Output  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "puzzles"

#: (file under the shared folder, puzzles in a full run, in a quick run); None: all.
SETS = [
    ("4x4/seeds.txt", None, None),
    ("9x9/magictour_top1465.txt", 200, 20),
    ("16x16/forum_tarek_first20.1g.txt", None, 5),
    ("25x25/gecode_frisch_25x25.txt", None, 2),
]
METHODS = ("sat", "native")
FIELDS = ("source", "size", "solver", "puzzles", "solved", "timeouts", "invalid", "errors",
          "median_ms", "mean_ms", "p90_ms", "max_ms", "puzzles_per_s")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a few puzzles per size and a 5 s time limit")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per puzzle (default: 20, quick: 5)")
    parser.add_argument("--limit", type=int, choices=(1, 2), default=1,
                        help="1 finds a solution, 2 also proves it unique")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--puzzles", type=Path, default=SHARED,
                        help=f"the shared puzzle folder (default: {SHARED})")
    parser.add_argument("--cache", type=Path, default=ROOT / "docs" / "scaling.json")
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "scaling.png")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--fresh", action="store_true", help="ignore the cache")
    return parser.parse_args(argv)


def plan(args: argparse.Namespace) -> list[tuple[str, int | None, bool]]:
    """(path, limit, is_project_file) for every set found; missing ones are reported."""
    runs = []
    for name, full, quick in SETS:
        path = args.puzzles / name
        if path.is_file():
            runs.append((str(path), quick if args.quick else full, False))
        else:
            print(f"skipped (not found): {path}", file=sys.stderr)
    for path in sorted((ROOT / "puzzles").glob("*.txt")):
        if not path.name.startswith(("bad", "unsolvable")):  # broken or unsolvable on purpose
            runs.append((str(path), None, True))
    return runs


def cache_key(path: str, method: str, limit, timeout, count_to, seed) -> str:
    return json.dumps([os.path.relpath(path, ROOT), method, limit, timeout, count_to, seed])


def load_cache(path: Path, fresh: bool) -> dict[str, dict]:
    if fresh or not path.is_file():
        return {}
    try:
        return json.loads(path.read_text())["groups"]
    except (ValueError, KeyError):
        print(f"ignoring unreadable cache {path}", file=sys.stderr)
        return {}


def save_cache(path: Path, groups: dict[str, dict]) -> None:
    out = Output(str(path), force=True)
    out.write(json.dumps({"groups": groups}, indent=1) + "\n")
    out.commit()


def measure(args: argparse.Namespace) -> list[tuple[dict, bool]]:
    """Every group's record (from the cache or measured now), with its is-project flag."""
    timeout = args.timeout or (5.0 if args.quick else 20.0)
    groups = load_cache(args.cache, args.fresh)
    out = []
    for path, limit, project in plan(args):
        for group in check_groups(METHODS):
            label = group.label
            key = cache_key(path, label, limit, timeout, args.limit, args.seed)
            if key not in groups:
                print(f"measuring {os.path.relpath(path)} {label} "
                      f"(first {limit or 'all'}, timeout {timeout:g} s)", file=sys.stderr)
                for row in run_bench([path], [group], first=limit, limit=args.limit,
                                     timeout=timeout, seed=args.seed):
                    record = row.record()
                    record["times_ms"] = row.times_ms
                    groups[key] = record
                save_cache(args.cache, groups)
            out.append((groups[key], project))
    return out


def _ms(value) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def markdown(records: list[tuple[dict, bool]], timeout: float) -> str:
    """The table: a median or mean that includes timeouts is a lower bound, marked '>='."""
    lines = ["| size | file | solver | puzzles | solved | timeouts | median ms | mean ms |",
             "|-----:|------|--------|--------:|-------:|---------:|----------:|--------:|"]
    for rec, _ in sorted(records, key=lambda r: (r[0]["size"] or 0, r[1], r[0]["source"])):
        size = f"{rec['size']}x{rec['size']}" if rec["size"] else "-"
        bound = ">= " if rec["timeouts"] else ""
        median = _ms(rec["median_ms"])
        if rec["median_ms"] is not None and rec["median_ms"] >= timeout * 1000:
            median = ">= " + median
        lines.append(f"| {size} | {os.path.basename(rec['source'])} | {rec['solver']} | "
                     f"{rec['puzzles']} | {rec['solved']} | {rec['timeouts']} | {median} | "
                     f"{bound if rec['mean_ms'] is not None else ''}{_ms(rec['mean_ms'])} |")
    return "\n".join(lines) + "\n"


def plot(records: list[tuple[dict, bool]], path: Path, timeout: float, quick: bool) -> None:
    """Median ms against N, log-log, one line per method; hollow markers are time limits."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import FixedLocator, NullLocator

    fig = Figure(figsize=(7.5, 5), layout="constrained")
    ax = fig.subplots()
    methods = list(dict.fromkeys(rec["solver"] for rec, _ in records))
    sizes = set()
    for i, method in enumerate(methods):
        colour = f"C{i}"
        main = sorted((rec["size"], rec["median_ms"]) for rec, project in records
                      if rec["solver"] == method and not project and rec["median_ms"])
        extra = [(rec["size"], rec["median_ms"]) for rec, project in records
                 if rec["solver"] == method and project and rec["median_ms"]]
        sizes.update(n for n, _ in main + extra)
        if main:
            ax.plot([n for n, _ in main], [ms for _, ms in main], color=colour, marker="o",
                    label=f"{method} (shared sets)")
        capped = [(n, ms) for n, ms in main if ms >= timeout * 1000]
        if capped:
            ax.plot([n for n, _ in capped], [ms for _, ms in capped], linestyle="none",
                    marker="o", markersize=11, markerfacecolor="none", color=colour)
        if extra:
            ax.plot([n for n, _ in extra], [ms for _, ms in extra], linestyle="none",
                    marker="x", markersize=8, color=colour, label=f"{method} (puzzles/*.txt)")
    ax.axhline(timeout * 1000, color="grey", linestyle=":", linewidth=1)
    ax.annotate(f"time limit {timeout:g} s (ringed: median is a timeout)",
                (min(sizes or {4}), timeout * 1000), textcoords="offset points",
                xytext=(2, -12), fontsize="small", color="grey")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(FixedLocator(sorted(sizes)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{n}x{n}" for n in sorted(sizes)])
    ax.set_xlabel("grid size N (log scale)")
    ax.set_ylabel("median time per puzzle (ms, log scale)")
    ax.set_title("Cost against grid size" + (" (quick run)" if quick else ""))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    timeout = args.timeout or (5.0 if args.quick else 20.0)
    if not args.no_plot:
        try:
            check_matplotlib()
        except SatdokuError as error:
            print(f"error: {error}; or use --no-plot", file=sys.stderr)
            return 2
    args.cache.parent.mkdir(parents=True, exist_ok=True)
    try:
        records = measure(args)
    except KeyboardInterrupt:
        print("interrupted: finished groups are cached; run again to resume", file=sys.stderr)
        return 130
    print(markdown(records, timeout), end="")
    if not args.no_plot:
        plot(records, args.plot, timeout, args.quick)
        print(f"wrote {os.path.relpath(args.plot)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
