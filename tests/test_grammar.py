"""One command grammar for every family: shipped trees by name in every command, `trees`, a build's
options by game, --json that parses, one exit code per kind of failure, an unknown option
answered with the command's own usage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wordtree.commands import main
from wordtree.data import trees_dir
from wordtree.families import FAMILIES, family_of_format, family_of_game, find_tree, shipped_trees

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own exits (usage errors, --help)
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_registry_covers_every_shipped_tree_and_game():
    files = sorted(p for p in (ROOT / "trees").rglob("*.json"))
    listed = sorted(t.path.resolve() for t in shipped_trees())
    assert listed == [p.resolve() for p in files]  # every file on some family's shelf, none twice
    assert {t.family.name for t in shipped_trees()} == set(FAMILIES)
    for tree in shipped_trees():
        assert family_of_format(json.loads(tree.path.read_bytes())["format"]) is tree.family, tree.name
    assert family_of_game("wordle-nyt2023").name == "wordle" and family_of_game("hangman").name == "hangman"
    assert family_of_game("dordle").name == "dordle" and family_of_game("chess") is None
    for family in FAMILIES.values():  # every part a family names is a module that imports
        for part in ("spec", "build", "document", "position"):
            assert family.part(part) is not None
        assert callable(family.part("document").describe_file)


def test_find_tree_takes_names_and_the_repository_paths_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an empty folder, as a user of the wheel
    salet = trees_dir() / "wordle-salet-normal.json"
    for text in ("wordle-salet-normal", "wordle-salet-normal.json", "trees/wordle-salet-normal.json"):
        assert find_tree(text) == salet, text
    five = trees_dir() / "hangman" / "hangman-5.json"
    for text in ("hangman-5", "hangman/hangman-5", "trees/hangman/hangman-5.json"):
        assert find_tree(text) == five, text
    assert find_tree("dordle-every40-saice") == trees_dir() / "dordle" / "dordle-every40-saice.json"
    for text in ("nope", "elsewhere/wordle-salet-normal.json", "/tmp/wordle-salet-normal.json", "dordle/hangman-5"):
        assert find_tree(text) is None, text
    (tmp_path / "wordle-salet-normal.json").write_text("{}")  # a file of the user's wins over the shipped one
    assert find_tree("wordle-salet-normal.json") == Path("wordle-salet-normal.json")


def test_trees_lists_every_shipped_tree_with_its_figures(capsys):
    code, out, _ = run(capsys, "trees", "--json")
    assert code == 0
    listed = json.loads(out)
    assert [t["name"] for t in listed] == [t.name for t in shipped_trees()]
    by_name = {t["name"]: t for t in listed}
    assert by_name["wordle-salet-normal"]["total"] == 7920 and by_name["wordle-salet-normal"]["optimal"] is True
    assert by_name["wordle-salet-hard"]["mode"] == "hard" and by_name["wordle-salet-hard"]["total"] == 8122
    assert by_name["dordle-every40-saice"]["total"] == 10890 and by_name["dordle-every40-saice"]["family"] == "dordle"
    assert by_name["hangman-3"]["family"] == "hangman" and by_name["hangman-3"]["answers"] == 972
    for tree in listed:
        assert Path(tree["path"]).is_file() and tree["family"] in FAMILIES
    code, out, _ = run(capsys, "trees", "--family", "hangman")
    assert code == 0 and out.splitlines()[-1].startswith("14 trees, installed in ")
    assert all(line.startswith("hangman-") for line in out.splitlines()[:-1])


def test_stats_and_export_take_a_shipped_trees_name(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "stats", "mastermind-4x6")
    assert code == 0 and "total 5625" in out
    for name, family, total in (("wordle-salet-hard", "wordle", 8122), ("hangman-3", "hangman", 8492),
                                ("dordle-every40-saice", "dordle", 10890)):
        code, out, _ = run(capsys, "stats", name, "--json")
        facts = json.loads(out)
        assert code == 0 and facts["family"] == family and facts["total"] == total, name
    code, out, _ = run(capsys, "export", "wordle-salet-normal", "--format", "olson")
    assert code == 0 and json.loads(out)["guess"] == "salet"
    code, _, err = run(capsys, "export", "hangman-3", "--format", "olson")
    assert code == 1 and "Hangman tree" in err


def test_verify_takes_every_familys_tree_by_name(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "verify", "wordle-salet-normal", "--json")
    report = json.loads(out)
    assert code == 0 and report["valid"] and report["total"] == 7920 and report["optimal"] == "claimed"
    code, out, _ = run(capsys, "verify", "trees/hangman/hangman-3.json", "--json")
    report = json.loads(out)
    assert code == 0 and report["family"] == "hangman" and report["total_score"] == 8492
    code, out, _ = run(capsys, "verify", "dordle-every40-saice", "--json")
    report = json.loads(out)
    assert code == 0 and report["family"] == "dordle" and report["total"] == 10890 and report["pairs"] == 3306
    code, out, _ = run(capsys, "verify", "dordle-every40-saice")
    assert code == 0 and out.startswith("ok: 3306 ordered pairs, total 10890")


def test_dordle_positions_through_the_common_commands(capsys):
    """next, candidates and grade on the shipped Dordle tree, as dordle next/grade give them."""
    step = "saice:BBBBB/BBBBB"
    code, out, _ = run(capsys, "next", "dordle-every40-saice", step, "--json")
    common = json.loads(out)
    assert code == 0
    code, out, _ = run(capsys, "dordle", "next", "dordle-every40-saice", step, "--json")
    assert code == 0 and json.loads(out) == common
    code, out, _ = run(capsys, "candidates", "dordle-every40-saice", step, "--json")
    boards = json.loads(out)
    assert code == 0 and [b["board"] for b in boards] == [1, 2]
    assert all(b["candidates"] == len(b["words"]) > 0 for b in boards)
    code, out, _ = run(capsys, "grade", "dordle-every40-saice", step, "--json")
    assert code == 0 and isinstance(json.loads(out), list)


def test_an_option_of_another_family_is_refused(capsys):
    code, _, err = run(capsys, "next", "salet:BBYBB", "--seconds", "3")
    assert code == 2 and "--seconds is for a Dordle position" in err
    code, _, err = run(capsys, "next", "dordle-every40-saice", "saice:BBBBB/BBBBB", "--missed", "a")
    assert code == 2 and "--missed is for a Hangman position" in err
    code, _, err = run(capsys, "verify", "hangman-3", "--cache-dir", "x")
    assert code == 2 and "--cache-dir is for a Dordle tree" in err
    code, _, err = run(capsys, "grade", "hangman-3", "e:_e_")
    assert code == 2


def test_build_help_lists_only_the_named_games_options(capsys):
    _, wordle, _ = run(capsys, "build", "--help")
    _, hangman, _ = run(capsys, "build", "hangman", "--help")
    _, dordle, _ = run(capsys, "build", "dordle", "--help")
    for flag in ("--lives", "--length", "--refute", "--merge", "--bound-only", "--scheduler"):
        assert f"{flag} " not in wordle, flag
    for flag in ("--mode", "--first", "--from", "--pegs", "--digits", "--objective", "--answers"):
        assert f"{flag} " not in hangman, flag
    for flag in ("--lives", "--mode", "--pegs", "--refute"):
        assert f"{flag} " not in dordle, flag
    assert "--length" in hangman and "--first" in dordle and "--mode" in wordle
    for text in (wordle, hangman, dordle):
        assert "--quiet" in text
    code, _, err = run(capsys, "build", "hangman", "--mode", "hard")
    assert code == 2 and err.startswith("usage: wordtree build") and "unrecognized arguments: --mode hard" in err


def test_an_unknown_option_shows_the_commands_own_usage(capsys):
    for argv in (["stats", "wordle-salet-normal", "--bogus"], ["trees", "--bogus"],
                 ["dordle", "build", "--bogus"], ["verify", "x", "--bogus"]):
        code, _, err = run(capsys, *argv)
        command = " ".join(argv[:2]) if argv[0] == "dordle" else argv[0]
        assert code == 2 and err.startswith(f"usage: wordtree {command}"), (argv, err)
        assert "unrecognized arguments: --bogus" in err


def test_json_parses_on_every_result_command(capsys, tmp_path, real_lists):
    answers, guesses = real_lists
    (tmp_path / "a.txt").write_text("\n".join(answers[::150]) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(answers[::150] + ["salet", "crony"]) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    commands = [
        ["info", "mastermind", "--pegs", "2", "--colours", "3"],
        ["next", "salet:BBYBB"],
        ["candidates", "salet:BBYBB"],
        ["candidates", "--game", "hangman", "_e___", "--missed", "sa"],
        ["stats", "wordle-salet-normal"],
        ["verify", "mastermind-4x6"],
        ["trees"],
        ["build", "mastermind", "--pegs", "2", "--colours", "3", "--quiet"],
        ["build", *lists, "--quiet"],
        ["rank", *lists, "--top", "2", "--quiet"],
        ["grade", "salet:BYBBB", "brond:BYBBB", "--seconds", "5"],
    ]
    for argv in commands:
        code, out, err = run(capsys, *argv, "--json")
        assert code == 0, (argv, err)
        json.loads(out)  # the whole of stdout is one JSON value
    code, out, _ = run(capsys, "build", "mastermind", "--pegs", "2", "--colours", "3", "--quiet", "--json")
    built = json.loads(out)
    assert built["optimal"] and built["total"] == sum(int(k) * v for k, v in built["histogram"].items())


def test_the_same_failure_exits_the_same_in_every_family(capsys, tmp_path):
    """A cap no strategy meets: 3 for the Wordle family and Dordle alike; a tree file that is not
    one: 1 in every command."""
    words = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    lists = ["--answers", str(tmp_path / "w.txt"), "--guesses", str(tmp_path / "w.txt")]
    code, _, err = run(capsys, "build", *lists, "--max-guesses", "1", "--quiet")
    assert code == 3, err
    code, _, err = run(capsys, "build", "dordle", *lists, "--max-guesses", "2", "--quiet")
    assert code == 3 and "within 2 guesses" in err, err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nothing/1"}')
    for command in ("verify", "stats", "next", "candidates", "play"):
        code, _, err = run(capsys, command, str(bad), *(["salet:BBYBB"] if command in ("next", "candidates") else []))
        assert code == 1 and err.count("\n") == 1 and "bad.json" in err, (command, err)


@pytest.mark.parametrize("quiet", [False, True])
def test_quiet_silences_every_progress_bar(capsys, quiet, monkeypatch):
    from wordtree import progress

    monkeypatch.setenv("WORDTREE_PROGRESS_EVERY", "0.01")
    code, _, err = run(capsys, "build", "mastermind", "--pegs", "2", "--colours", "3", *(["--quiet"] if quiet else []))
    assert code == 0
    lines = [line for line in err.splitlines() if not line.startswith("notice: ")]  # (a compile's notices stay)
    assert (not lines) is quiet, err  # the build's bar: lines on stderr unless --quiet
    assert not progress._silenced  # and a caller's own jobs show theirs after the command
    progress.silence()
    assert isinstance(progress.progress_bar(3, desc="x"), progress.SilentBar)
    progress.silence(False)
    bar = progress.progress_bar(3, desc="x")
    assert not isinstance(bar, progress.SilentBar)
    bar.close()


def test_a_game_is_one_registry_entry(monkeypatch, capsys):
    """A preset added to the games registry is made by get_game from its entry, and its options
    come to the command line from the entry; the games that do not take them refuse them."""
    from wordtree import games
    from wordtree.games import Option, Preset

    pegs = Option("pegs", int, "code length", 1, 3)
    preset = Preset("mastermind-small", "Mastermind on at most 3 pegs", "mastermind:mastermind_game", (pegs,))
    monkeypatch.setitem(games.PRESETS, preset.name, preset)
    game = games.get_game("mastermind-small", pegs=2)
    assert game.name == "mastermind" and len(game.answers) == 36
    with pytest.raises(games.OptionNotForGame):
        games.get_game("wordle", pegs=2)
    code, out, _ = run(capsys, "info", "--help")
    assert code == 0 and "mastermind, mastermind-small: code length" in " ".join(out.split())
    code, out, _ = run(capsys, "info", "mastermind-small", "--pegs", "2", "--json")
    assert code == 0 and json.loads(out)["answers_count"] == 36
    monkeypatch.setitem(games.OPTIONS, "size", Option("size", int, "board size", 1, 3))
    code, _, err = run(capsys, "info", "--size", "4")
    assert code == 2 and "--size must be a whole number between 1 and 3" in err


def test_listing_and_describing_trees_loads_neither_numba_nor_numpy():
    """trees and stats read the documents only: every family's reader stays off numba and numpy."""
    import subprocess
    import sys

    script = ("import contextlib, io, sys\n"
              "from wordtree.commands import main\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              "    assert main(['trees']) == 0\n"
              "    for name in ('wordle-salet-normal', 'hangman-5', 'dordle-every40-saice'):\n"
              "        assert main(['stats', name, '--json']) == 0\n"
              "print(sorted(m for m in ('numba', 'numpy') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out


def test_a_trees_format_is_read_from_its_head_and_agrees_with_the_whole_file(tmp_path):
    """tree_format reads a regular file's first kilobytes where the format comes first (as every
    family writes it), else the whole file: the same answer either way."""
    from wordtree.families import tree_format

    for tree in shipped_trees():
        assert tree_format(tree.path) == json.loads(tree.path.read_bytes())["format"], tree.name
    later = tmp_path / "later.json"
    later.write_text(json.dumps({"game": {"name": "x" * 5000}, "format": "wordtree-dordle/1"}))
    assert tree_format(later) == "wordtree-dordle/1"
    for text in ("", "not json", '{"format": 7}', "[1, 2]"):
        (tmp_path / "bad.json").write_text(text)
        assert tree_format(tmp_path / "bad.json") is None, text
    assert tree_format(tmp_path / "missing.json") is None
