"""The ``satdoku`` command line: a thin layer over the library, which never imports it.

Each command parses its options (:mod:`.options`, each defined once; the grammar and help
are :mod:`.parsing`, shell completion :mod:`.completion`), makes one library call
per puzzle stream (:func:`satdoku.run.stream.stream` runs the command's task over the puzzles),
and prints (:mod:`.session`). Exit codes are the table in :mod:`satdoku.model.result`: 0 done,
1 some puzzle unsolved / invalid / timed out / refused, 2 usage, 3 a verification failure or a
disagreement, 130 interrupted. No command shows a traceback.

The commands by module: :mod:`.solving` (solve, count), :mod:`.asking` (explain, candidates,
rate, generate), :mod:`.tools` (encode, decode, solvers, bench), :mod:`.convert` (convert,
rules).
"""

from __future__ import annotations

import importlib
import os
import sys

from ..model.result import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from ..version import __version__
from .parsing import Command, UsageError, argument, command, echo, option, suggest
from .session import silence_stdout
from .signals import install_signals

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Sequence

__all__ = ["main", "run", "commands", "find", "GROUP"]

#: Each command's module, imported when the command is asked for: a solve does not pay for
#: the imports of explain, generate or bench (docs/performance.md, start-up).
_WHERE = {"solve": "solving", "count": "solving", "explain": "asking", "candidates": "asking",
          "rate": "asking", "generate": "asking", "encode": "tools", "decode": "tools",
          "solvers": "tools", "bench": "tools", "convert": "convert", "rules": "convert"}


def find(name: str) -> Command | None:
    """The command ``name``, its module imported when first asked for; None if none is."""
    module = _WHERE.get(name)
    if module is None:
        return None
    found = importlib.import_module(f"{__name__}.{module}").COMMANDS
    return next(command for command in found if command.name == name)


def commands() -> dict[str, Command]:
    """Every command by name (each module imported, as ``satdoku --help`` does)."""
    return {name: find(name) for name in sorted(_WHERE)}  # type: ignore[misc]


def _command_name(name: str) -> str:
    if name not in _WHERE:
        raise UsageError(f"No such command '{name}'." + suggest(name, _WHERE))
    return name


_command_name.choices = sorted(_WHERE)  # type: ignore[attr-defined]


def _commands() -> list[tuple[str, str]]:
    return [(name, command.summary) for name, command in commands().items()]


#: ``satdoku`` itself: its options, then a command and what is the command's.
@command("", interspersed=False, listing=_commands)
@option("--version", is_flag=True, help="Show satdoku's and python-sat's versions.")
@argument("command", metavar="COMMAND", required=False, type=_command_name)
@argument("args", nargs=-1, metavar="[ARGS]...")
def GROUP(version: bool, command: str | None, args: tuple[str, ...]) -> None:
    """Solve Sudoku of any size by encoding it to SAT.

    Shell completion: eval "$(_SATDOKU_COMPLETE=bash_source satdoku)" (zsh_source,
    fish_source).
    """


def _version() -> str:
    from ..tasks.solvers import python_sat_version
    return f"satdoku {__version__} (python-sat {python_sat_version()})"


def main(args: Sequence[str] | None = None) -> None:
    """``satdoku ARGS``: the command asked for, run; exits with its code (SystemExit)."""
    args = list(sys.argv[1:] if args is None else args)
    mode = os.environ.get("_SATDOKU_COMPLETE")
    if mode:
        from .completion import answer
        answer(mode, GROUP, find)
    try:
        values = GROUP.parse(args)
    except UsageError as error:
        GROUP.fail(error)
    if values is not None and values["version"]:
        echo(_version())
    elif values is not None and values["command"] is not None:
        command = find(values["command"])
        assert command is not None
        command.main(values["args"])
    else:  # --help; or a bare satdoku: the help on stderr, exit 2
        echo(GROUP.help_text(), err=values is not None)
        sys.exit(EXIT_OK if values is None else EXIT_USAGE)
    sys.exit(EXIT_OK)


def run() -> None:
    """The console entry point (``satdoku``): :func:`main` with no traceback on the way out,
    and SIGTERM and SIGHUP handled like Ctrl-C."""
    install_signals()
    try:
        main()
    except BrokenPipeError:
        silence_stdout()
        sys.exit(EXIT_OK)
    except KeyboardInterrupt:
        echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
