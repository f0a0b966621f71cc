"""Hangman trees as JSON, and their verifier.

A node is {"guess": LETTER, "next": {FEEDBACK: node}} where FEEDBACK is the letter's positions as
text (`-pp--`, or all dashes for a miss); a leaf is the word itself (one candidate left: its
remaining letters are all hits) or {"lost": [WORDS]} (the wrong guess that exceeded the lives).
Letters that cannot split the candidates never appear: they cost a miss or nothing and teach
nothing.

`verify_document` shares no code with the search: it reads the word list itself, plays every word
through the tree with its own feedback rule, and recomputes every figure the file states.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson

from ..errors import UserError
from ..words import canonical_sha256, load_words, resolve_path

FORMAT = "wordtree-hangman/1"
WIN_POINTS = 20
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


def write_document(path, doc: dict) -> None:
    """Atomic: a temporary file in the same folder, then a rename."""
    from ..files import write_atomic

    write_atomic(path, orjson.dumps(doc))


# ------------------------------------------------------------------------------------------------
# verifying (independent of the search and of game.py)
# ------------------------------------------------------------------------------------------------
def _feedback(letter: str, word: str) -> str:
    return "".join(ch if ch == letter else "-" for ch in word)


def _find(name: str, base: Path | None) -> Path:
    """A list named in a tree: next to the tree file, else as given, else in wordlists/."""
    if base is not None and (base / name).exists():
        return base / name
    return resolve_path(name)


def _weights(game: dict, words, base: Path | None) -> dict[str, int]:
    if not game.get("weights"):
        return {w: 1 for w in words}
    path = _find(game["weights"], base)
    raw = path.read_bytes()
    if game.get("weights_sha256") and hashlib.sha256(raw).hexdigest() != game["weights_sha256"]:
        raise UserError(f"{path}: weights file differs from the one the tree was made with")
    counts: dict[str, int] = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        if line.strip():
            word, count = line.split("\t")
            counts.setdefault(word.strip().lower(), int(count))
    return {w: max(1, counts.get(w, 1)) for w in words}


def verify_document(doc: dict, base: Path | None = None) -> dict:
    """Replay every word; return the recomputed figures. The first defect is a UserError.
    Lists are looked for next to the tree (`base`), as named, then in wordlists/."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UserError(f"not a {FORMAT} document")
    game = doc.get("game") or {}
    length, lives = game.get("word_length"), game.get("lives")
    if not isinstance(length, int) or not isinstance(lives, int) or lives < 0:
        raise UserError("game: word_length and lives must be integers")
    lst = load_words(_find(game.get("words", ""), base))
    words = sorted(w for w in set(lst.words) if len(w) == length)
    if canonical_sha256(words) != game.get("words_sha256") or len(words) != game.get("words_count"):
        raise UserError(f"game: the {length}-letter words of {lst.name} differ from those the tree was made for")
    weights = _weights(game, words, base)
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
    total_weight = sum(weights.values())
    figures = {
        "total_misses": misses_total,
        "lost_weight": lost_total,
        "total_weight": total_weight,
        "total_score": WIN_POINTS * (total_weight - lost_total) - misses_total,
    }
    result = doc.get("result") or {}
    for key, value in figures.items():
        if result.get(key) != value:
            raise UserError(f"result.{key} is {result.get(key)!r}, the tree gives {value}")
    if (result.get("optimal") and result.get("proof") == "bound met"
            and not meets_bound(result.get("bound") or {}, figures["total_score"], misses_total)):
        raise UserError("result: optimal by its bound, but the tree does not reach result.bound")
    return figures


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
            f"{figures['total_misses'] / w:.4f}, won {100 * (w - figures['lost_weight']) / w:.2f} %")
    if result.get("optimal"):
        return text + f" - optimal ({result.get('proof')})"
    bound = result.get("bound") or {}
    if "max_expected_score" in bound:
        return text + f" - not proven optimal; proven bound: expected score <= {bound['max_expected_score']:.4f}"
    return text + f" - {doc.get('strategy', 'tree')}, not proven optimal"


def verify_file(path) -> str:
    """Verify a hangman tree file; a one-line summary, or a UserError naming the first defect."""
    try:
        doc = orjson.loads(Path(path).read_bytes())
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror})") from None
    except orjson.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc})") from None
    try:
        figures = verify_document(doc, Path(path).resolve().parent)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    return summary(doc, figures)
