"""satdoku.records: a record behaves as the dataclass of the same declaration (the standard
library's dataclasses are the reference), and satdoku declares no dataclass of its own."""

import dataclasses
import re
from typing import ClassVar

import pytest

from satdoku import records
from satdoku.records import FrozenError, asdict, field, fields, record, replace

from conftest import ROOT


def _both(body: str, frozen: bool = False, eq: bool = True):
    """The class ``body`` declares, made by record and by dataclass."""
    made = []
    for decorator, module in ((f"record(frozen={frozen}, eq={eq})", records),
                              (f"dataclasses.dataclass(frozen={frozen}, eq={eq})", dataclasses)):
        namespace = {"record": record, "field": module.field, "dataclasses": dataclasses,
                     "ClassVar": ClassVar, "__name__": __name__}
        exec(f"from __future__ import annotations\n@{decorator}\nclass C:\n{body}",
             namespace)
        made.append(namespace["C"])
    return made


BODY = """    a: int
    b: str = "x"
    c: tuple = field(default_factory=tuple)
    d: float = field(default=1.5, repr=False)
    e: int = field(default=0, compare=False)
    f: int = field(default=7, init=False)
    k: ClassVar[int] = 3
"""


@pytest.mark.parametrize("frozen", [False, True])
@pytest.mark.parametrize("eq", [False, True])
@pytest.mark.parametrize("compiled", [False, True])
def test_a_record_is_the_dataclass_of_its_declaration(frozen, eq, compiled, monkeypatch):
    # compiled: after COMPILE_AFTER records of a class its __init__ is compiled for it
    monkeypatch.setattr(records, "COMPILE_AFTER", 2 if compiled else 10 ** 9)
    rec, dc = _both(BODY, frozen, eq)
    rec(1), rec(2)
    assert (rec.__init__.__code__.co_filename == "<string>") == compiled
    for args, kwargs in [((1,), {}), ((1, "y"), {"e": 4}), ((2,), {"c": (1,), "d": 0.5})]:
        r, d = rec(*args, **kwargs), dc(*args, **kwargs)
        assert repr(r) == repr(d)
        assert [f.name for f in fields(r)] == [f.name for f in dataclasses.fields(d)]
        assert asdict(r) == dataclasses.asdict(d)
        assert (r == rec(*args, **kwargs)) == (d == dc(*args, **kwargs))
        assert (r == rec(*args, **{**kwargs, "e": 99})) == (d == dc(*args, **{**kwargs, "e": 99}))
        assert (rec.__hash__ is None) == (dc.__hash__ is None)
        if frozen and eq:
            assert hash(r) == hash(rec(*args, **kwargs))
        assert replace(r, b="z").b == dataclasses.replace(d, b="z").b == "z"
    for bad_args, bad_kwargs in [((), {}), ((1, 2, 3, 4, 5, 6), {}), ((1,), {"g": 1}),
                                 ((1,), {"a": 2}), ((1,), {"f": 2})]:
        with pytest.raises(TypeError):
            dc(*bad_args, **bad_kwargs)
        with pytest.raises(TypeError):
            rec(*bad_args, **bad_kwargs)
    r = rec(1)
    if frozen:
        with pytest.raises(FrozenError):
            r.a = 2
        with pytest.raises(AttributeError):
            del r.b
    else:
        r.a = 2
        assert r.a == 2


@pytest.mark.parametrize("compiled", [False, True])
def test_fields_are_inherited_in_the_dataclass_order_and_kw_only_goes_last(compiled,
                                                                          monkeypatch):
    monkeypatch.setattr(records, "COMPILE_AFTER", 1 if compiled else 10 ** 9)
    base = """    x: int
    y: int = 1
    label: str = field(default="", kw_only=True)
"""
    (rb, db) = _both(base, frozen=True)
    sub = """    z: int = 0
    y: int = 5
"""
    made = []
    for parent, module in ((rb, records), (db, dataclasses)):
        namespace = {"record": record, "field": module.field, "dataclasses": dataclasses,
                     "B": parent, "__name__": __name__}
        deco = "record(frozen=True)" if module is records else "dataclasses.dataclass(frozen=True)"
        exec(f"from __future__ import annotations\n@{deco}\nclass C(B):\n{sub}", namespace)
        made.append(namespace["C"])
    r, d = made[0](1, 2, 3, label="l"), made[1](1, 2, 3, label="l")
    assert repr(r) == repr(d) == "C(x=1, y=2, label='l', z=3)"
    assert made[0](1, z=3) == made[0](1, 5, 3) and made[1](1, z=3) == made[1](1, 5, 3)
    for cls in made:
        with pytest.raises(TypeError):  # label is given by keyword only
            cls(1, 2, 3, "l")


def test_a_hash_of_the_fields_unless_the_class_writes_its_own():
    for module, make in ((records, record), (dataclasses, dataclasses.dataclass)):
        @make(frozen=True)
        class Own:
            a: int

            def __eq__(self, other):
                return isinstance(other, Own) and self.a % 2 == other.a % 2

        @make(frozen=True)
        class Hashed:
            a: int

            def __hash__(self):
                return 7

        assert Own(1) == Own(3) and hash(Own(1)) == hash(Own(1)), module
        assert hash(Hashed(1)) == 7


def test_a_class_variable_made_a_field_keeps_its_place_and_patterns_match():
    made = []
    for module, make in ((records, record), (dataclasses, dataclasses.dataclass)):
        @make(frozen=True)
        class Base:
            a: int = 0
            flag: ClassVar[bool] = False
            b: int = 1

        @make(frozen=True)
        class Sub(Base):
            c: int = 2
            flag: bool = module.field(default=True)  # type: ignore[misc]

        made.append(Sub)
        assert [f.name for f in module.fields(Sub)] == ["a", "flag", "b", "c"], module
        match Sub(5, False):
            case Sub(a, flag):
                assert (a, flag) == (5, False)
    assert repr(made[0]()) == repr(made[1]())
    with pytest.raises(ValueError):
        @record
        class Shared:
            items: list = []  # noqa: RUF012 (refused: every record would share it)


def test_post_init_runs_after_the_fields_and_replace_refuses_an_init_false_field():
    @record(frozen=True)
    class Sized:
        items: tuple
        count: int = field(default=0, init=False)

        def __post_init__(self):
            object.__setattr__(self, "count", len(self.items))

    s = Sized((1, 2))
    assert s.count == 2 and replace(s, items=(1,)).count == 1
    with pytest.raises(ValueError):
        replace(s, count=5)
    with pytest.raises(TypeError):
        fields(object())


def test_satdoku_declares_no_dataclass():
    # one way to make a record: satdoku.records (importing dataclasses costs a start 8 ms)
    found = [str(p.relative_to(ROOT)) for p in (ROOT / "satdoku").rglob("*.py")
             if p.name != "records.py"
             and re.search(r"^\s*(import dataclasses|from dataclasses import)", p.read_text(),
                           re.M)]
    assert found == []


def test_odd_field_names_compile_and_fields_are_set_the_same_way_before_and_after(monkeypatch):
    monkeypatch.setattr(records, "COMPILE_AFTER", 2)

    @record
    class Odd:
        self: int
        TypeError: int = 0

    first, compiled = Odd(1), Odd(self=2, TypeError=3)
    assert (first.self, compiled.self, compiled.TypeError) == (1, 2, 3)
    with pytest.raises(TypeError):
        Odd()
    set_through = []

    @record
    class Watched:
        a: int

        def __setattr__(self, name, value):
            set_through.append(name)
            object.__setattr__(self, name, value)

    for i in range(4):  # generic, then compiled: both set a mutable record's fields by setattr
        Watched(i)
    assert set_through == ["a"] * 4


def test_frozen_and_mutable_records_do_not_inherit_from_each_other():
    @record(frozen=True)
    class Frozen:
        a: int

    for make in (record, dataclasses.dataclass):
        with pytest.raises(TypeError):
            @make
            class Mutable(Frozen if make is record else dataclasses.dataclass(frozen=True)(
                    type("F", (), {"__annotations__": {"a": int}}))):
                b: int = 0


@pytest.mark.parametrize("body", ["a: int\n    b: int = 2", "pass", "a: int = 0"])
def test_a_bad_call_reads_the_same_before_and_after_the_init_is_compiled(body, monkeypatch):
    """The generic __init__ words its errors as Python words the compiled one's."""
    namespace: dict = {"record": record}
    exec(f"@record\nclass P:\n    {body}\n", namespace)
    P = namespace["P"]

    def errors() -> list[str]:
        out = []
        for args, kwargs in [((), {}), ((1, 2, 3), {}), ((), {"c": 3}), ((1,), {"a": 2})]:
            try:
                P(*args, **kwargs)
            except TypeError as error:
                out.append(str(error))
        return out

    monkeypatch.setattr(records, "COMPILE_AFTER", 10 ** 9)
    generic = errors()
    monkeypatch.setattr(records, "COMPILE_AFTER", 1)
    namespace2: dict = {"record": record}
    exec(f"@record\nclass P:\n    {body}\n", namespace2)
    P = namespace2["P"]
    P(*([1] if "a: int\n" in body else []))  # compiles its __init__
    assert P.__init__.__code__.co_filename == "<string>"
    assert errors() == generic and generic
