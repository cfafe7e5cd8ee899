"""Regular expressions over a line's digits, and the state machines (NFAs) they become.

Glossary:

- symbol: one value of the pattern, written ``0``..``9``, then ``A``..``Z`` for 10..35 (either
  case), read as the digit standing for it (value v is digit ``v - low + 1`` in a grid of
  values from ``low``); ``.`` is any digit, ``[1-4]`` a class, ``[^5]`` its complement.
- NFA: states ``0..count-1``, ``start`` and ``accept`` sets, and ``moves[q]``: pairs (digit
  mask, next state), bit ``d - 1`` for digit ``d``. Thompson's construction, then the empty
  moves folded away, so every move reads one digit.
- layers: the NFA unrolled along a line of k cells: layer i holds the states some reading of i
  digits (1..N) reaches from ``start`` and from which ``accept`` is still reachable in k - i.
  The CNF (:func:`encode_layers`) has a variable per live state of a layer and per move between
  two layers; the prune (:func:`prune_layers`) is the same walk over candidates, forward and
  back, which keeps exactly the digits some accepted reading uses (each cell read once).

>>> nfa = parse_pattern("1[2-4]*5?")
>>> [nfa.accepts(w) for w in ((1,), (1, 3, 3, 5), (2,), (1, 5, 5))]
[True, True, False, False]
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Sequence

from ..records import record

__all__ = ["NFA", "parse_pattern", "encode_layers", "prune_layers", "layer_clauses",
           "LineMachine"]

MAX_SYMBOL = 35
ALL = (1 << MAX_SYMBOL) - 1
_MAX_STATES = 2000
_MAX_REPEAT = 100
_MAX_DEPTH = 40


@record(frozen=True)
class NFA:
    """A state machine reading digits (see the module docstring); no empty moves."""

    count: int
    start: frozenset[int]
    accept: frozenset[int]
    moves: tuple[tuple[tuple[int, int], ...], ...]

    def accepts(self, digits: Sequence[int]) -> bool:
        """True when the machine accepts ``digits`` read in order."""
        now = set(self.start)
        for d in digits:
            mask = 1 << (d - 1)
            now = {q2 for q in now for m, q2 in self.moves[q] if m & mask}
            if not now:
                return False
        return bool(now & self.accept)


class _Builder:
    """Thompson's construction: fragments are (entry state, exit state) joined by empty
    moves; a parse of the pattern by recursive descent."""

    def __init__(self, text: str, low: int = 1) -> None:
        self.text, self.at, self.depth, self.low = text, 0, 0, low
        self.empty: list[list[int]] = []
        self.reads: list[list[tuple[int, int]]] = []

    def state(self) -> int:
        if len(self.empty) >= _MAX_STATES:
            raise ValueError(f"the pattern needs more than {_MAX_STATES} states")
        self.empty.append([])
        self.reads.append([])
        return len(self.empty) - 1

    def where(self) -> str:
        if self.at < len(self.text):
            return f"{self.text[self.at]!r} at column {self.at + 1}"
        return "the end"

    def peek(self) -> str | None:
        return self.text[self.at] if self.at < len(self.text) else None

    def alternation(self) -> tuple[int, int]:
        parts = [self.sequence()]
        while self.peek() == "|":
            self.at += 1
            parts.append(self.sequence())
        if len(parts) == 1:
            return parts[0]
        entry, exit_ = self.state(), self.state()
        for a, b in parts:
            self.empty[entry].append(a)
            self.empty[b].append(exit_)
        return entry, exit_

    def sequence(self) -> tuple[int, int]:
        entry = exit_ = self.state()
        while self.peek() not in (None, "|", ")"):
            a, b = self.repeat()
            self.empty[exit_].append(a)
            exit_ = b
        return entry, exit_

    def repeat(self) -> tuple[int, int]:
        start = self.at
        frag = self.atom()
        if self.peek() in ("*", "+", "?", "{"):
            low, high = self.quantifier()
            frag = self.repeated(start, frag, low, high)
            if self.peek() in ("*", "+", "?", "{"):
                raise ValueError(f"a repeat of a repeat at column {self.at + 1}: put the "
                                 f"first in brackets")
        return frag

    def quantifier(self) -> tuple[int, int | None]:
        c = self.text[self.at]
        self.at += 1
        if c != "{":
            return {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
        close = self.text.find("}", self.at)
        body = self.text[self.at:close] if close >= 0 else ""
        low_text, comma, high_text = body.partition(",")
        if close < 0 or not low_text.isdigit() or (high_text and not high_text.isdigit()):
            raise ValueError(f"a repeat must read {{n}}, {{n,}} or {{n,m}} (column {self.at})")
        low = int(low_text)
        high = low if not comma else (int(high_text) if high_text else None)
        if low > _MAX_REPEAT or (high is not None and (high > _MAX_REPEAT or high < low)):
            raise ValueError(f"the repeat {{{body}}} must have n <= m <= {_MAX_REPEAT}")
        self.at = close + 1
        return low, high

    def repeated(self, start: int, frag, low: int, high: int | None) -> tuple[int, int]:
        """``frag`` low..high times; each extra copy parses the atom's text again."""
        if high == 0:
            nothing = self.state()
            return nothing, nothing
        copies = [frag] + [self.reparse(start) for _ in range(max(low, high or 1) - 1)]
        entry = exit_ = self.state()
        for a, b in copies[:max(low, 1)]:
            self.empty[exit_].append(a)
            exit_ = b
        if low == 0:
            self.empty[entry].append(exit_)  # none at all
        if high is None:
            a, b = copies[max(low, 1) - 1]
            self.empty[b].append(a)  # the last copy again, as often as it likes
            return entry, exit_
        done = self.state()
        self.empty[exit_].append(done)
        for a, b in copies[max(low, 1):high]:
            self.empty[exit_].append(a)
            self.empty[b].append(done)
            exit_ = b
        return entry, done

    def reparse(self, start: int) -> tuple[int, int]:
        saved = self.at
        self.at = start
        frag = self.atom()
        self.at = saved
        return frag

    def atom(self) -> tuple[int, int]:
        c = self.peek()
        if c is None or c in "*+?{":
            raise ValueError(f"expected a digit, '.', '[' or '(' but found {self.where()}")
        if c == "(":
            self.at += 1
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise ValueError(f"more than {_MAX_DEPTH} brackets inside each other")
            frag = self.alternation()
            if self.peek() != ")":
                raise ValueError(f"expected ')' but found {self.where()}")
            self.at += 1
            self.depth -= 1
            return frag
        mask = self.char_class() if c == "[" else self.symbol() if c != "." else ALL
        if c == ".":
            self.at += 1
        a, b = self.state(), self.state()
        self.reads[a].append((mask, b))
        return a, b

    def symbol(self) -> int:
        c = self.peek()
        value = _symbol_value(c)
        if value is None or value < self.low:
            raise ValueError(f"{self.where()} is not a value ({self.low}-9, then A-Z for "
                             "10-35)")
        self.at += 1
        return 1 << (value - self.low)

    def char_class(self) -> int:
        self.at += 1
        negate = self.peek() == "^"
        self.at += negate
        mask = 0
        while self.peek() != "]":
            if self.peek() is None:
                raise ValueError("a '[' has no ']'")
            low = self.symbol().bit_length()
            high = low
            if self.peek() == "-" and self.text[self.at + 1:self.at + 2] not in ("", "]"):
                self.at += 1
                high = self.symbol().bit_length()
                if high < low:
                    raise ValueError(f"the range ends below its start (column {self.at})")
            mask |= sum(1 << (d - 1) for d in range(low, high + 1))
        self.at += 1
        return ALL & ~mask if negate else mask


def _symbol_value(c: str | None) -> int | None:
    if c is None:
        return None
    if c in "0123456789":
        return int(c)
    if c.isascii() and c.isalpha():
        return ord(c.upper()) - ord("A") + 10
    return None


@functools.lru_cache(maxsize=128)
def parse_pattern(text: str, low: int = 1) -> NFA:
    """The NFA of a regular expression over the values from ``low``, reading digits;
    ValueError saying what is wrong and where.

    >>> parse_pattern("(12|3)+").accepts((1, 2, 3, 1, 2))
    True
    >>> parse_pattern("0+1", low=0).accepts((1, 1, 2))
    True
    >>> parse_pattern("0")
    Traceback (most recent call last):
    ...
    ValueError: '0' at column 1 is not a value (1-9, then A-Z for 10-35)
    >>> parse_pattern("1(2")
    Traceback (most recent call last):
    ...
    ValueError: expected ')' but found the end
    """
    if not isinstance(text, str) or not text:
        raise ValueError("the pattern is empty")
    text = "".join(text.split())
    b = _Builder(text, low)
    entry, exit_ = b.alternation()
    if b.peek() is not None:
        raise ValueError(f"unexpected {b.where()}")
    closure = [_closure(b.empty, q) for q in range(len(b.empty))]
    moves = tuple(tuple(sorted({(m, q2) for p in closure[q] for m, nxt in b.reads[p]
                                for q2 in closure[nxt]}))
                  for q in range(len(b.empty)))
    accept = frozenset(q for q in range(len(b.empty)) if exit_ in closure[q])
    return NFA(len(b.empty), frozenset(closure[entry]), accept, moves)


def _closure(empty: list[list[int]], q: int) -> frozenset[int]:
    seen, todo = {q}, [q]
    while todo:
        for nxt in empty[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return frozenset(seen)


Layers = tuple[tuple[frozenset[int], ...], tuple[tuple[tuple[int, int, int], ...], ...]]


@functools.lru_cache(maxsize=128)
def layer_graph(nfa: NFA, k: int, n: int) -> Layers:
    """The live states of each layer 0..k, and each step's moves (from, to, digit mask within
    1..N) between live states; every live state of layer k accepts. No live state: no reading
    of k digits is accepted."""
    digits = (1 << n) - 1
    forward = [frozenset(nfa.start)]
    for _ in range(k):
        forward.append(frozenset(q2 for q in forward[-1] for m, q2 in nfa.moves[q]
                                 if m & digits))
    live: list[frozenset[int]] = [frozenset()] * (k + 1)
    live[k] = forward[k] & nfa.accept
    for i in range(k, 0, -1):
        live[i - 1] = frozenset(q for q in forward[i - 1]
                                if any(m & digits and q2 in live[i] for m, q2 in nfa.moves[q]))
    steps = tuple(tuple((q, q2, m & digits) for q in live[i] for m, q2 in nfa.moves[q]
                        if m & digits and q2 in live[i + 1])
                  for i in range(k))
    return tuple(live), steps


def layer_clauses(nfa: NFA, k: int, n: int) -> int:
    """How many clauses :func:`encode_layers` writes for ``k`` cells (2 when none is live)."""
    live, steps = layer_graph(nfa, k, n)
    if not live[k]:
        return 2
    return 1 + sum(len(layer) for layer in live[1:]) + 2 * sum(len(s) for s in steps)


def encode_layers(ctx, nfa: NFA, cells: Sequence[int]) -> list[list[int]]:
    """Clauses saying the digits of ``cells``, read in order, are accepted by ``nfa``: a live
    state of the last layer holds, each state that holds came by a move that holds, and a
    move holds only from a state that holds, reading a digit its cell has."""
    from .context import contradiction
    k, n = len(cells), ctx.size
    live, steps = layer_graph(nfa, k, n)
    if not live[k]:
        return contradiction(ctx)
    at = [{q: ctx.fresh() for q in layer} for layer in live]
    clauses = [[at[k][q] for q in sorted(live[k])]]
    for i in range(k, 0, -1):
        came: dict[int, list[int]] = {q: [] for q in live[i]}
        for q, q2, mask in steps[i - 1]:
            move = ctx.fresh()
            came[q2].append(move)
            clauses.append([-move, at[i - 1][q]])
            clauses.append([-move] + [ctx.var(cells[i - 1], d) for d in range(1, n + 1)
                                      if mask >> (d - 1) & 1])
        clauses += [[-at[i][q]] + came[q] for q in sorted(live[i])]
    return clauses


def prune_layers(nfa: NFA, cells: Sequence[int], cand: list[int]) -> list[int] | None:
    """Keep the digits of each cell that some accepted reading within the candidates uses
    (forward over the layers, then back); the changed cells, or None when none is accepted."""
    k = len(cells)
    _, steps = layer_graph(nfa, k, math.isqrt(len(cand)))
    reach = [set(nfa.start)] + [set() for _ in range(k)]
    for i in range(k):
        reach[i + 1] = {q2 for q, q2, m in steps[i] if q in reach[i] and m & cand[cells[i]]}
    back: set[int] = {q for q in reach[k] if q in nfa.accept}
    if not back:
        return None
    keep = [0] * k
    for i in range(k - 1, -1, -1):
        here = set()
        for q, q2, m in steps[i]:
            if q in reach[i] and q2 in back and m & cand[cells[i]]:
                keep[i] |= m & cand[cells[i]]
                here.add(q)
        back = here
    changed: dict[int, int] = {}
    for cell, mask in zip(cells, keep):
        changed[cell] = changed.get(cell, cand[cell]) & mask
    out = []
    for cell, mask in changed.items():
        if not mask:
            return None
        if mask != cand[cell]:
            cand[cell] = mask
            out.append(cell)
    return sorted(out)


class LineMachine:
    """What a rule whose line is read by a state machine (``regex``, ``nfa``) shares: its
    ``nfa`` (a property of the rule) over ``line``, encoded in layers (the clause estimate
    exact), checked by the machine, pruned by the layers (and by search where the line reads
    a cell twice). A mixin of :class:`.base.Constraint` subclasses."""

    line: tuple[int, ...]

    if TYPE_CHECKING:  # a property of each rule
        @property
        def nfa(self) -> NFA: ...

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def encode(self, ctx) -> list[list[int]]:
        return encode_layers(ctx, self.nfa, self.line)

    def clause_estimate(self, geometry) -> int:
        return layer_clauses(self.nfa, len(self.line), geometry.size)

    def holds(self, digits: tuple[int, ...]) -> bool:
        return self.nfa.accepts(digits)

    def prune(self, cand: list[int]) -> list[int] | None:
        from .base import prune_by_search
        changed = prune_layers(self.nfa, self.line, cand)
        if changed is None or len(set(self.line)) == len(self.line):
            return changed
        more = prune_by_search(self.line, cand, self.nfa.accepts)  # a cell read twice: digits
        return None if more is None else sorted(set(changed) | set(more))
