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

from ...records import record

__all__ = ["Machine", "decode_machine", "encode_machine"]


@record(frozen=True)
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


def encode_machine(machine: Machine, symbols: int) -> str:
    """``machine`` in sigh's serialized form (the plain format), over ``symbols`` values;
    ValueError past what the form holds (16 symbols, 2**16 states).

    >>> encode_machine(decode_machine("AjFAGhA"), 9)
    'AjFAGhA'
    """
    starts = list(machine.start)
    accepting = [s for s in machine.accepting if s not in starts]
    others = [s for s in range(machine.states) if s not in starts and s not in accepting]
    order = {old: new for new, old in enumerate(starts + accepting + others)}
    width = max(1, (machine.states - 1).bit_length())
    if symbols > 16 or width > 16 or len(starts) >= 1 << width:
        raise ValueError("the machine is larger than sigh's form holds")
    moves: list[list[tuple[int, int]]] = [[] for _ in range(machine.states)]
    for a, b, symbol in machine.moves:
        moves[order[a]].append((symbol, order[b]))
    count_width = max(len(m) for m in moves).bit_length()
    bits: list[tuple[int, int]] = [(0, 2), (width - 1, 4), (symbols - 1, 4),
                                   (len(starts), width), (len(accepting), width),
                                   (sum(1 << i for i, s in enumerate(starts)
                                        if s in machine.accepting), len(starts)),
                                   (count_width, 4)]
    symbol_width = (symbols - 1).bit_length()
    for state_moves in moves if count_width else []:
        bits.append((len(state_moves), count_width))
        for symbol, target in sorted(state_moves):
            bits += [(symbol - 1, symbol_width), (target, width)]
    stream = "".join(format(value, f"0{size}b") if size else "" for value, size in bits)
    stream += "0" * (-len(stream) % 8)
    data = bytes(int(stream[i:i + 8], 2) for i in range(0, len(stream), 8))
    return base64.urlsafe_b64encode(data).decode().rstrip("=")
