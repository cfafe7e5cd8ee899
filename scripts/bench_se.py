"""satdoku's SE ratings (satdoku/native/ladder.py) against serate's, puzzle by puzzle.

    python scripts/bench_se.py [FILE...]      # default: tests/data/serate_sample.txt
    python scripts/bench_se.py FILE... --peers          # and pencilmark, hodoku-py beside
    python scripts/bench_se.py --speed PUZZLES... [--first N] [--every K] [--rounds R]

Each FILE holds lines ``puzzle<TAB>ER/EP/ED<TAB>technique<TAB>source`` as scripts/serate.py
prints them (serate's ``timeout`` lines are skipped and counted). Prints, per serate ER band
and in all: puzzles, ER exactly equal, ER within 0.3, EP and ED within 0.3, puzzles the ladder
could not finish (their ER is a lower bound and counts as a miss; their EP and ED count when
the ladder placed a digit, or took a step, before it stopped), and CPU ms per puzzle.
``--misses`` lists the puzzles whose ER is more than 0.3 off.

``--peers`` rates the same puzzles in the same run with pencilmark (its SE-style ER/EP/ED, on
SE's table and, ER only, on the DiufSudoku table its 96% claim is made with) and hodoku-py (its
score and level), benchmark tools that are never satdoku's dependencies (``pip install
pencilmark hodoku-py``). Each peer runs in a worker process of its own, warmed up on one easy
puzzle, bounded by ``--peer-timeout`` CPU seconds a puzzle, kept while satdoku rates too (a puzzle it
does not finish counts as a miss, its CPU as what it spent); CPU is each process's own ``process_time``.

``--log FILE`` writes each puzzle's result as it comes (a JSON line); ``--tables LOG...``
prints the tables of such files, so that parts of a file rated side by side (or a run cut
short) make one table.

``--speed`` rates puzzle files (any format satdoku reads, ``--first``/``--every`` as
scripts/serate.py samples) with each of ``--tools`` (satdoku, hodoku, pencilmark, serate) in
turn, for ``--rounds``, each in a worker bounded by ``--peer-timeout`` CPU seconds a puzzle, and
prints the CPU seconds per tool and round and the puzzles each did not finish (satdoku's: a
rating the ladder left a lower bound). serate (built as scripts/serate.py says) runs a JVM a
puzzle, bounded by ``--peer-timeout`` seconds of wall time; its CPU is the JVM's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.io.text import parse_puzzle  # noqa: E402
from satdoku.native.ladder import se_rate  # noqa: E402
from serate import sample  # noqa: E402

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "serate_sample.txt"
BANDS = ((0, 2), (2, 4), (4, 6), (6, 8), (8, 10), (10, 99))
TOLERANCE = 0.3
PEERS = ("pencilmark", "hodoku")
WARM_UP = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def read_reference(paths):
    """(puzzle, (er, ep, ed), technique, source) per rated line; and the count of timeouts."""
    rows, skipped = [], 0
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            puzzle, rating, technique, source = line.split("\t")
            if "/" not in rating:
                skipped += 1
                continue
            rows.append((puzzle, tuple(map(float, rating.split("/"))), technique, source))
    return rows, skipped


def peer_rate(name: str, puzzle: str, timeout: float = float("inf")) -> dict:
    """One peer's rating of an 81-character puzzle (imported here: never a dependency);
    serate's in a JVM of its own that ``timeout`` bounds (seconds)."""
    if name == "serate":
        from serate import CLASSPATH, serate
        text = serate(puzzle, CLASSPATH, timeout if timeout < float("inf") else None)
        if not text[:1].isdigit():
            return {"error": text.strip()}
        er, ep, ed = map(float, text.split("\t")[0].split("/"))
        return {"er": er, "ep": ep, "ed": ed}
    if name == "pencilmark":
        import pencilmark
        card = pencilmark.rate(puzzle, fields=["se", "se_diuf"])
        return {**{k: card["se"][k] for k in ("er", "ep", "ed")}, "diuf": card["se_diuf"]["er"]}
    if name == "satdoku":
        r = se_rate(parse_puzzle(puzzle).grid)
        return {"er": r.er, "complete": r.complete}
    import hodoku
    r = hodoku.Solver().rate(puzzle)
    return {"score": r.score, "level": r.level.name.lower()}


def _cpu() -> float:
    """CPU seconds of this process and of its children waited for (serate's JVMs)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _peer_loop(name: str, conn, parent: int, timeout: float) -> None:
    """A peer's worker: rate each puzzle received, send (rating or error, CPU seconds); it
    ends when told, or when the bench that started it is gone."""
    while True:
        if not conn.poll(1.0):
            if os.getppid() != parent:
                return
            continue
        if (puzzle := conn.recv()) is None:
            return
        start = _cpu()
        try:
            out = peer_rate(name, puzzle, timeout)
        except Exception as e:  # a peer's failure is a result to count, not a crash of ours
            out = {"error": f"{type(e).__name__}: {e}"}
        conn.send((out, _cpu() - start))


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of a live process, from /proc (0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Peer:
    """A rater in a worker process, bounded by ``timeout`` CPU seconds a puzzle."""

    def __init__(self, name: str, timeout: float) -> None:
        self.name, self.timeout = name, timeout
        self._start()

    def _start(self) -> None:
        self.conn, child = multiprocessing.Pipe()
        self.proc = multiprocessing.get_context("fork").Process(
            target=_peer_loop, args=(self.name, child, os.getpid(), self.timeout), daemon=True)
        self.proc.start()
        timeout, self.timeout = self.timeout, float("inf")  # the imports are not the puzzle's
        try:
            self.rate(WARM_UP)
        finally:
            self.timeout = timeout

    def rate(self, puzzle: str) -> tuple[dict, float]:
        """(rating, CPU seconds); ``{"error": "timeout"}`` and the CPU spent when cut off."""
        self.send(puzzle)
        return self.receive()

    def send(self, puzzle: str) -> None:
        """Start on a puzzle (the worker runs while this process does something else)."""
        self.before, self.cut = _cpu_of(self.proc.pid), None
        self.conn.send(puzzle)

    def check(self) -> None:
        """Stop the worker once the puzzle last sent has had its CPU seconds (a watch while
        this process rates, :func:`watching`, and :meth:`receive` call it)."""
        if self.cut is None and (spent := _cpu_of(self.proc.pid) - self.before) > self.timeout:
            self.cut = spent
            self.proc.kill()

    def receive(self) -> tuple[dict, float]:
        """What :meth:`rate` returns, for the puzzle last sent. The bound is CPU seconds, so
        that a loaded machine does not cut a peer short."""
        while self.cut is None and not self.conn.poll(0.2):
            self.check()
        if self.cut is None:
            return self.conn.recv()
        spent = self.cut
        self.close()
        self._start()
        return {"error": "timeout"}, spent

    def close(self) -> None:
        self.proc.kill()
        self.proc.join()


@contextlib.contextmanager
def watching(peers):
    """Keep the peers to their bound while this process rates (a thread that looks at their
    CPU five times a second)."""
    stop = threading.Event()

    def watch():
        while not stop.wait(0.2):
            for peer in peers:
                peer.check()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def compare(rows, peers=(), log=None):
    """One result per row: (reference, ours (er, ep, ed), complete, technique, cpu seconds,
    {peer: (rating, cpu seconds)}); each also written to ``log`` (a file), a JSON line, as
    it comes."""
    out = []
    for puzzle, ref, technique, source in rows:
        for peer in peers:  # the peers work while satdoku does
            peer.send(puzzle)
        start = time.process_time()
        with watching(peers):
            r = se_rate(parse_puzzle(puzzle).grid)
        out.append((ref, (r.er, r.ep, r.ed), (r.complete, r.ep_exact, r.ed_exact), r.hardest,
                    technique, source, time.process_time() - start,
                    {p.name: p.receive() for p in peers}))
        if log is not None:
            log.write(json.dumps(out[-1]) + "\n")
            log.flush()
    return out


def read_logs(paths):
    """The results :func:`compare` wrote to ``--log`` files, in the order of the files."""
    return [tuple(json.loads(line)) for path in paths
            for line in Path(path).read_text().splitlines() if line.strip()]


def close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE + 1e-9


def bands(results):
    """(band name, the results whose serate ER falls in it) for each band, then all."""
    for low, high in (*BANDS, (0, 99)):
        part = [x for x in results if low <= x[0][0] < high]
        if part:
            yield "all" if (low, high) == (0, 99) else f"{low}-{high if high < 99 else ''}", part


def share(part, test) -> str:
    k = sum(1 for x in part if test(x))
    return f"{k} ({100 * k / len(part):.0f}%)"


def table(results) -> list[str]:
    lines = ["| serate ER | puzzles | ER equal | ER within 0.3 | EP within 0.3 | ED within 0.3 "
             "| not finished | ms/puzzle |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, part in bands(results):
        n = len(part)
        lines.append(
            f"| {name} | {n} | {share(part, lambda x: x[2][0] and x[0][0] == x[1][0])} "
            f"| {share(part, lambda x: x[2][0] and close(x[0][0], x[1][0]))} "
            f"| {share(part, lambda x: x[2][1] and close(x[0][1], x[1][1]))} "
            f"| {share(part, lambda x: x[2][2] and close(x[0][2], x[1][2]))} "
            f"| {sum(1 for x in part if not x[2][0])} "
            f"| {1000 * sum(x[6] for x in part) / n:.1f} |")
    return lines


def peer_table(results) -> list[str]:
    """The peers beside satdoku: within 0.3 of serate, hodoku-py's score, CPU ms a puzzle."""
    lines = ["| serate ER | puzzles | satdoku ER | pencilmark ER | pencilmark ER (diuf table) "
             "| pencilmark EP | pencilmark ED | hodoku score (median) | hodoku levels "
             "| ms satdoku | ms pencilmark | ms hodoku | peers not finished |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"]
    for name, part in bands(results):
        def pm(key, i):
            return share(part, lambda x: "er" in x[7]["pencilmark"][0]
                         and close(x[0][i], x[7]["pencilmark"][0][key]))

        scores = [x[7]["hodoku"][0]["score"] for x in part if "score" in x[7]["hodoku"][0]]
        levels = {}
        for x in part:
            level = x[7]["hodoku"][0].get("level", "none")
            levels[level] = levels.get(level, 0) + 1
        ms = [1000 * sum(x[6] for x in part) / len(part)] + [
            1000 * sum(x[7][p][1] for x in part) / len(part) for p in PEERS]
        failed = ", ".join(f"{p} {k}" for p in PEERS
                           if (k := sum(1 for x in part if "error" in x[7][p][0])))
        lines.append(
            f"| {name} | {len(part)} | {share(part, lambda x: x[2][0] and close(x[0][0], x[1][0]))} "
            f"| {pm('er', 0)} | {pm('diuf', 0)} | {pm('ep', 1)} | {pm('ed', 2)} "
            f"| {statistics.median(scores) if scores else '-'} "
            f"| {', '.join(f'{k} {v}' for k, v in sorted(levels.items(), key=lambda i: -i[1]))} "
            f"| {ms[0]:.1f} | {ms[1]:.1f} | {ms[2]:.1f} | {failed or 0} |")
    return lines


def source_table(results) -> list[str]:
    """CPU seconds of each rater on each source file's puzzles (the same puzzles, the same
    run); a peer cut off counts what it had spent."""
    by: dict[str, list] = {}
    for x in results:
        by.setdefault(x[5].split(":")[0], []).append(x)
    lines = ["| source | puzzles | satdoku CPU s | pencilmark CPU s | hodoku CPU s "
             "| hodoku / satdoku | peers not finished |", "|---|---:|---:|---:|---:|---:|---|"]
    for source, part in sorted(by.items(), key=lambda i: -len(i[1])):
        ours = sum(x[6] for x in part)
        cpu = {p: sum(x[7][p][1] for x in part) for p in PEERS}
        failed = ", ".join(f"{p} {k}" for p in PEERS
                           if (k := sum(1 for x in part if "error" in x[7][p][0])))
        lines.append(f"| {source} | {len(part)} | {ours:.1f} | {cpu['pencilmark']:.1f} "
                     f"| {cpu['hodoku']:.1f} | {cpu['hodoku'] / ours if ours else 0:.2f} "
                     f"| {failed or 0} |")
    return lines


def speed(paths, first: int, every: int, rounds: int, timeout: float, tools) -> list[str]:
    """CPU seconds per tool and round, A B A B, on the same puzzles; and what each missed."""
    puzzles = [line for path in paths for line, _ in sample(path, first, every)]
    peers = [Peer(name, timeout) for name in tools]
    cpu: dict[str, list[float]] = {peer.name: [] for peer in peers}
    missed = dict.fromkeys(cpu, 0)
    for _ in range(rounds):
        for peer in peers:
            done = [peer.rate(line) for line in puzzles]
            cpu[peer.name].append(sum(c for _, c in done))
            missed[peer.name] = sum(1 for r, _ in done if "error" in r or not r.get("complete", 1))
    for peer in peers:
        peer.close()
    lines = [f"{len(puzzles)} puzzles from {', '.join(p.name for p in paths)}, "
             f"{rounds} rounds, at most {timeout:g} s a puzzle",
             "| tool | CPU s per round | median | not finished | vs satdoku |",
             "|---|---|---:|---:|---:|"]
    ours = statistics.median(cpu.get("satdoku", [0]))
    for name, times in cpu.items():
        mid = statistics.median(times)
        lines.append(f"| {name} | {' / '.join(f'{t:.1f}' for t in times)} | {mid:.1f} "
                     f"| {missed[name]} | {mid / ours if ours else 0:.2f} |")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[SAMPLE])
    parser.add_argument("--misses", action="store_true", help="list ER misses")
    parser.add_argument("--peers", action="store_true", help="pencilmark and hodoku-py beside")
    parser.add_argument("--peer-timeout", type=float, default=60.0,
                        help="CPU seconds a peer (and, with --speed, satdoku) has a puzzle")
    parser.add_argument("--speed", action="store_true",
                        help="FILEs are puzzle files: CPU time of satdoku and the peers")
    parser.add_argument("--first", type=int, default=10**9, help="--speed: puzzles per file")
    parser.add_argument("--every", type=int, default=1, help="--speed: one puzzle in K")
    parser.add_argument("--rounds", type=int, default=2, help="--speed: A B A B rounds")
    parser.add_argument("--tools", default="satdoku,hodoku",
                        help="--speed: raters, in turn (satdoku, hodoku, pencilmark, serate)")
    parser.add_argument("--log", type=Path,
                        help="write each puzzle's result to this file (a JSON line) as it comes")
    parser.add_argument("--tables", action="store_true",
                        help="FILEs are --log files (say, of parts run side by side): their "
                             "tables, rating nothing")
    args = parser.parse_args(argv)
    tools = args.tools.split(",")
    if unknown := [t for t in tools if t not in ("satdoku", "serate", *PEERS)]:
        parser.error(f"unknown tool {unknown[0]!r}: choose from satdoku, serate, "
                     f"{', '.join(PEERS)}")
    if args.speed and "serate" in tools:
        from serate import CLASSPATH
        if not (Path(CLASSPATH) / "diuf" / "sudoku" / "test" / "serate.class").is_file():
            parser.error(f"serate is not built in {CLASSPATH}: see scripts/serate.py")
    if args.speed:
        print("\n".join(speed(args.files, args.first, args.every, args.rounds,
                              args.peer_timeout, tools)))
        return 0
    if args.tables:
        results, skipped = read_logs(args.files), 0
        with_peers = all(x[7] for x in results)
    else:
        rows, skipped = read_reference(args.files)
        peers = [Peer(name, args.peer_timeout) for name in PEERS] if args.peers else []
        with (open(args.log, "w") if args.log else contextlib.nullcontext()) as log:
            results = compare(rows, peers, log)
        for peer in peers:
            peer.close()
        with_peers = bool(peers)
    print("\n".join(table(results)))
    if with_peers:
        print("\n" + "\n".join(peer_table(results)))
        print("\n" + "\n".join(source_table(results)))
    print(f"\n{len(results)} puzzles rated by serate ({skipped} serate timeouts skipped)")
    if args.misses:
        for ref, ours, complete, mine, theirs, source, *_ in results:
            if not (complete[0] and close(ref[0], ours[0])):
                mark = "" if complete[0] else ">="
                print(f"{source}: serate {ref[0]} {theirs}; satdoku {mark}{ours[0]} {mine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
