"""``python -m satdoku``: the same as the ``satdoku`` command."""

from .cli import run

run()
