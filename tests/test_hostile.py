"""A corpus of hostile and unusual inputs, run against the real command as a user would.

Each case asserts the exit code, a one-line message (no traceback), bounded time and memory,
and that nothing but the named output was touched. Large inputs are made at test time.
"""

import os
import resource
import signal
import stat
import subprocess
import sys
import threading
import time

import pytest

from conftest import PUZZLES, SAMPLE, SHARED, SMALL, SMALL_SOLUTION, needs_shared

TIME_LIMIT = 30  # seconds any single case may take, a generous bound on a loaded machine


def satdoku(*args, stdin=None, input=None, preexec_fn=None, timeout=TIME_LIMIT, **kw):
    """Run ``python -m satdoku ARGS``; (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "satdoku", *map(str, args)], input=input,
                          stdin=stdin, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=preexec_fn, **kw)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def one_line(err):
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def peak_child_mb():
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


# It must never damage anything.

@pytest.mark.skipif(os.geteuid() != 0, reason="replacing /dev/null needs root")
def test_a_device_is_written_into_not_replaced():
    before = os.stat("/dev/null")
    code, out, err = satdoku("solve", SMALL, "--format", "line", "-o", "/dev/null", "--force")
    after = os.stat("/dev/null")
    assert code == 0 and err == ""
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_dev_stdout_is_followed_not_replaced():
    link = os.readlink("/dev/stdout") if os.path.islink("/dev/stdout") else None
    code, out, _ = satdoku("solve", SMALL, "--format", "line", "-o", "/dev/stdout", "--force")
    assert code == 0 and out == SMALL_SOLUTION + "\n"
    if link is not None:
        assert os.readlink("/dev/stdout") == link


def test_a_fifo_output_is_written_in_place(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    code, _, err = satdoku("solve", SMALL, "--format", "line", "-o", fifo)
    reader.join(TIME_LIMIT)
    assert code == 0 and got == [SMALL_SOLUTION + "\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and os.listdir(tmp_path) == ["out.fifo"]


@pytest.mark.parametrize("command", [
    ("solve", "--format", "line"), ("count",), ("explain",), ("rate",), ("encode",)])
def test_an_input_is_never_its_own_output(tmp_path, command):
    path = tmp_path / "in.txt"
    path.write_text(SMALL + "\n")
    code, _, err = satdoku(command[0], path, *command[1:], "-o", path, "--force")
    assert code == 2 and err.splitlines()[-1] == \
        f"Error: {path} is an input of this run; choose another output"
    assert path.read_text() == SMALL + "\n"


def test_names_cannot_drive_the_terminal_or_a_spreadsheet(tmp_path):
    path = tmp_path / "evil.txt"
    path.write_text(f"{SMALL}  # \x1b]0;owned\x07\x1b[2J=HYPERLINK(\"http://x\")\n")
    for fmt in ("pretty", "line", "csv"):
        code, out, err = satdoku("solve", path, "--format", fmt, "--stats")
        assert code == 0 and "\x1b" not in out + err and "\x07" not in out + err
    _, out, _ = satdoku("solve", path, "--format", "csv")
    assert ",\"'=HYPERLINK" not in out and "\\x1b" in out


# It must not run away.

def test_an_endless_line_is_a_located_error():
    zeros = subprocess.Popen(["head", "-c", str(20 << 20), "/dev/zero"], stdout=subprocess.PIPE)
    started = time.monotonic()
    code, out, err = satdoku("solve", stdin=zeros.stdout)
    zeros.stdout.close()  # so that head, left writing, gets its broken pipe
    zeros.wait()
    assert code == 1 and out == "<stdin>:1: invalid\n\n"
    assert one_line(err) == ("<stdin>:1: line 1 is longer than 8 MiB: not a puzzle; reading "
                             "stops")
    assert time.monotonic() - started < TIME_LIMIT and peak_child_mb() < 500


def test_a_grid_too_big_for_memory_is_refused_at_once(tmp_path):
    empty = tmp_path / "empty400.txt"
    empty.write_text(" ".join(["0"] * 400 * 400) + "\n")
    for command in ("solve", "count", "explain", "rate", "encode"):
        started = time.monotonic()
        code, _, err = satdoku(command, empty)
        assert code == 1, command
        assert "needs at least 256,000,000 clauses, over the limit of 10,000,000 (raise it " \
               "with --max-clauses)" in one_line(err), command
        assert time.monotonic() - started < TIME_LIMIT
    assert peak_child_mb() < 1000


@pytest.mark.parametrize("jobs", ["9" * 30, "100"])
def test_jobs_are_capped(jobs):
    code, out, err = satdoku("solve", SMALL, "--format", "line", "--jobs", jobs)
    cores = os.cpu_count()
    assert code == 0 and out == SMALL_SOLUTION + "\n"
    assert f"this machine has {cores} cores; using {cores}" in one_line(err)


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "1e400", "x"])
def test_time_limits_must_be_finite_and_positive(value):
    code, _, err = satdoku("solve", SMALL, "--timeout", value)
    assert code == 2 and "Invalid value for '--timeout'" in err.splitlines()[-1]


def test_a_tiny_time_limit_times_out_on_every_solver():
    for solver in ("sat", "native"):
        code, out, err = satdoku("solve", SAMPLE, "--timeout", "1e-9", "--format", "line",
                                 "--solver", solver)
        assert (code, out) == (1, "timeout\n"), solver
        assert one_line(err) == "<arg>:1: time limit of 1e-09 s reached"


# It must clean up.

@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_keeps_the_results_and_leaves_no_temporary_file(tmp_path, sig):
    out = tmp_path / "out.txt"
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "count", SMALL, "." * 256,
                             "--limit", "1000000000", "--format", "line", "-o", out],
                            stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.5)
        proc.send_signal(sig)
        err = proc.communicate(timeout=TIME_LIMIT)[1]
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert one_line(err) == f"interrupted: the results finished so far were kept; 1 in {out}"
    assert out.read_text() == SMALL_SOLUTION + "\n" and os.listdir(tmp_path) == ["out.txt"]


def test_a_killed_run_leaves_a_temporary_the_next_run_removes(tmp_path):
    out = tmp_path / "out.txt"
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "count", "." * 256,
                             "--limit", "1000000000", "-o", out])
    time.sleep(1.5)
    proc.kill()
    proc.wait()
    left = os.listdir(tmp_path)
    assert left == [f".out.txt.satdoku-{proc.pid}.tmp"]  # named to be found again
    code, _, _ = satdoku("solve", SMALL, "--format", "line", "-o", out)
    assert code == 0 and os.listdir(tmp_path) == ["out.txt"]


def test_workers_die_with_their_parent():
    many = PUZZLES / "9x9.txt"
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "count", "--jobs", "2",
                             "--limit", "1000000000", *[str(many)] * 2, "." * 256, "." * 256],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    for _ in range(50):
        time.sleep(0.2)
        workers = _children(proc.pid)
        if len(workers) >= 1:
            break
    assert workers, "no worker started"
    proc.kill()
    proc.wait()
    for _ in range(50):
        alive = [pid for pid in workers if _running(pid)]
        if not alive:
            break
        time.sleep(0.2)
    assert not alive


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fp:
            return [int(x) for x in fp.read().split()]
    except OSError:
        return []


def _running(pid):
    try:
        with open(f"/proc/{pid}/stat") as fp:
            return fp.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def test_an_ignored_interrupt_stays_ignored():
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "count", SMALL, "." * 16 * 16,
                             "--limit", "3000", "--format", "line"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=TIME_LIMIT)
    assert proc.returncode == 0 and err == ""
    assert out.splitlines() == [SMALL_SOLUTION, "multiple (at least 3,000)"]


@pytest.mark.parametrize("target, message", [
    ("nodir/out.txt", "nodir/out.txt: folder nodir does not exist"),
    ("", "the output path is empty"),
    ("/proc/satdoku.txt", "/proc/satdoku.txt: cannot write: "),
])
def test_output_errors_are_one_line(tmp_path, target, message):
    code, _, err = satdoku("solve", SMALL, "-o", target, cwd=tmp_path)
    assert code == 2 and message in err.splitlines()[-1]
    assert os.listdir(tmp_path) == []


def test_a_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "satdoku", "solve",
                               str(PUZZLES / "9x9.txt")], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=TIME_LIMIT)
    assert proc.returncode == 1 and one_line(proc.stderr) == \
        "Error: standard output: cannot write: No space left on device"
    code, _, err = satdoku("solve", PUZZLES / "9x9.txt", "-o", "/dev/full")
    assert code == 1 and one_line(err) == "Error: /dev/full: cannot write: No space left on device"


# It must read what it is given.

def test_fifos_devices_and_process_substitution_are_streams(tmp_path):
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(SMALL + "\n"))
    writer.start()
    code, out, _ = satdoku("solve", fifo, "--format", "line")
    writer.join(TIME_LIMIT)
    assert (code, out) == (0, SMALL_SOLUTION + "\n")
    read, write = os.pipe()
    os.write(write, (SMALL + "\n").encode())
    os.close(write)
    code, out, _ = satdoku("solve", f"/dev/fd/{read}", "--format", "line", pass_fds=(read,))
    os.close(read)
    assert (code, out) == (0, SMALL_SOLUTION + "\n")
    code, out, _ = satdoku("solve", "/dev/stdin", "--format", "line", input=SMALL + "\n")
    assert (code, out) == (0, SMALL_SOLUTION + "\n")
    code, _, err = satdoku("solve", "/dev/null")
    assert code == 1 and one_line(err) == "/dev/null: no puzzles found"


def test_names_that_cannot_be_puzzles_are_missing_files(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    code, out, err = satdoku("solve", "mypuzzles", "puzzles.txt", "dir/x", "a", SMALL,
                             "--format", "line", cwd=tmp_path)
    assert code == 1 and out.splitlines() == ["invalid"] * 4 + [SMALL_SOLUTION]
    assert err.splitlines() == [
        "mypuzzles: no such file (and not a puzzle either)",
        "puzzles.txt: no such file (and not a puzzle either)",
        "dir/x: no such file (and not a puzzle either)",
        "a: cannot read: Too many levels of symbolic links"]


@pytest.mark.parametrize("model, message", [
    ("s SATISFIABLE\nv 1 -1 0\n", "2: variable 1 is set both true and false"),
    ("s SATISFIABLE\nv 1 99999 0\n", "2: literal 99999 is beyond the formula's 64 variables"),
    ("s SATISFIABLE\nv -0 0\n", "2: '-0' is not a literal"),
    ("s SATISFIABLE\nv " + "7" * 4301 + " 0\n", "2: '7777777777777777777777777777777777777777'"
                                                " is not a literal"),
    ("\x00" * 5000, "1: expected 's SATISFIABLE' or 'SAT', found"),
])
def test_decode_reads_models_strictly(model, message):
    code, out, err = satdoku("decode", "-", "--puzzle", SMALL, input=model)
    assert code == 1 and out == ""
    assert one_line(err).startswith(f"Error: <stdin>:{message}")


@needs_shared
def test_sigterm_reaches_a_long_solve_without_a_time_limit():
    # A minimal 25x25 puzzle keeps CaDiCaL busy for seconds: without --timeout it still solves
    # in slices, so SIGTERM is acted on at once rather than when the solve ends.
    frisch = SHARED / "25x25" / "gecode_frisch_25x25.txt"
    hard = next(line for line in frisch.read_text().splitlines()
                if line and not line.startswith("#")).split()[0]
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "solve", "--unique", hard],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2.0)
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=TIME_LIMIT)
    finally:
        proc.kill()
    assert proc.returncode == 130 and time.monotonic() - sent < 2.0
    assert one_line(err) == "interrupted: the results finished so far were kept"
