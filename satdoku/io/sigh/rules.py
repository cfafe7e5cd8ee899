"""The table of sigh item readers, :data:`RULES`: sigh type -> a function of (reader, item)
giving satdoku rule objects. A type whose satdoku rule is not registered counts as missing
(:mod:`.read`)."""

from __future__ import annotations

from typing import Any, Callable

from .types import (Bad, Item, _all_different, _arrow, _both_ends, _cage, _cells_rule, _diagonal,
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
