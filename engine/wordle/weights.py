"""Answer weights for the Wordle family: the file, its fingerprint, and a tree's weighted total.

A weights file has one `word weight` line per word (tab or spaces between them), the weight a
whole number from 1 to MAX_WEIGHT; blank lines and lines starting with `#` are skipped. Every
answer of the game needs a weight. A word that is an allowed guess but not an answer is skipped
(so one file over the allowed list serves every answer list drawn from it); a word the game does
not know at all, a word listed twice, a weight of 0 or less or not a whole number are each
refused with one line naming the file and line. Weight 0 is refused on purpose: an answer that
can never be chosen belongs out of the answer list, and a zero weight would let a tree leave it
anywhere within the cap.

The fingerprint is the sha256 of the canonical text: the answers' `word weight` lines sorted by
word, LF-ended (UTF-8), so that the order, spacing and extra words of a file do not change it;
with it a tree records the total weight. Pure Python: the verifier and the lookups use it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError
from ..files import read_bounded
from ..words import LIST_MAX_BYTES, shipped_list

MAX_WEIGHT = 10**9  # (the search keeps totals in int64, far below 2**56 with the caps it takes)
SHIPPED_WEIGHTS = "nyt-allowed-14855-frequency-weights.tsv"  # wordlists/README.md says how it was made


@dataclass(frozen=True)
class Weights:
    """The weight of each answer, in the game's answer order, and what identifies them."""

    file: str  # the file's bare name, as a tree records it
    values: tuple[int, ...]
    sha256: str

    @property
    def total(self) -> int:
        return sum(self.values)

    def record(self) -> dict:
        """What a tree file records of them (stats.weights)."""
        return {"file": self.file, "sha256": self.sha256, "total_weight": self.total, "answers": len(self.values)}


def fingerprint(pairs) -> str:
    """The canonical sha256 of (word, weight) pairs: sorted `word weight` lines, LF-ended."""
    text = "".join(f"{w} {int(v)}\n" for w, v in sorted(pairs))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_weights(raw: bytes, name: str, answers, guesses, normal=lambda w: w.strip().lower()) -> Weights:
    """The weights of `answers` read from a file's bytes (`name` for messages): see the module."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{name}: the weights file is not UTF-8") from None
    answer_set, known = set(answers), set(guesses) | set(answers)
    found: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        parts = stripped.split()
        if len(parts) != 2:
            raise UserError(f"{name}:{lineno}: expected 'word weight', got {stripped[:60]!r}")
        word, value = normal(parts[0]), parts[1]
        if not (value.isascii() and value.isdigit()) or len(value) > 10 or not 1 <= int(value) <= MAX_WEIGHT:
            raise UserError(f"{name}:{lineno}: the weight of {word[:20]!r} must be a whole number from 1 to "
                            f"{MAX_WEIGHT}, got {value[:20]!r}")
        if word not in known:
            raise UserError(f"{name}:{lineno}: {word[:20]!r} is not a word of this game")
        if word in found:
            raise UserError(f"{name}:{lineno}: {word!r} is given a weight twice")
        if word in answer_set:
            found[word] = int(value)
    missing = [a for a in answers if a not in found]
    if missing:
        shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise UserError(f"{name}: {len(missing)} answer(s) have no weight: {shown}")
    return Weights(name, tuple(found[a] for a in answers), fingerprint(found.items()))


def weights_path(text) -> Path:
    """The file a user named: the path, else the shipped weights file of that name."""
    path = Path(text)
    if path.exists():
        return path
    shipped = shipped_list(str(text))
    return shipped if shipped is not None else path


def read_weights(path, answers, guesses) -> Weights:
    """The weights file at `path` (bounded read), for these answers and guesses."""
    path = weights_path(path)
    raw = read_bounded(path, LIST_MAX_BYTES, "weights file")
    return parse_weights(raw, path.name, answers, guesses)


def recorded(doc: dict) -> dict | None:
    """The weights a tree records (stats.weights, checked by tree.check_fields), None if none."""
    return (doc.get("stats") or {}).get("weights")


def tree_weights(doc: dict, given, answers, guesses) -> Weights:
    """The weights a weighted tree was made for: the user's file, else the shipped file it names
    (by bare name only); either must have the fingerprint the tree records."""
    rec = recorded(doc)
    if given is None:
        path = shipped_list(rec["file"])
        if path is None:
            raise UserError(f"the tree is weighted by {rec['file'][:80]!r}, which is not shipped: name that "
                            "weights file too")
    else:
        path = given
    weights = read_weights(path, answers, guesses)
    if weights.sha256 != rec["sha256"] or weights.total != rec["total_weight"]:
        raise UserError(f"the weights in {weights.file} (sha256 {weights.sha256[:12]}…, total {weights.total}) are "
                        f"not the ones the tree was made for (sha256 {rec['sha256'][:12]}…, total "
                        f"{rec['total_weight']})")
    return weights


def weighted_suggestion(position, given):
    """`next` with weights (the file `given`, or None for a weighted tree's own): on a weighted
    tree, the tree's guess once its weights' fingerprint matches (tree_weights); off it, or on a
    tree made without these weights, the exact weighted search's best guess for the candidates
    left (exact/weighted.py, with hard mode's constraint from the steps where the tree is hard),
    its expected guesses the weighted mean over the candidates. Refused where the candidates are
    beyond the answer list (they have no weights) or too many for a live answer."""
    from .player import Suggestion

    doc = position.doc
    game = position.full_game
    if getattr(game, "kind", "") != "wordle":
        raise UserError(f"weights are for the Wordle family, not {game.name}")
    weighted_tree = doc is not None and recorded(doc) is not None
    weights = tree_weights(doc, given, game.answers, game.guesses) if weighted_tree else \
        read_weights(given, game.answers, game.guesses)
    if weighted_tree and position.node is not None:
        return position.suggest()
    n = len(position.steps)
    if position.solved:
        return Suggestion(None, "solved", position.candidates, 0.0, n)
    if position.widened:
        raise UserError("no answer of the list fits the steps: the words left have no weights")
    left = None if position.cap is None else position.cap - n
    if left is not None and left < 1:
        raise UserError(f"no guesses left after {n} steps: the game allows {position.cap}")
    if len(position.candidates) > position.exact_limit:
        raise UserError(f"{len(position.candidates)} candidates left: the weighted answer is exact, and live for "
                        f"at most {position.exact_limit}; play a guess or two first")
    import numpy as np

    from ..exact.weighted import INF, WeightedSolver
    from .patterns import pattern_matrix

    matrix = pattern_matrix(game).matrix
    solver = WeightedSolver(game, matrix, np.array(weights.values, dtype=np.int64), left, memo_mb=32,
                            mode=position.mode)
    req = solver.empty_constraint()
    for guess, text in position.steps:
        req = solver.constrain(req, game.guess_index[guess], game.parse_pattern(text))
    ids = [game.answer_index[a] for a in position.candidates]
    value, g = solver.solve(ids, left, req=req)
    if value >= INF:
        from ..exact.solver import Infeasible

        raise Infeasible(left)
    return Suggestion(game.guesses[g], "exact", position.candidates, round(value / solver.weight(ids), 4), n)
