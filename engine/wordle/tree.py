"""Decision trees as files: the wordtree/1 JSON document, its stats, and the game it was made for.

A node is {"guess": WORD, "next": {PATTERN_TEXT: node}}; the win pattern never appears in
"next", and a node whose guess is the last answer left has no "next". The stats are computed
from the tree itself: by replaying every answer, or from the depths the exact builder read off
the finished tree with its pattern matrix (`exact.build.answer_depths`, the same walk without the
feedback function), so a written file is consistent with its own tree. Pure Python (no numpy):
the lookup player reads trees through here.

A tree file may come from anywhere, so nothing read out of it is opened as a path: the lists it
names are looked up by bare file name among the shipped word lists (`data.wordlists_dir()`) and
checked by fingerprint, or the user gives them (`game_for`); nothing else is ever looked for, not
even a file of that name beside the tree.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from ..errors import ListPairError, UnshippedListError, UserError
from ..files import write_atomic
from ..words import is_letter, letter_folding, read_bounded, shipped_list
from .rules import RULES

FORMAT = "wordtree/1"
GAME_FIELDS = (
    "name", "mode", "max_guesses", "word_length",
    "answers", "answers_sha256", "answers_count", "guesses", "guesses_sha256", "guesses_count",
)
STATS_FIELDS = ("total", "mean", "worst", "histogram")
TREE_MAX_BYTES = 256 << 20  # the largest tree file read (the shipped ones are under 2 MB)


def replay(game, root: dict, answer: str, cap: int | None = None) -> list[tuple[str, str]]:
    """The (guess, pattern text) steps the tree plays against `answer`, the last one the win.
    A missing branch or an unsolved answer within `cap` guesses is a UserError naming the path."""
    steps: list[tuple[str, str]] = []
    node = root
    while True:
        guess = node.get("guess") if isinstance(node, dict) else None
        if not isinstance(guess, str):
            raise UserError(f"answer {answer!r}: malformed node at {path_text(steps) or 'the root'}")
        code = game.feedback(guess, answer)
        text = game.pattern_text(code)
        steps.append((guess, text))
        if code == game.win_code:
            return steps
        if cap is not None and len(steps) >= cap:
            raise UserError(f"answer {answer!r}: not solved within {cap} guesses at {path_text(steps)}")
        branches = node.get("next") or {}
        if text not in branches:
            raise UserError(f"answer {answer!r}: no branch for {text} at {path_text(steps)}")
        node = branches[text]


def path_text(steps) -> str:
    """A node path as users read it: `salet:BBBBB > courd:BBBBY`."""
    return " > ".join(f"{g}:{p}" for g, p in steps)


def depth_stats(depths) -> dict:
    """total, mean (4 places), worst and the histogram ("1".."worst", zeros kept) of solve depths."""
    depths = list(depths)
    worst = max(depths)
    histogram = {str(d): 0 for d in range(1, worst + 1)}
    for d in depths:
        histogram[str(d)] += 1
    total = sum(depths)
    return {"total": total, "mean": round(total / len(depths), 4), "worst": worst, "histogram": histogram}


def make_document(game, root, *, mode="normal", max_guesses=6, objective="total", optimal=True,
                  proof="exhaustive", seconds=0.0, extra=None, depths=None, weights=None) -> dict:
    """A wordtree/1 document for `root` on `game` (`max_guesses=None` means no cap and is written
    as null). The stats come from `depths`, each answer's number of guesses in this tree as the
    exact builder read them off it (BuildResult.depths), else from replaying every answer. With
    `weights` (wordle.weights.Weights: the objective is then "weighted"), the stats also hold
    their fingerprint (stats.weights) and the tree's weighted total and mean."""
    from .. import ENGINE

    max_guesses = None if max_guesses is None else int(max_guesses)
    if depths is None:
        depths = [len(replay(game, root, answer, max_guesses)) for answer in game.answers]
    elif len(depths) != len(game.answers):
        raise ValueError(f"{len(depths)} depths for {len(game.answers)} answers")
    elif max_guesses is not None and max(depths) > max_guesses:
        raise UserError(f"an answer takes {max(depths)} guesses, past the cap of {max_guesses}")
    stats = depth_stats(depths)
    stats.update(objective=objective, optimal=bool(optimal), proof=proof,
                 seconds=round(float(seconds), 3), engine=ENGINE)
    if weights is not None:
        weighted_total = sum(w * d for w, d in zip(weights.values, depths))
        stats.update(weights=weights.record(), weighted_total=weighted_total,
                     weighted_mean=round(weighted_total / weights.total, 4))
    stats.update(extra or {})
    return {
        "format": FORMAT,
        "game": {**game.identity(), "mode": mode, "max_guesses": max_guesses},
        "stats": stats,
        "root": root,
    }


def write_tree(path, doc: dict) -> None:
    """Write a tree document (sorted keys, 2-space indent) atomically."""
    doc = {k: v for k, v in doc.items() if not k.startswith("_")}
    write_atomic(path, orjson.dumps(doc, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n")


def read_tree(path) -> dict:
    """Load and check the envelope of a tree file; anything else is one clear UserError line."""
    path = Path(path)
    raw = read_bounded(path, TREE_MAX_BYTES, "tree file")
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        what = "truncated" if raw.strip() and str(exc).startswith("unexpected end of data") else "not JSON"
        raise UserError(f"{path}: {what} ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        found = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise UserError(f"{path}: not a {FORMAT} tree file (format: {found!r})")
    for section, fields in (("game", GAME_FIELDS), ("stats", STATS_FIELDS)):
        if not isinstance(doc.get(section), dict):
            raise UserError(f"{path}: missing the {section!r} section")
        missing = [f for f in fields if f not in doc[section]]
        if missing:
            raise UserError(f"{path}: {section} is missing {', '.join(missing)}")
    if not isinstance(doc.get("root"), dict) or not isinstance(doc["root"].get("guess"), str):
        raise UserError(f"{path}: missing or malformed 'root' node")
    try:
        check_fields(doc)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    doc["_path"] = str(path)  # for messages; never written back
    return doc


# ------------------------------------------------------------------------------------------------
# the type of every field a reader reads (every family's readers use these)
# ------------------------------------------------------------------------------------------------
def kind(value) -> str:
    """A JSON value's type as a message names it: a string, a number, a list, an object, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number" if isinstance(value, float) or abs(value) < 10 ** 12 else "a huge number"
    return {str: "a string", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def field_error(name: str, value, wanted: str) -> UserError:
    """`name` must be `wanted`: got the value (a short one of the expected type) or its type."""
    shown = kind(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 10 ** 12:
        shown = repr(value)
    return UserError(f"{name} must be {wanted}, got {shown}")


def whole(value, low: int = 0, high: int | None = None) -> bool:
    """A JSON integer (not a bool) from `low` to `high`."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= low and (high is None or value <= high)


def number(value, low: float = 0.0, high: float = 1e12) -> bool:
    """A finite JSON number (not a bool) from `low` to `high`."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def expect(section: dict, where: str, key: str, test, wanted: str, optional: bool = False):
    """`section[key]` if `test` accepts it (or it is absent and `optional`), else a UserError
    naming the field `where.key`."""
    if optional and key not in section:
        return None
    value = section.get(key)
    if not test(value):
        raise field_error(f"{where}.{key}" if where else key, value, wanted)
    return value


def text(value, most: int = 4096) -> bool:
    return isinstance(value, str) and len(value) <= most


MODES = ("normal", "hard", "ultra")
MOST_GUESSES = 1000  # the largest cap a tree file may state (no tree comes near it)


def check_fields(doc: dict) -> None:
    """Every field of a wordtree/1 document that a command reads, of its type and in its range:
    a UserError naming the first one that is not ("game.name must be a string, got a list")."""
    game, stats = doc["game"], doc["stats"]
    for key in ("name", "answers", "guesses"):
        expect(game, "game", key, lambda v: text(v, 256) and v != "", "a non-empty string")
    expect(game, "game", "mode", lambda v: v in MODES, f"one of {', '.join(MODES)}")
    expect(game, "game", "max_guesses", lambda v: v is None or whole(v, 1, MOST_GUESSES),
           f"a whole number from 1 to {MOST_GUESSES}, or null (no cap)")
    expect(game, "game", "word_length", lambda v: whole(v, 1, 64), "a whole number from 1 to 64")
    for key in ("answers", "guesses"):
        expect(game, "game", f"{key}_sha256", is_sha256, "a sha256 (64 hex digits)")
        expect(game, "game", f"{key}_count", lambda v: whole(v, 1), "a whole number, 1 or more")
    for key in ("pegs", "colours", "digits"):
        expect(game, "game", key, lambda v: whole(v, 0, 100), "a whole number", optional=True)
    expect(game, "game", "repeats", lambda v: isinstance(v, bool), "true or false", optional=True)
    expect(game, "game", "fold_accents", lambda v: isinstance(v, bool), "true or false", optional=True)
    expect(game, "game", "keep_letters", lambda v: text(v, 64) and all(is_letter(ch) for ch in v),
           "a string of letters", optional=True)
    for key in ("total", "worst"):
        expect(stats, "stats", key, whole, "a whole number, 0 or more")
    expect(stats, "stats", "mean", number, "a number, 0 or more")
    histogram = expect(stats, "stats", "histogram", lambda v: isinstance(v, dict), "an object")
    for key, count in histogram.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 4 and int(key) >= 1):
            raise UserError(f"stats.histogram: {key[:20]!r} is not a number of guesses (1, 2, ...)")
        if not whole(count):
            raise field_error(f"stats.histogram.{key}", count, "a whole number, 0 or more")
    expect(stats, "stats", "optimal", lambda v: isinstance(v, bool), "true or false", optional=True)
    expect(stats, "stats", "objective", lambda v: v in ("total", "worst", "weighted"), "total, worst or weighted",
           optional=True)
    check_weights_fields(stats)
    for key in ("proof", "first_guess", "engine", "strategy"):
        expect(stats, "stats", key, text, "a string", optional=True)
    expect(stats, "stats", "seconds", number, "a number, 0 or more", optional=True)
    check_nodes(doc["root"])


def check_weights_fields(stats: dict) -> None:
    """A weighted tree's stats: its weights' record (file, sha256, total_weight, answers) and its
    weighted total and mean, all or none of them, each of its type (wordle/weights.py)."""
    keys = ("weights", "weighted_total", "weighted_mean")
    present = [key for key in keys if key in stats]
    if not present:
        if stats.get("objective") == "weighted":
            raise UserError("stats.objective is weighted but stats.weights is missing")
        return
    missing = [key for key in keys if key not in stats]
    if missing:
        raise UserError(f"stats has {present[0]} but not {', '.join(missing)}")
    record = expect(stats, "stats", "weights", lambda v: isinstance(v, dict), "an object")
    expect(record, "stats.weights", "file", lambda v: text(v, 256) and v != "", "a non-empty string")
    expect(record, "stats.weights", "sha256", is_sha256, "a sha256 (64 hex digits)")
    for key in ("total_weight", "answers"):
        expect(record, "stats.weights", key, lambda v: whole(v, 1), "a whole number, 1 or more")
    expect(stats, "stats", "weighted_total", whole, "a whole number, 0 or more")
    expect(stats, "stats", "weighted_mean", number, "a number, 0 or more")


def is_sha256(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def check_nodes(root) -> None:
    """Every node {"guess": word, "next": {pattern: node}} (no "next", or null: a leaf); a
    UserError naming the first bad one by its path (worked out only then: a node's path is its
    parent's entry and its own step)."""
    stack = [(root, None)]
    while stack:
        node, at = stack.pop()
        if type(node) is not dict:
            raise UserError(f"the node at {_where(at)} must be an object, got {kind(node)}")
        guess = node.get("guess")
        if type(guess) is not str or not 0 < len(guess) <= 64:
            raise field_error(f"the guess at {_where(at)}", guess, "a word")
        branches = node.get("next")
        if branches is None:
            continue
        if type(branches) is not dict:
            raise field_error(f"'next' of {guess!r} at {_where(at)}", branches, "an object")
        for pattern, child in branches.items():
            if len(pattern) > 64:
                raise UserError(f"'next' of {guess!r} at {_where(at)}: a pattern of {len(pattern)} characters")
            stack.append((child, (at, guess, pattern)))


def _where(at) -> str:
    """The path of check_nodes' (parent entry, guess, pattern) chain, as path_text words it."""
    steps = []
    while at is not None:
        at, guess, pattern = at
        steps.append((guess, pattern))
    return path_text(steps[::-1]) or "the root"


def generates_codes(doc: dict) -> bool:
    """Whether the tree's game generates its codes (Mastermind, Bulls and Cows): its list names
    then only name the generated list and are never opened."""
    rules = RULES.get(doc["game"].get("name"))
    return rules is not None and rules.codes is not None


def list_path(doc: dict, key: str) -> str:
    """The shipped word list a tree names, by bare file name only (no folder, no `..`); its
    fingerprint is checked once loaded (`check_lists`). A game that generates its codes gets the
    name itself, which only selects the codes. Any other name, a list that is not shipped
    included, is an UnshippedListError: the user gives the lists. A path read out of a file is
    never opened, and no file is looked for beside the tree."""
    name = doc["game"][key]
    if generates_codes(doc) and isinstance(name, str):
        return name
    path = shipped_list(name)
    if path is None:
        raise UnshippedListError(key, name)
    return str(path)


def check_lists(doc: dict, game) -> None:
    """The game's lists must be the ones the tree was made for (by canonical sha256)."""
    ident = game.identity()
    for key in ("answers", "guesses"):
        want, got = doc["game"][f"{key}_sha256"], ident[f"{key}_sha256"]
        if want != got:
            raise UserError(
                f"the {key} list {ident[key]} (sha256 {got[:12]}…) is not the one the tree was made for: "
                f"{doc['game'][key]} (sha256 {want[:12]}…)"
            )


def tree_folding(doc: dict):
    """The letter folding the tree's lists were read with (its game.fold_accents and
    game.keep_letters; none when absent), for reading them again (words.letter_folding)."""
    game = doc["game"]
    return letter_folding(game.get("fold_accents") is True, game.get("keep_letters") or "")


def game_for(doc: dict, answers=None, guesses=None):
    """The engine Game a tree was made for: its preset with the user's lists if given, else with
    the shipped lists the file names (`list_path`); the list fingerprints must match the file's."""
    from ..games import get_game

    if (answers is None) != (guesses is None):
        raise ListPairError()
    if answers is not None:
        with tree_folding(doc):
            game = get_game(doc["game"]["name"], answers, guesses)
    else:
        game = named_game(doc)
    check_lists(doc, game)
    return game


def named_game(doc: dict, keys=("answers", "guesses")):
    """The tree's game on the lists it names (`list_path`; with one key, that list for both). A
    list that cannot be read as a word list is named without quoting its lines: it was found by
    a name out of a file, and its content is nobody's business here."""
    from ..games import PRESETS, get_game

    if doc["game"]["name"] not in PRESETS:  # named before any list is looked for
        get_game(doc["game"]["name"])
    paths = [list_path(doc, key) for key in keys]
    try:
        with tree_folding(doc):
            return get_game(doc["game"]["name"], paths[0], paths[-1])
    except UserError as exc:
        raise named_list_error(doc, exc) from None


def named_list_error(doc: dict, exc: UserError) -> UserError:
    """`exc`, raised while reading the lists a tree names, reworded without the file's lines."""
    if isinstance(exc, UnshippedListError):
        return exc
    reason = next((r for r in ("not a regular file", "larger than", "not UTF-8", "is empty", "letters")
                   if r in str(exc)), "not a word list")
    return UserError(f"the lists the tree names ({doc['game']['answers']}, {doc['game']['guesses']}) are not "
                     f"the ones it was made for ({reason})")


def histogram_lines(histogram: dict, width: int = 40) -> list[str]:
    """The histogram as a text bar chart, one line per number of guesses."""
    counts = {int(k): v for k, v in histogram.items()}
    top = max(counts.values(), default=0) or 1
    pad = len(str(max(counts.values(), default=0)))
    return [f"{k:>3} {counts[k]:>{pad}} {'#' * -(-counts[k] * width // top)}" for k in sorted(counts)]


def describe_file(path) -> dict:
    """What a list of trees says of a wordtree/1 file (families.describe): its game, rules, lists,
    total guesses over every answer and whether it is proven optimal."""
    return describe(read_tree(path))


def describe(doc: dict) -> dict:
    """describe_file of a tree already read (read_tree)."""
    game, stats = doc["game"], doc["stats"]
    return {"format": FORMAT, "game": game["name"], "mode": game.get("mode"), "max_guesses": game.get("max_guesses"),
            "lists": {key: game.get(key) for key in ("answers", "guesses")},
            "answers": game.get("answers_count"), "opener": doc["root"]["guess"],
            "total": stats["total"], "measure": "guesses over every answer", "mean": stats["mean"],
            "optimal": bool(stats.get("optimal"))} | ({} if not stats.get("weights") else {
                "total": stats["weighted_total"], "mean": stats["weighted_mean"],
                "measure": f"guesses weighted by {stats['weights']['file']} (weight {stats['weights']['total_weight']})"})
