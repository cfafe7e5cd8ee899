"""A setter's relation between two digits ``a`` and ``b``, parsed here (never ``eval``).

Grammar, loosest first (the words and the symbols both work, as setters write them in Python
or JavaScript)::

    relation := either ('or' | '||') either ...
    either   := negation ('and' | '&&') negation ...
    negation := ('not' | '!') negation | comparison
    comparison := sum (('==' | '=' | '!=' | '<' | '<=' | '>' | '>=') sum)...   (chained)
    sum      := product (('+' | '-') product)...
    product  := unary (('*' | '/' | '%') unary)...
    unary    := '-' unary | number | 'a' | 'b' | '(' relation ')' | f '(' sum, ... ')'
    f        := 'abs' | 'min' | 'max'

Numbers are exact (``/`` divides into a fraction, so ``a / b == 2`` means what it says). The
whole must be a truth (a comparison, or them joined): ``a + b`` alone is refused. A division or
remainder by zero makes the comparison that holds it false (``not (a / 0 == 1)`` holds).
Errors are ValueErrors that say what is wrong and where (``column 7``).

>>> rel = parse_relation("a > b && a % b == 0")
>>> rel(6, 3), rel(3, 6), rel(5, 2)
(True, False, False)
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction
from typing import Callable

__all__ = ["parse_relation", "Relation"]

Relation = Callable[[int, int], bool]

_TOKEN = re.compile(r"\s*(?:(\d+)|(a|b|abs|min|max|and|or|not)\b"
                    r"|(==|!=|<=|>=|&&|\|\||[-+*/%()<>=!,]))")
_COMPARE = {"==": lambda x, y: x == y, "=": lambda x, y: x == y, "!=": lambda x, y: x != y,
            "<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
            ">=": lambda x, y: x >= y}
_MAX_LENGTH = 500
_MAX_NUMBER = 10 ** 6
_MAX_DEPTH = 40  # brackets, 'not' and '-' inside each other


class _Zero(Exception):
    """A division by zero: the pair does not satisfy the relation."""


def _tokens(text: str) -> list[tuple[str, int]]:
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            column = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
            raise ValueError(f"unexpected {text[column - 1]!r} at column {column}")
        group = next(i for i, g in enumerate(m.groups(), 1) if g is not None)  # the one
        out.append((m.group(group), m.start(group) + 1))
        pos = m.end()
    return out


class _Parser:
    """Recursive descent over the tokens; each rule returns (kind, function of a and b)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.at = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.tokens[self.at][0] if self.at < len(self.tokens) else None

    def where(self) -> str:
        if self.at < len(self.tokens):
            return f"{self.tokens[self.at][0]!r} at column {self.tokens[self.at][1]}"
        return "the end"

    def take(self, *words: str) -> str | None:
        if self.peek() in words:
            self.at += 1
            return self.tokens[self.at - 1][0]
        return None

    def expect(self, word: str) -> None:
        if not self.take(word):
            raise ValueError(f"expected {word!r}, found {self.where()}")

    def need(self, kind: str, part, what: str):
        if part[0] != kind:
            wanted, found = ("a number", "a truth") if kind == "num" else ("a truth", "a number")
            raise ValueError(f"{what} needs {wanted}, not {found} (before {self.where()})")
        return part[1]

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise ValueError(f"more than {_MAX_DEPTH} brackets or signs inside each other "
                             f"(at {self.where()})")

    def relation(self):
        left = self.either()
        while self.take("or", "||"):
            f = self.need("bool", left, "'or'")
            g = self.need("bool", self.either(), "'or'")
            left = ("bool", lambda a, b, f=f, g=g: f(a, b) or g(a, b))
        return left

    def either(self):
        left = self.negation()
        while self.take("and", "&&"):
            f = self.need("bool", left, "'and'")
            g = self.need("bool", self.negation(), "'and'")
            left = ("bool", lambda a, b, f=f, g=g: f(a, b) and g(a, b))
        return left

    def negation(self):
        if self.take("not", "!"):
            self.deeper()
            f = self.need("bool", self.negation(), "'not'")
            self.depth -= 1
            return ("bool", lambda a, b: not f(a, b))
        return self.comparison()

    def comparison(self):
        first = self.sum()
        parts, ops = [first], []
        while self.peek() in _COMPARE:
            ops.append(_COMPARE[self.take(*_COMPARE)])
            parts.append(self.sum())
        if not ops:
            return first
        fs = [self.need("num", p, "a comparison") for p in parts]

        def compare(a, b):
            try:
                values = [f(a, b) for f in fs]
            except _Zero:  # a value with no number: the comparison fails
                return False
            return all(op(x, y) for op, x, y in zip(ops, values, values[1:]))
        return ("bool", compare)

    def sum(self):
        left = self.product()
        while (op := self.take("+", "-")):
            f = self.need("num", left, f"{op!r}")
            g = self.need("num", self.product(), f"{op!r}")
            left = ("num", (lambda a, b, f=f, g=g: f(a, b) + g(a, b)) if op == "+"
                    else (lambda a, b, f=f, g=g: f(a, b) - g(a, b)))
        return left

    def product(self):
        left = self.unary()
        while (op := self.take("*", "/", "%")):
            f = self.need("num", left, f"{op!r}")
            g = self.need("num", self.unary(), f"{op!r}")
            left = ("num", functools.partial(_arith, op, f, g))
        return left

    def unary(self):
        if self.take("-"):
            self.deeper()
            f = self.need("num", self.unary(), "'-'")
            self.depth -= 1
            return ("num", lambda a, b: -f(a, b))
        word = self.peek()
        if word is None:
            raise ValueError("the relation ends too early")
        self.at += 1
        if word.isdigit():
            if int(word) > _MAX_NUMBER:
                raise ValueError(f"the number {word} is too large")
            value = int(word)
            return ("num", lambda a, b: value)
        if word == "a":
            return ("num", lambda a, b: a)
        if word == "b":
            return ("num", lambda a, b: b)
        if word == "(":
            self.deeper()
            inner = self.relation()
            self.expect(")")
            self.depth -= 1
            return inner
        if word in ("abs", "min", "max"):
            return self.call(word)
        self.at -= 1
        raise ValueError(f"unexpected {self.where()}")

    def call(self, name: str):
        self.expect("(")
        args = [self.need("num", self.sum(), f"{name}()")]
        while self.take(","):
            args.append(self.need("num", self.sum(), f"{name}()"))
        self.expect(")")
        if name == "abs":
            if len(args) != 1:
                raise ValueError("abs() takes one value")
            f = args[0]
            return ("num", lambda a, b: abs(f(a, b)))
        pick = min if name == "min" else max
        return ("num", lambda a, b: pick(g(a, b) for g in args))


def _arith(op: str, f, g, a, b):
    x, y = f(a, b), g(a, b)
    if op == "*":
        return x * y
    if y == 0:
        raise _Zero
    return Fraction(x, y) if op == "/" else x % y


@functools.lru_cache(maxsize=256)
def parse_relation(text: str) -> Relation:
    """The relation ``text`` states, as a function of two digits; ValueError saying where it
    is wrong.

    >>> parse_relation("abs(a - b) >= 3")(1, 4)
    True
    >>> parse_relation("a + b")
    Traceback (most recent call last):
    ...
    ValueError: the relation must be a truth, like 'a > b', not a number
    >>> parse_relation("a > > b")
    Traceback (most recent call last):
    ...
    ValueError: unexpected '>' at column 5
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("the relation is empty")
    if len(text) > _MAX_LENGTH:
        raise ValueError(f"the relation is longer than {_MAX_LENGTH} characters")
    parser = _Parser(text)
    kind, f = parser.relation()
    if parser.peek() is not None:
        raise ValueError(f"unexpected {parser.where()}")
    if kind != "bool":
        raise ValueError("the relation must be a truth, like 'a > b', not a number")

    def relation(a: int, b: int) -> bool:
        try:
            return bool(f(a, b))
        except _Zero:
            return False
    return relation
