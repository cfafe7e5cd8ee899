"""Output files: never half-written, never overwritten by surprise, never a device replaced.

:class:`Output` is where a command's results go:

- ``None`` or ``'-'``: standard output;
- an existing file that is not a regular file (``/dev/null``, a FIFO, a terminal,
  ``/dev/stdout``): written in place, as ``>`` in a shell would; nothing is renamed or replaced;
- a regular file (a symlink is followed to its target, never replaced): written beside the
  target under a temporary name and renamed into place by :meth:`Output.commit`, so a reader
  never sees half a file and an interrupted run leaves the old file as it was unless the
  results finished so far are committed. An existing file needs ``force``; an input of the same
  run (stdin included, by device and inode) is refused even with ``force``. An ``exclusive``
  output (a proof, one file of many in a folder) is never put over a file, not even one that
  appeared while it was written: it is linked into place, and :class:`Exists` says when the
  name was taken.

Temporary files are named ``.NAME.satdoku-PID.tmp``; one left behind by a process that was
killed (SIGKILL) is removed by the next run that writes NAME, once that process is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys

from ..errors import SatdokuError

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import IO, Iterable

__all__ = ["Output", "Exists", "publish", "is_input"]


class Exists(SatdokuError):
    """An exclusive output's name is taken (:class:`Output`)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def publish(tmp: str, path: str, exclusive: bool = False) -> None:
    """Rename the finished temporary file ``tmp`` to ``path``, with the permissions a plain
    ``open(path, 'w')`` would have given it; an existing file's mode is kept. ``exclusive``:
    never over an existing file (:class:`Exists`; ``tmp`` stays for the caller to discard)."""
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    else:
        if exclusive:
            raise Exists(f"{path} exists; it is not overwritten")
    os.chmod(tmp, mode)
    if not exclusive:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)  # atomic, and fails where a file appeared since the check
    except FileExistsError:
        raise Exists(f"{path} exists; it is not overwritten") from None
    except OSError:  # a file system without hard links: the check above has to do
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def _identity(path: str | None) -> tuple[int, int] | None:
    """(device, inode) of a regular file or a FIFO: ``path``, or stdin's for ``None``."""
    try:
        info = os.stat(path) if path is not None else os.fstat(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):  # no such file; stdin closed or replaced
        return None
    kind = info.st_mode
    return (info.st_dev, info.st_ino) if stat.S_ISREG(kind) or stat.S_ISFIFO(kind) else None


def is_input(path: str, inputs: Iterable[str]) -> bool:
    """Whether writing ``path`` would replace one of ``inputs`` (``'-'``: stdin), told by
    device and inode, whatever the names: ``-o p.txt < p.txt`` and ``-o /dev/stdin`` are
    inputs too, and so is the pipe a run reads. A device (a terminal, ``/dev/null``) is not.

    >>> is_input(__file__, [__file__]), is_input(__file__, ["no/such/file"])
    (True, False)
    """
    target = _identity(path)
    return target is not None and any(_identity(None if source == "-" else source) == target
                                      for source in inputs)


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


#: A temporary's name (compiled by ``re`` when first used: a start does not need it).
_TMP = r"\.(?P<name>.+)\.satdoku-(?P<pid>\d+)\.tmp$"


def _remove_stale(folder: str, name: str) -> None:
    """Remove temporaries of ``name`` left by satdoku processes that no longer run."""
    import glob  # only a file written (--output, a proof) needs it
    for tmp in glob.glob(os.path.join(glob.escape(folder), f".{glob.escape(name)}.satdoku-*.tmp")):
        match = re.search(_TMP, os.path.basename(tmp))
        if not match or match["name"] != name:
            continue
        pid = int(match["pid"])
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        except OSError:
            pass  # alive, but not ours to signal


class Output:
    """The destination of one command's results (see the module docstring).

    Raises :class:`SatdokuError` (one line naming the path and the reason) when it cannot be
    written: a folder, a missing folder, an existing file without ``force`` (:class:`Exists`
    when ``exclusive``), an input file.

    >>> out = Output(None)
    >>> out.stream is sys.stdout, out.path
    (True, None)
    """

    def __init__(self, path: str | None, *, force: bool = False, inputs: Iterable[str] = (),
                 binary: bool = False, exclusive: bool = False) -> None:
        self.path = None if path in (None, "-") else path
        self.exclusive = exclusive
        self.tmp: str | None = None
        self.target: str | None = None
        self._owned = False
        if self.path is None:
            self.stream: IO = sys.stdout.buffer if binary else sys.stdout
            return
        path = self.path
        if not path.strip():
            raise SatdokuError("the output path is empty")
        if is_input(path, inputs):
            raise SatdokuError(f"{path} is an input of this run; choose another output")
        try:
            info = os.stat(path)  # follows links: /dev/stdout may lead to a pipe
        except FileNotFoundError:
            info = None
        except OSError as error:
            raise SatdokuError(f"{path}: cannot write: {_reason(error)}") from None
        mode = "wb" if binary else "w"
        encoding, newline = (None, None) if binary else ("utf-8", "")
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise SatdokuError(f"{path} is a directory")
        if path.endswith(("/", os.sep)):  # realpath would drop the slash: a file 'newdir'
            raise SatdokuError(f"{path}: no such folder (a path that ends in '/' names a "
                               f"folder; the output is a file)")
        if info is not None and exclusive:
            raise Exists(f"{path} exists; it is not overwritten")
        if info is not None and not stat.S_ISREG(info.st_mode):
            try:  # a device, FIFO or terminal: write into it, as '>' would
                self.stream = open(path, mode, encoding=encoding, newline=newline)
            except OSError as error:
                raise SatdokuError(f"{path}: cannot write: {_reason(error)}") from None
            self._owned = True
            return
        if info is not None and not force:
            raise SatdokuError(f"{path} exists; use --force to overwrite it")
        target = os.path.realpath(path)
        folder, name = os.path.split(target)
        if not os.path.isdir(folder):
            raise SatdokuError(f"{path}: folder {os.path.dirname(path) or folder} does not "
                               f"exist")
        _remove_stale(folder, name)
        self.target = target
        self.tmp = os.path.join(folder, f".{name}.satdoku-{os.getpid()}.tmp")
        try:
            self.stream = open(self.tmp, mode, encoding=encoding, newline=newline)
        except OSError as error:
            raise SatdokuError(f"{path}: cannot write: {_reason(error)}") from None
        self._owned = True

    def write(self, text) -> None:
        try:
            self.stream.write(text)
        except OSError as error:
            raise self._error(error) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            raise self._error(error) from None

    def _error(self, error: OSError) -> Exception:
        """A closed pipe stays itself (it ends a run quietly); anything else says where."""
        if isinstance(error, BrokenPipeError):
            return error
        return SatdokuError(f"{self.path or 'standard output'}: cannot write: "
                            f"{_reason(error)}")

    def isatty(self) -> bool:
        return self.stream.isatty()

    def commit(self) -> None:
        """Finish: flush, and put a regular file in place (the old one is replaced)."""
        if not self._owned:
            self.flush()
            return
        try:
            self.stream.close()
            self._owned = False
            if self.tmp is not None and self.target is not None:
                publish(self.tmp, self.target, self.exclusive)
                self.tmp = None
        except Exists:
            self.discard()
            raise
        except OSError as error:
            self.discard()
            raise SatdokuError(f"{self.path}: cannot write: {_reason(error)}") from None

    def discard(self) -> None:
        """Give up: the temporary file goes, an existing file stays as it was."""
        if self._owned:
            with contextlib.suppress(OSError):
                self.stream.close()
            self._owned = False
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
            self.tmp = None
