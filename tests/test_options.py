"""Each option declared once (satdoku.tasks.options): the command line and the library take
the same options, check them the same way, and build the same options object."""

from __future__ import annotations

import pytest

import satdoku
from satdoku.cli.parsing import Command
from satdoku.cli.options import RUN_OPTIONS
from conftest import ROOT, cli_commands, run_cli
from satdoku.errors import OptionError
from satdoku.tasks import commands as declared
from satdoku.tasks.options import specs

#: Each command with a library call of its own, and its options class.
COMMANDS = [("solve", declared.SolveOptions), ("count", declared.CountOptions),
            ("explain", declared.ExplainOptions), ("candidates", declared.CandidatesOptions),
            ("rate", declared.RateOptions), ("generate", declared.GenerateOptions),
            ("encode", declared.EncodeOptions), ("decode", declared.DecodeOptions)]

#: What a command takes as its arguments: the library's positional parameters.
ARGUMENTS = {"puzzle", "model", "puzzle_text", "cnf"}  # decode --cnf: an input, as --puzzle

#: What the library's calls take to read a puzzle (satdoku.read's keywords).
READING = {"box", "alphabet", "ignore_unknown"}

SMALL = "1.3..4.2.34.4.23"


def _cli_names(command: str) -> set[str]:
    params = cli_commands()[command].params
    return {p.name for p in params if p.name not in RUN_OPTIONS | ARGUMENTS}


@pytest.mark.parametrize("command, cls", COMMANDS)
def test_the_library_and_the_command_line_take_the_same_options(command, cls):
    library = {name for name, _, _ in specs(cls)}
    if command != "generate":  # it reads no puzzle: its box and alphabet are its own options
        library |= READING
    assert _cli_names(command) == library


@pytest.mark.parametrize("command, cls", COMMANDS)
def test_every_option_is_documented_once(command, cls):
    for name, _, spec in specs(cls):
        assert spec.help and spec.help[0].isupper(), (command, name)
        option = next(p for p in cli_commands()[command].params if p.name == name)
        assert option.help == spec.help


@pytest.mark.parametrize("command, cls", COMMANDS)
def test_an_unknown_option_is_refused_with_a_suggestion(command, cls):
    if command in ("encode", "decode"):  # no time limit: a misspelt --index instead
        with pytest.raises(OptionError, match="did you mean 'index'"):
            getattr(satdoku, command)(*(["", SMALL] if command == "decode" else [SMALL]),
                                      indx=1)
        return
    call = getattr(satdoku, command)
    with pytest.raises(OptionError, match="did you mean 'timeout'"):
        call(SMALL if command != "generate" else (2, 2), timout=3)


def test_the_command_line_builds_the_object_the_library_builds(monkeypatch):
    built = []
    real = declared.ExplainOptions.__post_init__

    def spy(self):
        real(self)
        built.append(self)

    monkeypatch.setattr(declared.ExplainOptions, "__post_init__", spy)
    result = run_cli("explain", "--steps", "--max-rules", "2", "--timeout",
                     "30", SMALL)
    assert result.exit_code == 0, result.output
    satdoku.explain(SMALL, steps=True, max_rules=2, timeout=30)
    assert len(built) == 2 and built[0] == built[1]


@pytest.mark.parametrize("given, message", [
    ({"max_rules": 2}, "--max-rules bounds the steps of --steps"),
    ({"max_rules": -1, "steps": True}, "max_rules must be a whole number of at least 0"),
    ({"encoding": "extendd"}, "did you mean 'extended'"),
])
def test_a_bad_value_is_refused_alike_by_both(given, message):
    with pytest.raises(OptionError, match=message):
        satdoku.explain(SMALL, **given)
    args = []
    for name, value in given.items():
        flag = "--" + name.replace("_", "-")
        args += [flag] if value is True else [flag, str(value)]
    result = run_cli("explain", *args, SMALL)
    assert result.exit_code == 2


def test_a_flag_is_true_or_false():
    with pytest.raises(OptionError, match="steps is True or False"):
        satdoku.explain(SMALL, steps="yes")


def test_count_all_and_estimate_are_options_of_count_too():
    every = satdoku.count("1234............", all=True)
    assert (every.status, every.count, len(set(s.cells for s in every.solutions))) == \
        ("multiple", 12, 12)  # 288 / 4! grids of 4x4 with a given first row
    with pytest.raises(OptionError, match="--estimate does not take --limit"):
        satdoku.count(SMALL, estimate=True, limit=3)


def test_options_pickle_for_workers():
    import pickle
    options = declared.ExplainOptions(steps=True, max_rules=1, timeout=2.5)
    assert pickle.loads(pickle.dumps(options)) == options


def test_run_options_are_the_command_lines_own():
    # where a batch runs and how it is written: the library returns one answer instead
    assert RUN_OPTIONS >= {"inputs", "jobs", "fmt", "output", "force"}
    for command, _ in COMMANDS:
        assert isinstance(cli_commands()[command], Command)


def test_a_rules_file_of_several_puzzles_is_refused():
    # --fix-rules and --rules read one puzzle; the first of several was taken without a word
    with pytest.raises(OptionError, match="holds more than one puzzle"):
        satdoku.explain(SMALL, fix=True, fix_rules=str(ROOT / "puzzles" / "9x9.txt"))
