"""Builders of make_variants.py for the rule types of sigh's solver added in issue 32: each
reads constraints off a solution (``sol``, digits in cell order) that hold in it.

    python scripts/make_variants.py tests --types lunchbox,counting-circles --seed 1
"""

from __future__ import annotations

import random
from collections import Counter

from satdoku import rules as C
from satdoku.model.geometry import Geometry
from satdoku.model.grid import Grid
from satdoku.rules.base import line_cells

#: Global rules of issue 32 (the solution is found under them).
GLOBAL = {"global-entropy": lambda g: [C.GlobalEntropy(g)],
          "global-mod": lambda g: [C.GlobalMod(g)],
          "anti-taxicab": lambda g: [C.AntiTaxicab(g)],
          "dutch-flatmates": lambda g: [C.DutchFlatmates(g)],
          "full-rank-ties": lambda g: [C.FullRankTies(g, "none")]}

#: The grid of each type's test puzzle: 4x4 (brute force checks it), 6x6 where no 4x4 grid
#: keeps the rule (global entropy, global mod, anti-taxicab).
SIZES = {kind: (2, 2) for kind in (
    "counting-circles", "count-distinct", "contain-at-least", "contain-exact", "look-and-say",
    "lunchbox", "rellik-cage", "equality-cage", "equal-sum", "value-indexing", "numbered-room",
    "hidden-skyscraper", "full-rank", "dutch-flatmates", "full-rank-ties", "nfa",
    "connected-values")}
SIZES.update({"global-entropy": (2, 3), "global-mod": (2, 3), "anti-taxicab": (2, 3)})


def _clues(make, geo: Geometry, sol, rng: random.Random, count: int) -> list:
    """Up to ``count`` outside clues ``make(line, side, digits)`` (None: none there)."""
    lines = [(f"{k}{i}", side) for k in "rc" for i in range(1, geo.size + 1)
             for side in ("start", "end")]
    rng.shuffle(lines)
    out = []
    for line, side in lines:
        c = make(line, side, tuple(sol[x] for x in line_cells(geo, line, side)))
        if c is not None:
            out.append(c)
        if len(out) == count:
            break
    return out


def _distinct(digits) -> bool:
    return len(set(digits)) == len(digits)


def build_sigh(kind: str, geo: Geometry, sol, rng: random.Random, held) -> list | None:
    """Constraints of type ``kind`` that hold in ``sol`` (None: not one of issue 32's);
    ``held(make, geo, sol, rng, count, lengths)`` is make_variants' lines_that_hold."""
    n = geo.size
    digits = lambda walk: [sol[c] for c in walk]  # noqa: E731
    if kind == "counting-circles":
        where = {d: [c for c in range(n * n) if sol[c] == d] for d in range(1, n + 1)}
        chosen = rng.sample(range(1, n), 2)
        return [C.CountingCircles(tuple(sorted(c for d in chosen
                                                for c in rng.sample(where[d], d))))]
    if kind == "count-distinct":
        return held(lambda w: C.CountDistinct(w[0], w[1:]) if sol[w[0]] == len(
            set(digits(w[1:]))) else None, geo, sol, rng, n // 2, (3, 4, 5))
    if kind in ("contain-at-least", "contain-exact"):
        cls = C.CONSTRAINTS[kind]
        return held(lambda w: cls(w, tuple(rng.sample(digits(w), 2))), geo, sol, rng,
                     n // 2, (3, 4))
    if kind == "look-and-say":
        def say(walk):
            have = Counter(digits(walk))
            named = rng.sample(sorted(have), 1) + [d for d in range(1, n + 1)
                                                   if d not in have][:1]
            return C.LookAndSay(walk, "".join(f"{have[d]}{d}" for d in named))
        return held(say, geo, sol, rng, n // 2, (3, 4))
    if kind == "lunchbox":
        def box(walk):
            ds = digits(walk)
            if not _distinct(ds):
                return None
            i, j = sorted((ds.index(min(ds)), ds.index(max(ds))))
            return C.Lunchbox(walk, sum(ds[i + 1:j]))
        return held(box, geo, sol, rng, n // 2 + 1, (3, 4))
    if kind == "rellik-cage":
        def rellik(walk):
            return C.RellikCage(walk, rng.randint(1, 2 * n)) if _distinct(digits(walk)) else None
        return held(rellik, geo, sol, rng, n // 2 + 1, (2, 3))
    if kind == "equality-cage":
        return held(lambda w: C.EqualityCage(geo, w) if len(w) % 2 == 0 else None,
                     geo, sol, rng, n // 2, (2, 4))
    if kind == "equal-sum":
        def equal(walk):
            cut = rng.randint(1, len(walk) - 1)
            return C.EqualSum((walk[:cut], walk[cut:]))
        return held(equal, geo, sol, rng, n // 2, (3, 4))
    if kind == "value-indexing":
        return held(lambda w: C.ValueIndexing(w), geo, sol, rng, n // 2, (3, 4))
    if kind == "numbered-room":
        return _clues(lambda line, side, ds: C.NumberedRoom(geo, line, side, ds[ds[0] - 1]),
                      geo, sol, rng, n)
    if kind == "hidden-skyscraper":
        def hidden(line, side, ds):
            first = next((d for j, d in enumerate(ds) if j and d < max(ds[:j])), None)
            return None if first is None else C.HiddenSkyscraper(geo, line, side, first)
        return _clues(hidden, geo, sol, rng, n)
    if kind == "nfa":  # an even count of digits above a random one, or ending low
        def machine(walk):
            cut = rng.randint(1, n - 1)
            low, high = tuple(range(1, cut + 1)), tuple(range(cut + 1, n + 1))
            return C.StateMachine(walk, ("even", "odd"), ("even",), ("even",), (
                ("even", "even", low), ("even", "odd", high), ("odd", "odd", low),
                ("odd", "even", high)))
        return held(machine, geo, sol, rng, n // 2 + 1, (3, 4))
    if kind == "connected-values":  # digits whose cells connect in this solution
        grid = Grid(geo, sol)
        sets = [tuple(d for d in range(1, n + 1) if d != x) for x in range(1, n + 1)]
        return [c for c in (C.ConnectedValues(geo, s) for s in sets) if not c.check(grid)][:1]
    if kind == "full-rank":
        grid = Grid(geo, sol)

        def ranked(line, side, ds):
            for rank in range(1, 4 * n + 1):
                clue = C.FullRank(geo, line, side, rank)
                if not clue.check(grid):
                    return clue
            return None  # it ties with another
        return _clues(ranked, geo, sol, rng, n // 2)
    return None
