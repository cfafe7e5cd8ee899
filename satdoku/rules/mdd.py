"""Layered decision diagrams of partial sums: the encodings of sums whose terms may repeat a
value (a little killer across boxes, an arrow's shaft, the group sums of a long line).

Glossary (adds to :mod:`.sums`):

- layer i: the prefix sum after the first i terms (layer 0 is 0, the last layer the total).
- state ``(i, s)``: layer i holds s. A *live* state is reachable from 0 and can still reach a
  target (:func:`reachable`); a layer with one live state is a constant and gets no variable.
- transition ``(i, a, v)``: from state ``(i-1, a)`` term i takes value v, to ``(i, a+v)``.
- constant literal: ``True`` or ``False`` standing for a literal whose value is known while
  the clauses are written; :class:`Clauses` drops ``False`` and skips clauses with ``True``.

Two encodings (:mod:`.sums` picks one by name):

- :func:`partial_sums`: a variable per live state, "at least one" per layer, and for each term
  value the forward clause ``(i-1, a) & v -> (i, a+v)`` and the backward clause ``(i, s) & v ->
  (i-1, s-v)``. Small, but unit propagation only follows a term once its value is known.
- :func:`mdd`: the same states plus a variable per transition, with the support clauses of
  Bacchus's decomposition of a layered automaton (*GAC via unit propagation*, CP 2007): a
  transition implies its two states and its value; a state implies one of its incoming and one
  of its outgoing transitions; a value implies one of its transitions. Unit propagation then
  removes every value no completion of the sum uses (arc consistency), at the price of one
  variable per transition.
"""

from __future__ import annotations

from typing import Sequence, overload

from .context import Clause, contradiction

__all__ = ["Clauses", "neg", "negated", "reachable", "partial_sums", "mdd"]

Term = tuple[tuple[int, int], ...]


class Clauses(list):
    """Clauses with constants: a literal ``True`` satisfies the clause, ``False`` is dropped."""

    def add(self, *lits) -> None:
        if any(lit is True for lit in lits):
            return
        self.append([lit for lit in lits if lit is not False])


def neg(lit):
    """The negation of a literal or a constant."""
    return not lit if isinstance(lit, bool) else -lit


@overload
def reachable(terms: Sequence[Sequence[int]], targets: set[int]) -> list[set[int]]: ...


@overload
def reachable(terms: Sequence[Sequence[int]], targets: set[int], work: int | None
              ) -> list[set[int]] | None: ...


def reachable(terms: Sequence[Sequence[int]], targets: set[int], work: int | None = None
              ) -> list[set[int]] | None:
    """For each layer 0..L, the prefix sums that come from the start and reach a target;
    None when the sums times the values of the layers would pass ``work`` (None: no limit)."""
    forward = [{0}]
    for values in terms:
        if work is not None:
            work -= len(forward[-1]) * len(values)
            if work < 0:
                return None
        forward.append({a + v for a in forward[-1] for v in values})
    live: list[set[int]] = [set() for _ in forward]
    live[-1] = forward[-1] & targets
    for i in range(len(terms) - 1, -1, -1):
        live[i] = {s - v for s in live[i + 1] for v in terms[i]} & forward[i]
    return live


def _states(ctx, live: list[set[int]], out: Clauses, first: Term = ()
            ) -> tuple[list[dict], bool]:
    """A literal (or ``True``) per live state, with "at least one" per layer; and whether
    layer 1 is ``first``, the first term itself (when given, its values differ and layer 1 is
    not the last: its literals are the states, its dead values are ruled out)."""
    states: list[dict] = []
    by_value = dict(first)
    reuse = bool(first) and len(by_value) == len(first) and len(live) > 2 and len(live[1]) > 1
    for i, layer in enumerate(live):
        if len(layer) == 1:
            states.append({s: True for s in layer})
        elif i == 1 and reuse:
            states.append({s: by_value[s] for s in sorted(layer)})
            for v, lit in first:
                if v not in layer:
                    out.add(-lit)
        else:
            states.append({s: ctx.fresh() for s in sorted(layer)})
            out.add(*states[-1].values())
    return states, reuse


def _channel(terms: list[Term], target: int) -> list[Clause] | None:
    """``a + b == target`` for two terms whose values differ within each: each value implies
    the other's partner, or is ruled out (arc-consistent, two clauses a value)."""
    a, b = (dict(t) for t in terms)
    if len(a) != len(terms[0]) or len(b) != len(terms[1]):
        return None
    out = Clauses()
    for mine, other in ((a, b), (b, a)):
        for v, lit in mine.items():
            out.add(-lit, other.get(target - v, False))
    return list(out)


def partial_sums(ctx, terms: list[Term], target: int) -> list[Clause]:
    """Clauses for ``sum(terms) == target``: live states, forward and backward clauses."""
    live = reachable([[v for v, _ in t] for t in terms], {target})
    if not live[0]:
        return contradiction(ctx)
    if len(terms) == 2:
        channel = _channel(terms, target)
        if channel is not None:
            return channel
    out = Clauses()
    states, reused = _states(ctx, live, out, terms[0])
    for i, term in enumerate(terms):
        if i == 0 and reused:
            continue  # layer 1 is this term
        _link(term, states[i], states[i + 1], out)
        _link(negated(term), states[i + 1], states[i], out)
    return dedupe(out)


def negated(term: Term) -> Term:
    """The term whose value is minus ``term``'s."""
    return tuple((-v, lit) for v, lit in term)


def _link(term: Term, before: dict, after: dict, out: list[Clause]) -> None:
    """The clauses ``(before = a) & (term = v) -> (after = a + v)`` (a dead ``a + v``: the
    first two cannot both hold); a state is a literal or ``True`` (a layer of one state)."""
    append = out.append
    for v, lit in term:
        for a, p in before.items():
            q = after.get(a + v)
            if q is True:
                continue
            clause = [-lit] if p is True else [-p, -lit]
            if q is not None:
                clause.append(q)
            append(clause)


def mdd(ctx, terms: list[Term], target: int) -> list[Clause]:
    """Clauses for ``sum(terms) == target`` on which unit propagation is arc-consistent:
    states, transitions and their support clauses (see the module docstring)."""
    live = reachable([[v for v, _ in t] for t in terms], {target})
    if not live[0]:
        return contradiction(ctx)
    out = Clauses()
    states, _ = _states(ctx, live, out)
    for i, term in enumerate(terms):
        before, after = states[i], states[i + 1]
        by_value: dict[int, list[int]] = {}
        for v, lit in term:
            by_value.setdefault(v, []).append(lit)
        outgoing: dict[int, list] = {a: [] for a in before}
        incoming: dict[int, list] = {s: [] for s in after}
        for v, lits in by_value.items():
            edges = [(a, a + v) for a in before if a + v in after]
            if not edges:
                for lit in lits:
                    out.add(-lit)
                continue
            value = lits[0] if len(lits) == 1 else _either(ctx, lits, out)
            single = len(before) == 1  # from a constant state: the value is the transition
            via = []
            for a, s in edges:
                p, q = before[a], after[s]
                t = value if single else ctx.fresh()
                if not single:
                    out.add(-t, p)
                    out.add(-t, value)
                out.add(-t, q)
                outgoing[a].append(t)
                incoming[s].append(t)
                via.append(t)
            out.add(-value, *via)
        for a, edges in outgoing.items():
            out.add(neg(before[a]), *edges)
        for s, edges in incoming.items():
            out.add(neg(after[s]), *edges)
    return dedupe(out)


def _either(ctx, lits: list[int], out: Clauses) -> int:
    """A new variable equal to the OR of ``lits``."""
    u = ctx.fresh()
    out.add(-u, *lits)
    for lit in lits:
        out.add(-lit, u)
    return u


def dedupe(clauses: list[Clause]) -> list[Clause]:
    """``clauses`` without repeats (the first of each kept, in order)."""
    seen = set()
    out = []
    for clause in clauses:
        key = tuple(clause)
        if key not in seen:
            seen.add(key)
            out.append(clause)
    return out
