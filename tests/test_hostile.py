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

from conftest import (PUZZLES, SAMPLE, SHARED, SMALL, SMALL_SOLUTION, last_word, needs_shared,
                      run_cli, wait_for_cpu)

TIME_LIMIT = 30  # seconds any single case may take, a generous bound on a loaded machine


def satdoku(*args, stdin=None, input=None, preexec_fn=None, timeout=TIME_LIMIT, **kw):
    """Run ``python -m satdoku ARGS``; (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "satdoku", *map(str, args)], input=input,
                          stdin=stdin, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=preexec_fn, **kw)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def in_process(*args, input=None):
    """``satdoku ARGS`` in this process, where the process itself is not what is tested;
    (exit code, stdout, stderr)."""
    result = run_cli(*args, input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


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
    code, _, err = in_process(command[0], path, *command[1:], "-o", path, "--force")
    assert code == 2 and err.splitlines()[-1] == \
        f"Error: {path} is an input of this run; choose another output"
    assert path.read_text() == SMALL + "\n"


def test_stdin_is_an_input_too(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(SMALL + "\n")
    for args in (("-o", path, "--force"), ("-", "-o", "/dev/stdin", "--force")):
        with open(path) as stdin:
            code, out, err = satdoku("solve", *args, stdin=stdin)
        assert code == 2 and out == "", args
        assert err.splitlines()[-1].endswith("is an input of this run; choose another output")
    assert path.read_text() == SMALL + "\n" and os.listdir(tmp_path) == ["p.txt"]


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
    zeros = subprocess.Popen(["sh", "-c", f"head -c {20 << 20} /dev/zero | tr '\\0' '.'"],
                             stdout=subprocess.PIPE)
    started = time.monotonic()
    code, out, err = satdoku("solve", stdin=zeros.stdout)
    zeros.stdout.close()  # so that head, left writing, gets its broken pipe
    zeros.wait()
    assert code == 1 and out == "<stdin>:1: invalid\n\n"
    assert one_line(err) == ("<stdin>:1: line 1 is longer than 8 MiB: not a puzzle; reading "
                             "stops")
    assert time.monotonic() - started < TIME_LIMIT and peak_child_mb() < 500


def test_a_stray_nul_is_a_bad_line_not_a_binary_file(tmp_path):
    # A NUL at line 201 of a small puzzles' file fell inside the sniffed first 4 KB: the whole
    # file was "binary data" and its 200 good puzzles were lost.
    text = tmp_path / "nul.txt"
    text.write_text(f"{SMALL}\n" * 200 + "\x00\n" + f"{SMALL}\n")
    code, out, err = satdoku("solve", text, "--format", "line")
    assert code == 1 and out.splitlines() == [SMALL_SOLUTION] * 200 + ["invalid", SMALL_SOLUTION]
    assert one_line(err).startswith(f"{text}:201: ")


def test_binary_data_is_one_error_and_the_next_input_is_read(tmp_path):
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 12)
    code, out, err = satdoku("solve", noise, SMALL, "--format", "line")
    assert code == 1 and out.splitlines() == ["invalid", SMALL_SOLUTION]
    assert one_line(err) == f"{noise}:1: binary data, not text: not a puzzle file; reading stops"


def test_a_grid_too_big_for_memory_is_refused_at_once(tmp_path):
    empty = tmp_path / "empty400.txt"
    empty.write_text(" ".join(["0"] * 400 * 400) + "\n")
    # solve and encode in a process of their own (its memory is measured), the others here
    for command, run in (("solve", satdoku), ("encode", satdoku), ("count", in_process),
                         ("explain", in_process), ("rate", in_process)):
        started = time.monotonic()
        code, _, err = run(command, empty)
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
    code, _, err = in_process("solve", SMALL, "--timeout", value)
    assert code == 2 and "Invalid value for '--timeout'" in err.splitlines()[-1]


def test_a_tiny_time_limit_times_out_on_every_solver():
    for solver in ("sat", "native"):
        code, out, err = satdoku("solve", SAMPLE, "--timeout", "1e-9", "--format", "line",
                                 "--solver", solver)
        assert (code, out) == (1, "timeout\n"), solver
        assert one_line(err) == "<arg>:1: time limit of 1e-09 s reached"


# It must clean up.

@pytest.mark.parametrize("sig", [  # SIGINT: test_cli's Ctrl-C cases; SIGHUP: SIGTERM's handler
    signal.SIGTERM, pytest.param(signal.SIGHUP, marks=pytest.mark.slow),
    pytest.param(signal.SIGINT, marks=pytest.mark.slow)])
def test_a_signal_keeps_the_results_and_leaves_no_temporary_file(tmp_path, sig):
    out = tmp_path / "out.txt"
    # SIGINT as at a terminal: a background job (``pytest &``) starts its children with it
    # ignored, and an ignored SIGINT stays ignored (test_an_ignored_interrupt_stays_ignored).
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "count", SMALL, "." * 256,
                             "--limit", "1000000000", "--format", "line", "-o", out],
                            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
    try:
        wait_for_cpu(proc, 1.0)  # the 4x4 is done (~0.3 s of CPU) and the 16x16 under way
        proc.send_signal(sig)
        err = proc.communicate(timeout=TIME_LIMIT)[1]
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert last_word(err) == f"interrupted: the results finished so far were kept; 1 in {out}"
    assert out.read_text() == SMALL_SOLUTION + "\n" and os.listdir(tmp_path) == ["out.txt"]


def test_a_killed_run_leaves_a_temporary_the_next_run_removes(tmp_path):
    out = tmp_path / "out.txt"
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "count", "." * 256,
                             "--limit", "1000000000", "-o", out])
    temporary = tmp_path / f".out.txt.satdoku-{proc.pid}.tmp"  # made before the counting
    started = time.monotonic()
    while not temporary.exists():
        assert proc.poll() is None and time.monotonic() - started < TIME_LIMIT
        time.sleep(0.02)
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


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


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
                             "--limit", "5000", "--format", "line"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    wait_for_cpu(proc, 0.6)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=TIME_LIMIT)
    assert proc.returncode == 0 and err == ""
    assert out.splitlines() == [SMALL_SOLUTION, "multiple (at least 5,000)"]


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
    assert code == 2 and out.splitlines() == ["invalid"] * 4 + [SMALL_SOLUTION]
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
    ("\x00" * 5000, " binary data, not text: not a model"),
    ("junk \x01\n", "1: expected 's SATISFIABLE' or 'SAT', found 'junk \\x01'"),
])
def test_decode_reads_models_strictly(model, message):
    code, out, err = in_process("decode", "-", "--puzzle", SMALL, input=model)
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
        wait_for_cpu(proc, 1.5)  # past start-up and into the solve, however loaded the machine
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=TIME_LIMIT)
    finally:
        proc.kill()
    # the solve alone takes minutes: 5 s is "at once" even on a loaded machine
    assert proc.returncode == 130 and time.monotonic() - sent < 5.0
    assert last_word(err) == "interrupted: the results finished so far were kept"


# The variant corpus: satdoku JSON and f-puzzles (JSON, lz-strings, links) as a hostile or
# careless writer makes them. Every field of two small valid puzzles is replaced in turn by
# each value of the wrong kind, beside the cases the issues named (nesting, huge and negative
# numbers, zero-cell and 1,000-cell cages, lines through a cell twice, truncated lz-strings,
# random base64). All of them go through one batch file a command, so that the batch going on
# is part of what is checked; 10 MB lines, which end reading, get files of their own.

VARIANT_BASE = {
    "size": 4, "box": "2x2", "name": "base", "givens": {"r1c1": 1}, "constraints": [
        {"type": "killer", "cells": ["r1c2", "r1c3"], "sum": 5},
        {"type": "thermometer", "cells": ["r2c1", "r2c2"]},
        {"type": "arrow", "circle": ["r4c4"], "cells": ["r3c4", "r2c4"]},
        {"type": "kropki-white", "cells": ["r3c1", "r3c2"]},
        {"type": "diagonal", "direction": "+"},
        {"type": "sandwich", "line": "r2", "sum": 0},
        {"type": "german-whispers", "cells": ["r4c2", "r4c3"], "difference": 2}]}
FPUZZLES_BASE = {
    "size": 4, "title": "base", "grid": [[{"value": 1, "given": True}, {}, {}, {}]]
    + [[{}, {}, {}, {}] for _ in range(3)],
    "killercage": [{"cells": ["R1C2", "R1C3"], "value": "5"}],
    "thermometer": [{"lines": [["R2C1", "R2C2"]]}],
    "arrow": [{"cells": ["R4C4"], "lines": [["R4C4", "R3C4", "R2C4"]]}],
    "difference": [{"cells": ["R3C1", "R3C2"]}], "diagonal+": True,
    "sandwichsum": [{"cell": "R2C0", "value": "0"}],
    "whispers": [{"lines": [["R4C2", "R4C3"]]}]}
#: Values of the wrong kind for any field.
WRONG = [None, True, -1, 0, 2.5, 10 ** 30, float("inf"), "x", "", [], {}, [[]], ["r9c9"]]


def _fields(value, path=()):
    """Every place in a JSON value: (path, value), the root included."""
    yield path, value
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from _fields(inner, path + (key,))


def _with(doc, path, value):
    import copy
    out = copy.deepcopy(doc)
    if not path:
        return value
    place = out
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return out


def _named_cases():
    """(name, line) of the cases the issues named."""
    import base64
    import json
    import random
    from satdoku.io.lzstring import compress_to_base64
    fp = json.dumps(FPUZZLES_BASE)
    packed = compress_to_base64(fp)
    deep = "[" * 3000 + "]" * 3000
    nines = "9" * 5000
    cells9 = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)]
    rng = random.Random(24)
    killer = {"type": "killer", "cells": ["r1c1", "r1c2"], "sum": 3}
    return [
        ("deep satdoku JSON", '{"size": 9, "grid": ' + deep + "}"),
        ("deep givens", '{"size": 4, "givens": ' + deep + "}"),
        ("deep f-puzzles JSON", '{"size": 4, "grid": [[' + deep + "]]}"),
        ("deep in an lz-string", compress_to_base64('{"size": 4, "grid": ' + deep + "}")),
        ("a 5,000-digit sum", '{"size": 4, "constraints": [{"type": "killer", "cells": '
                              '["r1c1", "r1c2"], "sum": ' + nines + "}]}"),
        ("a 4,000-digit sum", '{"size": 4, "constraints": [{"type": "killer", "cells": '
                              '["r1c1", "r1c2"], "sum": ' + "9" * 4000 + "}]}"),
        ("a 5,000-digit cage value", compress_to_base64(fp.replace('"value": "5"',
                                                                   f'"value": "{nines}"'))),
        ("a 5,000-digit cage number", fp.replace('"value": "5"', f'"value": {nines}')),
        ("a negative size", '{"size": -4}'),
        ("a negative sum", json.dumps({"size": 4, "constraints": [dict(killer, sum=-3)]})),
        ("a negative cage value", fp.replace('"value": "5"', '"value": "-5"')),
        ("NaN and infinity", '{"size": 4, "constraints": [{"type": "killer", "cells": '
                             '["r1c1", "r1c2"], "sum": NaN}, {"type": "xv", "cells": '
                             '["r2c1", "r2c2"], "sum": Infinity}]}'),
        ("a zero-cell cage", json.dumps({"size": 4, "constraints": [dict(killer, cells=[])]})),
        ("a zero-cell f-puzzles cage", fp.replace('["R1C2", "R1C3"]', "[]")),
        ("a 1,000-cell cage", json.dumps({"size": 9, "constraints": [
            {"type": "killer", "cells": [cells9[i % 81] for i in range(1000)]}]})),
        ("a 1,000-cell f-puzzles cage", fp.replace('["R1C2", "R1C3"]', json.dumps(
            [f"R{1 + i % 4}C{1 + i // 4 % 4}" for i in range(1000)]))),
        ("a thermometer through a cell twice", json.dumps({"size": 4, "constraints": [
            {"type": "thermometer", "cells": ["r1c1", "r1c2", "r1c1"]}]})),
        ("whispers through a cell twice", json.dumps({"size": 4, "constraints": [
            {"type": "german-whispers", "cells": ["r1c1", "r1c2", "r2c2", "r1c2"]}]})),
        ("an f-puzzles line through a cell twice", fp.replace(
            '[["R2C1", "R2C2"]]', '[["R2C1", "R2C2", "R2C1"]]')),
        ("a truncated lz-string", packed[:len(packed) // 2]),
        ("a truncated f-puzzles link", "https://www.f-puzzles.com/?load=" + packed[:40]),
        ("random base64", base64.b64encode(rng.randbytes(3000)).decode()),
        ("random base64 link", "https://f-puzzles.com/?load=N4Ig"
                               + base64.b64encode(rng.randbytes(300)).decode()),
        ("not JSON at all", '{"size": 4,,}'),
        ("a JSON list", "[1, 2, 3]"),
    ]


def _field_cases():
    """(name, line) of every field of the two small puzzles replaced by each wrong value."""
    import json
    out = []
    for label, base in (("satdoku", VARIANT_BASE), ("f-puzzles", FPUZZLES_BASE)):
        for path, _ in _fields(base):
            if not path:
                continue
            for wrong in WRONG:
                out.append((f"{label} {'/'.join(map(str, path))} = {wrong!r}",
                            json.dumps(_with(base, path, wrong))))
    return out


@pytest.fixture(scope="module")
def variant_corpus(tmp_path_factory):
    """The corpus as one batch file (a good puzzle last) and the 10 MB lines as files of
    their own: (folder, batch path, case names by line, the 10 MB files)."""
    import json
    folder = tmp_path_factory.mktemp("corpus")
    cases = _named_cases() + _field_cases() + [("the good puzzle", json.dumps(VARIANT_BASE))]
    batch = folder / "corpus.jsonl"
    batch.write_text("".join(line + "\n" for _, line in cases))
    cells = [f"r{1 + i // 36}c{1 + i % 36}" for i in range(1000)]
    big = {"cage36.jsonl": json.dumps({"size": 36, "constraints": [  # 1,000 cells, no sum
               {"type": "killer", "cells": cells}]}),
           "tenmb-json.jsonl": '{"size": 4, "name": "' + "x" * (10 << 20) + '"}',
           "tenmb-lz.txt": "N4Ig" + "A" * (10 << 20),
           "tenmb-deep.jsonl": "[" * (10 << 20)}
    for name, line in big.items():
        (folder / name).write_text(line + "\n")
    return folder, batch, {no: name for no, (name, _) in enumerate(cases, 1)}, sorted(big)


def test_the_variant_corpus_is_read_one_line_a_case(variant_corpus):
    import json
    folder, batch, names, big = variant_corpus
    before = sorted(os.listdir(folder))
    out = folder / "out.jsonl"
    started = time.monotonic()
    # The 1,000-cell cage takes ~2.5 s of CPU: a time limit of 5 s timed it out at load 10.
    code, _, err = satdoku("solve", batch, *[folder / b for b in big], SMALL, "--format",
                           "json", "--timeout", "30", "-o", out, timeout=120)
    elapsed = time.monotonic() - started
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(os.listdir(folder)) == sorted(before + ["out.jsonl"])
    assert code == 1 and elapsed < 100 and peak_child_mb() < 1000
    # One result a case, in order, then one for each 10 MB file, then the inline puzzle.
    assert [r["line"] for r in records[:len(names)]] == list(names)
    assert records[-1]["status"] == "solved" and records[-1]["source"] == "<arg>"
    assert records[len(names) - 1]["status"] == "unique" or \
        records[len(names) - 1]["status"] == "solved"
    assert not [r for r in records if r["status"] == "error"]
    assert all(r["time_ms"] < 31_000 for r in records)  # each within its time limit
    lines = err.splitlines()
    for record in records[:len(names)]:
        said = [x for x in lines if x.startswith(f"{batch}:{record['line']}: ")]
        assert len(said) <= 1, (names[record["line"]], said)  # one line, or none
        answered = record["status"] in ("solved", "unique")
        assert answered == (not said or "warning: " in said[0]), (names[record["line"]], said)
    cage36, *tenmb = records[len(names):-1]
    assert cage36["status"] == "unsolvable"  # more cells than digits cannot all differ
    for name, record in zip(big[1:], tenmb):
        assert record["status"] == "invalid"
        said, = [x for x in lines if x.startswith(f"{folder / name}:")]
        assert "is longer than 8 MiB" in said or "nested too deeply" in said, said
    invalid = sum(r["status"] == "invalid" for r in records[:len(names)])
    print(f"corpus: {len(names)} cases, {invalid} invalid, "
          f"{len(names) - invalid} answered, {elapsed:.1f} s, {peak_child_mb():.0f} MB")


def _named_batch(folder):
    """The named cases and the good puzzle last, as one batch file."""
    import json
    batch = folder / "named.jsonl"
    batch.write_text("".join(line + "\n" for _, line in _named_cases())
                     + json.dumps(VARIANT_BASE) + "\n")
    return batch


@pytest.mark.slow  # the corpus in two workers: the one-job run above, larger
def test_the_variant_corpus_in_parallel(variant_corpus, tmp_path):
    folder, batch, names, _ = variant_corpus
    code, out, err = satdoku("count", "--jobs", "2", batch, SMALL, "--format", "line",
                             "--timeout", "5", timeout=120)
    assert code == 1 and len(out.splitlines()) == len(names) + 1
    assert out.splitlines()[-1] == SMALL_SOLUTION
    named = _named_batch(tmp_path)
    code, out, err = satdoku("count", "--portfolio", "--jobs", "2", named, SMALL, "--format",
                             "line", "--timeout", "5", timeout=120)
    assert code == 1 and len(out.splitlines()) == len(_named_cases()) + 2
    assert out.splitlines()[-2:] == ["1234341243212143", SMALL_SOLUTION]
    assert sorted(os.listdir(tmp_path)) == ["named.jsonl"]


#: What each command says of the good puzzle at the end of the named batch.
GOOD_ANSWER = {"explain": "unique: by SAT", "candidates": "r1c2=2 r1c3=3 r1c4=4",
               "rate": "2.3 hard", "bench": "named.jsonl,4,native,,1,26,2,3,0,0,21,0,0,"}
# (bench: 2 solved, 3 unsolvable: the 4x4 whispers through a cell twice is solvable now that a
# whispers line's difference defaults to half the digits, 2 on 4x4, not 5)


@pytest.mark.parametrize("command", sorted(GOOD_ANSWER))
def test_the_named_cases_through_every_command(tmp_path, command):
    # In-process (signals and memory are not the point here): each named case is one line of
    # error or an answer, and the batch goes on to the good puzzle.
    batch = _named_batch(tmp_path)
    if command == "bench":
        result = run_cli("bench", batch, "--format", "csv")
        assert result.exit_code == 0 and GOOD_ANSWER[command] in result.stdout
    else:
        result = run_cli(command, batch, "--format", "line", "--timeout", "5")
        assert result.exit_code == 1 and not isinstance(result.exception, Exception) or \
            isinstance(result.exception, SystemExit), result.exception
        assert result.stdout.splitlines()[-1].startswith(GOOD_ANSWER[command])
        lines = result.stderr.splitlines()
        for number in range(1, len(_named_cases()) + 1):
            assert len([x for x in lines if x.startswith(f"{batch}:{number}: ")]) <= 1
    assert "Traceback" not in result.output
    assert sorted(os.listdir(tmp_path)) == ["named.jsonl"]


@pytest.mark.parametrize("index", [1, 5, 7, 20, 22])
def test_encode_refuses_hostile_cases_in_one_line(tmp_path, index):
    from conftest import run_cli
    batch = tmp_path / "named.jsonl"
    batch.write_text("".join(line + "\n" for _, line in _named_cases()))
    result = run_cli("encode", batch, "--index", index)
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stdout == ""
