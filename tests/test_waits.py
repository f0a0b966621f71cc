"""No silent waits: a run that compiles the kernels says so, and how long it took, and reports
its own time without it; a long job whose stderr is piped prints progress lines (with the bound
so far), and none with --quiet."""

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from wordtree import numba_cache

ROOT = Path(__file__).resolve().parent.parent
COMPILED = re.compile(r"^notice: compiled in \d+\.\d s$")
PROGRESS = re.compile(r"^[^:]+: \S+ (of \S+ )?\S+ done[ ,]")  # progress.LINE_FORMAT, LINE_FORMAT_OPEN


def run(*args, env=None, timeout=600):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, **(env or {})), timeout=timeout)


def notices(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("notice: compil")]


def progress_lines(stderr: str, desc: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(desc + ": ")]


# ------------------------------------------------------------------------------------------------
# the compile notice
# ------------------------------------------------------------------------------------------------
def test_a_first_run_says_it_compiles_and_how_long_a_second_says_nothing(tmp_path):
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba")}

    def info(run_number: int) -> subprocess.CompletedProcess:
        # a fresh pattern cache each run, so that the kernel runs (compiled, then from numba's cache)
        return run("info", "mastermind", "--pegs", "2", "--colours", "3", "--cache-dir",
                   tmp_path / f"patterns-{run_number}", env=env)

    first = info(1)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert len(lines) == 2 and lines[0] == numba_cache.COMPILE_NOTICE and COMPILED.match(lines[1]), first.stderr
    second = info(2)
    assert second.returncode == 0 and second.stderr == "", second.stderr
    assert [line for line in second.stdout.splitlines() if line.startswith("patterns:")] == \
        [line for line in first.stdout.splitlines() if line.startswith("patterns:")]
    # the matrix's time leaves the compiling out, and says it apart the first time only
    matrix_line = next(line for line in first.stdout.splitlines() if line.startswith("pattern matrix:"))
    assert "compiling the kernels once" in matrix_line
    assert "compiling" not in next(line for line in second.stdout.splitlines() if line.startswith("pattern matrix:"))


class _Event(SimpleNamespace):
    pass


def _compile_event(module: str) -> _Event:
    return _Event(data={"dispatcher": SimpleNamespace(py_func=SimpleNamespace(__module__=module))})


def test_compiles_in_a_burst_are_said_once_and_timed_together(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(numba_cache, "_say", lambda line, stream=None: said.append(line))
    monkeypatch.setattr(numba_cache, "COMPILE_QUIET", 60.0)  # the burst ends when finish() is called
    compiles = numba_cache._Compiles("pkg")
    for module in ("pkg.kernels", "pkg.other"):  # two kernels, each compiling a callee and numba's own
        compiles.on_start(_compile_event(module))
        compiles.on_start(_compile_event("pkg.kernels"))
        compiles.on_start(_compile_event("numba.np.arraymath"))
        compiles.on_end(None)
        compiles.on_end(None)
        compiles.on_end(None)
    assert said == [numba_cache.COMPILE_NOTICE]
    compiles.finish()
    assert len(said) == 2 and COMPILED.match(said[1]) and compiles.seconds > 0
    compiles.finish()  # at exit too: nothing more to say
    compiles.on_start(_compile_event("numba.core.something"))  # not ours: not said, not timed
    compiles.on_end(None)
    compiles.finish()
    assert len(said) == 2
    compiles.on_start(_compile_event("pkg.late"))  # a later burst
    compiles.on_end(None)
    compiles.finish()
    assert len(said) == 4 and said[2] == numba_cache.COMPILE_MORE and COMPILED.match(said[3])
    assert numba_cache.compile_note(0.0) == "" and numba_cache.compile_note(23.14) == \
        " (and 23.1 s compiling the kernels once)"


def test_a_known_family_says_what_it_compiles_and_counts_the_seconds(monkeypatch):
    """A burst that begins in a kernel module of KERNELS names it and its estimate, and a bar counts
    the seconds until the burst is over (closed before the time is said)."""
    said: list[str] = []
    tickers: list = []

    class Ticker:
        def __init__(self, what, seconds):
            self.what, self.seconds, self.closed = what, seconds, False
            tickers.append(self)

        def close(self):
            self.closed = True
            said.append("(bar closed)")

    monkeypatch.setattr(numba_cache, "_say", lambda line, stream=None: said.append(line))
    monkeypatch.setattr(numba_cache, "_ticker", Ticker)
    monkeypatch.setattr(numba_cache, "COMPILE_QUIET", 60.0)
    compiles = numba_cache._Compiles("wordtree")
    compiles.on_start(_compile_event("wordtree.hangman.kernels"))
    compiles.on_start(_compile_event("wordtree.hangman.kernels"))  # a callee: the same burst
    compiles.on_end(None)
    compiles.on_end(None)
    assert said == ["notice: compiling the Hangman search kernels once (about 25 s; cached for later runs)…"]
    assert [(t.what, t.seconds, t.closed) for t in tickers] == [("the Hangman search kernels", 25, False)]
    compiles.finish()
    assert said[1] == "(bar closed)" and COMPILED.match(said[2]) and tickers[0].closed
    compiles.on_start(_compile_event("wordtree.games.codebreaker_kernels"))  # not in KERNELS: the plain notice
    compiles.on_end(None)
    compiles.finish()
    assert said[3] == numba_cache.COMPILE_MORE and len(tickers) == 1
    for module, (what, seconds) in numba_cache.KERNELS.items():  # every entry names a kernel module
        assert (ROOT / "engine" / (module.replace(".", "/") + ".py")).is_file(), module
        assert what.startswith("the ") and 0 < seconds < 60


def test_the_seconds_bar_stops_when_closed(monkeypatch):
    from wordtree import progress

    class Piped(io.StringIO):
        def isatty(self) -> bool:
            return False

    stream = Piped()
    monkeypatch.setattr("sys.stderr", stream)
    ticker = progress.Ticker("compiling the things", 30)
    ticker.close()
    assert not ticker.thread.is_alive()
    lines = stream.getvalue().splitlines()
    assert lines and all(line.startswith("compiling the things: ") and "of about 30 s" in line for line in lines)


# ------------------------------------------------------------------------------------------------
# progress when piped
# ------------------------------------------------------------------------------------------------
def test_a_piped_line_bar_prints_a_new_postfix_with_its_next_line(monkeypatch):
    from wordtree import progress

    class Piped(io.StringIO):
        def isatty(self) -> bool:
            return False

    stream = Piped()
    monkeypatch.setattr("sys.stderr", stream)
    bar = progress.progress_bar(100, desc="search", unit="node", every=60.0)
    for i in range(100):
        bar.set_postfix_str(f"bound {i}")  # often: only the first line and the closing one print
        bar.update(1)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and lines[-1].startswith("search: 100 of 100 node done") and lines[-1].endswith("bound 99")


def test_a_piped_bar_whose_reader_has_gone_neither_raises_nor_hangs(monkeypatch):
    from tqdm.std import tqdm

    from wordtree import progress

    class Gone(io.StringIO):  # a pipe whose reader has left (`... 2>&1 | head`)
        def isatty(self) -> bool:
            return False

        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("sys.stderr", Gone())
    bar = progress.progress_bar(3, desc="gone", every=60.0)
    bar.update(3)
    bar.set_postfix_str("bound 1")
    bar.close()
    import threading

    def take_and_give_back() -> None:  # tqdm writes holding its lock: a write that raised left it held
        with tqdm.get_lock():
            pass

    other = threading.Thread(target=take_and_give_back, daemon=True)
    other.start()
    other.join(5)
    assert not other.is_alive()


def _hangman_words(tmp_path, n: int, length: int, alphabet: str) -> Path:
    rng = random.Random(11)
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice(alphabet) for _ in range(length)))
    path = tmp_path / f"words-{n}.txt"
    path.write_text("\n".join(sorted(words)) + "\n")
    return path


def test_a_piped_hangman_build_prints_progress_with_the_bound(tmp_path):
    words = _hangman_words(tmp_path, 300, 5, "abcdefghijklmnop")
    done = run("build", "hangman", "--length", "5", "--words", words, "--lives", "6", "-o", tmp_path / "h.json",
               env={"WORDTREE_PROGRESS_EVERY": "0.2"})
    assert done.returncode == 0, done.stderr
    lines = progress_lines(done.stderr, "exact search")
    assert len(lines) >= 2 and all(PROGRESS.match(line) for line in lines), done.stderr
    assert "\r" not in done.stderr and "expected score exactly" in lines[-1], done.stderr
    said = re.search(r"\[(\d+\.\d) s( \(and (\d+\.\d) s compiling the kernels once\))?\]$", done.stdout.strip())
    assert said, done.stdout
    assert bool(said.group(2)) == bool(notices(done.stderr))  # compiled this run: said apart

    quiet = run("build", "hangman", "--length", "5", "--words", words, "--lives", "6", "-o", tmp_path / "q.json",
                "--quiet", env={"WORDTREE_PROGRESS_EVERY": "0.2"})
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


def test_a_piped_bulls_cows_build_prints_progress(tmp_path):
    env = {"WORDTREE_PROGRESS_EVERY": "0.2"}
    done = run("build", "bulls-cows", "--digits", "3", "-o", tmp_path / "b.json", env=env)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if PROGRESS.match(line)]
    assert len(lines) >= 2 and "\r" not in done.stderr, done.stderr
    quiet = run("build", "bulls-cows", "--digits", "3", "-o", tmp_path / "q.json", "--quiet", env=env)
    assert quiet.returncode == 0 and not [line for line in quiet.stderr.splitlines() if PROGRESS.match(line)]


# ------------------------------------------------------------------------------------------------
# times without the compiling
# ------------------------------------------------------------------------------------------------
def test_crossword_reports_its_solve_time_and_the_compiling_apart(tmp_path):
    """On a fresh numba cache the first fill compiles its kernels, and says that time apart: the
    fill's own time (three rows) is less than the compiling's, however busy the machine (both
    slow down together); run again, nothing is compiled and only the fill's time is said."""
    grid = tmp_path / "g.txt"
    grid.write_text("....\n....\n....\n")
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    for first in (True, False):
        done = run("crossword", grid, "--any", env=env)
        assert done.returncode == 0, done.stderr
        said = re.match(r"filled in (\d+\.\d\d) s( \(and (\d+\.\d) s compiling the kernels once\))?$",
                        done.stdout.splitlines()[0])
        assert said, done.stdout
        compiled = notices(done.stderr)
        assert bool(said.group(2)) == bool(compiled) == first, done.stderr
        if compiled:
            assert compiled[0] == "notice: compiling the crossword kernels once (about 28 s; cached for later runs)…"
            assert COMPILED.match(compiled[-1])
            assert float(said.group(3)) >= 0.1
            assert float(said.group(1)) < float(said.group(3))  # the kernel's time, not its compiling's
