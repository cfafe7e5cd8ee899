"""What would fix a puzzle (:mod:`satdoku.tasks.disambiguate`), in words and as JSON.

Givens read ``r1c5=3``, rules by their names; a count of the limit means "that many or more"
(written ``64+``).
"""

from __future__ import annotations

from typing import Any

from .report import plural, printable

__all__ = ["fixes_lines", "fixes_record"]

#: Fixes of each kind the pretty format lists (JSON has them all).
SHOWN = 12

_AFTER = {"unique": "leaves one solution", "multiple": "leaves several solutions",
          "unsolvable": "still leaves none (another clash remains)"}


def _given(e, alphabet, cell: int, d: int) -> str:
    return f"{e.grid.geometry.cell_name(cell)}={alphabet.symbol(d)}"


def _left(n: int, limit: int) -> str:
    return f"{n:,}" + ("+" if n >= limit else "")


def fixes_record(e, alphabet) -> dict[str, Any]:
    """The JSON ``fixes`` of an explanation: ``givens`` and ``rules`` (each with the
    solutions it leaves, ``limit`` meaning that many or more), ``removals`` (each with the
    status the puzzle has without it)."""
    f, geo = e.fixes, e.grid.geometry
    return {"limit": f.limit,
            "givens": [{"given": _given(e, alphabet, c, d), "left": n} for c, d, n in f.givens],
            "rules": [{"rule": e.fix_rules[i].describe(geo), "left": n} for i, n in f.rules],
            "removals": [{"remove": e.describe(m, alphabet), "then": status}
                         for m, status in f.removals],
            "sat_calls": f.sat_calls}


def fixes_lines(e, alphabet) -> list[str]:
    """The fixes, ranked, as indented lines (pretty format)."""
    f, geo, out = e.fixes, e.grid.geometry, []
    if e.status == "multiple":
        unique = [(c, d) for c, d, n in f.givens if n == 1]
        if unique:
            shown = ", ".join(_given(e, alphabet, c, d) for c, d in unique[:SHOWN])
            more = f" and {len(unique) - SHOWN} more" if len(unique) > SHOWN else ""
            out.append(f"  {plural(len(unique), 'given')} would each make it unique: "
                       f"{shown}{more}")
        else:
            best = ", ".join(f"{_given(e, alphabet, c, d)} ({_left(n, f.limit)} left)"
                             for c, d, n in f.givens[:SHOWN])
            out.append("  no single given makes it unique; those that leave fewest solutions: "
                       + (best or "none"))
        for i, n in f.rules:
            name = printable(e.fix_rules[i].describe(geo))
            what = ("would make it unique" if n == 1 else "contradicts it" if n == 0 else
                    f"leaves {_left(n, f.limit)} solutions")
            out.append(f"  the rule {name} {what}")
    for member, status in f.removals:
        out.append(f"  without {printable(e.describe(member, alphabet))} it "
                   f"{_AFTER[status]}")
    return out
