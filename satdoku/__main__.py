"""``python -m satdoku``: the same as the ``satdoku`` command."""

from .cli import main

main(prog_name="satdoku")
