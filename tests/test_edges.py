"""Edges a user can reach (issue 38, items 7 and 8): every one is a one-line error with the right
exit status (2 for a malformed command line), never a traceback, and never a silent substitution
of a value the user gave; a corrupted numba cache is rebuilt, not fatal."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reference_trees import ROOT, assert_one_line_error, run_cli

WORDLE_TREE = ROOT / "trees" / "wordle-salet-normal.json"
MASTERMIND_TREE = ROOT / "trees" / "mastermind-4x6.json"


# ------------------------------------------------------------------------------------------------
# numbers and names on the command line: refused, exit 2
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, needle", [
    (["build", "mastermind", "--threads", "-1"], "--threads"),
    (["build", "mastermind", "--threads", "0"], "--threads"),
    (["rank", "mastermind", "--threads", "0"], "--threads"),
    (["build", "mastermind", "--pegs", "0"], "--pegs"),
    (["build", "mastermind", "--pegs", "10"], "--pegs"),
    (["build", "mastermind", "--colours", "1"], "--colours"),
    (["info", "mastermind", "--colours", "six"], "--colours"),
    (["build", "bulls-cows", "--digits", "0"], "--digits"),
    (["build", "bulls-cows", "--digits", "5"], "--digits"),
    (["rank", "mastermind", "--limit", "-5"], "--limit"),
    (["rank", "mastermind", "--limit", "0"], "--limit"),
    (["hangman-server", "--port", "70000"], "--port"),
    (["serve", "--port", "-1"], "--port"),
    (["info", "nosuchgame"], "unknown game 'nosuchgame'"),
    (["build", "nosuchgame"], "unknown game"),
    (["info", "wordle", "--pegs", "3"], "--pegs does not apply"),
])
def test_bad_values_on_the_command_line_are_usage_errors(args, needle):
    result = run_cli(*args, "--quiet") if args[0] in ("build", "rank") else run_cli(*args)
    assert_one_line_error(result, needle)
    assert result.returncode == 2, result.stderr


def test_a_zero_option_is_passed_on_not_dropped():
    from wordtree.commands.common import game_options_given

    class Args:
        pegs, colours, digits, repeats = 0, None, None, False

    assert game_options_given(Args()) == {"pegs": 0}


def test_an_unknown_game_in_a_tree_file_is_still_a_bad_file(tmp_path):
    doc = json.loads(MASTERMIND_TREE.read_text())
    doc["game"]["name"] = "nosuchgame"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    result = run_cli("export", bad, "--format", "selby")
    assert_one_line_error(result, "unknown game")
    assert result.returncode == 1


# ------------------------------------------------------------------------------------------------
# hangman server and bot
# ------------------------------------------------------------------------------------------------
def test_hangman_server_store_errors_are_one_line(tmp_path):
    not_db = tmp_path / "not.sqlite3"
    not_db.write_text("hello, not a database\n" * 20)
    for db in (tmp_path / "missing" / "s.sqlite3", not_db):
        result = run_cli("hangman-server", "--port", "0", "--db", db)
        assert_one_line_error(result, str(db))
        assert result.returncode == 1


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into read-only folders")
def test_hangman_server_read_only_folder_is_one_line(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        result = run_cli("hangman-server", "--port", "0", "--db", folder / "s.sqlite3")
    finally:
        folder.chmod(0o755)
    assert_one_line_error(result, "s.sqlite3")


@pytest.mark.parametrize("url", ["notaurl", "http://127.0.0.1:9/game/on"])
def test_hangman_bot_bad_urls_are_one_line(url):
    assert_one_line_error(run_cli("hangman-bot", "--url", url, "--player", "edge"), url)


# ------------------------------------------------------------------------------------------------
# malformed trees: next, play, export
# ------------------------------------------------------------------------------------------------
def _malformed(tmp_path, how: str) -> Path:
    doc = json.loads(WORDLE_TREE.read_text())
    if how == "next is a list":
        doc["root"]["next"] = [1, 2]
    elif how == "guess is a number":
        doc["root"]["next"]["BBBBB"]["guess"] = 1234
    elif how == "inner next is a list":
        doc["root"]["next"]["BBBBB"]["next"] = [5]
    elif how == "node is a number":
        doc["root"]["next"]["BBBBB"]["next"] = {"BBBBB": 3}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("how", ["next is a list", "guess is a number", "inner next is a list", "node is a number"])
@pytest.mark.parametrize("command", [["next", "TREE", "salet:BBBBB"], ["next", "TREE"],
                                     ["export", "TREE", "--format", "olson"],
                                     ["export", "TREE", "--format", "selby"], ["play", "TREE", "--answer", "aback"]])
def test_malformed_trees_are_one_line_errors(tmp_path, how, command):
    tree = _malformed(tmp_path, how)
    result = run_cli(*[str(tree) if a == "TREE" else a for a in command])
    assert_one_line_error(result, str(tree))
    assert result.stdout == ""


# ------------------------------------------------------------------------------------------------
# outputs that cannot be written
# ------------------------------------------------------------------------------------------------
def test_unwritable_outputs_are_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    olson = tmp_path / "tree.olson"
    assert run_cli("export", WORDLE_TREE, "--format", "olson", "-o", olson).returncode == 0
    for args in (["export", WORDLE_TREE, "--format", "olson", "-o", blocker / "x.txt"],
                 ["export", WORDLE_TREE, "--format", "olson", "-o", tmp_path],
                 ["import", olson, "--format", "olson", "-o", blocker / "x.json"],
                 ["web", MASTERMIND_TREE, "-o", blocker / "site"]):
        result = run_cli(*args)
        assert_one_line_error(result, "cannot write")
        assert result.returncode == 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["export", WORDLE_TREE, "--format", "olson"], ["stats", WORDLE_TREE]])
def test_a_full_standard_output_is_one_line(args):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], stdout=full,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == ["wordtree: error: cannot write the output (No space left on device)"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_device_as_the_output_file_is_named(tmp_path):
    """A tree written to /dev/full (a stream: written through) fails naming that file, also where the
    command has no message of its own for it (a Hangman build)."""
    from wordtree.files import write_atomic

    with pytest.raises(OSError) as caught:
        write_atomic("/dev/full", b"x")
    assert caught.value.filename == "/dev/full" and caught.value.errno == errno.ENOSPC
    words = tmp_path / "w.txt"
    words.write_text("abc\nabd\nbca\n")
    result = run_cli("build", "hangman", "--length", "3", "--words", words, "--lives", "2", "--quiet", "-o", "/dev/full")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == "wordtree: error: /dev/full: No space left on device"


def test_a_write_that_fails_inside_an_atomic_file_names_it_and_leaves_nothing(tmp_path):
    """A write to a regular file that fails (a full disk) is an OSError naming the file, and the
    temporary file beside it is gone."""
    from wordtree.files import atomic_file

    target = tmp_path / "t.json"
    with pytest.raises(OSError) as caught:
        with atomic_file(target):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert caught.value.filename == str(target) and caught.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_under_an_output_file_is_one_line(tmp_path, monkeypatch, capsys):
    import wordtree.files
    from wordtree import commands

    def full(path, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(wordtree.files, "write_atomic", full)
    code = commands.main(["export", str(WORDLE_TREE), "--format", "olson", "-o", str(tmp_path / "x.txt")])
    err = capsys.readouterr().err
    assert code == 1 and err.strip().splitlines() == [f"wordtree: error: {tmp_path / 'x.txt'}: cannot write "
                                                      "(No space left on device)"]


# ------------------------------------------------------------------------------------------------
# messages that quote a file stay short
# ------------------------------------------------------------------------------------------------
def test_an_olson_file_imported_as_selby_is_a_short_line(tmp_path):
    olson = tmp_path / "tree.olson"
    assert run_cli("export", WORDLE_TREE, "--format", "olson", "-o", olson).returncode == 0
    assert olson.stat().st_size > 10_000
    result = run_cli("import", olson, "--format", "selby", "-o", tmp_path / "x.json")
    assert_one_line_error(result, "expected pairs")
    assert len(result.stderr.strip()) <= len("wordtree: error: ") + 200


def test_every_error_message_is_capped(capsys, monkeypatch):
    from wordtree import commands
    from wordtree.errors import UserError

    def long_error(args):
        raise UserError("x" * 50_000)

    monkeypatch.setattr("wordtree.commands.trees.run_stats", long_error)
    assert commands.main(["stats", "whatever.json"]) == 1
    line = capsys.readouterr().err.strip()
    assert "\n" not in line and line.endswith("…") and len(line) == len("wordtree: error: ") + commands.MESSAGE_CAP


# ------------------------------------------------------------------------------------------------
# web -o onto an earlier site
# ------------------------------------------------------------------------------------------------
def test_web_removes_the_trees_of_an_earlier_site_only(tmp_path):
    from wordtree.errors import UserError
    from wordtree.web import SITE_MARKER, build_site

    trees = tmp_path / "trees"
    trees.mkdir()
    for name in ("one", "two"):
        shutil.copy(MASTERMIND_TREE, trees / f"{name}.json")
    site = tmp_path / "site"
    build_site([trees / "one.json", trees / "two.json"], site)
    assert (site / "trees" / "two.js").is_file() and (site / "trees" / "two.json").is_file()
    (site / "trees" / "mine.json").write_text("{}")  # not the writer's: stays
    (site / "notes.txt").write_text("mine\n")

    build_site([trees / "one.json"], site)
    left = sorted(p.name for p in (site / "trees").iterdir())
    assert left == ["index.js", "mine.json", "one.js", "one.json"]
    assert (site / "notes.txt").is_file()
    assert '"name": "two"' not in (site / SITE_MARKER).read_text()

    # an index naming a path outside trees/ removes nothing there
    (site / SITE_MARKER).write_text('window.WORDTREE_INDEX = [{"name": "../notes"}];\n')
    build_site([trees / "one.json"], site)
    assert (site / "notes.txt").is_file()

    other = tmp_path / "other"
    other.mkdir()
    (other / "keep.txt").write_text("mine\n")
    with pytest.raises(UserError, match="not empty and is not a wordtree site"):
        build_site([trees / "one.json"], other)
    assert sorted(p.name for p in other.iterdir()) == ["keep.txt"]


# ------------------------------------------------------------------------------------------------
# a corrupted numba cache
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("corrupt", [".nbi", ".nbc"])
def test_a_corrupted_numba_cache_is_rebuilt_with_a_notice(tmp_path, corrupt):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))

    def info(run: int) -> subprocess.CompletedProcess:
        # a fresh pattern cache each run, so the kernel runs (and is loaded from numba's cache)
        return subprocess.run([sys.executable, str(ROOT / "cli.py"), "info", "mastermind", "--pegs", "2",
                               "--colours", "3", "--cache-dir", str(tmp_path / f"patterns-{run}")],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)

    def compiling(stderr: str) -> list[str]:  # a fresh cache's compile notices (numba_cache._Compiles)
        return [line for line in stderr.splitlines() if line.startswith("notice: compil")]

    first = info(1)
    assert first.returncode == 0 and first.stderr.splitlines() == compiling(first.stderr), first.stderr
    entries = sorted((tmp_path / "numba").rglob(f"*{corrupt}"))
    assert entries
    for path in entries:
        path.write_bytes(b"")

    rebuilt = info(2)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "Traceback" not in rebuilt.stderr
    lines = [line for line in rebuilt.stderr.strip().splitlines() if line not in compiling(rebuilt.stderr)]
    assert len(lines) == 1 and lines[0].startswith("notice: unreadable numba cache entries"), rebuilt.stderr
    assert compiling(rebuilt.stderr), rebuilt.stderr  # compiled again, and said so
    assert [line for line in rebuilt.stdout.splitlines() if line.startswith("patterns:")] == \
        [line for line in first.stdout.splitlines() if line.startswith("patterns:")]
    assert all(path.stat().st_size > 0 for path in entries if path.exists())

    clean = info(3)
    assert clean.returncode == 0 and clean.stderr == "", clean.stderr


_YAML_PROBE = """
import sys
from wordtree.exact import kernels
from numba.core import config
hidden = "yaml" not in sys.modules
import yaml
print(hidden, config._HAVE_YAML, yaml.safe_load("a: 1") == {"a": 1})
"""


def test_numba_is_imported_without_pyyaml_unless_a_numba_config_file_is_there(tmp_path):
    """numba_cache.import_numba: where no .numba_config.yaml is in the current folder, numba's
    import skips PyYAML (it would read nothing with it), and PyYAML imports as usual afterwards;
    where one is, numba gets PyYAML and applies the file."""
    pytest.importorskip("yaml")

    def probe(folder: Path) -> list[str]:
        proc = subprocess.run([sys.executable, "-c", _YAML_PROBE], capture_output=True, text=True, cwd=folder,
                              timeout=600)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    (tmp_path / "plain").mkdir()
    assert probe(tmp_path / "plain") == ["True", "False", "True"]
    configured = tmp_path / "configured"
    configured.mkdir()
    (configured / ".numba_config.yaml").write_text("warnings: 0\n")
    assert probe(configured) == ["False", "True", "True"]
