"""Progress of long jobs: a tqdm bar on a terminal, plain lines when stderr is piped or logged.

A bar redrawn with carriage returns is noise in a log file, and tqdm disables itself when stderr
is not a terminal, so a piped `build` used to print nothing for minutes. `progress_bar` gives the
same tqdm object either way: on a terminal the usual bar; otherwise one line per update at most
every `LINE_EVERY` seconds, and a heartbeat thread prints the current line at least that often
even while no update comes (a long class being searched), so a log always shows the job alive.
A new postfix (the bound so far, say) shows in the next line, not at once: a job that sets it
often still prints a line at most every `LINE_EVERY` seconds. `WORDTREE_PROGRESS_EVERY` (seconds)
overrides `LINE_EVERY`, for a test or a log that wants lines more often.
"""

from __future__ import annotations

import os
import sys
import threading
import time

LINE_FORMAT = ("{desc}: {n_fmt} of {total_fmt} {unit} done ({percentage:.0f} %), {elapsed} so far, "
               "about {remaining} left{postfix}")
LINE_FORMAT_OPEN = "{desc}: {n_fmt} {unit} done, {elapsed} so far{postfix}"
LINE_EVERY = 30.0  # seconds between progress lines when stderr is not a terminal (the promise: at least once a minute)


def _every_from_environment(default: float) -> float:
    try:
        every = float(os.environ.get("WORDTREE_PROGRESS_EVERY", ""))
    except ValueError:
        return default
    return every if every > 0 else default


LINE_EVERY = _every_from_environment(LINE_EVERY)


class _Lines:
    """A file for tqdm that turns its carriage-return redraws into whole lines."""

    def __init__(self, stream):
        self.stream = stream
        self.gone = False  # the stream failed (a pipe whose reader left): no more lines

    def write(self, text: str) -> None:
        # never raise: tqdm writes holding its lock, which an exception would leave held, and
        # every other bar and thread would then wait for it forever
        line = text.replace("\r", "").replace("\x1b[A", "").strip()
        if line and not self.gone:
            try:
                self.stream.write(line + "\n")
            except (OSError, ValueError):
                self.gone = True

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.gone = True


def is_terminal(stream=None) -> bool:
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


_silenced = False  # no progress anywhere in this process (silence)


def silence(quiet: bool = True) -> None:
    """From now on every bar of this process is silent (`quiet`), or shows again (False): what a
    command's --quiet asks, whichever job shows the progress."""
    global _silenced
    _silenced = quiet


def progress_bar(total=None, *, desc: str = "", unit: str = "it", show: bool = True, initial: int = 0,
                 every: float | None = None, **options):
    """A tqdm bar for a job of `total` steps (None: unknown). `show=False` (or `silence()`): a
    silent bar (same API). On a terminal, tqdm's bar (left behind only if options say so);
    elsewhere, lines to stderr at most every `every` seconds (default LINE_EVERY), with a
    heartbeat in between."""
    if not show or _silenced:
        return SilentBar(total, initial)
    from tqdm import tqdm

    if is_terminal():
        options.setdefault("leave", False)
        return tqdm(total=total, initial=initial, desc=desc, unit=unit, **options)
    every = LINE_EVERY if every is None else every
    options.pop("leave", None)
    options.pop("dynamic_ncols", None)  # a line has no width to fit
    options.setdefault("bar_format", LINE_FORMAT if total is not None else LINE_FORMAT_OPEN)
    bar = _line_bar_class()(total=total, initial=initial, desc=desc, unit=unit, file=_Lines(sys.stderr),
                            mininterval=every, maxinterval=every, leave=True, **options)
    _Heartbeat(bar, every).start()
    return bar


class SilentBar:
    """The bar of a job that shows none: what callers read or call on a tqdm bar (its count, its
    total, update, the postfix and description, close), without importing tqdm, which a quiet
    build otherwise imports only for this (about 6 ms of its start)."""

    disable = True

    def __init__(self, total=None, initial: int = 0):
        self.total, self.n = total, initial

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def set_postfix(self, ordered_dict=None, refresh: bool = True, **kwargs) -> None:
        pass

    def set_description(self, desc=None, refresh: bool = True) -> None:
        pass

    def refresh(self, *args, **kwargs) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_LINE_BAR = None


def _line_bar_class():
    """tqdm, but a bar whose postfix or description changes prints it with the next line (at
    most every `mininterval` seconds) instead of at once; it knows when it last printed."""
    global _LINE_BAR
    if _LINE_BAR is None:
        from tqdm.std import tqdm  # tqdm's own class, whatever a test has put at tqdm.tqdm

        class LineBar(tqdm):
            shown_at = 0.0

            def display(self, *args, **kwargs):
                self.shown_at = time.monotonic()
                return super().display(*args, **kwargs)

            def due(self) -> bool:
                return time.monotonic() - self.shown_at >= self.mininterval

            def set_postfix(self, ordered_dict=None, refresh=True, **kwargs):
                super().set_postfix(ordered_dict, refresh=False, **kwargs)
                if refresh and self.due():
                    self.refresh()

            def set_postfix_str(self, s="", refresh=True):
                super().set_postfix_str(s, refresh=False)
                if refresh and self.due():
                    self.refresh()

            def set_description(self, desc=None, refresh=True):
                super().set_description(desc, refresh=False)
                if refresh and self.due():
                    self.refresh()

        _LINE_BAR = LineBar
    return _LINE_BAR


class _Heartbeat(threading.Thread):
    """Redraws `bar` every `every` seconds until it is closed: a line in the log even when the job
    is deep in one step."""

    def __init__(self, bar, every: float):
        super().__init__(daemon=True, name="progress-heartbeat")
        self.bar, self.every = bar, every

    def run(self) -> None:
        stopped = threading.Event()
        wait = self.every
        while not stopped.wait(wait):
            wait = self.beat()
            if wait is None:
                return

    def beat(self) -> float | None:
        """Print the line if none came for `every` seconds; the seconds until the next beat (None:
        the bar is closed or its stream gone). Decided and printed under the bar's lock, which an
        update's line takes too, and the line counts as the update's last one: an update coming
        at the same moment does not print the same line again."""
        bar = self.bar
        try:
            with bar.get_lock():
                if bar.disable:  # tqdm sets it when the bar is closed
                    return None
                since = time.monotonic() - bar.shown_at
                if since < self.every:  # an update printed a line meanwhile: the next beat counts from it
                    return self.every - since
                bar.refresh(nolock=True)
                bar.last_print_n, bar.last_print_t = bar.n, bar._time()
        except (ValueError, OSError):  # the stream went away
            return None
        return self.every


class Ticker:
    """A bar of the seconds a wait of about `seconds` has taken so far (a compile, which reports
    no steps of its own): a thread moves it twice a second, up to the estimate, until close().
    Piped, a line every 5 seconds."""

    def __init__(self, desc: str, seconds: float, show: bool = True):
        self.total = max(1, round(seconds))
        self.bar = progress_bar(self.total, desc=desc, unit="s", show=show, every=5.0,
                                bar_format=None if is_terminal() else
                                "{desc}: {n_fmt} of about {total_fmt} s, {elapsed} so far{postfix}")
        self.began = time.monotonic()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._tick, name="ticker", daemon=True)
        self.thread.start()

    def _tick(self) -> None:
        while not self.done.wait(0.5):
            seconds = min(self.total, int(time.monotonic() - self.began))
            if seconds > self.bar.n:
                self.bar.update(seconds - self.bar.n)

    def close(self) -> None:
        self.done.set()
        self.thread.join(1.0)
        self.bar.close()

