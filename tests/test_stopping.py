"""TERM and Ctrl-C stop every long command within moments, in every phase, saving what its
checkpoint holds (exit 130, and the checkpoint resumes); node limits hold in Hangman's bound
phase; a checkpoint of other lists is refused before any planning; a grade's search child ends
with its parent, however the parent ends.

Each command runs in a subprocess, signalled once its progress output shows it is in the phase
wanted (never after a fixed sleep). The deadlines are hang guards, not speed claims: a command
that ignores the signal would run for minutes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import orjson
import pytest

from reference_trees import ROOT

HANG_GUARD = 120  # seconds a signalled command has to end: a hang guard (one stops in a second or two), not a speed claim
STARTUP = 600  # seconds a command may take to reach the phase wanted (compiling its kernels on a fresh cache)


class Running:
    """A command in a subprocess whose stderr is read as it comes (progress bars end lines with \\r)."""

    def __init__(self, args, **kwargs):
        self.proc = subprocess.Popen([sys.executable, *map(str, args)], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=ROOT, **kwargs)
        self.err = b""
        self.out = b""
        self._readers = [threading.Thread(target=self._read, args=(self.proc.stderr, "err"), daemon=True),
                         threading.Thread(target=self._read, args=(self.proc.stdout, "out"), daemon=True)]
        for reader in self._readers:
            reader.start()

    def _read(self, stream, name) -> None:
        while True:
            chunk = stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096)
            if not chunk:
                return
            setattr(self, name, getattr(self, name) + chunk)

    def wait_for(self, text: str, timeout: float = STARTUP) -> None:
        """Until `text` shows on stderr; fails if the command ends first or the time is up."""
        deadline = time.monotonic() + timeout
        while text.encode() not in self.err:
            assert self.proc.poll() is None, f"ended before {text!r}: {self.err.decode(errors='replace')[-2000:]}"
            assert time.monotonic() < deadline, f"no {text!r} in time: {self.err.decode(errors='replace')[-2000:]}"
            time.sleep(0.1)

    def stop(self, sig) -> tuple[int, str, float]:
        """(exit status, stderr, seconds it took to end) after `sig`; killed past HANG_GUARD."""
        sent = time.monotonic()
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            pytest.fail(f"still running {HANG_GUARD} s after {sig!r}: {self.err.decode(errors='replace')[-2000:]}")
        took = time.monotonic() - sent
        for reader in self._readers:
            reader.join(timeout=10)
        return code, self.err.decode(errors="replace"), took

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def cli(*args):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=STARTUP)


def stopped_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.replace("\r", "\n").splitlines() if line.startswith("wordtree: interrupted")]
    assert len(lines) == 1, err
    return lines[0]


# --- build hangman ---
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_build_hangman_stops_past_its_search_and_its_checkpoint_resumes(tmp_path, sig):
    """Signalled once its bound phase has begun (its exact search done within --max-nodes), the
    build ends at once, exit 130, the memo saved: --status reads it, and --resume goes on."""
    ck, out = tmp_path / "h3.ck", tmp_path / "h3.json"
    # 300k nodes: the search does not finish, and its bound and tree phases, held to the same
    # budget, last seconds (with 1000 the whole build ended before a signal could land)
    build = ["build", "hangman", "--length", "3", "--max-nodes", "300000", "--checkpoint", ck, "-o", out]
    running = Running([ROOT / "cli.py", *build])
    try:
        running.wait_for("bound:")
        code, err, _ = running.stop(sig)
    finally:
        running.kill()
    assert code == 130, err
    line = stopped_line(err)
    assert str(ck) in line and "--resume" in line
    status = cli(*build[:-2], "--status")
    assert status.returncode == 0 and status.stdout.strip(), status.stderr
    again = Running([ROOT / "cli.py", *build, "--resume"])
    try:
        again.wait_for("bound:")  # the resumed search needs no more nodes: straight to the bound
        code, err, _ = again.stop(sig)
    finally:
        again.kill()
    assert code == 130 and "Traceback" not in err, err


_BOUND_PHASE = """
import signal, sys
import numpy as np
from wordtree.hangman.driver import game_of
from wordtree.hangman.bounds import bound_parts, partition_bound
from wordtree.hangman.search import Searcher

signal.signal(signal.SIGTERM, signal.default_int_handler)  # as a command's process takes TERM
hw = game_of(3)
s = Searcher(hw, 10)
try:
    partition_bound(s, np.arange(len(hw.words)), s.strikes, **bound_parts(3), progress=True, threads=2)
except KeyboardInterrupt:
    print("stopped", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


def test_hangman_bound_phase_stops_at_once_with_its_searches_in_threads():
    """The partition bound of the 972 three-letter words (parts of up to 330 words, 40 million
    nodes each, in threads): TERM ends it within moments, not once its parts' searches end."""
    running = Running(["-c", _BOUND_PHASE])
    try:
        running.wait_for("bound: words of the parts solved")
        time.sleep(1)  # (the parts' searches under way in their threads)
        code, err, _ = running.stop(signal.SIGTERM)
    finally:
        running.kill()
    assert code == 0 and running.out.decode().split() == ["stopped"], err


def test_hangman_bound_phase_keeps_to_its_node_limit_and_stays_sound():
    """partition_bound with max_nodes: the parts' searches spend at most that many nodes in all
    (each part not solved in what is left bounded instead), and the bound stays a lower bound on
    the optimum (brute force), the same with no nodes at all."""
    import random

    from test_hangman import make, tiny_words
    from wordtree.hangman import bounds
    from wordtree.hangman.search import Searcher

    hw = make(tiny_words(random.Random(4), 40, 4, "abcdefghij"))
    s = Searcher(hw, 3)
    everyone = np.arange(len(hw.words))
    optimum, exact, _ = s.solve(everyone, s.strikes)
    assert exact
    searches = []  # (the nodes a part's search was given, the nodes it spent)
    own = Searcher.solve

    def counted(self, members, strikes, max_nodes=2**62, limit=None):
        found = own(self, members, strikes, max_nodes, limit)
        searches.append((max_nodes, self.nodes))
        return found

    free = bounds.partition_bound(s, everyone, s.strikes, group_nodes=10_000, pooled_below=1, group_by=0)
    assert free <= optimum
    Searcher.solve = counted
    try:
        for limit in (0, 5, 50, 500):
            searches.clear()
            bound = bounds.partition_bound(s, everyone, s.strikes, group_nodes=10_000, pooled_below=1,
                                           group_by=0, max_nodes=limit)
            # each search stops at the node past its budget, which it counts but does not search
            assert all(spent <= given + 1 for given, spent in searches)
            assert sum(min(spent, given) for given, spent in searches) <= limit
            assert bound <= free
    finally:
        Searcher.solve = own



def test_a_best_found_hangman_tree_keeps_to_its_node_limit():
    """The best-found tree's searches (baselines.NodeBudget) spend at most the limit in all, then
    read the memo only (one node a set), and the tree still plays every word."""
    import random

    from test_hangman import make, tiny_words
    from wordtree.hangman.baselines import NodeBudget, best_found_chooser
    from wordtree.hangman.search import Searcher
    from wordtree.hangman.tree import build_tree

    hw = make(tiny_words(random.Random(7), 60, 4, "abcdefghijkl"))
    own = Searcher.solve
    searches = []

    def counted(self, members, strikes, max_nodes=2**62, limit=None):
        found = own(self, members, strikes, max_nodes, limit)
        searches.append((max_nodes, self.nodes))
        return found

    Searcher.solve = counted
    try:
        for limit in (0, 20, 300):
            s = Searcher(hw, 3)
            searches.clear()
            budget = NodeBudget(s, limit)
            counts = {"misses": 0, "lost": 0}
            tree = build_tree(hw, np.arange(len(hw.words)), s.strikes, best_found_chooser(budget, 150, 5000), counts)
            assert tree is not None and searches
            assert sum(min(spent, given) for given, spent in searches) <= limit + budget.lookups
            assert budget.spent == sum(spent for _, spent in searches)
    finally:
        Searcher.solve = own


# --- dordle build ---
def test_dordle_build_stops_on_term_and_resumes(dordle_lists, tmp_path):
    """A whole-game Dordle build with a checkpoint, signalled while it goes through the openers:
    exit 130, the openers done saved, and --resume finishes with the same tree as a fresh build."""
    from wordtree.data import wordlists_dir

    ck, out = tmp_path / "d.ck", tmp_path / "d.json"
    answers = [w.strip() for w in open(wordlists_dir() / "wordle-answers-2315.txt")][::10]  # 231 answers: minutes
    (tmp_path / "a.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(answers + ["salet", "crony"]) + "\n")
    lists = ["--answers", tmp_path / "a.txt", "--guesses", tmp_path / "g.txt", "--max-guesses", "6"]
    for sig in (signal.SIGTERM, signal.SIGINT):  # the build, then its resume
        resume = ["--resume"] if ck.exists() else []
        running = Running([ROOT / "cli.py", "dordle", "build", *lists, "--checkpoint", ck, "-o", out, *resume])
        try:
            running.wait_for("openers")
            code, err, _ = running.stop(sig)
        finally:
            running.kill()
        assert code == 130, err
        assert "--resume" in stopped_line(err) and not out.exists()
        assert orjson.loads(ck.read_bytes())["checksum"].startswith("sha256:")
        status = cli("dordle", "build", *lists, "--checkpoint", ck, "--status")
        assert status.returncode == 0 and "not finished" in status.stdout, status.stderr


def test_dordle_checkpoint_of_other_lists_is_refused_before_any_planning(dordle_lists, tmp_path):
    """A checkpoint made for a small game, resumed for the whole NYT game: refused in one line,
    before the search of 2309 answers is even set up (which takes minutes)."""
    ck = tmp_path / "d.ck"
    made = cli("dordle", "build", *dordle_lists, "--checkpoint", ck)
    assert made.returncode == 0, made.stderr
    running = Running([ROOT / "cli.py", "dordle", "build", "wordle-nyt", "--checkpoint", ck, "--resume"])
    try:
        code = running.proc.wait(timeout=STARTUP)
    finally:
        running.kill()
    for reader in running._readers:
        reader.join(timeout=10)
    err = running.err.decode()
    assert code == 1 and "checkpoint of another" in err and "Traceback" not in err, err
    assert "openers" not in err  # no bar: nothing planned


# --- grade: the search child ---
_RACE = """
import os, sys, time
from wordtree.wordle import grade

def work(tell):
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
    while True:  # a search that would run past the parent's end
        time.sleep(0.05)

grade._race(work, time.monotonic() + 300)
"""


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to see the child")
def test_a_grade_search_child_ends_with_its_parent_even_a_killed_one(tmp_path):
    pid_file = tmp_path / "child.pid"
    parent = subprocess.Popen([sys.executable, "-c", _RACE, str(pid_file)], cwd=ROOT)
    try:
        deadline = time.monotonic() + STARTUP
        while not (pid_file.exists() and pid_file.read_text()):
            assert parent.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        child = int(pid_file.read_text())
        assert _alive(child)
        parent.kill()  # kill -9: no finally, no atexit in the parent
        parent.wait()
        deadline = time.monotonic() + HANG_GUARD
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(child), "the search child outlived its killed parent"
    finally:
        parent.kill()


# --- the exact Wordle build ---
def test_exact_build_ranking_its_openers_stops_on_term_and_ctrl_c(tmp_path):
    """`build --first auto` ranks every opener before it builds (minutes): TERM, then Ctrl-C on
    its resume, each end it at once, exit 130, with the line that resumes it."""
    ck = tmp_path / "b.ck"
    build = [ROOT / "cli.py", "build", "--first", "auto", "--threads", "1", "--checkpoint", ck, "-o", tmp_path / "t.json"]
    for sig, resume in ((signal.SIGTERM, []), (signal.SIGINT, ["--resume"])):
        running = Running([*build, *resume])
        try:
            running.wait_for("first guesses")
            code, err, _ = running.stop(sig)
        finally:
            running.kill()
        assert code == 130, err
        line = stopped_line(err)
        assert "--resume" in line
        # the line says where the work is only where a file holds it
        assert (f"the work so far is in {ck}" in line) == ck.exists(), line
        assert (f"nothing was finished to keep in {ck} yet" in line) == (not ck.exists()), line


def test_dordle_build_of_the_nyt_lists_stops_while_it_plans(tmp_path):
    """`dordle build wordle-nyt`: its plan solves one board of 2309 answers exactly (minutes, in
    one kernel call). TERM once the checkpoint is held (its lock taken, so the plan is under way
    or next) ends it at once, exit 130, saying nothing was finished to keep yet."""
    ck = tmp_path / "nyt.ck"
    lock = tmp_path / "nyt.ck.lock"
    running = Running([ROOT / "cli.py", "dordle", "build", "wordle-nyt", "--checkpoint", ck])
    try:
        deadline = time.monotonic() + STARTUP
        while not lock.exists():
            assert running.proc.poll() is None, running.err.decode(errors="replace")
            assert time.monotonic() < deadline, "the checkpoint was never held"
            time.sleep(0.05)
        time.sleep(2)  # (into the plan's long search; any moment of the plan would do)
        code, err, _ = running.stop(signal.SIGTERM)
    finally:
        running.kill()
    assert code == 130, err
    assert f"nothing was finished to keep in {ck} yet" in stopped_line(err)
