"""Every ``>>>`` example in the package's docstrings runs and prints what it says."""

import doctest
import importlib
import pkgutil

import pytest

import satdoku

MODULES = sorted(m.name for m in pkgutil.iter_modules(satdoku.__path__) if m.name != "__main__")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"satdoku.{name}")
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0
