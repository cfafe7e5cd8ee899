"""External solver commands: what follows ``exec:`` in ``--sat-solver exec:"kissat -q"``.

A command is split like a shell line (no shell runs it). Placeholders: ``{cnf}`` the formula's
path; ``{model}`` a path the solver writes its answer to (read instead of its standard output);
``{stdin}`` (dropped from the arguments) feeds the formula on standard input. Without ``{cnf}``
or ``{stdin}`` the path goes last. A program called ``minisat...`` gets ``{cnf} {model}`` when
neither is given, as MiniSat writes its model to a second file argument, so ``exec:minisat``
works as it is. Running them is :mod:`satdoku.sat.external`'s.
"""

from __future__ import annotations

import os
import shutil

from ..errors import OptionError
from ..records import record
from . import PREFIX

__all__ = ["PREFIX", "Command", "parse_command", "check_command"]

_PLACEHOLDERS = ("{cnf}", "{model}", "{stdin}")


@record(frozen=True)
class Command:
    """A parsed ``exec:`` command: the arguments (placeholders kept) and how the formula and
    the answer travel."""

    spec: str  # as written, ``exec:`` included
    argv: tuple[str, ...]
    name: str
    model_file: bool  # the answer is read from {model}, not standard output
    stdin: bool  # the formula goes on standard input

    def arguments(self, cnf: str, model: str) -> list[str]:
        """The command line for a formula at ``cnf`` and an answer file at ``model``."""
        return [a.replace("{cnf}", cnf).replace("{model}", model)
                for a in self.argv if a != "{stdin}"]


def parse_command(spec: str) -> Command:
    """The :class:`Command` of ``spec`` (``'exec:kissat -q'``; the prefix may be left out).

    The program is looked for on PATH when a solver is made (:func:`check_command`).

    Raises:
        OptionError: nothing to run, or bad quoting.

    >>> c = parse_command('exec:minisat -verb=0')
    >>> c.name, c.argv, c.model_file
    ('exec:minisat', ('minisat', '-verb=0', '{cnf}', '{model}'), True)
    """
    text = spec[len(PREFIX):] if spec.startswith(PREFIX) else spec
    import shlex  # only an exec: solver needs it
    try:
        argv = shlex.split(text)
    except ValueError as error:
        raise OptionError(f"cannot read the command {text!r}: {error}") from None
    if not argv:
        raise OptionError(f"{PREFIX} needs a command, for example {PREFIX}\"kissat -q\"")
    program = os.path.basename(argv[0])
    if any(p in argv[0] for p in _PLACEHOLDERS):
        raise OptionError(f"the command {text!r} must start with a program, not a placeholder")
    joined = " ".join(argv)
    if program.startswith("minisat") and "{model}" not in joined and "{cnf}" not in joined:
        argv += ["{cnf}", "{model}"]  # MiniSat: minisat [options] <input> <result-file>
        joined = " ".join(argv)
    stdin = "{stdin}" in argv
    if "{cnf}" not in joined and not stdin:
        argv.append("{cnf}")
    return Command(PREFIX + text.strip(), tuple(argv), PREFIX + program, "{model}" in joined,
                   stdin)


def check_command(spec: str | Command) -> Command:
    """The parsed command of ``spec`` once its program is found on PATH, else OptionError."""
    command = spec if isinstance(spec, Command) else parse_command(spec)
    if shutil.which(command.argv[0]) is None:
        raise OptionError(f"{command.spec}: program {command.argv[0]!r} not found (is it "
                          "installed and on PATH?)")
    return command
