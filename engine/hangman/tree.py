"""Hangman trees as JSON, and their verifier.

A node is {"guess": LETTER, "next": {FEEDBACK: node}} where FEEDBACK is the letter's positions as
text (`-pp--`, or all dashes for a miss); a leaf is the word itself (one candidate left: its
remaining letters are all hits) or {"lost": [WORDS]} (the wrong guess that exceeded the lives).
Letters that cannot split the candidates never appear: they cost a miss or nothing and teach
nothing.

`verify_document` shares no code with the search: it reads the word list itself, plays every word
through the tree with its own feedback rule, and recomputes every figure the file states.
`check_baselines` recomputes the baseline rules' figures with the engine's own rules (what defines
them), and `prove_optimal` re-proves an optimality claim from the kept search in runs/ or by
searching again. A tree file may come from anywhere: the lists it names are found by bare file
name among the shipped ones, or given by the user, and checked by fingerprint; a path read out of
the file is never opened, and no file is looked for beside the tree.
"""

from __future__ import annotations

import hashlib
import os
import orjson

from ..data import PACKAGE
from ..errors import UnshippedListError, UserError
from ..text import percent
from ..wordle.tree import TREE_MAX_BYTES, expect, field_error, is_sha256, kind, number, text, whole
from ..words import (
    LIST_MAX_BYTES,
    canonical_sha256,
    load_words,
    read_bounded,
    resolve_path,
    shipped_list,
)

FORMAT = "wordtree-hangman/1"
WIN_POINTS = 20
FIGURES = ("expected_score", "expected_misses", "win_rate", "total_score", "total_misses", "lost_weight",
           "total_weight")
RUNS_DIR = PACKAGE.parent / "runs"  # the kept exact searches (a checkout's runs/, see its README)
PROVE_NODES = 5_000_000  # the search verify runs to re-prove a claim without a kept search
PROVE_MEMO = 2_000_000
SOURCES = {
    "enable1.txt": 'ENABLE word list, public domain: "Please mention the source and credit us as originators '
                   'of the list": Alan Beale, Mendel Cooper',
    "word-frequency.tsv": "Word frequencies from orgtre/google-books-ngram-frequency (CC BY 3.0), derived from "
                          "the Google Books Ngram dataset v20200217",
}


# ------------------------------------------------------------------------------------------------
# building
# ------------------------------------------------------------------------------------------------
def build_tree(hw, members, strikes: int, choose, counts: dict) -> object:
    """The tree of `choose(members, strikes) -> letter` from this set, adding the weighted misses
    and lost words to `counts`."""
    import numpy as np

    from .game import LETTERS, mask_text
    from .search import split

    members = np.asarray(members)
    if strikes == 0:
        counts["lost"] += int(hw.weights[members].sum())
        return {"lost": [hw.words[i] for i in members]}
    if members.size == 1:
        return hw.words[int(members[0])]
    letter = choose(members, strikes)
    if letter < 0:
        raise AssertionError("no letter chosen for a set of several words")
    nxt = {}
    for mask, part in split(hw, members, letter):
        if mask == 0:
            counts["misses"] += int(hw.weights[part].sum())
            nxt[mask_text(0, LETTERS[letter], hw.length)] = build_tree(hw, part, strikes - 1, choose, counts)
        else:
            nxt[mask_text(mask, LETTERS[letter], hw.length)] = build_tree(hw, part, strikes, choose, counts)
    return {"guess": LETTERS[letter], "next": nxt}


def sources_for(identity: dict) -> list[str]:
    return [SOURCES[name] for name in (identity.get("words"), identity.get("weights")) if name in SOURCES]


def write_document(path, doc: dict) -> bytes:
    """Atomic: a temporary file in the same folder, then a rename (a FIFO or /dev/stdout is
    written through). The bytes written, for verify_file of a stream, which cannot be read back."""
    from ..files import write_atomic

    data = orjson.dumps(doc)
    write_atomic(path, data)
    return data


# ------------------------------------------------------------------------------------------------
# verifying (independent of the search and of game.py)
# ------------------------------------------------------------------------------------------------
def _feedback(letter: str, word: str) -> str:
    return "".join(ch if ch == letter else "-" for ch in word)


def _find(game: dict, key: str, given=None):
    """A list the tree names: the user's file if given, else the shipped list of that bare file
    name. Anything else is an UnshippedListError: a path read out of a file is never opened."""
    if given is not None:
        return resolve_path(given)
    name = game.get(key)
    path = shipped_list(name)
    if path is None:
        raise UnshippedListError(key, name)
    return path


def _weights(game: dict, words, weights_file=None) -> dict[str, int]:
    if not game.get("weights"):
        return {w: 1 for w in words}
    path = _find(game, "weights", weights_file)
    raw = read_bounded(path, LIST_MAX_BYTES, "weights file")
    if hashlib.sha256(raw).hexdigest() != game.get("weights_sha256"):
        raise UserError(f"{path}: weights file differs from the one the tree was made with")
    counts: dict[str, int] = {}
    for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        if line.strip():
            word, tab, count = line.partition("\t")
            if not tab or not count.strip().isdigit() or len(count.strip()) > 18:
                raise UserError(f"{path}: line {number} is not word<TAB>count")
            counts.setdefault(word.strip().lower(), int(count))
    return {w: max(1, counts.get(w, 1)) for w in words}


def tree_words(game: dict, length: int, words_file=None) -> list[str]:
    """The `length`-letter words of the list a tree's `game` names (a shipped one, by file name
    only) or of the user's `words_file`, sorted, checked against the tree's fingerprint and count.
    A named list that cannot be read is reported without quoting its lines (it was found by a name
    out of the file)."""
    path = _find(game, "words", words_file)
    try:
        lst = load_words(path)
    except UserError as exc:
        if words_file is not None:
            raise
        reason = next((r for r in ("not a regular file", "larger than", "not UTF-8", "is empty") if r in str(exc)),
                      "not a word list")
        raise UserError(f"game: the words list {path.name} is not the one the tree was made for ({reason})") from None
    words = sorted(w for w in set(lst.words) if len(w) == length)
    if canonical_sha256(words) != game.get("words_sha256") or len(words) != game.get("words_count"):
        raise UserError(f"game: the {length}-letter words of {lst.name} differ from those the tree was made for")
    return words


def verify_document(doc: dict, words_file=None, weights_file=None) -> dict:
    """Replay every word; return the recomputed figures. The first defect is a UserError.
    The word list (and weights file) is the user's `words_file` (`weights_file`), else the
    shipped one the tree names, by file name only."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UserError(f"not a {FORMAT} document")
    game = doc.get("game") or {}
    length, lives = game.get("word_length"), game.get("lives")
    if not isinstance(length, int) or not isinstance(lives, int) or lives < 0:
        raise UserError("game: word_length and lives must be integers")
    words = tree_words(game, length, words_file)
    weights = _weights(game, words, weights_file)
    visits: dict[int, int] = {}
    reached_lost: dict[int, list[str]] = {}
    misses_total = lost_total = 0
    for word in words:
        node, misses, guessed, path = doc.get("tree"), 0, set(), []
        while True:
            visits[id(node)] = visits.get(id(node), 0) + 1
            if isinstance(node, str):
                if node != word:
                    raise UserError(f"word {word!r}: the tree ends at {node!r} after {' '.join(path) or 'no guess'}")
                break
            if not isinstance(node, dict):
                raise UserError(f"word {word!r}: malformed node after {' '.join(path)}")
            if "lost" in node:
                if misses != lives + 1:
                    raise UserError(f"word {word!r}: declared lost after {misses} wrong guesses (lives {lives})")
                reached_lost.setdefault(id(node), []).append(word)
                lost_total += weights[word]
                misses_total += misses * weights[word]
                break
            letter = node.get("guess")
            if not (isinstance(letter, str) and len(letter) == 1 and "a" <= letter <= "z") or letter in guessed:
                raise UserError(f"word {word!r}: bad or repeated guess {letter!r} after {' '.join(path)}")
            guessed.add(letter)
            text = _feedback(letter, word)
            if letter not in word:
                misses += 1
            path.append(f"{letter}:{text}")
            nxt = node.get("next")
            if not isinstance(nxt, dict) or text not in nxt:
                raise UserError(f"word {word!r}: no branch for {' '.join(path)}")
            if misses > lives:
                child = nxt[text]
                if not (isinstance(child, dict) and "lost" in child):
                    raise UserError(f"word {word!r}: {misses} wrong guesses, but the tree plays on")
            node = nxt[text]
        if not isinstance(node, dict):
            misses_total += misses * weights[word]
    _check_shape(doc.get("tree"), visits, reached_lost)
    figures = totals_figures(misses_total, lost_total, sum(weights.values()))
    result = doc.get("result") or {}
    for key in FIGURES:
        if result.get(key) != figures[key]:
            raise UserError(f"result.{key} is {result.get(key)!r}, the tree gives {figures[key]}")
    if (result.get("optimal") and result.get("proof") == "bound met"
            and not meets_bound(result.get("bound") or {}, figures["total_score"], misses_total)):
        raise UserError("result: optimal by its bound, but the tree does not reach result.bound")
    return figures


def totals_figures(misses: int, lost: int, total_weight: int) -> dict:
    """Every figure a file states of a strategy, from its weighted wrong guesses and lost words
    (the rounding build writes: six places)."""
    score = WIN_POINTS * (total_weight - lost) - misses
    return {
        "expected_score": round(score / total_weight, 6),
        "expected_misses": round(misses / total_weight, 6),
        "win_rate": round((total_weight - lost) / total_weight, 6),
        "total_score": score,
        "total_misses": misses,
        "lost_weight": lost,
        "total_weight": total_weight,
    }


def meets_bound(bound: dict, total_score: int, total_misses: int) -> bool:
    """Whether a tree of these figures reaches the proven bound recorded with it: then no tree
    scores more, nor, at that score, makes fewer wrong guesses, and a best-found tree is optimal
    after all (on small games a search cut short by --max-nodes often has found the optimum).
    What build writes as "proof": "bound met", and what the verifier checks of that claim."""
    return (bound.get("max_total_score") == total_score
            and bound.get("least_total_misses_at_max", total_misses) == total_misses)


def _check_shape(node, visits: dict, reached_lost: dict) -> None:
    """Every branch is reached by some word, and a lost leaf lists exactly the words reaching it."""
    stack = [node]
    while stack:
        node = stack.pop()
        if not visits.get(id(node)):
            raise UserError(f"a branch no word reaches: {str(node)[:60]}")
        if isinstance(node, dict) and "lost" in node:
            if sorted(node["lost"]) != sorted(reached_lost.get(id(node), [])):
                raise UserError(f"lost leaf {node['lost'][:5]} lists words that do not reach it")
        elif isinstance(node, dict):
            stack.extend(node["next"].values())


def summary(doc: dict, figures: dict) -> str:
    game, result = doc["game"], doc["result"]
    w = figures["total_weight"]
    text = (f"hangman {game['word_length']} letters, {game['lives']} lives, {game['words_count']} words of "
            f"{game['words']}: expected score {figures['total_score'] / w:.4f}, wrong guesses "
            f"{figures['total_misses'] / w:.4f}, won {percent(w - figures['lost_weight'], w)}")
    if result.get("optimal"):
        return text + f" - optimal ({result.get('proof')})"
    bound = result.get("bound") or {}
    if "max_expected_score" in bound:
        return text + f" - not proven optimal; proven bound: expected score <= {bound['max_expected_score']:.4f}"
    return text + f" - {doc.get('strategy', 'tree')}, not proven optimal"


def read_document(path, data: bytes | None = None) -> dict:
    """A hangman tree file's JSON (bounded: a regular file of at most TREE_MAX_BYTES), every
    field a command reads checked for its type (check_document); anything else is one UserError
    line naming the file and the field. `data`: the file's bytes, already at hand."""
    try:
        doc = orjson.loads(read_bounded(path, TREE_MAX_BYTES, "tree file") if data is None else data)
    except orjson.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc})") from None
    try:
        check_document(doc)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    return doc


FIGURE_TESTS = {
    "expected_score": (lambda v: number(v, -1e12), "a number"),
    "expected_misses": (number, "a number, 0 or more"),
    "win_rate": (lambda v: number(v, 0, 1), "a number from 0 to 1"),
    "total_score": (lambda v: whole(v, -(1 << 62)), "a whole number"),
    "total_misses": (whole, "a whole number, 0 or more"),
    "lost_weight": (whole, "a whole number, 0 or more"),
    "total_weight": (lambda v: whole(v, 1), "a whole number, 1 or more"),
}


def check_document(doc) -> None:
    """Every field of a wordtree-hangman/1 document that a command reads, of its type and in its
    range; a UserError naming the first one that is not ("game.lives must be a whole number from 0
    to 25, got a string"). The figures are checked against the tree by verify_document."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        found = doc.get("format") if isinstance(doc, dict) else kind(doc)
        raise UserError(f"not a {FORMAT} file (format: {str(found)[:40]!r})")
    for key in ("game", "result"):
        if not isinstance(doc.get(key), dict):
            raise field_error(key, doc.get(key), "an object")
    game, result = doc["game"], doc["result"]
    expect(game, "game", "name", lambda v: v == "hangman", "hangman", optional=True)
    expect(game, "game", "word_length", lambda v: whole(v, 1, 64), "a whole number from 1 to 64")
    expect(game, "game", "lives", lambda v: whole(v, 0, 25), "a whole number from 0 to 25")
    expect(game, "game", "lost_at_wrong_guess", lambda v: whole(v, 1, 26), "a whole number from 1 to 26",
           optional=True)
    expect(game, "game", "words", lambda v: text(v, 256) and v != "", "a non-empty string")
    expect(game, "game", "words_sha256", is_sha256, "a sha256 (64 hex digits)")
    expect(game, "game", "words_count", lambda v: whole(v, 1), "a whole number, 1 or more")
    weights = expect(game, "game", "weights", lambda v: v is None or v is False or text(v, 256),
                     "a string (the weights file) or null", optional=True)
    if weights:
        expect(game, "game", "weights_sha256", is_sha256, "a sha256 (64 hex digits)")
    for key in ("engine", "objective", "strategy"):
        expect(doc, "", key, text, "a string", optional=True)
    expect(doc, "", "sources", lambda v: isinstance(v, list) and all(text(x) for x in v), "a list of strings",
           optional=True)
    expect(result, "result", "optimal", lambda v: isinstance(v, bool), "true or false")
    expect(result, "result", "proof", lambda v: v is None or text(v), "a string or null", optional=True)
    expect(result, "result", "seconds", number, "a number, 0 or more", optional=True)
    expect(result, "result", "search", lambda v: isinstance(v, dict), "an object", optional=True)
    for key, (test, wanted) in FIGURE_TESTS.items():
        expect(result, "result", key, test, wanted)
    bound = expect(result, "result", "bound", lambda v: isinstance(v, dict), "an object", optional=True)
    if bound is not None:
        expect(bound, "result.bound", "max_total_score", lambda v: whole(v, -(1 << 62)), "a whole number",
               optional=True)
        expect(bound, "result.bound", "least_total_misses_at_max", whole, "a whole number, 0 or more", optional=True)
        expect(bound, "result.bound", "max_expected_score", lambda v: number(v, -1e12), "a number", optional=True)
    baselines = expect(doc, "", "baselines", lambda v: isinstance(v, dict), "an object", optional=True)
    for rule, stated in (baselines or {}).items():
        if not isinstance(stated, dict):
            raise field_error(f"baselines.{rule[:40]}", stated, "an object")
        for key, (test, wanted) in FIGURE_TESTS.items():
            expect(stated, f"baselines.{rule[:40]}", key, test, wanted)
    check_nodes(doc.get("tree"), game["word_length"])


def check_nodes(root, length: int) -> None:
    """Every node of a Hangman tree of its shape: a word (a leaf), {"lost": [words]}, or
    {"guess": letter, "next": {feedback: node}} with feedback texts of `length` characters; a
    UserError naming the first that is not, by its path (worked out only then)."""
    stack = [(root, None)]
    while stack:
        node, at = stack.pop()
        if type(node) is str:
            if len(node) != length:
                raise UserError(f"tree: the leaf {node[:20]!r} at {_where(at)} is not a {length}-letter word")
            continue
        if type(node) is not dict:
            raise UserError(f"tree: not a node at {_where(at)}: a node must be an object or a word, got {kind(node)}")
        if "lost" in node:
            lost = node["lost"]
            if not isinstance(lost, list) or not lost or not all(isinstance(w, str) for w in lost):
                raise field_error(f"tree: 'lost' at {_where(at)}", lost, "a list of words")
            continue
        letter, branches = node.get("guess"), node.get("next")
        if not (type(letter) is str and len(letter) == 1 and "a" <= letter <= "z"):
            raise field_error(f"tree: bad or repeated guess at {_where(at)}: the guess", letter, "a letter a-z")
        if type(branches) is not dict or not branches:
            raise field_error(f"tree: the node of {letter!r} at {_where(at)} has no branches: its 'next'", branches,
                              "a non-empty object")
        for key, child in branches.items():
            if len(key) != length:
                raise UserError(f"tree: the branch {key[:20]!r} of {letter!r} at {_where(at)} is not {length} "
                                "characters")
            stack.append((child, (at, letter, key)))


def _where(at) -> str:
    """The path of check_nodes' (parent entry, letter, feedback) chain: `e:-e--- s:-----`."""
    steps = []
    while at is not None:
        at, letter, key = at
        steps.append(f"{letter}:{key}")
    return " ".join(steps[::-1]) or "the root"


def verify_file(path, words_file=None, weights_file=None, written: bytes | None = None) -> str:
    """Verify a hangman tree file, its baseline figures included; a one-line summary, or a
    UserError naming the first defect. `words_file` (`weights_file`): the word list (weights),
    when not the shipped one the tree names. `written`: the bytes just written to `path`, checked
    in its place when `path` is a stream (a FIFO, /dev/stdout), which cannot be read back."""
    return verify_report(path, words_file, weights_file, written)["summary"]


def verify_report(path, words_file=None, weights_file=None, written: bytes | None = None) -> dict:
    """As verify_file: {"summary": its line, "figures": the figures replayed (verify_document),
    "optimal": whether the file claims the tree optimal}."""
    stream = written is not None and not os.path.isfile(path)
    doc = read_document(path, written if stream else None)
    try:
        figures = verify_document(doc, words_file, weights_file)
        check_baselines(doc, _lists(doc, words_file, weights_file))
    except UnshippedListError:
        raise  # the command layer names the flag that gives the list
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    return {"summary": summary(doc, figures), "figures": figures, "optimal": bool(doc["result"].get("optimal"))}


def _lists(doc: dict, words_file=None, weights_file=None) -> tuple[str, str | None]:
    """(words file, weights file or None) of a verified document, as verify_document found them."""
    game = doc["game"]
    weights = str(_find(game, "weights", weights_file)) if game.get("weights") else None
    return str(_find(game, "words", words_file)), weights


def check_baselines(doc: dict, lists: tuple[str, str | None]) -> None:
    """The baseline rules' figures the file states, recomputed by playing each rule over every
    word (the engine's rules: they are what defines a baseline); the first that differs is a
    UserError."""
    baselines = doc.get("baselines", {})
    if not isinstance(baselines, dict):
        raise UserError("baselines: not an object")
    if not baselines:
        return
    from .baselines import RULES, rule_totals
    from .game import load_hangman_words
    from .search import Searcher

    unknown = sorted(set(baselines) - set(RULES))
    if unknown:
        raise UserError(f"baselines: unknown rule {unknown[0]!r}; known: {', '.join(RULES)}")
    game = doc["game"]
    s = Searcher(load_hangman_words(game["word_length"], *lists), game["lives"], memo_entries=16)
    for rule, stated in sorted(baselines.items()):
        t = rule_totals(s, rule)
        figures = totals_figures(t.misses, t.lost, t.total_weight)
        for key in FIGURES:
            if not isinstance(stated, dict) or stated.get(key) != figures[key]:
                got = stated.get(key) if isinstance(stated, dict) else stated
                raise UserError(f"baselines.{rule}.{key} is {got!r}, the {rule} rule gives {figures[key]}")


# ------------------------------------------------------------------------------------------------
# re-proving an optimality claim (the exact search, imported only here)
# ------------------------------------------------------------------------------------------------
def prove_optimal(path, words_file=None, say=None, weights_file=None) -> tuple[bool | None, str]:
    """Re-prove the claim of the verified tree file at `path` that no tree scores more (and, at
    that score, makes fewer wrong guesses): from the kept search in runs/ when there is one of
    this game (its whole set's exact value, the tree's first letter's classes adding up to it,
    every other first letter shown no better), else by searching again within PROVE_NODES nodes.
    (True, how) when re-proved, (False, why) when the claim fails, (None, why) when it cannot be
    re-proved here. `say`: a progress line; `words_file`, `weights_file`: as for verify_file."""
    import numpy as np

    from .game import load_hangman_words
    from .search import Searcher, Totals

    doc = read_document(path)
    game, result = doc["game"], doc["result"]
    hw = load_hangman_words(game["word_length"], *_lists(doc, words_file, weights_file))
    lives, everyone = game["lives"], np.arange(len(hw.words))
    probe = Searcher(hw, lives, memo_entries=16)
    tree_cost = probe.totals_cost(Totals(result["total_misses"], result["lost_weight"], probe.total_weight))
    kept = RUNS_DIR / f"hangman-{game['word_length']}.npz"
    value, how = None, None
    if kept.is_file():
        if say:
            say(f"proving: reading the kept search {kept.name}")
        try:
            value = _kept_proof(probe, kept, everyone, doc["tree"])
            how = f"by the kept search {kept.name}"
        except UserError:  # another game's search (other words or lives): search instead
            value = None
    if value is None:
        if say:
            say(f"proving: the exact search of {len(hw.words)} words, {lives} lives (at most {PROVE_NODES} nodes)")
        s = Searcher(hw, lives, memo_entries=PROVE_MEMO)
        cost, finished, _ = s.solve(everyone, s.strikes, max_nodes=PROVE_NODES, limit=tree_cost + 1)
        if not finished:
            return None, (f"the exact search did not finish within {PROVE_NODES} nodes, and no kept search of "
                          f"this game is at hand")
        value, how = cost, f"by the exact search ({s.nodes} nodes)"
    if value != tree_cost:
        c, m = probe.split_cost(value)
        return False, (f"the optimum scores {WIN_POINTS * probe.total_weight - c} with {m} wrong guesses "
                       f"({how}); the tree {result['total_score']} with {result['total_misses']}")
    return True, how


def _kept_proof(s, path, everyone, tree) -> int | None:
    """The least cost of the whole set by the kept search at `path`, when what it holds proves
    it: the whole set's exact value, the tree's first letter's classes each exact and adding up
    to it, and every other useful first letter no better by what is known of its classes."""
    from .game import LETTERS

    if s.load_memo(path) is None:
        return None
    whole, exact = s.known(everyone, s.strikes)
    letter = tree.get("guess") if isinstance(tree, dict) else None
    if not exact or not isinstance(letter, str) or letter not in LETTERS:
        return None
    sure = []

    def solved(part, strikes: int) -> int:
        value, ok = s.known(part, strikes)
        sure.append(ok)
        return value

    opener = LETTERS.index(letter)
    if s.opening_cost(everyone, s.strikes, opener, solved) != whole or not all(sure):
        return None
    if any(s.opening_cost(everyone, s.strikes, c, lambda part, r: s.known(part, r)[0]) < whole
           for c in s.useful_letters(everyone)):
        return None
    return whole


def describe_file(path) -> dict:
    """What a list of trees says of a wordtree-hangman/1 file (families.describe): its word
    length, lives, word list, total score over every word and whether it is proven optimal."""
    doc = read_document(path)
    game, result = doc["game"], doc["result"]
    return {"format": FORMAT, "game": "hangman", "word_length": game.get("word_length"), "lives": game.get("lives"),
            "lists": {"words": game.get("words")}, "answers": game.get("words_count"),
            "total": result.get("total_score"), "measure": "score over every word (20 a win, -1 a miss)",
            "mean": result.get("expected_score"), "optimal": bool(result.get("optimal"))}
