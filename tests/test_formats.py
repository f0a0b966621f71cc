"""Interop: each format's exact text, round trips through export and import, and clear errors
for files that do not make a sound tree."""

import orjson
import pytest

import reference
import reference_trees as rt
from wordtree.errors import UserError
from wordtree.wordle.formats import export_tree, import_tree
from wordtree.games import get_game
from wordtree.wordle.tree import make_document, read_tree, write_tree


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("formats")
    answers, guesses = rt.write_lists(folder)
    game = get_game(None, answers=str(answers), guesses=str(guesses))
    root = rt.greedy_tree(game.answers, game.guesses)
    path = folder / "t.json"
    write_tree(path, make_document(game, root))
    return game, root, path, folder


def answer_path(root, answer):
    steps, node = [], root
    while True:
        p = reference.wordle_feedback(node["guess"], answer)
        steps.append((node["guess"], p))
        if p == "GGGGG":
            return steps
        node = node["next"][p]


def test_selby_text(setup):
    game, root, path, _ = setup
    text = export_tree(read_tree(path), game, "selby").decode()
    expected = sorted(" ".join(f"{g} {p}{i}" for i, (g, p) in enumerate(answer_path(root, a), 1)) for a in game.answers)
    assert text.splitlines() == expected
    assert all(line.split()[-1].startswith("GGGGG") for line in text.splitlines())


def test_leaderboard_text(setup):
    game, root, path, _ = setup
    text = export_tree(read_tree(path), game, "leaderboard").decode()
    assert text.splitlines() == [",".join(g for g, _ in answer_path(root, a)) for a in game.answers]


def test_olson_shape(setup):
    game, root, path, _ = setup
    tree = orjson.loads(export_tree(read_tree(path), game, "olson"))
    assert tree["guess"] == root["guess"]
    for key, child in tree["map"].items():
        pattern = key.translate(str.maketrans("012", "BYG"))
        original = root["next"][pattern]
        if "next" in original:
            assert child["guess"] == original["guess"] and isinstance(child["map"], dict)
        else:
            assert child == original["guess"]  # a leaf is just the answer word


@pytest.mark.parametrize("fmt", ["selby", "olson", "leaderboard"])
def test_round_trip(setup, fmt):
    game, root, path, _ = setup
    data = export_tree(read_tree(path), game, fmt)
    assert import_tree(data, fmt, game) == root


def test_round_trip_through_the_cli(setup, tmp_path):
    game, root, path, folder = setup
    lists = ["--answers", folder / "answers.txt", "--guesses", folder / "guesses.txt"]
    for fmt in ("selby", "olson", "leaderboard"):
        out = tmp_path / f"x.{fmt}"
        res = rt.run_cli("export", path, "--format", fmt, *lists, "-o", out)
        assert res.returncode == 0, res.stderr
        tree = tmp_path / f"{fmt}.json"
        res = rt.run_cli("import", out, "--format", fmt, *lists, "-o", tree)
        assert res.returncode == 0, res.stderr
        doc = read_tree(tree)
        assert doc["root"] == root
        assert (doc["stats"]["optimal"], doc["stats"]["proof"]) == (False, "imported")
        assert doc["stats"]["total"] == read_tree(path)["stats"]["total"]
        assert rt.run_cli("verify", tree, *lists).returncode == 0


def test_selby_blanked_prefixes(setup):
    game, root, path, _ = setup
    lines = export_tree(read_tree(path), game, "selby").decode().splitlines()
    blanked, previous = [], ""
    for line in lines:
        shared = 0
        while shared < min(len(line), len(previous)) and line[shared] == previous[shared]:
            shared += 1
        shared = line.rfind(" ", 0, shared + 1) + 1 if shared < len(line) else shared  # whole tokens only
        blanked.append(" " * shared + line[shared:])
        previous = line
    assert any(b.startswith(" ") for b in blanked)
    assert import_tree("\n".join(blanked).encode(), "selby", game) == root


def test_import_errors(setup):
    game, root, path, _ = setup
    lines = export_tree(read_tree(path), game, "selby").decode().splitlines()
    with pytest.raises(UserError, match="input:1: .* should be the pattern and number 2"):
        import_tree(b"ratel BBBBB1 gypsy BBBBB7 chuck GGGGG3", "selby", game)
    bad_last = lines[0].rsplit(" ", 1)[0] + " BBBBB" + lines[0].rsplit(" ", 1)[1][5:]
    with pytest.raises(UserError, match="input:1: the last guess .* does not win"):
        import_tree(bad_last.encode(), "selby", game)
    first = lines[0].split()[0]
    other = next(w for w in game.guesses if w != first)
    conflict = lines[0] + "\n" + lines[1].replace(first, other, 1)
    with pytest.raises(UserError, match=f"input:2: guess 1 is {other!r}, but an earlier line has {first!r}"):
        import_tree(conflict.encode(), "selby", game)
    with pytest.raises(UserError, match="not JSON"):
        import_tree(b"{", "olson", game)
    with pytest.raises(UserError, match="map key '0x'"):
        import_tree(b'{"guess": "abcde", "map": {"0x": "abcde"}}', "olson", game)
    with pytest.raises(UserError, match="input:1: the last word 'qqqqq' is not an answer"):
        import_tree(b"ratel,qqqqq", "leaderboard", game)


def test_import_rejects_unsound_trees(setup, tmp_path):
    game, root, path, folder = setup
    lists = ["--answers", folder / "answers.txt", "--guesses", folder / "guesses.txt"]
    lines = export_tree(read_tree(path), game, "leaderboard").decode().splitlines()
    # drop an answer solved at a leaf: no other line recreates its branch
    i, victim = next((i, a) for i, a in enumerate(game.answers) if not any(a in line.split(",")[:-1] for line in lines))
    partial = tmp_path / "partial.txt"
    partial.write_text("\n".join(lines[:i] + lines[i + 1:]) + "\n")
    out = tmp_path / "t.json"
    rt.assert_one_line_error(rt.run_cli("import", partial, "--format", "leaderboard", *lists, "-o", out),
                             f"answer {victim!r}", "no branch")
    assert not out.exists()
    whole = tmp_path / "whole.txt"
    whole.write_text("\n".join(lines) + "\n")
    worst = read_tree(path)["stats"]["worst"]
    rt.assert_one_line_error(
        rt.run_cli("import", whole, "--format", "leaderboard", *lists, "--max-guesses", worst - 1, "-o", out),
        f"not solved within {worst - 1} guesses")
    hard = rt.run_cli("import", whole, "--format", "leaderboard", *lists, "--mode", "hard", "-o", out)
    if hard.returncode:  # the greedy tree may happen to obey hard mode; if not, the verifier says so
        rt.assert_one_line_error(hard, "not valid", "hard mode")
