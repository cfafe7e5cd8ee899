"""Records: classes of named fields, declared as dataclasses are, made without ``dataclasses``.

Every record in satdoku is made by :func:`record`. ``import dataclasses`` loads ``inspect``,
``ast``, ``dis`` and ``tokenize`` (8 ms of CPU), and every dataclass compiles its methods from
source text when its module is imported (0.3 to 0.5 ms each): the 25 on a one-puzzle solve's
path made up a third of what that run spent past Python's own start-up (docs/performance.md,
start-up). :func:`record` reads the same declarations (annotations, defaults, :func:`field`)
and gives the class methods written once here, which loop over its fields: nothing is
compiled at import.

What it gives, as :func:`dataclasses.dataclass` does with the same arguments: ``__init__``
(positional or keyword, defaults, ``default_factory``, ``init=False`` and ``kw_only`` fields,
then ``__post_init__``), ``__repr__``, ``__eq__`` over the compared fields (same class only),
``__hash__`` (frozen and eq: over those fields; eq alone: unhashable; neither: by identity),
and with ``frozen`` no assignment after ``__init__`` (:class:`FrozenError`). A method the
class writes itself is kept. Fields are inherited in the same order (bases first, a redefined
field where it first came). :func:`fields`, :func:`replace` and :func:`asdict` are the
module functions of the same names. The generic ``__init__`` takes about three times what a
compiled one does: a class gets its ``__init__`` compiled from source, as a dataclass's is,
once :data:`COMPILE_AFTER` of its records were made (a batch makes a grid, a puzzle, a result
and an outcome a puzzle), never in a one-puzzle run.

>>> @record(frozen=True)
... class Point:
...     x: int
...     y: int = 0
...     tags: tuple = field(default=(), compare=False, repr=False)
>>> p = Point(1, y=2)
>>> p, p == Point(1, 2, tags=("a",)), replace(p, y=5)
(Point(x=1, y=2), True, Point(x=1, y=5))
>>> p.x = 3
Traceback (most recent call last):
...
satdoku.records.FrozenError: cannot assign to field 'x'
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # a marker for type checkers only (typing has it from Python 3.11)
    from typing import Any, Callable, TypeVar
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_: Any) -> Callable[[Any], Any]:
        return lambda function: function

__all__ = ["record", "field", "fields", "asdict", "replace", "Field", "FrozenError", "MISSING"]

if TYPE_CHECKING:
    T = TypeVar("T")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: No default given.
MISSING: Any = _Missing()


class FrozenError(AttributeError):
    """An assignment to a field of a frozen record."""


class Field:
    """One field of a record (what :func:`fields` lists)."""

    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare", "metadata",
                 "kw_only")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING,
                 init: bool = True, repr: bool = True, compare: bool = True,
                 metadata: dict[str, Any] | None = None, kw_only: bool = False) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare
        self.metadata: dict[str, Any] = metadata or {}
        self.kw_only = kw_only

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r})"


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True,
          repr: bool = True, compare: bool = True, metadata: dict[str, Any] | None = None,
          kw_only: bool = False) -> Any:
    """A field with more than a default (as :func:`dataclasses.field`; ``kw_only``: given by
    keyword only, so that a base's field with a default may come before a subclass's
    without)."""
    return Field(default, default_factory, init, repr, compare, metadata, kw_only)


def fields(cls_or_record: Any) -> tuple[Field, ...]:
    """The fields of a record class or record, in order."""
    found = getattr(cls_or_record, "__record_fields__", None)
    if found is None:
        raise TypeError(f"{cls_or_record!r} is not a record")
    return tuple(f for f in found.values() if f is not None)


def asdict(obj: Any) -> dict[str, Any]:
    """The fields of record ``obj`` as a dict, records, lists, tuples and dicts within copied
    the same way (as :func:`dataclasses.asdict`)."""
    return {f.name: _plain(getattr(obj, f.name)) for f in fields(obj)}


def _plain(value: Any) -> Any:
    if hasattr(type(value), "__record_fields__"):
        return asdict(value)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def replace(obj: T, **changes: Any) -> T:
    """A copy of record ``obj`` with ``changes`` (its ``__init__`` runs again)."""
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
        elif not f.init and f.name in changes:
            raise ValueError(f"field {f.name!r} is not set by __init__; replace() cannot")
    return type(obj)(**changes)


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


@dataclass_transform(field_specifiers=(field, Field))
def record(cls: Any = None, /, *, frozen: bool = False, eq: bool = True, init: bool = True,
           repr: bool = True) -> Any:
    """Make ``cls`` a record (see the module docstring); ``@record`` or ``@record(...)``."""
    def wrap(cls: Any) -> Any:
        return _make(cls, frozen, eq, init, repr)
    return wrap if cls is None else wrap(cls)


def _check_frozen(cls: Any, frozen: bool) -> None:
    """TypeError when ``cls`` and the record it inherits from are not both frozen or both
    not (as a dataclass: a frozen field would be set through a mutable one's __setattr__)."""
    for base in cls.__mro__[1:]:
        if "__record_fields__" in base.__dict__:
            if base.__dict__.get("__record_frozen__", False) != frozen:
                raise TypeError(f"{cls.__name__}: a record cannot be frozen and inherit from "
                                f"one that is not, or the other way round (as a dataclass)")
            break
    cls.__record_frozen__ = frozen


def _make(cls: Any, frozen: bool, eq: bool, init: bool, show: bool) -> Any:
    _check_frozen(cls, frozen)
    # name -> Field, or None for a class variable: it holds its place, as in a dataclass, for
    # a subclass that makes it a field (SolveOptions' check and fresh)
    merged: dict[str, Field | None] = {}
    for base in cls.__mro__[-1:0:-1]:
        merged.update(getattr(base, "__record_fields__", None) or {})
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            merged[name] = None
            continue
        value = cls.__dict__.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        if type(f.default).__hash__ is None:  # a list, dict or set shared by every record
            raise ValueError(f"{cls.__name__}.{name}: mutable default {type(f.default).__name__}"
                             f" is not allowed: use default_factory")
        f.name = name
        if isinstance(value, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        merged[name] = f
    cls.__record_fields__ = merged
    everything = [f for f in merged.values() if f is not None]
    own = cls.__dict__

    def put(name: str, method: Any) -> None:
        if name not in own:
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)

    if init:
        put("__init__", _init(cls, everything, frozen))
    if "__match_args__" not in own:  # positional patterns: case Result("solved")
        positional = tuple(f.name for f in everything if f.init and not f.kw_only)
        setattr(cls, "__match_args__", positional)
    if show:
        shown = [f.name for f in everything if f.repr]

        def __repr__(self: Any) -> str:
            inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
            return f"{type(self).__qualname__}({inner})"
        put("__repr__", __repr__)
    if eq:
        compared = [f.name for f in everything if f.compare]
        key = _key(compared)

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented
        put("__eq__", __eq__)
        # A class that writes __eq__ gets __hash__ = None from Python: not a hash of its own
        if "__hash__" not in own or own["__hash__"] is None and "__eq__" in own:
            if frozen:
                def __hash__(self: Any) -> int:
                    return hash(key(self))
                __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
                cls.__hash__ = __hash__
            else:
                cls.__hash__ = None
    if frozen:
        names = frozenset(f.name for f in everything)

        def __setattr__(self: Any, name: str, value: Any) -> None:
            if type(self) is cls or name in names:
                raise FrozenError(f"cannot assign to field {name!r}")
            super(cls, self).__setattr__(name, value)

        def __delattr__(self: Any, name: str) -> None:
            if type(self) is cls or name in names:
                raise FrozenError(f"cannot delete field {name!r}")
            super(cls, self).__delattr__(name)
        put("__setattr__", __setattr__)
        put("__delattr__", __delattr__)
    return cls


def _key(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of the ``names`` fields of a record."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _init(cls: Any, everything: list[Field], frozen: bool) -> Callable[..., None]:
    """The generic ``__init__`` of a record's fields."""
    given = [f for f in everything if f.init]
    names = [f.name for f in given if not f.kw_only]  # positional, in order
    taken = frozenset(f.name for f in given)
    plan = [(f.name, f.default, f.default_factory) for f in given]
    later = [(f.name, f.default, f.default_factory) for f in everything
             if not f.init and (f.default is not MISSING or f.default_factory is not MISSING)]
    post = hasattr(cls, "__post_init__")
    title = cls.__name__
    qualified = f"{cls.__qualname__}.__init__"  # as Python's errors name the compiled one
    most = len(names) + 1  # with self: every parameter of the compiled one has a default
    takes = ("takes 1 positional argument" if most == 1 else
             f"takes from 1 to {most} positional arguments")
    # as a dataclass: a frozen record's fields are set past its __setattr__, others through it
    put = object.__setattr__ if frozen else setattr
    calls = [0]

    def __init__(self: Any, /, *args: Any, **kwargs: Any) -> None:  # a field may be "self"
        calls[0] += 1
        if calls[0] == COMPILE_AFTER and cls.__dict__.get("__init__") is __init__:
            cls.__init__ = _compiled(cls, everything, frozen)
        values = dict(zip(names, args))  # the words and order of Python's own checks, as
        for key, value in kwargs.items():  # the compiled __init__ gets them: keywords first
            if key not in taken:
                raise TypeError(f"{qualified}() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{qualified}() got multiple values for argument {key!r}")
            values[key] = value
        if len(args) > len(names):
            raise TypeError(f"{qualified}() {takes} but {len(args) + 1} were given")
        for name, default, factory in plan:
            if name in values:
                put(self, name, values[name])
            elif default is not MISSING:
                put(self, name, default)
            elif factory is not MISSING:
                put(self, name, factory())
            else:
                raise TypeError(f"{title}() missing required argument: {name!r}")
        for name, default, factory in later:
            put(self, name, default if default is not MISSING else factory())
        if post:
            self.__post_init__()
    return __init__


#: Records made of a class before its ``__init__`` is compiled for it, as a dataclass's is at
#: import: a batch makes a grid, a puzzle, a result and an outcome a puzzle, and the generic
#: one takes about three times as long; one puzzle's run compiles nothing.
COMPILE_AFTER = 256


def _compiled(cls: Any, everything: list[Field], frozen: bool) -> Callable[..., None]:
    """The ``__init__`` of ``cls``'s fields as source, compiled (what a dataclass writes; a
    sentinel default stands for a missing argument, so fields may come in any order; the
    names it adds start with two underscores, which no field's does)."""
    names: dict[str, Any] = {"__M": MISSING, "__put": object.__setattr__,
                             "__TypeError": TypeError}
    params: list[str] = ["__self"]
    kw: list[str] = []
    body: list[str] = []

    def setting(name: str, value: str) -> str:
        return f"__put(__self, {name!r}, {value})" if frozen else f"__self.{name} = {value}"

    for i, f in enumerate(everything):
        if f.init:
            (kw if f.kw_only else params).append(f"{f.name}=__M")
            if f.default is not MISSING:
                names[f"__d{i}"] = f.default
                value = f"__d{i} if {f.name} is __M else {f.name}"
            elif f.default_factory is not MISSING:
                names[f"__f{i}"] = f.default_factory
                value = f"__f{i}() if {f.name} is __M else {f.name}"
            else:
                body.append(f"if {f.name} is __M: raise __TypeError("
                            f"\"{cls.__name__}() missing required argument: {f.name!r}\")")
                value = f.name
            body.append(setting(f.name, value))
        elif f.default is not MISSING:
            names[f"__d{i}"] = f.default
            body.append(setting(f.name, f"__d{i}"))
        elif f.default_factory is not MISSING:
            names[f"__f{i}"] = f.default_factory
            body.append(setting(f.name, f"__f{i}()"))
    if hasattr(cls, "__post_init__"):
        body.append("__self.__post_init__()")
    signature = ", ".join(params + (["*"] + kw if kw else []))
    source = f"def __init__({signature}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    exec(source, names)
    made: Callable[..., None] = names["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    return made
