"""A user's word list with a few bad lines is read without them, with one notice naming their
count and the first (cut, escaped); more than 1 % of its lines or 100 of them, none left, or any
under --strict-words, is refused in one line. Every reader: load_words (Wordle, Hangman,
crossword lists), Boggle's, and the flag on every command that names a word list."""

from __future__ import annotations

import argparse

import pytest

from wordtree import words
from wordtree.errors import UserError
from wordtree.words import load_words, word_list_policy

def write(tmp_path, lines, name="list.txt"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def words_of(n):
    """n distinct five-letter words."""
    return ["".join(chr(97 + i // 26**k % 26) for k in (3, 2, 1, 0)) + "z" for i in range(n)]


def test_a_few_bad_lines_are_skipped_with_one_notice(tmp_path):
    good = words_of(300)
    path = write(tmp_path, good[:100] + ["cr\x1b[31mane" + "x" * 60] + good[100:] + ["new york"])
    said = []
    with word_list_policy(notices=said.append, hint=" HINT"):
        got = load_words(path, length=5)
    assert got.words == tuple(good) and got.skipped == 2
    assert len(said) == 1
    line = said[0]
    assert line.startswith(f"notice: {path}: 2 bad line(s) of 302 skipped; the first, line 101: ")
    assert "\x1b" not in line and "\\x1b" in line  # escaped, so a file cannot drive the terminal
    assert "x" * 41 not in line and "…" in line  # cut
    assert line.endswith(" HINT")
    # the fingerprint is the kept words'
    assert got.sha256 == words.canonical_sha256(good)


def test_strict_refuses_any_bad_line(tmp_path):
    good = words_of(300)
    path = write(tmp_path, good + ["sl4te", "crane!"])
    with word_list_policy(strict=True), pytest.raises(UserError) as exc:
        load_words(path, length=5)
    assert str(exc.value) == f"{path}:301: 'sl4te' has a character outside a-z: '4' (and 1 more bad lines)"


@pytest.mark.parametrize("n, bad, refused", [(300, 3, False), (300, 4, True), (99, 1, True), (100, 1, False),
                                             (20000, 100, False), (20000, 101, True)])
def test_the_rule_one_percent_and_at_most_100(tmp_path, n, bad, refused):
    path = write(tmp_path, words_of(n - bad) + ["abcd"] * bad)  # wrong length
    said = []
    with word_list_policy(notices=said.append):
        if refused:
            with pytest.raises(UserError, match=rf"{bad} of its {n} lines are bad, more than the "
                                                 rf"{min(100, n // 100)} a list may skip"):
                load_words(path, length=5)
        else:
            assert len(load_words(path, length=5)) == n - bad and len(said) == 1
    assert words.bad_lines_allowed(n) == min(100, n // 100)


def test_a_list_of_bad_lines_only_or_empty_is_refused(tmp_path):
    with pytest.raises(UserError, match="empty"):
        load_words(write(tmp_path, ["", "  "]))
    with pytest.raises(UserError, match="lines are bad"):
        load_words(write(tmp_path, ["12345"] * 3))


def test_first_length_is_the_length_of_most_words(tmp_path):
    # the odd first word is the bad line, not the 300 others
    path = write(tmp_path, ["abcd"] + words_of(300))
    said = []
    with word_list_policy(notices=said.append):
        assert len(load_words(path, length="first")) == 300
    assert "line 1: 'abcd' has 4 letters, expected 5" in said[0]


def parsers(parser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from parsers(sub)


def test_every_parser_naming_a_word_list_takes_strict_words():
    from wordtree.commands import build_parser

    seen = 0
    for argv in (None, ["build", "hangman"], ["build", "dordle"], ["build", "mastermind"]):
        for p in parsers(build_parser(argv)):
            dests = {a.dest for a in p._actions}
            if dests & {"answers", "guesses", "words"}:
                seen += 1
                assert "strict_words" in dests, p.prog
    assert seen >= 15


def run(argv, capsys):
    from wordtree.commands import main

    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_notice_and_strict_words(tmp_path, capsys):
    from wordtree.data import wordlists_dir

    answers = (wordlists_dir() / "wordle-answers-2315.txt").read_text().split()
    path = write(tmp_path, answers[:500] + ["b\u202eadly"] + answers[500:])
    code, out, err = run(["info", "--answers", str(path), "--guesses", str(path)], capsys)
    assert code == 0 and "2315 words" in out
    notices = [line for line in err.splitlines() if "bad line" in line]
    assert len(notices) == 2  # answers, then guesses: one line each
    assert "\\u202e" in notices[0] and "--strict-words" in notices[0]
    code, out, err = run(["info", "--answers", str(path), "--guesses", str(path), "--strict-words"], capsys)
    assert code == 1 and out == "" and err.splitlines()[-1] == (
        f"wordtree: error: {path}:501: 'b\\u202eadly' has a character outside a-z: '\\u202e'")


def test_boggle_list_with_bad_lines(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("WORDTREE_CACHE_DIR", str(tmp_path / "cache"))
    path = write(tmp_path, words_of(300) + ["c4t"])
    for _ in range(2):  # a list with a bad line is not cached: the second run tells again
        code, out, err = run(["boggle", "aaazzbzzc", "--words", str(path)], capsys)
        assert code == 0, err
        assert err.count("1 bad line(s) of 301 skipped; the first, line 301: 'c4t' is not a word") == 1
    code, out, err = run(["boggle", "aaazzbzzc", "--words", str(path), "--strict-words"], capsys)
    # (the last line: a notice of kernels compiled on the way may come before it)
    assert code == 1 and err.splitlines()[-1] == f"wordtree: error: {path}:301: 'c4t' is not a word: '4' is not a letter"
    # a clean list is cached and read from the cache
    clean = write(tmp_path, words_of(300), "clean.txt")
    assert run(["boggle", "aaazzbzzc", "--words", str(clean)], capsys)[0] == 0
    assert list((tmp_path / "cache").glob("boggle-*.trie"))


def test_crossword_list_with_bad_lines(tmp_path, capsys):
    from wordtree.puzzles import crossword as cw

    path = write(tmp_path, words_of(300) + ["new york"])
    said = []
    for _ in range(2):
        with word_list_policy(notices=said.append):
            index = cw.word_index(path, cache=tmp_path / "cache")
        assert index.words_info["count"] == 300 and index.words_info["skipped"] == 1
    assert len(said) == 2 and "'new york' has a character outside a-z: ' '" in said[0]
    with word_list_policy(strict=True), pytest.raises(UserError, match=":301: 'new york'"):
        cw.word_index(path, cache=tmp_path / "cache")
