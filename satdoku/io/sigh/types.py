"""sigh's constraint types: every name its parser knows, the ones satdoku lacks, and the
readers of items (each turns an item into satdoku rule objects, JSON dicts; the table of them
is :data:`satdoku.io.sigh.rules.RULES`)."""

from __future__ import annotations

import base64
from typing import Any, Callable
from urllib.parse import unquote

from ...records import record
from ...rules import CONSTRAINTS

__all__ = ["SIGH_TYPES", "COMPOSITES", "MISSING", "NOTES", "Item", "Bad", "Missing",
           "cell_index", "sigh_cell", "decode_pairs"]

#: Every type sigh's parser accepts (the classes of ``SudokuConstraint``, 2026-11).
SIGH_TYPES = frozenset("""
Container Or And Replicate End Jigsaw Thermo Whisper Renban Modular Entropic RegionSumLine Between
Lockout Palindrome Zipper SumLine Regex NFA NoBoxes ChaosConstruction ChaosArrow ChaosCount
RegionSize RegionSameValues StrictKropki StrictXV Shape Windoku DisjointSets AntiKnight
Doppelganger AntiKing AntiTaxicab AntiConsecutive GlobalEntropy GlobalMod FullRankTies
DutchFlatmates Diagonal WhiteDot BlackDot GreaterThan X ValueIndexing V Arrow DoubleArrow PillArrow
Cage RellikCage EqualityCage Sum LittleKiller XSum Sandwich Lunchbox Skyscraper HiddenSkyscraper
NumberedRoom FullRank AllDifferent ContainAtLeast ContainExact LookAndSay ConnectedValues SameValues
EqualSum Quad Binary BinaryX Pair PairX Indexing CountingCircles CountDistinct Given SearchPriority
Var""".split())

COMPOSITES = frozenset({"Or", "And", "Replicate", "Container"})

#: sigh types satdoku has no rule for: what each says. (A type of :data:`RULES` whose satdoku
#: rule type is not registered counts as missing too.)
MISSING: dict[str, str] = {}

#: sigh types that carry no rule.
NOTES = {"SearchPriority": "a search hint for sigh's solver"}

_CELL_CHARS = "123456789abcdefg"


@record
class Item:
    """One ``.Type~arg...`` of a constraint string (``number`` counts from 1)."""

    number: int
    type: str
    args: list[str]
    children: list["Item"] | None = None


class Bad(ValueError):
    """What makes a string no puzzle; ``cell`` names the cell when there is one."""

    def __init__(self, message: str, cell: str | None = None) -> None:
        super().__init__(message)
        self.cell = cell


class Missing(Exception):
    """An item of a type satdoku lacks (``kind`` names it, as the tally shows it)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def _where(item: Item) -> str:
    return f"sigh item {item.number} (.{item.type})"


def cell_index(token: str, rows: int, cols: int, item: Item) -> int:
    """The cell of a sigh cell id (``R3C7``, ``rAcB`` above 9) in a grid of ``rows`` x
    ``cols``.

    >>> cell_index("R2c1", 9, 9, Item(1, "Thermo", [])), cell_index("Rgcg", 16, 16, Item(1, "X", []))
    (9, 255)
    """
    t = token.lower()
    if len(t) == 4 and t[0] == "r" and t[2] == "c" and t[1] in _CELL_CHARS \
            and t[3] in _CELL_CHARS:
        row, col = _CELL_CHARS.index(t[1]), _CELL_CHARS.index(t[3])
        if row < rows and col < cols:
            return row * cols + col
    if token[:2] == "CC":
        raise Missing("chaos region cells (CC...) in a rule")
    if token[:1] == "$":
        raise Missing("Var")
    if token[:2] == "DG":
        raise Missing("Doppelganger cells (DGR...: a house's missing value) in a rule")
    raise Bad(f"{_where(item)}: {token!r} is not a cell of the {rows}x{cols} grid")


def sigh_cell(cell: int, n: int) -> str:
    """The sigh id of a cell (``R1C1``; rows and columns 10-16 as ``a``-``g``)."""
    row, col = divmod(cell, n)
    return f"R{_CELL_CHARS[row]}C{_CELL_CHARS[col]}"


def _int(text: str, item: Item, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise Bad(f"{_where(item)}: {what} {text!r} is not a whole number") from None


def _names(reader, item: Item, tokens: list[str]) -> list[str]:
    if not tokens:
        raise Bad(f"{_where(item)}: no cells")
    return [reader.geo.cell_name(reader.cell(t, item)) for t in tokens]


def _cells_rule(kind: str) -> Callable:
    def read(reader, item: Item) -> list[dict]:
        return [{"type": kind, "cells": _names(reader, item, item.args)}]
    return read


def _global(kind: str) -> Callable:
    def read(reader, item: Item) -> list[dict]:
        return [{"type": kind}]
    return read


def _adjacent_pairs(reader, item: Item) -> list[tuple[int, int]]:
    """sigh's pairs of a dot or XV over several cells: each orthogonal neighbour pair."""
    w, h = reader.geo.width, reader.geo.height
    cells = [reader.cell(t, item) for t in item.args]
    rest, pairs = set(cells), []
    for cell in cells:
        rest.discard(cell)
        r, c = divmod(cell, w)
        for other in (cell - w if r else None, cell - 1 if c else None,
                      cell + 1 if c < w - 1 else None, cell + w if r < h - 1 else None):
            if other is not None and other in rest:
                pairs.append((cell, other))
    if not pairs:
        raise Bad(f"{_where(item)}: no two of its cells are neighbours")
    return pairs


def _pairwise(kind: str, **fields: Any) -> Callable:
    def read(reader, item: Item) -> list[dict]:
        name = reader.geo.cell_name
        return [{"type": kind, "cells": [name(a), name(b)], **fields}
                for a, b in _adjacent_pairs(reader, item)]
    return read


def _cage(reader, item: Item) -> list[dict]:
    total = _int(item.args[0], item, "the sum") if item.args and item.args[0].strip() else 0
    names = _names(reader, item, item.args[1:])
    if len(set(names)) < len(names):  # sigh counts such a cell twice in the sum, once in the
        different = list(dict.fromkeys(names))  # no-repeat rule
        return [{"type": "killer", "cells": different, "sum": None}] + (
            [{"type": "sum", "cells": names, "sum": total}] if total else [])
    return [{"type": "killer", "cells": names, "sum": total or None}]


def _all_different(reader, item: Item) -> list[dict]:
    names = _names(reader, item, item.args)
    if len(names) == reader.size:
        return [{"type": "extra-region", "cells": names}]
    return [{"type": "killer", "cells": names, "sum": None}]


def _arrow(reader, item: Item) -> list[dict]:
    names = _names(reader, item, item.args)
    return [{"type": "arrow", "circle": names[:1], "cells": names[1:]}]


def _pill_arrow(reader, item: Item) -> list[dict]:
    size = _int(item.args[0] if item.args else "", item, "the pill size")
    if size not in (2, 3) or len(item.args) <= size + 1:
        raise Bad(f"{_where(item)}: a pill of 2 or 3 cells and a shaft")
    cells = [reader.cell(t, item) for t in item.args[1:]]
    name = reader.geo.cell_name
    return [{"type": "arrow", "circle": [name(c) for c in sorted(cells[:size])],
             "cells": [name(c) for c in cells[size:]]}]


def _with_number(kind: str, key: str, default: int | None = None) -> Callable:
    """A line whose first argument is a number (a whisper's difference...)."""
    def read(reader, item: Item) -> list[dict]:
        args = list(item.args)
        if default is not None and args and not args[0].lstrip("-").isdigit():
            args.insert(0, str(default))  # sigh's German whispers omit the difference
        value = _int(args[0] if args else "", item, key)
        cells = args[1:]
        loop = bool(cells) and cells[-1] == "LOOP"
        names = _names(reader, item, cells[:-1] if loop else cells)
        if loop:
            if kind != "sum-line":
                raise Bad(f"{_where(item)}: only sum lines may be loops")
            names.append(names[0])
        return [{"type": kind, "cells": names, key: value}]
    return read


def _line_of(text: str, reader, item: Item) -> str:
    if len(text) >= 2 and text[0] in "RC" and text[1:].isdigit() \
            and 1 <= int(text[1:]) <= (reader.geo.height if text[0] == "R" else reader.geo.width):
        return text[0].lower() + str(int(text[1:]))
    raise Bad(f"{_where(item)}: {text!r} is not a row or column (R1, C9)")


def _both_ends(kind: str, key: str) -> Callable:
    """An outside clue on both ends of a row or column: ``~R1~from-start~from-end``."""
    def read(reader, item: Item) -> list[dict]:
        line = _line_of(item.args[0] if item.args else "", reader, item)
        out = []
        for end, value in zip(("start", "end"), item.args[1:3]):
            if value:
                out.append({"type": kind, "line": line, "from": end,
                            key: _int(value, item, "the clue")})
        return out
    return read


def _sandwich(reader, item: Item) -> list[dict]:
    if len(item.args) != 2:
        raise Bad(f"{_where(item)}: a sum and a row or column")
    return [{"type": "sandwich", "line": _line_of(item.args[1], reader, item),
             "sum": _int(item.args[0], item, "the sum")}]


def _little_killer_runs(n: int) -> dict[int, tuple[list[int], str]]:
    """sigh's little-killer diagonals by their first cell: cells and direction."""
    runs: dict[int, tuple[list[int], str]] = {}
    seen = set()

    def add(row: int, col: int, dr: int, dc: int, name: str) -> None:
        cells = []
        while 0 <= row < n and 0 <= col < n:
            cells.append(row * n + col)
            row, col = row + dr, col + dc
        if len(cells) > 1 and frozenset(cells) not in seen:
            seen.add(frozenset(cells))
            runs[cells[0]] = (cells, name)
    for row in range(n - 1):
        add(row, 0, 1, 1, "DR")
    for row in range(1, n - 1):
        add(row, n - 1, -1, -1, "UL")
    for col in range(1, n):
        add(0, col, 1, -1, "DL")
    for col in range(1, n - 1):
        add(n - 1, col, -1, 1, "UR")
    return runs


_STEPS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}


def _little_killer(reader, item: Item) -> list[dict]:
    if len(item.args) != 2:
        raise Bad(f"{_where(item)}: a sum and the first cell of a diagonal")
    total = _int(item.args[0], item, "the sum")
    start = reader.cell(item.args[1], item)
    n = reader.geo.width
    if not reader.geo.height == n:
        raise Missing(f"LittleKiller (on a {reader.geo.height}x{n} grid)")
    run = _little_killer_runs(n).get(start)
    if run is None:
        raise Bad(f"{_where(item)}: no diagonal starts there", reader.geo.cell_name(start))
    cells, direction = run
    (row, col), (dr, dc) = divmod(start, n), _STEPS[direction]
    return [{"type": "little-killer", "cells": [reader.geo.cell_name(c) for c in cells],
             "sum": total, "clue": f"r{row - dr + 1}c{col - dc + 1}", "direction": direction}]


def _diagonal_run(cells: list[int], n: int) -> bool:
    steps = {(b // n - a // n, b % n - a % n) for a, b in zip(cells, cells[1:])}
    return len(steps) == 1 and next(iter(steps)) in set(_STEPS.values())


def _sum(reader, item: Item) -> list[dict]:
    """sigh's Sum (repeats allowed, coefficients optional): the forms satdoku has a rule for."""
    spec = item.args[0] if item.args else ""
    head, *coeff_text = spec.split("_")
    total = _int(head, item, "the sum")
    cells = [reader.cell(t, item) for t in item.args[1:]]
    coeffs = [1] * len(cells)
    if coeff_text:
        if coeff_text[0] != "=" or len(coeff_text) - 1 != len(cells):
            raise Bad(f"{_where(item)}: coefficients '_=_a_b...' must be one a cell")
        coeffs = [_int(c, item, "a coefficient") for c in coeff_text[1:]]
    name, n = reader.geo.cell_name, reader.geo.width
    if all(c == 1 for c in coeffs) and len(set(cells)) == len(cells) and total >= 1:
        if any(set(cells) <= set(house) for house in reader.geo.houses):
            return [{"type": "killer", "cells": [name(c) for c in cells], "sum": total}]
        if _diagonal_run(cells, n):
            return [{"type": "little-killer", "cells": [name(c) for c in cells], "sum": total}]
    k = next((k for k in (2, 3) if coeffs[:k] == [-10 ** (k - 1 - i) for i in range(k)]), 0)
    if total == 0 and k and all(c == 1 for c in coeffs[k:]) and len(cells) > k \
            and len(set(cells)) == len(cells):
        return [{"type": "arrow", "circle": [name(c) for c in cells[:k]],
                 "cells": [name(c) for c in cells[k:]]}]
    rule: dict = {"type": "sum", "cells": [name(c) for c in cells], "sum": total}
    if any(c != 1 for c in coeffs):
        rule["weights"] = coeffs
    return [rule]


def _quad(reader, item: Item) -> list[dict]:
    top = reader.cell(item.args[0] if item.args else "", item)
    n = reader.geo.width
    if top % n == n - 1 or top // n == reader.geo.height - 1:
        raise Bad(f"{_where(item)}: no 2x2 square starts there", reader.geo.cell_name(top))
    cells = [top, top + 1, top + n, top + n + 1]
    return [{"type": "quadruple", "cells": [reader.geo.cell_name(c) for c in cells],
             "digits": [_int(v, item, "a value") for v in item.args[1:]]}]


def _same_values(reader, item: Item) -> list[dict]:
    sets = _int(item.args[0] if item.args else "", item, "the number of sets")
    regions = [t[2:] for t in item.args[1:] if t[:2] == "CC" and t[2:].isdigit()]
    if regions and len(regions) == len(item.args) - 1 == sets and "chaos" in CONSTRAINTS:
        # the chaos regions of these cells are the same: one region holds them all
        cells = [int(k) - 1 for k in regions]
        if not all(0 <= c < reader.geo.ncells for c in cells):
            raise Bad(f"{_where(item)}: a chaos region cell (CC1..CC{reader.geo.ncells}) is "
                      "out of range")
        reader.together.append(cells)
        return []
    names = _names(reader, item, item.args[1:])
    if sets < 2 or len(names) % sets:
        raise Bad(f"{_where(item)}: {len(names)} cells do not split into {sets} sets")
    if len(names) != sets:  # sets of several cells: the same values, each as often
        k = len(names) // sets
        return [{"type": "same-values", "sets": [names[i:i + k] for i in range(0, len(names), k)]}]
    return [{"type": "clone", "cells": names[:-1], "clone": names[1:]}]


def _indexing(reader, item: Item) -> list[dict]:
    kind = {"C": "column-indexer", "R": "row-indexer"}.get(item.args[0] if item.args else "")
    if kind is None:
        raise Bad(f"{_where(item)}: indexing is 'C' (columns) or 'R' (rows)")
    return [{"type": kind, "cells": _names(reader, item, item.args[1:])}]


def _diagonal(reader, item: Item) -> list[dict]:
    direction = {"1": "+", "-1": "-"}.get(item.args[0] if item.args else "")
    if direction is None:
        raise Bad(f"{_where(item)}: a diagonal is 1 (╱) or -1 (╲)")
    return [{"type": "diagonal", "direction": direction}]


def _entropic(reader, item: Item) -> list[dict]:
    if reader.size != 9:
        raise Bad(f"{_where(item)}: sigh's entropic lines need the values 1-9")
    return _cells_rule("entropic")(reader, item)


def _groups(items: list[str]) -> list[list[str]]:
    """The cell groups of a grouped item: ``~~`` ends a group, ``~_name`` starts one."""
    groups: list[list[str]] = [[]]
    for token in items:
        if not token or token.startswith("_"):
            groups.append([])
        else:
            groups[-1].append(token)
    return [g for g in groups if g]


def _regex(reader, item: Item) -> list[dict]:
    token = item.args[0] if item.args else ""
    try:
        if "%" in token or "." in token:
            pattern = unquote(token)
        else:
            pattern = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode("latin-1")
    except ValueError:
        raise Bad(f"{_where(item)}: {token!r} is not a pattern in base64") from None
    pattern = "".join(pattern.split())
    return [{"type": "regex", "cells": _names(reader, item, group), "pattern": pattern}
            for group in _groups(item.args[1:])]


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def decode_pairs(key: str, n: int) -> list[list[int]]:
    """The digit pairs [a, b] a sigh pair key allows (6 bits a symbol, a before b, low first).

    >>> decode_pairs("g", 2), decode_pairs("C", 2)
    ([], [[1, 2]])
    """
    bits = []
    for ch in key:
        if ch not in _B64:
            raise ValueError(f"{key!r} is not a sigh pair key")
        value = _B64.index(ch)
        bits += [(value >> k) & 1 for k in range(6)]
    return [[a, b] for a in range(1, n + 1) for b in range(1, n + 1)
            if (i := (a - 1) * n + b - 1) < len(bits) and bits[i]]


def _pair(every: bool, legacy: bool = False) -> Callable:
    def read(reader, item: Item) -> list[dict]:
        key = item.args[0] if item.args else ""
        if legacy:  # sigh's Binary keys swap '-' and '_'
            key = key.translate(str.maketrans("-_", "_-"))
        try:
            shift = reader.geo.low - 1  # sigh's bits count from the lowest value
            pairs = [[a + shift, b + shift] for a, b in decode_pairs(key, reader.size)]
        except ValueError as exc:
            raise Bad(f"{_where(item)}: {exc}") from None
        symmetric = all([b, a] in pairs for a, b in pairs)
        out = []
        for group in _groups(item.args[1:]):
            names = _names(reader, item, group)
            if not every:
                out.append({"type": "pair", "cells": names, "pairs": pairs})
            elif symmetric:
                out.append({"type": "pair", "cells": names, "pairs": pairs, "between": "all"})
            else:  # each earlier cell against each later one, in that order
                out += [{"type": "pair", "cells": [a, b], "pairs": pairs}
                        for i, a in enumerate(names) for b in names[i + 1:]]
        return out
    return read


def _given(reader, item: Item) -> list[dict]:
    """Givens inside a composite: each cell's values as a ``candidates`` rule."""
    out = []
    for token in item.args:
        cell_text, *values = token.split("_")
        cell = reader.geo.cell_name(reader.cell(cell_text, item))
        out.append({"type": "candidates", "cells": [cell],
                    "digits": sorted({_int(v, item, "a value") for v in values})})
    return out
