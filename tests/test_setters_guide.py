"""The setter's guide (docs/setters-guide.md) and the setter's sections of docs/commands.md show
real output: every ``$ satdoku ...`` example there is run and its output compared.

A fenced block whose info string is ``json NAME`` is a file the examples read (written to a
temporary folder first). In the output shown, ``...`` stands for any text, lines included
(a grid left out, a table cut short)."""

import re
import shlex

import pytest

from conftest import ROOT, run_cli

GUIDE = ROOT / "docs" / "setters-guide.md"
COMMANDS = ROOT / "docs" / "commands.md"


def _blocks(text: str) -> list[tuple[str, str]]:
    """(info string, body) of each fenced block."""
    return re.findall(r"^```([^\n]*)\n(.*?)^```$", text, re.M | re.S)


def examples(text: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The files (name: text) and the examples (command, output shown) of a page."""
    files, runs = {}, []
    for info, body in _blocks(text):
        words = info.split()
        if len(words) == 2 and words[0] == "json":
            files[words[1]] = body
        elif body.startswith("$ satdoku "):
            for chunk in re.split(r"^(?=\$ satdoku )", body, flags=re.M):
                if chunk:
                    command, _, shown = chunk.partition("\n")
                    runs.append((command[2:], shown))
    return files, runs


def section(text: str, heading: str) -> str:
    match = re.search(rf"^{re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, heading
    return match.group(1)


def _matches(shown: str, output: str) -> bool:
    pattern = ".*?".join(re.escape(part) for part in shown.rstrip().split("..."))
    return re.fullmatch(pattern, output.rstrip(), re.S) is not None


PAGES = {
    "setters-guide.md": lambda: GUIDE.read_text(),
    "commands.md candidates": lambda: section(COMMANDS.read_text(), "## `satdoku candidates`"),
}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_example_shows_what_the_command_prints(page, tmp_path, monkeypatch):
    files, runs = examples(PAGES[page]())
    assert runs, f"{page} shows no example"
    for name, body in files.items():
        (tmp_path / name).write_text(body)
    monkeypatch.chdir(tmp_path)
    for command, shown in runs:
        result = run_cli(*shlex.split(command)[1:])
        assert _matches(shown, result.output), f"$ {command}\n{result.output}"


def test_the_example_files_are_what_the_guide_says():
    files, runs = examples(GUIDE.read_text())
    assert {"step-1.json", "step-2.json", "step-3.json", "step-4.json"} <= set(files)
    commands = " ".join(command for command, _ in runs)
    for asked in ("count", "candidates --counts", "explain --fix", "explain --steps", "rate"):
        assert f"satdoku {asked}" in commands
