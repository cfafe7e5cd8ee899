"""Uniqueness techniques on the Sudoku Explainer ladder: unique rectangles and loops, BUG.

They assume the puzzle has one solution (the ladder runs only on such puzzles): a pattern
that would let two digits swap, or leave every cell two candidates, cannot be the end state.

- unique rectangle (4.5) and loop (six cells 4.6, eight 4.7, ten or more 5.0): four open cells
  in two rows, two columns and two boxes all holding digits a and b, or a longer loop of such
  cells that meets every house it touches twice (see :func:`_loops`). Type 1: one cell has more digits, so it loses a and b. Type 2: the cells
  with more digits have one extra digit x between them, so cells seeing all of them lose x.
  Type 4: two of them share a house where a has no other place, so they lose b.
- BUG (bivalue universal grave): every open cell has two candidates but a few *BUG cells*
  with more, and taking their *BUG values* out would leave every digit two places (or none)
  in every house; that end state has two solutions, so some BUG cell holds a BUG value. The
  pattern is found as SE finds it (:func:`_bug_pattern`). Type 1 (5.6): one BUG cell, which
  keeps its BUG values. Type 2 (5.7): one BUG value, which leaves the cells that see every BUG
  cell. Type 4 (5.7): two BUG cells in one house with one other digit in common, which each
  keeps with its BUG values. Type 3 (5.8 and up): the BUG values make a naked set with other
  cells of a house the BUG cells share, whose digits leave the rest of it. SE's first hint of
  these, in its order, is the step.

Type 3 of a unique rectangle (the extra digits make a naked or hidden set with other cells of a
house) follows SE's rules too (:func:`_type3`).
"""

from __future__ import annotations

from itertools import combinations

from ..model.digits import bits
from .board import Board
from .named import NamedStep, _cells

__all__ = ["unique_rectangle", "bug"]

#: Loops longer than this are not looked for (SE sets no bound; none that long was seen).
MAX_LOOP = 16

#: The largest naked or hidden set a type 3 forms: SE's loop runs degrees 2 to 7 (all a 9x9
#: house allows). Past 9x9 every further degree multiplies the sets to try: on a 25x25 house,
#: degree 12 alone is 5 million groups of cells, and one puzzle's rating took minutes.
MAX_TYPE3_DEGREE = 7


def _loops(board: Board):
    """(pair mask, loop cells in loop order) of every unique loop: cells that all hold the two
    digits of a bivalue starting cell, each sharing a house with the next (a different kind of
    house from the link before), closing back on the start, where every house the loop touches
    holds one cell in an odd place of the loop and one in an even place. Cells with more digits
    are at most two, or any number with one extra digit between them (SE's rule)."""
    geo, cand, placed = board.geo, board.cand, board.placed
    found = set()
    for start in range(geo.ncells):
        pair = cand[start]
        if placed[start] or pair.bit_count() != 2:
            continue
        for loop in _grow(geo, cand, placed, pair, [start], 2, 0, -1):
            key = (pair, frozenset(loop))
            if key not in found and _valid_loop(geo, loop):
                found.add(key)
                yield pair, tuple(loop)


def _grow(geo, cand, placed, pair: int, loop: list[int], allowed: int, extra: int, last: int):
    cell = loop[-1]
    for kind, h in enumerate(geo.cell_houses[cell]):
        if kind == last:
            continue
        for nxt in geo.houses[h]:
            if nxt == loop[0] and len(loop) >= 4:
                yield list(loop)
            elif nxt not in loop and not placed[nxt] and cand[nxt] & pair == pair \
                    and len(loop) < MAX_LOOP and _fits(geo, loop, nxt):
                more = extra | (cand[nxt] & ~pair)
                wide = cand[nxt].bit_count() > 2
                if not wide or more.bit_count() == 1 or allowed > 0:
                    loop.append(nxt)
                    yield from _grow(geo, cand, placed, pair, loop, allowed - wide, more, kind)
                    loop.pop()


def _fits(geo, loop: list[int], nxt: int) -> bool:
    """Whether ``nxt`` can be the loop's next cell: no house of it holds a loop cell in a place
    of the same parity already (a valid loop has one of each parity per house)."""
    houses = set(geo.cell_houses[nxt])
    parity = len(loop) % 2
    return not any(houses & set(geo.cell_houses[c]) for c in loop[parity::2])


def _valid_loop(geo, loop) -> bool:
    sides: tuple[set[int], set[int]] = (set(), set())
    for i, cell in enumerate(loop):
        for h in geo.cell_houses[cell]:
            if h in sides[i % 2]:
                return False
            sides[i % 2].add(h)
    return sides[0] == sides[1]


def _loop_rating(size: int) -> float:
    """SE's: 4.5 for a rectangle, 4.6 for six cells, 4.7 for eight, 5.0 for ten and more."""
    return 4.5 + (0.3 if size >= 10 else 0) + (0.2 if size >= 8 else 0.1 if size >= 6 else 0)


def unique_rectangle(board: Board) -> NamedStep | None:
    """The easiest unique rectangle or loop (types 1 to 4), as SE sorts them: by rating, then
    type, then the order found."""
    best: tuple | None = None
    geo = board.geo
    for pair, cells in _loops(board):
        base = _loop_rating(len(cells))
        for kind, removes, more in _ur_types(board, pair, cells):
            rating = round(base + more, 1)
            if removes and (best is None or (rating, kind) < best[:2]):
                a, b = bits(pair)
                name = (f"Unique Rectangle type {kind}" if len(cells) == 4
                        else f"Unique Loop {len(cells)} type {kind}")
                best = (rating, kind, NamedStep(name, rating,
                                                f"on {a}{b} ({_cells(geo, cells)})", removes))
    return best[2] if best else None


def _ur_types(board: Board, pair: int, cells):
    """(type, removals, rating added) of each unique rectangle or loop hint on ``cells``."""
    geo, cand, placed = board.geo, board.cand, board.placed
    extras = [c for c in cells if cand[c] != pair]
    if len(extras) == 1:
        x = extras[0]
        yield 1, tuple((x, d) for d in bits(pair & cand[x])), 0.0
        return
    extra = 0
    for c in extras:
        extra |= cand[c] & ~pair
    if extra.bit_count() == 1 and all(cand[c].bit_count() == 3 for c in extras):
        seen = set.intersection(*(set(geo.peers[c]) for c in extras)) - set(cells)
        yield 2, tuple((c, extra.bit_length()) for c in sorted(seen)
                       if not placed[c] and cand[c] & extra), 0.0
    if len(extras) == 2:
        if extra.bit_count() >= 2:
            yield from _type3(board, pair, extras[0], extras[1], extra)
        shared = set(geo.cell_houses[extras[0]]) & set(geo.cell_houses[extras[1]])
        for h in sorted(shared):
            for keep in (pair & -pair, pair & (pair - 1)):
                places = [c for c in geo.houses[h] if not placed[c] and cand[c] & keep]
                if set(places) == set(extras):
                    lose = (pair & ~keep).bit_length()
                    yield 4, tuple((c, lose) for c in extras), 0.0


def _type3(board: Board, pair: int, c1: int, c2: int, extra: int):
    """Type 3: the two cells with extra digits act as one cell holding those digits, which with
    other cells of a house they share make a naked set (the house's other cells lose its
    digits, 0.1 a digit past the first), or, with a and b, a hidden set (its cells lose their
    other digits, 0.1 a cell past the first besides the two)."""
    geo, cand, placed = board.geo, board.cand, board.placed
    n = geo.size
    row, col, box = geo.cell_houses[c1]
    shared = [h for h in (box, row, col) if h in geo.cell_houses[c2]]
    for degree in range(2, min(n - 1, MAX_TYPE3_DEGREE + 1)):
        for h in shared:
            house = geo.houses[h]
            empty = sum(not placed[c] for c in house)
            if 2 * degree <= empty and degree >= extra.bit_count():
                yield from _type3_naked(board, house, c1, c2, extra, degree)
            if 2 * degree < empty:
                rest = [d for d in range(1, n + 1) if not (pair | extra) >> (d - 1) & 1]
                for more in combinations(rest, degree - 2):
                    keep = pair | sum(1 << (d - 1) for d in more)
                    where = [[c for c in house if c != c2 and not placed[c]
                              and cand[c] >> (d - 1) & 1] for d in range(1, n + 1)
                             if keep >> (d - 1) & 1]
                    cells = {c for w in where for c in w}
                    if all(where) and len(cells) == degree:
                        hidden = sorted(cells - {c1, c2})
                        removes = tuple((c, d) for c in hidden for d in bits(cand[c] & ~keep))
                        yield 3, removes, (len(hidden) - 1) / 10


def _type3_naked(board: Board, house, c1: int, c2: int, extra: int, degree: int):
    cand, placed = board.cand, board.placed
    for group in combinations(house, degree):
        if c1 not in group or c2 in group:
            continue
        others = [c for c in group if c != c1]
        if any(placed[c] or cand[c].bit_count() < 2 for c in others) or extra.bit_count() < 2:
            continue
        union = extra
        for c in others:
            union |= cand[c]
        if union.bit_count() != degree:
            continue
        if ((extra & cand[c1] & cand[c2]) | _or(cand, others)).bit_count() != degree:
            continue
        removes = tuple((c, d) for c in house if c not in group and c != c2 and not placed[c]
                        for d in bits(cand[c] & union))
        yield 3, removes, (degree - 1) / 10


def _or(cand, cells) -> int:
    m = 0
    for c in cells:
        m |= cand[c]
    return m


def bug(board: Board) -> NamedStep | None:
    """SE's BUG step, types 1 to 4 (see the module docstring), or None: the first hint SE's
    rule gives on ``board`` (:func:`_bug_pattern`, then the types in SE's order)."""
    found = _bug_pattern(board)
    if found is None:
        return None
    cells, extra, values, common = found
    if len(cells) == 1:
        return _bug1(board, cells[0], values)
    if values.bit_count() == 1:
        return _bug2(board, cells, values, common) or (
            _bug4(board, cells, extra, values) if len(cells) == 2 else None)
    if common:
        return (_bug4(board, cells, extra, values) if len(cells) == 2 else None) or \
            _bug3(board, cells, values, common)
    return None


#: The largest naked set a BUG type 3 forms (SE's loop runs degrees 2 to 6).
MAX_BUG3_DEGREE = 6


def _bug_pattern(board: Board) -> tuple[list[int], dict[int, int], int, set[int]] | None:
    """SE's BUG pattern on ``board`` (SukakuExplainer's ``BivalueUniversalGrave`` with
    lkSudoku's fix, as serate runs it), or None: (the BUG cells in the order found, each one's
    BUG values as a mask, the BUG values of the cells found one by one, the open cells that see
    every BUG cell).

    House by house (boxes, rows, columns) and digit by digit: a digit with neither none nor two
    places in a house whose places hold exactly one cell of three candidates or more makes that
    cell a BUG cell and the digit one of its BUG values; none such cell ends it (no BUG). When
    every such digit is one digit, every cell of three or more among its places is a BUG cell.
    BUG cells with more than one BUG value between them must see some cell in common. Then,
    without the BUG values, every open cell must have two candidates and every digit none or
    two places in each house."""
    geo, cand, placed = board.geo, board.cand, board.placed
    lines = geo.height + geo.width  # houses are rows, columns, then boxes: SE asks boxes first
    houses = geo.houses[lines:] + geo.houses[:lines]
    temp = [0 if p else m for m, p in zip(cand, placed)]
    cells: list[int] = []
    extra: dict[int, int] = {}
    values = 0
    common: set[int] | None = None
    others: set[int] | None = None  # lkSudoku's: every cell of three or more that one digit
    only, one = 0, True  # with a wrong count has (while that digit is the only one)

    def add(cell: int, bit: int) -> bool:
        """``cell`` a BUG cell with BUG value ``bit``; False when the pattern is gone."""
        nonlocal common
        if cell not in cells:
            cells.append(cell)
        extra[cell] = extra.get(cell, 0) | bit
        temp[cell] &= ~bit
        common = set(geo.peers[cell]) if common is None else common & set(geo.peers[cell])
        common.difference_update(cells)
        return len(cells) < 2 or values.bit_count() < 2 or bool(common)

    for house in houses:
        for d in range(1, geo.size + 1):
            bit = 1 << (d - 1)
            places = [c for c in house if not placed[c] and cand[c] & bit]
            if len(places) in (0, 2):
                continue
            new = [c for c in places if cand[c].bit_count() >= 3]
            if others is None:
                others, only = set(new), d
            elif one:
                if only == d:
                    others.update(new)
                else:
                    one = False
            if len(new) == 1:
                values |= bit
                if not add(new[0], bit):
                    return None
            if not new:
                return None
    if one and others is not None and len(others) > len(cells):
        for c in sorted(others - set(cells)):
            if not add(c, 1 << (only - 1)):
                return None
    if any(not placed[c] and temp[c].bit_count() != 2 for c in range(geo.ncells)):
        return None
    if not all(_two_or_none(house, temp, placed, geo.size) for house in houses):
        return None
    return cells, extra, values, common or set()


def _bug1(board: Board, cell: int, values: int) -> NamedStep | None:
    """Type 1 (5.6): the one BUG cell keeps its BUG values."""
    removes = tuple((cell, e) for e in bits(board.cand[cell] & ~values))
    if not removes:
        return None
    digits = ",".join(map(str, bits(values)))
    return NamedStep("BUG type 1", 5.6, f"on {digits} ({board.geo.cell_name(cell)})", removes)


def _bug2(board: Board, cells: list[int], values: int, common: set[int]) -> NamedStep | None:
    """Type 2 (5.7): the one BUG value leaves the cells that see every BUG cell."""
    d = values.bit_length()
    removes = tuple((c, d) for c in sorted(common)
                    if not board.placed[c] and board.cand[c] & values)
    if not removes:
        return None
    return NamedStep("BUG type 2", 5.7, f"on {d} ({_cells(board.geo, cells)})", removes)


def _shared(geo, cells: list[int]) -> list[int]:
    """The houses all ``cells`` are in: a box, a row, then a column (SE's order)."""
    kinds = [k for k in (2, 0, 1) if all(len(geo.cell_houses[c]) > k for c in cells)]
    return [geo.cell_houses[cells[0]][k] for k in kinds
            if len({geo.cell_houses[c][k] for c in cells}) == 1]


def _bug4(board: Board, cells: list[int], extra: dict[int, int], values: int
          ) -> NamedStep | None:
    """Type 4 (5.7): two BUG cells in one house with one other digit in common; each keeps
    its BUG values and that digit."""
    geo, cand = board.geo, board.cand
    c1, c2 = cells[0], cells[1]
    both = cand[c1] & cand[c2] & ~values
    if both.bit_count() != 1:
        return None
    houses = _shared(geo, cells)
    removes = tuple((c, e) for c in (c1, c2) for e in bits(cand[c] & ~extra[c] & ~both))
    if not houses or not removes:
        return None
    return NamedStep("BUG type 4", 5.7, f"on {both.bit_length()} ({_cells(geo, cells)}) in "
                     f"{geo.house_name(houses[0])}", removes)


def _bug3(board: Board, cells: list[int], values: int, common: set[int]) -> NamedStep | None:
    """Type 3 (5.7 + 0.1 a digit past the first two): the BUG values, as one more cell, make a
    naked set with other cells of a house all BUG cells are in; the set's digits leave the
    house's other cells. Degrees from 2, houses in SE's order, the other cells as SE's
    ``Permutations`` lists them (by the mask of their places in the house's list)."""
    geo, cand, placed = board.geo, board.cand, board.placed
    shared = _shared(geo, cells)
    if values.bit_count() < 2:
        return None
    for degree in range(2, MAX_BUG3_DEGREE + 1):
        for h in shared:
            region = sorted(c for c in common if c in set(geo.houses[h]))
            if len(region) < degree:  # SE's test (placed cells among them)
                continue
            for chosen in sorted(combinations(range(len(region)), degree - 1),
                                 key=lambda t: sum(1 << i for i in t)):
                naked = [region[i] for i in chosen]
                union = _or(cand, naked)
                if union.bit_count() != degree or (union | values) != union \
                        or any(placed[c] or cand[c].bit_count() < 2 for c in naked):
                    continue
                removes = tuple((c, d) for c in region if c not in naked and not placed[c]
                                for d in bits(cand[c] & union))
                if removes:
                    return NamedStep("BUG type 3", round(5.7 + 0.1 * (degree - 1), 1),
                                     f"on {''.join(map(str, bits(union)))} "
                                     f"({_cells(geo, cells)} with {_cells(geo, naked)}) "
                                     f"in {geo.house_name(h)}", removes)
    return None


def _two_or_none(house, cand, placed, size: int) -> bool:
    counts = [0] * size
    for c in house:
        if not placed[c]:
            m = cand[c]
            while m:
                low = m & -m
                counts[low.bit_length() - 1] += 1
                m ^= low
    return all(k in (0, 2) for k in counts)

