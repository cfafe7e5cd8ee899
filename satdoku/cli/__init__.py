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

import re
import sys
from typing import Any

import click

from ..errors import abridge
from ..version import __version__
from ..model.result import EXIT_INTERRUPTED, EXIT_OK
from .session import silence_stdout
from .signals import install_signals

__all__ = ["main", "run"]


def _version() -> str:
    from ..tasks.solvers import python_sat_version
    return f"satdoku {__version__} (python-sat {python_sat_version()})"


def _version_callback(ctx, param, value):
    if value and not ctx.resilient_parsing:
        click.echo(_version())
        ctx.exit()


def _abridged_error(error: click.UsageError) -> click.UsageError:
    """The usage error with every long run of characters in its message cut (a 100 KB
    argument is not echoed whole)."""
    message = error.format_message()
    if not re.search(r"\S{200,}", message):
        return error
    return click.UsageError(re.sub(r"\S{200,}", lambda m: abridge(m.group()), message),
                            error.ctx)


class _PipeClosed(Exception):
    """What a closed stdout becomes inside a command: click's own handling of EPIPE would
    exit 1, where satdoku exits with the code of what was finished (0 for a listing)."""


class _Group(click.Group):
    """The command group: usage errors, its own and its commands', never echo a long
    argument whole; a closed pipe is left to :func:`run`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as error:
            raise _abridged_error(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            raise _abridged_error(error) from None
        except BrokenPipeError:
            raise _PipeClosed from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_WHERE)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command ``name``, its module imported when first asked for."""
        import importlib
        module = _WHERE.get(name)
        if module is None:
            return None
        commands = importlib.import_module(f"{__name__}.{module}").COMMANDS
        return next(command for command in commands if command.name == name)


#: Each command's module, imported when the command is asked for: a solve does not pay for
#: the imports of explain, generate or bench (docs/performance.md, start-up).
_WHERE = {"solve": "solving", "count": "solving", "explain": "asking", "candidates": "asking",
          "rate": "asking", "generate": "asking", "encode": "tools", "decode": "tools",
          "solvers": "tools", "bench": "tools", "convert": "convert", "rules": "convert"}


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_version_callback, help="Show satdoku's and python-sat's versions.")
def main() -> None:
    """Solve Sudoku of any size by encoding it to SAT.

    Shell completion: eval "$(_SATDOKU_COMPLETE=bash_source satdoku)" (zsh_source, fish_source).
    """


def run() -> None:
    """The console entry point (``satdoku``): :func:`main` with no traceback on the way out,
    and SIGTERM and SIGHUP handled like Ctrl-C."""
    install_signals()
    try:
        main(prog_name="satdoku")
    except (BrokenPipeError, _PipeClosed):
        silence_stdout()
        sys.exit(EXIT_OK)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
