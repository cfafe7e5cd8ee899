"""The signals that end a run are held off the steps of a write that must not be cut in two,
also when another thread (a process pool's) is the one the signal reaches."""

import os
import signal
import threading
import time

import pytest

from satdoku.cli.signals import Interrupted, install_signals, signals_held


@pytest.fixture
def handlers():
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    for sig, handler in before.items():
        signal.signal(sig, handler)


def _send_when(go, sig):
    go.wait()
    os.kill(os.getpid(), sig)
    time.sleep(0.3)  # alive, so that the signal is this thread's to take


@pytest.mark.parametrize("sig, raised", [(signal.SIGTERM, Interrupted),
                                         (signal.SIGINT, KeyboardInterrupt)])
def test_a_signal_in_a_held_block_takes_effect_after_it(sig, raised, handlers):
    install_signals()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    steps = []
    # Sent by a thread started before the block, which does not block it and so takes it (as
    # a process pool's threads do): the main thread still finishes the block first.
    go = threading.Event()
    sender = threading.Thread(target=_send_when, args=(go, sig))
    sender.start()
    with pytest.raises(raised):
        with signals_held():
            go.set()
            time.sleep(0.1)
            steps.append("written")
            steps.append("counted")
    sender.join()
    assert steps == ["written", "counted"]
    # and afterwards the handlers are what they were
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_held_block_without_a_signal_changes_nothing(handlers):
    install_signals()
    term = signal.getsignal(signal.SIGTERM)
    with signals_held():
        pass
    assert signal.getsignal(signal.SIGTERM) is term


def test_a_second_signal_while_the_first_is_answered_keeps_the_output_file(tmp_path, handlers,
                                                                           capsys, monkeypatch):
    # Ctrl-C, and another while the results held are written and the file committed: the
    # file is still published whole, as the message says
    import sys
    from satdoku.cli.session import Session
    # (a process pool stopped by an earlier test of this process would make it os._exit)
    monkeypatch.setattr("satdoku.cli.session._leave", sys.exit)
    install_signals()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    out = tmp_path / "out.txt"
    session = Session(str(out), True)
    write = session.out.write
    first = []

    def write_and_signal(text):
        write(text)
        if first == [True]:  # the write of what was held, after the first Ctrl-C
            first.append(True)
            os.kill(os.getpid(), signal.SIGINT)

    def body(s):
        for k in range(5):
            s.result(f"r{k}\n", (), 0)
        first.append(True)
        raise KeyboardInterrupt

    session.out.write = write_and_signal
    with pytest.raises(SystemExit) as stop:
        session.run(body)
    assert stop.value.code == 130
    assert out.read_text() == "".join(f"r{k}\n" for k in range(5))
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    assert capsys.readouterr().err.endswith(f"kept; 5 in {out}\n")


def test_an_unexpected_error_still_writes_the_results_held_before_it(capsys):
    from satdoku.cli.session import Session

    def body(s):
        for k in range(5):
            s.result(f"r{k}\n", (), 0)
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError):
        Session(None, False).run(body)
    assert capsys.readouterr().out == "".join(f"r{k}\n" for k in range(5))
