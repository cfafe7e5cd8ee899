"""Running a command: its output session, the progress bar, signals, and the stream loop.

Results go to stdout (or ``-o FILE``, written all at once when done), diagnostics and the
progress bar to stderr (a terminal's; none when results go down a pipe, which may end on the
same terminal). Ctrl-C (and SIGTERM, SIGHUP) keeps the results finished so far and
exits 130, a closed pipe (``| head``) ends quietly, a library error is one line, exit 1.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
import time

from ..errors import MissingInput, SatdokuError, abridge
from ..io.inputs import Inputs, count_lines, is_file_input
from ..model.puzzle import Puzzle
from ..model.result import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from ..output.report import DOCUMENT_FORMATS, NoPicture, place
from ..tasks.base import Block, Outcome
from .parsing import UsageError, echo
from .signals import signals_held

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator, NoReturn

#: How much :class:`Session` holds before it writes: one write for many results, even where
#: stdout writes through at once (``PYTHONUNBUFFERED``, as many container images set: a
#: system call a puzzle took 15% of a 10,000-puzzle count). Each write holds Ctrl-C, SIGTERM
#: and SIGHUP back until it is done and counted (:func:`~satdoku.cli.signals.signals_held`):
#: stdout's buffer takes a long text in pieces, and an interruption between two (the pipe
#: full) once lost the rest of it, results cut mid-line.
_WHOLE_WRITE = io.DEFAULT_BUFFER_SIZE


class Progress:
    """A progress bar on stderr when it is a terminal; it never shares a line with results."""

    def __init__(self, total: int | None, label: str) -> None:
        self.terminal = sys.stderr.isatty()
        self.enabled = bool(total) and self.terminal
        self.total, self.label = total or 0, label
        self.done, self.shown, self.drawn_at = 0, False, 0.0
        self.start = time.monotonic()

    def stage(self, stage: str, done: int, total: int, note: str = "") -> None:
        """How far a long stage inside a puzzle has got (a :mod:`satdoku.progress` reporter:
        the cubes of ``--cube``), on the bar's line, at most every 0.1 s."""
        if not self.terminal:
            return
        now = time.monotonic()
        if now - self.drawn_at < 0.1 and done < total:
            return
        self.drawn_at = now
        elapsed = int(now - self.start)
        sys.stderr.write(f"\r\x1b[K{stage} {done:,}/{total:,}{', ' + note if note else ''} "
                         f"{elapsed // 3600:02d}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d}")
        sys.stderr.flush()
        self.shown = True

    def update(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.drawn_at < 0.1 and done < self.total:
            return
        self.drawn_at = now
        share = min(done / self.total, 1.0)
        width = 30
        bar = "#" * int(share * width) + "-" * (width - int(share * width))
        elapsed = int(now - self.start)
        sys.stderr.write(f"\r{self.label} [{bar}] {share:4.0%} "
                         f"{elapsed // 3600:02d}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d}")
        sys.stderr.flush()
        self.shown = True

    def begin(self) -> None:
        """Draw the bar at once when the run has several lines to go: a long first puzzle
        does not leave the terminal blank."""
        if self.total > 1:
            self.update(0)

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def need_a_folder(fmt: str) -> str:
    """Why several pictures (pages) need a folder (a usage error, exit 2)."""
    what = "page" if fmt == "html" else "picture"
    return (f"--format {fmt} makes one {what} per puzzle: with several puzzles give -o FOLDER/ "
            f"for a file each")


def picture_folder(output: str | None) -> str | None:
    """The folder ``output`` names for pictures (an existing folder, or a path ending in
    ``/``), or None (one picture to stdout or a file)."""
    if output in (None, "-"):
        return None
    return output if os.path.isdir(output) or output.endswith(os.sep) else None


#: Results that come within this many seconds of the one before are held (see Session).
_BURST = 0.005


class Session:
    """One command's output: results to ``output`` (see :class:`satdoku.io.files.Output`),
    diagnostics to stderr.

    Results are written at once on a terminal, and elsewhere when they come one by one (more
    than :data:`_BURST` after the one before: a puzzle that took the solver a while). A
    result that comes in a burst (a batch's puzzles, hundreds a millisecond) is held and
    written with the others (:meth:`flush`) once :data:`_WHOLE_WRITE` characters are held,
    0.1 s after the last write, when a slower one comes, before a diagnostic (which so keeps
    its place among them) and when the run ends, however it ends, save a broken pipe.
    """

    def __init__(self, output: str | None, force: bool, inputs: Iterable[str] = (),
                 progress: Progress | None = None, pictures: str | None = None) -> None:
        from ..io.files import Output
        # Pictures (--format svg) and pages (html) into a folder: one file each, named
        # NAME.svg or NAME.html (``pictures``, the format); the folder is made if needed.
        self.folder = picture_folder(output) if pictures else None
        self.kind = pictures
        if self.folder is not None:
            output = None
        self.pending: str | None = None  # the one picture, written when no other comes
        self.force, self.inputs, self.pictures = force, list(inputs), 0
        self.names: set[str] = set()  # the pictures this run wrote
        try:
            if self.folder is not None:
                os.makedirs(self.folder, exist_ok=True)
            self.out = Output(output, force=force, inputs=inputs)
        except OSError as error:
            raise UsageError(f"{self.folder}: cannot make the folder: "
                             f"{error.strerror}") from None
        except SatdokuError as error:
            raise UsageError(str(error)) from None
        self.progress = progress or Progress(None, "")
        if results_share_a_pipe(output):  # a reader of the pipe may draw on that terminal
            self.progress.terminal = False
        self.interactive = self.out.isatty()
        self.flushed = time.monotonic()
        self.held: list[tuple[str, int]] = []  # results not yet written, and how many
        self.nheld = 0
        self.last = -_BURST  # when the last result came
        self.code = EXIT_OK
        self.written = 0  # results finished and written (held ones are not, yet)
        self.wrote = False  # anything written (a result, or a part of one: a solution, a row)

    def write(self, text: str, count: int = 0) -> None:
        """Write ``text``, ``count`` results (none: a header, a part of one); they count as
        written once the text is (:meth:`flush`)."""
        if not text:
            self.written += count
            return
        self.held.append((text, count))  # one step: an interruption takes both or neither
        self.nheld += len(text)
        self.wrote = True
        now = time.monotonic()
        if self.interactive or self.nheld >= _WHOLE_WRITE or now - self.flushed > 0.1 or \
                now - self.last > _BURST:
            self.flush()
        self.last = now

    def flush(self) -> None:
        """Write the results held, as one write that Ctrl-C, SIGTERM and SIGHUP wait for
        (so a result is written whole, and once), and flush the output."""
        if self.held:
            if self.interactive:
                self.progress.clear()
            with signals_held():
                self.out.write("".join([text for text, _ in self.held]))
                self.written += sum([count for _, count in self.held])
                self.held.clear()
                self.nheld = 0
        self.out.flush()
        self.flushed = time.monotonic()

    def note(self, line: str) -> None:
        if self.held:
            self.flush()
        self.progress.clear()
        echo(line, err=True)

    def picture(self, name: str, svg: str) -> None:
        """One puzzle's picture (page): a file ``NAME.svg`` (``.html``) in the output folder,
        or the one picture of the output, written at the end (several need a folder: one
        document cannot hold them, and a second one is a usage error before anything is
        written)."""
        from ..io.files import Output
        if self.folder is None:
            if self.pictures:
                raise UsageError(need_a_folder(self.kind or "svg"))
            self.pending = svg
        else:
            unique, n = name, 1
            while unique in self.names:  # never over a picture of this run
                n += 1
                unique = f"{name}-{n}"
            self.names.add(unique)
            try:
                out = Output(os.path.join(self.folder, f"{unique}.{self.kind}"), force=self.force,
                             inputs=self.inputs)
            except SatdokuError as error:  # a picture of an earlier run: as -o FILE would
                raise UsageError(str(error)) from None
            out.write(svg)
            out.commit()
        self.pictures += 1

    def result(self, text: str, notes: Iterable[str], code: int, count: int = 1) -> None:
        """One finished result (or ``count`` of them): text, stderr lines, exit code."""
        self.write(text, count)
        for line in notes:
            self.note(line)
        self.code = max(self.code, code)

    def run(self, body: Callable[["Session"], Any]) -> None:
        """Run ``body(self)``, then commit the output and exit with the code it came to.

        Ctrl-C, SIGTERM and SIGHUP keep (and commit) the results finished so far and exit 130;
        a broken pipe on stdout ends quietly; a library error is one line on stderr.
        """
        from ..progress import reporting
        try:
            with reporting(self.progress.stage):
                body(self)
            self._write_pending()
            self.flush()
        except KeyboardInterrupt:
            self.progress.clear()
            with contextlib.suppress(KeyboardInterrupt), signals_held(answer=False):
                self._commit_quietly()  # a second signal meanwhile: the first is answered
            where = ""
            if self.out.path and self.written:
                where = f"; {self.written} in {self.out.path}"
            elif self.out.path and self.wrote:
                where = f" in {self.out.path}"
            elif self.written and self.folder is None:
                where = f"; {self.written} on stdout"
            echo(f"interrupted: the results finished so far were kept{where}", err=True)
            _leave(EXIT_INTERRUPTED)
        except BrokenPipeError:
            silence_stdout()
            self.out.discard()
            _leave(self.code)
        except SatdokuError as error:
            self.progress.clear()
            if self.out.path is None:  # the results before it stay, as a file's would not
                with contextlib.suppress(BrokenPipeError, SatdokuError):
                    self.flush()
            self.out.discard()
            if self.out.path is None:
                silence_stdout()  # stdout may be what failed
            echo(f"Error: {error}", err=True)
            sys.exit(max(self.code, EXIT_FAILED))
        except BaseException:
            self.progress.clear()
            if self.out.path is None:  # the results finished before it stay (a bug's, say)
                with contextlib.suppress(Exception):
                    self.flush()
            self.out.discard()
            raise
        self.progress.clear()
        try:
            self.out.commit()
        except BrokenPipeError:
            silence_stdout()
        except SatdokuError as error:
            if self.out.path is None:
                silence_stdout()
            echo(f"Error: {error}", err=True)
            sys.exit(EXIT_FAILED)
        sys.exit(self.code)

    def _write_pending(self) -> None:
        if self.pending is not None:
            self.write(self.pending)
            self.pending = None

    def _commit_quietly(self) -> None:
        try:
            self._write_pending()
            self.flush()
            self.out.commit()
        except (BrokenPipeError, SatdokuError):
            silence_stdout()


def silence_stdout() -> None:
    """After a broken pipe: nothing more can reach stdout, and the interpreter's last flush
    must not complain about it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def results_share_a_pipe(output: str | None) -> bool:
    """Whether results go to stdout through a pipe (``| head``, ``| less``): whatever reads it
    may show them on the terminal the progress bar is drawn on, mid-bar, so there is none."""
    if output not in (None, "-"):
        return False
    try:
        if sys.stdout.isatty():
            return False
        mode = os.fstat(sys.stdout.fileno()).st_mode
    except (OSError, ValueError, AttributeError):  # no file behind stdout (tests, embedding)
        return True
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _inputs_total(inputs: Iterable[str]) -> int | None:
    """Lines in the input files, for a progress bar (None when there are none to count)."""
    files = [a for a in inputs if a != "-" and is_file_input(a)]
    return count_lines(files) if files and sys.stderr.isatty() else None


class _LineProgress:
    """Advances a :class:`Progress` by the input line a puzzle came from."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.source, self.offset, self.done = None, 0, 0

    def update(self, puzzle) -> None:
        if not self.progress.enabled:
            return
        if puzzle.source != self.source:
            self.source, self.offset = puzzle.source, self.done
        self.done = max(self.done, self.offset + (puzzle.line or 0))
        self.progress.update(self.done)


def show(puzzles: Inputs, outcomes: Iterator[Outcome | Block], report, output: str | None,
         force: bool, label: str, code_of: Callable[[Outcome], int],
         summary: Callable[[list[Outcome]], str | None] | None = None) -> None:
    """The loop of every per-puzzle command: format the outcome of each of ``puzzles`` as it
    comes; its exit code (``code_of``) and, with several, a ``summary`` line on stderr."""
    documents = report.fmt in DOCUMENT_FORMATS
    if documents and picture_folder(output) is None and puzzles.ahead() == 2:
        raise UsageError(need_a_folder(report.fmt))
    progress = Progress(None if results_share_a_pipe(output) else _inputs_total(puzzles.args),
                        label)
    lines = _LineProgress(progress)
    kept: list[Outcome] = []

    def exit_of(outcome: Outcome) -> int:
        """The outcome's exit code; an argument that is no file and no puzzle is a usage
        error (exit 2), the other inputs answered all the same."""
        code = code_of(outcome)
        if isinstance(outcome.puzzle.error, MissingInput):
            code = max(code, EXIT_USAGE)
        return code

    def body(session: Session) -> None:
        # The outcomes are closed however the loop ends (a broken pipe, Ctrl-C, an error), so
        # that a process pool behind them stops its workers now: left to the interpreter's
        # exit, its threads were joined while the workers still worked (a hang).
        try:
            loop(session)
        except KeyboardInterrupt as stop:  # how far the puzzle it stopped had got
            puzzle, found = getattr(stop, "puzzle", None), getattr(stop, "found", None)
            if puzzle is not None and found is not None:
                session.note(f"{place(puzzle)}: interrupted while counting, "
                             f"{found:,} solution{'s' * (found != 1)} found so far")
            raise
        finally:
            close = getattr(outcomes, "close", None)  # a generator; a plain iterator has none
            if close is not None:
                close()

    def loop(session: Session) -> None:
        session.write(report.header())
        progress.begin()
        for number, outcome in enumerate(outcomes, 1):
            if isinstance(outcome, Block):  # a chunk a worker wrote out
                lines.update(outcome)
                session.result(outcome.text, outcome.notes, outcome.code, outcome.count)
                continue
            puzzle = outcome.puzzle
            lines.update(puzzle)
            if documents:
                if puzzle.grid is not None:
                    try:
                        svg = report.format(outcome)
                    except NoPicture as error:
                        session.result("", [f"{place(puzzle)}: {error}"], EXIT_FAILED)
                        continue
                    session.picture(report.picture_name(puzzle, number), svg)
                session.result("", report.diagnostics(outcome), exit_of(outcome))
            else:
                session.result(report.format(outcome), report.diagnostics(outcome),
                               exit_of(outcome))
            if summary is not None:
                kept.append(outcome)
        if summary is not None:
            text = summary(kept)
            if text:
                session.note(text)

    Session(output, force, puzzles.args, progress,
            pictures=report.fmt if documents else None).run(body)


#: Said on stderr when a command reads puzzles from a terminal (bare ``satdoku solve``).
READING_STDIN = "reading puzzles from stdin (Ctrl-D to end)"


def _leave(code: int) -> NoReturn:
    """Exit with ``code`` after an interruption or a broken pipe: at once when a process pool
    had to be stopped with its workers killed (:func:`satdoku.run.parallel.leave`; the module
    is looked up, not imported, so that a run without a pool does not pay for it)."""
    parallel = sys.modules.get("satdoku.run.parallel")
    if parallel is not None:
        parallel.leave(code)
    sys.exit(code)


def puzzles_of(inputs, reading) -> Inputs:
    """The puzzles of the command line's inputs, read as the puzzle options say
    (:class:`~satdoku.cli.options.Reading`); reading them from a terminal is said first, so
    that a bare command does not wait in silence."""
    if "-" in (list(inputs) or ["-"]) and sys.stdin.isatty():
        echo(READING_STDIN, err=True)
    return reading.inputs(inputs)


def one_puzzle(text: str, reading, index: int = 1) -> Puzzle:
    """The puzzle a command works on: inline, or the ``index``-th of a file; exit 1 if bad."""
    for i, puzzle in enumerate(puzzles_of([text], reading), start=1):
        if i == index:
            if puzzle.error is not None:
                fail(str(puzzle.error))
            return puzzle
    fail(f"{abridge(text)}: has no puzzle number {index}")


def fail(message: str, code: int = EXIT_FAILED) -> NoReturn:
    echo(f"Error: {message}", err=True)
    sys.exit(code)


@contextlib.contextmanager
def usage():
    """Library errors in the block are usage errors (exit 2): a bad combination of options."""
    try:
        yield
    except SatdokuError as error:
        raise UsageError(str(error)) from None
