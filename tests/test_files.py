"""files: outputs are all or nothing, never replace what they should not, and say why not."""

import os
import stat

import pytest

from satdoku.errors import SatdokuError
from satdoku.io.files import Output, is_input


def test_regular_file_appears_only_when_committed(tmp_path):
    path = tmp_path / "out.txt"
    out = Output(str(path))
    out.write("half")
    assert not path.exists()  # written beside it under a temporary name
    out.commit()
    assert path.read_text() == "half"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_discard_keeps_the_old_file(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    out = Output(str(path), force=True)
    out.write("new")
    out.discard()
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_existing_file_needs_force_and_inputs_are_never_outputs(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    with pytest.raises(SatdokuError, match="exists; use --force to overwrite it"):
        Output(str(path))
    with pytest.raises(SatdokuError, match="is an input of this run"):
        Output(str(path), force=True, inputs=[str(path)])
    link = tmp_path / "link.txt"
    link.symlink_to(path)
    assert is_input(str(link), [str(path)]) and not is_input(str(path), [str(tmp_path / "no")])


def test_stdin_is_an_input_by_its_identity(tmp_path, monkeypatch):
    path = tmp_path / "p.txt"
    path.write_text("old")
    with open(path) as stdin:  # satdoku solve -o p.txt --force < p.txt
        monkeypatch.setattr("sys.stdin", stdin)
        with pytest.raises(SatdokuError, match="is an input of this run"):
            Output(str(path), force=True, inputs=["-"])
        assert not is_input(str(path), ["other.txt"])  # stdin is an input only when read
    with open(os.devnull) as stdin:
        monkeypatch.setattr("sys.stdin", stdin)
        assert not is_input(str(path), ["-"])
    assert path.read_text() == "old"


@pytest.mark.parametrize("name, message", [
    ("", "the output path is empty"),
    ("nodir/out.txt", "folder nodir does not exist"),
    (".", "is a directory"),
])
def test_bad_paths_say_why(tmp_path, monkeypatch, name, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SatdokuError, match=message):
        Output(name)


def test_devices_are_written_in_place_never_replaced():
    before = os.stat("/dev/null")
    out = Output("/dev/null", force=True)
    out.write("x" * 100)
    out.commit()
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        out = Output(str(fifo))  # no --force needed: nothing is replaced
        out.write("through the pipe\n")
        out.commit()
        assert os.read(reader, 100) == b"through the pipe\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_symlink_is_followed_not_replaced(tmp_path):
    target, link = tmp_path / "target.txt", tmp_path / "link.txt"
    target.write_text("old")
    link.symlink_to(target)
    out = Output(str(link), force=True)
    out.write("new")
    out.commit()
    assert link.is_symlink() and target.read_text() == "new"


def test_stale_temporaries_of_dead_runs_are_removed(tmp_path):
    import subprocess
    import sys
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp_path / f".out.txt.satdoku-{dead}.tmp"
    stale.write_text("left by a killed run")
    mine = tmp_path / f".other.txt.satdoku-{dead}.tmp"
    mine.write_text("another file's")
    out = Output(str(tmp_path / "out.txt"))
    out.commit()
    assert not stale.exists() and mine.exists()


def test_permissions_are_those_open_would_give(tmp_path):
    path = tmp_path / "out.txt"
    out = Output(str(path))
    out.commit()
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask
