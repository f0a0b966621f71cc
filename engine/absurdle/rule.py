"""Absurdle's adversary, in plain Python: which bucket of answers it keeps after a guess.

Absurdle (qntm, 2022) picks no answer. After each guess it sorts the answers still possible into
buckets by the feedback each would give and keeps the largest bucket, answering with that
bucket's feedback; the player wins by guessing the only answer left. Where buckets of the
largest size tie, two rules are played here:

- `qntm`: the bucket whose feedback tells least: fewest greens, then fewest yellows (the order
  the published reimplementations of Absurdle apply, m1el/absurdle-solver among them), then the
  feedback read from the first letter on with grey before yellow before green. Deterministic:
  the same guesses always meet the same replies, and a winning line is a list of guesses.
- `any`: the adversary may keep any of the largest buckets (but the win, all green, while
  another is as large: answering it would end the game at once). A result under this rule holds for
  every tie-break, qntm's own included, whatever order it takes past fewest greens and yellows.

The kernels (kernels.py) take the same order as `rank`; the verifier (document.py) replays lines
with `keep` below and its own feedback (wordle.rules), not with the kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..wordle.rules import wordle_text


@dataclass(frozen=True)
class Rule:
    name: str
    summary: str
    fixed: bool  # one bucket by the order (True) or any of the largest (False)


RULES: dict[str, Rule] = {
    "qntm": Rule("qntm", "largest bucket; ties: fewest greens, then fewest yellows, then the feedback "
                         "read left to right with grey < yellow < green", True),
    "any": Rule("any", "largest bucket; ties: any of them (a result holds for every tie-break)", False),
}
DEFAULT_RULE = "qntm"


def order_key(pattern: str) -> tuple:
    """The adversary's preference among buckets of equal size, lower first: (greens, yellows,
    the colours left to right with B < Y < G)."""
    return (pattern.count("G"), pattern.count("Y"), tuple("BYG".index(ch) for ch in pattern))


def buckets(guess: str, answers) -> dict[str, list[str]]:
    """The answers by the feedback each gives `guess`, in the answers' order."""
    out: dict[str, list[str]] = {}
    for answer in answers:
        out.setdefault(wordle_text(guess, answer), []).append(answer)
    return out


def replies(rule: Rule, guess: str, answers) -> list[tuple[str, list[str]]]:
    """What the adversary may answer `guess` with on `answers`: (feedback, the answers it keeps),
    one pair under a fixed rule, every largest bucket (by the order) under `any`."""
    groups = buckets(guess, answers)
    size = max(len(group) for group in groups.values())
    largest = sorted((pattern for pattern, group in groups.items() if len(group) == size), key=order_key)
    if not rule.fixed and len(largest) > 1:
        largest = [p for p in largest if p != "G" * len(guess)]  # it never answers a win while it can go on
    chosen = largest[:1] if rule.fixed else largest
    return [(pattern, groups[pattern]) for pattern in chosen]


def code_rank(length: int):
    """`order_key` for the kernels: rank[code] for the codes 0 .. 3**length - 1 (a code's colour
    at letter i is its base-3 digit i: 0 grey, 1 yellow, 2 green)."""
    import numpy as np

    codes = range(3 ** length)
    patterns = ["".join("BYG"[(code // 3 ** i) % 3] for i in range(length)) for code in codes]
    order = sorted(codes, key=lambda code: order_key(patterns[code]))
    rank = np.empty(3 ** length, np.int64)
    rank[order] = np.arange(3 ** length)
    return rank
