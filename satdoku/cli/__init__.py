"""The ``satdoku`` command line: a thin layer over the library, which never imports it.

Each command parses its options (:mod:`.options`, each defined once; the grammar, help and
shell completion are :mod:`.parsing`), makes one library call
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
from typing import Sequence

from ..model.result import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from ..version import __version__
from .parsing import Command, UsageError, complete_shell, echo, fail, group_help, no_such_command
from .session import silence_stdout
from .signals import install_signals

__all__ = ["main", "run", "commands", "find"]

#: Each command's module, imported when the command is asked for: a solve does not pay for
#: the imports of explain, generate or bench (docs/performance.md, start-up).
_WHERE = {"solve": "solving", "count": "solving", "explain": "asking", "candidates": "asking",
          "rate": "asking", "generate": "asking", "encode": "tools", "decode": "tools",
          "solvers": "tools", "bench": "tools", "convert": "convert", "rules": "convert"}

_SUMMARY = """Solve Sudoku of any size by encoding it to SAT.

Shell completion: eval "$(_SATDOKU_COMPLETE=bash_source satdoku)" (zsh_source, fish_source)."""

_OPTIONS = [("--version", "Show satdoku's and python-sat's versions."),
            ("-h, --help", "Show this message and exit.")]


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


def _version() -> str:
    from ..tasks.solvers import python_sat_version
    return f"satdoku {__version__} (python-sat {python_sat_version()})"


def main(args: Sequence[str] | None = None) -> None:
    """``satdoku ARGS``: the command asked for, run; exits with its code (SystemExit)."""
    args = list(sys.argv[1:] if args is None else args)
    mode = os.environ.get("_SATDOKU_COMPLETE")
    if mode:
        complete_shell(mode, commands, find)
        sys.exit(EXIT_OK)
    usage, asked, options = "Usage: satdoku [OPTIONS] COMMAND [ARGS]...", bool(args), []
    while args and args[0].startswith("-") and args[0] != "-":
        option = args.pop(0)
        if option == "--":
            break
        if option not in ("-h", "--help", "--version"):
            fail(UsageError(f"No such option: {option}"), usage, "satdoku")
        options.append(option)
    if "--version" in options:
        echo(_version())
        sys.exit(EXIT_OK)
    if args and not options:
        command = find(args[0])
        if command is None:
            fail(no_such_command(args[0], _WHERE), usage, "satdoku")
        command.main(args[1:])
        sys.exit(EXIT_OK)
    # --help; or a bare satdoku: the help on stderr, exit 2
    echo(group_help(_SUMMARY, commands(), _OPTIONS), err=not asked)
    sys.exit(EXIT_OK if asked else EXIT_USAGE)


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
