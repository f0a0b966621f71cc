"""`dordle build --from STEPS` (dordle/player.exact_rest): the rest of a game in progress solved
exactly, checked against the brute force of reference_dordle.py (objectives total and worst, one
board solved, a won game) and against the subtree of the whole-game tree `dordle build -o` writes,
replayed pair by pair; and its errors through the command line."""

import random
import re

import orjson
import pytest
from test_dordle import INF, instance
from test_dordle_player import lists, pattern, run, step  # noqa: F401 (lists: a fixture)

import reference_dordle as ref
from wordtree.dordle.player import exact_rest, position_after
from wordtree.errors import UserError

LINE = re.compile(r"total (\d+) more guesses over (\d+) ordered pairs? left.*, mean ([\d.]+)(?:, worst (\d+) more "
                  r"guess(?:es)? \(\d+ in all, least possible\))?, next guess (\w+) \(exact\), [\d.]+ s, \d+ nodes$")


def pairs_left(position):
    """The position's pairs as reference_dordle writes them (None: a solved board)."""
    S1 = [] if position.solved_at[0] else position.words(0)
    S2 = [] if position.solved_at[1] else position.words(1)
    if not S1:
        return [(None, y) for y in S2]
    if not S2:
        return [(x, None) for x in S1]
    return list(ref.state_pairs(S1, S2))


def random_steps(game, rng, a, b):
    """One to three steps played on the pair (a, b), some solving a board on the way."""
    steps, solved = [], [False, False]
    for _ in range(rng.randint(1, 3)):
        guess = rng.choice([a, b, *rng.sample(game.guesses, 2)])
        steps.append(step(game, guess, a, b, solved))
        solved = [solved[0] or guess == a, solved[1] or guess == b]
        if all(solved):
            break
    return steps


@pytest.mark.parametrize("seed", range(8))
def test_the_rest_is_the_brute_force_optimum(seed):
    game, cap = instance(seed, max_answers=7, max_guesses=12)
    cap = max(cap, 5)
    matrix = game._compute_matrix()
    rng = random.Random(seed)
    for _ in range(4):
        a, b = rng.sample(game.answers, 2)
        steps = random_steps(game, rng, a, b)
        position = position_after(game, matrix, cap, None, steps, seconds=None)
        d = cap - len(steps)
        if position.won:
            rest = exact_rest(position)
            assert (rest.total, rest.pairs, rest.guess, rest.open_boards) == (0, 0, None, 0)
            continue
        pairs = pairs_left(position)
        value = ref.position_value(game, game.guesses, pairs, d)
        if value == INF:
            with pytest.raises(UserError, match="no strategy"):
                exact_rest(position)
            continue
        rest = exact_rest(position)
        assert (rest.total, rest.pairs, rest.guesses_left) == (value, len(pairs), d)
        assert rest.open_boards == (1 if any(position.solved_at) else 2)
        assert ref.guess_cost(game, game.guesses, pairs, rest.guess, d) == value  # the guess reaches it
        # the worst objective: the fewest guesses left for the worst pair, then the least total
        worst, total = min(ref._front(game, tuple(game.guesses), frozenset(pairs), d))
        rest = exact_rest(position_after(game, matrix, cap, None, steps, seconds=None), "worst")
        assert (rest.guesses_left, rest.total) == (worst, total)
        assert min(ref._front(game, tuple(game.guesses), frozenset(pairs), worst)) == (worst, total)


def test_positions_with_one_board_solved_are_covered():
    """Board 2 solved by the first guess: the rest is the single board's optimum."""
    game, cap = instance(3, max_answers=7, max_guesses=12)
    matrix = game._compute_matrix()
    a, b = game.answers[0], game.answers[-1]
    steps = [step(game, b, a, b, [False, False])]
    position = position_after(game, matrix, max(cap, 4), None, steps, seconds=None)
    assert position.solved_at == [0, 1]
    pairs = pairs_left(position)
    rest = exact_rest(position)
    assert rest.open_boards == 1 and rest.pairs == len(pairs)
    assert rest.total == ref.position_value(game, game.guesses, pairs, max(cap, 4) - 1)


def tree_subtotals(game, matrix, doc, a, b, depth):
    """Walk the tree `doc` along the pair (a, b) for up to `depth` guesses; the steps played, and
    the subtree's total over the pairs left there, replayed pair by pair (tree._replay, and
    tree._single for a remainder: the replay `dordle verify` does)."""
    from wordtree.dordle.tree import _replay, _single
    from wordtree.exact.solver import Solver

    cap = doc["max_guesses"]
    solver, win = Solver(game, matrix, cap), game.pattern_text(game.win_code)
    node, steps, played = doc["tree"], [], []
    for _ in range(depth):
        guess = node["guess"]
        steps.append(step(game, guess, a, b, [False, False]))
        played.append(guess)
        node = node["next"][steps[-1].split(":")[1]]
        if "board" in node or a == guess or b == guess:
            break
    d = cap - len(steps)

    def same(x, y):  # (x, y) shows the feedback (a, b) showed along the steps
        return all(pattern(game, g, x, False) == pattern(game, g, a, False) and
                   pattern(game, g, y, False) == pattern(game, g, b, False) for g in played)

    if "board" in node:  # one board solved: the remainder's single-board tree over its answers
        left = [w for w in game.answers if same(*((a, w) if node["board"] == 2 else (w, b)))]
        assert sorted(left) == sorted(node["answers"])
        total = sum(_single(node, w, game, solver, {}, a, b, d) for w in left)
        return steps, total, len(left)
    left = [(x, y) for x in game.answers for y in game.answers if x != y and same(x, y)]
    return steps, sum(_replay(node, x, y, game, solver, {}, win, d) for x, y in left), len(left)


def test_from_is_the_subtree_total_of_the_whole_game_tree(lists, tmp_path, capsys):  # noqa: F811
    from wordtree.games import get_game

    out = tmp_path / "t.json"
    code, _, _ = run(["dordle", "build", *lists, "--max-guesses", "6", "-o", str(out)], capsys)
    assert code == 0
    doc = orjson.loads(out.read_bytes())
    game = get_game("wordle", lists[1], lists[3])
    matrix = game._compute_matrix()
    rng = random.Random(7)
    first = doc["tree"]["guess"]
    pairs = [(first, rng.choice([w for w in game.answers if w != first]))]  # board 1 solved at once
    pairs += [tuple(rng.sample([w for w in game.answers if w != first], 2)) for _ in range(4)]
    remainders = 0
    for (a, b), depth in zip(pairs, (1, 1, 2, 2, 3)):
        steps, total, count = tree_subtotals(game, matrix, doc, a, b, depth)
        if count == 0:
            continue
        code, out_text, err = run(["dordle", "build", *lists, "--max-guesses", "6", "--from", ",".join(steps)], capsys)
        assert code == 0, err
        m = LINE.search(out_text.strip())
        assert m, out_text
        assert (int(m.group(1)), int(m.group(2))) == (total, count), (steps, out_text)
        remainders += "solved)" in out_text
    assert remainders >= 1  # a position with one board solved was among them


def test_cli_worst_and_a_won_game(lists, capsys):  # noqa: F811
    from wordtree.games import get_game

    game = get_game("wordle", lists[1], lists[3])
    a, b = "cover", "purse"
    steps = [step(game, "crony", a, b, [False, False])]
    code, out, _ = run(["dordle", "build", *lists, "--from", steps[0], "--objective", "worst"], capsys)
    m = LINE.search(out.strip())
    assert code == 0 and m and m.group(4) is not None, out
    position = position_after(game, game._compute_matrix(), 7, None, steps, seconds=None)
    pairs = pairs_left(position)
    if len(pairs) <= 12:  # small enough for the brute force
        assert (int(m.group(4)), int(m.group(1))) == min(ref._front(game, tuple(game.guesses), frozenset(pairs), 6))
    won = ",".join([step(game, "cover", a, b, [False, False]), step(game, "purse", a, b, [True, False])])
    code, out, err = run(["dordle", "build", *lists, "--from", won], capsys)
    assert code == 0 and "both boards solved in 2 guesses" in out and err == ""


def test_cli_errors_are_one_line(lists, tmp_path, capsys):  # noqa: F811
    from wordtree.games import get_game

    game = get_game("wordle", lists[1], lists[3])
    a, b = "cover", "purse"
    ok = step(game, "crony", a, b, [False, False])
    win = step(game, "cover", a, b, [False, False])
    cases = [
        (["--from", ok, "-o", str(tmp_path / "x.json")], 2, "-o writes whole-game trees only"),
        (["--from", ok, "--first", "salet"], 2, "--first"),
        (["--from", ","], 2, "--from needs the steps"),
        (["--from", "crony"], 1, "bad step"),
        (["--from", "crony:BBBBB"], 1, "bad step"),
        (["--from", "crony:BBBBB/BBBBB/BBBBB"], 1, "two patterns"),
        (["--from", "crony:GGGGG/BBBBB"], 1, "cannot occur"),  # crony is no answer
        (["--from", f"{win},{ok}"], 1, "was solved at guess 1"),  # colours on a solved board
        (["--from", ",".join([ok] * 3), "--max-guesses", "3"], 1, "no guesses left"),
        (["--from", ",".join([ok] * 4), "--max-guesses", "3"], 1, "allows only 3"),
        # one guess left for more than one pair: proven impossible, as a cap no strategy meets
        (["--from", ",".join([ok] * 2), "--max-guesses", "3"], 3, "within the 1 guess left (proven)"),
    ]
    for extra, want, text in cases:
        code, out, err = run(["dordle", "build", *lists, *extra], capsys)
        assert code == want and out == "" and err.count("\n") == 1 and text in err, (extra, code, err)
        assert "Traceback" not in err
    assert not (tmp_path / "x.json").exists()
