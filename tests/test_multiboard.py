"""Multi-board games (Quordle and beyond): the narrowing of the boards (the answers differ)
against the tuples listed, the exact optimum of tiny games against the brute force of
reference_multiboard.py, the lower bounds against that optimum, the grid reader, the
position's refusals, the sample's document and its verifier (damaged documents too), the
shipped measurement, and the commands."""

import json
import random
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

import reference_multiboard as ref
from wordtree.errors import UserError
from wordtree.games import get_game
from wordtree.games.wordle import Wordle
from wordtree.multiboard import document, exact, lower, sample
from wordtree.multiboard.boards import Inconsistent, narrow
from wordtree.multiboard.player import Player
from wordtree.multiboard.position import MultiPosition, grid_feedback
from wordtree.multiboard.spec import spec_for
from wordtree.words import WordList, canonical_sha256

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_MULTIBOARD = sorted((ROOT / "trees" / "multiboard").glob("*.json"))


def word_list(name, words):
    return WordList(name, name, tuple(words), canonical_sha256(words))


@lru_cache(maxsize=None)
def wordle():
    return get_game("wordle")


def instance(seed, answers=(4, 6), extra=(1, 3)):
    """A tiny game: answers near a random word, a few other guesses."""
    rng = random.Random(seed)
    game = wordle()
    centre = rng.choice(game.answers)
    near = sorted(game.answers, key=lambda w: (-sum(x == y for x, y in zip(w, centre)), rng.random()))
    chosen = sorted(near[: rng.randint(*answers)])
    guesses = sorted(set(rng.sample(game.guesses, rng.randint(*extra))) | set(chosen))
    tiny = Wordle("wordle", word_list("answers", chosen), word_list("guesses", guesses))
    return tiny, tiny._compute_matrix()


# --- the narrowing -------------------------------------------------------------------------------

def test_narrow_keeps_exactly_the_answers_some_tuple_uses():
    rng = random.Random(5)
    checked = 0
    for trial in range(300):
        n, k = rng.randint(2, 7), rng.randint(2, 5)
        sets = [np.array(sorted(rng.sample(range(n), rng.randint(1, n))), dtype=np.int64) for _ in range(k)]
        fits = [set() for _ in range(k)]
        for t in __import__("itertools").product(*[s.tolist() for s in sets]):
            if len(set(t)) == k:
                for b in range(k):
                    fits[b].add(t[b])
        if not fits[0]:
            with pytest.raises(Inconsistent):
                narrow(sets)
            continue
        got = narrow(sets)
        assert [set(s.tolist()) for s in got] == fits, (sets, got)
        checked += sum(len(s) for s in sets) - sum(len(f) for f in fits)
    assert checked > 20  # the narrowing dropped answers in many trials


def test_the_single_boards_shortcut_is_the_matchings_answer():
    """narrow's shortcuts (single boards taking their answers, the sizes that settle the rest)
    against the matching alone, on many boards with some solved, as late in a Duotrigordle."""
    from wordtree.multiboard.boards import _narrow_by_matching, _take_singles

    rng = random.Random(11)
    settled = unsettled = inconsistent = 0
    for trial in range(600):
        k, n = rng.randint(2, 32), rng.randint(8, 60)
        sets = []
        for _ in range(k):
            size = 1 if rng.random() < 0.4 else rng.randint(1, rng.choice((3, 6, n)))
            sets.append(np.array(sorted(rng.sample(range(n), min(size, n))), dtype=np.int64))
        try:
            want = [s.tolist() for s in _narrow_by_matching(sets)]
        except Inconsistent:
            inconsistent += 1
            with pytest.raises(Inconsistent):
                narrow(sets)
            continue
        assert [s.tolist() for s in narrow(sets)] == want, sets
        _, quick = _take_singles(sets)
        settled += quick
        unsettled += not quick
    assert min(settled, unsettled, inconsistent) > 20  # each way through was taken


def test_the_position_narrows_as_the_tuples_listed_say():
    for seed in range(6):
        game, matrix = instance(seed)
        k = 3
        rng = random.Random(seed)
        answers = rng.sample(game.answers, k)
        position = MultiPosition(game, matrix, spec_for("multiboard", k, 8))
        steps = []
        for guess in rng.sample(game.guesses, 2):
            if position.won:
                break
            patterns = ["=" * 5 if position.solved_at[b] else ref.colours(guess, a) for b, a in enumerate(answers)]
            position.play(guess, "/".join(patterns))
            steps.append((guess, patterns))
            want = ref.possible(game.answers, k, steps)
            got = [set(game.answers[a] for a in position.sets[b]) for b in range(k)]
            assert got == want


# --- the exact optimum and the bounds -------------------------------------------------------------

@pytest.mark.parametrize("seed,k", [(0, 2), (1, 2), (2, 2), (3, 3), (4, 3), (5, 2)])
def test_the_exact_optimum_is_the_brute_forces(seed, k):
    game, matrix = instance(seed, answers=(4, 5), extra=(1, 2))
    for cap in (k + 1, k + 2):
        total, first = exact.optimum(matrix, game.win_code, k, cap)
        want = ref.optimum(game.answers, game.guesses, k, cap)
        assert total == want, (game.answers, game.guesses, k, cap)
        if total < exact.INF:
            assert first is not None


def test_a_cap_too_small_has_no_strategy():
    game, matrix = instance(7, answers=(5, 5), extra=(1, 1))
    total, _ = exact.optimum(matrix, game.win_code, 2, 2)
    assert total == exact.INF == ref.optimum(game.answers, game.guesses, 2, 2)


@pytest.mark.parametrize("seed,k", [(s, k) for s in range(10, 16) for k in (2, 3)])
def test_the_lower_bounds_hold_on_small_games(seed, k):
    game, matrix = instance(seed, answers=(4, 6), extra=(1, 3))
    total, _ = exact.optimum(matrix, game.win_code, k, 2 * k + 4)
    mean = total / sample.every_tuple_count(len(game.answers), k)
    bound = lower.lower_bound(game, matrix, k)
    assert k <= bound["mean"] <= mean + 1e-9
    assert bound["waste"] <= mean + 1e-9 and bound["projection"] <= mean + 1e-9


def test_most_classes_and_the_counting_mean():
    game, matrix = instance(3)
    plain = max(len({ref.colours(g, a) for a in game.answers} - {"GGGGG"}) for g in game.guesses)
    assert lower.most_classes(matrix, game.win_code) == plain
    assert lower.counting_mean(1, 243) == 1 and lower.counting_mean(3, 243) == (1 + 2 + 2) / 3
    assert lower.counting_mean(244, 3) == (1 + 2 * 2 + 3 * 4 + 4 * 8 + 5 * 16 + 6 * 32 + 7 * 64 + 8 * 117) / 244


def test_the_waste_bound_on_the_full_lists():
    b = lower.lower_bound(wordle(), _wordle_matrix(), 4)
    assert b["most_classes"] == max(len({wordle().feedback(g, a) for a in wordle().answers} - {242})
                                    for g in ("trace", "salet", "crate", "slate"))
    assert 5 < b["mean"] == b["waste"] < 6


@lru_cache(maxsize=None)
def _wordle_matrix():
    from wordtree.wordle.patterns import pattern_matrix

    return pattern_matrix(wordle()).matrix


# --- the grid ------------------------------------------------------------------------------------

G, Y, W, K_ = "\U0001f7e9", "\U0001f7e8", "\u2b1c", "\u2b1b"


def test_the_grid_reads_as_the_steps():
    grid = "\n".join([
        "Daily Quordle 1000", "4\ufe0f\u20e33\ufe0f\u20e3", "5\ufe0f\u20e36\ufe0f\u20e3", "m-w.com/games/quordle/",
        W * 4 + Y + " " + W * 5,
        G * 2 + W * 3 + " " + Y + W * 4,
        G * 5 + " " + G * 5,
        K_ * 5 + " " + K_ * 5,
        "",
        W * 5 + " " + W * 5,
        W * 5 + " " + G * 5,
        G + W * 4 + " " + K_ * 5,
        G * 5 + " " + K_ * 5,
    ])
    rows = grid_feedback(grid, 4, 5, 4)
    assert rows == ["BBBBY/BBBBB/BBBBB/BBBBB", "GGBBB/YBBBB/BBBBB/GGGGG", "GGGGG/GGGGG/GBBBB/=====",
                    "=====/=====/GGGGG/====="]
    with pytest.raises(UserError, match="shows 4 boards, the game has 8"):
        grid_feedback(grid, 8, 5, 4)
    with pytest.raises(UserError, match="4 guesses before it ends; 3 were given"):
        grid_feedback(grid, 4, 5, 3)
    with pytest.raises(UserError, match="not a whole number"):
        grid_feedback(G * 4 + "\n", 1, 5, 1)
    with pytest.raises(UserError, match="colours after the row that solved it"):
        grid_feedback(G * 5 + " " + W * 5 + "\n" + Y * 5 + " " + G * 5, 2, 5, 2)
    with pytest.raises(UserError, match="not solved"):
        grid_feedback(W * 5 + " " + G * 5, 2, 5, 2)


# --- the position's refusals ---------------------------------------------------------------------

def test_a_position_refuses_feedback_the_game_cannot_show():
    game, matrix = wordle(), _wordle_matrix()
    p = MultiPosition(game, matrix, spec_for("quordle"))
    with pytest.raises(UserError, match="expected 4 patterns"):
        p.play("salet", "BBBBB/BBBBB")
    with pytest.raises(UserError, match="board 2 is not solved"):
        p.play("salet", "BBBBB/=====/BBBBB/BBBBB")
    with pytest.raises(UserError, match="one guess cannot solve two boards"):
        p.play("salet", "GGGGG/GGGGG/BBBBB/BBBBB")
    p.play("abbey", "GGGGG/BBBBB/BBBBB/BBBBB")
    with pytest.raises(UserError, match="board 1 was solved at guess 1"):
        p.play("crane", "BBBBB/BBBBB/BBBBB/BBBBB")
    with pytest.raises(UserError, match="no answer left on it gives it"):
        p.play("abbey", "=====/GGGGG/BBBBB/BBBBB")  # abbey is board 1's: no other board has it
    p2 = MultiPosition(game, matrix, spec_for("multiboard", 2, 7))
    p2.play("abbey", "GGGGG/BBBBB")
    assert "abbey" not in p2.words(1) and p2.words(0) == []
    s = p2.suggest()
    assert s.source == "heuristic" and s.note and "heuristic" in s.note
    with pytest.raises(UserError, match="quordle is played on 4 boards, not 5"):
        spec_for("quordle", 5)
    with pytest.raises(UserError, match="need at least 4 guesses"):
        spec_for("multiboard", 4, 3)


def test_a_board_with_one_answer_left_is_guessed():
    game, matrix = instance(2, answers=(6, 6))
    p = MultiPosition(game, matrix, spec_for("multiboard", 3, 7))  # three boards open: no exact search
    guess, a = next((g, x) for g in game.guesses for x in game.answers if x != g and
                    [ref.colours(g, y) for y in game.answers].count(ref.colours(g, x)) == 1)
    b, c = [y for y in game.answers if y not in (a, guess)][:2]
    p.play(guess, "/".join(ref.colours(guess, x) for x in (a, b, c)))
    assert p.words(0) == [a]
    s = p.suggest()
    assert s.source == "forced" and s.guess == a


@pytest.mark.parametrize("seed", [20, 21, 22])
def test_two_boards_or_one_left_are_solved_exactly(seed):
    """Two boards left: the Dordle engine's exact value, the brute force's optimum over the
    pairs; one board left: the single-board optimum, the brute force's with one board."""
    game, matrix = instance(seed, answers=(4, 5), extra=(1, 2))
    n = len(game.answers)
    p = MultiPosition(game, matrix, spec_for("multiboard", 2, 4))
    s = p.suggest()
    assert s.source == "exact" and not s.as_json()["heuristic"]
    assert round(s.expected * n * (n - 1)) == ref.optimum(game.answers, game.guesses, 2, 4)
    a, b = game.answers[0], game.answers[1]
    p.play(a, f"GGGGG/{ref.colours(a, b)}")
    left = [w for w in game.answers if w != a and ref.colours(a, w) == ref.colours(a, b)]
    s = p.suggest()
    if len(left) > 1:
        assert s.source == "exact"
        assert round(s.expected * len(left)) == ref.optimum(left, game.guesses, 1, 3)
    else:
        assert s.source == "forced" and s.guess == b


# --- the sample and its document ------------------------------------------------------------------

def test_the_draw_is_reproducible_and_uniform_in_shape():
    one, two = sample.draw(50, 4, 9, 300), sample.draw(50, 4, 9, 300)
    assert (one == two).all() and one.shape == (300, 4)
    assert all(len(set(row)) == 4 for row in one.tolist())
    assert not (one == sample.draw(50, 4, 10, 300)).all()


def _every_doc(seed=3, k=2):
    game, matrix = instance(seed, answers=(5, 6), extra=(2, 4))
    spec = spec_for("multiboard", k, k + 4)
    result = sample.evaluate(game, matrix, spec, None, None)
    return game, matrix, document.build_document(game, spec, result, None, lower.lower_bound(game, matrix, k))


def test_every_tuple_is_played_and_the_document_verifies():
    game, matrix, doc = _every_doc()
    n = len(game.answers)
    assert doc["results"]["games"] == n * (n - 1) and doc["results"]["exact"] is True
    assert "heuristic" in doc["label"] and doc["player"]["heuristic"] is True
    document.check(doc)
    assert document.verify(doc, game, matrix, None) == []
    total, _ = exact.optimum(matrix, game.win_code, 2, 6)
    assert doc["results"]["total"] >= total  # the player is no better than the optimum
    assert doc["lower_bound"]["mean"] <= total / (n * (n - 1)) + 1e-9


def test_the_player_matches_the_plain_game_on_every_tuple():
    """Each game of the player, replayed by hand with the plain colours: its guesses end the
    game when every board has been guessed, and the boards' answers are the guesses that won."""
    game, matrix = instance(8, answers=(5, 6))
    player = Player(game, matrix)
    for t in sample.every_tuple(len(game.answers), 2):
        length, played = sample.play_game(player, np.array(t), 8)
        words = [game.guesses[g] for g in played]
        solved_at = [words.index(game.answers[a]) + 1 for a in t]
        assert max(solved_at) == length == len(words)


def test_a_damaged_document_fails_to_verify():
    game, matrix, doc = _every_doc(4)
    bad = dict(doc, lengths=("9" if doc["lengths"][0] != "9" else "8") + doc["lengths"][1:])
    assert any("results." in p for p in document.verify(bad, game, matrix, None))
    bad = dict(doc, results=dict(doc["results"], mean=1.0))
    assert any("results.mean" in p for p in document.verify(bad, game, matrix, None))
    lengths = list(doc["lengths"])
    i = next(i for i, ch in enumerate(lengths) if ch != "9")
    lengths[i] = sample.ALPHABET[sample.ALPHABET.index(lengths[i]) + 1]
    fake = dict(doc, lengths="".join(lengths))
    fake["results"] = sample.figures(sample.decode(fake["lengths"]), 6, True)
    assert any(f"game {i}" in p for p in document.verify(fake, game, matrix, None))
    bad = dict(doc, game=dict(doc["game"], answers_count=2315))
    assert any("game.answers_count" in p for p in document.verify(bad, game, matrix, None))
    bad = dict(doc, lower_bound=dict(doc["lower_bound"], mean=9.0))
    assert any("lower_bound" in p for p in document.verify(bad, game, matrix, None))
    for broken, message in ((dict(doc, format="x"), "not a"), (dict(doc, lengths="xyz!"), "lengths"),
                            (dict(doc, player=dict(doc["player"], heuristic=False)), "heuristic"),
                            (dict(doc, game=dict(doc["game"], boards=1)), "boards"),
                            (dict(doc, game=dict(doc["game"], preset="quordle")), "not the game of 2 boards")):
        with pytest.raises(UserError, match=message):
            document.check(broken)


@pytest.mark.parametrize("path", SHIPPED_MULTIBOARD, ids=lambda p: p.name)
def test_the_shipped_measurements_verify(path):
    doc = document.read(path)
    game = document.game_of(doc)
    assert document.verify(doc, game, _wordle_matrix(), 40, seed=1) == []
    assert doc["sample"]["kind"] == "sample" and doc["sample"]["games"] >= 1000


@pytest.mark.parametrize("name, boards, cap", [("quordle", 4, 9), ("octordle", 8, 13), ("sedecordle", 16, 21),
                                               ("duotrigordle", 32, 37)])
def test_the_measurement_is_shipped_with_100000_games(name, boards, cap):
    path = ROOT / "trees" / "multiboard" / f"{name}-sample.json"
    doc = document.read(path)  # missing: fails, never skips
    assert doc["sample"]["games"] >= 100_000 and doc["game"]["boards"] == boards and doc["game"]["max_guesses"] == cap


# --- the commands --------------------------------------------------------------------------------

def cli(*args, stdin=None):
    out = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                         input=stdin, cwd=ROOT)
    return out.returncode, out.stdout, out.stderr


def _lists(tmp_path, seed=3):
    game, _ = instance(seed, answers=(5, 5), extra=(2, 3))
    (tmp_path / "a.txt").write_text("\n".join(game.answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(game.guesses) + "\n")
    return game, ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]


def test_build_optimum_every_and_bound_on_a_small_list(tmp_path):
    game, lists = _lists(tmp_path)
    code, out, err = cli("build", "multiboard", "--boards", "2", *lists, "--max-guesses", "4", "--optimum", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["total"] == ref.optimum(game.answers, game.guesses, 2, 4) and got["optimal"] is True
    code, out, err = cli("build", "multiboard", "--boards", "2", *lists, "--every", "--quiet", "-o",
                         str(tmp_path / "m.json"))
    assert code == 0, err
    assert "heuristic player (not proven optimal)" in out and "exact for this player" in out
    code, out, err = cli("verify", str(tmp_path / "m.json"), *lists)
    assert code == 0 and out.startswith("ok:"), out + err
    code, out, err = cli("build", "multiboard", "--boards", "2", *lists, "--bound", "--json")
    assert code == 0 and json.loads(out)["lower_bound"]["mean"] >= 2
    code, _, err = cli("build", "multiboard", "--boards", "2", *lists, "--max-guesses", "2", "--optimum")
    assert code == 3 and "no strategy finishes every tuple within 2 guesses" in err


def test_the_commands_refuse_what_does_not_fit(tmp_path):
    _, lists = _lists(tmp_path)
    code, _, err = cli("build", "multiboard", *lists, "--bound")
    assert code == 2 and "--boards K" in err and "Traceback" not in err
    code, _, err = cli("build", "quordle", "--boards", "5", "--bound")
    assert code == 2 and "4 boards, not 5" in err
    code, _, err = cli("build", "multiboard", "--boards", "2", *lists, "--bound", "--optimum")
    assert code == 2
    code, _, err = cli("build", "multiboard", "--boards", "2", *lists, "--every", "--seed", "3")
    assert code == 2 and "--samples, --seed and --workers are for a sample; --every draws none" in err
    code, _, err = cli("grade", "--game", "quordle", "crane")
    assert code == 2 and "expected GUESS:P1/P2/.../PK" in err and err.count("\n") == 1
    code, _, err = cli("play", "--boards", "2", *lists, "--grid", "-", stdin="")
    assert code == 2 and "--grid" in err
    code, _, err = cli("next", "--game", "quordle", "--seconds", "3", "salet:BBBBB/BBBBB/BBBBB/BBBBB")
    assert code == 2 and "--seconds is for a Dordle position" in err
    code, _, err = cli("next", "--boards", "2", *lists, "--grid", str(tmp_path / "nope.txt"), "x")
    assert code == 1 and "Traceback" not in err and err.count("\n") == 1


def test_next_candidates_and_play_on_a_small_list(tmp_path):
    game, lists = _lists(tmp_path)
    a, b = game.answers[1], game.answers[2]
    g = next(w for w in game.guesses if w not in (a, b))
    step = f"{g}:{ref.colours(g, a)}/{ref.colours(g, b)}"
    code, out, err = cli("next", "--boards", "2", *lists, step, "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["source"] == "exact" and got["heuristic"] is False and got["guess"] in game.guesses
    want = ref.possible(game.answers, 2, [(g, [ref.colours(g, a), ref.colours(g, b)])])
    code, out, err = cli("candidates", "--boards", "2", *lists, step, "--json")
    assert code == 0 and [set(x["words"]) for x in json.loads(out)] == want
    grid = "\n".join(" ".join(ref.colours(g, x).replace("B", W).replace("Y", Y).replace("G", G) for x in (a, b))
                     for _ in [0])
    code, out2, err = cli("candidates", "--boards", "2", *lists, "--grid", "-", g, "--json", stdin=grid)
    assert code == 0 and json.loads(out2) == json.loads(out), err
    # play: the assistant's guesses answered with the colours of (a, b) until both are solved
    lines = []
    position = MultiPosition(game, game._compute_matrix(), spec_for("multiboard", 2, 7))
    while not position.won:
        guess = position.suggest().guess
        fb = "/".join("=====" if position.solved_at[i] else ref.colours(guess, x) for i, x in enumerate((a, b)))
        position.play(guess, fb)
        lines.append(fb)
    code, out, err = cli("play", "--boards", "2", *lists, stdin="\n".join(lines) + "\n")
    assert code == 0 and f"solved every board in {len(lines)}" in out, out + err


def test_next_on_quordle_says_its_guess_is_a_heuristics():
    code, out, err = cli("next", "--game", "quordle", "salet:BBYBB/GBBBB/BBBBB/BYBBB")
    assert code == 0, err
    assert "heuristic" in out and out.count("board ") == 4
    code, out, err = cli("next", "--game", "quordle", "crane:GGGGG/BBBGB/BBBYB/BBBBY", "salet:=====/BBBBB/GBBBB/BBYYG",
                         "pound:=====/GGGGG/BYBYB/BBBBY")  # boards 3 and 4 left, board 4 known: guessed first
    assert code == 0 and out.startswith("dwelt  (a board with one answer left: 2 boards open"), out + err
    code, out, err = cli("next", "--game", "quordle", "crane:GGGGG/BBBGB/BBBYB/BBBBY", "salet:=====/BBBBB/GBBBB/BBYYG",
                         "pound:=====/GGGGG/BYBYB/BBBBY", "dwelt:=====/=====/BYBBB/GGGGG")  # one board left: shown or snowy
    assert code == 0 and "shown  (exact, 1.5 guesses expected: 1 board open" in out, out + err
