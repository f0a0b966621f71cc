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
from ..words import read_bounded, shipped_list
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
                  proof="exhaustive", seconds=0.0, extra=None, depths=None) -> dict:
    """A wordtree/1 document for `root` on `game` (`max_guesses=None` means no cap and is written
    as null). The stats come from `depths`, each answer's number of guesses in this tree as the
    exact builder read them off it (BuildResult.depths), else from replaying every answer."""
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
    doc["_path"] = str(path)  # for messages; never written back
    return doc


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


def game_for(doc: dict, answers=None, guesses=None):
    """The engine Game a tree was made for: its preset with the user's lists if given, else with
    the shipped lists the file names (`list_path`); the list fingerprints must match the file's."""
    from ..games import get_game

    if (answers is None) != (guesses is None):
        raise ListPairError()
    if answers is not None:
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
            "optimal": bool(stats.get("optimal"))}
