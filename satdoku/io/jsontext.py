"""JSON text read safely: the one decoder for every JSON document satdoku reads (satdoku
variant JSON, f-puzzles JSON and its lz-string, SudokuPad's SCL).

Python's decoder raises ``RecursionError`` on nesting deeper than the interpreter's stack
allows and ``ValueError`` on a number longer than its integer conversion limit (4,300 digits);
either would escape a reader's ``except json.JSONDecodeError`` and end a whole batch.
:func:`loads` turns both into :class:`json.JSONDecodeError` at the place they start, and
refuses nesting deeper than :data:`MAX_DEPTH` before any reader walks it. A key given twice in
one object is an error too (Python would keep the last silently: ``{"size": 4, "size": 9}``).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["loads", "MAX_DEPTH"]

#: Nesting deeper than this is no puzzle (an f-puzzles document nests 4 deep, SCL 6): refused,
#: so that no reader that walks a document recursively meets a stack limit either.
MAX_DEPTH = 100

_LONG_NUMBER = re.compile(r"-?\d{1000,}")
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep(text: str) -> int | None:
    """Where ``text`` first nests deeper than :data:`MAX_DEPTH` (outside strings), or None."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif token in "]}":
            depth -= 1
    return None


class _Twice(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """One JSON object: a dict, its keys each given once."""
    made = dict(pairs)
    if len(made) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Twice(key)
            seen.add(key)
    return made


def loads(text: str) -> Any:
    """The value of JSON ``text``, as :func:`json.loads` gives it.

    Raises:
        json.JSONDecodeError: ``text`` is no JSON, nests deeper than :data:`MAX_DEPTH`, or
            holds a number too long to convert (its message says which, and where).

    >>> loads('{"sum": 10}')
    {'sum': 10}
    >>> loads("[" * 200 + "]" * 200)
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: nested too deeply, past 100 levels: line 1 column 101 (char 100)
    >>> loads('{"sum": ' + "9" * 5000 + "}")
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: a number of 5000 digits: line 1 column 9 (char 8)
    >>> loads('{"size": 4, "size": 9}')
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: the key 'size' twice in one object: line 1 column 13 (char 12)
    """
    deep = _too_deep(text)
    if deep is not None:
        raise json.JSONDecodeError(f"nested too deeply, past {MAX_DEPTH} levels", text, deep)
    try:
        return json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError:
        raise
    except _Twice as twice:
        quoted = json.dumps(twice.key)
        first = text.find(quoted)
        second = text.find(quoted, first + 1) if first >= 0 else -1
        raise json.JSONDecodeError(f"the key {twice.key!r} twice in one object", text,
                                   max(second, 0)) from None
    except RecursionError:  # not reached past the depth check; kept for safety
        raise json.JSONDecodeError(f"nested too deeply, past {MAX_DEPTH} levels", text, 0) from None
    except ValueError:  # the integer conversion limit
        long = _LONG_NUMBER.search(text)
        where = long.start() if long else 0
        digits = len(long.group().lstrip("-")) if long else 0
        raise json.JSONDecodeError(f"a number of {digits} digits", text, where) from None
