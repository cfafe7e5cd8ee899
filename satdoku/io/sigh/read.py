"""Reading a sigh constraint string: its items, its grid (shape, boxes, jigsaw), its givens, and
each rule by the table of :mod:`.types`; see the package docstring for the glossary."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ...errors import PuzzleError, Where
from ...model.geometry import MAX_VALUE, Geometry, shaped, sigh_box
from ...model.outside import with_extra
from ...records import field, record
from ...rules import CONSTRAINTS, constraint_from_json
from ..variant import grid_fields
from .rules import RULES
from .types import (_B64, COMPOSITES, MISSING, NOTES, SIGH_TYPES, Bad, Missing, Item, cell_index,
                    sigh_cell)

__all__ = ["MISSING", "SIGH_TYPES", "SighReading", "looks_like_sigh", "parse_items", "read_sigh",
           "convert_sigh"]

#: A string of items: each a dot, a type (empty for givens), and its ``~`` arguments.
_ITEMS = re.compile(r"(?:\.[A-Za-z]*(?:~[^.~]*)*)+")
_DIMS = re.compile(r"(\d+)x(\d+)")
_CELL = re.compile(r"[Rr][1-9a-gA-G][Cc][1-9a-gA-G]")
_RANGE = re.compile(r"(\d+)(?:-(\d+))?")
_LAYOUT_TYPES = ("Shape", "NoBoxes", "Jigsaw", "RegionSize", "ChaosConstruction", "Var")
_VAR_SIZE = re.compile(r"(?:([1-9]\d*)x)?([1-9]\d*)")


def looks_like_sigh(text: str) -> bool:
    """Whether ``text`` is a sigh constraint string (whitespace aside): items ``.Type~arg``.

    >>> looks_like_sigh(".Shape~6x6.Thermo~R1C1~R1C2"), looks_like_sigh(".~R1C1_5")
    (True, True)
    >>> looks_like_sigh("..3.5...1" * 9), looks_like_sigh("{.~}")
    (False, False)
    """
    body = "".join(text.split())
    return body.startswith(".") and "~" in body and _ITEMS.fullmatch(body) is not None


def parse_items(text: str) -> list[Item]:
    """The top-level items of a constraint string, composites holding their children.

    Raises:
        Bad: an unknown type, an unmatched ``.End`` or an unterminated composite.

    >>> [(i.number, i.type, i.args) for i in parse_items(".Shape~4x4.~R1C1_2")]
    [(1, 'Shape', ['4x4']), (2, 'Given', ['R1C1_2'])]
    """
    body = "".join(text.split())
    first, *raw = body.split(".")
    if first:
        raise Bad("a sigh constraint string starts with '.'")
    root: list[Item] = []
    stack: list[list[Item]] = [root]
    open_items: list[Item] = []
    for number, part in enumerate(raw, 1):
        kind, *args = part.split("~")
        kind = kind or "Given"
        if kind == "End":
            if not open_items:
                raise Bad(f"sigh item {number} (.End): no composite to end")
            stack.pop()
            open_items.pop()
            continue
        if kind not in SIGH_TYPES:
            raise Bad(f"sigh item {number}: unknown constraint type {kind!r}")
        item = Item(number, kind, args, [] if kind in COMPOSITES else None)
        stack[-1].append(item)
        if item.children is not None:
            stack.append(item.children)
            open_items.append(item)
    if open_items:
        item = open_items[-1]
        raise Bad(f"sigh item {item.number} (.{item.type}): no .End closes it")
    return root


@record
class SighReading:
    """A string read: its ``document`` (None when the grid itself is one satdoku cannot
    hold), the sigh types satdoku lacks with how many items use each (``missing``), and what
    was left out that carries no rule (``notes``)."""

    document: dict | None
    missing: Counter = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)


class _Layout:
    """The grid of the top-level layout items: its shape and values, boxes or regions, the
    jigsaw pieces that stay extra regions."""

    def __init__(self, items: list[Item], missing: Counter) -> None:
        by_type: dict[str, list[Item]] = {}
        for item in items:
            by_type.setdefault(item.type, []).append(item)
        self.rows, self.cols, self.values, self.low = self._shape(by_type.get("Shape", []),
                                                                  missing)
        self.boxes = "NoBoxes" not in by_type
        self.chaos = "ChaosConstruction" in by_type  # regions the solver draws
        if self.chaos and (self.boxes or "Jigsaw" in by_type):
            missing["ChaosConstruction (beside boxes or a jigsaw)"] += 1
        self.region = max(self.rows, self.cols)  # sigh's RegionSize: boxes' and pieces' cells
        for item in by_type.get("RegionSize", [])[:1]:
            size = item.args[0] if len(item.args) == 1 else ""
            if not size.isdigit() or not self.region <= int(size) <= self.values:
                raise Bad(f"sigh item {item.number} (.RegionSize): {'~'.join(item.args)!r} is "
                          f"not a region size {self.region}..{self.values}")
            self.region = int(size)
        if self.chaos and (self.region != self.values or self.rows != self.cols):
            missing[f"ChaosConstruction (regions of {self.region} cells, "
                    f"{self.values} values)"] += 1
        self.pieces: list[list[int]] = []
        if not missing:
            for item in by_type.get("Jigsaw", []):
                self.pieces += self._jigsaw(item)
        self.box = sigh_box(self.rows, self.cols, self.region) if self.boxes else None
        self.groups = dict(self._var(item) for item in by_type.get("Var", []))  # VA: names, cols
        self.extra = [name for names, _ in self.groups.values() for name in names]
        self.as_regions = self.box is None and not self.chaos and bool(self.pieces) and \
            self._tiling(self.pieces)
        if not self.as_regions and any(len(p) != self.values for p in self.pieces):
            missing["Jigsaw (pieces of fewer cells than values, not tiling the grid)"] += 1

    @staticmethod
    def _shape(items: list[Item], missing: Counter) -> tuple[int, int, int, int]:
        """The grid's rows, columns, how many values, and the lowest (``9x9~0-8``: 9, 9, 9,
        0; ``6x6~9``: 6, 6, 9, 1)."""
        if not items:
            return 9, 9, 9, 1
        item = items[0]
        dims, rng, kind = (item.args + ["", ""])[:3]
        m = _DIMS.fullmatch(dims)
        if not m or not 1 <= int(m.group(1)) <= 16 or not 1 <= int(m.group(2)) <= 16:
            raise Bad(f"sigh item {item.number} (.Shape): {'~'.join(item.args)!r} is not a "
                      "shape like 9x9 (1 to 16 rows and columns)")
        rows, cols = int(m.group(1)), int(m.group(2))
        r = _RANGE.fullmatch(rng) if rng else None
        if rng and r is None:
            raise Bad(f"sigh item {item.number} (.Shape): bad value range {rng!r}")
        low, high = 1, max(rows, cols)
        if r is not None:  # "0-8": values 0..8; a bare "9": values 1..9
            low = int(r.group(1)) if r.group(2) is not None else 1
            high = int(r.group(2)) if r.group(2) is not None else int(r.group(1))
        if high - low + 1 < max(rows, cols) or not 0 <= low <= 1 or high > MAX_VALUE:
            raise Bad(f"sigh item {item.number} (.Shape): values {low}-{high} do not fill a "
                      f"{rows}x{cols} grid (from 0 or 1, {max(rows, cols)} or more, up to "
                      f"{MAX_VALUE})")
        if kind not in ("", "Sudoku"):
            missing[f"Shape ({kind} grid)"] += 1
        return rows, cols, high - low + 1, low

    def _jigsaw(self, item: Item) -> list[list[int]]:
        """sigh's pieces: those of ``RegionSize`` cells (one piece of another size is left
        out, as sigh leaves it out of a partly drawn layout)."""
        layout = item.args[-1] if 1 <= len(item.args) <= 2 else None
        cells = self.rows * self.cols
        if layout is None or len(layout) != cells:
            raise Bad(f"sigh item {item.number} (.Jigsaw): the layout must have {cells} "
                      f"symbols, one a cell")
        pieces: dict[str, list[int]] = {}
        for cell, ch in enumerate(layout):
            pieces.setdefault(ch, []).append(cell)
        if len(pieces) == 1:
            return []
        odd = [p for p in pieces.values() if len(p) != self.region]
        if len(odd) > 1:
            raise Bad(f"sigh item {item.number} (.Jigsaw): pieces of {len(odd[1])} cells (every "
                      f"piece but one must have {self.region})")
        return [p for p in pieces.values() if len(p) == self.region]

    @staticmethod
    def _var(item: Item) -> tuple[str, tuple[list[str], int]]:
        """A ``Var`` group: its name (``VA``), its cells' names as sigh names them (``VA`` for
        a group of one, ``VA1``, ``VA2``... in reading order of an ``RxC`` group; a size that
        is neither a count nor ``RxC`` means one cell, as in sigh) and its columns (C, or 0)."""
        prefix, _label, size = (item.args + ["", "", ""])[:3]
        if not re.fullmatch(r"[A-Z]+", prefix):
            raise Bad(f"sigh item {item.number} (.Var): the prefix {prefix!r} must be upper-case "
                      "letters A-Z")
        m = _VAR_SIZE.fullmatch(size)
        count = (int(m.group(1) or 1) * int(m.group(2))) if m else 1
        if count > 4096:
            raise Bad(f"sigh item {item.number} (.Var): {count} cells is more than 4096")
        columns = int(m.group(2)) if m and m.group(1) else 0
        names = [f"V{prefix}"] if count == 1 else [f"V{prefix}{n}" for n in range(1, count + 1)]
        return f"V{prefix}", (names, columns)

    def _tiling(self, pieces: list[list[int]]) -> bool:
        return sorted(c for p in pieces for c in p) == list(range(self.rows * self.cols))

    def grid(self) -> tuple[Geometry, dict[str, Any], list[list[int]]]:
        """The satdoku geometry, its document fields, and the pieces that stay extra regions
        (beside boxes, or not tiling the grid)."""
        h, w, k, low = self.rows, self.cols, self.values, self.low
        extra: list[list[int]]
        try:
            if self.chaos:
                geo, extra = shaped(h, w, k, low=low), []
            elif self.as_regions:
                geo, extra = shaped(h, w, k, regions=self.pieces, low=low), []
            else:  # sigh's boxes (boxDimsForSize), if any tile the grid
                geo, extra = shaped(h, w, k, box=self.box, low=low), self.pieces
            geo = with_extra(geo, self.extra)
        except ValueError as exc:
            raise Bad(f"sigh's layout: {exc}") from None
        return geo, grid_fields(geo), extra


def _refusal(rule: dict, geo: Geometry) -> str | None:
    """Why satdoku cannot state a rule object on this grid (its composites' parts too)."""
    refused = CONSTRAINTS[rule["type"]].refusal(geo)
    if refused is not None:
        return refused[0]
    return next((r for part in rule.get("rules", []) if (r := _refusal(part, geo))), None)


class _Reader:
    """One string being read: the givens and rules so far, and what satdoku lacks."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self.size = geo.size
        self.givens: dict[int, set[int]] = {}
        self.together: list[list[int]] = []  # chaos: groups of cells in one region
        self.chaos = False  # the grid's regions are the solver's (ChaosConstruction)
        self.groups: dict[str, tuple[list[str], int]] = {}  # Var groups: names, columns
        self.clues: dict[str, list[dict]] = {"arrows": [], "counts": []}  # chaos clues
        self.missing: Counter = Counter()
        self.notes: list[str] = []

    def cell(self, token: str, item: Item) -> int:
        """The cell of a sigh cell id: ``R3C7``, or a ``Var`` cell's name (``VA1``)."""
        if token in self.geo.extra_cell:
            return self.geo.extra_cell[token]
        return cell_index(token, self.geo.height, self.geo.width, item)

    def rules(self, item: Item, top: bool) -> list[dict]:
        """The satdoku rules of one item (givens at the top level are kept apart)."""
        if item.type in NOTES:
            self.notes.append(f"{item.type} ({NOTES[item.type]})")
            return []
        if item.type == "Given" and top:
            self._givens(item)
            return []
        if item.children is not None:
            return self._composite(item, top)
        if item.type in MISSING:
            raise Missing(item.type)
        handler = RULES.get(item.type)
        if handler is None:
            raise Bad(f"sigh item {item.number} (.{item.type}) belongs to the grid's layout "
                      "and cannot go inside a composite")
        rules = handler(self, item)
        if any(rule["type"] not in CONSTRAINTS for rule in rules):
            raise Missing(item.type)  # a satdoku rule type this build does not have
        for rule in rules:
            refused = _refusal(rule, self.geo)
            if refused is not None:
                raise Missing(f"{item.type} ({refused})")
        return rules

    def _composite(self, item: Item, top: bool) -> list[dict]:
        """An ``Or`` of its children's rules; ``And`` and ``Replicate`` (unconditional, as in
        sigh's builder: their givens are givens at the top level) their rules."""
        children = item.children or []
        if item.type == "Replicate":
            children = [shifted for target in self._targets(item)
                        for child in children for shifted in [self._shift(child, *target)]]
        elif item.type not in ("Or", "And", "Container"):
            raise Missing(item.type)
        if item.type != "Or":
            return [rule for child in children for rule in self.rules(child, top)]
        parts = []
        for child in children:
            rules = self.rules(child, top=False)
            if len(rules) != 1:
                rules = [{"type": "and", "rules": rules}] if rules else []
            parts += rules
        if len(parts) < 2:
            return parts
        return [{"type": "or", "rules": parts}]

    def _layer(self, token: str, item: Item) -> tuple[list[str] | None, int, int]:
        """Where a cell lies for Replicate: its layer (None: the grid; else its ``Var``
        group's names), the layer's width (a group's columns, or one row), its place there."""
        cell = self.cell(token, item)
        if cell < self.geo.ngrid:
            return None, self.geo.width, cell
        names, columns = next(g for g in self.groups.values() if token in g[0])
        return names, columns or len(names), names.index(token)

    def _targets(self, item: Item) -> list[tuple[int, int]]:
        """sigh's Replicate targets as (rows, columns) from its origin: a bitset, six bits a
        symbol, bit i the cell i cells after the origin in reading order (of its layer: the
        grid, or a ``Var`` group's rows)."""
        key, origin = (item.args + ["", "R1C1"])[:2]
        names, width, start = self._layer(origin or "R1C1", item)
        out = []
        for i, ch in enumerate(key):
            if ch not in _B64:
                raise Bad(f"sigh item {item.number} (.Replicate): {key!r} is not a bitset")
            out += [divmod(start + 6 * i + k, width) for k in range(6)
                    if _B64.index(ch) >> k & 1]
        last = self.geo.ngrid if names is None else len(names)
        if any(cell >= last for cell in (r * width + c for r, c in out)):
            raise Bad(f"sigh item {item.number} (.Replicate): a target is past the last cell")
        row, col = divmod(start, width)
        return [(r - row, c - col) for r, c in out]

    def _shift(self, item: Item, rows: int, cols: int) -> Item:
        """A copy of ``item`` (children too) with every cell moved ``rows`` down and ``cols``
        right (a ``Var`` cell within its group's rows), as sigh's makeShifted moves them."""
        def move(token: str) -> str:
            head, sep, tail = token.partition("_")
            if not _CELL.fullmatch(head) and head not in self.geo.extra_cell:
                return token
            names, width, place = self._layer(head, item)
            r, c = divmod(place, width)
            r, c = r + rows, c + cols
            height = self.geo.height if names is None else -(-len(names) // width)
            if not (0 <= r < height and 0 <= c < width) or names and r * width + c >= len(names):
                raise Bad(f"sigh item {item.number} (.{item.type}): replicated, {token} "
                          f"leaves the {'grid' if names is None else 'group'}")
            if names is not None:
                return names[r * width + c] + sep + tail
            return sigh_cell(r * self.geo.width + c, self.geo.width) + sep + tail
        children = None if item.children is None else \
            [self._shift(child, rows, cols) for child in item.children]
        return Item(item.number, item.type, [move(a) for a in item.args], children)

    def _givens(self, item: Item) -> None:
        for token in item.args:
            cell_text, *values = token.split("_")
            cell = self.cell(cell_text, item)
            digits = set()
            for value in values:
                if not value.isdigit() or not self.geo.low <= int(value) <= self.geo.high:
                    raise Bad(f"sigh item {item.number} (.{item.type}): {value!r} is not a "
                              f"value {self.geo.values_text}", self.geo.cell_name(cell))
                digits.add(int(value))
            self.givens[cell] = self.givens.get(cell, digits) & digits
            if not self.givens[cell]:
                raise Bad(f"sigh item {item.number}: no value is left for the cell",
                          self.geo.cell_name(cell))

    def given_fields(self) -> tuple[dict[str, int], list[dict]]:
        """The givens, and a ``candidates`` rule for each set of cells with the same values."""
        givens: dict[str, int] = {}
        sets: dict[tuple[int, ...], list[str]] = {}
        for cell in sorted(self.givens):
            digits = self.givens[cell]
            if len(digits) == 1:
                givens[self.geo.cell_name(cell)] = next(iter(digits))
            elif len(digits) < self.size:
                sets.setdefault(tuple(sorted(digits)), []).append(self.geo.cell_name(cell))
        return givens, [{"type": "candidates", "cells": cells, "digits": list(digits)}
                        for digits, cells in sets.items()]


def read_sigh(text: str) -> SighReading:
    """A constraint string as a satdoku variant document, without refusing what is missing.

    Raises:
        Bad: (a ValueError) what makes the string no puzzle: a bad cell, value or argument,
            naming the item and the cell.

    >>> r = read_sigh(".Shape~4x4.Cage~~R1C1~VA2.~R1C1_2.Var~A~~2")
    >>> r.document["extra-cells"], r.document["givens"], r.document["constraints"]
    (['VA1', 'VA2'], {'r1c1': 2}, [{'type': 'killer', 'cells': ['r1c1', 'VA2'], 'sum': None}])
    """
    items = parse_items(text)
    missing: Counter = Counter()
    layout = _Layout(items, missing)
    if missing:
        return SighReading(None, missing)
    geo, grid_fields, extra = layout.grid()
    reader = _Reader(geo)
    reader.chaos, reader.groups = layout.chaos, layout.groups
    constraints: list[dict] = [{"type": "extra-region",
                                "cells": [geo.cell_name(c) for c in piece]} for piece in extra]
    for item in items:
        if item.type in _LAYOUT_TYPES:
            continue
        try:
            rules = reader.rules(item, top=True)
        except Missing as gap:
            reader.missing[gap.kind] += 1
            continue
        for rule in rules:
            try:
                constraint_from_json(rule, geo)
            except ValueError as exc:
                raise Bad(f"sigh item {item.number} (.{item.type}): {exc}") from None
        constraints += rules
    if layout.chaos:
        constraints.append({"type": "chaos", "together": [
            [geo.cell_name(c) for c in group] for group in reader.together],
            **{key: clues for key, clues in reader.clues.items() if clues}})
    givens, candidates = reader.given_fields()
    refused = _refusal({"type": "candidates"}, geo) if candidates else None
    if refused is not None:
        reader.missing[f"Given (candidates {refused})"] += 1
    document = {**grid_fields, "givens": givens,
                "constraints": candidates + constraints}
    return SighReading(document, reader.missing, reader.notes)


def convert_sigh(text: str, source: str | None = None, *, ignore_unknown: bool = False,
                 line: int | None = None):
    """A constraint string as a :class:`~satdoku.io.fpuzzles.Conversion` (the reader of the
    ``sigh`` form of :mod:`satdoku.io.forms`).

    Raises:
        PuzzleError: a bad string (naming the item and the cell), a grid satdoku cannot hold,
            and, without ``ignore_unknown``, the sigh types satdoku lacks, all named.

    >>> convert_sigh(".AntiKnight.~R1C1_5").document["constraints"]
    [{'type': 'anti-knight'}]
    >>> convert_sigh(".Thermo~R1C1~R1C0", "p.txt", line=3)
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: p.txt:3: sigh item 1 (.Thermo): 'R1C0' is not a cell of the \
9x9 grid
    """
    from ..fpuzzles import Conversion
    where: Where = {"source": source, "line": line}
    try:
        reading = read_sigh(text)
    except Bad as exc:
        raise PuzzleError(str(exc), cell=exc.cell, **where) from None
    named = "; ".join(f"sigh's {kind}" + (f" ({count} items)" if count > 1 else "")
                      for kind, count in reading.missing.items())
    if reading.document is None:
        raise PuzzleError(f"satdoku cannot hold the grid of {named}", **where)
    if reading.missing and not ignore_unknown:
        raise PuzzleError(f"satdoku cannot use {named} (with --ignore-unknown it solves "
                          "without them, a looser puzzle than the one published)", **where)
    warnings = [f"left out what carries no rule: {', '.join(reading.notes)}"] \
        if reading.notes else []
    if reading.missing:
        warnings.append(f"left out: {named}")
    return Conversion(reading.document, warnings, None)
