"""The command line's grammar (satdoku.cli.parsing): option forms, usage errors, help, shell
completion."""

from __future__ import annotations

import pytest

from conftest import ROOT, SMALL, run_cli
from satdoku.cli.parsing import (BadParameter, UsageError, argument, choice, command, int_range,
                                 option)


def _toy():
    """A command with one of each kind of parameter; its call returns what it was given."""
    @command("toy")
    @argument("inputs", nargs=-1, complete="file")
    @option("-o", "--output", metavar="FILE", complete="file", help="Where.")
    @option("--limit", type=int_range(1, 9), default=2, show_default=True, help="How many.")
    @option("--format", "fmt", type=choice(["a", "b"]), default="a", help="Which.")
    @option("--tag", "tags", multiple=True, help="Tags.")
    @option("--force", is_flag=True, help="Force.")
    @option("--color/--no-color", help="Paint.")
    def toy(**values):
        """A toy. It takes everything.

        A second paragraph."""
        return values
    return toy


def test_every_form_of_option_parses():
    toy = _toy()
    values = toy.parse(["x", "--limit=3", "-oout.txt", "y", "--tag", "t1", "--tag=t2",
                        "--force", "--no-color", "--", "--not-an-option"])
    assert values == {"inputs": ("x", "y", "--not-an-option"), "output": "out.txt",
                      "limit": 3, "fmt": "a", "tags": ("t1", "t2"), "force": True,
                      "color": False}
    defaults = toy.parse([])
    assert defaults == {"inputs": (), "output": None, "limit": 2, "fmt": "a", "tags": (),
                        "force": False, "color": None}
    assert toy.parse(["-o", "-"])["output"] == "-"  # a value may start with a dash
    assert toy.parse(["--limit", "4", "--limit", "5"])["limit"] == 5  # the last one counts


@pytest.mark.parametrize("args, message", [
    (["--limt", "3"], "No such option: --limt Did you mean --limit?"),
    (["--lim", "3"], "No such option: --lim Did you mean --limit?"),  # not an abbreviation
    (["--limit"], "Option '--limit' requires an argument."),
    (["--limit", "0"], "Invalid value for '--limit': 0 is not in the range 1<=x<=9."),
    (["--limit", "two"], "Invalid value for '--limit': 'two' is not a valid integer."),
    (["--format", "c"], "Invalid value for '--format': 'c' is not one of 'a', 'b'."),
    (["--force=yes"], "Option '--force' does not take a value."),
])
def test_a_bad_command_line_is_a_usage_error_that_says_why(args, message):
    with pytest.raises(UsageError) as raised:
        _toy().parse(args)
    assert str(raised.value) == message


def test_the_first_error_is_the_first_bad_thing_on_the_line():
    toy = _toy()
    with pytest.raises(UsageError, match="'--format'"):
        toy.parse(["--format", "c", "--limit", "0"])
    with pytest.raises(UsageError, match="'--limit'"):
        toy.parse(["--limit", "0", "--format", "c"])
    encode = run_cli("encode", "--format", "bogus")  # not "Missing argument" first
    assert encode.exit_code == 2 and "Invalid value for '--format'" in encode.stderr


def test_bench_refuses_a_folder_as_a_file(tmp_path):
    done = run_cli("bench", str(tmp_path))
    assert done.exit_code == 2 and "is a folder, not a puzzle file" in done.stderr


def test_an_argument_is_required_unless_it_takes_any_number():
    @command("one")
    @argument("puzzle", metavar="PUZZLE")
    def one(puzzle):
        """One."""

    with pytest.raises(UsageError, match="Missing argument 'PUZZLE'."):
        one.parse([])
    with pytest.raises(UsageError, match=r"Got unexpected extra argument \(b\)"):
        one.parse(["a", "b"])
    assert one.parse(["a"]) == {"puzzle": "a"}


def test_a_callback_sees_every_value_and_its_errors_name_the_option():
    def callback(value, command):
        if value == "bad":
            raise BadParameter("not this one")
        return (command, value)

    @command("cb")
    @option("--x", callback=callback)
    def cb(x):
        """Cb."""

    assert cb.parse([]) == {"x": ("cb", None)}  # the default goes through it too
    with pytest.raises(UsageError, match="Invalid value for '--x': not this one"):
        cb.parse(["--x", "bad"])


def test_help_lists_every_option_with_its_default_and_the_docstring():
    text = _toy().help_text()
    assert text.startswith("Usage: satdoku toy [OPTIONS] [INPUTS]...\n\n  A toy. It takes "
                           "everything.\n\n  A second paragraph.\n\nOptions:\n")
    for flag in ("-o, --output FILE", "--limit INTEGER RANGE", "--format [a|b]", "--tag TEXT",
                 "--force", "--color / --no-color", "-h, --help"):
        assert flag in text, flag
    assert "How many.  [default: 2; 1<=x<=9]" in text


def test_the_command_line_says_usage_errors_and_help_as_a_user_sees_them():
    bad = run_cli("solve", SMALL, "--timeout", "0")
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr.splitlines()[:2] == ["Usage: satdoku solve [OPTIONS] [PUZZLE|FILE|-]...",
                                           "Try 'satdoku solve --help' for help."]
    helped = run_cli("count", "-h")
    assert helped.exit_code == 0 and "--limit N" in helped.stdout
    assert run_cli("--help").exit_code == 0
    bare = run_cli()  # the help, as a usage error
    assert bare.exit_code == 2 and bare.stdout == "" and "Commands:" in bare.stderr
    # an unknown option is refused even beside --help or --version, as click refused it
    for args in (["--help", "--bogus"], ["--version", "--bogus"], ["solve", "-h", "--bogus"]):
        refused = run_cli(*args)
        assert refused.exit_code == 2 and refused.stdout == "", args
    assert run_cli("--", "solve", SMALL, "--format", "line").stdout == "1234341223414123\n"
    # a -- after the command's name is the command's: what follows is arguments only
    assert run_cli("solve", "--", "--help").stderr.startswith("<arg>:1: 6 cells")
    assert run_cli("generate", "--", "--seed", "1").exit_code == 2
    typo = run_cli("slove")
    assert typo.exit_code == 2 and "No such command 'slove'. Did you mean solve?" in typo.stderr
    long = run_cli("solve", "--" + "x" * 100_000)  # a long argument is not echoed whole
    assert long.exit_code == 2 and "(100,002 characters)" in long.stderr
    assert len(long.stderr) < 1000


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_gets_a_completion_script(shell):
    script = run_cli(env={"_SATDOKU_COMPLETE": f"{shell}_source"})
    assert script.exit_code == 0 and "_SATDOKU_COMPLETE=bash_complete" in script.stdout
    for mode in ("tcsh_source", "zsh_complete"):
        assert run_cli(env={"_SATDOKU_COMPLETE": mode}).exit_code == 2


@pytest.fixture
def on_path(tmp_path):
    """A ``satdoku`` on PATH that runs this checkout, and a folder with a space in its name
    holding a puzzle file: what a shell's completion script calls and completes."""
    import os
    import stat
    import sys
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    program = bin_dir / "satdoku"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m satdoku "$@"\n')
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    (tmp_path / "my puzzles").mkdir()
    (tmp_path / "my puzzles" / "a b.txt").write_text(SMALL + "\n")
    (tmp_path / "line").mkdir()  # a folder named like a choice: not offered for --format
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": str(ROOT)}
    return tmp_path, env


def _shell(shell: str, script: str, folder, env) -> list[str]:
    import shutil
    import subprocess
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    done = subprocess.run([shell, "-c", script], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("words, cword, expected", [
    ("(satdoku so)", 1, ["solve", "solvers"]),
    ("(satdoku solve --format l)", 3, ["line"]),
    # as bash leaves a word in COMP_WORDS: quoted as typed
    (r"(satdoku solve 'my\ puzzles/a\ b.txt' --for)", 3, ["--force", "--format"]),
    ("(satdoku -h so)", 2, ["solve", "solvers"]),
])
def test_bash_completes_through_its_script(on_path, words, cword, expected):
    folder, env = on_path
    lines = _shell("bash", f"""eval "$(_SATDOKU_COMPLETE=bash_source satdoku)"
COMP_WORDS={words}; COMP_CWORD={cword}; _satdoku_completion satdoku
printf '%s\\n' "${{COMPREPLY[@]}}" """, folder, env)
    assert lines == expected


def test_fish_completes_through_its_script(on_path):
    folder, env = on_path
    script = run_cli(env={"_SATDOKU_COMPLETE": "fish_source"}).stdout
    (folder / "satdoku.fish").write_text(script)
    lines = _shell("fish", "source satdoku.fish; complete -C 'satdoku so'; "
                           "complete -C 'satdoku solve \\'my puzzles/\\' --for'; "
                           "complete -C 'satdoku solve --format l'; "
                           "complete -C 'satdoku solve my\\ puzzles/a'", folder, env)
    assert [line.split("\t")[0] for line in lines] == [
        "solve", "solvers", "--force", "--format", "line", "my puzzles/a b.txt"]


@pytest.mark.parametrize("words, expected", [
    ("satdoku so", ["plain,solve", "plain,solvers"]),
    ("satdoku --v", ["plain,--version"]),
    ("satdoku rate --he", ["plain,--help"]),
    ("satdoku solve --for", ["plain,--force", "plain,--format"]),
    ("satdoku solve --format l", ["plain,line"]),
    ("satdoku count --encoding ", ["plain,minimal", "plain,natural", "plain,extended",
                                   "plain,augmented", "plain,reduced"]),
    ("satdoku solvers ", []),
])
def test_completion_offers_commands_options_and_choices(words, expected):
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    done = run_cli(env={"_SATDOKU_COMPLETE": "bash_complete", "COMP_WORDS": words,
                        "COMP_CWORD": str(cword)})
    assert done.stdout.splitlines() == expected
