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
        (check_challenge if isinstance(doc, dict) and doc.get("format") == CHALLENGE_FORMAT else check)(doc)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    return doc


def _check_game(doc: dict) -> None:
    """The game block every Absurdle document holds: the lists' names, fingerprints and sizes."""
    game = _field(doc, "game", dict)
    for key in ("name", "answers", "guesses", "answers_sha256", "guesses_sha256"):
        _field(game, key, str, "game.")
    for key in ("word_length", "answers_count", "guesses_count"):
        _field(game, key, int, "game.")


def check(doc) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UserError(f"not a {FORMAT} document")
    _check_game(doc)
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
    if doc.get("format") == CHALLENGE_FORMAT:
        return describe_challenge(doc)
    game = doc["game"]
    return {"format": FORMAT, "game": f"absurdle ({doc['rule']} rule)",
            "lists": {key: game.get(key) for key in ("answers", "guesses")}, "answers": game["answers_count"],
            "opener": next(iter(doc["lines"]), None), "total": doc["fewest"],
            "measure": "guesses that always win against the adversary", "mean": None, "optimal": True}


def describe_file(path) -> dict:
    return describe(read(path))


# --- the challenge mode's table (wordtree-absurdle-challenge/1, written by challenge.build) ---
#
#     {"format": "wordtree-absurdle-challenge/1", "game": {...}, "rule": "qntm",
#      "targets": {"count": N, "proven": P, "complete": bool},
#      "lower_bound": {"how": "counting", "fewest_at_least": 4},
#      "exhaustive_through": D | null,   # every target of fewest <= D was found by the exhaustive layers
#      "layers": [...], "targeted": {...}, "seconds": s,
#      "rows": {answer: {"fewest": d, "line": "g1 g2 ... answer"} | {"at_least": d} | {"unreachable": true}}}
CHALLENGE_FORMAT = "wordtree-absurdle-challenge/1"


def check_challenge(doc) -> None:
    if not isinstance(doc, dict) or doc.get("format") != CHALLENGE_FORMAT:
        raise UserError(f"not a {CHALLENGE_FORMAT} document")
    _check_game(doc)
    if _field(doc, "rule", str) != "qntm":
        raise UserError("the challenge table is for the qntm rule only")
    _field(_field(doc, "lower_bound", dict), "fewest_at_least", int, "lower_bound.")
    through = doc.get("exhaustive_through")
    if through is not None and not whole(through, 0):
        raise UserError("exhaustive_through must be a whole number or null")
    rows = _field(doc, "rows", dict)
    for word, row in rows.items():
        where = f"rows.{word}"
        if not isinstance(row, dict):
            raise UserError(f"{where} must be an object")
        if "fewest" in row:
            if set(row) != {"fewest", "line"} or not whole(row["fewest"], 1) or row["fewest"] > MAX_DEPTH \
                    or not isinstance(row["line"], str) or len(row["line"]) > 12 * MAX_DEPTH:
                raise UserError(f"{where}: a row is {{fewest, line}} with fewest in 1..{MAX_DEPTH}")
        elif "at_least" in row:
            if set(row) != {"at_least"} or not whole(row["at_least"], 1):
                raise UserError(f"{where}: at_least must be a whole number")
        elif row != {"unreachable": True}:
            raise UserError(f"{where}: a row has fewest and line, at_least, or unreachable")


def replay_challenge(game, target: str, line: str) -> int:
    """Replay one row's line against the qntm adversary with plain code (rule.replies): every
    guess allowed, the adversary left with the target alone before the last guess, and the last
    guess the target. Returns the guesses it takes."""
    rule = RULES["qntm"]
    allowed = set(game.guesses)
    words = line.split()
    left = list(game.answers)
    for i, guess in enumerate(words):
        if guess not in allowed:
            raise UserError(f"rows.{target}: {guess!r} is not an allowed guess")
        if left == [guess]:
            if i != len(words) - 1 or guess != target:
                raise UserError(f"rows.{target}: the game ends on {guess!r} at guess {i + 1}")
            return i + 1
        if len(left) == 1:
            raise UserError(f"rows.{target}: the adversary is left {left[0]!r} alone after {i} guesses")
        (_, left), = replies(rule, guess, left)
    raise UserError(f"rows.{target}: the line ends with {len(left)} answers left, not a win")


def verify_challenge(doc: dict, game, lower: int | None = None) -> list[str]:
    """Every row's line replayed (its length the row's fewest, at least the document's counting
    bound, and `lower`, the bound re-proved, where given); the rows cover the answers; the counts
    add up. Returns the problems found."""
    problems = []
    rows = doc["rows"]
    if set(rows) != set(game.answers):
        problems.append(f"rows: {len(rows)} rows, the list has {len(game.answers)} answers (or other words)")
    bound = doc["lower_bound"]["fewest_at_least"]
    if lower is not None and lower != bound:
        problems.append(f"lower_bound: the document says {bound}, the counting bound is {lower}")
    proven = 0
    for word, row in rows.items():
        if "fewest" not in row:
            proven += "unreachable" in row
            if "at_least" in row and row["at_least"] < bound:
                problems.append(f"rows.{word}: at_least {row['at_least']} is below the bound {bound}")
            continue
        proven += 1
        try:
            took = replay_challenge(game, word, row["line"])
        except UserError as exc:
            problems.append(str(exc))
            continue
        if took != row["fewest"]:
            problems.append(f"rows.{word}: the line takes {took} guesses, the row says {row['fewest']}")
        if took < bound:
            problems.append(f"rows.{word}: {took} guesses, below the counting bound {bound}")
    targets = doc.get("targets") or {}
    if targets.get("proven") != proven or targets.get("count") != len(game.answers):
        problems.append(f"targets: says {targets.get('proven')} of {targets.get('count')} proven, the rows "
                        f"{proven} of {len(game.answers)}")
    return problems


def challenge_lower_bound(game, matrix) -> int:
    """The counting bound on every target's fewest guesses, re-proved with numpy on the pattern
    matrix (no search code): 2; 3 where no guess tells every answer apart; 4 where every opener
    leaves a bucket larger than any guess has feedbacks on all the answers."""
    import numpy as np

    distinct = np.array([np.unique(row).size for row in matrix])
    if distinct.max() >= matrix.shape[1]:
        return 2
    smallest = _smallest_kept(matrix)
    return 4 if smallest > distinct.max() else 3


def _smallest_kept(matrix) -> int:
    import numpy as np

    return int(min(np.bincount(row).max() for row in matrix))  # the largest bucket: what qntm keeps


def describe_challenge(doc: dict) -> dict:
    game = doc["game"]
    values = [row["fewest"] for row in doc["rows"].values() if "fewest" in row]
    return {"format": CHALLENGE_FORMAT, "game": "absurdle challenge (qntm rule)",
            "lists": {key: game.get(key) for key in ("answers", "guesses")}, "answers": game["answers_count"],
            "opener": None, "total": max(values) if values else None,
            "measure": "the most guesses any target needs (each target's fewest in its row)",
            "mean": round(sum(values) / len(values), 4) if values else None,
            "optimal": bool(doc["targets"]["complete"])}


def write_challenge(path, doc: dict) -> None:
    write_atomic(Path(path), orjson.dumps(doc))
