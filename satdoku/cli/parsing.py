"""The command line's grammar: commands, their options and arguments, ``--help``, usage errors
and shell completion.

Commands are declared with decorators (:func:`command`, :func:`option`, :func:`argument`), the
way click declares them, and parsed here in one pass over ``argv``: options anywhere among the
arguments, ``--name=value`` or ``--name value``, ``-o FILE`` or ``-oFILE``, ``--`` ends the
options, no abbreviations. A bad value, an unknown option or a missing argument is a
:class:`UsageError` (exit 2: the usage line, a pointer to ``--help`` and ``Error: ...``).

satdoku used click until a one-puzzle solve's start-up had to come near that of importing
python-sat alone (issue 33): importing click took 24 ms of CPU, the whole of that budget, and
this module with the standard library it uses takes under 1 ms (docs/performance.md,
start-up).
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, NoReturn, Sequence

from ..model.result import EXIT_OK, EXIT_USAGE

__all__ = ["UsageError", "BadParameter", "echo", "Param", "Command", "command", "option",
           "argument", "choice", "int_range", "whole", "complete_shell"]

PROG = "satdoku"


class UsageError(Exception):
    """A usage error: the command line asked for something it cannot have (exit 2)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadParameter(UsageError):
    """A value an option or argument does not take; ``hint`` names it (filled in by the
    parser when the converter that raised it did not)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint

    def __str__(self) -> str:
        return f"Invalid value for {self.hint}: {self.message}" if self.hint else self.message


def echo(message: str = "", err: bool = False) -> None:
    """A line on stdout (stderr with ``err``), flushed."""
    stream = sys.stderr if err else sys.stdout
    stream.write(f"{message}\n")
    stream.flush()


def _plain(value: Any) -> Any:
    return value


class Param:
    """An option (``flags`` given) or an argument (none). ``convert`` turns the text given into
    the value (a :class:`BadParameter` or ``ValueError`` when it cannot); ``callback(value,
    command)`` then runs on every value, a default too, as click's callbacks did.
    ``complete`` is "file" where the shell should complete paths."""

    def __init__(self, name: str, flags: Sequence[str] = (), *, help: str | None = None,
                 metavar: str | None = None, default: Any = None, flag: bool = False,
                 off: Sequence[str] = (), multiple: bool = False, nargs: int = 1,
                 required: bool | None = None, convert: Callable[[str], Any] = _plain,
                 callback: Callable[[Any, str], Any] | None = None, show_default: bool = False,
                 complete: str | None = None) -> None:
        if default is None and (multiple or nargs == -1):
            default = ()
        self.name, self.flags, self.help, self.default = name, tuple(flags), help, default
        self.flag, self.off, self.multiple, self.nargs = flag, tuple(off), multiple, nargs
        self.required = (not flags and nargs == 1) if required is None else required
        self.convert, self.callback, self.show_default = convert, callback, show_default
        self.complete = complete
        choices = getattr(convert, "choices", None)
        self.choices: tuple[str, ...] | None = tuple(choices) if choices else None
        if metavar is None and not flags:
            metavar = name.upper() if self.required else f"[{name.upper()}]"
            metavar += "..." if nargs == -1 else ""
        elif metavar is None and not flag:
            metavar = "[" + "|".join(self.choices) + "]" if self.choices else \
                getattr(convert, "metavar", None) or "TEXT"
        self.metavar = metavar

    @property
    def hint(self) -> str:
        if not self.flags:
            return f"'{self.metavar}'"
        return " / ".join(f"'{flag}'" for flag in self.flags)

    def value(self, given: list[str], command: str) -> Any:
        """The value from the texts given for it (none: its default) in ``command``."""
        try:
            if not given:
                value = self.default
            elif self.flag:
                value = given[-1]
            elif self.multiple or self.nargs == -1:
                value = tuple(self.convert(text) for text in given)
            else:
                value = self.convert(given[-1])
            return self.callback(value, command) if self.callback else value
        except BadParameter as error:
            error.hint = error.hint or self.hint
            raise
        except ValueError as error:
            raise BadParameter(str(error), self.hint) from None


def choice(values: Sequence[str]) -> Callable[[str], str]:
    """A converter taking one of ``values``."""
    def convert(text: str) -> str:
        if text not in values:
            raise BadParameter(f"{text!r} is not one of " + ", ".join(map(repr, values)) + ".")
        return text
    convert.choices = tuple(values)  # type: ignore[attr-defined]
    return convert


def int_range(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """A converter taking a whole number from ``low`` to ``high`` (either open)."""
    bounds = (f"{low}<=x<={high}" if low is not None and high is not None else
              f"x>={low}" if low is not None else f"x<={high}" if high is not None else "")

    def convert(text: str) -> int:
        number = whole(text)
        if (low is not None and number < low) or (high is not None and number > high):
            raise BadParameter(f"{number} is not in the range {bounds}.")
        return number
    convert.metavar, convert.bounds = "INTEGER RANGE", bounds  # type: ignore[attr-defined]
    return convert


def whole(text: str) -> int:
    """A converter taking a whole number."""
    try:
        return int(text)
    except ValueError:
        raise BadParameter(f"{text!r} is not a valid integer.") from None


whole.metavar = "INTEGER"  # type: ignore[attr-defined]


def _params_of(f: Callable) -> list[Param]:
    if "__params__" not in f.__dict__:
        f.__params__ = []  # type: ignore[attr-defined]
    return f.__params__  # type: ignore[attr-defined]


def option(*decls: str, is_flag: bool = False, type: Callable[[str], Any] | None = None,
           **kwargs: Any) -> Callable:
    """An option: its flags (``-o``, ``--output``; ``--color/--no-color`` for a switch with
    both ways) and optionally the parameter's name; ``type`` converts the text."""
    flags = [d for d in decls if d.startswith("-")]
    names = [d for d in decls if not d.startswith("-")]
    off: list[str] = []
    if len(flags) == 1 and "/" in flags[0]:
        on, no = flags[0].split("/")
        flags, off, is_flag = [on], [no], True
        kwargs.setdefault("default", None)
    elif is_flag:
        kwargs.setdefault("default", False)
    longest = max(flags, key=len)
    name = names[0] if names else longest.lstrip("-").replace("-", "_")
    param = Param(name, flags, flag=is_flag, off=off, convert=type or _plain, **kwargs)

    def decorate(f: Callable) -> Callable:
        _params_of(f).append(param)
        return f
    return decorate


def argument(name: str, type: Callable[[str], Any] | None = None, **kwargs: Any) -> Callable:
    """An argument: ``nargs=-1`` for all the remaining ones (a tuple); ``type`` converts each."""
    param = Param(name, convert=type or _plain, **kwargs)

    def decorate(f: Callable) -> Callable:
        _params_of(f).append(param)
        return f
    return decorate


class Command:
    """A command: its name, its parameters in the order ``--help`` lists them, and the
    function called with their values."""

    def __init__(self, name: str, callback: Callable, params: list[Param]) -> None:
        self.name, self.callback, self.params = name, callback, params
        self.help_param = Param("help", ("-h", "--help"), flag=True,
                                help="Show this message and exit.")

    @property
    def help(self) -> str:
        """The function's docstring, dedented (made when asked: textwrap costs start-up)."""
        return _cleandoc(self.callback.__doc__ or "")

    @property
    def summary(self) -> str:
        """The help's first sentence, for the list of commands."""
        first = self.help.split("\n\n")[0].replace("\n", " ")
        return first.split(". ")[0].rstrip(".")

    def usage(self) -> str:
        arguments = "".join(f" {p.metavar}" for p in self.params if not p.flags)
        return f"Usage: {PROG} {self.name} [OPTIONS]{arguments}"

    def fail(self, error: UsageError) -> NoReturn:
        fail(error, self.usage(), f"{PROG} {self.name}")

    def parse(self, args: Sequence[str]) -> dict[str, Any]:
        """The values of the parameters from ``args``; UsageError when they do not parse."""
        options = {f: p for p in self.params + [self.help_param] for f in p.flags + p.off}
        given: dict[str, list] = {p.name: [] for p in self.params}
        order: dict[str, Param] = {}  # the options as first given, then the arguments
        positional: list[str] = []
        args, helped = list(args), False
        while args:
            arg = args.pop(0)
            if arg == "--":
                positional += args
                break
            if not arg.startswith("-") or arg == "-":
                positional.append(arg)
                continue
            if arg.startswith("--"):
                name, equals, text = arg.partition("=")
                value: str | None = text if equals else None
            else:
                name, value = arg[:2], arg[2:] or None
            param = options.get(name)
            if param is None:
                raise UsageError(f"No such option: {name}" + _did_you_mean(name, options))
            if param is self.help_param:  # after the rest is parsed, as click did
                helped = True
                continue
            if param.flag:
                if value is not None and arg.startswith("--"):
                    raise UsageError(f"Option '{name}' does not take a value.")
                if value is not None:  # -fx: more short switches
                    args.insert(0, "-" + value)
                given[param.name].append(name not in param.off)
            else:
                if value is None:
                    if not args:
                        raise UsageError(f"Option '{name}' requires an argument.")
                    value = args.pop(0)
                given[param.name].append(value)
            order.setdefault(param.name, param)
        if helped:
            echo(self.help_text())
            sys.exit(EXIT_OK)
        for param in self.params:
            if not param.flags:
                if param.nargs == -1:
                    given[param.name], positional = positional, []
                elif positional:
                    given[param.name] = [positional.pop(0)]
                order[param.name] = param
        # Values are checked in that order, then the defaults: the first error is the first
        # bad thing on the line, as click had it.
        values = {}
        for param in [*order.values(), *(p for p in self.params if p.name not in order)]:
            if param.required and not given[param.name]:
                raise UsageError(f"Missing argument {param.hint}.")
            values[param.name] = param.value(given[param.name], self.name)
        if positional:
            raise UsageError(f"Got unexpected extra argument{'s' * (len(positional) > 1)} "
                             f"({' '.join(positional)})")
        return {p.name: values[p.name] for p in self.params}

    def main(self, args: Sequence[str]) -> None:
        try:
            values = self.parse(args)
            self.callback(**values)
        except UsageError as error:
            self.fail(error)

    def help_text(self) -> str:
        rows = []
        for p in [q for q in self.params if q.flags and q.help is not None] + [self.help_param]:
            names = ", ".join(sorted(p.flags, key=len)) + "".join(f" / {f}" for f in p.off)
            left = names + ("" if p.flag else f" {p.metavar}")
            text, extras = p.help or "", []
            if p.show_default and p.default is not None and p.default is not False \
                    and p.default != ():
                extras.append(f"default: {p.default}")
            if getattr(p.convert, "bounds", None):
                extras.append(p.convert.bounds)  # type: ignore[attr-defined]
            if extras:
                text += f"  [{'; '.join(extras)}]"
            rows.append((left, text))
        parts = [self.usage(), *map(_indent, self.help.split("\n\n")),
                 "\n".join(["Options:", *_table(rows)])]
        return "\n\n".join(parts)


def fail(error: UsageError, usage: str, prog: str) -> NoReturn:
    """Say a usage error (every long run of characters in it cut: a 100 KB argument is not
    echoed whole) and exit 2."""
    import re
    from ..errors import abridge
    message = re.sub(r"\S{200,}", lambda m: abridge(m.group()), str(error))
    echo(f"{usage}\nTry '{prog} --help' for help.\n\nError: {message}", err=True)
    sys.exit(EXIT_USAGE)


def command(name: str | None = None) -> Callable[[Callable], Command]:
    """A command of the function below, with the options and arguments declared on it."""
    def decorate(f: Callable) -> Command:
        params = list(reversed(_params_of(f)))
        return Command(name or f.__name__.replace("_", "-"), f, params)
    return decorate


def _cleandoc(doc: str) -> str:
    import textwrap
    first, _, rest = doc.strip("\n").partition("\n")
    return (first.strip() + "\n" + textwrap.dedent(rest)).strip()


def _width() -> int:
    import shutil
    return max(min(shutil.get_terminal_size((80, 24)).columns, 100) - 2, 50)


def _indent(paragraph: str) -> str:
    import textwrap
    return textwrap.fill(" ".join(paragraph.split()), _width(), initial_indent="  ",
                         subsequent_indent="  ")


def _table(rows: list[tuple[str, str]]) -> list[str]:
    """Two columns: the left as wide as its widest entry up to 30 characters."""
    import textwrap
    width = min(max(len(left) for left, _ in rows), 30) + 4
    out = []
    for left, text in rows:
        wrapped = textwrap.wrap(text, max(_width() - width, 20)) or [""]
        if len(left) + 4 > width:
            out.append(f"  {left}")
            out += [" " * width + line for line in wrapped]
        else:
            out.append(f"  {left:<{width - 2}}{wrapped[0]}")
            out += [" " * width + line for line in wrapped[1:]]
    return out


def _did_you_mean(word: str, known) -> str:
    from ..errors import closest
    close = closest(word, sorted(known))
    return f" Did you mean {close}?" if close else ""


def group_help(summary: str, commands: dict[str, Command], options: list[tuple[str, str]]
               ) -> str:
    """The help of ``satdoku`` itself: ``summary``, its options, and every command."""
    listed = _table([(name, commands[name].summary) for name in sorted(commands)])
    parts = [f"Usage: {PROG} [OPTIONS] COMMAND [ARGS]...", *map(_indent, summary.split("\n\n")),
             "\n".join(["Options:", *_table(options)]), "\n".join(["Commands:", *listed])]
    return "\n\n".join(parts)


def no_such_command(name: str, known) -> UsageError:
    return UsageError(f"No such command '{name}'." + _did_you_mean(name, known))


# Shell completion: the shell's function runs satdoku with _SATDOKU_COMPLETE=complete and the
# words so far (COMP_WORDS, COMP_CWORD), and reads back lines "file,PREFIX" (complete paths)
# or "plain,WORD"; click's bash protocol, which the scripts below speak.

_SOURCES = {
    "bash": """_satdoku_completion() {
    local IFS=$'\\n' kind value
    local response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD \\
        _SATDOKU_COMPLETE=bash_complete $1)
    COMPREPLY=()
    for completion in $response; do
        IFS=',' read kind value <<< "$completion"
        if [[ $kind == file ]]; then
            COMPREPLY+=($(compgen -f -- "$value"))
        else
            COMPREPLY+=("$value")
        fi
    done
}
complete -o filenames -o nosort -F _satdoku_completion satdoku
""",
    "zsh": """autoload -U +X bashcompinit && bashcompinit
""",
    "fish": """function _satdoku_completion
    set -l response (env _SATDOKU_COMPLETE=bash_complete COMP_WORDS=(commandline -cp) \\
        COMP_CWORD=(count (commandline -cpo)) satdoku)
    for completion in $response
        set -l parts (string split -m 1 ',' -- $completion)
        if test $parts[1] = file
            __fish_complete_path $parts[2]
        else
            echo $parts[2]
        end
    end
end
complete --no-files --command satdoku --arguments '(_satdoku_completion)'
""",
}
_SOURCES["zsh"] += _SOURCES["bash"]


def complete_shell(mode: str, commands: Callable[[], dict[str, Command]],
                   find: Callable[[str], Command | None]) -> None:
    """Answer the shell (``_SATDOKU_COMPLETE``'s ``mode``): print a shell's completion script
    (``bash_source``, ``zsh_source``, ``fish_source``) or the completions of COMP_WORDS."""
    shell, _, what = mode.partition("_")
    if what == "source":
        if shell not in _SOURCES:
            echo(f"satdoku completes bash, zsh and fish, not {shell!r}", err=True)
            sys.exit(EXIT_USAGE)
        sys.stdout.write(_SOURCES[shell])
        return
    words = os.environ.get("COMP_WORDS", "").split()
    cword = int(os.environ.get("COMP_CWORD", "0") or 0)
    incomplete = words[cword] if cword < len(words) else ""
    before = words[1:cword]
    for kind, value in _completions(before, incomplete, commands, find):
        sys.stdout.write(f"{kind},{value}\n")


def _completions(before: list[str], incomplete: str, commands, find):
    if not before:
        names = ["-h", "--help", "--version"] if incomplete.startswith("-") else commands()
        return [("plain", n) for n in sorted(names) if n.startswith(incomplete)]
    cmd = find(before[0])
    if cmd is None:
        return []
    options = {f: p for p in cmd.params + [cmd.help_param] for f in p.flags + p.off}
    last = options.get(before[-1]) if len(before) > 1 else None
    if last is not None and not last.flag:
        if last.choices:
            return [("plain", c) for c in last.choices if c.startswith(incomplete)]
        return [("file", incomplete)] if last.complete == "file" else []
    if incomplete.startswith("-"):
        return [("plain", f) for f in sorted(options) if f.startswith(incomplete)]
    arguments = [p for p in cmd.params if not p.flags]
    return [("file", incomplete)] if any(p.complete == "file" for p in arguments) else []
