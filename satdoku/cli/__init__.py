"""The ``satdoku`` command line: a thin layer over the library, which never imports click.

Each command parses its options (:mod:`.options`, each defined once), makes one library call
per puzzle stream (:func:`satdoku.run.stream.stream` runs the command's task over the puzzles),
and prints (:mod:`.session`). Exit codes are the table in :mod:`satdoku.model.result`: 0 done,
1 some puzzle unsolved / invalid / timed out / refused, 2 usage, 3 a verification failure or a
disagreement, 130 interrupted. No command shows a traceback.

The commands by module: :mod:`.solving` (solve, count), :mod:`.asking` (explain, candidates,
rate, generate), :mod:`.tools` (encode, decode, solvers, bench), :mod:`.convert` (convert,
rules).
"""

from __future__ import annotations

import sys

import click

from ..version import __version__
from ..model.result import EXIT_INTERRUPTED, EXIT_OK
from . import asking, convert, solving, tools
from .session import install_signals, silence_stdout

__all__ = ["main", "run"]


def _version() -> str:
    from ..tasks.solvers import python_sat_version
    return f"satdoku {__version__} (python-sat {python_sat_version()})"


def _version_callback(ctx, param, value):
    if value and not ctx.resilient_parsing:
        click.echo(_version())
        ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_version_callback, help="Show satdoku's and python-sat's versions.")
def main() -> None:
    """Solve Sudoku of any size by encoding it to SAT.

    Shell completion: eval "$(_SATDOKU_COMPLETE=bash_source satdoku)" (zsh_source, fish_source).
    """


for _module in (solving, asking, tools, convert):
    for _command in _module.COMMANDS:
        main.add_command(_command)


def run() -> None:
    """The console entry point (``satdoku``): :func:`main` with no traceback on the way out,
    and SIGTERM and SIGHUP handled like Ctrl-C."""
    install_signals()
    try:
        main(prog_name="satdoku")
    except BrokenPipeError:
        silence_stdout()
        sys.exit(EXIT_OK)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
