"""The multi-board endgame (engine/multiboard/endgame.py) against the brute force of
reference_multiboard.py on tiny games: its exact values of one and two boards, its feasibility
proofs (True only where some strategy finishes every tuple within the cap, False only where none
does), and version 2 of the player (every tuple, never better than the optimum; every game won
from a start it proved)."""

import itertools

import numpy as np
import pytest

import reference_multiboard as ref
from test_multiboard import instance
from wordtree.multiboard import sample
from wordtree.multiboard.endgame import Endgame
from wordtree.multiboard.boards import narrow
from wordtree.multiboard.player import Player

DINF = 1 << 56


@pytest.mark.parametrize("seed", [30, 31, 32, 33])
def test_two_boards_exact_is_the_brute_forces(seed):
    game, matrix = instance(seed, answers=(4, 5), extra=(1, 2))
    eg = Endgame(game, matrix)
    n = len(game.answers)
    full = [np.arange(n), np.arange(n)]
    for d in (2, 3, 4):
        value, g, m = eg.exact(full, d)
        want = ref.optimum(game.answers, game.guesses, 2, d)
        assert m == n * (n - 1)
        assert (value >= DINF and want == ref.INF) or value == want, (d, value, want)
        if value < DINF:
            assert eg.cost(full, d, g) == value  # the guess given reaches the value
            assert all(eg.cost(full, d, h) >= value for h in range(len(game.guesses)))


@pytest.mark.parametrize("seed", [40, 41, 42])
def test_one_board_exact_and_its_guess(seed):
    game, matrix = instance(seed, answers=(5, 6), extra=(1, 3))
    eg = Endgame(game, matrix)
    S = np.arange(len(game.answers))
    for d in (2, 3, 4):
        value, g, _ = eg.exact([S], d)
        want = ref.optimum(game.answers, game.guesses, 1, d)
        assert (value >= DINF and want == ref.INF) or value == want
        if value < DINF:
            costs = [eg.cost([S], d, h) for h in range(len(game.guesses))]
            assert costs[g] == value == min(costs)
            # the fixed order: the answers by index first, then the other guesses
            first = next(h for h in [int(x) for x in game.answer_guess_ids] + list(range(len(game.guesses)))
                         if costs[h] == value)
            assert g == first


def _states(game, matrix, k, rng, count):
    """Random states of k boards reached by random guesses against random tuples."""
    n = len(game.answers)
    out = []
    for _ in range(count):
        answers = rng.sample(range(n), k)
        sets = [np.arange(n) for _ in range(k)]
        open_ = list(range(k))
        for _ in range(rng.randint(0, 2)):
            g = rng.randrange(len(game.guesses))
            for b in list(open_):
                code = matrix[g, answers[b]]
                sets[b] = sets[b][matrix[g, sets[b]] == code]
                if code == game.win_code:
                    open_.remove(b)
            sets = narrow(sets)
        if open_:
            out.append(([sets[b] for b in open_], [game.answers[answers[b]] for b in open_]))
    return out


def _brute_feasible(game, sets, d):
    """Whether some strategy finishes every tuple of the state within d (the brute force on the
    state's own answers: a tuple of the sets, all different)."""
    tuples = [t for t in itertools.product(*[s.tolist() for s in sets]) if len(set(t)) == len(t)]

    def total(games, d):  # games: (tuple, solved boards)
        if d == 0:
            return ref.INF
        best = ref.INF
        for g in game.guesses:
            groups = {}
            for t, solved in games:
                key = tuple("=" if b in solved else ref.colours(g, game.answers[a]) for b, a in enumerate(t))
                now = solved | {b for b, a in enumerate(t) if game.answers[a] == g}
                groups.setdefault(key, []).append((t, frozenset(now)))
            cost = len(games)
            for group in groups.values():
                if len(group[0][1]) < len(sets):
                    cost += total(group, d - 1)
                    if cost >= ref.INF:
                        break
            best = min(best, cost)
        return best

    return total([(t, frozenset()) for t in tuples], d) < ref.INF


@pytest.mark.parametrize("seed,k", [(50, 2), (51, 3), (52, 3), (53, 2)])
def test_the_proofs_agree_with_the_brute_force(seed, k):
    import random

    rng = random.Random(seed)
    game, matrix = instance(seed, answers=(5, 6), extra=(1, 2))
    player = Player(game, matrix)
    eg = player.endgame
    said = {True: 0, False: 0}
    for sets, _ in _states(game, matrix, k, rng, 8):
        for d in range(len(sets), len(sets) + 3):
            eg.new_game()
            eg.begin()
            got = eg.feasible(sets, d)
            if got is None:
                continue
            said[got] += 1
            assert got == _brute_feasible(game, sets, d), ([s.tolist() for s in sets], d)
            if got:
                w = eg.witness(sets, d)
                assert w is not None and eg.safe(sets, d, w)
    assert said[True] >= 3  # (and every False said was checked too)


@pytest.mark.parametrize("seed,k,cap", [(60, 2, 4), (61, 3, 5), (62, 3, 6)])
def test_player_two_over_every_tuple(seed, k, cap):
    game, matrix = instance(seed, answers=(5, 6), extra=(1, 3))
    n = len(game.answers)
    player = Player(game, matrix)
    lengths = [sample.play_game(player, np.array(t), cap)[0] for t in sample.every_tuple(n, k)]
    optimum, _ = __import__("wordtree.multiboard.exact", fromlist=["optimum"]).optimum(matrix, game.win_code, k, cap)
    assert sum(lengths) >= optimum
    player.new_game()
    player.endgame.begin()
    if player.endgame.feasible([np.arange(n)] * k, cap):  # proven at the start: every game won
        assert max(lengths) <= cap
    again = [sample.play_game(Player(game, matrix), np.array(t), cap)[0] for t in sample.every_tuple(n, k)]
    assert again == lengths  # a fresh player plays the same games (no memory of earlier ones)
