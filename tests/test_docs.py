"""The documentation tells the truth: every ``>>>`` example in the package's docstrings runs and
prints what it says, and the README and docs/ keep the promises the project makes about them
(size, set-up commands, layout, links, statuses, the library example)."""

import doctest
import importlib
import pkgutil
import re
import subprocess
import sys

import pytest

import satdoku
from conftest import ROOT
from satdoku.model.result import STATUSES

MODULES = sorted(m.name[len("satdoku."):] for m in pkgutil.walk_packages(satdoku.__path__, "satdoku.")
                 if not m.name.endswith("__main__"))

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
SETUP_COMMANDS = ('pip install . && satdoku solve puzzles/9x9.txt',
                  'pip install ".[test]" && python -m pytest -q')


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"satdoku.{name}")
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def section(text: str, heading: str) -> str:
    """The body of the Markdown section ``heading`` (up to the next heading of its level)."""
    level = heading.split(" ")[0]
    match = re.search(rf"^{re.escape(heading)}\n(.*?)(?=^{level} |\Z)", text, re.M | re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def test_readme_is_a_front_door():
    assert len(README.read_bytes()) < 20_000, "README.md is the front door: keep it under 20 KB"


def test_readme_first_screen_has_both_setup_commands():
    first_screen = README.read_text().splitlines()[:40]
    for command in SETUP_COMMANDS:  # CI runs exactly these
        assert command in first_screen, f"the first 40 lines of README.md lack {command!r}"


def test_readme_layout_names_every_module():
    layout = section(README.read_text(), "## Layout")
    package = ROOT / "satdoku"
    names = [p.name for p in package.glob("*.py")]
    names += [p.name + "/" for p in package.iterdir() if (p / "__init__.py").is_file()]
    missing = [name for name in sorted(names) if not re.search(rf"(?<![\w.]){re.escape(name)}",
                                                               layout)]
    assert not missing, f"README.md's layout section does not name {missing}"


def github_anchors(text: str) -> set[str]:
    """The anchors GitHub makes for the headings of a Markdown text."""
    anchors: set[str] = set()
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)  # no headings in code blocks
    for title in re.findall(r"^#{1,6} +(.+?) *#*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in anchors:
            n += 1
            anchor = f"{slug}-{n}"
        anchors.add(anchor)
    return anchors


def relative_links(text: str) -> list[str]:
    """Targets of the Markdown links and images in ``text`` that point inside the project."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    targets = re.findall(r"!?\[[^\]]*\]\(([^)\s]+)\)", text)
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: p.name)
def test_relative_links_point_to_files_and_headings(page):
    text = page.read_text()
    broken = []
    for target in relative_links(text):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in github_anchors(file.read_text()):
            broken.append(target)
    assert not broken, f"{page.name} links to what does not exist: {broken}"


def test_command_reference_lists_every_status_with_its_exit_code():
    reference = (ROOT / "docs" / "commands.md").read_text()
    for status, (code, _) in STATUSES.items():
        assert re.search(rf"^\| `{status}` \| {code} \|", reference, re.M), (
            f"docs/commands.md lacks the row '| `{status}` | {code} |'")


def test_readme_library_examples_run():
    """Each ``python`` block of the README runs as shown in a fresh interpreter, as a reader
    would run it, and prints what its comments say (``...``: the first of several lines)."""
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(), re.M | re.S)
    assert blocks, "README.md shows no library example"
    for block in blocks:
        done = subprocess.run([sys.executable, "-c", block], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        printed = done.stdout.splitlines()
        promised = [re.sub(r"\s*\.\.\.$", "", comment.strip())
                    for comment in re.findall(r"print\(.*\)\s*#(.*)$", block, re.M)]
        assert len(printed) >= len(promised)
        for line, comment in zip(printed, promised):
            assert line.startswith(comment), f"README.md promises {comment!r}, got {line!r}"
