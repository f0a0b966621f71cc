"""Lookups and play: walking the tree, expected guesses, off-tree candidates, exact and heuristic
fallbacks, and the CLI's output and errors (through subprocesses, as users run it)."""

import shutil
import subprocess
import sys

import orjson
import pytest

import reference
import reference_trees as rt
from wordtree.wordle import player
from wordtree.errors import UserError
from wordtree.games import get_game
from wordtree.wordle.player import lookup
from wordtree.wordle.tree import make_document, read_tree, write_tree

SQUARES = {"B": "\u2b1b", "Y": "\U0001f7e8", "G": "\U0001f7e9"}


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("player")
    answers, guesses = rt.write_lists(folder)
    game = get_game(None, answers=str(answers), guesses=str(guesses))
    root = rt.greedy_tree(game.answers, game.guesses)
    path = folder / "t.json"
    write_tree(path, make_document(game, root))
    return path, root, list(game.answers), list(game.guesses)


def lists(tree) -> tuple[str, str]:
    """The setup's list files, written beside its tree: the engine never looks there, so they are
    given to it (a tree finds only shipped lists by name)."""
    return str(tree.with_name("answers.txt")), str(tree.with_name("guesses.txt"))


def flags(tree) -> list[str]:
    answers, guesses = lists(tree)
    return ["--answers", answers, "--guesses", guesses]


def walk(root, answer):
    """The (guess, pattern) steps the tree plays against `answer`, by the reference feedback."""
    steps, node = [], root
    while True:
        p = reference.wordle_feedback(node["guess"], answer)
        steps.append((node["guess"], p))
        if p == "GGGGG":
            return steps
        node = node["next"][p]


def test_walking_the_tree_for_every_answer(setup):
    path, root, answers, _ = setup
    doc = read_tree(path)
    for answer in answers:
        steps = walk(root, answer)
        for i in range(len(steps)):
            s = lookup(doc, [f"{g}:{p}" for g, p in steps[:i]], *lists(path))
            assert (s.guess, s.source) == (steps[i][0], "tree")
            expected_cands = [a for a in answers if all(reference.wordle_feedback(g, a) == p for g, p in steps[:i])]
            assert s.candidates == expected_cands
            node = root
            for _, p in steps[:i]:
                node = node["next"][p]
            d = rt.depths(node, expected_cands)
            assert s.expected_guesses == round(sum(d.values()) / len(d), 4)
        final = lookup(doc, [f"{g}:{p}" for g, p in steps], *lists(path))
        assert (final.guess, final.source, final.step) == (None, "solved", len(steps))


def test_patterns_as_digits_and_squares(setup):
    path, root, answers, _ = setup
    doc = read_tree(path)
    g, p = walk(root, answers[3])[0]
    plain = lookup(doc, [f"{g}:{p}"], *lists(path))
    digits = lookup(doc, [f"{g.upper()}:{p.translate(str.maketrans('BYG', '012'))}"], *lists(path))
    squares = lookup(doc, [f"{g}:" + "".join(SQUARES[c] for c in p)], *lists(path))
    assert plain.guess == digits.guess == squares.guess and plain.candidates == squares.candidates


def off_tree_step(root, answers, guesses, want):
    """An own first guess (not the tree's) and the pattern it gets, leaving `want(n)` candidates."""
    for w in guesses:
        if w == root["guess"]:
            continue
        for a in answers:
            p = reference.wordle_feedback(w, a)
            left = [b for b in answers if reference.wordle_feedback(w, b) == p]
            if want(len(left)):
                return w, p, left
    raise AssertionError("no such step in the fixture")


def test_off_tree_asks_the_exact_engine_with_the_candidates(setup, monkeypatch):
    path, root, answers, guesses = setup
    doc = read_tree(path)
    w, p, left = off_tree_step(root, answers, guesses, lambda n: 3 <= n <= 10)
    calls = []

    def fake_best_guess(game, ids, guesses_left, mode="normal"):
        calls.append(([game.answers[i] for i in ids], guesses_left, mode))
        return game.answers[ids[-1]], 2 * len(ids) - 1

    import wordtree.exact.solver

    monkeypatch.setattr(wordtree.exact.solver, "best_guess", fake_best_guess)
    s = lookup(doc, [f"{w}:{p}"], *lists(path))
    assert calls == [(left, 5, "normal")]
    assert (s.guess, s.source, s.candidates) == (left[-1], "exact", left)
    assert s.expected_guesses == round((2 * len(left) - 1) / len(left), 4)


def test_one_candidate_left_needs_no_engine(setup):
    path, root, answers, guesses = setup
    w, p, left = off_tree_step(root, answers, guesses, lambda n: n == 1)
    s = lookup(read_tree(path), [f"{w}:{p}"], *lists(path))
    assert (s.guess, s.source, s.expected_guesses) == (left[0], "exact", 1.0)


def test_heuristic_when_too_many_candidates(setup, monkeypatch):
    path, root, answers, guesses = setup
    w, p, left = off_tree_step(root, answers, guesses, lambda n: 8 <= n <= 40)
    s = lookup(read_tree(path), [f"{w}:{p}"], *lists(path), exact_limit=0)
    assert s.source == "heuristic" and s.expected_guesses is None and s.guess in guesses + answers

    def spread(word):
        buckets = {}
        for a in left:
            buckets[reference.wordle_feedback(word, a)] = buckets.get(reference.wordle_feedback(word, a), 0) + 1
        return sum(v * v for v in buckets.values())

    assert spread(s.guess) <= min(spread(c) for c in left)  # candidates are among its options


def test_errors_name_the_step(setup):
    path, root, answers, _ = setup
    doc = read_tree(path)
    answer = next(a for a in answers if len(walk(root, a)) >= 3)
    (g1, p1), (g2, _) = walk(root, answer)[:2]
    cands = [a for a in answers if reference.wordle_feedback(g1, a) == p1]
    possible = {reference.wordle_feedback(g2, c) for c in cands}
    impossible = next(q for q in ("BBBBB", "YYYYY", "GGGGB", "BGGGG", "GGGGG") if q not in possible)
    with pytest.raises(UserError, match=rf"step 2 \({g2}:{impossible}\): {impossible} cannot occur here"):
        lookup(doc, [f"{g1}:{p1}", f"{g2}:{impossible}"], *lists(path))
    with pytest.raises(UserError, match=r"step 1 \(zzzzz:BBBBB\): 'zzzzz' is not an allowed guess"):
        lookup(doc, ["zzzzz:BBBBB"], *lists(path))
    with pytest.raises(UserError, match=r"step 1 .* bad pattern"):
        lookup(doc, [f"{g1}:BBXBB"], *lists(path))
    with pytest.raises(UserError, match="bad step 'salet:'"):
        lookup(doc, ["salet:"], *lists(path))


def test_cap_is_enforced(setup):
    path, root, answers, guesses = setup
    doc = read_tree(path)
    doc["game"]["max_guesses"] = 1
    (g1, p1), (g2, p2) = walk(root, answers[0])[:2]
    with pytest.raises(UserError, match=r"step 2 .*: the game allows only 1 guesses"):
        lookup(doc, [f"{g1}:{p1}", f"{g2}:{p2}"], *lists(path))
    w, p, _ = off_tree_step(root, answers, guesses, lambda n: n >= 2)
    with pytest.raises(UserError, match="no guesses left after 1 steps"):
        lookup(doc, [f"{w}:{p}"], *lists(path))


# --- through the command line -------------------------------------------------------------------
def test_cli_next_text_and_json(setup):
    path, root, answers, _ = setup
    out = rt.run_cli("next", path, *flags(path))
    assert out.returncode == 0 and out.stdout.split()[0] == root["guess"], out
    steps = walk(root, answers[5])
    out = rt.run_cli("next", path, *flags(path), f"{steps[0][0]}:{steps[0][1]}", "--json")
    data = orjson.loads(out.stdout)
    cands = [a for a in answers if reference.wordle_feedback(steps[0][0], a) == steps[0][1]]
    assert data["guess"] == steps[1][0] and data["candidates"] == len(cands) and data["candidate_words"] == cands
    assert data["source"] == "tree" and isinstance(data["expected_guesses"], float)
    solved = rt.run_cli("next", path, *flags(path), *[f"{g}:{p}" for g, p in steps])
    assert solved.stdout.strip() == f"solved in {len(steps)}"


def test_cli_next_errors(setup):
    path, root, answers, _ = setup
    rt.assert_one_line_error(rt.run_cli("next", path, *flags(path), f"{root['guess']}:BBXBB"), "step 1", "bad pattern")
    rt.assert_one_line_error(rt.run_cli("next", path, *flags(path), "qqqqq:BBBBB"), "step 1", "not an allowed guess")
    rt.assert_one_line_error(rt.run_cli("next", path.with_name("missing.json")), "tree file not found")


def test_cli_next_never_imports_numba_or_numpy(setup):
    path, root, answers, _ = setup
    g, p = walk(root, answers[7])[0]
    res = subprocess.run([sys.executable, "-X", "importtime", str(rt.ROOT / "cli.py"), "next", str(path), f"{g}:{p}",
                          *flags(path)], capture_output=True, text=True)
    assert res.returncode == 0 and "wordtree.wordle.player" in res.stderr
    imported = {line.split("|")[-1].strip().split(".")[0] for line in res.stderr.splitlines() if "|" in line}
    assert not imported & {"numpy", "numba"}


def test_default_tree(setup):
    out = rt.run_cli("next", "--json")
    if player.DEFAULT_TREE.is_file():
        assert out.returncode == 0 and orjson.loads(out.stdout)["guess"]
    else:
        rt.assert_one_line_error(out, "default tree", "is missing")


def test_cli_play_against_an_answer(setup):
    path, root, answers, _ = setup
    steps = walk(root, answers[9])
    out = rt.run_cli("play", path, *flags(path), "--answer", answers[9].upper())
    assert out.stdout.splitlines() == [f"{g} {p}" for g, p in steps] + [f"solved in {len(steps)}"]
    assert "\x1b[" not in out.stdout  # colours only on a terminal
    rt.assert_one_line_error(rt.run_cli("play", path, *flags(path), "--answer", "qqqqq"), "'qqqqq' is not an answer")


def test_cli_play_interactive_with_piped_input(setup):
    path, root, answers, guesses = setup
    answer = answers[11]
    steps = walk(root, answer)
    out = rt.run_cli("play", path, *flags(path), stdin="".join(p + "\n" for _, p in steps))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith(f"guess 1: {root['guess']}")
    assert out.stdout.splitlines()[-1] == f"solved in {len(steps)}"
    # an own guess that leaves a single candidate; the assistant then proposes it
    w, p, left = off_tree_step(root, answers, guesses, lambda n: n == 1)
    out = rt.run_cli("play", path, *flags(path), stdin=f"{w} {p}\nGGGGG\n")
    assert out.returncode == 0, out.stderr
    assert f"1 candidate left: {left[0]}" in out.stdout and f"guess 2: {left[0]}" in out.stdout
    assert out.stdout.splitlines()[-1] == "solved in 2"
    bad = rt.run_cli("play", path, *flags(path), stdin="BBXBB\n")
    rt.assert_one_line_error(bad, "step 1", "bad pattern")


def test_cli_stats(setup):
    path, root, answers, _ = setup
    d = rt.depths(root, answers)
    out = rt.run_cli("stats", path)
    assert out.returncode == 0
    assert f"total {sum(d.values())}  mean {round(sum(d.values()) / len(d), 4)}  worst {max(d.values())}" in out.stdout
    assert f"first guess {root['guess']}" in out.stdout


def test_custom_lists_given_explicitly(setup, tmp_path):
    path, root, answers, _ = setup
    moved = tmp_path / "t.json"
    shutil.copy(path, moved)  # the lists are not beside it any more (and would not be looked for there)
    rt.assert_one_line_error(rt.run_cli("next", moved, f"{root['guess']}:BBBBB"), "word list not found")
    out = rt.run_cli("next", moved, "--answers", path.with_name("answers.txt"), "--guesses", path.with_name("guesses.txt"))
    assert out.returncode == 0 and out.stdout.split()[0] == root["guess"]


def optimal_total(cands, guesses, memo):
    """Exhaustive minimum total guesses for a small candidate set (no cap binds here)."""
    key = tuple(cands)
    if key not in memo:
        best = None
        for w in guesses:
            buckets = {}
            for a in cands:
                buckets.setdefault(reference.wordle_feedback(w, a), []).append(a)
            if len(buckets) == 1 and w not in cands:
                continue
            total = len(cands) + sum(optimal_total(v, guesses, memo) for p, v in buckets.items() if p != "GGGGG")
            best = total if best is None else min(best, total)
        memo[key] = best
    return memo[key]


@pytest.mark.slow
def test_off_tree_with_the_real_exact_engine(setup):
    path, root, answers, guesses = setup
    w, p, left = off_tree_step(root, answers, guesses, lambda n: 3 <= n <= 5)
    s = lookup(read_tree(path), [f"{w}:{p}"], *lists(path))
    assert s.source == "exact" and s.candidates == left
    all_guesses = guesses + [a for a in answers if a not in guesses]
    assert round(s.expected_guesses * len(left)) == optimal_total(left, all_guesses, {})


def test_hard_mode_falls_back_to_candidates_when_the_exact_engine_declines(setup, monkeypatch):
    path, root, answers, guesses = setup
    doc = read_tree(path)
    doc["game"]["mode"] = "hard"
    w, p, left = off_tree_step(root, answers, guesses, lambda n: 3 <= n <= 10)

    def declining(game, ids, guesses_left, mode="normal"):
        raise UserError(f"mode {mode!r} is not supported by the exact search yet")

    import wordtree.exact.solver

    monkeypatch.setattr(wordtree.exact.solver, "best_guess", declining)
    s = lookup(doc, [f"{w}:{p}"], *lists(path))
    assert s.source == "heuristic" and s.guess in left  # a candidate always obeys the hard-mode rule
    doc["game"]["mode"] = "normal"
    with pytest.raises(UserError, match="not supported"):
        lookup(doc, [f"{w}:{p}"], *lists(path))


def test_coloured_rows():
    row = player.coloured_row("salet", "BYGBB", ansi=True)
    assert row.count("\x1b[0m") == 5 and " S " in row and "\x1b[1;97;42m L " in row
    assert player.coloured_row("salet", "BYGBB", ansi=False) == "salet BYGBB"


def play_lines(position, lines, colour: bool) -> list[str]:
    """What the assistant says for `lines` through play.py's loop, the output a terminal or not."""
    from wordtree.play import play

    said = []
    assert play(player.WordlePlay(position), iter(lines), said.append, False, colour) == 0
    return said


def test_play_draws_each_guess_as_tiles_on_a_terminal(setup, monkeypatch):
    path, root, answers, _ = setup
    steps = walk(root, answers[11])
    replies = [p for _, p in steps]
    monkeypatch.delenv("NO_COLOR", raising=False)
    plain = play_lines(player.position_after(read_tree(path), [], *lists(path)), replies, colour=False)
    assert not any("\x1b[" in text for text in plain) and plain[-1] == f"solved in {len(steps)}"
    coloured = play_lines(player.position_after(read_tree(path), [], *lists(path)), replies, colour=True)
    rows = [player.coloured_row(g, p, ansi=True) for g, p in steps]
    assert [text for text in coloured if "\x1b[" in text] == rows
    assert [text for text in coloured if "\x1b[" not in text] == plain
    assert coloured.index(rows[0]) == 1  # the guess's tiles, after its proposal
    monkeypatch.setenv("NO_COLOR", "1")
    assert play_lines(player.position_after(read_tree(path), [], *lists(path)), replies, colour=True) == plain


def test_a_code_breaker_has_no_tiles(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    position = player.position_after(None, [], game=get_game("mastermind"))
    said = play_lines(position, ["1122 4B0W"], colour=True)
    assert said[-1] == "solved in 1" and not any("\x1b[" in text for text in said)


# ------------------------------------------------------------------------------------------------
# a broken tree gives no advice: each step is checked against the feedback rule
# ------------------------------------------------------------------------------------------------
def tampered(setup, tmp_path, change) -> tuple:
    """A copy of the setup tree changed by `change(root)`, beside the setup's lists."""
    path, root, answers, guesses = setup
    doc = orjson.loads(path.read_bytes())
    where = change(doc["root"])
    out = path.parent / f"tampered-{tmp_path.name}.json"
    out.write_bytes(orjson.dumps(doc))
    return out, where


def test_a_swapped_guess_makes_next_and_play_stop(setup, tmp_path):
    path, root, answers, guesses = setup
    key = max(root["next"], key=lambda k: sum(reference.wordle_feedback(root["guess"], a) == k for a in answers))

    def swap(node):
        child = node["next"][key]
        child["guess"] = next(w for w in guesses if w != child["guess"] and w not in answers)
        return f"{node['guess']}:{key}"

    bad, step = tampered(setup, tmp_path, swap)
    left = [a for a in answers if reference.wordle_feedback(root["guess"], a) == key]
    out = rt.run_cli("next", bad, *flags(bad), step)
    rt.assert_one_line_error(out, f"the tree disagrees with the feedback rule at {step}",
                             f"the feedback leaves {len(left)} answers")
    with pytest.raises(UserError, match="disagrees with the feedback rule"):
        lookup(read_tree(bad), [step], *lists(bad))
    rt.assert_one_line_error(rt.run_cli("play", bad, *flags(bad), "--answer", left[0]), "disagrees with the feedback rule")
    out = rt.run_cli("play", bad, *flags(bad), stdin=f"{key}\n")
    assert out.returncode == 1 and "disagrees with the feedback rule" in out.stderr


def test_a_swapped_leaf_is_not_told_as_feedback_that_cannot_occur(setup, tmp_path):
    path, root, answers, guesses = setup
    key = next(k for k, child in root["next"].items() if "next" not in child)

    def swap(node):
        node["next"][key]["guess"] = next(a for a in answers if a != node["next"][key]["guess"])
        return f"{node['guess']}:{key}"

    bad, step = tampered(setup, tmp_path, swap)
    out = rt.run_cli("next", bad, *flags(bad), step)
    rt.assert_one_line_error(out, f"the tree disagrees with the feedback rule at {step}", "missing:")
    assert "cannot occur" not in out.stderr


def test_the_shipped_tree_with_a_swapped_guess(tmp_path):
    """The case found by testing: the guess under salet:BBBBB swapped for another word."""
    assert player.DEFAULT_TREE.is_file(), f"{player.DEFAULT_TREE} is missing: the shipped Wordle tree"
    doc = orjson.loads(player.DEFAULT_TREE.read_bytes())
    doc["root"]["next"]["BBBBB"]["guess"] = "mound"
    bad = tmp_path / "swap.json"
    bad.write_bytes(orjson.dumps(doc))
    out = rt.run_cli("next", bad, "salet:BBBBB")
    rt.assert_one_line_error(out, "the tree disagrees with the feedback rule at salet:BBBBB",
                             "the feedback leaves 221 answers")
    good = rt.run_cli("next", player.DEFAULT_TREE, "salet:BBBBB")
    assert good.returncode == 0 and "221 candidates" in good.stdout


def test_play_with_no_tree_is_the_tarse_tree_named():
    """`play` alone plays today's lists: what it prints after its first line (which says so) is
    what `play wordle-nyt2023-tarse-normal` prints, for the same colours."""
    typed = "BBBBB\n"
    default = rt.run_cli("play", stdin=typed)
    named = rt.run_cli("play", "wordle-nyt2023-tarse-normal", stdin=typed)
    assert default.returncode == named.returncode == 0, default.stderr
    first, *rest = default.stdout.splitlines()
    assert first.startswith("today's Wordle: the NYT lists of 2023") and rest == named.stdout.splitlines()
    assert rest[0].startswith("guess 1: tarse ") and "319 candidates left" in default.stdout
