"""The puzzle forms beyond classic text and satdoku JSON, in one table: how to tell each one
(cheaply, before its reader is imported) and which function reads it.

A reader for a new form (SudokuPad links...) plugs in here with one :class:`Form` row: every
command then reads it (:mod:`.inputs` asks :func:`form_of_text` which inputs are variant
puzzles, :mod:`.variant` reads them by :func:`read_form`), and so does ``satdoku convert``.

A form's ``read`` takes the text (or an already parsed JSON object) and returns an object
with ``document`` (a satdoku variant document), ``warnings`` and ``solution`` (see
:class:`satdoku.io.fpuzzles.Conversion`); bad input raises :class:`~satdoku.errors.PuzzleError`.
"""

from __future__ import annotations

import importlib

from ..records import record

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["Form", "FORMS", "FALLBACK", "form_of_text", "form_of_json", "read_form"]


@record(frozen=True)
class Form:
    """One puzzle form: ``hints`` (substrings, one of which its texts contain: a test that
    imports nothing), ``test`` and ``read`` (``"module:function"``, imported when needed),
    and ``json_test`` for a parsed JSON object of this form (None: it has no JSON form)."""

    name: str
    hints: tuple[str, ...]
    test: str
    read: str
    json_test: str | None = None


#: Every form, first match wins.
FORMS: tuple[Form, ...] = (
    Form("sigh", ("~",), "satdoku.io.sigh:looks_like_sigh", "satdoku.io.sigh:convert_sigh"),
    Form("SudokuPad", ("sudokupad", "cryptic", "scl", "ctc", "fpuz", "scf"),
         "satdoku.io.sudokupad:looks_like_sudokupad",
         "satdoku.io.sudokupad:convert_sudokupad"),
    Form("f-puzzles", ("load=", "fpuzzles", "N4Ig", "f-puzzles"),
         "satdoku.io.fpuzzles:looks_like_fpuzzles", "satdoku.io.fpuzzles:convert_fpuzzles",
         "satdoku.io.fpuzzles:is_fpuzzles_document"),
)


#: The form whose reader says what is wrong with a line no form claims.
FALLBACK = next(form for form in FORMS if form.name == "f-puzzles")


def _function(path: str) -> Callable:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def form_of_text(text: str) -> Form | None:
    """The form of one line of text (a link, a compressed string), or None.

    >>> form_of_text("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5g").name
    'f-puzzles'
    >>> form_of_text("https://sudokupad.app/scl{'ce':[[{v:1},{}],[{},{}]]}").name
    'SudokuPad'
    >>> form_of_text(".Shape~4x4.Thermo~R1C1~R1C2").name
    'sigh'
    >>> form_of_text("1.3..4.2.34.4.23") is None
    True
    """
    for form in FORMS:
        if any(hint in text for hint in form.hints) and _function(form.test)(text):
            return form
    return None


def form_of_json(doc: Any) -> Form | None:
    """The form of a parsed JSON object that is not satdoku's own, or None."""
    for form in FORMS:
        if form.json_test is not None and _function(form.json_test)(doc):
            return form
    return None


def read_form(form: Form, doc: str | dict, source: str | None, line: int | None, *,
              ignore_unknown: bool = False):
    """``doc`` read by ``form``'s reader (a Conversion: document, warnings, solution)."""
    return _function(form.read)(doc, source, ignore_unknown=ignore_unknown, line=line)
