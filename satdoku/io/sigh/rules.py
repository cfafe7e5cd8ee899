"""The table of sigh item readers, :data:`RULES`: sigh type -> a function of (reader, item)
giving satdoku rule objects. A type whose satdoku rule is not registered counts as missing
(:mod:`.read`)."""

from __future__ import annotations

from typing import Any, Callable

from ...rules.machine import MAX_STATES
from .nfa import decode_machine
from .types import (Bad, Item, Missing, _groups, _all_different, _arrow, _both_ends, _cage, _cells_rule, _diagonal,
                    _entropic, _given, _global, _indexing, _little_killer, _names, _pair,
                    _pairwise, _pill_arrow, _quad, _regex, _same_values, _sandwich, _sum,
                    _where, _with_number)

__all__ = ["RULES"]


def _number_and_cells(kind: str, key: str, parse: Callable[[str], Any]) -> Callable:
    """An item ``~value~cells...`` (a cage's sum, a look-and-say clue, listed values)."""
    def read(reader, item: Item) -> list[dict]:
        if not item.args:
            raise Bad(f"{_where(item)}: no {key}")
        try:
            value = parse(item.args[0])
        except ValueError:
            raise Bad(f"{_where(item)}: bad {key} {item.args[0]!r}") from None
        return [{"type": kind, "cells": _names(reader, item, item.args[1:]), key: value}]
    return read


def _count_distinct(reader, item: Item) -> list[dict]:
    names = _names(reader, item, item.args)
    return [{"type": "count-distinct", "control": names[:1], "cells": names[1:]}]


def _equal_sum(reader, item: Item) -> list[dict]:
    segments: list[list[str]] = [[]]
    for token in item.args:
        if token == "-":  # sigh's segment separator
            segments.append([])
        else:
            segments[-1].append(reader.geo.cell_name(reader.cell(token, item)))
    return [{"type": "equal-sum", "segments": segments}]


def _ties(reader, item: Item) -> list[dict]:
    return [{"type": "full-rank-ties", "ties": item.args[0] if item.args else "only-unclued"}]


def _nfa(reader, item: Item) -> list[dict]:
    """sigh's state machine on each of its lines (a line of several segments, which sigh reads
    with a break symbol between them: :func:`_unbroken`)."""
    try:
        machine = decode_machine(item.args[0] if item.args else "")
    except ValueError as exc:
        raise Bad(f"{_where(item)}: {exc}") from None
    if machine.states > MAX_STATES:
        raise Missing(f"NFA (over {MAX_STATES} states)")
    moves: dict[tuple[int, int], list[int]] = {}
    for a, b, symbol in machine.moves:
        if symbol <= reader.size:  # past N: sigh's break between segments
            moves.setdefault((a, b), []).append(symbol + reader.geo.low - 1)  # a value
    rule = {"type": "nfa", "states": [f"s{i}" for i in range(machine.states)],
            "start": [f"s{i}" for i in machine.start],
            "accepting": [f"s{i}" for i in machine.accepting],
            "transitions": [{"from": f"s{a}", "to": f"s{b}", "digits": sorted(ds)}
                            for (a, b), ds in moves.items()]}
    out = []
    for group in _groups(item.args[1:]):
        if "-" not in group:
            out.append({**rule, "cells": _names(reader, item, group)})
            continue
        segments = "~".join(group).split("-")  # (an empty one still reads its break)
        cells = [_names(reader, item, [t for t in s.split("~") if t]) if s.strip("~") else []
                 for s in segments]
        out.append({**_unbroken(machine, reader.size, [len(c) for c in cells],
                                reader.geo.low), "cells": sum(cells, [])})
    return out


def _unbroken(machine, n: int, lengths: list[int], low: int = 1) -> dict:
    """sigh's machine over segments of ``lengths`` (it reads a break symbol, N+1, between
    them) as a machine over their cells in a row: its states are (state, position), those
    the start reaches, the breaks read at a position taken with the move that reaches it."""
    breaks = [0] * (sum(lengths) + 1)  # breaks read once so many cells are read
    total = 0
    for k in lengths[:-1]:
        total += k
        breaks[total] += 1
    total += lengths[-1]
    moves: dict[int, list[tuple[int, int]]] = {}
    for a, b, symbol in machine.moves:
        moves.setdefault(a, []).append((b, symbol))

    def broken(qs: set[int], times: int) -> set[int]:
        for _ in range(times):
            qs = {c for q in qs for c, e in moves.get(q, []) if e == n + 1}
        return qs
    start = broken(set(machine.start), breaks[0])
    layer, states = start, [(q, 0) for q in sorted(start)]
    steps: dict[tuple[tuple[int, int], tuple[int, int]], list[int]] = {}
    for pos in range(total):
        nxt = set()
        for q in sorted(layer):
            for b, d in moves.get(q, []):
                for c in (broken({b}, breaks[pos + 1]) if d <= n else ()):
                    steps.setdefault(((q, pos), (c, pos + 1)), []).append(d)
                    nxt.add(c)
        layer = nxt
        states += [(q, pos + 1) for q in sorted(layer)]
        if len(states) > MAX_STATES:
            raise Missing(f"NFA (over {MAX_STATES} states once its segments are read)")
    name = "s{}@{}".format
    return {"type": "nfa", "states": [name(*s) for s in states],
            "start": [name(q, 0) for q in sorted(start)],
            "accepting": [name(q, total) for q in sorted(layer & set(machine.accepting))],
            "transitions": [{"from": name(*a), "to": name(*b),
                             "digits": sorted({d + low - 1 for d in ds})}  # values
                            for (a, b), ds in steps.items()]}


def _chaos_clue(reader, item: Item) -> list[dict]:
    """sigh's ChaosArrow and ChaosCount: a clue of the chaos rule (its region variables), kept
    on the reader as ``together`` is. Arms (split by ``-``) or counted cells are region cells
    ``CC1``.. or grid cells; none: the four lines from the clue cell (an arrow), or its 3x3
    neighbourhood, itself first (a count)."""
    if not reader.chaos:
        raise Missing(f"{item.type} (without ChaosConstruction)")
    geo = reader.geo
    cell = reader.cell(item.args[0] if item.args else "", item)
    offset = item.args[1] if len(item.args) > 1 else ""
    if offset not in ("", "0", "1"):
        raise Bad(f"{_where(item)}: the offset is 0 or 1, not {offset!r}")

    def region_cell(token: str) -> int:
        if token[:2] == "CC" and token[2:].isdigit() and 1 <= int(token[2:]) <= geo.ncells:
            return int(token[2:]) - 1
        return reader.cell(token, item)
    arms: list[list[int]] = [[]]
    for token in item.args[2:]:
        if token == "-":
            arms.append([])
        elif token:
            arms[-1].append(region_cell(token))
    arms = [arm for arm in arms if arm]
    r, c = divmod(cell, geo.width)
    inside = range(geo.height), range(geo.width)
    if not arms and item.type == "ChaosArrow":
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            steps = range(max(geo.height, geo.width))
            arms.append([(r + k * dr) * geo.width + c + k * dc for k in steps
                         if r + k * dr in inside[0] and c + k * dc in inside[1]])
    elif not arms:
        arms = [[cell] + [(r + dr) * geo.width + c + dc for dr, dc in (
            (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
            if r + dr in inside[0] and c + dc in inside[1]]]
    name = geo.cell_name
    if item.type == "ChaosArrow":
        if len({arm[0] for arm in arms}) > 1:
            raise Bad(f"{_where(item)}: the arms must start on one cell")
        clue = {"cell": name(cell), "arms": [[name(c) for c in arm] for arm in arms]}
    else:
        clue = {"cell": name(cell), "cells": [name(c) for c in arms[0] + sum(arms[1:], [])]}
    if offset == "1":
        clue["offset"] = 1
    reader.clues["arrows" if item.type == "ChaosArrow" else "counts"].append(clue)
    return []


def _connected(reader, item: Item) -> list[dict]:
    """sigh's ConnectedValues over the grid (its group prefix empty; a group of named cells
    is Var's): the cells holding the values connect, ``size`` of them when given."""
    prefix, values, size = (item.args + ["", "", ""])[:3]
    names, columns = reader.groups.get(prefix, (None, 0)) if prefix else (None, 0)
    if prefix and names is None:
        raise Bad(f"{_where(item)}: no Var group {prefix!r}")
    if prefix and not columns:
        raise Missing("ConnectedValues (over a Var group of a count, not RxC)")
    try:
        digits = sorted(set(_values(values)))
    except ValueError:
        raise Bad(f"{_where(item)}: bad values {values!r}") from None
    rule: dict = {"type": "connected-values", "digits": digits}
    if names:
        rule.update(cells=names, columns=columns)
    if size:
        rule["size"] = int(size) if size.isdigit() else size
    return [rule]


def _values(text: str) -> list[int]:
    return [int(v) for v in text.split("_")]


RULES: dict[str, Callable[..., list[dict]]] = {
    "CountingCircles": _cells_rule("counting-circles"), "CountDistinct": _count_distinct,
    "ContainAtLeast": _number_and_cells("contain-at-least", "digits", _values),
    "ContainExact": _number_and_cells("contain-exact", "digits", _values),
    "LookAndSay": _number_and_cells("look-and-say", "clue", str),
    "Lunchbox": _number_and_cells("lunchbox", "sum", int),
    "RellikCage": _number_and_cells("rellik-cage", "sum", int),
    "EqualityCage": _cells_rule("equality-cage"), "EqualSum": _equal_sum,
    "ValueIndexing": _cells_rule("value-indexing"),
    "NumberedRoom": _both_ends("numbered-room", "digit"),
    "HiddenSkyscraper": _both_ends("hidden-skyscraper", "digit"),
    "FullRank": _both_ends("full-rank", "rank"), "FullRankTies": _ties,
    "GlobalEntropy": _global("global-entropy"), "GlobalMod": _global("global-mod"),
    "AntiTaxicab": _global("anti-taxicab"), "DutchFlatmates": _global("dutch-flatmates"),
    "Doppelganger": _global("doppelganger"),
    "NFA": _nfa, "ChaosArrow": _chaos_clue, "ChaosCount": _chaos_clue,
    "ConnectedValues": _connected, "RegionSameValues": _global("region-same-values"),
    "Given": _given,
    "Thermo": _cells_rule("thermometer"), "Renban": _cells_rule("renban"),
    "Palindrome": _cells_rule("palindrome"), "Between": _cells_rule("between"),
    "Zipper": _cells_rule("zipper"), "RegionSumLine": _cells_rule("region-sum"),
    "DoubleArrow": _cells_rule("double-arrow"), "GreaterThan": _cells_rule("greater-than"),
    "Entropic": _entropic, "AllDifferent": _all_different, "Arrow": _arrow,
    "PillArrow": _pill_arrow, "Cage": _cage, "Sum": _sum, "Quad": _quad,
    "SameValues": _same_values, "Indexing": _indexing, "Diagonal": _diagonal,
    "WhiteDot": _pairwise("kropki-white"), "BlackDot": _pairwise("kropki-black"),
    "X": _pairwise("xv", sum=10), "V": _pairwise("xv", sum=5),
    "Whisper": _with_number("german-whispers", "difference", default=5),
    "Lockout": _with_number("lockout", "difference"),
    "Modular": _with_number("modular", "mod"), "SumLine": _with_number("sum-line", "sum"),
    "LittleKiller": _little_killer, "Sandwich": _sandwich,
    "XSum": _both_ends("x-sum", "sum"), "Skyscraper": _both_ends("skyscraper", "count"),
    "Regex": _regex, "Pair": _pair(False), "PairX": _pair(True),
    "Binary": _pair(False, legacy=True), "BinaryX": _pair(True, legacy=True),
    "AntiKnight": _global("anti-knight"), "AntiKing": _global("anti-king"),
    "AntiConsecutive": _global("non-consecutive"), "DisjointSets": _global("disjoint-groups"),
    "Windoku": _global("windoku"), "StrictKropki": _global("no-kropki"),
    "StrictXV": _global("no-xv"),
}
