"""Chains on the Sudoku Explainer ladder: SE's first chaining rung, cycles and forcing chains
(6.5 to about 7.5), found as SE finds them and rated as it rates them.

Glossary: a *potential* is a candidate assumed true (*on*) or false (*off*), as (cell, digit,
on). Links, SE's: an on potential turns off the cell's other digits (a *Y-link*, cell) and its
digit's other places in its box, row and column (*X-link*); an off potential turns on the
cell's other digit when the cell has two (Y), and its digit's other place in a house that has
two (X). Each implication keeps its parent, so a chain is the path back to its start; its
*complexity* is how many potentials it has, one per (cell, digit, on).

From every candidate, three passes (X-links only, Y-links only from bivalue cells, both), each
a breadth-first search as SE's:

- a *cycle*: the candidate on leads back to itself on, through at least four links; cells that
  see a candidate the cycle turns both on and off (going round each way) lose it. X or Y links
  only 6.5, both 7.0;
- a *forcing chain*: the candidate on leads to it off (it is false), or off leads to it on (it
  is true: placed). X only 6.6, both 7.0.

Every chain adds SE's length bonus: 0.1 each time the complexity less two passes 4, 6, 8, 12,
16, 24, 32, ... The easiest (rating, then complexity, then X before Y before both) is the step.
"""

from __future__ import annotations

from collections import deque

from ..deadline import Deadline
from ..model.digits import bits
from .board import Board
from .named import NamedStep

__all__ = ["forcing_chain_or_cycle", "every_chain", "length_bonus"]


class _Node:
    """A potential reached by a chain, with the node it came from (None at the start)."""

    __slots__ = ("cell", "digit", "on", "parent", "key")

    def __init__(self, cell: int, digit: int, on: bool, parent: "_Node | None" = None) -> None:
        self.cell, self.digit, self.on, self.parent = cell, digit, on, parent
        self.key = (cell, digit, on)

    def path(self) -> list["_Node"]:
        """This node and its ancestors, this one first."""
        out: list[_Node] = []
        node: _Node | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return out

    def has_ancestor(self, key) -> bool:
        node = self.parent
        while node is not None:
            if node.key == key:
                return True
            node = node.parent
        return False


class _Links:
    """The board's links, computed once per search: each digit's places in each house (boxes,
    rows, columns: SE's order), and each cell's candidates."""

    def __init__(self, board: Board) -> None:
        geo, cand, placed = board.geo, board.cand, board.placed
        self.size = geo.size
        self.cand = cand
        self.houses = [(box, row, col) for row, col, box in geo.cell_houses]
        self.places = []
        for house in geo.houses:
            by_digit: list[list[int]] = [[] for _ in range(geo.size + 1)]
            for c in house:
                if not placed[c]:
                    m = cand[c]
                    while m:
                        low = m & -m
                        by_digit[low.bit_length()].append(c)
                        m ^= low
            self.places.append(by_digit)
        self.memo_off: dict[tuple, list[tuple[int, int]]] = {}
        self.memo_on: dict[tuple, list[tuple[int, int]]] = {}

    def on_to_off(self, cell: int, digit: int, y: bool) -> list[tuple[int, int]]:
        """The (cell, digit) ``digit`` on in ``cell`` turns off: the cell's other digits
        (``y``), then the digit's other places in its box, row and column."""
        key = (cell, digit, y)
        targets = self.memo_off.get(key)
        if targets is None:
            targets = []
            if y:
                targets += [(cell, d) for d in bits(self.cand[cell]) if d != digit]
            added = {cell}
            for h in self.houses[cell]:
                for c in self.places[h][digit]:
                    if c not in added:
                        added.add(c)
                        targets.append((c, digit))
            self.memo_off[key] = targets
        return targets

    def off_to_on(self, cell: int, digit: int, y: bool, x: bool) -> list[tuple[int, int]]:
        """The (cell, digit) ``digit`` off in ``cell`` turns on: the cell's other digit when
        it has two (``y``), the digit's other place in a house that has two (``x``)."""
        key = (cell, digit, y, x)
        targets = self.memo_on.get(key)
        if targets is None:
            targets = []
            m = self.cand[cell]
            if y and m.bit_count() == 2:
                targets.append((cell, (m & ~(1 << (digit - 1))).bit_length()))
            if x:
                for h in self.houses[cell]:
                    two = self.places[h][digit]
                    if len(two) == 2:
                        targets.append((two[0] if two[1] == cell else two[1], digit))
            self.memo_on[key] = targets
        return targets


def length_bonus(complexity: int) -> float:
    """SE's length bonus for a chain of ``complexity`` potentials."""
    added, ceil, odd, length = 0.0, 4, False, complexity - 2
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return round(added, 1)


def _cycles(links: _Links, source: _Node, y: bool, x: bool, limit: int) -> list[_Node]:
    found = []
    to_on = {source.key}
    pending_on: deque[_Node] = deque([source])
    pending_off: deque[_Node] = deque()
    length = 0
    while (pending_on or pending_off) and length < limit:
        length += 1
        while pending_on:
            p = pending_on.popleft()
            for c, d in links.on_to_off(p.cell, p.digit, y):
                key = (c, d, False)
                if key != p.key and not p.has_ancestor(key):
                    pending_off.append(_Node(c, d, False, p))
        length += 1
        while pending_off:
            p = pending_off.popleft()
            for c, d in links.off_to_on(p.cell, p.digit, y, x):
                key = (c, d, True)
                if length >= 4 and key == source.key:
                    found.append(_Node(c, d, True, p))
                if key not in to_on:
                    pending_on.append(_Node(c, d, True, p))
                    to_on.add(key)
    return found


def _forcing(links: _Links, source: _Node, y: bool, limit: int) -> list[_Node]:
    """The first chain, breadth first, from ``source`` to its conjugate (none or one)."""
    start = source.key
    conj = (source.cell, source.digit, not source.on)
    parent: dict[tuple, tuple | None] = {start: None}
    layer_on = [start] if source.on else []
    layer_off = [] if source.on else [start]
    length = 0
    while (layer_on or layer_off) and length < limit:
        length += 2
        layer_off += _layer(links, layer_on, False, y, parent)
        layer_on, layer_off = _layer(links, layer_off, True, y, parent), []
        if conj in parent:
            return [_path_node(parent, conj)]
    return []


def _layer(links: _Links, layer: list[tuple], on: bool, y: bool,
           parent: dict[tuple, tuple | None]) -> list[tuple]:
    """What ``layer``'s potentials turn ``on`` (or off) that no earlier one did, in order;
    each keeps its parent."""
    after = []
    for p in layer:
        targets = links.off_to_on(p[0], p[1], y, True) if on else links.on_to_off(p[0], p[1], y)
        for c, d in targets:
            key = (c, d, on)
            if key not in parent:
                parent[key] = p
                after.append(key)
    return after


def _path_node(parent: dict[tuple, tuple | None], key: tuple) -> _Node:
    """The chain to ``key`` (its node), from the parents a search kept."""
    keys = [key]
    while (up := parent[keys[-1]]) is not None:
        keys.append(up)
    cell, digit, on = keys[-1]
    node = _Node(cell, digit, on)
    for cell, digit, on in reversed(keys[:-1]):
        node = _Node(cell, digit, on, node)
    return node


def _complexity(node: _Node) -> int:
    return len({n.key for n in node.path()})


def _cycle_removes(board: Board, end: _Node) -> tuple[tuple[int, int], ...]:
    geo, cand, placed = board.geo, board.cand, board.placed
    chain = end.path()[:-1]  # the start is the end again
    cells = {n.cell for n in chain}
    forward: set[tuple[int, int]] = set()
    back: set[tuple[int, int]] = set()
    for n in chain:
        bit = 1 << (n.digit - 1)
        for c in geo.peers[n.cell]:
            if c not in cells and not placed[c] and cand[c] & bit:
                (forward if n.on else back).add((c, n.digit))
    return tuple(sorted(forward & back))


PASSES = ((False, True, 2), (True, False, 3), (True, True, 4))  # (y, x, SE's sort key)


def forcing_chain_or_cycle(board: Board, deadline: Deadline | None = None) -> NamedStep | None:
    """The easiest cycle or forcing chain (see the module docstring), or None; looks at
    ``deadline`` (:class:`~satdoku.deadline.TimeUp`) once a candidate."""
    best = None
    for key, step in _chains(board, deadline, prune=True):
        if best is None or key < best[0]:
            best = (key, step)
    return best[1] if best else None


def every_chain(board: Board, deadline: Deadline | None = None,
                since: list[int] | None = None):
    """Every cycle and forcing chain, easiest first, as (step, complexity). With ``since``
    (each cell's candidates before some were taken out), the search leaves out the starts
    whose chains cannot pass a link that needs one of those gone (``NamedStep.absent``)."""
    found = sorted(_chains(board, deadline, prune=False, since=since), key=lambda kept: kept[0])
    return [(step, key[1]) for key, step in found]


def _chains(board: Board, deadline: Deadline | None, prune: bool,
            since: list[int] | None = None):
    """(SE's sort key, step) of the cycles and forcing chains; with ``prune``, only those that
    can still be the easiest; with ``since``, see :func:`every_chain`."""
    geo, cand, placed = board.geo, board.cand, board.placed
    best = None
    seq = 0
    links = _Links(board)
    for y, x, sort_key in PASSES:
        if prune and best is not None and best[0] < (7.0 if x and y else 6.5):
            break  # every chain of this pass and the next rates higher than the best
        reach = None if since is None else _reach_changed(board, links, since, y, x)
        for cell in range(geo.ncells):
            m = cand[cell]
            if placed[cell] or m.bit_count() < 2 or (not x and m.bit_count() > 2):
                continue
            for d in range(1, geo.size + 1):
                if not m >> (d - 1) & 1:
                    continue
                if deadline is not None:
                    deadline.check()
                start = _Node(cell, d, True)
                both = x and y
                cycle, from_on, from_off = _worth(reach, cell, d)
                cap = _limit(best, 7.0 if both else 6.5)
                found = [(True, end) for end in _cycles(links, start, y, x, cap)] if cycle else []
                if x:
                    cap = _limit(best, 7.0 if both else 6.6)
                    if from_on:
                        found += [(False, end) for end in _forcing(links, start, y, cap)]
                    if from_off:
                        found += [(False, end) for end in _forcing(links, _Node(cell, d, False),
                                                                    y, cap)]
                for is_cycle, end in found:
                    seq += 1
                    step = _chain_step(board, end, is_cycle, y, x)
                    if step is None:
                        continue
                    key = (step.rating, _complexity(end), sort_key, seq)
                    if prune and (best is None or key < best):
                        best = key
                    yield key, step


def _worth(reach, cell: int, d: int) -> tuple[bool, bool, bool]:
    """Whether to look for a cycle from ``d`` on in ``cell``, a forcing chain from it on, and
    one from it off: each needs its start to lead to a changed link's off and that link's on
    to lead to its end (``reach``: see :func:`_reach_changed`; None: look for all)."""
    if reach is None:
        return True, True, True
    back, ahead = reach
    on, off = (cell, d, True), (cell, d, False)
    return off in back and on in ahead, off in back and off in ahead, on in back and on in ahead


def _reach_changed(board: Board, links: _Links, since: list[int], y: bool,
                   x: bool) -> tuple[set, set]:
    """The links of a pass (``y``, ``x``) that need something of ``since`` gone
    (:func:`_absent`): an off
    turning on its cell's other digit in a cell that lost some, or its digit's other place
    where a house the two share lost some of it. Returns the potentials whose conjugates
    those links' offs lead to (so, links being contrapositive, the potentials that lead to
    those offs, conjugated) and the potentials their ons lead to."""
    lost_house = [0] * len(board.geo.houses)
    for cell, houses in enumerate(links.houses):
        lost = since[cell] & ~board.cand[cell]
        for h in houses:
            lost_house[h] |= lost
    offs, ons = [], []
    for cell in range(board.geo.ncells):
        if board.placed[cell]:
            continue
        for d in bits(board.cand[cell]):
            for c, e in links.off_to_on(cell, d, y, x):
                if c == cell:
                    changed = since[cell] != board.cand[cell]
                else:
                    shared = set(links.houses[cell]) & set(links.houses[c])
                    changed = any(lost_house[h] >> (d - 1) & 1 for h in shared)
                if changed:
                    offs.append((cell, d, True))
                    ons.append((c, e, True))
    return _reach(links, offs, y, x), _reach(links, ons, y, x)


def _reach(links: _Links, starts: list[tuple[int, int, bool]], y: bool,
           x: bool) -> set[tuple[int, int, bool]]:
    """Every potential ``starts`` lead to by a pass's links, themselves included."""
    seen = set(starts)
    todo = list(seen)
    while todo:
        cell, d, on = todo.pop()
        targets = links.on_to_off(cell, d, y) if on else links.off_to_on(cell, d, y, x)
        for c, e in targets:
            key = (c, e, not on)
            if key not in seen:
                seen.add(key)
                todo.append(key)
    return seen


def _limit(best, base: float) -> int:
    """How many links deep a search from ``base`` need go: past that, every chain rates higher
    than the best so far (ties on rating go to the shorter), so none can be the step."""
    if best is None:
        return 10 ** 6
    rating = best[0]
    most = 1
    while round(base + length_bonus(most + 1), 1) <= rating and most < 10 ** 5:
        most += 1
    return most + 1


def _absent(board: Board, end: _Node) -> tuple[tuple[tuple[int, ...], int], ...]:
    """What the chain needs gone: each of its on potentials reached from an off is the last
    digit of its cell (Y) or the last place of its digit in a house the two cells share (X)."""
    geo = board.geo
    out: list[tuple[tuple[int, ...], int]] = []
    for node in end.path():
        p = node.parent
        if not node.on or p is None:
            continue
        if p.cell == node.cell:
            out.append(((node.cell,), board.full))
        else:
            shared = set(geo.cell_houses[p.cell]) & set(geo.cell_houses[node.cell])
            out += [(geo.houses[h], 1 << (node.digit - 1)) for h in sorted(shared)]
    return tuple(out)


def _chain_step(board: Board, end: _Node, is_cycle: bool, y: bool, x: bool) -> NamedStep | None:
    geo = board.geo
    complexity = _complexity(end)
    both = x and y
    kind = "XY" if both else "Y" if y else "X"
    links = " ".join(f"{geo.cell_name(n.cell)}{'=' if n.on else '<>'}{n.digit}"
                     for n in reversed(end.path()))
    if is_cycle:
        removes = _cycle_removes(board, end)
        if not removes:
            return None
        rating = round((7.0 if both else 6.5) + length_bonus(complexity), 1)
        return NamedStep(f"{kind}-Cycle", rating, f"({links})", removes,
                         absent=_absent(board, end))
    rating = round((7.0 if both else 6.6) + length_bonus(complexity), 1)
    if not end.on:
        return NamedStep(f"Forcing {kind}-Chain", rating, f"({links})", ((end.cell, end.digit),),
                         absent=_absent(board, end))
    others = tuple((end.cell, e) for e in bits(board.cand[end.cell]) if e != end.digit)
    return NamedStep(f"Forcing {kind}-Chain", rating, f"({links})", others,
                     (end.cell, end.digit), absent=_absent(board, end))
