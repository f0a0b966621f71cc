"""Ctrl-C and TERM as KeyboardInterrupt, raised only where the code running can take one.

Python runs a signal's handler at the next check of its eval loop after the signal lands. A
signal that lands while a kernel runs is therefore handled by the first Python code that runs
after it, and that code is numba's boxing of the kernel's result: numba calls
`numba.core.serialize._numba_unpickle` for each array it returns, and a named tuple's class for
each named tuple. A KeyboardInterrupt raised there is not checked by numba's wrapper: a tuple of
arrays then comes back as a SystemError, and a named tuple of arrays as a segfault.

`handler` is what a command installs for SIGINT and SIGTERM (`install`). Outside that code it
raises KeyboardInterrupt, as Python's own SIGINT handler does. Inside it, it leaves the signal
to a trace function that raises the interrupt at the next line of the kernel's caller:
microseconds later, once the result is boxed.
"""

from __future__ import annotations

import signal
import sys

_BOXING_FILES: frozenset[str] = frozenset()  # numba's files whose code runs inside a wrapper's boxing


def _boxing_files() -> frozenset[str]:
    global _BOXING_FILES
    if not _BOXING_FILES:
        serialize = sys.modules.get("numba.core.serialize")  # not imported: no kernel has run
        if serialize is None:
            return _BOXING_FILES
        _BOXING_FILES = frozenset({serialize.__file__})
    return _BOXING_FILES


def in_boxing(frame) -> bool:
    """Whether `frame` is code a compiled kernel's wrapper calls while it boxes a result: numba's
    unpickling of a type, or a named tuple's constructor (whose module name collections gives as
    namedtuple_<name>)."""
    if frame is None:
        return False
    if frame.f_code.co_filename in _boxing_files():
        return True
    name = frame.f_globals.get("__name__")
    return isinstance(name, str) and name.startswith("namedtuple_")


def handler(signum, frame) -> None:
    """Raise KeyboardInterrupt, unless `frame` is in a kernel's boxing: then raise it at the next
    line of the code that called the kernel, or at the next call outside the boxing, whichever
    comes first."""
    if not in_boxing(frame):
        raise KeyboardInterrupt
    global _deferred
    if _deferred is None:  # (a second signal before the first is raised: one interrupt)
        _deferred = _Deferred(frame)


_deferred: _Deferred | None = None


class _Deferred:
    """A KeyboardInterrupt held back out of a kernel's boxing, raised by a trace function.

    Leaving the signal pending again would not do: Python handles it at its next check, which is
    in the handler itself, and a signal raised from another thread lands, as often as not, while
    the next kernel runs, and so in its boxing again. The caller of the kernel is `frame`'s first
    frame outside the boxing (numba's wrapper is C: it has no frame of its own); its next line
    event raises the interrupt, as does a call of any code outside the boxing. The trace function
    that was set before (a debugger's, coverage's) is put back first."""

    def __init__(self, frame):
        caller = frame
        while caller is not None and in_boxing(caller):
            caller = caller.f_back
        self.caller, self.previous = caller, sys.gettrace()
        self.caller_trace = caller.f_trace if caller is not None else None
        if caller is not None:
            caller.f_trace = self.on_line
        sys.settrace(self.on_call)

    def on_call(self, frame, event, arg):
        if not in_boxing(frame):
            self.fire()
        return None  # no tracing inside the boxing's own calls

    def on_line(self, frame, event, arg):
        if frame is self.caller:
            self.fire()
        return self.on_line

    def fire(self) -> None:
        global _deferred
        _deferred = None
        sys.settrace(self.previous)
        if self.caller is not None:
            self.caller.f_trace = self.caller_trace
        raise KeyboardInterrupt


def install() -> None:
    """`handler` for SIGINT and SIGTERM (a TERM, which `kill`, batch schedulers and container stops
    send, stops a run as Ctrl-C does: it saves its checkpoint and says how to resume). From the
    main thread only, as Python allows; a SIGINT the process ignores (started with it ignored, as
    `nohup` and background jobs of some shells do) stays ignored."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
