"""What the two kinds of Dordle file share: their format names, the keys of their game section,
the solved mark, the remainder node, and the field checks of a strategy file.

A tree file (wordtree-dordle/1) is built and replayed by tree.py, a strategy file
(wordtree-dordle-strategy/1) written and walked again by heuristic.py; each writes what the
other reads (heuristic.strategy_document makes a tree document, tree.read_document reads a
strategy file too). Both import these from here, and this module imports neither: no numba, no
search.
"""

from __future__ import annotations

import math

from ..errors import UserError

FORMAT = "wordtree-dordle/1"
STRATEGY_FORMAT = "wordtree-dordle-strategy/1"
GAME_KEYS = ("name", "answers", "answers_sha256", "guesses", "guesses_sha256")
MAX_TRIES = 1 << 16
MAX_ALPHA = 1e6


def solved_mark(game) -> str:
    """What a board shows once solved, from the guess after the one that solved it ("=====")."""
    return "=" * game.length


def remainder(game, board: int, answers, guesses_left: int, solution: tuple[int, dict] | None = None) -> dict:
    """A tree's remainder node: `board` (1 or 2) goes on alone with `answers` (answer ids) and
    `guesses_left`. `solution`: (total, tree), its exact single-board value V1 and an optimal
    single-board tree ({"guess", "next": {pattern: node}}), stored as "total" and "tree" so that a
    lookup needs no engine; without them (and for one answer, whose tree is that answer and whose
    total is 1) the single-board engine solves it on demand."""
    node = {"board": board, "answers": [game.answers[a] for a in answers], "guesses_left": guesses_left}
    if solution is not None:
        node["total"], node["tree"] = int(solution[0]), solution[1]
    return node


def single_tree_total(game, tree: dict, answers, left: int) -> int:
    """The guesses a single-board tree takes over `answers` (words), all added up, each answer
    replayed with the plain feedback: found within `left` guesses, every branch on the way
    present. A UserError names the first answer that is not."""
    win = game.win_code
    total = 0
    for answer in answers:
        node, used = tree, 0
        while True:
            used += 1
            guess = node.get("guess")
            if used > left:
                raise UserError(f"its tree does not solve {answer} within {left} guess{'es' * (left != 1)}")
            if guess not in game.guess_index:
                raise UserError(f"its tree guesses {str(guess)[:20]!r}, not an allowed guess")
            if guess == answer:
                break
            code = game.feedback(guess, answer)
            child = node.get("next", {}).get(game.pattern_text(code)) if code != win else None
            if not isinstance(child, dict):
                raise UserError(f"its tree has no branch {game.pattern_text(code)} after {guess} (answer {answer})")
            node = child
        total += used
    return total


def _whole(value, low: int, high: int | None = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low and (high is None or value <= high)


def check_game_section(game) -> None:
    """The game section of either kind of file: its names and fingerprints, and the counts, word
    length and kind where given, of their types (a UserError naming the first that is not)."""
    from ..wordle.tree import expect, is_sha256, text

    if not isinstance(game, dict) or not all(isinstance(game.get(k), str) for k in GAME_KEYS):
        raise UserError(f"malformed 'game' section (needs {', '.join(GAME_KEYS)})")
    for key in ("answers_sha256", "guesses_sha256"):
        expect(game, "game", key, is_sha256, "a sha256 (64 hex digits)")
    for key in ("answers_count", "guesses_count", "word_length"):
        expect(game, "game", key, lambda v: _whole(v, 1), "a whole number, 1 or more", optional=True)
    expect(game, "game", "kind", text, "a string", optional=True)


def check_game_claims(spec: dict, game) -> None:
    """The counts, word length and kind a file's game section states, against the game it is
    verified on; the first that differs is a UserError."""
    for key, count in (("answers_count", len(game.answers)), ("guesses_count", len(game.guesses)),
                       ("word_length", game.length)):
        if spec.get(key, count) != count:
            raise UserError(f"game.{key} is {spec[key]}, the lists give {count}")
    if spec.get("kind", game.kind) != game.kind:
        raise UserError(f"game.kind is {spec['kind'][:20]!r}, the game is {game.kind!r}")


def check_strategy(doc: dict) -> None:
    """Every field of a wordtree-dordle-strategy/1 document, of its type and in its range (a
    UserError naming the first one that is not): the game's names and fingerprints, the cap,
    the labels, the opener, the rule's parameters and the claimed result."""
    check_game_section(doc.get("game"))
    if not _whole(doc.get("max_guesses"), 2, 16):
        raise UserError("'max_guesses' must be a whole number from 2 to 16")
    if doc.get("strategy") != "heuristic" or doc.get("optimal") is not False:
        raise UserError("a strategy file is labelled \"strategy\": \"heuristic\", \"optimal\": false")
    if not isinstance(doc.get("first"), str):
        raise UserError("'first' must be a word")
    rule = doc.get("rule")
    if not isinstance(rule, dict):
        raise UserError("malformed 'rule' section (needs alpha, shortlist, tries, engine)")
    alpha = rule.get("alpha")
    if not isinstance(alpha, (int, float)) or isinstance(alpha, bool) or not math.isfinite(alpha) or \
            not 0 <= alpha <= MAX_ALPHA:
        raise UserError(f"'rule.alpha' must be a number from 0 to {MAX_ALPHA:g}")
    if not _whole(rule.get("shortlist"), 0, 1 << 24):
        raise UserError("'rule.shortlist' must be a whole number from 0 to 16777216")
    if not _whole(rule.get("tries"), 1, MAX_TRIES):
        raise UserError(f"'rule.tries' must be a whole number from 1 to {MAX_TRIES}")
    if not isinstance(rule.get("engine"), str):
        raise UserError("'rule.engine' must be a string")
    result = doc.get("result")
    if not isinstance(result, dict):
        raise UserError("malformed 'result' section (needs total, pairs, mean, failed)")
    for key in ("total", "pairs", "lower_bound"):
        if not _whole(result.get(key), 0):
            raise UserError(f"'result.{key}' must be a whole number, 0 or more")
    if result.get("failed") != 0 or isinstance(result.get("failed"), bool):
        raise UserError("'result.failed' must be 0 (a strategy file is of a strategy that solves every pair)")
    mean = result.get("mean")
    if not isinstance(mean, (int, float)) or isinstance(mean, bool) or not math.isfinite(mean):
        raise UserError("'result.mean' must be a number")
    for key in ("exact_below", "exact_nodes"):
        if key in rule and not _whole(rule[key], 0, 1 << 40):
            raise UserError(f"'rule.{key}' must be a whole number, 0 or more")
    if "top" in doc:
        check_top_shape(doc["top"])


def check_top_shape(top) -> None:
    """A strategy file's optional stored top (its second level, for lookups at once): {"guess":
    the opener, "next": {"P1/P2": {"guess": word, "total": whole, "exact": true (optional),
    "board": 1 or 2 (a one-board remainder)}}}. That its guess is the file's "first" is checked
    where it is used (heuristic.check_top, the lookups)."""
    if not isinstance(top, dict) or not isinstance(top.get("guess"), str) or not isinstance(top.get("next"), dict):
        raise UserError("malformed 'top' (needs the opener as its 'guess' and a 'next' object)")
    for key, node in top["next"].items():
        if not isinstance(node, dict) or not isinstance(node.get("guess"), str) or not _whole(node.get("total"), 1) \
                or set(node) - {"guess", "total", "exact", "board"} or node.get("exact", True) is not True \
                or node.get("board", 1) not in (1, 2) or isinstance(node.get("board"), bool) or key.count("/") != 1:
            raise UserError(f"malformed 'top' branch {key[:40]!r} (needs a guess and a whole total; exact: true and "
                            f"board 1 or 2 where given)")


MAX_BYTES = 256 << 20  # the largest Dordle tree file read (as tree.TREE_MAX_BYTES)


def read_document(path, formats: tuple[str, ...] = (FORMAT,)) -> dict:
    """A Dordle tree file, read with a bound (a regular file of at most MAX_BYTES) and its shape
    checked (check_shape); anything else is one UserError line. With `formats` naming
    STRATEGY_FORMAT too, a wordtree-dordle-strategy/1 file is read as well (its fields checked by
    document.check_strategy): `dordle verify` takes either."""
    import orjson

    from ..families import tree_path
    from ..words import read_bounded

    raw = read_bounded(tree_path(path), MAX_BYTES, "Dordle tree")
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") not in formats:
        found = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise UserError(f"{path}: not a {' or '.join(formats)} file (format: {found!r})")
    try:
        (check_strategy if doc["format"] == STRATEGY_FORMAT else check_shape)(doc)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    return doc


def check_shape(doc: dict) -> None:
    """The fields a lookup or a replay reads, of the types they need: the game's names and
    fingerprints, the cap, the result's total, and every node ({"guess": word, "next": {key:
    node or remainder}}, a remainder {"board": 1 or 2, "answers": [words], "guesses_left": k}, with
    "total" and "tree" where its solution is stored)."""
    from ..wordle.tree import expect, field_error, kind, number, text

    check_game_section(doc.get("game"))
    cap = doc.get("max_guesses")
    if not _whole(cap, 2, 16):
        raise UserError("'max_guesses' must be a whole number from 2 to 16")
    expect(doc, "", "solved_mark", lambda v: text(v, 64), "a string", optional=True)
    result = doc.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("total"), int):
        raise UserError("malformed 'result' section (needs a whole 'total')")
    for key in ("total", "pairs", "lower_bound", "cap_asked", "nodes", "evaluations", "memo_hits", "memo_entries",
                "single_board_sets"):
        expect(result, "result", key, lambda v: _whole(v, 0), "a whole number, 0 or more", optional=key != "total")
    for key in ("mean", "seconds"):
        expect(result, "result", key, lambda v: number(v), "a number, 0 or more", optional=True)
    expect(result, "result", "optimal", lambda v: isinstance(v, bool), "true or false", optional=True)
    expect(result, "result", "objective", lambda v: v in ("total", "worst"), "total or worst", optional=True)
    for key in ("first", "strategy"):
        expect(result, "result", key, lambda v: text(v, 64), "a string", optional=True)
    stack = [(doc.get("tree"), 0)]
    while stack:
        node, depth = stack.pop()
        if depth > cap:
            raise UserError(f"the tree is deeper than its cap of {cap}")
        if not isinstance(node, dict):
            raise UserError(f"malformed tree: a node must be an object, got {kind(node)}")
        if "board" in node:
            if node.get("board") not in (1, 2) or isinstance(node.get("board"), bool) or \
                    not _whole(node.get("guesses_left"), 0, 16) or not isinstance(node.get("answers"), list) or \
                    not node["answers"] or not all(isinstance(w, str) for w in node["answers"]):
                raise UserError("malformed remainder (needs board 1 or 2, answers, guesses_left)")
            if "total" in node or "tree" in node:
                _check_single(node)
            continue
        branches = node.get("next", {})
        if not text(node.get("guess"), 64):
            raise field_error("malformed tree: a node's 'guess'", node.get("guess"), "a word")
        if not isinstance(branches, dict):
            raise field_error(f"malformed tree: 'next' of {node['guess']!r}", branches, "an object")
        stack.extend((child, depth + 1) for child in branches.values())


def _check_single(node: dict) -> None:
    """A remainder's stored solution: a whole "total" and a "tree" of single-board nodes
    ({"guess": word, "next": {pattern: node}}) no deeper than its guesses left."""
    from ..wordle.tree import field_error, kind, text

    if not _whole(node.get("total"), 1) or "tree" not in node:
        raise UserError("malformed remainder: a stored solution needs a whole 'total' (1 or more) and a 'tree'")
    stack = [(node["tree"], 1)]
    while stack:
        single, depth = stack.pop()
        if depth > node["guesses_left"]:
            raise UserError(f"malformed remainder: its tree is deeper than its {node['guesses_left']} guesses left")
        if not isinstance(single, dict):
            raise UserError(f"malformed remainder tree: a node must be an object, got {kind(single)}")
        if not text(single.get("guess"), 64):
            raise field_error("malformed remainder tree: a node's 'guess'", single.get("guess"), "a word")
        branches = single.get("next", {})
        if not isinstance(branches, dict):
            raise field_error(f"malformed remainder tree: 'next' of {single['guess']!r}", branches, "an object")
        stack.extend((child, depth + 1) for child in branches.values())


def describe_file(path) -> dict:
    """What a list of trees says of a wordtree-dordle/1 or wordtree-dordle-strategy/1 file
    (families.describe): its lists, cap, total guesses over every ordered pair of answers and
    whether it is proven optimal (a strategy file never is)."""
    doc = read_document(path, (FORMAT, STRATEGY_FORMAT))
    game, result = doc["game"], doc["result"]
    strategy = doc["format"] == STRATEGY_FORMAT
    return {"format": doc["format"], "game": "dordle", "max_guesses": doc["max_guesses"],
            "lists": {key: game.get(key) for key in ("answers", "guesses")}, "answers": game.get("answers_count"),
            "opener": doc["first"] if strategy else result.get("first"), "total": result["total"],
            "measure": "guesses over every ordered pair of answers", "mean": result.get("mean"),
            "optimal": False if strategy else bool(result.get("optimal"))}
