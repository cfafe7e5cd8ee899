"""How grids, puzzles and results show themselves in a REPL (as a grid of text) and in a
Jupyter notebook (as an SVG picture), without the model knowing how to write or draw.

The package's top level (``satdoku/__init__.py``) registers the writer and the drawer
(:func:`satdoku.io.text.format_grid`, :func:`satdoku.output.svg.render_svg`); they are
imported only when something is shown, so ``import satdoku`` stays cheap. Unregistered (a
model module loaded on its own), an object shows a one-line summary and no picture.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["register", "text_of", "svg_of"]

_SHOW: dict[str, Callable[..., str]] = {}


def register(*, text: Callable[..., str], svg: Callable[..., str]) -> None:
    """Set how a grid is written (``text(grid, alphabet)``) and drawn (``svg(grid, solution,
    constraints, alphabet)``)."""
    _SHOW.update(text=text, svg=svg)


def text_of(grid: Any, alphabet: Any = None) -> str:
    """``grid`` as rows of text (an empty string when no writer is registered)."""
    write = _SHOW.get("text")
    return write(grid, alphabet) if write is not None else ""


def svg_of(grid: Any, solution: Any = None, constraints: Any = (), alphabet: Any = None
           ) -> str | None:
    """``grid`` (with ``solution`` filled in and its ``constraints``) as an SVG document, or
    None when no drawer is registered."""
    draw = _SHOW.get("svg")
    return draw(grid, solution, constraints, alphabet) if draw is not None else None
