"""sigh's state machines (``.NFA~<machine>~_name~cells``): the machine's serialized form read
back into states, start and accepting states and moves, as sigh's ``NFASerializer`` writes it
(``js/nfa_builder.js``, read, not copied).

The form: URL-safe base64 of a bit stream, most significant bit first. A header (2 bits format:
0 plain, 1 packed; 4 bits state width - 1; 4 bits symbol count - 1; then, in state-width bits,
how many start states and how many other accepting states; a bit a start state saying whether
it accepts; plain only: 4 bits, the width of a state's move count). States are numbered start
states first, then the other accepting states, then the rest. Then state by state until the
bits run out: plain, a move count and each move as (symbol - 1, target); packed, a mask of the
symbols it moves on (low bit: symbol 1) and a target for each. Symbol k is the k-th value.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

__all__ = ["Machine", "decode_machine"]


@dataclass(frozen=True)
class Machine:
    """A decoded machine: ``states`` many, numbered from 0; ``moves`` as (from, to, symbol)."""

    states: int
    start: tuple[int, ...]
    accepting: tuple[int, ...]
    moves: tuple[tuple[int, int, int], ...]


class _Bits:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def left(self) -> int:
        return len(self.data) * 8 - self.at

    def read(self, count: int) -> int:
        if count > self.left():
            raise ValueError("the machine's data ends too soon")
        value = 0
        for _ in range(count):
            value = value << 1 | (self.data[self.at >> 3] >> (7 - (self.at & 7))) & 1
            self.at += 1
        return value


def decode_machine(text: str) -> Machine:
    """The machine of sigh's serialized form; ValueError when it is not one.

    >>> m = decode_machine("AjFAGhA")  # 1s, then a 2, then 1s
    >>> m.states, m.start, m.accepting, m.moves
    (2, (0,), (1,), ((0, 0, 1), (0, 1, 2), (1, 1, 1)))
    """
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        raise ValueError(f"{text[:20]!r} is not a sigh state machine (base64)") from None
    if not data:
        raise ValueError("the state machine is empty")
    bits = _Bits(data)
    packed = bits.read(2)
    if packed > 1:
        raise ValueError("the state machine is in a form sigh does not write")
    width, symbols = bits.read(4) + 1, bits.read(4) + 1
    starts, accepts = bits.read(width), bits.read(width)
    start_accepts = bits.read(starts)
    count_width = 0 if packed else bits.read(4)
    moves: list[tuple[int, int, int]] = []
    state = 0
    symbol_width = max(symbols - 1, 0).bit_length()
    while (packed and bits.left() >= symbols) or (not packed and count_width
                                                   and bits.left() >= count_width):
        if packed:
            mask = bits.read(symbols)
            for symbol in range(1, symbols + 1):
                if mask >> (symbol - 1) & 1:
                    moves.append((state, bits.read(width), symbol))
        else:
            for _ in range(bits.read(count_width)):
                symbol = bits.read(symbol_width) + 1
                moves.append((state, bits.read(width), symbol))
        state += 1
    accepting = [i for i in range(starts) if start_accepts >> i & 1]
    accepting += range(starts, starts + accepts)
    total = max([starts + accepts] + [max(a, b) + 1 for a, b, _ in moves])
    return Machine(total, tuple(range(starts)), tuple(accepting), tuple(moves))
