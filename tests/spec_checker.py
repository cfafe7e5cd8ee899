"""A checker of satdoku variant documents written from the spec (docs/variants.md), independent
of satdoku's rule classes: ``check_document`` (structure) and ``violations`` (what a complete
grid breaks). The f-puzzles tests hold published solutions to converted documents with it.
"""

from __future__ import annotations

import itertools
import re

CELL = re.compile(r"r(\d+)c(\d+)")

#: type -> (required fields, optional fields), besides "type" and "label".
FIELDS = {
    "diagonal": ({"direction"}, set()),
    "anti-knight": (set(), set()),
    "anti-king": (set(), set()),
    "non-consecutive": (set(), set()),
    "diagonal-non-consecutive": (set(), set()),
    "disjoint-groups": (set(), set()),
    "rule-159": (set(), set()),
    "no-kropki": (set(), {"differences", "ratios"}),
    "no-xv": (set(), {"sums"}),
    "extra-region": ({"cells"}, set()),
    "killer": ({"cells", "sum"}, set()),
    "multi-killer": ({"cells", "sums"}, set()),
    "little-killer": ({"cells", "sum"}, {"clue", "direction"}),
    "thermometer": ({"cells"}, set()),
    "slow-thermometer": ({"cells"}, set()),
    "arrow": ({"circle", "cells"}, set()),
    "double-arrow": ({"cells"}, set()),
    "kropki-white": ({"cells"}, {"difference"}),
    "kropki-black": ({"cells"}, {"ratio"}),
    "xv": ({"cells", "sum"}, set()),
    "edge-sum": ({"cells", "sum"}, set()),
    "odd": ({"cells"}, set()),
    "even": ({"cells"}, set()),
    "candidates": ({"cells", "digits"}, set()),
    "minimum": ({"cells"}, set()),
    "maximum": ({"cells"}, set()),
    "german-whispers": ({"cells"}, {"difference"}),
    "renban": ({"cells"}, set()),
    "palindrome": ({"cells"}, set()),
    "between": ({"cells"}, set()),
    "lockout": ({"cells"}, {"difference"}),
    "region-sum": ({"cells"}, set()),
    "sum-line": ({"cells", "sum"}, set()),
    "entropic": ({"cells"}, set()),
    "modular": ({"cells"}, {"mod"}),
    "nabner": ({"cells"}, set()),
    "zipper": ({"cells"}, set()),
    "clone": ({"cells", "clone"}, set()),
    "quadruple": ({"cells", "digits"}, set()),
    "sandwich": ({"line", "sum"}, set()),
    "x-sum": ({"line", "from", "sum"}, set()),
    "skyscraper": ({"line", "from", "count"}, set()),
    "row-indexer": ({"cells"}, set()),
    "column-indexer": ({"cells"}, set()),
    "box-indexer": ({"cells"}, set()),
    "pair": ({"cells"}, {"relation", "pairs", "between"}),
    "regex": ({"cells", "pattern"}, set()),
    "greater-than": ({"cells"}, set()),
    "windoku": (set(), set()),
    "chaos": (set(), {"together"}),
    "or": ({"rules"}, set()),
    "and": ({"rules"}, set()),
    "counting-circles": ({"cells"}, set()),
    "count-distinct": ({"control", "cells"}, set()),
    "contain-at-least": ({"cells", "digits"}, set()),
    "contain-exact": ({"cells", "digits"}, set()),
    "look-and-say": ({"cells", "clue"}, set()),
    "lunchbox": ({"cells", "sum"}, set()),
    "rellik-cage": ({"cells", "sum"}, set()),
    "equality-cage": ({"cells"}, set()),
    "equal-sum": ({"segments"}, set()),
    "sum": ({"cells", "sum"}, {"weights"}),
    "same-values": ({"sets"}, set()),
    "region-same-values": (set(), set()),
    "value-indexing": ({"cells"}, set()),
    "numbered-room": ({"line", "from", "digit"}, set()),
    "hidden-skyscraper": ({"line", "from", "digit"}, set()),
    "full-rank": ({"line", "from", "rank"}, set()),
    "full-rank-ties": (set(), {"ties"}),
    "global-entropy": (set(), set()),
    "global-mod": (set(), set()),
    "anti-taxicab": (set(), set()),
    "dutch-flatmates": (set(), set()),
    "doppelganger": (set(), set()),
    "nfa": ({"cells", "states", "start", "accepting", "transitions"}, set()),
    "connected-values": ({"digits"}, {"cells", "size", "columns"}),
}

DOCUMENT_KEYS = {"format", "version", "name", "author", "source", "size", "shape", "box",
                 "regions", "digits", "givens", "constraints"}
PAIRED = ("kropki-white", "kropki-black", "xv", "edge-sum")


def rc(name: str, n: int, *, outside: bool = False) -> tuple[int, int]:
    match = CELL.fullmatch(name)
    assert match, f"bad cell name {name!r}"
    r, c = int(match.group(1)), int(match.group(2))
    low, high = (0, n + 1) if outside else (1, n)
    assert low <= r <= high and low <= c <= high, f"{name} outside the grid"
    return r, c


def check_document(doc: dict) -> None:
    """Assert that ``doc`` has the spec's structure (keys, cell names, each type's fields)."""
    assert set(doc) <= DOCUMENT_KEYS, set(doc) - DOCUMENT_KEYS
    assert doc["format"] == "satdoku-variant" and doc["version"] == 1
    assert ("size" in doc) != ("shape" in doc), "size or shape, one of them"
    h, w = map(int, doc["shape"].split("x")) if "shape" in doc else (doc["size"],) * 2
    n = max(h, w)
    assert isinstance(n, int) and n >= 1
    low, high = map(int, doc.get("digits", f"1-{n}").split("-"))
    assert high - low + 1 >= n and ("shape" in doc or high - low + 1 == n)
    assert not ("box" in doc and doc.get("regions")), "box and regions together"
    if doc.get("box", "none") != "none":
        r, c = map(int, doc["box"].split("x"))
        assert (r * c == n) if "size" in doc else (h % r == 0 and w % c == 0)
    if doc.get("regions") is not None:
        regions = doc["regions"]
        assert len({len(region) for region in regions}) == 1
        assert "shape" in doc or len(regions) == n and all(len(region) == n for region in regions)
        assert len({rc(name, n) for region in regions for name in region}) == h * w
    givens = doc["givens"]
    if isinstance(givens, str):
        assert len(givens) == h * w
    else:
        for name, digit in givens.items():
            rc(name, n)
            assert isinstance(digit, int) and low <= digit <= high
    for i, constraint in enumerate(doc["constraints"]):
        _check_constraint(i, constraint, n)


def _check_constraint(i: int, constraint: dict, n: int) -> None:
    kind = constraint["type"]
    assert kind in FIELDS, f"#{i}: unknown type {kind}"
    required, optional = FIELDS[kind]
    keys = set(constraint) - {"type", "label"}
    assert required <= keys, f"#{i} {kind}: missing {required - keys}"
    assert keys <= required | optional, f"#{i} {kind}: unknown {keys - required - optional}"
    for key in ("cells", "circle", "clone", "control"):
        if key in constraint:
            assert isinstance(constraint[key], list) and constraint[key]
            for name in constraint[key]:
                rc(name, n)
    if kind == "diagonal":
        assert constraint["direction"] in ("+", "-")
    if "line" in constraint:
        assert re.fullmatch(r"[rc]\d+", constraint["line"])
        assert 1 <= int(constraint["line"][1:]) <= n
    if "from" in constraint:
        assert constraint["from"] in ("start", "end")
    if kind == "little-killer" and "clue" in constraint:
        rc(constraint["clue"], n, outside=True)
        assert constraint["direction"] in ("DR", "DL", "UR", "UL")
    if kind in PAIRED:
        (r1, c1), (r2, c2) = (rc(x, n) for x in constraint["cells"])
        assert abs(r1 - r2) + abs(c1 - c2) == 1
    if kind == "clone":
        assert len(constraint["cells"]) == len(constraint["clone"])
    if kind in ("minimum", "maximum"):
        assert len(constraint["cells"]) == 1
    if kind == "killer":
        assert constraint["sum"] is None or isinstance(constraint["sum"], int)
    if kind in ("or", "and"):
        assert isinstance(constraint["rules"], list) and constraint["rules"]
        for inner in constraint["rules"]:
            _check_constraint(i, inner, n)


# -- meaning --------------------------------------------------------------------------------

def ranks(n: int) -> list[int]:
    """Low/middle/high of 0..N: thirds, the middle one taking the odd size (SudokuSolver)."""
    small, large = n // 3, (n + 2) // 3
    sizes = (small, large, small) if n % 3 == 1 else (large, small, large)
    return [0] + [rank for rank, size in enumerate(sizes) for _ in range(size)]


def usual_box(n: int) -> str:
    """The spec's usual box of an N x N grid: as many rows as the largest divisor of N up to
    its square root (3x3 for 9, 2x3 for 6, 3x4 for 12)."""
    rows = max(d for d in range(1, int(n ** 0.5) + 1) if n % d == 0)
    return f"{rows}x{n // rows}"


def sigh_boxes(h: int, w: int) -> str:
    """The spec's default boxes of an h x w grid ("other shapes"): as many cells as the
    longer side, the squarest shape that tiles the grid, else none."""
    k = max(h, w)
    for small in range(int(k ** 0.5), 1, -1):
        if k % small == 0:
            for r, c in ((small, k // small), (k // small, small)):
                if h % r == 0 and w % c == 0:
                    return f"{r}x{c}"
    return "none"


class Grid:
    """A complete grid of a document, with its houses. Digits are written as values, one
    symbol each (0-9, then A-Z for 10 and up); a grid of other shape (``shape``) has h rows
    of w cells; ``drawn`` are the regions an answer draws (chaos), letters row by row."""

    def __init__(self, doc: dict, solution: str, drawn: str | None = None) -> None:
        if "shape" in doc:
            h, w = map(int, doc["shape"].split("x"))
        else:
            h = w = doc["size"]
        n = self.n = max(h, w)
        self.h, self.w = h, w
        low, high = map(int, doc.get("digits", f"1-{n}").split("-"))
        self.values = range(low, high + 1)
        assert len(solution) == h * w
        self.at = {(r, c): int(solution[(r - 1) * w + c - 1], 36) for r in range(1, h + 1)
                   for c in range(1, w + 1)}
        self.rows = [[(r, c) for c in range(1, w + 1)] for r in range(1, h + 1)]
        self.cols = [[(r, c) for r in range(1, h + 1)] for c in range(1, w + 1)]
        box = doc.get("box") or (usual_box(n) if h == w == len(self.values) else sigh_boxes(h, w))
        if doc.get("regions"):
            self.regions = [sorted(rc(x, n) for x in region) for region in doc["regions"]]
        elif box == "none":
            self.regions = []
        else:
            br, bc = map(int, box.split("x"))
            self.regions = [[(r, c) for r in range(R, R + br) for c in range(C, C + bc)]
                            for R in range(1, h + 1, br) for C in range(1, w + 1, bc)]
        self.drawn: list[list[tuple[int, int]]] = []
        if drawn is not None:
            by_letter: dict[str, list] = {}
            for i, letter in enumerate(drawn):
                by_letter.setdefault(letter, []).append((i // w + 1, i % w + 1))
            self.drawn = list(by_letter.values())
        self.orth = [((r, c), (r + dr, c + dc)) for (r, c) in self.at
                     for dr, dc in ((0, 1), (1, 0)) if (r + dr, c + dc) in self.at]
        self.ties = next((k.get("ties", "only-unclued") for k in doc["constraints"]
                          if k["type"] == "full-rank-ties"), "only-unclued")
        self.clued: dict[str, set] = {kind: set() for kind in PAIRED}
        for k in doc["constraints"]:
            if k["type"] in PAIRED:
                self.clued[k["type"]].add(frozenset(rc(x, n) for x in k["cells"]))

    def numbers(self) -> list[tuple[str, int, list[int]]]:
        """Every row and column read from both sides: (line, side, digits)."""
        return [(f"{kind}{i}", side, self.line({"line": f"{kind}{i}", "from": side}))
                for kind in "rc" for i in range(1, self.n + 1) for side in ("start", "end")]

    def region_of(self, cell) -> int:
        return next(j for j, reg in enumerate(self.regions) if cell in reg)

    def line(self, k: dict) -> list[int]:
        number = int(k["line"][1:]) - 1
        cells = self.rows[number] if k["line"][0] == "r" else self.cols[number]
        return [self.at[x] for x in (cells[::-1] if k.get("from") == "end" else cells)]


def _distinct(v) -> bool:
    return len(set(v)) == len(v)


def _segments(g: Grid, cells) -> list[list]:
    out: list[list] = []
    last = None
    for cell in cells:
        region = g.region_of(cell)
        if region != last:
            out.append([])
            last = region
        out[-1].append(cell)
    return out


def _sum_line(v: list[int], total: int, loop: bool) -> bool:
    if loop:
        return any(_sum_line(v[s:] + v[:s], total, False) for s in range(len(v)))
    running = 0
    for x in v:
        running += x
        if running == total:
            running = 0
        elif running > total:
            return False
    return running == 0


def _indexer(g: Grid, k: dict, house: int) -> bool:
    for name in k["cells"]:
        r, c = rc(name, g.n)
        v = g.at[(r, c)]
        if house == 0:
            ok = g.at[(r, v)] == c
        elif house == 1:
            ok = g.at[(v, c)] == r
        else:
            box = g.regions[g.region_of((r, c))]
            ok = g.at[box[v - 1]] == box.index((r, c)) + 1
        if not ok:
            return False
    return True


def _extreme(g: Grid, cell, sign: int) -> bool:
    r, c = cell
    return all(sign * (g.at[cell] - g.at[o]) > 0
               for o in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if o in g.at)


def _skyscraper(line: list[int]) -> int:
    return sum(1 for j, x in enumerate(line) if x > max(line[:j], default=0))


def _sandwich(line: list[int], n: int) -> int:
    a, b = sorted((line.index(1), line.index(n)))
    return sum(line[a + 1:b])


def _zipper(v: list[int]) -> bool:
    half = len(v) // 2
    totals = {v[j] + v[-1 - j] for j in range(half)}
    if len(v) % 2:
        totals.add(v[half])
    return len(totals) <= 1


def _lockout(v: list[int], difference: int) -> bool:
    low, high = sorted((v[0], v[-1]))
    return high - low >= difference and all(x < low or x > high for x in v[1:-1])


def _pair(k: dict, v: list[int]) -> bool:
    """A setter's relation, read by Python itself (the spec's words and symbols mapped to
    Python's): a test's second reading of the expression, apart from satdoku's parser."""
    if "pairs" in k:
        ok = lambda a, b: [a, b] in k["pairs"]  # noqa: E731
    else:
        text = (k["relation"].replace("&&", " and ").replace("||", " or ")
                .replace("!=", " <> ").replace("!", " not ").replace(" <> ", " != "))
        text = re.sub(r"(?<![=<>!])=(?!=)", "==", text)
        ok = lambda a, b: bool(eval(text, {"abs": abs, "min": min, "max": max},  # noqa: E731
                                    {"a": a, "b": b}))
    if k.get("between", "next") == "all":
        return all(ok(x, y) and ok(y, x) for i, x in enumerate(v) for y in v[i + 1:])
    return all(ok(x, y) for x, y in zip(v, v[1:]))


def _regex(k: dict, v: list[int]) -> bool:
    """Python's own regular expressions over the values as symbols (10 and up as A, B...)."""
    return re.fullmatch("".join(k["pattern"].split()),
                        "".join("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[x] for x in v),
                        re.IGNORECASE) is not None


def _windows(g: Grid) -> list[list]:
    """sigh's windoku windows: box-sized, one cell in from the border, one cell apart."""
    br, bc = map(int, usual_box(g.n).split("x"))
    return [[(r + i, c + j) for i in range(br) for j in range(bc)]
            for r in range(2, g.n - br + 1, br + 1) for c in range(2, g.n - bc + 1, bc + 1)]


def _lunchbox(v: list[int], total: int) -> bool:
    a, b = sorted((v.index(min(v)), v.index(max(v))))
    return _distinct(v) and sum(v[a + 1:b]) == total


def _rellik(v: list[int], total: int) -> bool:
    return _distinct(v) and all(sum(part) != total for size in range(1, len(v) + 1)
                                for part in itertools.combinations(v, size))


def _equality(v: list[int], n: int) -> bool:
    middle = (n + 1) / 2
    return (_distinct(v) and middle not in v and 2 * sum(x % 2 for x in v) == len(v)
            and 2 * sum(1 for x in v if x < middle) == len(v))


def _hidden(line: list[int], digit: int) -> bool:
    for j in range(1, len(line)):
        if line[j] < max(line[:j]):
            return line[j] == digit
    return False


def _full_rank(g: Grid, k: dict) -> bool:
    numbers = g.numbers()
    mine = g.line(k)
    others = [digits for line, side, digits in numbers
              if (line, side) != (k["line"], k.get("from", "start"))]
    if g.ties != "any" and mine in others:
        return False
    return 1 + sum(1 for x in others if x < mine) == k["rank"]


def _nfa(k: dict, v: list[int]) -> bool:
    """Walk every path at once: the states after each digit."""
    now = set(k["start"])
    for x in v:
        now = {t["to"] for t in k["transitions"] if t["from"] in now and x in t["digits"]}
    return bool(now & set(k["accepting"]))


def _connected(g: Grid, k: dict) -> bool:
    """Grow one region from a cell holding a digit; every such cell must join it."""
    area = [rc(x, g.n) for x in k["cells"]] if "cells" in k else list(g.at)
    if "columns" in k:  # the cells laid out in rows of that many, in reading order
        marked = {divmod(i, k["columns"]) for i, x in enumerate(area) if g.at[x] in k["digits"]}
    else:
        marked = {x for x in area if g.at[x] in k["digits"]}
    if "size" in k and len(marked) != k["size"]:
        return False
    region = set(list(marked)[:1])
    grown = True
    while grown:
        more = {(r + dr, c + dc) for r, c in region for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if (r + dr, c + dc) in marked} - region
        grown = bool(more)
        region |= more
    return region == marked


def _squares(g: Grid, klass) -> bool:
    return all(len({klass(g.at[(r + i, c + j)]) for i in (0, 1) for j in (0, 1)}) == 3
               for r in range(1, g.n) for c in range(1, g.n))


def _taxicab(g: Grid) -> bool:
    return not any(g.at[a] == g.at[b] == abs(a[0] - b[0]) + abs(a[1] - b[1])
                   for a in g.at for b in g.at if a < b)


def _flatmates(g: Grid) -> bool:
    middle = (g.n + 1) // 2
    return all(g.at.get((r - 1, c)) == 1 or g.at.get((r + 1, c)) == g.n
               for (r, c), x in g.at.items() if x == middle)


def _doppelganger(g: Grid) -> bool:
    """Each row, column and box holds 0 and lacks one of 1..n; the rows (columns, boxes) lack
    different values; a 0's row, column and box lack different values."""
    lack = {}  # (kind, cell) -> the value its house of that kind lacks
    for kind, houses in enumerate((g.rows, g.cols, g.regions)):
        gone = []
        for house in houses:
            held = {g.at[x] for x in house}
            missing = set(range(1, g.n + 1)) - held
            if 0 not in held or len(missing) != 1:
                return False
            gone.append(missing.pop())
            lack.update({(kind, x): gone[-1] for x in house})
        if len(set(gone)) != len(gone):
            return False
    kinds = 3 if g.regions else 2
    return all(len({lack[(k, x)] for k in range(kinds)}) == kinds
               for x, v in g.at.items() if v == 0)


#: type -> check(grid, constraint, cells, digits); True when the rule holds.
CHECKS = {
    "diagonal": lambda g, k, cells, v: _distinct([g.at[(j, j if k["direction"] == "-"
                                                        else g.n + 1 - j)]
                                                  for j in range(1, g.n + 1)]),
    "anti-knight": lambda g, k, cells, v: all(
        g.at[(r, c)] != g.at.get((r + a, c + b)) for (r, c) in g.at
        for a, b in ((1, 2), (2, 1), (1, -2), (2, -1))),
    "anti-king": lambda g, k, cells, v: all(
        g.at[(r, c)] != g.at.get((r + a, c + b)) for (r, c) in g.at for a, b in ((1, 1), (1, -1))),
    "non-consecutive": lambda g, k, cells, v: all(abs(g.at[a] - g.at[b]) != 1 for a, b in g.orth),
    "diagonal-non-consecutive": lambda g, k, cells, v: all(
        abs(g.at[(r, c)] - g.at[(r + 1, c + dc)]) != 1 for (r, c) in g.at for dc in (1, -1)
        if (r + 1, c + dc) in g.at),
    "disjoint-groups": lambda g, k, cells, v: all(
        _distinct([g.at[x] for x in group]) for group in zip(*g.regions)),
    "rule-159": lambda g, k, cells, v: all(g.at[(r, g.at[(r, col)])] == col
                                           for r in range(1, g.n + 1) for col in (1, 5, 9)),
    "no-kropki": lambda g, k, cells, v: all(
        abs(g.at[a] - g.at[b]) not in k.get("differences", [1])
        and not any(g.at[a] == q * g.at[b] or g.at[b] == q * g.at[a] for q in k.get("ratios", [2]))
        for a, b in g.orth
        if frozenset((a, b)) not in g.clued["kropki-white"] | g.clued["kropki-black"]),
    "no-xv": lambda g, k, cells, v: all(
        g.at[a] + g.at[b] not in k.get("sums", [5, 10]) for a, b in g.orth
        if frozenset((a, b)) not in g.clued["xv"] | g.clued["edge-sum"]),
    "extra-region": lambda g, k, cells, v: sorted(v) == list(range(1, g.n + 1)),
    "killer": lambda g, k, cells, v: _distinct(v) and (k["sum"] is None or sum(v) == k["sum"]),
    "multi-killer": lambda g, k, cells, v: _distinct(v) and sum(v) in k["sums"],
    "little-killer": lambda g, k, cells, v: sum(v) == k["sum"],
    "thermometer": lambda g, k, cells, v: all(a < b for a, b in zip(v, v[1:])),
    "slow-thermometer": lambda g, k, cells, v: all(a <= b for a, b in zip(v, v[1:])),
    "arrow": lambda g, k, cells, v: int("".join(str(g.at[rc(x, g.n)]) for x in k["circle"]))
    == sum(v),
    "double-arrow": lambda g, k, cells, v: v[0] + v[-1] == sum(v[1:-1]),
    "kropki-white": lambda g, k, cells, v: abs(v[0] - v[1]) == k.get("difference", 1),
    "kropki-black": lambda g, k, cells, v: k.get("ratio", 2) in (v[0] / v[1], v[1] / v[0]),
    "xv": lambda g, k, cells, v: sum(v) == k["sum"],
    "edge-sum": lambda g, k, cells, v: sum(v) == k["sum"],
    "odd": lambda g, k, cells, v: all(x % 2 == 1 for x in v),
    "even": lambda g, k, cells, v: all(x % 2 == 0 for x in v),
    "candidates": lambda g, k, cells, v: all(x in k["digits"] for x in v),
    "minimum": lambda g, k, cells, v: _extreme(g, cells[0], -1),
    "maximum": lambda g, k, cells, v: _extreme(g, cells[0], 1),
    "german-whispers": lambda g, k, cells, v: all(abs(a - b) >= k.get("difference", 5)
                                                  for a, b in zip(v, v[1:])),
    "renban": lambda g, k, cells, v: _distinct([g.at[x] for x in set(cells)])
    and max(v) - min(v) == len(set(cells)) - 1,
    "palindrome": lambda g, k, cells, v: v == v[::-1],
    "between": lambda g, k, cells, v: all(min(v[0], v[-1]) < x < max(v[0], v[-1])
                                          for x in v[1:-1]),
    "lockout": lambda g, k, cells, v: _lockout(v, k.get("difference", 4)),
    "region-sum": lambda g, k, cells, v: len({sum(g.at[x] for x in seg)
                                              for seg in _segments(g, cells)}) == 1,
    "sum-line": lambda g, k, cells, v: _sum_line(v[:-1] if len(v) > 1 and cells[0] == cells[-1]
                                                 else v, k["sum"],
                                                 len(v) > 1 and cells[0] == cells[-1]),
    "entropic": lambda g, k, cells, v: all(ranks(g.n)[v[i]] != ranks(g.n)[v[j]]
                                           for i in range(len(v)) for j in (i + 1, i + 2)
                                           if j < len(v)),
    "modular": lambda g, k, cells, v: all(v[i] % k.get("mod", 3) != v[j] % k.get("mod", 3)
                                          for i in range(len(v))
                                          for j in range(i + 1, min(len(v), i + k.get("mod", 3)))),
    "nabner": lambda g, k, cells, v: all(abs(g.at[a] - g.at[b]) >= 2
                                         for i, a in enumerate(set(cells))
                                         for b in list(set(cells))[i + 1:]),
    "zipper": lambda g, k, cells, v: _zipper(v),
    "clone": lambda g, k, cells, v: v == [g.at[rc(x, g.n)] for x in k["clone"]],
    "quadruple": lambda g, k, cells, v: all(v.count(x) >= k["digits"].count(x)
                                            for x in k["digits"]),
    "sandwich": lambda g, k, cells, v: _sandwich(g.line(k), g.n) == k["sum"],
    "x-sum": lambda g, k, cells, v: sum(g.line(k)[:g.line(k)[0]]) == k["sum"],
    "skyscraper": lambda g, k, cells, v: _skyscraper(g.line(k)) == k["count"],
    "column-indexer": lambda g, k, cells, v: _indexer(g, k, 0),
    "row-indexer": lambda g, k, cells, v: _indexer(g, k, 1),
    "box-indexer": lambda g, k, cells, v: _indexer(g, k, 2),
    "pair": lambda g, k, cells, v: _pair(k, v),
    "regex": lambda g, k, cells, v: _regex(k, v),
    "greater-than": lambda g, k, cells, v: all(
        g.at[a] > g.at[b] for i, a in enumerate(cells) for b in cells[i + 1:]
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1),
    "windoku": lambda g, k, cells, v: all(_distinct([g.at[x] for x in w]) for w in _windows(g)),
    "chaos": lambda g, k, cells, v: _chaos(g, k),
    "or": lambda g, k, cells, v: any(_holds(g, inner) for inner in k["rules"]),
    "and": lambda g, k, cells, v: all(_holds(g, inner) for inner in k["rules"]),
    "counting-circles": lambda g, k, cells, v: all(v.count(x) == x for x in v),
    "count-distinct": lambda g, k, cells, v: g.at[rc(k["control"][0], g.n)] == len(set(v)),
    "contain-at-least": lambda g, k, cells, v: all(v.count(x) >= k["digits"].count(x)
                                                   for x in k["digits"]),
    "contain-exact": lambda g, k, cells, v: all(v.count(x) == k["digits"].count(x)
                                                for x in k["digits"]),
    "look-and-say": lambda g, k, cells, v: all(
        v.count(int(k["clue"][i + 1])) == int(k["clue"][i]) for i in range(0, len(k["clue"]), 2)),
    "lunchbox": lambda g, k, cells, v: _lunchbox(v, k["sum"]),
    "rellik-cage": lambda g, k, cells, v: _rellik(v, k["sum"]),
    "equality-cage": lambda g, k, cells, v: _equality(v, g.n),
    "equal-sum": lambda g, k, cells, v: len({sum(g.at[rc(x, g.n)] for x in segment)
                                             for segment in k["segments"]}) == 1,
    "same-values": lambda g, k, cells, v: len({tuple(sorted(g.at[rc(x, g.n)] for x in s))
                                               for s in k["sets"]}) == 1,
    "region-same-values": lambda g, k, cells, v: True,  # (an N x N grid of N digits)
    "sum": lambda g, k, cells, v: sum(w * g.at[rc(x, g.n)] for x, w in zip(
        k["cells"], k.get("weights") or [1] * len(k["cells"]))) == k["sum"],
    "value-indexing": lambda g, k, cells, v: v[1] + 1 < len(v) and v[v[1] + 1] == v[0],
    "numbered-room": lambda g, k, cells, v: g.line(k)[g.line(k)[0] - 1] == k["digit"],
    "hidden-skyscraper": lambda g, k, cells, v: _hidden(g.line(k), k["digit"]),
    "full-rank": lambda g, k, cells, v: _full_rank(g, k),
    "full-rank-ties": lambda g, k, cells, v: k.get("ties", "only-unclued") != "none" or len(
        {tuple(digits) for _, _, digits in g.numbers()}) == 4 * g.n,
    "global-entropy": lambda g, k, cells, v: _squares(g, lambda x: ranks(g.n)[x]),
    "global-mod": lambda g, k, cells, v: _squares(g, lambda x: x % 3),
    "anti-taxicab": lambda g, k, cells, v: _taxicab(g),
    "dutch-flatmates": lambda g, k, cells, v: _flatmates(g),
    "doppelganger": lambda g, k, cells, v: _doppelganger(g),
    "nfa": lambda g, k, cells, v: _nfa(k, v),
    "connected-values": lambda g, k, cells, v: _connected(g, k),
}


def _holds(g: Grid, k: dict) -> bool:
    """Whether the complete grid satisfies one constraint object."""
    cells = [rc(x, g.n) for x in k.get("cells", [])]
    return CHECKS[k["type"]](g, k, cells, [g.at[x] for x in cells])


def _chaos(g: Grid, k: dict) -> bool:
    """The drawn regions: N regions of N connected cells, each every digit once; each
    ``together`` group inside one."""
    def connected(region) -> bool:
        seen, todo = {region[0]}, [region[0]]
        while todo:
            r, c = todo.pop()
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in region and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return len(seen) == len(region)
    groups = [{rc(x, g.n) for x in group} for group in k.get("together", [])]
    return (len(g.drawn) == g.n and all(len(region) == g.n and connected(region)
                                        and _distinct([g.at[x] for x in region])
                                        for region in g.drawn)
            and all(any(group <= set(region) for region in g.drawn) for group in groups))


def violations(doc: dict, solution: str, drawn: str | None = None) -> list[str]:
    """What in ``doc`` the complete grid ``solution`` (values row by row) breaks; ``drawn``,
    the regions the answer draws (chaos construction), a letter a cell."""
    g = Grid(doc, solution, drawn)
    wrong = [f"house {i} repeats a digit" for i, house in enumerate(g.rows + g.cols + g.regions)
             if not _distinct([g.at[x] for x in house])]
    wrong += [f"{x} holds {v}, not one of the digits" for x, v in g.at.items()
              if v not in g.values]
    for name, digit in (doc["givens"].items() if isinstance(doc["givens"], dict) else []):
        if g.at[rc(name, g.n)] != digit:
            wrong.append(f"given {name}")
    for i, k in enumerate(doc["constraints"]):
        if not _holds(g, k):
            wrong.append(f"#{i} {k['type']}")
    return wrong
