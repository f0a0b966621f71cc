"""Other programs' tree formats, both ways.

- selby: one line per answer, each guess followed by its B/Y/G pattern and its number
  (`salet BBBBB1 courd BBBBB2 nymph BBBBY3 whiff GGGGG4`); on import a prefix shared with the
  line above may be blanked with spaces.
- olson: nested JSON `{"guess": w, "map": {"01200": subtree-or-"answer"}}`, 0/1/2 = B/Y/G.
- leaderboard: one line per answer with its comma-separated guesses, `salet,brond,aback`.
Selby and olson carry Wordle colours, so they are for Wordle games; leaderboard for any game.
"""

from __future__ import annotations

import re

import orjson

from ..errors import UserError
from .tree import replay

FORMATS = ("selby", "olson", "leaderboard")
TO_DIGITS = str.maketrans("BYG", "012")
FROM_DIGITS = str.maketrans("012", "BYG")
SELBY_MARK = re.compile(r"([BYGbyg]+)(\d+)")  # a pattern and the guess number: BBYGB2


def _require_wordle(game, fmt: str) -> None:
    if game.kind != "wordle":
        raise UserError(f"the {fmt} format is for Wordle games, not {game.name}")


# ------------------------------------------------------------------------------------------------
# export
# ------------------------------------------------------------------------------------------------
def export_tree(doc: dict, game, fmt: str) -> bytes:
    """The tree in another program's format."""
    cap = doc["game"]["max_guesses"]
    if fmt == "olson":
        _require_wordle(game, fmt)
        return orjson.dumps(_olson_node(doc["root"]), option=orjson.OPT_SORT_KEYS) + b"\n"
    paths = [replay(game, doc["root"], answer, cap) for answer in game.answers]
    if fmt == "leaderboard":
        lines = [",".join(g for g, _ in steps) for steps in paths]
    elif fmt == "selby":
        _require_wordle(game, fmt)
        lines = sorted(" ".join(f"{g} {p}{i}" for i, (g, p) in enumerate(steps, 1)) for steps in paths)
    else:
        raise UserError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return "".join(line + "\n" for line in lines).encode()


def _olson_node(node: dict):
    branches = node.get("next") or {}
    return {
        "guess": node["guess"],
        "map": {
            key.translate(TO_DIGITS): child["guess"] if not child.get("next") else _olson_node(child)
            for key, child in branches.items()
        },
    }


# ------------------------------------------------------------------------------------------------
# import: each format becomes a list of answer paths [(guess, pattern text), ...], or a tree
# ------------------------------------------------------------------------------------------------
def import_tree(data: bytes, fmt: str, game, source: str = "input") -> dict:
    """A root node built from another program's file (not yet verified)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    if fmt == "olson":
        _require_wordle(game, fmt)
        try:
            tree = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise UserError(f"{source}: not JSON ({exc})") from None
        try:
            return _from_olson(tree, game, source, [])
        except RecursionError:
            raise UserError(f"{source}: nested too deeply for a tree") from None
    if fmt == "selby":
        _require_wordle(game, fmt)
        paths = _selby_paths(text, source)
    elif fmt == "leaderboard":
        paths = _leaderboard_paths(text, game, source)
    else:
        raise UserError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    if not paths:
        raise UserError(f"{source}: no lines to import")
    win = game.pattern_text(game.win_code)
    root: dict = {}
    for where, steps in paths:
        _insert(root, steps, win, where)
    return root


def _insert(root: dict, steps: list[tuple[str, str]], win: str, where: str) -> None:
    """Add one answer's path; the nodes it shares with earlier paths must agree."""
    guess, pattern = steps[-1]
    if pattern != win:
        raise UserError(f"{where}: the last guess {guess!r} does not win (pattern {pattern})")
    node = root
    for i, (guess, pattern) in enumerate(steps):
        if node.setdefault("guess", guess) != guess:
            raise UserError(f"{where}: guess {i + 1} is {guess!r}, but an earlier line has {node['guess']!r} there")
        if i + 1 < len(steps):
            if pattern == win:
                raise UserError(f"{where}: guess {i + 1} {guess!r} already wins, yet the line goes on")
            node = node.setdefault("next", {}).setdefault(pattern, {})


def _selby_paths(text: str, source: str) -> list:
    paths, previous = [], ""
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        blank = len(line) - len(line.lstrip(" "))
        if blank:
            if blank > len(previous):
                raise UserError(f"{source}:{lineno}: {blank} blanks but the line above has only {len(previous)} characters")
            line = previous[:blank] + line[blank:]
        previous = line
        where = f"{source}:{lineno}"
        steps, rest = [], line.strip()
        tokens = rest.split()
        if len(tokens) % 2:
            raise UserError(f"{where}: expected pairs 'guess PATTERNn', got {rest[:60]!r}{'…' * (len(rest) > 60)}")
        for number, i in enumerate(range(0, len(tokens), 2), 1):
            word, mark = tokens[i].lower(), tokens[i + 1]
            match = SELBY_MARK.fullmatch(mark)
            if not match or int(match.group(2)) != number or len(match.group(1)) != len(word):
                raise UserError(f"{where}: {word} {mark!r} should be the pattern and number {number}, e.g. BBYGB{number}")
            steps.append((word, match.group(1).upper()))
        paths.append((where, steps))
    return paths


def _leaderboard_paths(text: str, game, source: str) -> list:
    paths = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}:{lineno}"
        words = [w.strip().lower() for w in line.split(",")]
        answer = words[-1]
        if answer not in game.answer_index:
            raise UserError(f"{where}: the last word {answer!r} is not an answer in {game.name}")
        try:
            words = [game.parse_guess(w) for w in words]
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
        paths.append((where, [(w, game.pattern_text(game.feedback(w, answer))) for w in words]))
    return paths


def _from_olson(tree, game, source: str, steps: list) -> dict:
    where = f"{source}: at " + (" > ".join(f"{g}:{p}" for g, p in steps) or "the root")
    if isinstance(tree, str):
        return {"guess": tree.lower()}
    if not isinstance(tree, dict) or not isinstance(tree.get("guess"), str) or not isinstance(tree.get("map", {}), dict):
        raise UserError(f"{where}: expected {{\"guess\": word, \"map\": {{...}}}} or an answer word")
    guess = tree["guess"].lower()
    win = game.pattern_text(game.win_code)
    node: dict = {"guess": guess}
    for key, child in sorted(tree.get("map", {}).items()):
        if not re.fullmatch(r"[012]+", key):
            raise UserError(f"{where}: map key {key!r} is not a pattern of digits 0/1/2")
        pattern = key.translate(FROM_DIGITS)
        if pattern == win:
            if child != guess and not (isinstance(child, dict) and child.get("guess") == guess and not child.get("map")):
                raise UserError(f"{where}: the winning pattern {key} leads to something other than {guess!r}")
            continue  # some writers record the win itself; the file format leaves it implicit
        node.setdefault("next", {})[pattern] = _from_olson(child, game, source, steps + [(guess, pattern)])
    return node
