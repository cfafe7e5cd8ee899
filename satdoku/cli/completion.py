"""Shell completion: the scripts bash, zsh and fish load, and the answers they ask for.

``_SATDOKU_COMPLETE=bash_source satdoku`` (``zsh_source``, ``fish_source``) prints a shell's
script. The script's function runs ``satdoku`` with ``_SATDOKU_COMPLETE=bash_complete``, the
words typed so far in ``COMP_WORDS`` (as the shell quoted them) and the index of the word
being completed in ``COMP_CWORD``, and reads back one line a completion: ``plain,WORD`` (a
command, an option, a choice) or ``file,PREFIX`` (let the shell complete a path). This is
the protocol click's scripts spoke, so a script saved from an earlier satdoku still works in
bash.
"""

from __future__ import annotations

import os
import sys
from typing import Callable, Iterator

from ..model.result import EXIT_OK, EXIT_USAGE
from .parsing import Command, echo

__all__ = ["answer", "SCRIPTS"]

_BASH = """_satdoku_completion() {
    local IFS=$'\\n'
    local response kind value
    response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD="$COMP_CWORD" \\
        _SATDOKU_COMPLETE=bash_complete "$1")
    COMPREPLY=()
    for completion in $response; do
        IFS=',' read -r kind value <<< "$completion"
        if [[ $kind == file ]]; then
            COMPREPLY=()
            compopt -o default
            return
        fi
        COMPREPLY+=("$value")
    done
}
complete -o nosort -F _satdoku_completion satdoku
"""

_ZSH = """#compdef satdoku
_satdoku_completion() {
    local -a completions response
    response=("${(@f)$(env COMP_WORDS="${words[*]}" COMP_CWORD=$((CURRENT-1)) \\
        _SATDOKU_COMPLETE=bash_complete satdoku)}")
    for line in $response; do
        if [[ ${line%%,*} == file ]]; then
            _path_files -f
            return
        fi
        completions+=("${line#*,}")
    done
    if [ -n "$completions" ]; then
        compadd -U -V unsorted -a completions
    fi
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _satdoku_completion "$@"
else
    compdef _satdoku_completion satdoku
fi
"""

_FISH = """function _satdoku_completion
    set -l before (commandline -cpo)
    set -l words (string escape -- $before) (commandline -ct)
    set -l response (env _SATDOKU_COMPLETE=bash_complete COMP_WORDS="$words" \\
        COMP_CWORD=(count $before) satdoku)
    for completion in $response
        set -l parts (string split -m 1 ',' -- $completion)
        if test "$parts[1]" = file
            __fish_complete_path $parts[2]
        else
            echo $parts[2]
        end
    end
end
complete --no-files --command satdoku --arguments '(_satdoku_completion)'
"""

#: Each shell's script, by the name ``_SATDOKU_COMPLETE=NAME_source`` gives.
SCRIPTS = {"bash": _BASH, "zsh": _ZSH, "fish": _FISH}


def answer(mode: str, group: Command, find: Callable[[str], Command | None]) -> None:
    """Answer ``_SATDOKU_COMPLETE=mode`` and exit: a shell's script, or the completions of
    the words in the environment (see the module docstring)."""
    shell, _, what = mode.partition("_")
    if what == "source" and shell in SCRIPTS:
        sys.stdout.write(SCRIPTS[shell])
        sys.exit(EXIT_OK)
    if mode != "bash_complete":
        echo(f"_SATDOKU_COMPLETE={mode}: satdoku knows bash_source, zsh_source, fish_source "
             f"and bash_complete", err=True)
        sys.exit(EXIT_USAGE)
    words = split_words(os.environ.get("COMP_WORDS", ""))
    try:
        cword = int(os.environ.get("COMP_CWORD", ""))
    except ValueError:
        cword = len(words)
    incomplete = words[cword] if 0 <= cword < len(words) else ""
    for kind, value in completions(words[1:cword], incomplete, group, find):
        sys.stdout.write(f"{kind},{value}\n")
    sys.exit(EXIT_OK)


def split_words(text: str) -> list[str]:
    """The words of a command line as a shell typed them (quotes and backslashes taken
    off; an unclosed quote, as in a word still being typed, ends the last word)."""
    import shlex
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split, lexer.commenters = True, ""
    words: list[str] = []
    try:
        words.extend(lexer)
    except ValueError:  # no closing quotation: the word typed so far
        words.append(lexer.token)
    return words


def completions(before: list[str], incomplete: str, group: Command,
                find: Callable[[str], Command | None]) -> Iterator[tuple[str, str]]:
    """What may come as ``incomplete`` after the words ``before`` (the program's name
    left out): (kind, value) pairs."""
    while before and before[0].startswith("-") and before[0] != "--":
        before = before[1:]  # the group's own options (--help, --version)
    if before[:1] == ["--"]:
        before = before[1:]
    if not before:
        if incomplete.startswith("-"):
            yield from _matching(group.options, incomplete)
        else:
            names = next(p.choices for p in group.params if p.choices)
            yield from (("plain", n) for n in names if n.startswith(incomplete))
        return
    command = find(before[0])
    if command is None:
        return
    rest, options = before[1:], command.options
    ended = "--" in rest
    last = options.get(rest[-1]) if rest and not ended else None
    if last is not None and not last.flag:  # the value of an option
        yield from _values(last, incomplete, "")
    elif incomplete.startswith("-") and not ended:
        name, equals, value = incomplete.partition("=")
        if equals and name in options and not options[name].flag:
            yield from _values(options[name], value, name + "=")
        else:
            yield from _matching(options, incomplete)
    elif any(p.complete == "file" for p in command.params if not p.flags):
        yield "file", incomplete


def _matching(options: dict, incomplete: str) -> Iterator[tuple[str, str]]:
    return (("plain", flag) for flag in sorted(options) if flag.startswith(incomplete))


def _values(param, incomplete: str, prefix: str) -> Iterator[tuple[str, str]]:
    if param.choices:
        yield from (("plain", prefix + c) for c in param.choices if c.startswith(incomplete))
    elif param.complete == "file":
        yield "file", incomplete
