"""Progress when stderr is not a terminal: whole lines, at most every LINE_EVERY seconds, and a
heartbeat line while no update comes; on a terminal, tqdm's own bar; none when not shown."""

import io
import time

import pytest

from wordtree import progress


class Piped(io.StringIO):
    def isatty(self) -> bool:
        return False


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def piped(monkeypatch):
    """stderr as a pipe: set inside the test itself (pytest's capture resets sys.stderr after a
    fixture's setup)."""
    monkeypatch.setattr(progress, "LINE_EVERY", 0.2)

    def attach():
        stream = Piped()
        monkeypatch.setattr("sys.stderr", stream)
        return stream
    return attach


def test_piped_progress_prints_whole_lines(piped):
    piped = piped()
    bar = progress.progress_bar(10, desc="first guesses", unit="words")
    for _ in range(10):
        bar.update(1)
    bar.close()
    lines = piped.getvalue().splitlines()
    assert lines and "\r" not in piped.getvalue()
    assert lines[-1].startswith("first guesses: 10 of 10 words done (100 %)")


def test_a_heartbeat_line_comes_while_no_update_does(piped):
    piped = piped()
    bar = progress.progress_bar(5, desc="classes", unit="classes")
    bar.update(1)
    seen = len(piped.getvalue().splitlines())
    time.sleep(1.0)  # about five heartbeats, no update
    beats = len(piped.getvalue().splitlines()) - seen
    bar.close()
    assert beats >= 2
    after = len(piped.getvalue().splitlines())
    time.sleep(0.5)
    assert len(piped.getvalue().splitlines()) == after  # a closed bar's heartbeat stops


def test_a_hidden_bar_prints_nothing(piped):
    piped = piped()
    bar = progress.progress_bar(5, desc="x", show=False)
    bar.update(5)
    bar.close()
    assert piped.getvalue() == ""


def test_a_terminal_gets_the_bar(monkeypatch):
    stream = Terminal()
    monkeypatch.setattr("sys.stderr", stream)
    bar = progress.progress_bar(3, desc="bar", unit="it")
    bar.update(3)
    bar.close()
    assert "\r" in stream.getvalue() and "bar" in stream.getvalue()
