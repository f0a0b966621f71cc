"""Outputs that are not regular files (FIFOs, devices, links), outputs that name an input, inputs
that never end (/dev/zero, a FIFO, a huge sparse file, a line without end on stdin), and the cap
on --threads (issue #56, items 1 and 2).

This machine may run as root: nothing here writes a device node but /dev/null and /dev/full."""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import reference_trees as rt

from wordtree import files
from wordtree.errors import OutputNotWritable, UsageError, UserError

ROOT = Path(__file__).resolve().parent.parent
SALET = ROOT / "trees" / "wordle-salet-normal.json"
DORDLE = ROOT / "trees" / "dordle" / "dordle-every40-saice.json"
SMALL = "wordle-answers-every40-58.txt"  # a shipped list of 58 words: an exact build in a second
# four-letter words for a Hangman build in a second
HANGMAN_WORDS = ("abba", "abet", "able", "ably", "abut", "aced", "aces", "ache", "acid", "acme", "acne", "acre",
                 "acts", "adds", "adze", "aeon")
HAS_DEVICES = Path("/dev/null").is_char_device() and Path("/dev/full").is_char_device()
needs_devices = pytest.mark.skipif(not HAS_DEVICES, reason="needs /dev/null and /dev/full")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def test_the_shipped_files_these_tests_read_are_there():
    for path in (SALET, DORDLE, ROOT / "wordlists" / SMALL):
        assert path.is_file(), path


def cli(*args, stdin=None, cwd=None, timeout=120) -> subprocess.CompletedProcess:
    """The CLI run with `stdin` a file object (a device) or None (nothing), output captured."""
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], stdin=stdin or subprocess.DEVNULL,
                          capture_output=True, cwd=cwd or ROOT, timeout=timeout)


def one_line_error(result, *needles, code=None) -> None:
    text = subprocess.CompletedProcess(result.args, result.returncode, result.stdout, result.stderr.decode())
    rt.assert_one_line_error(text, *needles)
    if code is not None:
        assert result.returncode == code, (result.returncode, text.stderr)


class Reader:
    """A thread that opens the FIFO `path` to read and reads it to its end."""

    def __init__(self, path):
        self.data = None
        self.thread = threading.Thread(target=self._read, args=(path,), daemon=True)
        self.thread.start()

    def _read(self, path):
        with open(path, "rb") as f:
            self.data = f.read()

    def join(self) -> bytes:
        self.thread.join(60)
        assert not self.thread.is_alive()
        return self.data


def selby() -> bytes:
    """The shipped SALET tree in Selby's format, as export writes it to stdout."""
    result = cli("export", SALET, "--format", "selby")
    assert result.returncode == 0, result.stderr
    return result.stdout


# ------------------------------------------------------------------------------------------------
# outputs: streams written through, links followed, other files refused
# ------------------------------------------------------------------------------------------------
@needs_fifo
def test_a_fifo_is_written_through_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    reader = Reader(fifo)
    files.write_atomic(fifo, b"a tree")
    assert reader.join() == b"a tree"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary file left


@needs_fifo
def test_a_fifo_no_one_reads_is_an_error_not_a_wait_for_ever(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "FIFO_WAIT_SECONDS", 0.2)
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="no reader") as caught:
        files.write_atomic(fifo, b"x")
    assert caught.value.errno == errno.ENXIO
    # a long run's result then goes to the temporary folder, not beside the stream
    where, reason = files.write_or_fallback(fifo, lambda path: files.write_atomic(path, b"result"))
    try:
        assert "no reader" in reason and where.parent == Path(__import__("tempfile").gettempdir())
        assert where.read_bytes() == b"result"
    finally:
        where.unlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@needs_fifo
def test_nothing_is_written_to_a_stream_when_the_block_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "FIFO_WAIT_SECONDS", 0.2)
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    with pytest.raises(ZeroDivisionError):
        with files.atomic_file(fifo) as f:
            f.write(b"half")
            1 / 0  # the FIFO is not even opened: no reader needed, none waited for


@needs_devices
def test_dev_null_is_written_through_and_dev_full_is_no_space():
    files.write_atomic("/dev/null", b"x")
    assert Path("/dev/null").is_char_device()
    with pytest.raises(OSError) as caught:
        files.write_atomic("/dev/full", b"x")
    assert caught.value.errno == errno.ENOSPC
    assert Path("/dev/full").is_char_device()


def test_a_link_is_followed_its_target_replaced_and_the_link_stays(tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    (there / "tree.json").write_bytes(b"old")
    (here / "tree.json").symlink_to(there / "tree.json")
    files.check_writable(here / "tree.json", "tree")
    files.write_atomic(here / "tree.json", b"new")
    assert (here / "tree.json").is_symlink()
    assert (there / "tree.json").read_bytes() == b"new" and not (there / "tree.json").is_symlink()
    assert [p.name for p in here.iterdir()] == ["tree.json"] and [p.name for p in there.iterdir()] == ["tree.json"]
    (here / "new.json").symlink_to(there / "new.json")  # a link to nothing yet: the file is made there
    files.write_atomic(here / "new.json", b"made")
    assert (here / "new.json").is_symlink() and (there / "new.json").read_bytes() == b"made"


@needs_fifo
def test_check_writable_takes_a_stream_without_opening_it_and_refuses_one_for_a_checkpoint(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    files.check_writable(fifo, "tree")  # returns at once: a FIFO opened here would wait for a reader
    with pytest.raises(OutputNotWritable, match="not a regular file"):
        files.check_writable(fifo, "checkpoint", streams=False)
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "sock"))
        with pytest.raises(OutputNotWritable, match="not a regular file, a FIFO or a character device"):
            files.check_writable(tmp_path / "sock", "tree")
        with pytest.raises(OSError):
            files.write_atomic(tmp_path / "sock", b"x")
    finally:
        sock.close()
    assert stat.S_ISSOCK(os.lstat(tmp_path / "sock").st_mode)


@needs_devices
def test_export_to_dev_full_is_one_line_no_space():
    one_line_error(cli("export", SALET, "--format", "selby", "-o", "/dev/full"), "No space left", code=1)
    assert Path("/dev/full").is_char_device()


@needs_fifo
def test_export_writes_through_a_fifo_and_dev_stdout(tmp_path):
    expected = selby()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = Reader(fifo)
    result = cli("export", SALET, "--format", "selby", "-o", fifo)
    assert result.returncode == 0, result.stderr
    assert reader.join() == expected
    if Path("/dev/stdout").exists():
        result = cli("export", SALET, "--format", "selby", "-o", "/dev/stdout")  # stdout a pipe
        assert result.returncode == 0, result.stderr
        assert result.stdout == expected


@needs_fifo
def test_build_hangman_writes_through_a_fifo_and_a_pipe_and_verifies_what_it_wrote(tmp_path):
    """A Hangman build verifies the tree it wrote by reading the file back; a FIFO or a pipe
    cannot be read back, so what was written is verified: exit 0, not 'not a regular file'."""
    words = tmp_path / "words.txt"
    words.write_text("".join(w + "\n" for w in HANGMAN_WORDS))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = Reader(fifo)
    result = cli("build", "hangman", "--length", "4", "--words", words, "--quiet", "-o", fifo)
    assert result.returncode == 0, result.stderr
    tree = reader.join()
    assert b'"hangman' in tree and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert result.stdout.decode().startswith(f"{fifo}: ")  # the verifier's summary line
    if Path("/dev/stdout").exists():
        result = cli("build", "hangman", "--length", "4", "--words", words, "--quiet", "-o", "/dev/stdout")
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(b"{") and b"/dev/stdout: " in result.stdout


def test_build_hangman_takes_its_own_weights_not_the_wordle_weighted_build(tmp_path):
    """build hangman --weights is Hangman's (the words' weights), not Wordle's weighted build,
    which has no --from for Hangman and ended in an AttributeError: a weights file that never
    ends is one line, a real one builds a weighted tree."""
    words = tmp_path / "words.txt"
    words.write_text("".join(w + "\n" for w in HANGMAN_WORDS))
    if HAS_DEVICES:
        one_line_error(cli("build", "hangman", "--length", "4", "--words", words, "--weights", "/dev/zero",
                           "--quiet"), "/dev/zero", "weights file", code=1)
    weights = tmp_path / "weights.tsv"
    weights.write_text("".join(f"{w}\t{i + 1}\n" for i, w in enumerate(HANGMAN_WORDS)))
    out = tmp_path / "tree.json"
    result = cli("build", "hangman", "--length", "4", "--words", words, "--weights", weights, "--quiet", "-o", out)
    assert result.returncode == 0, result.stderr
    assert "weights" in json.loads(out.read_text())["game"]


def test_export_to_dev_stdout_redirected_to_a_file_writes_that_file(tmp_path):
    """/dev/stdout leads through /proc to the file the shell opened: it is written through (added
    to), not replaced by a file the shell's descriptor no longer points at."""
    if not Path("/dev/stdout").exists():
        pytest.skip("needs /dev/stdout")
    out = tmp_path / "out.txt"
    with open(out, "wb") as f:
        result = subprocess.run([sys.executable, str(ROOT / "cli.py"), "export", SALET, "--format", "selby",
                                 "-o", "/dev/stdout"], stdout=f, stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == selby()


def test_export_through_a_link_into_another_folder_replaces_its_target(tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    (there / "salet.txt").write_text("old")
    (here / "salet.txt").symlink_to(there / "salet.txt")
    result = cli("export", SALET, "--format", "selby", "-o", here / "salet.txt")
    assert result.returncode == 0, result.stderr
    assert (here / "salet.txt").is_symlink() and (there / "salet.txt").read_bytes() == selby()
    assert [p.name for p in there.iterdir()] == ["salet.txt"]


def test_export_to_dev_stdout_on_a_terminal_writes_the_terminal():
    pty = pytest.importorskip("pty")
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "export", SALET, "--format", "selby",
                                    "-o", "/dev/stdout"], stdout=follower, stderr=subprocess.PIPE, cwd=ROOT)
        os.close(follower)
        follower = None
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait(60) == 0, process.stderr.read()
        process.stderr.close()
    finally:
        os.close(leader)
        if follower is not None:
            os.close(follower)
    assert b"".join(chunks).replace(b"\r\n", b"\n") == selby()


@needs_devices
def test_a_build_to_dev_full_says_no_space_in_one_line_and_keeps_the_tree(tmp_path):
    result = cli("build", "--answers", SMALL, "--guesses", SMALL, "--quiet", "-o", "/dev/full", timeout=600)
    one_line_error(result, "No space left", "/dev/full", code=1)
    saved = Path(result.stderr.decode().strip().splitlines()[-1].split(" instead")[0].split("written to ")[-1])
    try:
        assert saved.parent != Path("/dev") and saved.is_file()
    finally:
        saved.unlink(missing_ok=True)


# ------------------------------------------------------------------------------------------------
# outputs that name an input or another output: refused before any work
# ------------------------------------------------------------------------------------------------
def test_export_to_its_own_input_is_refused_by_any_name(tmp_path):
    tree = tmp_path / "tree.json"
    tree.write_bytes(SALET.read_bytes())
    (tmp_path / "link.json").symlink_to(tree)
    os.link(tree, tmp_path / "hard.json")
    for output in (tree, tmp_path / "link.json", tmp_path / "hard.json", tmp_path / "sub" / ".." / "tree.json"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        one_line_error(cli("export", tree, "--format", "selby", "-o", output), "-o", "TREE", code=2)
    assert tree.read_bytes() == SALET.read_bytes()
    one_line_error(cli("export", "wordle-salet-normal", "--format", "selby", "-o", SALET), "TREE", code=2)
    assert (tmp_path / "link.json").is_symlink()


def test_an_output_naming_the_checkpoint_or_a_list_is_refused(tmp_path):
    ck = tmp_path / "ck"
    one_line_error(cli("build", "--checkpoint", ck, "-o", ck), "-o", "--checkpoint", code=2)
    one_line_error(cli("build", "--checkpoint", ck, "-o", f"{ck}.rank"), "--checkpoint", code=2)
    one_line_error(cli("rank", "--checkpoint", ck, "-o", ck), "--checkpoint", code=2)
    words = tmp_path / "words.txt"
    words.write_text((ROOT / "wordlists" / SMALL).read_text())
    one_line_error(cli("build", "--answers", words, "--guesses", words, "-o", words), "--answers", code=2)
    one_line_error(cli("build", "--answers", words, "--guesses", words, "--checkpoint", words), "--checkpoint",
                   code=2)
    one_line_error(cli("build", "hangman", "--length", "3", "--words", words, "-o", words), "--words", code=2)
    one_line_error(cli("dordle", "heuristic", "--checkpoint", ck, "--tree", ck), "--checkpoint", code=2)
    one_line_error(cli("build", "dordle", "--checkpoint", ck, "-o", ck), "--checkpoint", code=2)
    one_line_error(cli("dordle", "build", "--answers", words, "--guesses", words, "-o", words), "--answers", code=2)
    one_line_error(cli("import", SALET, "--format", "selby", "-o", SALET), "FILE", code=2)
    assert not ck.exists() and words.read_text() == (ROOT / "wordlists" / SMALL).read_text()


def test_a_crossword_output_naming_its_grid_is_refused(tmp_path):
    grid = tmp_path / "grid.json"
    grid.write_text("...\n...\n...\n")
    one_line_error(cli("crossword", grid, "-o", grid), "GRID", code=2)
    assert grid.read_text() == "...\n...\n...\n"


@needs_devices
def test_a_checkpoint_that_is_a_device_or_a_socket_output_is_refused(tmp_path):
    one_line_error(cli("rank", "--checkpoint", "/dev/zero", "--resume"), "--checkpoint", "not a regular file", code=2)
    one_line_error(cli("build", "--checkpoint", "/dev/null"), "--checkpoint", code=2)
    one_line_error(cli("hangman-server", "--db", "/dev/null"), "--db", "not a regular file", code=2)
    assert Path("/dev/null").is_char_device() and not Path("/dev/null.lock").exists()
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "sock"))
        one_line_error(cli("export", SALET, "--format", "selby", "-o", tmp_path / "sock"), "-o", code=2)
    finally:
        sock.close()


def test_same_file():
    assert files.same_file(SALET, SALET.parent / "." / SALET.name)
    assert files.same_file("/nowhere/x", "/nowhere/../nowhere/x")  # neither there yet
    assert not files.same_file(SALET, ROOT / "wordlists" / SMALL)


# ------------------------------------------------------------------------------------------------
# inputs that never end
# ------------------------------------------------------------------------------------------------
@pytest.fixture
def fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs")
    path = tmp_path / "fifo"
    os.mkfifo(path)  # opening it to read would wait for a writer
    return path


@pytest.fixture
def sparse(tmp_path):
    """A sparse file of 300 MB (no disk used): more than any limit of a grid, a list or a checkpoint."""
    path = tmp_path / "sparse"
    with open(path, "wb") as f:
        f.truncate(300 << 20)
    return path


def test_crossword_refuses_a_grid_of_dev_zero_a_fifo_or_a_huge_file(fifo, sparse):
    if Path("/dev/zero").exists():
        one_line_error(cli("crossword", "/dev/zero"), "/dev/zero", "not a regular file", code=1)
    one_line_error(cli("crossword", fifo), "not a regular file", code=1)
    one_line_error(cli("crossword", sparse), f"larger than {files.GRID_MAX_BYTES >> 20} MB", code=1)
    one_line_error(cli("crossword", ROOT / "tests" / "data" / "cs50-structure.txt", sparse), "larger than", code=1)


def test_boggle_refuses_a_word_list_of_dev_zero_a_fifo_or_a_huge_file(fifo, sparse):
    from wordtree.words import LIST_MAX_BYTES

    if Path("/dev/zero").exists():
        one_line_error(cli("boggle", "abcdefghijklmnop", "--words", "/dev/zero"), "not a regular file", code=1)
    one_line_error(cli("boggle", "abcdefghijklmnop", "--words", fifo), "not a regular file", code=1)
    one_line_error(cli("boggle", "abcdefghijklmnop", "--words", sparse), f"larger than {LIST_MAX_BYTES >> 20} MB",
                   code=1)


def test_a_checkpoint_is_read_with_a_bound(tmp_path, fifo, sparse):
    with pytest.raises(UserError, match="not a regular file"):
        files.read_checkpoint(fifo, {}, "rank")
    with pytest.raises(UserError, match=f"larger than {files.CHECKPOINT_MAX_BYTES >> 20} MB"):
        files.read_checkpoint(sparse, {}, "rank")
    assert files.read_checkpoint(tmp_path / "none", {}, "rank") is None
    one_line_error(cli("rank", "--checkpoint", sparse, "--resume", "--quiet"), "larger than", code=1)
    one_line_error(cli("rank", "--checkpoint", fifo, "--resume"), "not a regular file", code=2)


def test_a_weights_file_and_a_cache_file_are_read_with_a_bound(fifo, sparse):
    from wordtree.hangman.game import read_weights

    with pytest.raises(UserError, match="not a regular file"):
        read_weights(fifo)
    with pytest.raises(UserError, match="larger than"):
        read_weights(sparse)
    with pytest.raises(OSError):  # a cache file that is a FIFO is no cache (and is not waited on)
        files.open_regular(fifo)
    with files.open_regular(SALET) as f:
        assert f.read(1) == b"{"


def test_a_kernel_state_file_that_is_a_fifo_is_no_state(fifo):
    from wordtree.numba_load import read_runtime

    assert read_runtime(fifo, "key") is None  # opened without waiting for a writer


def test_a_hangman_checkpoint_that_is_a_fifo_is_refused_not_waited_on(fifo):
    from wordtree.hangman.memo import Memo

    memo = Memo.__new__(Memo)  # only its reader is asked: it opens the file before it reads a header
    with pytest.raises(UserError, match="not a readable hangman checkpoint"):
        memo._read(fifo, None, True, whole=False)


def test_bounded_lines():
    import io

    assert list(files.bounded_lines(io.StringIO("ab\ncd"), limit=3)) == ["ab\n", "cd"]
    assert list(files.bounded_lines(io.StringIO("abc\n"), limit=3)) == ["abc\n"]  # the limit, then its end
    with pytest.raises(UserError, match="stdin:2: line longer than 3 bytes"):
        list(files.bounded_lines(io.StringIO("ab\nabcd\n"), limit=3))
    with pytest.raises(UserError, match="stdin:1: line longer than 64 kB"):
        next(files.bounded_lines(io.StringIO("\0" * (1 << 20))))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", [
    ("feedback", "-"),
    ("play",),
    ("play", "--game", "hangman", "--length", "5"),
    ("dordle", "play", DORDLE),
], ids=["feedback", "play", "play-hangman", "dordle-play"])
def test_a_line_of_dev_zero_on_stdin_is_one_line_error(command):
    with open("/dev/zero", "rb") as zero:
        result = cli(*command, stdin=zero)
    one_line_error(result, "stdin:1: line longer than 64 kB", code=1)


def test_the_play_loop_reads_a_stream_a_bounded_line_at_a_time():
    import io

    from wordtree.play import play

    class Position:
        prompt, fatal = "", ()

        def proposal(self):
            return []

        def stopped(self):
            return "stopped"

    said = []
    with pytest.raises(UserError, match="line longer than"):
        play(Position(), io.StringIO("x" * (files.LINE_MAX_BYTES + 1)), said.append, False, False)
    assert play(Position(), io.StringIO("q\n"), said.append, False, False) == 0 and said[-1] == "stopped"


# ------------------------------------------------------------------------------------------------
# --threads: at least 1, at most the cores
# ------------------------------------------------------------------------------------------------
def test_threads_are_capped_at_the_cores_with_a_notice(monkeypatch, capsys):
    from wordtree.commands import build_parser
    from wordtree.commands import common

    real = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert common.cores() == real
    monkeypatch.setattr(common, "cores", lambda: 4)
    assert common.threads_count("3") == 3
    assert capsys.readouterr().err == ""
    assert common.threads_count("100000") == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--threads 100000 lowered to 4" in err[0]
    for text in ("0", "-1", "x"):
        with pytest.raises(UsageError, match="--threads must be a whole number at least 1"):
            common.threads_count(text)
    for argv in (["build", "--threads", "1000"], ["build", "hangman", "--threads", "1000"],
                 ["rank", "--threads", "1000"]):
        assert build_parser(argv).parse_args(argv).threads == 4, argv


def test_threads_past_the_cores_run_on_the_cores():
    result = cli("build", "--answers", SMALL, "--guesses", SMALL, "--quiet", "--threads", "100000", timeout=600)
    assert result.returncode == 0, result.stderr
    assert "--threads 100000 lowered to" in result.stderr.decode()
    one_line_error(cli("build", "--threads", "0"), "--threads", code=2)


def test_the_web_players_server_answers_404_to_a_path_no_file_can_have(tmp_path):
    """GET /%00 (a NUL byte: open() raises ValueError) was a traceback and a dropped connection;
    it is a 404, as is any other path no file can have, and the site is served after it."""
    from wordtree.web import SiteServer

    (tmp_path / "index.html").write_text("<p>site</p>")
    server = SiteServer(tmp_path, 0)
    server.start_background()
    try:
        for target in (b"/%00", b"/index.html%00", b"/a%00.js", b"/%ff%fe", b"/index.html"):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
                conn.sendall(b"GET " + target + b" HTTP/1.0\r\nHost: x\r\n\r\n")
                reply = b""
                while chunk := conn.recv(65536):
                    reply += chunk
            status = reply.split(b"\r\n", 1)[0]
            assert status.endswith(b"200 OK" if target == b"/index.html" else b"404 File not found"), (target, reply[:200])
    finally:
        server.shutdown()
