"""f-puzzles shapes of one rule's own: arrows, cages, extra regions, little killers, clones,
quadruples, minimum and maximum cells, indexers and the negative rules (see
:mod:`.shapes` for the contract).

Semantics follow the solver f-puzzles and SudokuPad run (dclamage/SudokuVariantSolverJS):
an arrow entry's ``lines`` all start at its circle and each line is its own arrow, a
multi-cell circle read in the stored order; a minimum (maximum) cell is compared only with
neighbours that are not minimum (maximum) cells; negative rules exempt every pair that has a
clue of their family (KropkiConstraint.ts, SumConstraint.ts).
"""

from __future__ import annotations

from typing import Any

import re

from ...rules.killer import DIRECTIONS
from ...rules.multikiller import digital_root_sums
from .shapes import GENERIC, Shape, fp_cell

__all__ = ["SPECIAL", "SHAPES"]


def _what(key: str, i: int) -> str:
    return f"f-puzzles '{key}' #{i}"


# -- arrow: {"cells": circle, "lines": [[circle cell, shaft...], ...]} ----------------------

def _read_arrow(r, key: str, decls) -> None:
    for i, entry in enumerate(r.entries(key), 1):
        what = _what(key, i)
        circle = r.cells(entry.get("cells"), what)
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines:
            raise r.error(f"{what}: an arrow without a shaft ('lines')")
        for j, line in enumerate(lines, 1):
            where = what + (f" line {j}" if len(lines) > 1 else "")
            shaft = [name for name in r.cells(line, where) if name not in circle]
            if not shaft:
                raise r.error(f"{where}: the arrow has no cell outside its circle")
            r.add({"type": "arrow", "circle": circle, "cells": shaft})


def _write_arrow(w, decl, c) -> None:
    first = divmod(c.shaft[0], w.n)
    start = min(c.circle, key=lambda x: max(abs(x // w.n - first[0]), abs(x % w.n - first[1])))
    w.append(decl.key, {"cells": [w.name(x) for x in c.circle],
                        "lines": [[w.name(start)] + [w.name(x) for x in c.shaft]]})


# -- killercage and extraregion: {"cells": [...], "value": v} -------------------------------

def _read_killercage(r, key: str, decls) -> None:
    for i, entry in enumerate(r.entries(key), 1):
        what = _what(key, i)
        r.add({"type": "killer", "cells": r.cells(entry.get("cells"), what),
               "sum": r.number(entry.get("value"), what)})


def _write_killercage(w, decl, c) -> None:
    entry: dict[str, Any] = {"cells": [w.name(x) for x in c.cells]}
    if c.total is not None:
        entry["value"] = str(c.total)
    w.append(decl.key, entry)


def _read_extraregion(r, key: str, decls) -> None:
    for i, entry in enumerate(r.entries(key), 1):
        cells = r.cells(entry.get("cells"), _what(key, i))
        if len(cells) == r.size:
            r.add({"type": "extra-region", "cells": cells})
        else:  # fewer cells than digits: no repeats, a killer cage without a total
            r.add({"type": "killer", "cells": cells, "sum": None,
                   "label": f"f-puzzles extra region of {len(cells)} cells"})


def _write_extraregion(w, decl, c) -> None:
    w.append(decl.key, {"cells": [w.name(x) for x in c.cells]})


# -- littlekillersum: {"cell": "R0C1", "direction": "DR", "value": v} -----------------------

def _read_littlekillersum(r, key: str, decls) -> None:
    n = r.size
    for i, entry in enumerate(r.entries(key), 1):
        what = _what(key, i)
        row, col = r.rc(entry.get("cell"), what, outside=True)
        direction = entry.get("direction")
        if direction not in DIRECTIONS:
            raise r.error(f"{what}: direction {direction!r} is not DR, DL, UR or UL")
        total = r.number(entry.get("value"), what)
        dr, dc = DIRECTIONS[direction]
        cells = []
        row, col = row + dr, col + dc
        while 1 <= row <= n and 1 <= col <= n:
            cells.append(f"r{row}c{col}")
            row, col = row + dr, col + dc
        if not cells:
            raise r.error(f"{what}: from {entry['cell']} going {direction} meets no cell")
        listed = entry.get("cells")
        if listed is not None and r.cells(listed, what) != cells:
            raise r.error(f"{what}: its cells {listed} are not the diagonal from "
                          f"{entry['cell']} going {direction}")
        if not total:  # blank, or 0 (f-puzzles' placeholder): f-puzzles' solver skips it
            r.note("little killer arrows without a total")
            continue
        r.add({"type": "little-killer", "cells": cells, "sum": total,
               "clue": entry["cell"].lower(), "direction": direction})


def _write_littlekillersum(w, decl, c) -> str | None:
    (row, col), step = c.placement(w.n)
    direction = next(k for k, v in DIRECTIONS.items() if v == step)
    cells, r, k = [], row + step[0], col + step[1]
    while 0 <= r < w.n and 0 <= k < w.n:
        cells.append(r * w.n + k)
        r, k = r + step[0], k + step[1]
    if sorted(cells) != sorted(c.cells):
        return "a little killer over part of a diagonal (f-puzzles sums the whole diagonal)"
    w.append(decl.key, {"cell": f"R{row + 1}C{col + 1}", "direction": direction,
                        "value": str(c.total), "cells": [w.name(x) for x in cells]})
    return None


# -- clone and quadruple -------------------------------------------------------------------

def _read_clone(r, key: str, decls) -> None:
    for i, entry in enumerate(r.entries(key), 1):
        what = _what(key, i)
        cells = r.cells(entry.get("cells"), what)
        clone = r.cells(entry.get("cloneCells"), what + " cloneCells")
        if len(cells) != len(clone):
            raise r.error(f"{what}: {len(cells)} cells but {len(clone)} cloneCells")
        r.add({"type": "clone", "cells": cells, "clone": clone})


def _write_clone(w, decl, c) -> None:
    w.append(decl.key, {"cells": [w.name(x) for x in c.original],
                        "cloneCells": [w.name(x) for x in c.copy]})


def _read_quadruple(r, key: str, decls) -> None:
    for i, entry in enumerate(r.entries(key), 1):
        what = _what(key, i)
        cells = r.cells(entry.get("cells"), what)
        rows = {int(name[1:name.index("c")]) for name in cells}
        cols = {int(name[name.index("c") + 1:]) for name in cells}
        if len(cells) != 4 or len(rows) != 2 or len(cols) != 2 or \
                max(rows) - min(rows) != 1 or max(cols) - min(cols) != 1:
            raise r.error(f"{what}: {cells} are not the 4 cells around a corner")
        values = entry.get("values") or []
        if not isinstance(values, list):
            raise r.error(f"{what}: values {values!r} should be a list")
        digits = [r.number(v, what) for v in values]
        if not digits or len(digits) > 4 or any(d is None or not 1 <= d <= r.size
                                                for d in digits):
            raise r.error(f"{what}: values {values!r} should be 1 to 4 digits 1-{r.size}")
        r.add({"type": "quadruple", "cells": cells, "digits": digits})


def _write_quadruple(w, decl, c) -> None:
    w.append(decl.key, {"cells": [w.name(x) for x in c.cells], "values": list(c.digits)})


# -- minimum and maximum: [{"cell": ...}] ---------------------------------------------------

def _neighbours(n: int, name: str) -> list[str]:
    r, c = (int(x) for x in name[1:].split("c"))
    return [f"r{r + dr}c{c + dc}" for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
            if 1 <= r + dr <= n and 1 <= c + dc <= n]


def _read_extremes(r, key: str, decls) -> None:
    names = [r.cell(entry.get("cell"), _what(key, i)) for i, entry in enumerate(r.entries(key), 1)]
    marked = set(names)
    for name in names:
        # f-puzzles compares a cell only with neighbours that are not of its kind (a fortress
        # of adjacent maximum cells); satdoku's minimum/maximum compare with every neighbour,
        # so such a cell becomes 2-cell thermometers, one per other neighbour.
        around = _neighbours(r.size, name)
        others = [x for x in around if x not in marked]
        if len(others) == len(around):
            r.add({"type": key, "cells": [name]})
            continue
        for other in others:
            r.add({"type": "thermometer",
                   "cells": [other, name] if key == "maximum" else [name, other],
                   "label": f"f-puzzles {key} {name} (only neighbours that are not {key} "
                            f"cells)"})


def _write_extremes(w, decl, c) -> str | None:
    same = {x.cell for x in w.puzzle.constraints if type(x) is type(c)}
    name = w.geometry.cell_name(c.cell)
    if same & {b for _, b in c.pairs}:
        return (f"{c.type} {name} beside another {c.type} cell (f-puzzles compares it only "
                f"with the other neighbours)")
    w.append(decl.key, {"cell": fp_cell(name)})
    return None


# -- indexers: [{"cells": [...]}], all entries one rule --------------------------------------

def _read_indexer(r, key: str, decls) -> None:
    cells: list[str] = []
    for i, entry in enumerate(r.entries(key), 1):
        cells += r.cells(entry.get("cells"), _what(key, i))
    cells = list(dict.fromkeys(cells))
    if not cells:
        return
    kinds = {cls.type: cls for cls, _ in decls}
    if "rule-159" in kinds and r.size == 9 and set(cells) == {
            f"r{row}c{col}" for row in range(1, 10) for col in (1, 5, 9)}:
        r.add({"type": "rule-159"})
        return
    kind = next(name for name in kinds if name != "rule-159")
    r.add({"type": kind, "cells": cells})


def _write_indexer(w, decl, c) -> None:
    w.append(decl.key, {"cells": [w.name(x) for x in c.cells]})


# -- negative rules: "nonconsecutive": true, "negative": ["ratio", "xv", ...] ----------------

def _dot_values(r, key: str, default: int | None) -> set[int]:
    values: set[int] = set()
    for i, entry in enumerate(r.entries(key), 1):
        value = r.number(entry.get("value"), _what(key, i))
        if value is None:
            if default is None:
                continue
            value = default
        values.add(value)
    return values


def _read_negative(r, key: str, decls) -> None:
    if "negative" in r.done:
        return
    r.done.add("negative")
    negative = r.data.get("negative") or []
    if not isinstance(negative, list) or not all(isinstance(x, str) for x in negative):
        raise r.error(f"f-puzzles 'negative' should be a list of names, not {negative!r}")
    for name in negative:
        if name not in ("ratio", "difference", "xv", "sum"):
            r.problem(f"f-puzzles 'negative' {name!r}: no satdoku negative rule for it")
    whites, blacks = _dot_values(r, "difference", 1), _dot_values(r, "ratio", 2)
    differences = ({1} if r.flag("nonconsecutive") else set()) | (
        whites if "difference" in negative else set())
    ratios = (blacks | {2}) if "ratio" in negative else set()
    if differences == {1} and not ratios and not (r.entries("difference") or
                                                  r.entries("ratio")):
        r.add({"type": "non-consecutive"})
    elif differences or ratios:
        out: dict[str, Any] = {"type": "no-kropki"}
        if differences != {1}:
            out["differences"] = sorted(differences)
        if ratios != {2}:
            out["ratios"] = sorted(ratios)
        r.add(out)
    sums = ({5, 10} if "xv" in negative else set()) | (
        _dot_values(r, "sum", None) if "sum" in negative else set())
    if sums:
        r.add({"type": "no-xv"} if sums == {5, 10} else {"type": "no-xv", "sums": sorted(sums)})


def _write_negative(w, decl, c) -> None:
    w.negatives.append(c)  # all at once in _finish_negative: the flags are shared


def _finish_negative(w) -> None:
    dotted = [c for c in w.puzzle.constraints if c.type in ("kropki-white", "kropki-black")]
    whites = {c.difference for c in dotted if c.type == "kropki-white"}
    blacks = {c.ratio for c in dotted if c.type == "kropki-black"}
    sums = {c.total for c in w.puzzle.constraints if c.type == "edge-sum"}
    want_d, want_r, want_s = set(), set(), set()
    for c in w.negatives:
        if c.type == "non-consecutive":
            if dotted:
                w.lost.append("non-consecutive on a grid with kropki dots (f-puzzles' "
                              "nonconsecutive exempts the dotted pairs)")
                continue
            want_d.add(1)
        elif c.type == "no-kropki":
            want_d |= set(c.differences)
            want_r |= set(c.ratios)
        else:
            want_s |= set(c.sums)
    flags = _kropki_flags(want_d, want_r, whites, blacks)
    if flags is None:
        w.lost.append(f"no-kropki forbidding differences {sorted(want_d)} and ratios "
                      f"{sorted(want_r)} (f-puzzles forbids 1, the white dots' differences, "
                      f"and 2 with the black dots' ratios)")
    else:
        nonconsecutive, negative = flags
        if nonconsecutive:
            w.data["nonconsecutive"] = True
        w.negative += negative
    choice = next(((xv, edge) for xv in (False, True) for edge in (False, True)
                   if ({5, 10} if xv else set()) | (sums if edge else set()) == want_s), None)
    if choice is None:
        w.lost.append(f"no-xv forbidding sums {sorted(want_s)} (f-puzzles forbids 5 and 10, "
                      f"or the edge sums' own)")
    else:
        w.negative += (["xv"] if choice[0] else []) + (["sum"] if choice[1] else [])
    if w.negative:
        w.data["negative"] = sorted(set(w.negative))


def _kropki_flags(want_d: set, want_r: set, whites: set, blacks: set):
    """(nonconsecutive, negative names) of f-puzzles that forbid exactly ``want_d`` and
    ``want_r``, or None."""
    for nonconsecutive in (False, True):
        for difference in (False, True):
            d = ({1} if nonconsecutive else set()) | (whites if difference else set())
            for ratio in (False, True):
                rr = (blacks | {2}) if ratio else set()
                if d == want_d and rr == want_r:
                    names = (["difference"] if difference and whites else []) + (
                        ["ratio"] if ratio else [])
                    return nonconsecutive, names
    return None


# -- given pencil marks: a grid cell's "givenPencilMarks": [digits] ------------------------

def _read_pencilmarks(r, key: str, decls) -> None:
    for digits, names in r.candidates.items():
        r.add({"type": "candidates", "cells": names, "digits": list(digits)})


def _write_pencilmarks(w, decl, c) -> None:
    for cell in c.cells:
        w.data["grid"][cell // w.n][cell % w.n]["givenPencilMarks"] = list(c.digits)


# -- drawn cages: a value "DRn" is a cage of the totals with digital root n ------------------

_DR = re.compile(r"DR(\d)")


def _read_drcage(r, key: str, decls) -> None:
    drawn = []
    for i, entry in enumerate(r.entries(key), 1):
        value = entry.get("value")
        match = _DR.search(value.strip()) if isinstance(value, str) else None
        cells = entry.get("cells")
        if match is None or not isinstance(cells, list) or not 1 <= len(cells) <= r.size:
            drawn.append(entry)
            continue
        names = r.cells(cells, _what(key, i))
        sums = digital_root_sums(r.size, len(names), int(match.group(1)))
        r.add({"type": "multi-killer", "cells": names, "sums": list(sums)} if sums else
              {"type": "killer", "cells": names, "sum": None})  # no total fits: as SudokuSolver
    if drawn:
        r.drawings(key, drawn)


def _write_drcage(w, decl, c) -> str | None:
    root = (c.sums[0] - 1) % 9 + 1
    if c.sums != digital_root_sums(w.n, len(c.cells), root):
        return "totals that are not all those of one digital root (f-puzzles' 'DRn' cages)"
    w.append(decl.key, {"cells": [w.name(x) for x in c.cells], "value": f"DR{root}",
                        "outlineC": "#000000", "fontC": "#000000"})
    return None


def _read_nothing(r, key: str, decls) -> None:
    """A key read with the grid (a cell's ``parity``)."""


SPECIAL = {
    "arrow": Shape(_read_arrow, _write_arrow),
    "killercage": Shape(_read_killercage, _write_killercage),
    "extraregion": Shape(_read_extraregion, _write_extraregion),
    "littlekillersum": Shape(_read_littlekillersum, _write_littlekillersum),
    "clone": Shape(_read_clone, _write_clone),
    "quadruple": Shape(_read_quadruple, _write_quadruple),
    "extremes": Shape(_read_extremes, _write_extremes),
    "indexer": Shape(_read_indexer, _write_indexer),
    "negative": Shape(_read_negative, _write_negative, _finish_negative),
    "parity": Shape(_read_nothing),
    "pencilmarks": Shape(_read_pencilmarks, _write_pencilmarks),
    "drcage": Shape(_read_drcage, _write_drcage),
}

#: Every shape by name, the generic ones and these.
SHAPES: dict[str, Shape] = {**GENERIC, **SPECIAL}
