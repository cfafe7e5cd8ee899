"""Proof checkers of satdoku's own: DRAT checked forward, LRAT checked by its hints.

A solver that says "unsatisfiable" can be wrong; a proof lets anyone check the claim without
trusting the solver. These checkers share no code with any solver (python-sat is not imported
here) and are small enough to read in one sitting; ``drat-trim`` and ``lrat-check``
(scripts/build_drat_trim.sh) are the references they are cross-checked against (every
``--proof`` run with them at hand checks each proof with both: :mod:`satdoku.sat.proofs`).

- A DRAT proof is a list of steps, each adding a lemma or deleting a clause. :func:`check_drat`
  checks every lemma forward: it must be RUP (asserting its negation, unit propagation over the
  clauses so far reaches a conflict) or else RAT on its first literal (every resolvent with a
  clause holding that literal's negation is RUP). The proof holds when the empty clause is
  derived or the clauses so far propagate to a conflict by themselves. Deletions are read but
  not applied: each clause kept is implied by the formula (or added as RAT against the clauses
  kept), so keeping them can only make propagation stronger and a RAT check stricter, never
  accept a false claim; drat-trim ignores unit deletions for the same reason.
- An LRAT proof names, for each lemma, the clauses (by number: the formula's 1..m, then the
  lemmas' own) whose unit propagation refutes the lemma's negation, in order. :func:`check_lrat`
  follows those hints and nothing else: linear in the proof's size.

Both read text; :func:`parse_drat` also reads binary DRAT (what CaDiCaL writes by default).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..deadline import NO_DEADLINE, Deadline
from ..errors import ModelError
from ..records import record

__all__ = ["ProofCheck", "parse_drat", "check_drat", "check_lrat"]

Clause = list[int]


@record
class ProofCheck:
    """The verdict of a checker: ``ok``, the lemmas it checked, and what failed (``message``,
    with the proof's line or step)."""

    ok: bool
    lemmas: int
    message: str


def parse_drat(data: bytes | str) -> list[tuple[bool, Clause]]:
    """The steps of a DRAT proof, text or binary: (deletion?, literals).

    >>> parse_drat("1 2 0\\nd 1 2 0\\n0\\n")
    [(False, [1, 2]), (True, [1, 2]), (False, [])]
    >>> parse_drat(bytes([0x61, 2, 5, 0]))
    [(False, [1, -2])]
    """
    if isinstance(data, str):
        data = data.encode()
    head = data[:10]
    if head and any(b not in b"0123456789-d c\n\r\t" for b in head):
        return _parse_binary(data)
    steps: list[tuple[bool, Clause]] = []
    for number, raw in enumerate(data.decode("ascii", "replace").splitlines(), start=1):
        words = raw.split()
        if not words or words[0] == "c":
            continue
        delete = words[0] == "d"
        try:
            lits = [int(w) for w in words[delete:]]
        except ValueError:
            raise ModelError(f"not a DRAT step: {raw[:40]!r}", line=number) from None
        if not lits or lits[-1] != 0 or 0 in lits[:-1]:
            raise ModelError(f"a DRAT step ends with one 0: {raw[:40]!r}", line=number)
        steps.append((delete, lits[:-1]))
    return steps


def _parse_binary(data: bytes) -> list[tuple[bool, Clause]]:
    """Binary DRAT: ``a``/``d``, then each literal as a variable-length number 2v (+1 when
    negative), then 0."""
    steps: list[tuple[bool, Clause]] = []
    i, n = 0, len(data)
    while i < n:
        kind = data[i]
        if kind not in (0x61, 0x64):
            raise ModelError(f"byte {i}: not a binary DRAT step (0x{kind:02x})")
        i += 1
        lits: Clause = []
        while True:
            value = shift = 0
            while True:
                if i >= n:
                    raise ModelError("binary DRAT cut short")
                byte = data[i]
                i += 1
                value |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    break
            if value == 0:
                break
            lits.append(-(value >> 1) if value & 1 else value >> 1)
        steps.append((kind == 0x64, lits))
    return steps


class _Propagator:
    """Clauses under two watched literals, with a top-level trail that only grows.

    Values and watch lists are lists indexed by literal: ``x[-l]`` is ``x[len - l]``, so one
    list of ``2n + 1`` entries holds both polarities of ``n`` variables.
    """

    def __init__(self, nvars: int) -> None:
        self.nvars = 0
        self.val: list[int] = [0]
        self.watches: list[list[int]] = [[]]
        self.clauses: list[Clause] = []
        self.units: list[Clause] = []
        self.trail: list[int] = []
        self.head = 0
        self.inconsistent = False
        self._grow(nvars)

    def _grow(self, nvars: int) -> None:
        if nvars <= self.nvars:
            return
        old, n = self.nvars, nvars
        val = [0] * (2 * n + 1)
        watches: list[list[int]] = [[] for _ in range(2 * n + 1)]
        for v in range(1, old + 1):
            val[v], val[-v] = self.val[v], self.val[-v]
            watches[v], watches[-v] = self.watches[v], self.watches[-v]
        self.nvars, self.val, self.watches = n, val, watches

    def _assign(self, lit: int) -> None:
        self.val[lit] = 1
        self.val[-lit] = -1
        self.trail.append(lit)

    def add(self, clause: Sequence[int]) -> None:
        """Add a clause for good (a unit is assigned and propagated at top level)."""
        if self.inconsistent:
            return
        self._grow(max(map(abs, clause), default=0))
        val = self.val
        c = sorted(set(clause), key=lambda lit: val[lit] == -1)
        if not c or val[c[0]] == -1:
            self.inconsistent = True
            return
        if len(c) == 1 or val[c[1]] == -1:
            if val[c[0]] == 0:
                self._assign(c[0])
                if self.propagate():
                    self.inconsistent = True
            if len(c) == 1:
                self.units.append(c)
                return
        index = len(self.clauses)
        self.clauses.append(c)
        self.watches[c[0]].append(index)
        self.watches[c[1]].append(index)

    def propagate(self) -> bool:
        """Unit propagation from the trail's head; True on a conflict."""
        val, watches, clauses, trail = self.val, self.watches, self.clauses, self.trail
        while self.head < len(trail):
            false = -trail[self.head]
            self.head += 1
            ws = watches[false]
            i = 0
            while i < len(ws):
                c = clauses[ws[i]]
                if c[0] == false:
                    c[0], c[1] = c[1], c[0]
                first = c[0]
                if val[first] == 1:
                    i += 1
                    continue
                for k in range(2, len(c)):
                    if val[c[k]] != -1:
                        c[1], c[k] = c[k], c[1]
                        watches[c[1]].append(ws[i])
                        ws[i] = ws[-1]
                        ws.pop()
                        break
                else:
                    if val[first] == -1:
                        return True
                    self._assign(first)
                    i += 1
        return False

    def refutes(self, negated: Iterable[int]) -> bool:
        """Whether assuming every literal of ``negated`` propagates to a conflict (RUP of the
        clause of their negations); the trail is restored."""
        if self.inconsistent:
            return True
        mark, head = len(self.trail), self.head
        self._grow(max((abs(lit) for lit in negated), default=0))
        conflict = False
        for lit in negated:
            value = self.val[lit]
            if value == -1:
                conflict = True
                break
            if value == 0:
                self._assign(lit)
        conflict = conflict or self.propagate()
        for lit in self.trail[mark:]:
            self.val[lit] = self.val[-lit] = 0
        del self.trail[mark:]
        self.head = head
        return conflict


def check_drat(clauses: Sequence[Sequence[int]], steps: Sequence[tuple[bool, Clause]], *,
               deadline: Deadline = NO_DEADLINE) -> ProofCheck:
    """Check that the DRAT ``steps`` (:func:`parse_drat`) refute ``clauses``.

    >>> check_drat([[1, 2], [-1, 2], [1, -2], [-1, -2]], parse_drat("2 0\\n0\\n")).ok
    True
    >>> check_drat([[1, 2], [-1, 2], [1, -2]], parse_drat("2 0\\n0\\n")).message
    'step 2: lemma 0 is neither RUP nor RAT'
    """
    prop = _Propagator(max((abs(lit) for c in clauses for lit in c), default=0))
    for clause in clauses:
        prop.add(clause)
    lemmas = 0
    for number, (delete, lemma) in enumerate(steps, start=1):
        if prop.inconsistent:
            break
        if delete:
            continue
        if number % 64 == 0:
            deadline.check()
        lemmas += 1
        if not prop.refutes([-lit for lit in lemma]) and not _rat(prop, lemma):
            text = " ".join(map(str, lemma + [0]))
            return ProofCheck(False, lemmas, f"step {number}: lemma {text[:60]} is neither "
                                             f"RUP nor RAT")
        prop.add(lemma)
    if not prop.inconsistent:
        return ProofCheck(False, lemmas, "the proof never derives the empty clause")
    return ProofCheck(True, lemmas, f"{lemmas:,} lemmas checked")


def _rat(prop: _Propagator, lemma: Clause) -> bool:
    """Whether ``lemma`` is RAT on its first literal over the clauses so far."""
    if not lemma:
        return False
    pivot = lemma[0]
    negated = [-lit for lit in lemma]
    for clause in prop.clauses + prop.units:
        if -pivot in clause:
            rest = [-lit for lit in clause if lit != -pivot]
            if any(-lit in lemma for lit in rest):
                continue  # the resolvent is a tautology
            if not prop.refutes(negated + rest):
                return False
    return True


def check_lrat(clauses: Sequence[Sequence[int]], text: str, *,
               deadline: Deadline = NO_DEADLINE) -> ProofCheck:
    """Check that the LRAT proof ``text`` refutes ``clauses`` (numbered 1..m in order).

    Each line is ``id lits 0 hints 0`` (a lemma) or ``id d ids 0`` (deletions). A positive
    hint names a clause that must be unit (or falsified: the conflict that ends the lemma)
    under the lemma's negation and the units so far; a negative hint ``-j`` starts the RAT
    case of clause j, which holds the negation of the lemma's first literal, followed by the
    hints of that resolvent.

    >>> check_lrat([[1, 2], [-1, 2], [1, -2], [-1, -2]], "5 2 0 1 2 0\\n6 0 5 3 4 0\\n").ok
    True
    >>> check_lrat([[1, 2], [-1, 2], [1, -2], [-1, -2]], "5 2 0 3 0\\n").message
    'line 1: hint 3 is satisfied, not unit'
    """
    db: dict[int, Clause] = {i: list(c) for i, c in enumerate(clauses, start=1)}
    last = len(db)
    lemmas = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split()
        if not words or words[0] == "c":
            continue
        if number % 256 == 0:
            deadline.check()
        try:
            ident = int(words[0])
            if words[1:2] == ["d"]:
                for w in words[2:-1]:
                    db.pop(int(w), None)
                continue
            numbers = [int(w) for w in words[1:]]
            cut = numbers.index(0)
        except (ValueError, IndexError):
            return ProofCheck(False, lemmas, f"line {number}: not an LRAT step: {raw[:40]!r}")
        lemma, hints = numbers[:cut], numbers[cut + 1:]
        if ident <= last or not hints or hints[-1] != 0:
            return ProofCheck(False, lemmas, f"line {number}: clause {ident} out of order, or "
                                             "its hints do not end with 0")
        lemmas += 1
        problem = _lrat_step(db, lemma, hints[:-1])
        if problem:
            return ProofCheck(False, lemmas, f"line {number}: {problem}")
        db[ident] = lemma
        last = ident
        if not lemma:
            return ProofCheck(True, lemmas, f"{lemmas:,} lemmas checked")
    return ProofCheck(False, lemmas, "the proof never derives the empty clause")


def _lrat_step(db: dict[int, Clause], lemma: Clause, hints: list[int]) -> str | None:
    """Why ``lemma`` does not follow from ``db`` by its ``hints`` (None: it does)."""
    true = {-lit for lit in lemma}
    groups: dict[int, list[int]] = {}
    first: list[int] = []
    current = first
    for h in hints:
        if h < 0:
            current = groups.setdefault(-h, [])
        else:
            current.append(h)
    result = _follow(db, true, first)
    if result != "open":
        return None if result == "done" else result
    if not groups or not lemma:
        return "the hints reach no conflict"
    pivot = lemma[0]
    for j, clause in db.items():
        if -pivot not in clause:
            continue
        rest = {-lit for lit in clause if lit != -pivot}
        if any(-lit in true for lit in rest):
            continue  # the resolvent is satisfied by the units so far
        if j not in groups:
            return f"RAT on {pivot}: clause {j} has no hints"
        if _follow(db, true | rest, groups[j]) != "done":
            return f"RAT on {pivot}: the hints of clause {j} reach no conflict"
    return None


def _follow(db: dict[int, Clause], true: set[int], hints: list[int]) -> str | None:
    """Unit propagation along ``hints`` over the literals ``true`` (extended in place):
    ``'done'`` at a conflict, ``'open'`` when the hints run out first, else the problem."""
    for h in hints:
        clause = db.get(h)
        if clause is None:
            return f"hint {h} names no clause"
        if any(lit in true for lit in clause):
            return f"hint {h} is satisfied, not unit"
        open_ = [lit for lit in clause if -lit not in true]
        if not open_:
            return "done"
        if len(open_) > 1:
            return f"hint {h} leaves {len(open_)} literals open"
        true.add(open_[0])
    return "open"
