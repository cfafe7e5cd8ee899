"""Writing output files safely: all or nothing, and never over an existing file by surprise."""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import IO, Iterator

from .errors import SatdokuError

__all__ = ["atomic_output", "check_writable", "publish"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def publish(tmp: str, path: str) -> None:
    """Rename the finished temporary file ``tmp`` to ``path``, with the permissions a plain
    ``open(path, 'w')`` would have given it (``mkstemp`` makes files readable by their owner
    only); an existing file's mode is kept."""
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def check_writable(path: str, *, force: bool = False) -> None:
    """Raise :class:`SatdokuError` if ``path`` exists and ``force`` is not set, or is a folder."""
    if os.path.isdir(path):
        raise SatdokuError(f"{path} is a directory")
    if os.path.exists(path) and not force:
        raise SatdokuError(f"{path} exists; use --force to overwrite it")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SatdokuError(f"{path}: folder {folder} does not exist")


@contextlib.contextmanager
def atomic_output(path: str, *, force: bool = False) -> Iterator[IO[str]]:
    """A text file that appears at ``path`` only when the block finishes without an exception.

    It is written beside ``path`` under a temporary name and renamed into place at the end, so a
    reader never sees a half-written file and an interrupted run leaves the old file (if any) as
    it was.
    """
    check_writable(path, force=force)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fp:
            yield fp
        if os.path.exists(path) and not force:
            raise SatdokuError(f"{path} appeared while satdoku was writing; not overwritten")
        publish(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
