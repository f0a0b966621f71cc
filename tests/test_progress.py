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
    for _ in range(300):  # a beat every 0.2 s: waits for two, however busy the machine (at most a minute)
        if len(piped.getvalue().splitlines()) - seen >= 2:
            break
        time.sleep(0.2)
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


def test_a_heartbeat_and_an_update_at_the_same_moment_print_one_line(piped, monkeypatch):
    """The heartbeat's line counts as the bar's last one (and it checks under the bar's lock): an
    update just after it, or just before it, does not print the same line twice."""
    piped = piped()
    monkeypatch.setattr(progress._Heartbeat, "start", lambda self: None)  # beats by hand
    made = []
    monkeypatch.setattr(progress._Heartbeat, "__init__",
                        lambda self, bar, every: made.append(self) or (setattr(self, "bar", bar),
                                                                       setattr(self, "every", every)) and None)
    bar = progress.progress_bar(5, desc="classes", unit="classes")
    beat = made[0]
    time.sleep(0.25)  # the bar's mininterval (0.2 s) has passed since its first line
    lines = len(piped.getvalue().splitlines())
    assert beat.beat() == pytest.approx(0.2)  # a line was due: printed
    bar.update(1)  # at once after it: no second line
    assert len(piped.getvalue().splitlines()) == lines + 1
    time.sleep(0.25)
    bar.update(1)  # due again: the update prints
    assert len(piped.getvalue().splitlines()) == lines + 2
    assert beat.beat() < 0.2  # and the beat right after it waits instead
    assert len(piped.getvalue().splitlines()) == lines + 2
    bar.close()
    assert beat.beat() is None


def test_a_hidden_bar_keeps_its_count():
    """The bar of a job that shows none is not tqdm's, but takes what callers call on a bar, and
    counts."""
    with progress.progress_bar(7, initial=2, show=False) as bar:
        bar.update(3)
        bar.update()
        bar.set_postfix_str("bound>=9")
        bar.set_postfix(total=4)
        bar.set_description("x")
        bar.refresh()
        assert (bar.n, bar.total, bar.disable) == (6, 7, True)


def test_a_quiet_build_imports_neither_tqdm_nor_the_checkpoints(tmp_path):
    """A build without progress and without --checkpoint starts without importing tqdm or the
    checkpoint module (part of its start-up time); with --checkpoint it imports the latter."""
    import subprocess
    import sys

    from reference_trees import ROOT, write_lists

    answers, guesses = write_lists(tmp_path, n_answers=30, n_guesses=60, seed=5)
    probe = ("import sys\nfrom wordtree.commands import main\nassert main(sys.argv[1:]) == 0\n"
             "print(sorted(m for m in ('tqdm', 'wordtree.exact.checkpoint') if m in sys.modules))\n")
    first = answers.read_text().split()[0]
    common = ["build", "--answers", str(answers), "--guesses", str(guesses), "--first", first, "--quiet"]
    plain = subprocess.run([sys.executable, "-c", probe, *common, "-o", str(tmp_path / "a.json")], capture_output=True, text=True, cwd=ROOT,
                           timeout=600)
    assert plain.returncode == 0 and plain.stdout.splitlines()[-1] == "[]", plain.stderr
    kept = subprocess.run([sys.executable, "-c", probe, *common, "-o", str(tmp_path / "b.json"),
                           "--checkpoint", str(tmp_path / "b.ck")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert kept.returncode == 0 and kept.stdout.splitlines()[-1] == "['wordtree.exact.checkpoint']", kept.stderr
