"""Absurdle by brute force, in plain Python and apart from engine/absurdle: the adversary keeps
the largest bucket (ties: fewest greens, then fewest yellows, then the colours left to right,
grey first; or any largest bucket but a win), and the fewest guesses that always win are found by trying
every guess at every set, with no pruning."""

from __future__ import annotations

from functools import lru_cache


def colours(guess: str, answer: str) -> str:
    out = ["B"] * len(guess)
    rest = list(answer)
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            out[i] = "G"
            rest[i] = None
    for i, g in enumerate(guess):
        if out[i] == "B" and g in rest:
            out[i] = "Y"
            rest[rest.index(g)] = None
    return "".join(out)


def kept(guess: str, answers: tuple[str, ...], any_tie: bool) -> list[tuple[str, tuple[str, ...]]]:
    groups: dict[str, list[str]] = {}
    for a in answers:
        groups.setdefault(colours(guess, a), []).append(a)
    size = max(len(v) for v in groups.values())
    tied = [p for p, v in groups.items() if len(v) == size]
    tied.sort(key=lambda p: (p.count("G"), p.count("Y"), ["BYG".index(c) for c in p]))
    if len(tied) > 1:  # the adversary never answers a win while it can go on
        tied = [p for p in tied if p != "G" * len(guess)]
    return [(p, tuple(groups[p])) for p in (tied if any_tie else tied[:1])]


def solver(guesses: tuple[str, ...], any_tie: bool, most: int = 6):
    """wins(S): the fewest guesses that always win from S (None beyond `most`)."""

    @lru_cache(maxsize=None)
    def wins(S: tuple[str, ...], budget: int):
        if len(S) == 1:
            return 1
        if budget <= 1:
            return None
        best = None
        for g in guesses:
            worst = 0
            for _, B in kept(g, S, any_tie):
                w = wins(B, budget - 1)
                if w is None:
                    worst = None
                    break
                worst = max(worst, w)
            if worst is not None and (best is None or 1 + worst < best):
                best = 1 + worst
        return best

    return lambda S: wins(tuple(S), most)


def opener_wins(guesses, answers, any_tie: bool, most: int = 6) -> dict[str, int | None]:
    """Every opener's fewest guesses that always win, the opener counted."""
    wins = solver(tuple(guesses), any_tie, most)
    out = {}
    for g in guesses:
        worst = 0
        for _, B in kept(g, tuple(answers), any_tie):
            w = wins(B)
            if w is None:
                worst = None
                break
            worst = max(worst, w)
        out[g] = None if worst is None else 1 + worst
    return out


def challenge_brute(guesses, answers, most: int) -> dict[str, int | None]:
    """The challenge mode by brute force: every sequence of at most `most` guesses played against
    the qntm adversary (`kept`), no pruning but that a one-answer bucket ends the line (the
    adversary then keeps it whatever is guessed, and guessing it wins); a target's fewest guesses
    is the shortest sequence that leaves it alone, plus one for guessing it (None: none within
    `most`)."""
    best: dict[str, int | None] = {a: None for a in answers}
    frontier = [tuple(answers)]
    for k in range(1, most + 1):
        nxt = []
        for S in frontier:
            for g in guesses:
                (_, B), = kept(g, S, False)
                if len(B) == 1:
                    if best[B[0]] is None:
                        best[B[0]] = k + 1
                else:
                    nxt.append(B)
        frontier = nxt
    return best


def challenge_replay(guesses_played, answers) -> str | None:
    """The answer the qntm adversary ends on after the guesses played, each answered with `kept`
    (None where the last guess does not win: it is not the one answer left)."""
    left = tuple(answers)
    for i, g in enumerate(guesses_played):
        if left == (g,):
            return g if i == len(guesses_played) - 1 else None
        if len(left) == 1:
            return None  # another answer is cornered: it can no longer end on the target
        (_, left), = kept(g, left, False)
    return None
