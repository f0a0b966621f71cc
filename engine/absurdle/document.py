"""Absurdle's documents (`wordtree-absurdle/1`): the fewest guesses that always win against the
adversary, and a winning line for each opener that achieves it; read with checked parsing,
verified by replaying every line against the adversary with plain code (rule.replies and the
verifier's own feedback, wordle.rules), written atomically. No numba here.

    {"format": "wordtree-absurdle/1",
     "game": {name, word_length, answers, answers_sha256, answers_count, guesses, ...},
     "rule": "qntm" | "any",
     "fewest": 4,                      # guesses that always win: no line wins in fewer
     "lower_bound": {"how": "counting" | "search", "cornering_after_opener": 2},
     "openers": {"searched": N, "of": G, "complete": bool, "winning": W},
     "lines": {opener: node, ...},     # node: {"guess": g, "next": {pattern: node}}; a leaf {"guess": answer}
     "seconds": s, "stats": {...}}

A line's `next` holds one reply per bucket the adversary may keep (one under `qntm`, every
largest one under `any`); a leaf is the guess of the only answer left, which wins.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from ..errors import UserError
from ..files import write_atomic
from ..wordle.tree import expect, whole
from .rule import RULES, replies

FORMAT = "wordtree-absurdle/1"
MAX_BYTES = 64 << 20
MAX_DEPTH = 64


_TYPES = {  # what a field of each type must be, as the shared tree checks word it (wordle.tree.expect)
    int: (lambda value: whole(value, -(1 << 63)), "a whole number"),
    str: (lambda value: isinstance(value, str), "a string"),
    dict: (lambda value: isinstance(value, dict), "an object"),
    bool: (lambda value: isinstance(value, bool), "true or false"),
}


def _field(doc: dict, key: str, kind, where: str = ""):
    test, wanted = _TYPES[kind]
    return expect(doc, where.rstrip("."), key, test, wanted)


def read(path) -> dict:
    """The document at `path`, its fields checked for type (not yet for truth: `verify`)."""
    from ..words import read_bounded

    raw = read_bounded(path, MAX_BYTES, "Absurdle document")
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc})") from None
    try:
        check(doc)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    return doc


def check(doc) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UserError(f"not a {FORMAT} document")
    game = _field(doc, "game", dict)
    for key in ("name", "answers", "guesses", "answers_sha256", "guesses_sha256"):
        _field(game, key, str, "game.")
    for key in ("word_length", "answers_count", "guesses_count"):
        _field(game, key, int, "game.")
    if _field(doc, "rule", str) not in RULES:
        raise UserError(f"rule {doc['rule']!r} is not one of {', '.join(RULES)}")
    fewest = _field(doc, "fewest", int)
    if not 1 <= fewest <= MAX_DEPTH:
        raise UserError(f"fewest must lie in 1..{MAX_DEPTH}, got {fewest}")
    bound = _field(doc, "lower_bound", dict)
    _field(bound, "how", str, "lower_bound.")
    _field(bound, "cornering_after_opener", int, "lower_bound.")
    openers = _field(doc, "openers", dict)
    for key in ("searched", "of", "winning"):
        _field(openers, key, int, "openers.")
    _field(openers, "complete", bool, "openers.")
    lines = _field(doc, "lines", dict)
    for opener, node in lines.items():
        _check_node(node, f"lines.{opener}", 0)


def _check_node(node, where: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise UserError(f"{where}: deeper than {MAX_DEPTH} guesses")
    if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
        raise UserError(f"{where} must be an object with a guess")
    nxt = node.get("next")
    if nxt is None:
        if set(node) - {"guess"}:
            raise UserError(f"{where}: unknown fields {sorted(set(node) - {'guess'})}")
        return
    if not isinstance(nxt, dict) or not nxt:
        raise UserError(f"{where}.next must be a non-empty object")
    for pattern, child in nxt.items():
        _check_node(child, f"{where}.{pattern}", depth + 1)


def game_of(doc: dict, answers=None, guesses=None):
    """The game a document was made for, by its preset name (lists given for custom ones), its
    lists checked against the fingerprints the document records."""
    from ..games import get_game

    spec = doc["game"]
    game = get_game(spec["name"], answers, guesses)
    ident = game.identity()
    for key in ("answers_sha256", "guesses_sha256", "word_length"):
        if ident.get(key) != spec.get(key):
            raise UserError(f"the document was made for other lists ({key} differs): it names "
                            f"{spec['answers']} and {spec['guesses']}")
    return game


def depth(node: dict) -> int:
    """Guesses of the line's longest game (the leaf's winning guess counted)."""
    nxt = node.get("next")
    return 1 + (max(depth(child) for child in nxt.values()) if nxt else 0)


def replay(doc: dict, game, opener: str, node: dict) -> int:
    """Replay one line against the adversary from every answer: each guess allowed, each node's
    replies exactly the adversary's, each leaf the only answer left. Returns its longest game."""
    rule = RULES[doc["rule"]]
    allowed = set(game.guesses)

    def walk(node: dict, left: list[str], where: str, guesses: int) -> int:
        guess = node["guess"]
        if guess not in allowed:
            raise UserError(f"{where}: {guess!r} is not an allowed guess")
        nxt = node.get("next")
        if nxt is None:
            if left != [guess]:
                raise UserError(f"{where}: {guess!r} does not win: {len(left)} answers are still possible")
            return guesses
        if left == [guess]:
            raise UserError(f"{where}: {guess!r} wins here, but the line goes on")
        options = dict(replies(rule, guess, left))
        if set(options) != set(nxt):
            raise UserError(f"{where}: the adversary answers {guess!r} with {sorted(options)}, the line has {sorted(nxt)}")
        return max(walk(nxt[pattern], options[pattern], f"{where} {guess}:{pattern}", guesses + 1) for pattern in nxt)

    if node["guess"] != opener:
        raise UserError(f"lines.{opener}: the line opens with {node['guess']!r}")
    return walk(node, list(game.answers), f"lines.{opener}", 1)


def verify(doc: dict, game, say=print) -> list[str]:
    """Every claim the document makes that plain code can check: each line wins against the
    adversary in at most `fewest` guesses, and its longest game takes exactly `fewest` (no line
    claims less than the proven least); the opener counts add up. Returns the problems found
    (empty: verified)."""
    problems = []
    fewest = doc["fewest"]
    ident = game.identity()
    if doc["game"].get("answers_count") != len(game.answers) or doc["game"].get("guesses_count") != len(game.guesses):
        problems.append("game: the list sizes differ from the lists'")
    openers = doc["openers"]
    lines = doc["lines"]
    if openers["winning"] != len(lines):
        problems.append(f"openers.winning says {openers['winning']}, the document has {len(lines)} lines")
    if not 0 <= openers["searched"] <= openers["of"] == ident["guesses_count"]:
        problems.append(f"openers: searched {openers['searched']} of {openers['of']} (the lists have {ident['guesses_count']} guesses)")
    if openers["complete"] != (openers["searched"] == openers["of"]):
        problems.append("openers.complete disagrees with searched and of")
    if len(lines) > openers["searched"]:
        problems.append("more winning lines than openers searched")
    for opener, node in lines.items():
        try:
            longest = replay(doc, game, opener, node)
        except UserError as exc:
            problems.append(str(exc))
            continue
        if longest != fewest:
            problems.append(f"lines.{opener}: its longest game takes {longest} guesses, the document says {fewest}")
    return problems


def lower_bound_holds(doc: dict, game, matrix) -> bool:
    """Re-prove the document's lower bound where it is the counting bound: every opener leaves
    the adversary a bucket larger than any guess has codes on all the answers, so no guess after
    the opener corners it and every win takes at least 4 guesses (numpy on the pattern matrix;
    no search code)."""
    import numpy as np

    if doc["lower_bound"]["how"] != "counting" or doc["lower_bound"]["cornering_after_opener"] != 2:
        return False
    n_codes = 3 ** game.length
    largest = np.empty(matrix.shape[0], np.int64)
    distinct = np.empty(matrix.shape[0], np.int64)
    for g in range(matrix.shape[0]):
        counts = np.bincount(matrix[g], minlength=n_codes)
        largest[g] = counts.max()  # the adversary keeps a largest bucket, whatever its tie-break
        distinct[g] = np.count_nonzero(counts)
    return bool(largest.min() > distinct.max()) and doc["fewest"] >= 4


def write(path, doc: dict) -> None:
    write_atomic(Path(path), orjson.dumps(doc, option=orjson.OPT_INDENT_2 if len(doc["lines"]) < 50 else 0))


def describe(doc: dict) -> dict:
    """What a list of trees says of the document (families.describe)."""
    game = doc["game"]
    return {"format": FORMAT, "game": f"absurdle ({doc['rule']} rule)",
            "lists": {key: game.get(key) for key in ("answers", "guesses")}, "answers": game["answers_count"],
            "opener": next(iter(doc["lines"]), None), "total": doc["fewest"],
            "measure": "guesses that always win against the adversary", "mean": None, "optimal": True}


def describe_file(path) -> dict:
    return describe(read(path))
