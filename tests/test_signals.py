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
