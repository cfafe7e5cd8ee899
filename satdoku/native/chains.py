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

from functools import partial

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


class _Lazy(dict):
    """A table whose entries are made when first looked up."""

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: int) -> list[int]:
        value = self[key] = self.make(key)
        return value


class _Links:
    """The board's links, worked out once per search. A potential is an int while a search
    runs, ``(cell * (N + 1) + digit) << 1 | on`` (:meth:`key`), and each pass's links are
    tables from a potential to the potentials it implies, in SE's order; a chain found
    becomes :class:`_Node` objects."""

    def __init__(self, board: Board) -> None:
        geo, cand, placed = board.geo, board.cand, board.placed
        self.stride = geo.size + 1
        self.cand = cand
        self.open = [c for c in range(geo.ncells) if not placed[c]]
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
        self._on: dict[bool, dict[int, list[int]]] = {}
        self._off: dict[tuple[bool, bool], dict[int, list[int]]] = {}
        self._x: dict[int, list[int]] | None = None
        # the houses, boxes first, then rows, then columns: the order a cell's links go in
        kind = {}
        for box, row, col in self.houses:
            kind[box], kind[row], kind[col] = 0, 1, 2
        self.kinds = sorted(kind, key=lambda h: (kind[h], h))

    def key(self, cell: int, digit: int, on: bool) -> int:
        return (cell * self.stride + digit) << 1 | on

    def node(self, key: int, parent: _Node | None = None) -> _Node:
        cell, digit = divmod(key >> 1, self.stride)
        return _Node(cell, digit, bool(key & 1), parent)

    def chain(self, keys: list[int], parents: list[int], i: int) -> _Node:
        """The chain that ends at node ``i`` of a search's (``keys``, ``parents``) as nodes."""
        up = []
        while i >= 0:
            up.append(keys[i])
            i = parents[i]
        node = self.node(up[-1])
        for key in reversed(up[:-1]):
            node = self.node(key, node)
        return node

    def on_links(self, y: bool) -> dict[int, list[int]]:
        """Each open candidate's on potential to the offs it implies: the cell's other digits
        (``y``), then the digit's other places in its box, row and column, each once (worked
        out when first looked up: a search reaches few of them)."""
        table = self._on.get(y)
        if table is None:
            table = self._on[y] = _Lazy(partial(self._on_to_off, y))
        return table

    def _on_to_off(self, y: bool, key: int) -> list[int]:
        stride, places = self.stride, self.places
        cell, d = divmod(key >> 1, stride)
        out = [(cell * stride + e) << 1 for e in bits(self.cand[cell]) if e != d] if y else []
        added = {cell}
        for h in self.houses[cell]:
            for c in places[h][d]:
                if c not in added:
                    added.add(c)
                    out.append((c * stride + d) << 1)
        return out

    def off_links(self, y: bool, x: bool) -> dict[int, list[int]]:
        """Each open candidate's off potential to the ons it implies: the cell's other digit
        when it has two (``y``), then the digit's other place in its box, row or column when
        the house has two (``x``); a potential that implies nothing is not in the table (it
        gives an empty tuple)."""
        table = self._off.get((y, x))
        if table is None:
            table = self._off[y, x] = _Sparse()
            for key, ons in (self._y_links() if y else {}).items():
                table[key] = list(ons)
            if x:
                for key, ons in self._x_links().items():
                    table.setdefault(key, []).extend(ons)
        return table

    def _y_links(self) -> dict[int, list[int]]:
        stride = self.stride
        out = {}
        for cell in self.open:
            m = self.cand[cell]
            if m.bit_count() == 2:
                d, e = bits(m)
                out[(cell * stride + d) << 1] = [(cell * stride + e) << 1 | 1]
                out[(cell * stride + e) << 1] = [(cell * stride + d) << 1 | 1]
        return out

    def _x_links(self) -> dict[int, list[int]]:
        """The digits' places two to a house, both ways, a cell's in box, row, column order."""
        if self._x is None:
            stride = self.stride
            self._x = {}
            for h in self.kinds:
                for d, two in enumerate(self.places[h]):
                    if len(two) == 2:
                        a, b = two
                        self._x.setdefault((a * stride + d) << 1, []).append(
                            (b * stride + d) << 1 | 1)
                        self._x.setdefault((b * stride + d) << 1, []).append(
                            (a * stride + d) << 1 | 1)
        return self._x


class _Sparse(dict):
    """A table of links that leaves out the potentials with none."""

    def __missing__(self, key: int) -> tuple[()]:
        return ()


def length_bonus(complexity: int) -> float:
    """SE's length bonus for a chain of ``complexity`` potentials."""
    added, ceil, odd, length = 0.0, 4, False, complexity - 2
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return round(added, 1)


def _cycles(links: _Links, source: int, y: bool, x: bool, limit: int) -> list[_Node]:
    """The cycles from ``source`` (an on potential) back to itself, breadth first as SE's:
    an off is reached again by every on not already on its way, an on only once."""
    on_links, off_links = links.on_links(y), links.off_links(y, x)
    keys, parents = [source], [-1]  # the search's nodes: potential and parent node
    found = []
    to_on = {source}
    pending_on = [0]
    pending_off: list[int] = []
    length = 0
    while (pending_on or pending_off) and length < limit:
        length += 1
        for i in pending_on:
            for q in on_links[keys[i]]:
                j = parents[i]
                while j >= 0 and keys[j] != q:
                    j = parents[j]
                if j < 0:
                    keys.append(q)
                    parents.append(i)
                    pending_off.append(len(keys) - 1)
        pending_on = []
        length += 1
        for i in pending_off:
            for q in off_links[keys[i]]:
                if q == source and length >= 4:
                    found.append(links.chain(keys + [q], parents + [i], len(keys)))
                if q not in to_on:
                    keys.append(q)
                    parents.append(i)
                    pending_on.append(len(keys) - 1)
                    to_on.add(q)
        pending_off = []
    return found


def _forcing(links: _Links, on_links: dict[int, list[int]], off_links: dict[int, list[int]],
             source: int, limit: int, reached: set[int]) -> list[_Node]:
    """The first chain, breadth first, from ``source`` to its conjugate (none or one).

    ``reached`` holds what earlier searches of the pass that found no chain reached before
    they ran out of links. A start in there has no chain either: if an earlier ``s`` leads to
    ``source`` and ``source`` to its conjugate, then, links being contrapositive, that
    conjugate leads to ``s``'s, and ``s`` would have had a chain."""
    if source in reached:
        return []
    conj = source ^ 1
    parent = {source: -1}
    layer_on = [source] if source & 1 else []
    layer_off = [] if source & 1 else [source]
    length = 0
    while (layer_on or layer_off) and length < limit:
        length += 2
        layer_off += _layer(layer_on, on_links, parent)
        layer_on, layer_off = _layer(layer_off, off_links, parent), []
        if conj in parent:
            path = [conj]
            while (up := parent[path[-1]]) >= 0:
                path.append(up)
            return [links.chain(path[::-1], list(range(-1, len(path) - 1)), len(path) - 1)]
    if not layer_on:  # ran out of links: ``parent`` holds all ``source`` leads to
        reached.update(parent)
    return []


def _layer(layer: list[int], links: dict[int, list[int]], parent: dict[int, int]) -> list[int]:
    """What ``layer``'s potentials imply that nothing before did, in order; each keeps its
    parent."""
    after = []
    for p in layer:
        for q in links[p]:
            if q not in parent:
                parent[q] = p
                after.append(q)
    return after


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
    cand = board.cand
    best = None
    seq = 0
    links = _Links(board)
    for y, x, sort_key in PASSES:
        if prune and best is not None and best[0] < (7.0 if x and y else 6.5):
            break  # every chain of this pass and the next rates higher than the best
        reach = None if since is None else _reach_changed(board, links, since, y, x)
        reached: set[int] = set()  # see _forcing
        on_links, off_links = links.on_links(y), links.off_links(y, x)
        if reach is None:
            starts = [links.key(cell, d, True) for cell in links.open for d in bits(cand[cell])]
        else:  # in the same order: cell by cell, digit by digit
            starts = sorted({k | 1 for k in reach[0]})
        for start in starts:
            m = cand[(start >> 1) // links.stride]
            if m.bit_count() < 2 or (not x and m.bit_count() > 2):
                continue
            if deadline is not None:
                deadline.check()
            both = x and y
            cycle, from_on, from_off = _worth(reach, start)
            cap = _limit(best, 7.0 if both else 6.5)
            found = [(True, end) for end in _cycles(links, start, y, x, cap)] if cycle else []
            if x:
                cap = _limit(best, 7.0 if both else 6.6)
                if from_on:
                    found += [(False, end) for end in _forcing(links, on_links, off_links,
                                                                start, cap, reached)]
                if from_off:
                    found += [(False, end) for end in _forcing(links, on_links, off_links,
                                                                start ^ 1, cap, reached)]
            for is_cycle, end in found:
                seq += 1
                step = _chain_step(board, end, is_cycle, y, x)
                if step is None:
                    continue
                key = (step.rating, _complexity(end), sort_key, seq)
                if prune and (best is None or key < best):
                    best = key
                yield key, step


def _worth(reach, start: int) -> tuple[bool, bool, bool]:
    """Whether to look for a cycle from ``start`` (an on potential), a forcing chain from it,
    and one from its off: each needs its start to lead to a changed link's off and that link's
    on to lead to its end (``reach``: see :func:`_reach_changed`; None: look for all)."""
    if reach is None:
        return True, True, True
    back, ahead = reach
    on, off = start, start ^ 1
    return off in back and on in ahead, off in back and off in ahead, on in back and on in ahead


def _reach_changed(board: Board, links: _Links, since: list[int], y: bool,
                   x: bool) -> tuple[set[int], set[int]]:
    """The links of a pass (``y``, ``x``) that need something of ``since`` gone
    (:func:`_absent`): an off turning on its cell's other digit in a cell that lost some, or
    its digit's other place where a house the two share lost some of it. Returns the
    potentials whose conjugates those links' offs lead to (so, links being contrapositive,
    the potentials that lead to those offs, conjugated) and the potentials their ons lead
    to."""
    cand, houses, stride = board.cand, links.houses, links.stride
    lost_house = [0] * len(board.geo.houses)
    for cell, lost in enumerate(since):
        lost &= ~cand[cell]
        if lost:
            for h in houses[cell]:
                lost_house[h] |= lost
    offs, ons = [], []
    for off, targets in links.off_links(y, x).items():
        cell, d = divmod(off >> 1, stride)
        for on in targets:
            c = (on >> 1) // stride
            if c == cell:
                changed = since[cell] != cand[cell]
            else:
                bit = 1 << (d - 1)
                changed = any(lost_house[h] & bit for h in houses[cell] if h in houses[c])
            if changed:
                offs.append(off | 1)
                ons.append(on)
    return _reach(links, offs, y, x), _reach(links, ons, y, x)


def _reach(links: _Links, starts: list[int], y: bool, x: bool) -> set[int]:
    """Every potential ``starts`` lead to by a pass's links, themselves included."""
    on_links, off_links = links.on_links(y), links.off_links(y, x)
    seen = set(starts)
    todo = list(seen)
    while todo:
        p = todo.pop()
        for q in (on_links[p] if p & 1 else off_links[p]):
            if q not in seen:
                seen.add(q)
                todo.append(q)
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
