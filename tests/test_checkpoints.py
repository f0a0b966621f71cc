"""Long runs never lose or misstate work: a rank resumed with another --top or --limit does the
work they need (or shows only what was asked), an existing checkpoint is replaced only with
--resume or --overwrite, a second process on a checkpoint is refused, and outputs are checked
writable before the search and not lost when a write fails at the end."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from reference_trees import ROOT, write_lists

from wordtree.errors import CheckpointBusy, CheckpointExists, OutputNotWritable
from wordtree.files import CheckpointLock, check_writable, open_checkpoint, write_or_fallback


def run(*args, timeout=600):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout)


def error_line(proc) -> str:
    """The one line of a failed command (notices aside)."""
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if not line.startswith("notice: ")]
    assert len(lines) == 1 and lines[0].startswith("wordtree: error: "), proc.stderr
    return lines[0]


def rows(text: str) -> list[tuple[str, int, str]]:
    return [(w, int(v), kind) for w, v, kind in (line.split("\t") for line in text.splitlines()
                                                 if line and not line.startswith("#"))]


def header(text: str, prefix: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(prefix))


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    answers, guesses = write_lists(tmp_path_factory.mktemp("lists"), n_answers=80, n_guesses=200, seed=3)
    return ["--answers", answers, "--guesses", guesses, "--quiet"]


@pytest.fixture(scope="module")
def fresh10(lists):
    """A fresh rank of the first 40 guesses with the best 10 valued exactly."""
    proc = run("rank", *lists, "--limit", 40, "--top", 10)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_resume_with_a_larger_top_values_what_it_lacks_exactly(lists, fresh10, tmp_path):
    ck, out = tmp_path / "ck", tmp_path / "t10.tsv"
    assert run("rank", *lists, "--limit", 40, "--top", 3, "--checkpoint", ck).returncode == 0
    saved = orjson.loads(ck.read_bytes())
    assert saved["top"] == 3 and saved["limit"] == 40
    assert sum(e for _, e in saved["results"].values()) < 10  # the top-3 run proved fewer than 10 exactly
    proc = run("rank", *lists, "--limit", 40, "--top", 10, "--checkpoint", ck, "--resume", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert "valued again for the best 10" in proc.stderr
    table = out.read_text()
    assert "top 10" in header(table, "# wordtree rank") and "ranked: 40 of 40" in table
    resumed, fresh = rows(table), rows(fresh10)
    assert len(resumed) == 40
    assert [(v, k) for _, v, k in resumed[:10]] == [(v, k) for _, v, k in fresh[:10]]  # ten exact values, the same
    tenth = fresh[9][1]
    truth = {w: v for w, v, k in fresh if k == "exact"}
    for word, value, kind in resumed:
        if kind == "exact":
            assert truth.get(word, value) == value
        else:  # a bound is never below the 10th value: the table claims no more than it proves
            assert value >= tenth
    assert orjson.loads(ck.read_bytes())["top"] == 10


def test_resume_with_another_limit_ranks_what_it_lacks_or_shows_only_those(lists, tmp_path):
    ck = tmp_path / "ck"
    assert run("rank", *lists, "--limit", 30, "--top", 3, "--checkpoint", ck).returncode == 0
    first = orjson.loads(ck.read_bytes())["results"]
    fewer = run("rank", *lists, "--limit", 10, "--top", 3, "--checkpoint", ck, "--resume")
    assert fewer.returncode == 0, fewer.stderr
    assert "ranked: 10 of 10" in fewer.stdout and len(rows(fewer.stdout)) == 10
    assert "20 first guess(es) outside the 10 ranked now" in fewer.stderr
    assert len(orjson.loads(ck.read_bytes())["results"]) == 30  # the others stay in the checkpoint
    shown = rows(fewer.stdout)
    third = sorted(v for _, v, k in shown if k == "exact")[2]
    assert all(k == "exact" or v >= third for _, v, k in shown)  # bounds against the ten shown, not the 30
    more = run("rank", *lists, "--limit", 40, "--top", 3, "--checkpoint", ck, "--resume")
    assert more.returncode == 0, more.stderr
    assert "ranked: 40 of 40" in more.stdout
    grown = orjson.loads(ck.read_bytes())["results"]
    assert len(grown) == 40 and all(grown[w] == first[w] or not first[w][1] for w in first)


def test_a_forgotten_resume_is_refused_and_overwrite_starts_over(lists, tmp_path):
    ck = tmp_path / "r.ck"
    assert run("rank", *lists, "--limit", 20, "--top", 3, "--checkpoint", ck).returncode == 0
    before = ck.read_bytes()
    forgot = run("rank", *lists, "--limit", 5, "--top", 1, "--checkpoint", ck)
    assert forgot.returncode == 1
    line = error_line(forgot)
    assert str(ck) in line and "--resume" in line and "--overwrite" in line
    assert ck.read_bytes() == before
    both = run("rank", *lists, "--limit", 5, "--checkpoint", ck, "--resume", "--overwrite")
    assert both.returncode == 2 and "give one of them" in error_line(both)
    assert run("rank", *lists, "--limit", 5, "--overwrite").returncode == 2  # --overwrite needs --checkpoint
    over = run("rank", *lists, "--limit", 5, "--top", 1, "--checkpoint", ck, "--overwrite")
    assert over.returncode == 0, over.stderr
    doc = orjson.loads(ck.read_bytes())
    assert len(doc["results"]) == 5 and doc["top"] == 1
    other = run("rank", *lists, "--limit", 5, "--checkpoint", ck, "--resume", "--max-guesses", 5)
    assert other.returncode == 1
    line = error_line(other)
    assert "checkpoint of another rank" in line and "max_guesses 6 there, 5 here" in line and "--overwrite" in line
    assert "drop --resume" not in line
    assert not ck.with_name("r.ck.lock").exists()  # each run removed its lock


def test_a_finished_bulls_and_cows_build_checkpoint_is_not_wiped(tmp_path):
    ck = tmp_path / "bc.ck"
    game = ["bulls-cows", "--digits", 3, "--quiet"]
    assert run("build", *game, "--checkpoint", ck).returncode == 0
    before = ck.read_bytes()
    again = run("build", *game, "--checkpoint", ck)
    assert again.returncode == 1 and "add --resume" in error_line(again)
    assert ck.read_bytes() == before
    status = run("build", *game, "--checkpoint", ck, "--status")
    assert "8 of 8 classes exact" in status.stdout, status.stdout
    resumed = run("build", *game, "--checkpoint", ck, "--resume")
    assert resumed.returncode == 0 and "total 3575" in resumed.stdout, resumed.stderr


def test_the_rank_kept_beside_a_build_checkpoint_is_not_wiped_either(tmp_path):
    """With the opener found exactly, the openers' rank goes to FILE.rank: a build without
    --resume is refused when that one is there, even with FILE itself gone."""
    ck = tmp_path / "mm.ck"
    game = ["mastermind", "--pegs", 3, "--colours", 4, "--first", "auto", "--quiet"]
    assert run("build", *game, "--checkpoint", ck).returncode == 0
    rank_file = tmp_path / "mm.ck.rank"
    before = rank_file.read_bytes()
    ck.unlink()
    again = run("build", *game, "--checkpoint", ck)
    assert again.returncode == 1 and f"{rank_file} already holds a checkpoint" in error_line(again)
    assert rank_file.read_bytes() == before and not ck.exists()
    assert run("build", *game, "--checkpoint", ck, "--overwrite").returncode == 0
    assert ck.exists()


HOLD = """
import sys, time
from wordtree.files import CheckpointLock
CheckpointLock(sys.argv[1]).acquire()
print("locked", flush=True)
time.sleep(120)
"""


def test_a_second_process_on_a_checkpoint_is_refused_until_the_first_ends(lists, tmp_path):
    """Another process holds the lock (a run in progress): a rank on the same checkpoint is
    refused in one line naming it; once that process is killed (kill -9: the kernel releases the
    flock, the lock file stays), the rank goes ahead. A rank that waited for the lock instead
    would get it when the holder's sleep ends, and succeed: no clock is read."""
    ck = tmp_path / "r.ck"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(ck)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "locked"
        busy = run("rank", *lists, "--limit", 5, "--checkpoint", ck, "--resume")
        assert busy.returncode == 1
        line = error_line(busy)
        assert f"another run (process {holder.pid}) is using this checkpoint" in line
        assert not ck.exists()
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    assert ck.with_name("r.ck.lock").exists()  # left by the killed process, and locked by nobody
    after = run("rank", *lists, "--limit", 5, "--checkpoint", ck, "--resume")
    assert after.returncode == 0, after.stderr
    assert len(orjson.loads(ck.read_bytes())["results"]) == 5


def test_the_lock_in_process(tmp_path):
    ck = tmp_path / "x.ck"
    with open_checkpoint(ck, resume=False, overwrite=False):
        with pytest.raises(CheckpointBusy, match=str(os.getpid())):
            CheckpointLock(ck).acquire()
        ck.write_text("{}")
    assert not (tmp_path / "x.ck.lock").exists()
    with pytest.raises(CheckpointExists):
        with open_checkpoint(ck, resume=False, overwrite=False):
            pass
    for resume, overwrite in ((True, False), (False, True)):
        with open_checkpoint(ck, resume=resume, overwrite=overwrite):
            pass
    with open_checkpoint(None, resume=False, overwrite=False):
        pass


@pytest.mark.parametrize("command", ["rank", "build"])
@pytest.mark.parametrize("flag", ["-o", "--checkpoint"])
@pytest.mark.parametrize("place", ["under a file", "a folder"])
def test_unwritable_outputs_are_refused_before_the_search(tmp_path, command, flag, place, monkeypatch):
    """The whole Wordle game (hours of search, were it started): refused before any of it, in one
    line; not even the pattern matrix is made (its cache folder stays unmade)."""
    (tmp_path / "file").write_text("x")
    target = tmp_path / "file" / "out" if place == "under a file" else tmp_path
    monkeypatch.setenv("WORDTREE_CACHE_DIR", str(tmp_path / "patterns"))
    proc = run(command, "--quiet", flag, target, timeout=120)
    assert not (tmp_path / "patterns").exists()
    assert proc.returncode == 1
    line = error_line(proc)
    assert f"cannot write the {'checkpoint' if flag == '--checkpoint' else ('table' if command == 'rank' else 'tree')}" \
        in line and str(target) in line
    assert proc.stdout == ""


def test_check_writable(tmp_path):
    check_writable(tmp_path / "new" / "deeper" / "out.json", "tree")  # atomic_file makes the folders
    assert not (tmp_path / "new").exists()
    check_writable(tmp_path / "here.json", "tree")
    assert list(tmp_path.iterdir()) == []  # the test file is gone
    with pytest.raises(OutputNotWritable, match="that is a folder"):
        check_writable(tmp_path, "tree")
    if os.geteuid() != 0:  # root writes read-only files and folders
        ro = tmp_path / "ro.json"
        ro.write_text("{}")
        ro.chmod(0o444)
        with pytest.raises(OutputNotWritable, match="read-only"):
            check_writable(ro, "tree")


def test_write_or_fallback(tmp_path):
    target = tmp_path / "t.tsv"
    tried = []

    def failing(path):
        tried.append(path)
        if path == target:
            raise OSError(28, "No space left on device")
        path.write_text("table")

    where, reason = write_or_fallback(target, failing)
    assert reason == "No space left on device" and where == tmp_path / f"t.tsv.{os.getpid()}.saved"
    assert where.read_text() == "table" and not target.exists()

    def nowhere(path):
        raise OSError(28, "No space left on device")

    assert write_or_fallback(target, nowhere) == (None, "No space left on device")


def test_a_write_failing_at_the_end_loses_nothing(lists, tmp_path, monkeypatch, capsys):
    """A full disk when the table is written: it goes next to it, and one line says where; when the
    checkpoint cannot be saved either, the table is still given and one more line says so."""
    import wordtree.files as files
    from wordtree.commands import main

    out, ck = tmp_path / "t.tsv", tmp_path / "r.ck"
    real = files.write_atomic

    def full(path, data):
        if path in (out, ck) or str(path) in (str(out), str(ck)):
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(files, "write_atomic", full)
    args = [str(a) for a in lists]
    assert main(["rank", *args, "--limit", "8", "--top", "2", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    fallback = tmp_path / f"t.tsv.{os.getpid()}.saved"
    assert f"cannot write the table {out} (No space left on device); it was written to {fallback} instead" in err
    assert "ranked: 8 of 8" in fallback.read_text() and not out.exists()
    assert main(["rank", *args, "--limit", "8", "--top", "2", "--checkpoint", str(ck)]) == 1
    captured = capsys.readouterr()
    assert "ranked: 8 of 8" in captured.out and len(rows(captured.out)) == 8
    kept = tmp_path / f"r.ck.{os.getpid()}.saved"  # the last save, beside the checkpoint it could not replace
    assert [line for line in captured.err.splitlines() if not line.startswith("notice: ")] == [
        f"wordtree: error: cannot save the checkpoint {ck} (No space left on device); the results above are complete, "
        f"and the checkpoint went to {kept} instead: move it to {ck} to resume from it"]
    assert not ck.exists() and not (tmp_path / "r.ck.lock").exists() and kept.is_file()
    kept.rename(ck)  # as the line says: the rank resumes from it, with nothing left to rank
    monkeypatch.undo()  # (the disk has room again)
    assert main(["rank", *args, "--limit", "8", "--top", "2", "--checkpoint", str(ck), "--resume"]) == 0
    assert len(rows(capsys.readouterr().out)) == 8


def test_a_checkpoint_of_another_run_names_each_difference(tmp_path):
    from wordtree.errors import CheckpointMismatch
    from wordtree.files import header_differences, read_checkpoint

    game = {"name": "wordle", "answers": "a.txt", "answers_sha256": "1" * 64, "answers_count": 80}
    header = {"format": "f/1", "game": game, "max_guesses": 6, "mode": "normal"}
    ck = tmp_path / "ck"
    ck.write_bytes(orjson.dumps({**header, "game": {**game, "answers_sha256": "2" * 64, "answers_count": 81},
                                 "mode": "hard", "results": {}}))
    with pytest.raises(CheckpointMismatch) as caught:
        read_checkpoint(ck, header, "rank")
    assert caught.value.differences == ["game answers_sha256 differs (other contents); game answers_count 81 there, "
                                        "80 here", "mode hard there, normal here"]
    assert "--" not in str(caught.value)  # the engine names no flag
    assert header_differences({"format": "g/1"}, header) == ["format g/1 there, f/1 here"]
    assert header_differences({**header, "extra": 1}, header) == []
    assert header_differences(header, {**header, "objective": "total"}, {"objective": "total"}) == []


# ------------------------------------------------------------------------------------------------
# Hangman's memo checkpoints: the same guard, the same lock, the output checked first
# ------------------------------------------------------------------------------------------------
def hangman_build(tmp_path, *extra):
    words = tmp_path / "w.txt"
    words.write_text("abc\nabd\nbca\ncab\nxyz\nzyx\nabz\nqrs\n")
    return run("build", "hangman", "--length", "3", "--words", words, "--lives", "2", "--quiet",
               "-o", tmp_path / "t.json", *extra)


def test_a_hangman_build_without_o_writes_here_and_never_over_the_shipped_tree(tmp_path):
    from wordtree.data import trees_dir

    shipped = trees_dir() / "hangman" / "hangman-3.json"
    before = shipped.read_bytes()
    words = tmp_path / "w.txt"
    words.write_text("abc\nabd\nbca\ncab\nxyz\n")
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), "build", "hangman", "--length", "3", "--words",
                           str(words), "--lives", "2", "--quiet"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "hangman-3.json").is_file() and shipped.read_bytes() == before
    again = run("build", "hangman", "--length", "3", "--words", words, "--bound-only")
    assert again.returncode == 2 and "-o" in error_line(again)


def test_a_hangman_checkpoint_is_never_replaced_by_accident(tmp_path):
    ck = tmp_path / "h.npz"
    first = hangman_build(tmp_path, "--checkpoint", ck)
    assert first.returncode == 0 and ck.is_file(), first.stderr
    before = ck.read_bytes()
    again = hangman_build(tmp_path, "--checkpoint", ck)
    assert again.returncode == 1 and "--resume" in error_line(again) and "--overwrite" in error_line(again)
    assert ck.read_bytes() == before
    assert hangman_build(tmp_path, "--checkpoint", ck, "--resume").returncode == 0
    assert hangman_build(tmp_path, "--checkpoint", ck, "--overwrite").returncode == 0


def test_a_hangman_checkpoint_in_use_is_refused(tmp_path):
    ck = tmp_path / "h.npz"
    with CheckpointLock(ck):
        busy = hangman_build(tmp_path, "--checkpoint", ck)
    assert busy.returncode == 1 and "another run" in error_line(busy)


def test_a_hangman_output_is_checked_before_the_search(tmp_path):
    (tmp_path / "a-file").write_text("")
    words = tmp_path / "w.txt"
    words.write_text("abc\nabd\nbca\n")
    out = run("build", "hangman", "--length", "3", "--words", words, "-o", tmp_path / "a-file" / "t.json")
    assert out.returncode == 1 and "not a folder" in error_line(out)


def test_a_term_stops_a_rank_as_ctrl_c_does_and_its_checkpoint_resumes(tmp_path):
    """`kill` (TERM) on a running rank: the command stops as on Ctrl-C (exit 130, "interrupted"),
    with every opener valued so far saved in its checkpoint, which --resume takes."""
    ck = tmp_path / "rank.ck"
    command = [sys.executable, str(ROOT / "cli.py"), "rank", "--top", "1", "--threads", "1", "--checkpoint", str(ck)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while not ck.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)  # the first save: the first opener valued (after compiling, on a fresh cache)
        assert ck.exists(), "no checkpoint saved in time"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "interrupted" in out + err and "Traceback" not in err, err
    results = orjson.loads(ck.read_bytes())["results"]
    assert len(results) >= 1
    again = subprocess.run([*command, "--resume", "--limit", str(len(results))], capture_output=True, text=True,
                           timeout=240)
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("command", ["rank", "build"])
def test_ctrl_c_in_a_search_step_saves_then_says_how_to_resume(lists, tmp_path, monkeypatch, capsys, command):
    """Ctrl-C (or TERM, which a command's process turns into it) while the exact search waits for
    its third result: the two finished are saved, one line gives the command that resumes (the
    same, with --resume), exit 130; that command then finishes."""
    import shlex

    import wordtree.exact.build as build_module
    import wordtree.exact.rank as rank_module
    from wordtree.commands import main

    module = rank_module if command == "rank" else build_module
    real, calls = module.next_outcome, []

    def stopped_on_the_third(outcomes):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(outcomes)

    monkeypatch.setattr(module, "next_outcome", stopped_on_the_third)
    ck = tmp_path / "ck"
    first = open(lists[3]).read().split()[0]
    extra = ["--limit", "20", "--top", "3"] if command == "rank" else ["--first", first]
    argv = [command, *map(str, lists), *extra, "--threads", "1", "--checkpoint", str(ck)]
    assert main(argv) == 130
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("wordtree:")]
    assert lines == [f"wordtree: interrupted: stopped; the work so far is in {ck}; resume with: wordtree "
                     f"{shlex.join(argv)} --resume"]
    saved = orjson.loads(ck.read_bytes())
    assert (len(saved["results"]) if command == "rank" else sum(map(len, saved["subtrees"].values()))) == 2
    monkeypatch.undo()
    assert main([*argv, "--resume"]) == 0, capsys.readouterr().err


def test_a_last_checkpoint_save_that_fails_goes_to_a_fallback_file(tmp_path, monkeypatch):
    """files.ThrottledSave: the save a run ends with, when its file cannot be written, is written
    beside it (or in the temporary folder) and the error names where, so nothing is lost."""
    from wordtree import files

    target = tmp_path / "ck.json"
    real = files.write_atomic
    calls = []

    def failing_at_target(path, data):
        calls.append(Path(path))
        if Path(path) == target:
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(files, "write_atomic", failing_at_target)
    save = files.ThrottledSave(target, lambda: b'{"x": 1}')
    save(every=0.0)  # an ordinary save that fails: told, retried later, nothing written elsewhere
    assert save.error and "saved instead" not in save.error and len(calls) == 1
    save(last=True)
    where = Path(save.error.split("saved instead to ")[1])
    assert where != target and where.read_bytes() == b'{"x": 1}' and not target.exists()
