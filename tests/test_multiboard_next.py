"""`next` on the multi-board games plays the sampled player (version 2, its fixed size limits, no
clock): sampled games replayed step by step through MultiPosition (a fresh position each step, as
each `next` call is) get the player's guess at every step; on positions of human-played Quordle
and Octordle games (human openers, then the assistant), the guess is a legal word, and where the
suggestion says it is proven (exact, safe, witness) every tuple of answers the position leaves is
finished within the cap by playing on (checked by playing every such tuple to the end, without
the proofs); a sample split over processes gives the same lengths as one process."""

import itertools
from functools import lru_cache

import numpy as np
import pytest

from wordtree.multiboard import sample
from wordtree.multiboard.player import Player
from wordtree.multiboard.position import MultiPosition
from wordtree.multiboard.spec import load, spec_for

HUMAN = {"quordle": ["salet", "crony", "dumpy"], "octordle": ["salet", "crony", "dumpy", "whisk"]}
MOST_TUPLES = 150  # tuples a proven position is checked on, all of them (a position past it is skipped)


@lru_cache(maxsize=None)
def lists():
    return load(None)


@lru_cache(maxsize=None)
def player():
    game, matrix = lists()
    return Player(game, matrix)


def feedback(game, matrix, g, answers, solved):
    return "/".join("=" * game.length if solved[b] else game.pattern_text(int(matrix[g, a]))
                    for b, a in enumerate(answers))


def test_next_plays_the_sampled_players_guesses():
    game, matrix = lists()
    rules = set()
    # games of seed 1: Quordle's 0 (a fresh player at each step, as a fresh `next` process has), 1, 2
    # and 48, Octordle's 0 and 6 (48 and 6: the guard plays a proven-safe guess)
    for name, picks, fresh in (("quordle", [0], True), ("quordle", [1, 2, 48], False), ("octordle", [0, 6], False)):
        spec = spec_for(name, None, None)
        for answers in sample.draw(len(game.answers), spec.boards, 1, max(picks) + 1)[picks]:
            _, guesses = sample.play_game(Player(game, matrix), answers, spec.cap)
            steps, solved = [], [False] * spec.boards
            for t, g in enumerate(guesses):
                p = MultiPosition(game, matrix, spec, None if fresh else player())
                for step in steps:
                    p.play(*step)
                s = p.suggest()
                assert s.guess == game.guesses[g], (name, answers, t)
                rules.add(s.source)
                steps.append((s.guess, feedback(game, matrix, g, answers, solved)))
                solved = [solved[b] or int(matrix[g, a]) == game.win_code for b, a in enumerate(answers)]
    assert {"heuristic", "safe", "forced"} <= rules  # the guard's rule played, not only the heuristic's


def _tuples(p):
    sets = [p.sets[b] for b in p.open_boards]
    if np.prod([float(len(s)) for s in sets]) > 50 * MOST_TUPLES:
        return None
    every = [t for t in itertools.product(*[s.tolist() for s in sets]) if len(set(t)) == len(t)]
    return every if len(every) <= MOST_TUPLES else None


def _finishes(game, matrix, spec, steps, open_boards, answers_open) -> int:
    """The length of the game the assistant plays on from `steps` against the open boards' answers."""
    p = MultiPosition(game, matrix, spec, player())
    answers = [-1] * spec.boards
    for b, a in zip(open_boards, answers_open):
        answers[b] = a
    for step in steps:
        p.play(*step)
    while not p.won and len(p.steps) < spec.cap:
        s = p.suggest()
        g = game.guess_index[s.guess]
        solved = [bool(x) for x in p.solved_at]
        p.play(s.guess, feedback(game, matrix, g, answers, solved))
    return len(p.steps) if p.won else spec.cap + 1


@pytest.mark.parametrize("name,seed", [("quordle", 3), ("quordle", 4), ("octordle", 3)])
def test_next_on_human_games_is_legal_and_keeps_every_board_finishable(name, seed):
    game, matrix = lists()
    spec = spec_for(name, None, None)
    checked = 0
    for answers in sample.draw(len(game.answers), spec.boards, seed, 6):
        p = MultiPosition(game, matrix, spec, player())
        proven = False
        for word in HUMAN[name]:
            g = game.guess_index[word]
            p.play(word, feedback(game, matrix, g, answers, [bool(x) for x in p.solved_at]))
        while not p.won and len(p.steps) < spec.cap:
            s = p.suggest()
            assert s.guess in game.guess_index and s.guesses_left == spec.cap - len(p.steps)
            if s.source in ("exact", "safe", "witness"):
                proven = True
                every = _tuples(p)
                if every is not None:
                    steps = list(p.steps)
                    g = game.guess_index[s.guess]
                    for t in every:
                        full = list(answers)
                        for b, a in zip(p.open_boards, t):
                            full[b] = a
                        after = steps + [(s.guess, feedback(game, matrix, g, full, [bool(x) for x in p.solved_at]))]
                        assert _finishes(game, matrix, spec, after, p.open_boards, t) <= spec.cap, (t, s)
                    checked += 1
            g = game.guess_index[s.guess]
            p.play(s.guess, feedback(game, matrix, g, answers, [bool(x) for x in p.solved_at]))
        assert p.won or not proven  # (the human's guesses may lose a game the assistant cannot save)
    assert checked >= 1


def test_a_split_sample_is_the_one_process_sample(monkeypatch):
    game, matrix = lists()
    spec = spec_for("quordle", None, None)
    monkeypatch.setattr(sample, "CHUNK", 40)
    one = sample.evaluate(game, matrix, spec, 11, 160)
    split = sample.evaluate(game, matrix, spec, 11, 160, workers=2)
    assert (one["lengths"] == split["lengths"]).all() and one["figures"] == split["figures"]
    assert one["opener"] == split["opener"]


def test_the_shortlists_class_sums_are_the_sorting_ones():
    """player._sumsq (counting, in blocks of rows) against _classes (sorting): the same sums."""
    from wordtree.multiboard.player import _classes, _sumsq

    rng = np.random.default_rng(0)
    for n in (0, 1, 5, 16, 17, 40, 300):
        codes = rng.integers(0, 20, size=(37, n)).astype(np.uint8)
        assert (_sumsq(codes, None, block=5) == _classes(codes)[0]).all(), n
    game, matrix = lists()
    columns = np.arange(0, len(game.answers), 7)
    assert (_sumsq(matrix[:200], columns) == _classes(matrix[:200][:, columns])[0]).all()


def test_a_split_sample_stopped_leaves_no_worker_running(monkeypatch):
    game, matrix = lists()
    spec = spec_for("quordle", None, None)
    monkeypatch.setattr(sample, "CHUNK", 5)
    seen = []

    def stop(done, count):
        seen.append(done)
        raise KeyboardInterrupt

    import multiprocessing

    before = set(multiprocessing.active_children())
    with pytest.raises(KeyboardInterrupt):
        sample.evaluate(game, matrix, spec, 11, 200, progress=stop, workers=2)
    assert len(seen) == 1 and set(multiprocessing.active_children()) <= before
