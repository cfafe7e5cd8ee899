"""The library's API is typed: mypy (configured in pyproject.toml: strict on ``satdoku`` and
the model its signatures name) passes over the package, and a user's code sees precise types;
bad arguments raise the library's own errors, as the command line refuses them."""

import os
import tempfile
from pathlib import Path

import pytest

import satdoku
from conftest import ROOT, SMALL
from satdoku.errors import ModelError, OptionError, PuzzleError


#: ``mypy --strict``'s flags that a module may set for itself (the other two, warn-unused-configs
#: and warn-redundant-casts, are pyproject.toml's for every module).
STRICT = ("disallow-any-generics, disallow-subclassing-any, disallow-untyped-calls, "
          "disallow-untyped-defs, disallow-incomplete-defs, check-untyped-defs, "
          "disallow-untyped-decorators, warn-unused-ignores, warn-return-any, "
          "no-implicit-reexport, strict-equality, extra-checks")


def test_mypy_passes_and_the_api_has_precise_types(tmp_path):
    """One mypy run: the package, a typed client, and the README's library examples under
    --strict's flags (a reader who type-checks the example gets no error)."""
    import re
    api = pytest.importorskip("mypy.api")
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(), re.M | re.S)
    assert blocks
    example = tmp_path / "readme_example.py"
    example.write_text(f"# mypy: {STRICT}\n" + "\n".join(blocks))
    # mypy's cache outside the checkout: a fresh clone on this machine starts warm (mypy
    # checks each module's hash, so a changed module is checked again).
    cache = Path(tempfile.gettempdir()) / f"satdoku-mypy-cache-{os.getuid()}"
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", str(cache),
                                str(ROOT / "satdoku"), str(ROOT / "tests/data/typing/client.py"),
                                str(example)])
    assert status == 0, out + err


@pytest.mark.parametrize("call, error, message", [
    (lambda: satdoku.solve(SMALL, timeout=-1), OptionError, "time limit must be a positive"),
    (lambda: satdoku.explain(SMALL, timeout=-1), OptionError, "time limit must be a positive"),
    (lambda: satdoku.rate(SMALL, timeout=0), OptionError, "time limit must be a positive"),
    (lambda: satdoku.candidates(SMALL, timeout=float("nan")), OptionError, "time limit"),
    (lambda: satdoku.count(SMALL, limit="2"), OptionError, "limit must be a whole number"),
    (lambda: satdoku.solve(SMALL, limit=2), OptionError, "solve takes no option 'limit'"),
    (lambda: satdoku.explain(SMALL, max_rule=2), OptionError, "did you mean 'max_rules'"),
    (lambda: satdoku.count(SMALL, limit=True), OptionError, "limit must be a whole number"),
    (lambda: satdoku.solve(SMALL, max_clauses=0), OptionError, "max_clauses must be a whole"),
    (lambda: satdoku.read(SMALL, box="2x2"), OptionError, "box must be a pair"),
    (lambda: satdoku.generate(box="3x3"), OptionError, "box must be a pair"),
    (lambda: satdoku.generate((2, 2), seed=-1), OptionError, "seed must be a whole number"),
    (lambda: satdoku.decode(5, SMALL), ModelError, "a model is the text a SAT solver wrote"),
    (lambda: satdoku.solve(None), PuzzleError, "a puzzle is text, a dict, a Grid or a Puzzle"),
    (lambda: satdoku.solve({"size": 4, "name": object()}), PuzzleError, "no JSON"),
])
def test_bad_arguments_raise_the_library_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_deep_or_huge_document_is_a_puzzle_error():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(PuzzleError, match="nested"):
        satdoku.read({"size": 4, "grid": deep})
    with pytest.raises(PuzzleError, match="nested too deeply, past 100 levels"):
        satdoku.read('{"size": 4, "grid": ' + "[" * 500 + "]" * 500 + "}")
    with pytest.raises(PuzzleError, match="a number of 5000 digits"):
        satdoku.read('{"size": 4, "constraints": [{"type": "killer", "cells": ["r1c1", "r1c2"], '
                     '"sum": ' + "9" * 5000 + "}]}")


def test_candidates_is_public_and_keeps_a_time_limit():
    assert "candidates" in satdoku.__all__
    assert satdoku.candidates("1..." "...." "...." "...1", timeout=5).digits[1] == [2, 3, 4]
    assert satdoku.candidates("." * 256, timeout=1e-9).status == "timeout"


def test_the_package_lists_only_its_public_names():
    """``dir(satdoku)`` (a REPL's completion) shows the library's calls, not its imports."""
    assert dir(satdoku) == sorted(satdoku.__all__)
    assert all(hasattr(satdoku, name) for name in dir(satdoku))
