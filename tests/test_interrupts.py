"""Ctrl-C and TERM land as a KeyboardInterrupt the code can take, even while kernels that return
arrays and named tuples of arrays run back to back (numba's boxing of their results does not
check for an exception raised inside it: a SystemError or a segfault)."""

import signal
import subprocess
import sys
import textwrap

import pytest

from wordtree import interrupts

LOOP = textwrap.dedent("""
    import os, signal, sys, threading, time
    from collections import namedtuple
    import numpy as np, numba
    from wordtree import interrupts

    Pair = namedtuple("Pair", "a b")

    @numba.njit(nogil=True)
    def named(x):
        return x[:], Pair(np.empty(x.size, np.int64), np.empty(x.size, np.int64))

    @numba.njit(nogil=True)
    def plain(x):
        return x[:], (np.empty(x.size, np.int64), np.empty(x.size, np.int64))

    kernel = named if sys.argv[1] == "named" else plain
    x = np.arange(100)
    kernel(x)  # compiled before the signals
    interrupts.install()
    sig = getattr(signal, sys.argv[2])
    tracer = sys.gettrace()
    caught = 0
    for round in range(int(sys.argv[3])):
        threading.Timer(0.05, os.kill, (os.getpid(), sig)).start()
        try:
            while True:
                out = kernel(x)
                assert out[1][0].size == 100
        except KeyboardInterrupt:
            caught += 1
    assert sys.gettrace() is tracer  # the deferral's trace function is gone
    print("caught", caught)
""")


@pytest.mark.parametrize("result", ["named", "plain"])
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_during_kernels_that_return_arrays_is_one_keyboard_interrupt(result, sig, tmp_path):
    """Twenty signals, each landing while a kernel returning arrays (named or plain) runs in a
    tight loop: twenty KeyboardInterrupts, no SystemError, no crash (without interrupts.install
    the named tuple's loop segfaults on its first signal)."""
    script = tmp_path / "loop.py"
    script.write_text(LOOP)
    done = subprocess.run([sys.executable, str(script), result, sig, "20"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr[-3000:])
    assert done.stdout.split() == ["caught", "20"], done.stdout


def test_outside_a_kernels_boxing_the_handler_raises_at_once():
    with pytest.raises(KeyboardInterrupt):
        interrupts.handler(signal.SIGINT, sys._getframe())
    with pytest.raises(KeyboardInterrupt):
        interrupts.handler(signal.SIGTERM, None)
    assert not interrupts.in_boxing(sys._getframe())
