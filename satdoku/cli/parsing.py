"""The command line's grammar: commands, their options and arguments, ``--help`` and usage
errors (shell completion is :mod:`.completion`).

Commands are declared with decorators (:func:`command`, :func:`option`, :func:`argument`), the
way click declares them, and parsed in one pass over ``argv``: options anywhere among the
arguments (for the group, up to the command's name), ``--name=value`` or ``--name value``,
``-o FILE`` or ``-oFILE``, ``--`` ends the options, no abbreviations. A bad value, an unknown
option or a missing argument is a :class:`UsageError` (exit 2: the usage line, a pointer to
``--help`` and ``Error: ...``, in click's words). Why satdoku has its own: docs/architecture.md.
"""

from __future__ import annotations

import sys

from ..model.result import EXIT_OK, EXIT_USAGE

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, NoReturn, Sequence

__all__ = ["PROG", "UsageError", "BadParameter", "echo", "Param", "Command", "command",
           "option", "argument", "choice", "int_range", "whole", "fail", "suggest"]

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
    """An option (``flags`` given; a switch when ``flag``, whose ``off`` flags turn it off) or
    an argument (no flags). ``convert`` turns the text given into the value (a
    :class:`BadParameter` or ``ValueError`` when it cannot); ``callback(value, command)`` then
    runs on every value, a default too, as click's callbacks did. ``complete`` is "file" where
    the shell should complete paths."""

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
        if required is None:
            required = not flags and nargs == 1 and default is None
        self.required = required
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
        """How an error names it: ``'--output' / '-o'``, or an argument's metavar."""
        if not self.flags:
            return f"'{self.metavar}'"
        return " / ".join(f"'{flag}'" for flag in self.flags)

    def value(self, given: list, command: str) -> Any:
        """The value from what was given for it (nothing: its default) in ``command``."""
        try:
            if not given:
                value = self.default
            elif self.flag:
                value = given[-1]
            elif self.multiple or self.nargs == -1:
                value = tuple(self._converted(text) for text in given)
            else:
                value = self._converted(given[-1])
            return self.callback(value, command) if self.callback else value
        except BadParameter as error:
            error.hint = error.hint or self.hint
            raise

    def _converted(self, text: str) -> Any:
        try:
            return self.convert(text)
        except ValueError as error:  # the converter's own words, not a bug of a callback's
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
    function called with their values. ``interspersed``: options may follow arguments (the
    group's may not: what follows the command's name is the command's); ``listing`` gives
    more help to end with (the group's commands)."""

    def __init__(self, name: str, callback: Callable, params: list[Param], *,
                 interspersed: bool = True,
                 listing: Callable[[], list[tuple[str, str]]] | None = None) -> None:
        self.name, self.callback, self.params = name, callback, params
        self.interspersed, self.listing = interspersed, listing
        self.help_param = Param("help", ("-h", "--help"), flag=True,
                                help="Show this message and exit.")

    @property
    def prog(self) -> str:
        return f"{PROG} {self.name}" if self.name else PROG

    @property
    def help(self) -> str:
        """The function's docstring, dedented (made when asked: textwrap costs start-up)."""
        return _cleandoc(self.callback.__doc__ or "")

    @property
    def summary(self) -> str:
        """The help's first sentence, for the list of commands."""
        first = self.help.split("\n\n")[0].replace("\n", " ")
        return first.split(". ")[0].rstrip(".")

    @property
    def options(self) -> dict[str, Param]:
        """Every option by each of its flags, ``-h`` and ``--help`` too."""
        return {f: p for p in self.params + [self.help_param] for f in p.flags + p.off}

    def usage(self) -> str:
        """The usage line: ``Usage: satdoku NAME [OPTIONS] ARGUMENTS``."""
        arguments = "".join(f" {p.metavar}" for p in self.params if not p.flags)
        return f"Usage: {self.prog} [OPTIONS]{arguments}"

    def fail(self, error: UsageError) -> NoReturn:
        fail(error, self.usage(), self.prog)

    def parse(self, args: Sequence[str]) -> dict[str, Any] | None:
        """The values of the parameters from ``args``, or None when ``--help`` was asked
        (and all else parsed); UsageError when they do not parse."""
        given, order, positional, helped = self._scan(list(args))
        if helped:
            return None
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
                what = "option" if param.flags else "argument"
                raise UsageError(f"Missing {what} {param.hint}.")
            values[param.name] = param.value(given[param.name], self.name)
        if positional:
            raise UsageError(f"Got unexpected extra argument{'s' * (len(positional) > 1)} "
                             f"({' '.join(positional)})")
        return {p.name: values[p.name] for p in self.params}

    def _scan(self, args: list[str]) -> tuple[dict[str, list], dict[str, Param], list[str],
                                              bool]:
        """What ``args`` give each option, in the order first given; the arguments; and
        whether ``--help`` is among them."""
        options = self.options
        given: dict[str, list] = {p.name: [] for p in self.params}
        order: dict[str, Param] = {}
        positional: list[str] = []
        helped = False
        while args:
            arg = args.pop(0)
            if positional and not self.interspersed:  # the rest is the command's, a -- too
                positional += [arg, *args]
                break
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
                raise UsageError(f"No such option: {name}" + suggest(name, options))
            if param.flag:
                if value is not None and arg.startswith("--"):
                    raise UsageError(f"Option '{name}' does not take a value.")
                if value is not None:  # -fx: more short switches
                    args.insert(0, "-" + value)
                if param is self.help_param:  # acted on once the rest is parsed, as click did
                    helped = True
                    continue
                given[param.name].append(name not in param.off)
            else:
                if value is None:
                    if not args:
                        raise UsageError(f"Option '{name}' requires an argument.")
                    value = args.pop(0)
                given[param.name].append(value)
            order.setdefault(param.name, param)
        return given, order, positional, helped

    def main(self, args: Sequence[str]) -> None:
        """Parse ``args`` and call the command (or print its help); a usage error exits 2."""
        try:
            values = self.parse(args)
            if values is None:
                echo(self.help_text())
                sys.exit(EXIT_OK)
            self.callback(**values)
        except UsageError as error:
            self.fail(error)

    def help_text(self) -> str:
        """``--help``: the usage line, the docstring, every option (and the listing)."""
        rows = []
        for p in [q for q in self.params if q.flags] + [self.help_param]:
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
        if self.listing is not None:
            parts.append("\n".join(["Commands:", *_table(self.listing())]))
        return "\n\n".join(parts)


def command(name: str | None = None, **kwargs: Any) -> Callable[[Callable], Command]:
    """A command of the function below, with the options and arguments declared on it
    (``kwargs``: :class:`Command`'s)."""
    def decorate(f: Callable) -> Command:
        params = list(reversed(_params_of(f)))
        return Command(f.__name__.replace("_", "-") if name is None else name, f, params,
                       **kwargs)
    return decorate


def fail(error: UsageError, usage: str, prog: str) -> NoReturn:
    """Say a usage error (every long run of characters in it cut: a 100 KB argument is not
    echoed whole) and exit 2."""
    import re
    from ..errors import abridge
    message = re.sub(r"\S{200,}", lambda m: abridge(m.group()), str(error))
    echo(f"{usage}\nTry '{prog} --help' for help.\n\nError: {message}", err=True)
    sys.exit(EXIT_USAGE)


def suggest(word: str, known) -> str:
    """`` Did you mean X?`` for a misspelt option or command, as click says it."""
    from ..errors import closest
    close = closest(word, sorted(known))
    return f" Did you mean {close}?" if close else ""


def _cleandoc(doc: str) -> str:
    import textwrap
    first, _, rest = doc.strip("\n").partition("\n")
    return (first.strip() + "\n" + textwrap.dedent(rest)).strip()


def _width() -> int:
    """The help's width: the terminal's, within 50 to 80 columns (as click's)."""
    import shutil
    return max(min(shutil.get_terminal_size((80, 24)).columns, 80) - 2, 50)


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
        wrapped = textwrap.wrap(text, max(_width() - width, 10)) or [""]
        if len(left) + 4 > width:
            out.append(f"  {left}")
            out += [" " * width + line for line in wrapped]
        else:
            out.append(f"  {left:<{width - 2}}{wrapped[0]}")
            out += [" " * width + line for line in wrapped[1:]]
    return out
