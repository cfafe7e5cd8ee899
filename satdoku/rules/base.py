"""What every variant constraint is and shares: the base class, the encoding context, reading
a constraint's JSON fields, candidate bitmasks and a search-based prune.

Glossary (adds to :mod:`satdoku.model.geometry` and :mod:`satdoku.cnf.encodings`):

- constraint: one rule of a variant puzzle beyond rows, columns and boxes (a killer cage, a
  thermometer, anti-knight...). ``cells`` are the cells it touches.
- ctx: the encoding context a constraint writes its clauses against: ``ctx.var(cell, d)`` (the
  one-hot variable, ``cell*N + d``), ``ctx.fresh()`` (a new auxiliary variable), ``ctx.size``
  and ``ctx.geometry``. Every cell's exactly-one-digit clauses are already in the formula.
- cand: for native search, ``cand[cell]`` is the bitmask of digits the cell may still take
  (bit ``d - 1`` for digit ``d``).
- holds: a constraint's own test of the digits on its cells (``holds(digits)``), in cell order.
  ``check`` and the search-based prune are both built on it; neither calls the encoder.

A constraint is a frozen record (:mod:`satdoku.records`): equal constraints compare equal, and ``from_json(
to_json(c)) == c``. Constraints that depend on the grid's shape (global rules, lines named
``r3``) keep their geometry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar, Sequence

from ..model.geometry import Geometry
from ..model.grid import Grid, Rule
from ..model.digits import bits as digits_of  # the digits of a candidate bitmask
from ..records import field, fields as record_fields, record
from .context import Clause, EncodeContext, at_most_one, contradiction
from .fields import Cells, Field, Fields, parse_cell

__all__ = [
    "Constraint", "EncodeContext", "Fields", "Clause", "parse_cell", "cell_span", "line_ends",
    "contradiction", "at_most_one", "bit", "digits_of", "prune_by_search", "restrict",
    "sees", "orthogonal_pairs", "CellsRule", "GlobalRule", "fills", "CONSTRAINTS",
]

#: Every rule class by its ``type`` name, in the order the classes are defined: a class that
#: sets ``type`` in its body registers itself (:meth:`Constraint.__init_subclass__`).
CONSTRAINTS: dict[str, type["Constraint"]] = {}

def bit(d: int) -> int:
    """The candidate bit of digit ``d``."""
    return 1 << (d - 1)


def fills(cells: Sequence[int], cand: list[int], mask: int) -> bool:
    """True when ``cells`` can hold exactly the digits of ``mask``, as far as each cell having
    one of them and each of them having a cell shows (a cage's digit set, a renban window).
    """
    covered = 0
    for c in cells:
        inside = cand[c] & mask
        if not inside:
            return False
        covered |= inside
    return covered == mask


def sees(geometry: Geometry, a: int, b: int) -> bool:
    """True when cells ``a`` and ``b`` share a row, column or box (so they differ)."""
    return not set(geometry.cell_houses[a]).isdisjoint(geometry.cell_houses[b])


def orthogonal_pairs(geometry: Geometry) -> list[tuple[int, int]]:
    """Every pair of orthogonally adjacent cells, (left, right) and (top, bottom)."""
    h, w = geometry.height, geometry.width
    out = []
    for cell in range(h * w):
        r, c = divmod(cell, w)
        if c + 1 < w:
            out.append((cell, cell + 1))
        if r + 1 < h:
            out.append((cell, cell + w))
    return out


def cell_span(geometry: Geometry, cells: Sequence[int]) -> str:
    """A short name for a group of cells: all of them up to four, else first, last and count.

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(3, 3)
    >>> cell_span(g, [0, 9]), cell_span(g, range(6))
    ('r1c1-r2c1', 'r1c1-...-r1c6 (6 cells)')
    """
    names = [geometry.cell_name(c) for c in cells]
    if len(names) <= 4:
        return "-".join(names)
    return f"{names[0]}-...-{names[-1]} ({len(names)} cells)"


def line_ends(geometry: Geometry, cells: Sequence[int]) -> str:
    """Where a line runs, for its description: "from" its first cell "to" its last, so that
    two lines from one cell (a branching thermometer, two arrows from one circle) read apart.

    >>> from satdoku.model.geometry import geometry
    >>> g = geometry(3, 3)
    >>> line_ends(g, [0, 10, 20]), line_ends(g, [4])
    ('from r1c1 to r3c3', 'at r1c5')
    """
    first, last = geometry.cell_name(cells[0]), geometry.cell_name(cells[-1])
    return f"at {first}" if len(cells) == 1 else f"from {first} to {last}"


def restrict(cand: list[int], cell: int, mask: int, changed: set[int]) -> bool:
    """Keep only ``mask`` of ``cell``'s candidates; False when none is left."""
    old = cand[cell]
    new = old & mask
    if new != old:
        if not new:
            return False
        cand[cell] = new
        changed.add(cell)
    return True


#: Nodes a search-based prune may visit before it gives up (and prunes nothing).
SEARCH_BUDGET = 3000


def prune_by_search(cells: Sequence[int], cand: list[int],
                    holds: Callable[[tuple[int, ...]], bool], *, distinct: bool = False,
                    budget: int = SEARCH_BUDGET) -> list[int] | None:
    """Keep the candidates of ``cells`` that some assignment satisfying ``holds`` uses.

    Every assignment of the cells' candidates is tried (all different when ``distinct``, for
    cells of one house); a digit no satisfying assignment uses goes. When the tries would pass
    ``budget`` nodes nothing is pruned, which is always sound. Returns the changed cells, or
    None when no assignment satisfies ``holds``.

    >>> cand = [0b11, 0b11]
    >>> prune_by_search([0, 1], cand, lambda ds: ds[0] < ds[1]), cand
    ([0, 1], [1, 2])
    """
    domains = [digits_of(cand[c]) for c in cells]
    k = len(cells)
    seen = [0] * k
    chosen: list[int] = []
    nodes = 0

    def walk(i: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if i == k:
            digits = tuple(chosen)
            if holds(digits):
                for j, d in enumerate(digits):
                    seen[j] |= bit(d)
            return True
        for d in domains[i]:
            if distinct and d in chosen:
                continue
            chosen.append(d)
            finished = walk(i + 1)
            chosen.pop()
            if not finished:
                return False
        return True

    if not walk(0):
        return []
    if not seen[0] and k:
        return None
    changed: set[int] = set()
    for cell, mask in zip(cells, seen):
        if not restrict(cand, cell, mask, changed):
            return None
    return sorted(changed)


def line_cells(geometry: Geometry, line: str, side: str = "start") -> tuple[int, ...]:
    """The cells of line ``'r3'`` or ``'c5'``, read from ``side`` (``'start'``: left or top).

    >>> from satdoku.model.geometry import geometry
    >>> line_cells(geometry(2, 2), "c2", "end")
    (13, 9, 5, 1)
    """
    kind, index = line[0], int(line[1:]) - 1
    house = geometry.houses[index if kind == "r" else geometry.height + index]
    return house if side == "start" else tuple(reversed(house))


def line_name(line: str, side: str | None = None) -> str:
    """``'row 3'``, ``'column 5 from the bottom'``..."""
    kind = "row" if line[0] == "r" else "column"
    text = f"{kind} {line[1:]}"
    if side is not None:
        end = {("row", "start"): "left", ("row", "end"): "right",
               ("column", "start"): "top", ("column", "end"): "bottom"}[kind, side]
        text += f" from the {end}"
    return text


@record(frozen=True)
class Constraint:
    """One variant rule. Subclasses set ``type``, declare their JSON ``fields`` (and where
    f-puzzles has the rule, ``fpuzzles``: :class:`satdoku.rules.exchange.FPuzzles` entries),
    and define their methods, all in the class body; a class that sets ``type`` is registered
    in :data:`CONSTRAINTS` as it is defined (``class X(Constraint, register=False)`` keeps an
    internal rule out). The first sentence of the class docstring, after ``type``:, is the
    rule in words (``satdoku rules``, the docs).

    ``cells`` is every cell the constraint touches (all cells for global rules). ``label`` is
    free text carried from the document for display.

    ``reads_values``: whether the rule's meaning depends on the values the digits stand for
    (sums, ratios, parity, named digits: digit d is the value d). A rule that only compares
    digits (equal, different, ordered, differences) sets it False and holds as written in a
    grid of any values (:attr:`~satdoku.model.geometry.Geometry.low`); the others are refused
    in a grid whose values are not 1..N, unless ``any_values``: the rule reads every cell by
    the value its digit stands for (:meth:`~satdoku.model.geometry.Geometry.value`: the check
    gets values, sums take them from :func:`.sums.cell_term`, pair relations from
    :func:`.pairs.encode_pairs`), so it holds as written on any values. ``needs_boxes``: the rule is about boxes (a grid
    without them refuses it). ``any_shape``: the rule holds as written in a grid of other
    shape (R x C, more digits than cells in a row: :func:`~satdoku.model.geometry.shaped`);
    the others are refused there.
    """

    type: ClassVar[str] = ""
    reads_values: ClassVar[bool] = True
    any_values: ClassVar[bool] = False
    needs_boxes: ClassVar[bool] = False
    any_shape: ClassVar[bool] = False
    fields: ClassVar[tuple[Field, ...]] = ()
    fpuzzles: ClassVar[tuple] = ()
    label: str | None = field(default=None, kw_only=True, compare=False, repr=False)
    # Subclasses give ``cells`` as a field or a property; declared for the type checker only
    # (a property here at run time would be taken for the default of their fields).
    if TYPE_CHECKING:
        @property
        def cells(self) -> tuple[int, ...]: ...

    def __init_subclass__(cls, register: bool = True, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("type")
        if not register or not kind:
            return
        if kind in CONSTRAINTS:
            raise ValueError(f"rule type {kind!r} of {cls.__name__} is taken by "
                             f"{CONSTRAINTS[kind].__name__}")
        CONSTRAINTS[kind] = cls

    def describe(self, geometry: Geometry) -> str:
        """A name for messages and cores, e.g. ``'killer cage r1c1-r2c1 = 9'``."""
        raise NotImplementedError

    def to_json(self, geometry: Geometry) -> dict:
        """The constraint as the object of the satdoku variant format."""
        out = {"type": self.type}
        out.update(self._json_fields(geometry))
        if self.label is not None:
            out["label"] = self.label
        return out

    def _json_fields(self, geometry: Geometry) -> dict:
        """The declared fields, each written unless it holds a default it may leave out."""
        out = {}
        for f in self.fields:
            value = getattr(self, f.attr)
            if not f.omitted(value):
                out[f.name] = f.write(value, geometry)
        return out

    @classmethod
    def from_json(cls, data: dict, geometry: Geometry) -> "Constraint":
        """The constraint of a JSON object (``type`` already known to match), read by its
        declared fields; ValueError naming the field when the object is wrong."""
        refused = cls.refusal(geometry)
        if refused is not None:
            raise ValueError(refused[1])
        reader = Fields(data, geometry, *(f.name for f in cls.fields))
        values = {f.attr: f.read(reader) for f in cls.fields}
        cls._check_json(values, geometry)
        if "geometry" in {f.name for f in record_fields(cls)}:
            values["geometry"] = geometry
        return cls(**values, label=reader.label)

    @classmethod
    def refusal(cls, geometry: Geometry) -> tuple[str, str] | None:
        """Why the rule cannot be stated on ``geometry``: a short phrase (``'on values
        0-8'``) and the message; None when it can.

        >>> from satdoku.model.geometry import geometry
        >>> CONSTRAINTS["sandwich"].refusal(geometry(3, 3, low=0))[0]
        'on values 0-8'
        """
        if cls.reads_values and not cls.any_values and geometry.low != 1:
            return (f"on values {geometry.values_text}",
                    f"{cls.type} reads the digits' values (sums, parity, named digits): "
                    f"satdoku states it for digits 1-{geometry.size} only, not "
                    f"{geometry.values_text}")
        if cls.needs_boxes and not geometry.has_boxes:
            return "without boxes", f"{cls.type} is about boxes: this grid has none"
        if not cls.any_shape and not geometry.is_square:
            return (f"on a {geometry.height}x{geometry.width} grid of {geometry.size} values",
                    f"{cls.type} is stated for an N x N grid of N digits; this is a "
                    f"{geometry.shape}")
        return None

    @classmethod
    def _check_json(cls, values: dict, geometry: Geometry) -> None:
        """What the fields cannot check one by one (a ValueError naming the fields)."""

    def bind(self, constraints: Sequence[Rule]) -> "Constraint":
        """This constraint, told about the puzzle's other constraints.

        Negative constraints (``no-kropki``, ``no-xv``) return a copy that knows which pairs
        carry a dot, ``full-rank`` the puzzle's way with ties, ``sum`` the puzzle's
        ``candidates`` (see :attr:`requires`). The others return themselves.
        """
        return self

    @property
    def requires(self) -> tuple["Constraint", ...]:
        """Other rules of the puzzle whose clauses this rule's encoding counts on (a bound
        ``sum`` the ``candidates`` rules): an engine switches its clauses on only with theirs
        (:meth:`satdoku.sat.engines.Engine.rule_acts`), so a core or a subset of the rules
        without them never leans on them, and binds it again to a set that lacks them."""
        return ()

    def encode(self, ctx) -> list[Clause]:
        """CNF clauses over ``ctx.var(cell, d)`` and auxiliaries from ``ctx.fresh()``."""
        raise NotImplementedError

    def clause_estimate(self, geometry: Geometry) -> int | None:
        """At least about how many clauses :meth:`encode` writes in ``geometry``, computed
        without encoding (never more than it writes), for a rule whose encoding can grow beyond
        any limit (long sums): the builder refuses it up front, by name, when this is over the
        clause limit. None: not known (the builder's guard still stops an encoding that
        outgrows the limit)."""
        return None

    def holds(self, digits: tuple[int, ...]) -> bool:
        """True when the digits on ``cells`` (in order, all filled) satisfy the rule."""
        raise NotImplementedError

    def check(self, grid: Grid) -> list[str]:
        """What is wrong with a complete grid (empty when the rule holds). A rule that reads
        values is given them (:attr:`any_values`), one that compares digits the digits."""
        value = grid.geometry.value if self.reads_values else int
        digits = tuple(value(grid.cells[c]) for c in self.cells)
        if self.holds(digits):
            return []
        return [f"{self.describe(grid.geometry)}: {self._explain(grid.geometry, digits)}"]

    def _explain(self, geometry: Geometry, digits: tuple[int, ...]) -> str:
        return "broken by " + ", ".join(f"{geometry.cell_name(c)}={d}"
                                        for c, d in zip(self.cells, digits))

    def prune(self, cand: list[int]) -> list[int] | None:
        """Remove candidates the rule rules out, in place: the changed cells, or None on a
        contradiction. By default, an exact prune while the candidates are few
        (:func:`prune_by_search`)."""
        return prune_by_search(self.cells, cand, self.holds)

    def draw(self, canvas) -> None:
        """Draw the rule on a :class:`satdoku.output.svg.Canvas` the way puzzle sites draw it
        (``docs/pictures.md``). Every constraint type has its own."""
        raise NotImplementedError(f"{type(self).__name__} cannot draw itself")


class CellsRule(Constraint):
    """A rule whose one JSON field is ``cells``, its attribute ``cells`` too."""

    fields: ClassVar[tuple[Field, ...]] = (Cells(doc="the cells"),)


class GlobalRule(Constraint):
    """A rule over the whole grid, made from its ``geometry`` alone (no JSON fields)."""

    def describe(self, geometry: Geometry) -> str:
        return self.type

    def draw(self, canvas) -> None:
        """Nothing on the grid (puzzle sites state these rules in words): a note under it."""
        canvas.note(self.describe(canvas.geometry))
