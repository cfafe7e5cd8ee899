"""Named techniques on the Sudoku Explainer (SE) ladder: one finder per rung.

A *finder* takes a :class:`~satdoku.native.board.Board` and returns its first
:class:`NamedStep` in SE's scan order, or None; it never changes the board (the ladder,
:mod:`satdoku.native.ladder`, applies the step). Houses are scanned as SE scans them: boxes,
then columns, then rows; digits lowest first. Any box shape (and jigsaw regions, where a
technique needs only houses) works: the geometry's houses, segments and peers are the only
shapes known here.

Glossary (besides :mod:`satdoku.native.board`): a digit's *places* in a house are its open
cells there that still have it; *direct* variants (SE's name) are the steps whose eliminations
would leave a hidden single at once: they place it and, as SE does, make no elimination (the
reason names what the pattern would remove).

The singles and locked candidates here are those of :mod:`satdoku.native.propagate`'s passes,
found one step at a time in SE's order (which step, where, rated) rather than applied together
to a fixed point; ``tests/test_passes_agree.py`` checks that the ladder's board and those
passes end with the same candidates. The step path (:mod:`satdoku.tasks.steps`) finds its
singles here too.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

from ..model.digits import bits, house_tally
from ..model.geometry import Geometry, Segment
from ..records import record
from .board import Board
from .propagate import locked_digits

__all__ = ["NamedStep", "full_house_or_hidden_single", "hidden_single", "naked_single", "direct_locking",
           "locking", "hidden_set", "naked_set", "fish", "xy_wing", "describe", "every_locking",
           "every_hidden_set", "every_naked_set", "every_fish", "aligned_exclusion"]


@record(frozen=True)
class NamedStep:
    """One step: ``technique`` (SE's name), its SE ``rating``, what it rests on (``reason``,
    e.g. ``'on 4 in r2,r7 c3,c8'``), the candidates it removes as (cell, digit) pairs, and the
    digit it places as (cell, digit), if any. ``absent`` says which candidates the pattern
    needs gone, as (cells, digits mask) pairs (read by forcing chains that apply the technique
    inside, :mod:`satdoku.native.dynamic`, to say what a removal follows from)."""

    technique: str
    rating: float
    reason: str
    removes: tuple[tuple[int, int], ...] = ()
    place: tuple[int, int] | None = None
    absent: tuple[tuple[tuple[int, ...], int], ...] = ()


def describe(step: NamedStep, geo: Geometry) -> str:
    """``'X-Wing on 4 in r2,r7 c3,c8: r5c3<>4'``: the step as a person reads it."""
    parts = [f"{geo.cell_name(c)}<>{d}" for c, d in step.removes]
    if step.place is not None:
        parts.append(f"{geo.cell_name(step.place[0])}={step.place[1]}")
    head = f"{step.technique} {step.reason}".rstrip()
    return f"{head}: {', '.join(parts)}"


@lru_cache(maxsize=None)
def se_houses(geo: Geometry) -> tuple[int, ...]:
    """Houses in SE's scan order: boxes, columns, rows."""
    n = geo.size
    return (*range(2 * n, 3 * n), *range(n, 2 * n), *range(n))


def _places(board: Board, house, bit: int) -> list[int]:
    cand, placed = board.cand, board.placed
    return [c for c in house if not placed[c] and cand[c] & bit]


def _cells(geo: Geometry, cells) -> str:
    return ",".join(geo.cell_name(c) for c in cells)


def _removed(geo: Geometry, removes) -> str:
    return ", ".join(f"{geo.cell_name(c)}<>{d}" for c, d in removes)


def full_house_or_hidden_single(board: Board) -> NamedStep | None:
    """A house's last open cell (full house, 1.0), else a digit with one place in a house:
    in a box 1.2, in a line 1.5."""
    geo, placed = board.geo, board.placed
    last = {h for h in se_houses(geo) if sum(not placed[c] for c in geo.houses[h]) == 1}
    for alone in (True, False):
        found = hidden_single(board, [h for h in se_houses(geo) if (h in last) == alone])
        if found is None:
            continue
        h, cell, d = found
        where = f"in {geo.house_name(h)}"
        if alone:
            return NamedStep("Full House", 1.0, where, place=(cell, d))
        return NamedStep("Hidden Single", 1.2 if h >= 2 * geo.size else 1.5, where,
                         place=(cell, d))
    return None


def hidden_single(board: Board, houses) -> tuple[int, int, int] | None:
    """The first of ``houses`` (house numbers, in the order to scan) where a digit has one
    place left, as (house, cell, digit), its lowest such digit; None where there is none."""
    geo, cand, placed = board.geo, board.cand, board.placed
    for h in houses:
        house = geo.houses[h]
        once, twice, done = house_tally(house, cand, placed)
        single = once & ~twice & ~done
        if single:
            bit = single & -single
            return h, next(c for c in house if not placed[c] and cand[c] & bit), bit.bit_length()
    return None


def naked_single(board: Board) -> NamedStep | None:
    """A cell with one candidate left (2.3)."""
    for c in board.naked_singles():
        m = board.cand[c]
        if m:
            return NamedStep("Naked Single", 2.3, "", place=(c, m.bit_length()))
    return None


@lru_cache(maxsize=None)
def _crossings(geo: Geometry) -> tuple[tuple[bool, tuple[Segment, ...]], ...]:
    """The segments in SE's order of (first house, second house) kinds: box then column, box
    then row (pointing), column then box, row then box (claiming), each sorted by the first
    house then the second; with whether the first house is the box."""
    n = geo.size
    segs = [s for s in geo.segments if s.line_rest and s.box_rest]
    cols = [s for s in segs if s.line >= n]
    rows = [s for s in segs if s.line < n]
    return ((True, tuple(sorted(cols, key=lambda s: (s.box, s.line)))),
            (True, tuple(sorted(rows, key=lambda s: (s.box, s.line)))),
            (False, tuple(sorted(cols, key=lambda s: (s.line, s.box)))),
            (False, tuple(sorted(rows, key=lambda s: (s.line, s.box)))))


@lru_cache(maxsize=None)
def _by_house(geo: Geometry) -> dict[int, tuple[Segment, ...]]:
    """The segments of each line and of each box."""
    out: dict[int, list[Segment]] = {}
    for s in geo.segments:
        out.setdefault(s.line, []).append(s)
        out.setdefault(s.box, []).append(s)
    return {h: tuple(v) for h, v in out.items()}


def _locked(board: Board, direct: bool):
    """Every pointing and claiming (``direct``: direct pointing and claiming) in SE's order."""
    geo, cand, placed = board.geo, board.cand, board.placed

    def union(cells) -> int:
        m = 0
        for c in cells:
            if not placed[c]:
                m |= cand[c]
        return m

    rule: dict[int, tuple[int, int]] = {}  # by segment: a segment is in two of the groups
    for pointing, segs in _crossings(geo):
        # per segment: the digits confined to it in the first house that the second has outside
        found = []
        for s in segs:
            both = rule.get(id(s))
            if both is None:
                both = rule[id(s)] = locked_digits(union(s.cells), union(s.line_rest),
                                                   union(s.box_rest))
            found.append(both[0] if pointing else both[1])
        for d in range(1, geo.size + 1):
            bit = 1 << (d - 1)
            for s, digits in zip(segs, found):
                if not digits & bit or len(_places(board, s.cells, bit)) < 2:
                    continue
                rest = s.line_rest if pointing else s.box_rest
                removes = tuple((c, d) for c in rest if not placed[c] and cand[c] & bit)
                step = _locked_step(board, s, pointing, d, removes, direct)
                if step is not None:
                    yield step


def _locked_step(board: Board, s: Segment, pointing: bool, d: int, removes, direct: bool):
    geo = board.geo
    first, second = (s.box, s.line) if pointing else (s.line, s.box)
    reason = f"on {d} in {geo.house_name(first)} and {geo.house_name(second)}"
    if not direct:
        # what it rests on: the digit gone from the first house outside the segment (SE's
        # rule parents; a place gone inside the segment is not needed)
        name, rating = ("Pointing", 2.6) if pointing else ("Claiming", 2.8)
        return NamedStep(name, rating, reason, removes,
                         absent=((s.box_rest if pointing else s.line_rest, 1 << (d - 1)),))
    bit = 1 << (d - 1)
    gone = {c for c, _ in removes}
    # a hidden single in another house of the first kind that crosses the second house
    for other in _by_house(geo)[second]:
        third = other.box if pointing else other.line
        if third == first or (third < geo.size) != (first < geo.size):
            continue
        places = _places(board, geo.houses[third], bit)
        if len(places) > 1:
            left = [c for c in places if c not in gone]
            if len(left) == 1:
                name, rating = ("Direct Pointing", 1.7) if pointing else ("Direct Claiming", 1.9)
                return NamedStep(name, rating, f"{reason} ({_removed(geo, removes)})",
                                 place=(left[0], d))
    return None


def direct_locking(board: Board) -> NamedStep | None:
    """Pointing (1.7) or claiming (1.9) whose eliminations leave a hidden single."""
    return next(_locked(board, True), None)


def locking(board: Board) -> NamedStep | None:
    """Pointing (2.6): a digit's places in a box all in one line leave the rest of the line;
    claiming (2.8): the reverse."""
    return next(_locked(board, False), None)


def every_locking(board: Board):
    """Every pointing and claiming step, in SE's order."""
    return _locked(board, False)


HIDDEN = {2: ("Hidden Pair", 3.4), 3: ("Hidden Triple", 4.0), 4: ("Hidden Quad", 5.4)}
DIRECT_HIDDEN = {2: ("Direct Hidden Pair", 2.0), 3: ("Direct Hidden Triple", 2.5)}
NAKED = {2: ("Naked Pair", 3.0), 3: ("Naked Triple", 3.6), 4: ("Naked Quad", 5.0)}


def _k_unions(items, mask, k: int):
    """Each ``k`` of ``items`` (in ``combinations``' order) whose masks (``mask[item]``)
    together have ``k`` bits, with that union: a naked set's cells and digits, a hidden set's
    digits and places. An item of more than ``k`` bits is in none, so it is left out first."""
    items = [x for x in items if mask[x].bit_count() <= k]
    for chosen in combinations(items, k):
        union = 0
        for x in chosen:
            union |= mask[x]
        if union.bit_count() == k:
            yield chosen, union


def hidden_set(board: Board, k: int, direct: bool = False) -> NamedStep | None:
    """``k`` digits whose places in a house are the same ``k`` cells: those cells lose their
    other digits. ``direct``: only when that leaves a hidden single in the house."""
    return next(every_hidden_set(board, k, direct), None)


def every_hidden_set(board: Board, k: int, direct: bool = False):
    """Every step of :func:`hidden_set`, in SE's order."""
    geo, cand = board.geo, board.cand
    for h in se_houses(geo):
        house = geo.houses[h]
        open_cells = [c for c in house if not board.placed[c]]
        if not (len(open_cells) > 2 * k or (direct and len(open_cells) > k)):
            continue
        # each digit's places as a mask over the house's cells (bit i: the house's i-th cell)
        where = board.places(h)
        digits = [d for d in range(1, geo.size + 1) if where[d].bit_count() >= 2]
        for ds, union in _k_unions(digits, where, k):
            cells = [house[i] for i in range(len(house)) if union >> i & 1]
            keep = sum(1 << (d - 1) for d in ds)
            removes = tuple((c, d) for c in cells for d in bits(cand[c] & ~keep))
            if not removes:
                continue
            reason = f"{''.join(map(str, ds))} in {geo.house_name(h)} ({_cells(geo, cells)})"
            if not direct:
                outside = tuple(c for c in house if c not in cells)
                yield NamedStep(*HIDDEN[k], reason, removes, absent=((outside, keep),))
                continue
            for d in range(1, geo.size + 1):
                left = where[d] & ~union
                if d not in ds and where[d].bit_count() > 1 and left.bit_count() == 1:
                    yield NamedStep(*DIRECT_HIDDEN[k], reason,
                                    place=(house[left.bit_length() - 1], d))
                    break


def naked_set(board: Board, k: int) -> NamedStep | None:
    """``k`` cells of a house with ``k`` digits between them: the house's other cells lose
    those digits."""
    return next(every_naked_set(board, k), None)


def every_naked_set(board: Board, k: int):
    """Every step of :func:`naked_set`, in SE's order."""
    geo, cand, placed = board.geo, board.cand, board.placed
    for h in se_houses(geo):
        house = geo.houses[h]
        open_cells = [c for c in house if not placed[c] and cand[c].bit_count() >= 2]
        if sum(not placed[c] for c in house) < 2 * k:
            continue
        for cells, union in _k_unions(open_cells, cand, k):
            removes = tuple((c, d) for c in house if not placed[c] and c not in cells
                            for d in bits(cand[c] & union))
            if removes:
                digits = "".join(map(str, bits(union)))
                yield NamedStep(*NAKED[k], f"{digits} in {geo.house_name(h)} "
                                           f"({_cells(geo, cells)})", removes,
                                absent=((cells, board.full & ~union),))


FISH = {2: ("X-Wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def fish(board: Board, k: int) -> NamedStep | None:
    """A digit whose places in ``k`` columns (then rows) lie in ``k`` rows (columns): it leaves
    the rest of those rows (columns)."""
    return next(every_fish(board, k), None)


def every_fish(board: Board, k: int):
    """Every step of :func:`fish`, in SE's order."""
    geo, cand, placed = board.geo, board.cand, board.placed
    n = geo.size
    count = [0] * (n + 1)
    for c in range(geo.ncells):
        if placed[c]:
            count[cand[c].bit_length()] += 1
    digits = [d for d in range(1, n + 1) if count[d] + 2 * k <= n]
    if not digits:
        return
    for base_kind in (1, 0):  # columns as the base, then rows
        # per base line, each digit's places as a mask over the cover lines
        where = [board.places(base_kind * n + line) for line in range(n)]
        # per digit, the base lines where it has two places or more, as a mask over the lines
        wide = {d: sum(1 << line for line in range(n) if where[line][d].bit_count() > 1)
                for d in digits}
        for lines, chosen in _line_sets(n, k):
            for d in digits:
                if chosen & ~wide[d]:
                    continue
                bit = 1 << (d - 1)
                union = 0
                for line in lines:
                    union |= where[line][d]
                if union.bit_count() != k:
                    continue
                cover = [x for x in range(n) if union >> x & 1]
                cover_houses = sorted((base_kind ^ 1) * n + x for x in cover)
                removes = tuple((c, d) for x in cover_houses for c in geo.houses[x]
                                if not placed[c] and cand[c] & bit
                                and geo.row_col(c)[base_kind] not in lines)
                if removes:
                    outside = tuple(c for line in lines for c in geo.houses[base_kind * n + line]
                                    if geo.row_col(c)[base_kind ^ 1] not in cover)
                    yield NamedStep(*FISH[k], _fish_reason(geo, d, base_kind, lines, cover),
                                    removes, absent=((outside, bit),))


@lru_cache(maxsize=None)
def _line_sets(n: int, k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each ``k`` of ``n`` lines in ``combinations``' order, with their mask."""
    return tuple((lines, sum(1 << line for line in lines)) for lines in combinations(range(n), k))


def _fish_reason(geo: Geometry, d: int, base_kind: int, lines, cover) -> str:
    rows, cols = (sorted(cover), lines) if base_kind else (lines, sorted(cover))
    return (f"on {d} in {','.join(f'r{r + 1}' for r in rows)} "
            f"{','.join(f'c{c + 1}' for c in cols)}")


def xy_wing(board: Board, xyz: bool = False) -> NamedStep | None:
    """XY-wing (4.2): a pivot xy sees pincers xz and yz; cells seeing both pincers lose z.
    XYZ-wing (4.4): the pivot is xyz, and the cells must see it too."""
    geo, cand, placed = board.geo, board.cand, board.placed
    size = 3 if xyz else 2
    for pivot in range(geo.ncells):
        m = cand[pivot]
        if placed[pivot] or m.bit_count() != size:
            continue
        pairs = [p for p in sorted(geo.peers[pivot]) if not placed[p] and cand[p].bit_count() == 2]
        for xz in pairs:
            if (m & ~cand[xz]).bit_count() != 1:
                continue
            for yz in pairs:
                a, b = cand[xz], cand[yz]
                if (m | a | b).bit_count() != 3 or (m & a & b).bit_count() != (1 if xyz else 0):
                    continue
                if not xyz and (a == b or m in (a, b)):
                    continue
                z = a & b
                seen = set(geo.peers[xz]) & set(geo.peers[yz])
                if xyz:
                    seen &= set(geo.peers[pivot])
                seen -= {pivot, xz, yz}
                removes = tuple((c, z.bit_length()) for c in sorted(seen)
                                if not placed[c] and cand[c] & z)
                if removes:
                    name, rating = ("XYZ-Wing", 4.4) if xyz else ("XY-Wing", 4.2)
                    return NamedStep(name, rating, f"on {z.bit_length()} "
                                                   f"({_cells(geo, (pivot, xz, yz))})", removes)
    return None


def aligned_pair_exclusion(board: Board) -> NamedStep | None:
    """Aligned pair exclusion (6.2): see :func:`aligned_exclusion`."""
    return aligned_exclusion(board, 2)


ALIGNED = {2: ("Aligned Pair Exclusion", 6.2), 3: ("Aligned Triplet Exclusion", 7.5)}


def aligned_exclusion(board: Board, k: int = 3) -> NamedStep | None:
    """Aligned pair (6.2) or triplet (7.5, ``k`` 3) exclusion: ``k`` cells with two or more
    candidates and at least two cells of two to ``k`` candidates seeing them all (*excluders*;
    a base cell seeing a naked single takes no part). A choice of digits for the ``k`` is
    impossible if it puts one digit twice in cells that see each other, or if it empties an
    excluder; a digit of a base cell in no possible choice goes. The cells are taken as SE
    takes them: a pair, then (triplets) a third among the excluders of either."""
    geo, cand, placed = board.geo, board.cand, board.placed
    size = [0 if placed[c] else cand[c].bit_count() for c in range(geo.ncells)]
    bases, excluders = [], {}
    for c in range(geo.ncells):
        if size[c] < 2:
            continue
        peers = sorted(geo.peers[c])
        if any(size[p] == 1 for p in peers):
            continue
        near = [p for p in peers if 2 <= size[p] <= k]
        if near:
            bases.append(c)
            excluders[c] = near
    is_base = set(bases)
    seen = {c: set(near) for c, near in excluders.items()}
    for a, b in combinations(bases, 2):
        both = seen[a] & seen[b]
        if len(both) < 2:
            continue  # the cells' common excluders are among these
        if k == 2:
            step = _exclusion(board, (a, b), both)
            if step is not None:
                return step
            continue
        for c in dict.fromkeys(excluders[a] + excluders[b]):
            if c in is_base and c != a and c != b:
                common = both & seen[c]
                if len(common) >= 2:
                    step = _exclusion(board, (a, b, c), common)
                    if step is not None:
                        return step
    return None


#: The pairs of indexes of two and three cells.
_PAIRS = {n: tuple(combinations(range(n), 2)) for n in (2, 3)}

#: _allowed's answers by its arguments: a ladder asks again at each step, mostly of cells whose
#: candidates did not change (a pure function, so the answer is the same)
_ALLOWED: dict = {}


def _allowed(full, seeing, excluders) -> tuple[int, ...]:
    """The digits (bits) of each cell in some choice of one digit a cell (``full``: their
    candidates) that puts no digit twice in cells that see each other (``seeing``: pairs of
    indexes) and leaves every excluder (candidate masks) a digit."""
    allowed, target = [0] * len(full), list(full)
    empties: dict[int, bool] = {}  # by the digits chosen: does it empty an excluder?
    # digits as bits, so a choice's digits are one OR; once every digit of every cell is in a
    # possible choice nothing can go, and the search stops
    for choice in product(*([1 << (d - 1) for d in bits(m)] for m in full)):
        if any(choice[i] == choice[j] for i, j in seeing):
            continue
        chosen = 0
        for b in choice:
            chosen |= b
        hit = empties.get(chosen)
        if hit is None:
            hit = empties[chosen] = any(m & ~chosen == 0 for m in excluders)
        if hit:
            continue
        for i, b in enumerate(choice):
            allowed[i] |= b
        if allowed == target:
            break
    return tuple(allowed)


def _exclusion(board: Board, cells, common) -> NamedStep | None:
    geo, cand, peers = board.geo, board.cand, board.geo.peers
    full = tuple([cand[c] for c in cells])
    seeing = tuple([(i, j) for i, j in _PAIRS[len(cells)] if cells[j] in peers[cells[i]]])
    key = (full, seeing, frozenset([cand[x] for x in common]))
    allowed = _ALLOWED.get(key)
    if allowed is None:
        if len(_ALLOWED) > 1 << 16:
            _ALLOWED.clear()
        allowed = _ALLOWED[key] = _allowed(*key)
    if allowed == full:
        return None
    removes = tuple((c, d) for c, ok in zip(cells, allowed) for d in bits(cand[c] & ~ok))
    if not removes:
        return None
    return NamedStep(*ALIGNED[len(cells)],
                     f"({_cells(geo, cells)}; {_cells(geo, sorted(common))})", removes)
