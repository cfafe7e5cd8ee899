"""How cube-and-conquer splits a puzzle into cubes (:mod:`.cubes` conquers them).

Glossary (adds to :mod:`.cubes`):

- lookahead (``on="lookahead"``, the default): unit propagation of one literal on top of a cube,
  by a MiniSat-family solver's ``propagate()`` (python-sat has it on MiniSat and Glucose only).
  A literal whose propagation fails is *failed*: its negation joins the cube (both failed: the
  cube is refuted at cubing). The split literal is the one whose two sides propagate most
  (march's product score ``(pos + 1) * (neg + 1)``, counted in literals set beyond the cube's
  own); each split is on a literal and its negation.
- pool: lookahead looks only at the :data:`POOL` literals that scored best at the root, where at
  most :data:`ROOT_PROBES` literals, those of the cells with the fewest candidates, are probed
  (a 225x225 grid has 218,430 open pairs: probing them all costs over a minute).
- cells (``on="cells"``): every candidate of one cell after another, the cells of the puzzle's
  smallest rules first (a variant puzzle's tightest places: the two 5-cell diagonals of a
  little-killer snipe), then those with fewest candidates left by propagation; a choice whose
  propagation fails is dropped, and the splitting stops before the cubes would pass
  :data:`MOST_CELL_CUBES`. Lookahead's binary splits leave such a puzzle one hard cube among
  easy ones (docs/hard-grids.md).

Either way the cubes partition the puzzle's solutions: counts add, and any cube's solution is
the puzzle's.
"""

from __future__ import annotations

from typing import Any

from ..deadline import NO_DEADLINE, Deadline
from ..progress import report
from ..records import record

__all__ = ["Cube", "make_cubes", "cell_cubes", "cube_cells", "live_candidates", "POOL",
           "ROOT_PROBES", "MOST_CELL_CUBES", "CUBE_ON"]

#: What a puzzle is split on (:class:`~.cubes.CubeSolver`'s ``on``), the default first.
CUBE_ON = ("lookahead", "cells")
#: Literals lookahead scores at each node (the best of the root's probes).
POOL = 48
#: Literals probed at the root to choose the pool (those of the cells with fewest candidates).
ROOT_PROBES = 30000
#: Splitting on cells stops before a level would make more cubes than this.
MOST_CELL_CUBES = 100_000


@record
class Cube:
    """One cube, and what conquering it cost so far."""

    lits: tuple[int, ...]
    score: int  # literals its propagation sets: the more, the easier it should be
    state: str = "open"  # open, sat (a solution found in it), unsat
    conflicts: int = 0
    cpu_s: float = 0.0
    done: bool = False  # every solution in it known (see satdoku.sat.cubes)


def _probe(probe: Any, lits: list[int]) -> tuple[bool, int]:
    ok, props = probe.propagate(assumptions=lits)
    return bool(ok), len(props)


def _node(probe: Any, base: list[int], cube: list[int], pool: list[int]
          ) -> tuple[list[int] | None, int, int | None]:
    """Lookahead at one node: the cube grown by its failed literals (None: refuted), the
    literals it sets, and the literal to split on (None: a leaf, no pool literal is open)."""
    while True:
        ok, size = _probe(probe, base + cube)
        if not ok:
            return None, size, None
        best, best_score, grown = None, -1, False
        for lit in pool:
            if lit in cube or -lit in cube:
                continue
            pos_ok, pos = _probe(probe, base + cube + [lit])
            neg_ok, neg = _probe(probe, base + cube + [-lit])
            if not pos_ok and not neg_ok:
                return None, size, None
            if not pos_ok or not neg_ok:  # a failed literal: its other side is implied
                cube = cube + [-lit if not pos_ok else lit]
                grown = True
                break
            if pos == size + 1 and neg == size + 1:
                continue  # set by the cube already (or decides nothing)
            score = (pos - size) * (neg - size)
            if score > best_score:
                best, best_score = lit, score
        if not grown:
            return cube, size, best


def _root_pool(probe: Any, base: list[int], candidates: list[list[int]]) -> list[int]:
    """The :data:`POOL` literals with the best lookahead score at the root, probed among the
    literals of the cells with fewest candidates (at most :data:`ROOT_PROBES` of them)."""
    probed: list[tuple[int, int]] = []
    ok, size = _probe(probe, base)
    budget = ROOT_PROBES
    for lits in sorted(candidates, key=len):
        if budget <= 0:
            break
        budget -= len(lits)
        for lit in lits:
            pos_ok, pos = _probe(probe, base + [lit])
            neg_ok, neg = _probe(probe, base + [-lit])
            score = (pos - size) * (neg - size) if pos_ok and neg_ok else 0
            probed.append((score, lit))
    probed.sort(key=lambda p: -p[0])
    return [lit for score, lit in probed[:POOL] if score > 0]


def make_cubes(probe: Any, base: list[int], candidates: list[list[int]], depth: int,
               deadline: Deadline = NO_DEADLINE) -> tuple[list[Cube], int]:
    """The cubes of a formula loaded in ``probe`` (a solver with ``propagate()``) under the
    ``base`` assumptions, split to ``depth`` literals at most, most propagated first, and how
    many were refuted at cubing. ``candidates``: each open cell's candidate literals."""
    pool = _root_pool(probe, base, candidates) if depth else []
    leaves: list[Cube] = []
    refuted = 0
    todo: list[tuple[list[int], int]] = [([], 0)]
    while todo:
        deadline.check()
        cube, splits = todo.pop()
        grown, size, lit = _node(probe, base, cube, pool if splits < depth else [])
        if grown is None:
            refuted += 1
        elif lit is None:
            leaves.append(Cube(tuple(grown), size))
        else:
            todo += [(grown + [-lit], splits + 1), (grown + [lit], splits + 1)]
    leaves.sort(key=lambda c: -c.score)
    return leaves, refuted


def live_candidates(probe: Any, base: list[int], candidates: dict[int, list[int]]
                    ) -> dict[int, list[int]]:
    """``candidates`` (cell -> its literals) less the literals that unit propagation of the
    ``base`` assumptions makes false, and less the cells left one literal (none at all when
    the base fails): what each cell can still hold, as a 9x9 puzzle's full encoding lists
    every digit of every open cell."""
    ok, implied = probe.propagate(assumptions=base)
    if not ok:
        return {}
    false = {-lit for lit in implied if lit < 0}
    live = {cell: [lit for lit in lits if lit not in false] for cell, lits in candidates.items()}
    return {cell: lits for cell, lits in live.items() if len(lits) > 1}


def cube_cells(constraints: tuple, candidates: dict[int, list[int]], depth: int) -> list[int]:
    """The ``depth`` open cells (keys of ``candidates``) to split on: those of the rules with
    fewest cells first (in the rule's order), then those with fewest candidates."""
    chosen: dict[int, None] = {}
    for rule in sorted(constraints, key=lambda r: len(getattr(r, "cells", ()) or ())):
        for cell in getattr(rule, "cells", ()) or ():
            if len(chosen) < depth and cell in candidates:
                chosen.setdefault(cell)
    for cell in sorted(candidates, key=lambda c: len(candidates[c])):
        if len(chosen) >= depth:
            break
        chosen.setdefault(cell)
    return list(chosen)


def cell_cubes(probe: Any, base: list[int], cells: list[list[int]],
               deadline: Deadline = NO_DEADLINE, most: int = MOST_CELL_CUBES
               ) -> tuple[list[Cube], int]:
    """Cubes that split on every literal of each of ``cells`` in turn (each a cell's
    candidate literals), under the ``base`` assumptions of a formula loaded in ``probe``: one
    cube a choice whose propagation does not fail, level by level while the cubes stay at
    most ``most``; most propagated first, and how many choices failed (the stats'
    ``cubes_refuted_at_cubing``). A cell holds one of its candidates, so the cubes partition
    the solutions; none left: there are none.

    >>> from satdoku.sat.binding import new_solver
    >>> with new_solver("glucose4", [[1, 2], [3, 4], [-1, -3]]) as probe:
    ...     cubes, failed = cell_cubes(probe, [], [[1, 2], [3, 4]])
    >>> sorted(c.lits for c in cubes), failed
    ([(1, 4), (2, 3), (2, 4)], 1)
    """
    ok, size = _probe(probe, base)
    level: list[tuple[list[int], int]] = [([], size)] if ok else []
    failed = 0 if ok else 1
    reached = 0
    for depth, lits in enumerate(cells):
        _report_level(depth, len(cells), len(level))
        grown: list[tuple[list[int], int]] = []
        dropped = 0
        for cube, _ in level:
            deadline.check()
            for lit in lits:
                ok, size = _probe(probe, base + cube + [lit])
                if ok:
                    grown.append((cube + [lit], size))
                else:
                    dropped += 1
            if len(grown) > most:
                break
        if len(grown) > most:
            break
        level = grown
        failed += dropped
        reached = depth + 1
    _report_level(reached, len(cells), len(level))
    cubes = [Cube(tuple(cube), size) for cube, size in level]
    cubes.sort(key=lambda c: -c.score)
    return cubes, failed


def _report_level(done: int, cells: int, cubes: int) -> None:
    report("splitting on cells", done, cells, f"{cubes:,} cube{'s' * (cubes != 1)}")
