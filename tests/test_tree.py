"""The wordtree/1 file: stats by replay, the exact layout, atomic writes, clear load errors, the game."""

import os
import shutil

import orjson
import pytest

import reference_trees as rt
from wordtree import ENGINE
from wordtree.errors import UnshippedListError, UserError
from wordtree.games import get_game
from wordtree.wordle.tree import game_for, make_document, read_tree, write_tree


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tree")
    answers, guesses = rt.write_lists(folder)
    game = get_game(None, answers=str(answers), guesses=str(guesses))
    root = rt.greedy_tree(game.answers, game.guesses)
    return folder, game, root


def test_stats_match_an_independent_replay(setup):
    _, game, root = setup
    doc = make_document(game, root, seconds=1.23456, extra={"strategy": "greedy"})
    d = rt.depths(root, game.answers)
    stats = doc["stats"]
    assert stats["total"] == sum(d.values())
    assert stats["worst"] == max(d.values())
    assert stats["mean"] == round(sum(d.values()) / len(d), 4)
    assert stats["histogram"] == {str(k): list(d.values()).count(k) for k in range(1, max(d.values()) + 1)}
    assert stats["histogram"]["1"] == 0  # zero counts are kept, keys run from "1" to worst
    assert (stats["objective"], stats["optimal"], stats["proof"]) == ("total", True, "exhaustive")
    assert stats["seconds"] == 1.235 and stats["engine"] == ENGINE and stats["strategy"] == "greedy"


def test_game_section_names_lists_mode_and_cap(setup):
    _, game, root = setup
    doc = make_document(game, root, mode="hard", max_guesses=None)
    g = doc["game"]
    assert set(g) == {"name", "mode", "max_guesses", "word_length", "answers", "answers_sha256", "answers_count",
                      "guesses", "guesses_sha256", "guesses_count"}
    assert (g["name"], g["mode"], g["max_guesses"], g["word_length"]) == ("wordle", "hard", None, 5)
    assert (g["answers"], g["answers_count"]) == ("answers.txt", 60)
    assert g["guesses_count"] == len(set(game.guesses))


def test_layout_sorted_indented_and_round_trips(setup, tmp_path):
    _, game, root = setup
    doc = make_document(game, root, max_guesses=None)
    path = tmp_path / "sub" / "t.json"
    write_tree(path, doc)
    text = path.read_text()
    assert text.startswith('{\n  "format": "wordtree/1",\n  "game": {\n    "answers": "answers.txt",')
    assert '"max_guesses": null' in text
    assert text == orjson.dumps(doc, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode() + "\n"
    assert os.listdir(path.parent) == ["t.json"]  # no temporary file left behind
    loaded = read_tree(path)
    assert {k: v for k, v in loaded.items() if not k.startswith("_")} == doc
    write_tree(path, loaded)  # the loader's bookkeeping is never written back
    assert path.read_text() == text


def test_win_pattern_never_a_branch_and_leaves_have_no_next(setup):
    _, game, root = setup
    stack = [root]
    while stack:
        node = stack.pop()
        assert "GGGGG" not in node.get("next", {})
        assert node.get("next", None) != {}
        stack.extend(node.get("next", {}).values())


def test_make_document_rejects_an_incomplete_tree(setup):
    _, game, root = setup
    broken = orjson.loads(orjson.dumps(root))
    key = sorted(broken["next"])[0]
    del broken["next"][key]
    with pytest.raises(UserError, match=f"no branch for {key} at {root['guess']}:{key}"):
        make_document(game, broken)
    worst = max(rt.depths(root, game.answers).values())
    with pytest.raises(UserError, match=f"not solved within {worst - 1} guesses"):
        make_document(game, root, max_guesses=worst - 1)


def test_make_document_takes_given_depths(setup):
    """Depths from the builder give the replay's document; a cap they break is refused as the
    replay refuses it, and a list of the wrong length is a caller's bug."""
    _, game, root = setup
    depths = [rt.depths(root, game.answers)[a] for a in game.answers]
    assert make_document(game, root, seconds=1.5, depths=depths) == make_document(game, root, seconds=1.5)
    worst = max(depths)
    with pytest.raises(UserError, match=f"takes {worst} guesses, past the cap of {worst - 1}"):
        make_document(game, root, max_guesses=worst - 1, depths=depths)
    with pytest.raises(ValueError, match="depths for"):
        make_document(game, root, depths=depths[1:])


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "tree file not found"),
        (b"hello", "not JSON"),
        (b"[1, 2]", "not a wordtree/1 tree file"),
        (b'{"format": "other/2", "root": {}}', "not a wordtree/1 tree file (format: 'other/2')"),
        (b'{"format": "wordtree/1"}', "missing the 'game' section"),
    ],
)
def test_read_errors_are_one_clear_line(tmp_path, content, message):
    path = tmp_path / "x.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(UserError) as info:
        read_tree(path)
    assert message in str(info.value) and str(path) in str(info.value) and "\n" not in str(info.value)


def test_truncated_and_incomplete_files(setup, tmp_path):
    _, game, root = setup
    path = tmp_path / "t.json"
    write_tree(path, make_document(game, root))
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(UserError, match="truncated"):
        read_tree(path)
    doc = orjson.loads(whole)
    del doc["stats"]["total"], doc["game"]["answers_sha256"]
    path.write_bytes(orjson.dumps(doc))
    with pytest.raises(UserError, match="game is missing answers_sha256"):
        read_tree(path)


def test_game_for_takes_the_users_lists_never_those_beside_the_tree(setup, tmp_path, monkeypatch):
    folder, game, root = setup
    shutil.copy(folder / "answers.txt", tmp_path / "answers.txt")
    shutil.copy(folder / "guesses.txt", tmp_path / "guesses.txt")
    write_tree(tmp_path / "t.json", make_document(game, root))
    monkeypatch.chdir(tmp_path)  # neither beside the tree nor in the working folder are lists looked for
    doc = read_tree(tmp_path / "t.json")
    with pytest.raises(UnshippedListError, match="'answers.txt': word list not found"):
        game_for(doc)
    assert game_for(doc, str(folder / "answers.txt"), str(folder / "guesses.txt")).identity() == game.identity()
    other_answers, other_guesses = rt.write_lists(tmp_path / "other", seed=7)
    with pytest.raises(UserError, match="the answers list answers.txt .* is not the one the tree was made for"):
        game_for(doc, str(other_answers), str(other_guesses))
    with pytest.raises(UserError, match="give both"):
        game_for(doc, str(other_answers))


def test_game_for_a_preset():
    wordle = get_game("wordle")
    doc = {"game": {**wordle.identity(), "mode": "normal", "max_guesses": 6}}
    assert game_for(doc).identity() == wordle.identity()
