"""Writing a puzzle as a sigh constraint string: each satdoku rule as the sigh item that says
the same (a rule with none is named in ``lost``), givens and digit restrictions as sigh's
givens (``.~R1C1_5~R2C2_1_3``)."""

from __future__ import annotations

import base64
import re
from typing import Callable

from ...model.geometry import sigh_box
from ...model.puzzle import Puzzle
from ...records import field, record
from ..variant import variant_document
from .nfa import Machine, encode_machine
from .types import _B64, _little_killer_runs, sigh_cell

__all__ = ["SighExport", "format_sigh"]


@record
class SighExport:
    """A puzzle written: the string, and what sigh's language could not hold (one line a
    rule, as :func:`satdoku.tasks.convert.convert_puzzle` names it)."""

    text: str
    lost: list[str] = field(default_factory=list)


class _Untranslatable(Exception):
    pass


#: satdoku types that are a list of cells in sigh too, with sigh's name.
_CELLS = {"thermometer": "Thermo", "renban": "Renban", "between": "Between",
          "palindrome": "Palindrome", "entropic": "Entropic", "zipper": "Zipper",
          "region-sum": "RegionSumLine", "double-arrow": "DoubleArrow",
          "greater-than": "GreaterThan", "column-indexer": "Indexing~C",
          "row-indexer": "Indexing~R", "counting-circles": "CountingCircles",
          "equality-cage": "EqualityCage", "value-indexing": "ValueIndexing"}
#: satdoku types that are a switch in sigh, with its name (with their default lists only).
_GLOBAL = {"anti-knight": "AntiKnight", "anti-king": "AntiKing",
           "non-consecutive": "AntiConsecutive", "disjoint-groups": "DisjointSets",
           "windoku": "Windoku", "no-kropki": "StrictKropki", "no-xv": "StrictXV",
           "global-entropy": "GlobalEntropy", "global-mod": "GlobalMod",
           "anti-taxicab": "AntiTaxicab", "dutch-flatmates": "DutchFlatmates",
           "doppelganger": "Doppelganger",
           "region-same-values": "RegionSameValues"}
#: satdoku types sigh states on 9x9 grids only.
_NINE_ONLY = ("global-entropy", "global-mod", "dutch-flatmates")
_DEFAULT_LISTS = {"differences": [1], "ratios": [2], "sums": [5, 10]}


def _full(constraint, geo) -> dict:
    """A rule's JSON with the defaults it leaves out written in (sigh has other defaults)."""
    out = constraint.to_json(geo)
    for f in constraint.fields:
        value = getattr(constraint, f.attr)
        if f.name not in out and value is not None:
            out[f.name] = f.write(value, geo)
    if out["type"] in ("or", "and"):
        out["rules"] = [_full(rule, geo) for rule in constraint.rules]
    return out


def _var_items(names: tuple[str, ...], rules: list[dict]) -> list[str]:
    """sigh's ``Var`` items for the cells outside the grid: ``.Var~A`` for ``VA``,
    ``.Var~B~~3`` for ``VB1``..``VB3``, ``.Var~L~~6x6`` for a group a ``connected-values``
    lays out in rows of 6 (sigh's own names; other names have no sigh form)."""
    columns = {rule["cells"][0][:-1]: rule["columns"] for rule in rules
               if rule["type"] == "connected-values" and rule.get("columns")}
    groups: dict[str, list[str]] = {}
    for name in names:
        m = re.fullmatch(r"V([A-Z]+)([1-9]\d*)?", name)
        if m is None:
            raise _Untranslatable(f"the cell outside the grid {name} (sigh names them VA, VA1, "
                                  "VA2...)")
        groups.setdefault(m.group(1), []).append(m.group(2) or "")
    out = []
    for prefix, numbers in groups.items():
        if numbers == [""]:
            out.append(f".Var~{prefix}")
        elif numbers == [str(k) for k in range(1, len(numbers) + 1)] and len(numbers) > 1:
            c = columns.get(f"V{prefix}", 0)
            shape = f"{len(numbers) // c}x{c}" if c and len(numbers) % c == 0 else len(numbers)
            out.append(f".Var~{prefix}~~{shape}")
        else:
            raise _Untranslatable(f"the cells outside the grid V{prefix}"
                                  f"{', V'.join(prefix + n for n in numbers)} (sigh numbers "
                                  f"a group VA1, VA2... from 1, or names one cell VA)")
    return out


class _Writer:
    """One puzzle being written."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.doc = variant_document(puzzle)
        self.n = puzzle.geometry.size  # values; cells by the grid's width
        self.width = puzzle.geometry.width
        self.geo = puzzle.geometry
        self.doc["constraints"] = [_full(c, self.geo) for c in puzzle.constraints]
        self.allowed: dict[int, set[int]] = {}

    def cell(self, name: str) -> str:
        if name in self.geo.extra_cell:
            return name
        return sigh_cell(self.index(name), self.width)

    def index(self, name: str) -> int:
        if name in self.geo.extra_cell:
            return self.geo.extra_cell[name]
        row, col = name[1:].split("c")
        return (int(row) - 1) * self.width + int(col) - 1

    def cells(self, names: list[str]) -> str:
        return "~".join(self.cell(c) for c in names)

    def restrict(self, name: str, digits: set[int]) -> None:
        cell = self.index(name)
        everything = set(range(self.geo.low, self.geo.high + 1))
        self.allowed[cell] = self.allowed.get(cell, everything) & digits

    def layout(self) -> list[str]:
        if not self.geo.is_square:
            return self._shaped()
        n, out = self.n, []
        if n > 16:
            raise _Untranslatable(f"a {n}x{n} grid (sigh's grids go up to 16x16)")
        if self.geo.low != 1:
            out.append(f".Shape~{n}x{n}~{self.geo.values_text}")
        elif n != 9:
            out.append(f".Shape~{n}x{n}")
        height = next((s for s in range(int(n ** 0.5), 1, -1) if n % s == 0), 1)
        if len(self.geo.houses) == 2 * n:  # rows and columns only
            return out + [".NoBoxes"]
        if self.geo.regions is None and self.geo.box_rows == height:
            return out
        symbols = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        layout = [""] * (n * n)
        for k, house in enumerate(self.geo.houses[2 * n:]):
            for cell in house:
                layout[cell] = symbols[k]
        return out + [".NoBoxes", ".Jigsaw~" + "".join(layout)]

    def _shaped(self) -> list[str]:
        """An R x C grid, or one of more values than rows: its Shape, RegionSize, boxes."""
        geo = self.geo
        h, w, longest = geo.height, geo.width, max(geo.height, geo.width)
        if max(h, w) > 16 or geo.size > 16:
            raise _Untranslatable(f"a {geo.shape} (sigh's grids go up to 16x16)")
        out = [f".Shape~{h}x{w}~{geo.values_text}"]
        if geo.regions is None:  # boxes: sigh makes them from their size
            size = geo.box_rows * geo.box_cols
            if sigh_box(h, w, size) != (geo.box_rows, geo.box_cols):
                raise _Untranslatable(f"boxes of {geo.box_rows}x{geo.box_cols} on a {h}x{w} "
                                      f"grid (sigh's boxes of {size} cells are others)")
            return out + ([f".RegionSize~{size}"] if size != longest else [])
        if not geo.regions:
            return out + [".NoBoxes"]
        size = len(geo.regions[0])
        symbols = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        if len(geo.regions) > len(symbols):
            raise _Untranslatable(f"{len(geo.regions)} regions")
        layout = [""] * geo.ncells
        for k, region in enumerate(geo.regions):
            for cell in region:
                layout[cell] = symbols[k]
        return out + [".NoBoxes"] + ([f".RegionSize~{size}"] if size != longest else []) + \
            [".Jigsaw~" + "".join(layout)]

    def rule(self, rule: dict) -> list[str]:
        kind = rule["type"]
        if kind in _CELLS:
            return [f".{_CELLS[kind]}~{self.cells(rule['cells'])}"]
        if kind in _NINE_ONLY and self.n != 9:
            raise _Untranslatable(f"{kind} on a {self.n}x{self.n} grid (sigh's is 9x9 only)")
        if kind in _GLOBAL:
            if any(rule.get(key, default) != default for key, default in
                   _DEFAULT_LISTS.items()):
                raise _Untranslatable(f"a {kind} with its own list (sigh's is fixed)")
            return [f".{_GLOBAL[kind]}"]
        writer = _WRITERS.get(kind)
        if writer is None:
            raise _Untranslatable(f"{kind} (sigh has no such rule)")
        return writer(self, rule)

    def givens(self) -> list[str]:
        for name, digit in self.doc["givens"].items():
            self.restrict(name, {digit})
        if not self.allowed:
            return []
        return [".~" + "~".join(f"{self.cell(self.geo.cell_name(c))}_"
                                f"{'_'.join(map(str, sorted(ds)))}"
                                for c, ds in sorted(self.allowed.items()))]


def _killer(w: _Writer, rule: dict) -> list[str]:
    total = rule.get("sum")
    return [f".Cage~{'' if total is None else total}~{w.cells(rule['cells'])}"]


def _little_killer(w: _Writer, rule: dict) -> list[str]:
    cells = [w.index(c) for c in rule["cells"]]
    run = _little_killer_runs(w.n).get(cells[0])
    if run is not None and run[0] == cells:
        return [f".LittleKiller~{rule['sum']}~{sigh_cell(cells[0], w.n)}"]
    run = _little_killer_runs(w.n).get(cells[-1])
    if run is not None and run[0] == cells[::-1]:
        return [f".LittleKiller~{rule['sum']}~{sigh_cell(cells[-1], w.n)}"]
    return [f".Sum~{rule['sum']}~{w.cells(rule['cells'])}"]


def _arrow(w: _Writer, rule: dict) -> list[str]:
    circle, shaft = rule["circle"], rule["cells"]
    k = len(circle)
    if k == 1:
        return [f".Arrow~{w.cells(circle)}~{w.cells(shaft)}"]
    if k > 3:
        raise _Untranslatable(f"an arrow with a circle of {k} cells")
    pill = [w.index(c) for c in circle]
    steps = {b - a for a, b in zip(pill, pill[1:])}
    if steps <= {1, w.width, w.width + 1} and all(b % w.width >= a % w.width
                                                  for a, b in zip(pill, pill[1:])):
        return [f".PillArrow~{k}~{w.cells(circle)}~{w.cells(shaft)}"]
    coeffs = [-10 ** (k - 1 - i) for i in range(k)] + [1] * len(shaft)
    return [f".Sum~0_=_{'_'.join(map(str, coeffs))}~{w.cells(circle + shaft)}"]


def _dot(name: str, key: str, default: int) -> Callable[[_Writer, dict], list[str]]:
    def write(w: _Writer, rule: dict) -> list[str]:
        if rule.get(key, default) != default:
            raise _Untranslatable(f"a {rule['type']} with {key} {rule[key]} (sigh's is "
                                  f"{default})")
        return [f".{name}~{w.cells(rule['cells'])}"]
    return write


def _xv(w: _Writer, rule: dict) -> list[str]:
    letter = {10: "X", 5: "V"}.get(rule["sum"])
    if letter is None:
        raise _Untranslatable(f"an XV clue of {rule.get('sum')}")
    return [f".{letter}~{w.cells(rule['cells'])}"]


def _with_number(name: str, key: str) -> Callable[[_Writer, dict], list[str]]:
    def write(w: _Writer, rule: dict) -> list[str]:
        value = rule.get(key)
        if value is None:  # satdoku's default: half the digits, rounded up
            value = (w.n + 1) // 2
        cells = rule["cells"]
        if name == "SumLine" and len(cells) > 1 and cells[-1] == cells[0]:
            return [f".{name}~{value}~{w.cells(cells[:-1])}~LOOP"]
        return [f".{name}~{value}~{w.cells(cells)}"]
    return write


def _restrict(digits: Callable[[int], set[int]]) -> Callable[[_Writer, dict], list[str]]:
    def write(w: _Writer, rule: dict) -> list[str]:
        for c in rule["cells"]:
            w.restrict(c, digits(w.n) if rule["type"] != "candidates" else set(rule["digits"]))
        return []
    return write


def _extremum(w: _Writer, rule: dict) -> list[str]:
    out = []
    for c in rule["cells"]:
        cell = w.index(c)
        r, col = divmod(cell, w.width)
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            if 0 <= r + dr < w.geo.height and 0 <= col + dc < w.width:
                other = sigh_cell(cell + dr * w.width + dc, w.width)
                low, high = (w.cell(c), other) if rule["type"] == "minimum" else (other, w.cell(c))
                out.append(f".GreaterThan~{high}~{low}")
    return out


def _quadruple(w: _Writer, rule: dict) -> list[str]:
    top = min(w.index(c) for c in rule["cells"])
    return [f".Quad~{sigh_cell(top, w.width)}~" + "~".join(map(str, rule["digits"]))]


def _clone(w: _Writer, rule: dict) -> list[str]:
    return [f".SameValues~2~{w.cell(a)}~{w.cell(b)}" for a, b in zip(rule["cells"],
                                                                      rule["clone"])]


def _diagonal(w: _Writer, rule: dict) -> list[str]:
    return [".Diagonal~" + ("1" if rule.get("direction", "-") == "+" else "-1")]


def _extra_region(w: _Writer, rule: dict) -> list[str]:
    return [f".AllDifferent~{w.cells(rule['cells'])}"]


def _line(rule: dict) -> str:
    return rule["line"][0].upper() + rule["line"][1:]


def _sandwich(w: _Writer, rule: dict) -> list[str]:
    return [f".Sandwich~{rule['sum']}~{_line(rule)}"]


def _both_ends(name: str, key: str) -> Callable[[_Writer, dict], list[str]]:
    def write(w: _Writer, rule: dict) -> list[str]:
        value = rule[key]
        start = rule.get("from", "start") == "start"
        return [f".{name}~{_line(rule)}~{value if start else ''}~{'' if start else value}"]
    return write


def _rule_159(w: _Writer, rule: dict) -> list[str]:
    return [".Indexing~C~" + "~".join(sigh_cell(r * w.n + c, w.n)
                                      for r in range(w.n) for c in (0, 4, 8))]


def _regex(w: _Writer, rule: dict) -> list[str]:
    pattern = base64.urlsafe_b64encode(rule["pattern"].encode("latin-1")).decode().rstrip("=")
    return [f".Regex~{pattern}~{w.cells(rule['cells'])}"]


def _nfa(w: _Writer, rule: dict) -> list[str]:
    index = {name: i for i, name in enumerate(rule["states"])}
    machine = Machine(len(index), tuple(index[s] for s in rule["start"]),
                      tuple(index[s] for s in rule["accepting"]),
                      tuple((index[m["from"]], index[m["to"]], d - w.geo.low + 1)
                            for m in rule["transitions"] for d in m["digits"]))  # symbols
    try:
        return [f".NFA~{encode_machine(machine, w.n)}~{w.cells(rule['cells'])}"]
    except ValueError as exc:
        raise _Untranslatable(str(exc)) from None


def _chaos(w: _Writer, rule: dict) -> list[str]:
    def region(c: str) -> str:
        return f"CC{w.index(c) + 1}"
    groups = [".SameValues~{}~{}".format(len(g), "~".join(map(region, g)))
              for g in rule.get("together", [])]
    clues = [f".ChaosArrow~{w.cell(c['cell'])}~{c.get('offset', 0)}~"
             + "~-~".join("~".join(map(region, arm)) for arm in c["arms"])
             for c in rule.get("arrows", [])]
    clues += [f".ChaosCount~{w.cell(c['cell'])}~{c.get('offset', 0)}~"
              + "~".join(map(region, c["cells"])) for c in rule.get("counts", [])]
    return [".ChaosConstruction"] + groups + clues


def _sum(w: _Writer, rule: dict) -> list[str]:
    weights = rule.get("weights")
    total = str(rule["sum"]) + ("_=_" + "_".join(map(str, weights)) if weights else "")
    return [f".Sum~{total}~{w.cells(rule['cells'])}"]


def _connected(w: _Writer, rule: dict) -> list[str]:
    """Over the grid, or over a whole ``Var`` group in order, in its rows (``VL1``...)."""
    cells, group = rule.get("cells"), ""
    if cells is not None:
        group = re.sub(r"1$", "", cells[0])
        whole = [n for n in w.geo.extra if re.fullmatch(rf"{group}\d+", n)]
        if cells != whole or len(cells) % rule.get("columns", 0) or \
                not all(c == f"{group}{k}" for k, c in enumerate(cells, 1)):
            raise _Untranslatable("connected values over some cells (sigh's are over the grid "
                                  "or a whole Var group, VL1... in rows)")
    size = f"~{rule['size']}" if rule.get("size") is not None else ""
    return [f".ConnectedValues~{group}~{'_'.join(map(str, rule['digits']))}{size}"]


def _same_values(w: _Writer, rule: dict) -> list[str]:
    return [f".SameValues~{len(rule['sets'])}~" + "~".join(w.cells(s) for s in rule["sets"])]


def _edge_sum(w: _Writer, rule: dict) -> list[str]:
    return [f".Sum~{rule['sum']}~{w.cells(rule['cells'])}"]


def _nabner(w: _Writer, rule: dict) -> list[str]:
    cells = list(dict.fromkeys(rule["cells"]))
    values = range(w.geo.low, w.geo.high + 1)
    pairs = [[a, b] for a in values for b in values if abs(a - b) > 1]
    return _pair(w, {"cells": cells, "pairs": pairs, "between": "all"})


def _pair(w: _Writer, rule: dict) -> list[str]:
    pairs = rule.get("pairs")
    if pairs is None:
        raise _Untranslatable("a pair rule given by a relation (sigh's is a table)")
    n, bits, low = w.n, [0] * (w.n * w.n), w.geo.low
    for a, b in pairs:  # sigh's bit of values a, b: from the lowest value
        bits[(a - low) * n + b - low] = 1
    if rule.get("between", "next") == "all":
        bits = [bits[i] & bits[(i % n) * n + i // n] for i in range(n * n)]
    key = "".join(_B64[sum(bit << k for k, bit in enumerate(bits[i:i + 6]))]
                  for i in range(0, len(bits), 6)).rstrip("A") or "A"
    name = "PairX" if rule.get("between", "next") == "all" else "Pair"
    return [f".{name}~{key}~_~{w.cells(rule['cells'])}"]


def _composite(w: _Writer, rule: dict) -> list[str]:
    """``or`` and ``and`` as sigh's composites; a digit restriction inside is a given there."""
    out = []
    for child in rule["rules"]:
        if child["type"] in ("odd", "even", "candidates"):
            digits = {"odd": set(range(1, w.n + 1, 2)), "even": set(range(2, w.n + 1, 2)),
                      "candidates": set(child.get("digits", ()))}[child["type"]]
            items = [".~" + "~".join(f"{w.cell(c)}_{'_'.join(map(str, sorted(digits)))}"
                                     for c in child["cells"])]
        else:
            items = w.rule(child)
        if rule["type"] == "or" and len(items) != 1:
            items = [".And" + "".join(items) + ".End"]
        out += items
    return [(".Or" if rule["type"] == "or" else ".And") + "".join(out) + ".End"]


def _head_and_cells(name: str, key: str) -> Callable[[_Writer, dict], list[str]]:
    """A rule written ``.Name~value~cells`` (lists of values joined by ``_``)."""
    def write(w: _Writer, rule: dict) -> list[str]:
        value = rule[key]
        text = "_".join(map(str, value)) if isinstance(value, list) else str(value)
        return [f".{name}~{text}~{w.cells(rule['cells'])}"]
    return write


def _count_distinct(w: _Writer, rule: dict) -> list[str]:
    return [f".CountDistinct~{w.cells(rule['control'])}~{w.cells(rule['cells'])}"]


def _equal_sum(w: _Writer, rule: dict) -> list[str]:
    return [".EqualSum~" + "~-~".join(w.cells(s) for s in rule["segments"])]


_WRITERS: dict[str, Callable[[_Writer, dict], list[str]]] = {
    "lunchbox": _head_and_cells("Lunchbox", "sum"),
    "rellik-cage": _head_and_cells("RellikCage", "sum"),
    "look-and-say": _head_and_cells("LookAndSay", "clue"),
    "contain-at-least": _head_and_cells("ContainAtLeast", "digits"),
    "contain-exact": _head_and_cells("ContainExact", "digits"),
    "count-distinct": _count_distinct, "equal-sum": _equal_sum,
    "numbered-room": _both_ends("NumberedRoom", "digit"),
    "hidden-skyscraper": _both_ends("HiddenSkyscraper", "digit"),
    "full-rank": _both_ends("FullRank", "rank"),
    "full-rank-ties": lambda w, rule: [f".FullRankTies~{rule['ties']}"],
    "or": _composite, "and": _composite,
    "killer": _killer, "little-killer": _little_killer, "arrow": _arrow,
    "kropki-white": _dot("WhiteDot", "difference", 1),
    "kropki-black": _dot("BlackDot", "ratio", 2), "xv": _xv,
    "german-whispers": _with_number("Whisper", "difference"),
    "lockout": _with_number("Lockout", "difference"),
    "modular": _with_number("Modular", "mod"), "sum-line": _with_number("SumLine", "sum"),
    "odd": _restrict(lambda n: set(range(1, n + 1, 2))),
    "even": _restrict(lambda n: set(range(2, n + 1, 2))),
    "candidates": _restrict(lambda n: set()),
    "minimum": _extremum, "maximum": _extremum, "quadruple": _quadruple, "clone": _clone,
    "diagonal": _diagonal, "extra-region": _extra_region, "sandwich": _sandwich,
    "x-sum": _both_ends("XSum", "sum"), "skyscraper": _both_ends("Skyscraper", "count"),
    "rule-159": _rule_159, "regex": _regex, "pair": _pair, "nabner": _nabner,
    "edge-sum": _edge_sum, "nfa": _nfa, "chaos": _chaos, "sum": _sum,
    "same-values": _same_values, "connected-values": _connected,
}


def format_sigh(puzzle: Puzzle) -> SighExport:
    """``puzzle`` as a sigh constraint string, and the rules sigh's language cannot hold
    (left out of the string, each named).

    >>> from satdoku.io.variant import read_variant
    >>> p = read_variant({"size": 4, "givens": {"r1c1": 1}, "constraints": [
    ...     {"type": "thermometer", "cells": ["r1c2", "r2c2"]}, {"type": "odd", "cells": ["r4c4"]}]})
    >>> format_sigh(p)
    SighExport(text='.Shape~4x4.Thermo~R1C2~R2C2.~R1C1_1~R4C4_1_3', lost=[])
    """
    writer = _Writer(puzzle)
    try:
        out = writer.layout() + _var_items(puzzle.geometry.extra, writer.doc["constraints"])
    except _Untranslatable as exc:
        return SighExport("", [str(exc)])
    lost = []
    for i, rule in enumerate(writer.doc["constraints"]):
        try:
            out += writer.rule(rule)
        except _Untranslatable as exc:
            lost.append(f"constraints[{i}] ({rule['type']}): {exc}")
    return SighExport("".join(out + writer.givens()), lost)
