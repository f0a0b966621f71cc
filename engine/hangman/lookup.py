"""Hangman lookups: the best next letter for a position of a real game, and an assistant that plays one.

A position is the word as revealed so far (`_e___`: `_` or `.` for a hidden letter) and the
letters missed. The words left are those of the tree's length with every revealed letter exactly
where it stands and nowhere else, and no missed letter.

What the player knows is the set of letters guessed, not their order, so the tree is walked by
that set: from the root, a node whose letter the player has guessed is followed along its branch
(the letter's positions in the pattern, all dashes for a miss), and the walk stops at the first
node whose letter the player has not guessed. The player is on the tree there when the node's
words (each checked against every branch above it) are exactly the words left and the node's
wrong guesses are the player's: a letter the tree skips at no cost keeps the player on it, a
wasted miss does not. On the tree, the node's letter is the advice and its subtree gives the
expected score; nothing here imports numpy or numba then. Off the tree, the words left are
searched exactly within EXACT_NODES nodes (numba, imported only then), else the heuristic rule's
letter is given, labelled "heuristic".

A tree file may come from anywhere: it is read bounded, its word list found as `verify` finds it
(a shipped list by bare file name, or the user's file) and checked by fingerprint, and every node
the lookup reads is checked before it is believed.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path

from ..errors import UnshippedListError, UserError
from .tree import FORMAT, WIN_POINTS, _weights, read_document, tree_words

EXACT_NODES = 300_000  # the exact search's node budget off the tree: about 2-4 s here; sets of a few hundred words finish
PLAIN_WORDS = 600  # words left up to which the plain Python search (plain.py, nothing to compile) is tried first
PLAIN_NODES = 60_000  # its node budget: a few seconds at most (_e___ with s and a missed: 264 words, 38k nodes)
EXACT_MEMO = 1 << 20  # its memo's entries
SAY_ABOVE = 100  # words left above which a search off the tree is announced (it may take seconds)
HEURISTIC_RULE = "frequency"  # the letter off the tree when the search does not finish (baselines.RULES)
MIN_LENGTH, MAX_LENGTH = 2, 15  # game.py's (not imported here: it imports numpy): the lengths of the shipped trees
LONGEST = 64  # lengths above MAX_LENGTH, to this, are looked up without a tree (HangmanTree.without_tree)
LONG_NODES = 200_000  # the plain search's budget there (ENABLE's 16-letter words from the start: 332 nodes)
WORDS = "enable1.txt"  # the list the shipped trees and the server's words come from
LIVES = 10  # the shipped trees' lives, and the server's
HIDDEN = "_.-"  # how a hidden letter may be written; shown as "_"
LETTERS = string.ascii_lowercase
# str.translate tables: a word (or pattern) as the feedback text of one letter (`-e---`)
_ONLY = {c: str.maketrans({o: "-" for o in LETTERS + "_" if o != c}) for c in LETTERS}


@dataclass
class Advice:
    """What a lookup says of a position."""

    letter: str | None  # the letter to guess next; None once the game is won or lost
    source: str  # "tree", "exact" or "heuristic"; "won" or "lost" once the game is over
    pattern: str  # the word as revealed, "_" for a hidden letter
    missed: str  # the letters missed, sorted
    words: list[str]  # the words left, sorted
    lives: int  # wrong guesses the game allows (the next one loses)
    expected_score: float | None  # of the word, its wrong guesses so far included; None: unknown
    word: str | None = None  # the word, once it is known (one word left, or won)
    to_guess: str = ""  # its letters still hidden, in order

    @property
    def misses(self) -> int:
        return len(self.missed)

    @property
    def wrong_guesses_left(self) -> int:
        return max(0, self.lives - self.misses)

    @property
    def status(self) -> str:
        return self.source if self.source in ("won", "lost") else "playing"

    def as_json(self) -> dict:
        return {
            "letter": self.letter,
            "source": self.source,
            "status": self.status,
            "pattern": self.pattern,
            "missed": self.missed,
            "wrong_guesses": self.misses,
            "wrong_guesses_left": self.wrong_guesses_left,
            "lives": self.lives,
            "candidates": len(self.words),
            "candidate_words": self.words,
            "word": self.word,
            "to_guess": self.to_guess,
            "expected_score": self.expected_score,
        }


def shipped_tree(length: int) -> Path:
    """The shipped tree of words of `length` letters (trees/hangman/hangman-N.json)."""
    from . import TREE_DIR

    path = TREE_DIR / f"hangman-{length}.json"
    if not path.is_file():
        raise UserError(f"no Hangman tree of {length}-letter words is shipped (lengths {MIN_LENGTH} to {MAX_LENGTH}; "
                        f"{MAX_LENGTH + 1} to {LONGEST} are searched without one)")
    return path


def for_length(length: int, words_file=None, weights_file=None) -> HangmanTree:
    """What `--game hangman` looks a position of `length` letters up in: the shipped tree of that
    length, or above MAX_LENGTH (to LONGEST) the words of that length alone, searched exactly
    from the start (HangmanTree.without_tree)."""
    if MAX_LENGTH < length <= LONGEST:
        return HangmanTree.without_tree(length, words_file, weights_file)
    return HangmanTree.open(shipped_tree(length), words_file, weights_file)


class HangmanTree:
    """A Hangman tree with its word list (and weights) loaded: what lookups need."""

    def __init__(self, doc, words_file=None, weights_file=None):
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise UserError(f"not a {FORMAT} document")
        game = doc.get("game")
        length, lives = (game.get("word_length"), game.get("lives")) if isinstance(game, dict) else (None, None)
        if (not isinstance(length, int) or not MIN_LENGTH <= length <= MAX_LENGTH or not isinstance(lives, int)
                or isinstance(lives, bool) or lives < 0):
            raise UserError(f"game: word_length ({MIN_LENGTH} to {MAX_LENGTH}) and lives (0 or more) must be integers")
        if not isinstance(doc.get("tree"), (dict, str)):
            raise UserError("tree: not a node")
        self.doc, self.length, self.lives = doc, length, lives
        self.words = self._words(game, words_file)
        try:
            self.weights = _weights(game, self.words, weights_file)
        except ValueError:
            raise UserError("the weights file is not word<TAB>count lines") from None

    @classmethod
    def without_tree(cls, length: int, words_file=None, weights_file=None, lives: int = LIVES) -> HangmanTree:
        """The `length`-letter words of `words_file` (default ENABLE, the server's) with no tree:
        every position is off the tree, searched exactly by the plain search (plain.py) within
        LONG_NODES nodes, else given the heuristic rule's letter, labelled so. For the long words
        no tree is shipped for: few and far apart, they take a few hundred nodes from the start."""
        from ..words import load_words, shipped_list

        tree = cls.__new__(cls)
        tree.doc, tree.length, tree.lives = None, length, lives
        listed = load_words(shipped_list(WORDS) if words_file is None else words_file)
        tree.words = sorted(w for w in set(listed.words) if len(w) == length)
        if not tree.words:
            raise UserError(f"no Hangman tree of {length}-letter words is shipped, and {listed.name} has no word "
                            f"of {length} letters")
        tree.weights = {w: 1 for w in tree.words}
        if weights_file is not None:
            import hashlib

            from ..words import LIST_MAX_BYTES, read_bounded, resolve_path

            raw = read_bounded(resolve_path(weights_file), LIST_MAX_BYTES, "weights file")
            try:
                tree.weights = _weights({"weights": str(weights_file), "weights_sha256": hashlib.sha256(raw).hexdigest()},
                                        tree.words, weights_file)
            except ValueError:
                raise UserError("the weights file is not word<TAB>count lines") from None
        return tree

    def _words(self, game: dict, words_file) -> list[str]:
        """The tree's words, from the list it names (or the user's), checked by fingerprint."""
        return tree_words(game, self.length, words_file)

    @classmethod
    def open(cls, path, words_file=None, weights_file=None) -> HangmanTree:
        """The tree file at `path` (read bounded); a defect is a one-line UserError naming it."""
        doc = read_document(path)
        try:
            return cls(doc, words_file, weights_file)
        except UnshippedListError:
            raise  # the command layer names the flag that gives the list
        except UserError as exc:
            raise UserError(f"{path}: {exc}") from None

    # --- the position ---
    def parse(self, pattern: str, missed: str = "") -> tuple[str, str]:
        """(pattern with "_" for a hidden letter, the missed letters sorted); a UserError names
        what is wrong."""
        text = pattern.strip().lower()
        bad = next((ch for ch in text if ch not in LETTERS and ch not in HIDDEN), None)
        if bad is not None:
            raise UserError(f"pattern {pattern!r}: {bad!r} is neither a letter a-z nor _ for a hidden one")
        if len(text) != self.length:
            raise UserError(f"pattern {pattern!r} has {len(text)} letters; the tree is of {self.length}-letter words")
        text = "".join("_" if ch in HIDDEN else ch for ch in text)
        letters = "".join(ch for ch in missed.lower() if ch not in " ,")
        bad = next((ch for ch in letters if ch not in LETTERS), None)
        if bad is not None:
            raise UserError(f"missed letters {missed!r}: {bad!r} is not a letter a-z")
        both = sorted(set(letters) & set(text))
        if both:
            raise UserError(f"{both[0]!r} is both missed and revealed in {text}")
        return text, "".join(sorted(set(letters)))

    def words_left(self, pattern: str, missed: str) -> list[str]:
        """The words that fit the parsed position: every revealed letter exactly where it stands
        and nowhere else, no missed letter."""
        out = set(missed) | set(pattern) - {"_"}
        return [w for w in self.words if all(p == ch or p == "_" and ch not in out for p, ch in zip(pattern, w))]

    def advise(self, pattern: str, missed: str = "", max_nodes: int | None = None, say=None) -> Advice:
        """The best letter at this position (see the module's docstring), the words left and
        the expected score; `max_nodes`: the exact search's budget off the tree (EXACT_NODES);
        `say`: told a line before a search off the tree of more than SAY_ABOVE words."""
        pattern, missed = self.parse(pattern, missed)
        words = self.words_left(pattern, missed)
        advice = Advice(None, "", pattern, missed, words, self.lives, None)
        misses = len(missed)
        if "_" not in pattern:
            if not words:
                raise UserError(f"{pattern} is revealed, but it is no word of the tree's list")
            if misses > self.lives:
                raise UserError(f"{pattern} is revealed, but {misses} wrong guesses lose with {self.lives} lives")
            advice.source, advice.word, advice.expected_score = "won", pattern, float(WIN_POINTS - misses)
            return advice
        if misses > self.lives:
            advice.source, advice.expected_score = "lost", float(-misses)
            return advice
        if not words:
            raise UserError(f"no word of the tree's list fits {pattern}" + (f" with {' '.join(missed)} missed"
                                                                              if missed else ""))
        found = self._on_tree(pattern, missed, words)
        if found is not None:
            (advice.letter, advice.expected_score), advice.source = found, "tree"
        elif len(words) == 1:
            advice.source, advice.expected_score = "exact", float(WIN_POINTS - misses)
        else:
            budget = EXACT_NODES if max_nodes is None else max_nodes
            plain = None
            if len(words) <= PLAIN_WORDS or self.length > MAX_LENGTH:
                nodes = min(budget, PLAIN_NODES if self.length <= MAX_LENGTH else LONG_NODES)
                if say is not None and len(words) > SAY_ABOVE:
                    where = "off the tree" if self.doc is not None else f"no tree of {self.length}-letter words"
                    say(f"{where}: searching the {len(words)} words left exactly (at most {nodes} nodes)")
                plain = self._plain_search(words, misses, nodes)
            if plain is not None:
                advice.letter, advice.source, advice.expected_score = plain
            elif self.length > MAX_LENGTH:  # beyond the kernels' masks: the rule, in plain Python too
                advice.letter, advice.source = self._plain_rule(words), "heuristic"
            else:
                if say is not None and len(words) > SAY_ABOVE:
                    say(f"off the tree: searching the {len(words)} words left exactly with the compiled "
                        f"search (at most {budget} nodes)")
                advice.letter, advice.source, advice.expected_score = self._search(words, misses, budget)
        if len(words) == 1:
            advice.word = words[0]
            advice.to_guess = "".join(dict.fromkeys(ch for p, ch in zip(pattern, words[0]) if p == "_"))
            advice.letter = advice.to_guess[0]
        return advice

    # --- on the tree ---
    def _on_tree(self, pattern: str, missed: str, words: list[str]) -> tuple[str | None, float] | None:
        """(the node's letter, None at a leaf; the expected score) where the walk by the guessed
        letters stops, if the player is on the tree there; else None."""
        if self.doc is None:  # without_tree
            return None
        guessed = set(missed) | set(pattern) - {"_"}
        node, steps, misses = self.doc["tree"], [], 0
        while isinstance(node, dict) and "lost" not in node:
            letter, branches = self._node(node, steps)
            if letter not in guessed:
                break
            key = pattern.translate(_ONLY[letter])
            if key not in branches:
                raise UserError(f"the tree disagrees with its word list: no branch {letter}:{key} after "
                                f"{_path_text(steps)}")
            steps.append((letter, key))
            misses += letter in missed
            node = branches[key]
        if misses != len(missed):
            return None
        found = self._subtree(node, steps, misses)
        if len(found) != len(words) or sorted(w for w, _, _ in found) != words:
            return None
        total = sum(self.weights[w] for w, _, _ in found)
        score = sum(self.weights[w] * (-m if lost else WIN_POINTS - m) for w, m, lost in found)
        letter = node["guess"] if isinstance(node, dict) and "lost" not in node else None
        return letter, round(score / total, 6)

    def _node(self, node: dict, steps: list) -> tuple[str, dict]:
        """(letter, branches) of an inner node, checked: one letter a-z not guessed above it,
        branches keyed by that letter's feedback texts."""
        letter, branches = node.get("guess"), node.get("next")
        if (not isinstance(letter, str) or len(letter) != 1 or letter not in LETTERS
                or any(letter == c for c, _ in steps)):
            raise UserError(f"tree: bad or repeated guess {str(letter)[:20]!r} after {_path_text(steps)}")
        if not isinstance(branches, dict) or not branches:
            raise UserError(f"tree: the node of {letter!r} after {_path_text(steps)} has no branches")
        allowed = {"-", letter}
        for key in branches:
            if len(key) != self.length or not set(key) <= allowed:
                raise UserError(f"tree: bad branch {key[:20]!r} of {letter!r} after {_path_text(steps)}")
        return letter, branches

    def _subtree(self, node, steps: list, misses: int) -> list[tuple[str, int, bool]]:
        """(word, its wrong guesses, lost) of every word below `node`, reached by `steps` with
        `misses` wrong guesses; a word that does not agree with every branch above it, or a node
        out of shape, is a UserError (a broken or tampered tree gives no advice)."""
        found: list[tuple[str, int, bool]] = []
        stack = [(node, steps, misses)]
        while stack:
            node, steps, m = stack.pop()
            if isinstance(node, dict) and "lost" in node:
                lost = node["lost"]
                if m != self.lives + 1 or not isinstance(lost, list) or not lost:
                    raise UserError(f"tree: a lost leaf after {_path_text(steps)} ({m} wrong guesses, "
                                    f"{self.lives} lives)")
                found.extend((self._leaf(w, steps), m, True) for w in lost)
            elif isinstance(node, dict):
                letter, branches = self._node(node, steps)
                for key, child in branches.items():
                    stack.append((child, steps + [(letter, key)], m + (letter not in key)))
            elif isinstance(node, str) and m <= self.lives:
                found.append((self._leaf(node, steps), m, False))
            else:
                raise UserError(f"tree: malformed node after {_path_text(steps)}")
        return found

    def _leaf(self, word, steps: list) -> str:
        """A word of a leaf, checked against every branch that leads there."""
        if not isinstance(word, str) or len(word) != self.length or not all(ch in LETTERS for ch in word):
            raise UserError(f"tree: {str(word)[:20]!r} after {_path_text(steps)} is not a {self.length}-letter word")
        for letter, key in steps:
            if word.translate(_ONLY[letter]) != key:
                raise UserError(f"tree: {word!r} is under {_path_text(steps)}, but {letter} shows {key} in it")
        return word

    # --- off the tree: plain Python first (plain.py), then numba (imported only there) ---
    def _plain_search(self, words: list[str], misses: int, max_nodes: int) -> tuple[str, str, float] | None:
        """(letter, "exact", expected score) by plain.PlainSearch, the kernels' search without
        numba (the same cost and first letter), or None when it needs more than `max_nodes` nodes."""
        from .plain import PlainSearch, costs, spelled_masks

        weights = [self.weights[w] for w in words]
        miss_cost, lost_cost, key = costs(self.lives, sum(weights))
        search = PlainSearch(spelled_masks(words), weights, miss_cost, lost_cost)
        found = search.solve((1 << len(words)) - 1, self.lives + 1 - misses, max_nodes)
        if found is None or found[1] < 0:
            return None
        cost, letter = found
        lost_and_missed = cost // key if key else cost  # 20 per word lost, plus the wrong guesses from here
        return LETTERS[letter], "exact", round(WIN_POINTS - misses - lost_and_missed / sum(weights), 6)

    def _plain_rule(self, words: list[str]) -> str:
        """The heuristic rule's letter (frequency: the useful letter missing the least weight, ties
        alphabetical, as kernels._rule_letter), without numba."""
        from .plain import PlainSearch, spelled_masks

        search = PlainSearch(spelled_masks(words), [self.weights[w] for w in words], 1, 20)
        return LETTERS[search._stats((1 << len(words)) - 1)[0][1]]

    # --- off the tree (numba, imported only here) ---
    def _search(self, words: list[str], misses: int, max_nodes: int) -> tuple[str, str, float | None]:
        """(letter, "exact", expected score) by the exact search of the words left within
        `max_nodes` nodes, else (the heuristic rule's letter, "heuristic", None)."""
        import numpy as np

        from .baselines import rule_letter
        from .game import HangmanWords, mask_table
        from .search import Searcher

        weights = np.array([self.weights[w] for w in words], dtype=np.int64)
        hw = HangmanWords(self.length, tuple(words), weights, mask_table(words, self.length), {})
        s = Searcher(hw, self.lives, memo_entries=EXACT_MEMO)
        members = np.arange(len(words))
        strikes = self.lives + 1 - misses
        cost, finished, letter = s.solve(members, strikes, max_nodes=max_nodes)
        if finished and letter >= 0:
            lost_and_missed = s.split_cost(cost)[0]  # 20 per word lost, plus the wrong guesses from here
            return LETTERS[letter], "exact", round(WIN_POINTS - misses - lost_and_missed / s.total_weight, 6)
        return LETTERS[rule_letter(s, members, HEURISTIC_RULE)], "heuristic", None


def _path_text(steps: list) -> str:
    return " ".join(f"{c}:{k}" for c, k in steps) or "the root"


# ------------------------------------------------------------------------------------------------
# playing: a game's replies, the lines said, a game against a known word and the assistant
# ------------------------------------------------------------------------------------------------
def after_guess(tree: HangmanTree, pattern: str, missed: str, letter: str, shown: str) -> tuple[str, str]:
    """The position after `letter` was guessed and the game showed `shown`: the word as revealed
    now (`_e___`) or the letter's places alone (`-e---`); empty or `-` for a miss."""
    letter = letter.strip().lower()
    if len(letter) != 1 or letter not in LETTERS:
        raise UserError(f"{letter!r} is not a letter a-z")
    if letter in missed or letter in pattern:
        raise UserError(f"{letter} was guessed already")
    text = shown.strip().lower()
    if text in ("", "-"):
        return pattern, missed + letter
    if len(text) != len(pattern):
        raise UserError(f"{shown.strip()!r}: expected {len(pattern)} letters or _ (as {pattern}), or - for a miss")
    cells = []
    for before, ch in zip(pattern, text):
        if ch in HIDDEN or ch == before:
            cells.append(before)
        elif ch == letter and before == "_":
            cells.append(letter)
        else:
            raise UserError(f"{shown.strip()!r} does not follow {pattern} with {letter} guessed")
    new = "".join(cells)
    return (new, missed) if letter in new else (pattern, missed + letter)


def letter_line(advice: Advice) -> str:
    """The advice in one line: the letter and where it comes from, the words and wrong guesses
    left, the expected score; or how the game ended."""
    m = advice.misses
    wrongs = f"{m} wrong guess{'es' * (m != 1)}"
    if advice.source == "won":
        return f"won: {advice.word} with {wrongs} (score {WIN_POINTS - m})"
    if advice.source == "lost":
        return f"lost: {wrongs}, {advice.lives} allowed"
    left = advice.wrong_guesses_left
    tail = f"{left} wrong guess{'es' * (left != 1)} left"
    if advice.expected_score is not None:
        tail += f", expected score {advice.expected_score:.4f}"
    if advice.word is not None:
        return f"{advice.letter}  ({advice.source}: the word is {advice.word}, letters to guess: " \
               f"{' '.join(advice.to_guess)}; {tail})"
    n = len(advice.words)
    return f"{advice.letter}  ({advice.source}: {n} word{'s' * (n != 1)} left, {tail})"


def play_word(tree: HangmanTree, word: str) -> list[str]:
    """The rows the advice plays against `word` (`LETTER PATTERN`), then how the game ended."""
    word = word.strip().lower()
    if word not in set(tree.words):
        raise UserError(f"{word!r} is not a {tree.length}-letter word of the tree's list")
    pattern, missed, rows = "_" * tree.length, "", []
    advice = tree.advise(pattern, missed)
    while advice.letter is not None:
        pattern, missed = after_guess(tree, pattern, missed, advice.letter, word.translate(_ONLY[advice.letter]))
        rows.append(f"{advice.letter} {pattern}" + ("  (miss)" if advice.letter in missed else ""))
        advice = tree.advise(pattern, missed)
    return rows + [letter_line(advice)]


PROMPT = "the word as shown now (e.g. _e___), - for a miss, or LETTER PATTERN for a letter of your own; q to quit:"


class HangmanPlay:
    """A game on a HangmanTree as play.py's loop plays it (play.Playable): the assistant proposes
    a letter and reads what the game showed (the pattern, `-` or an empty line for a miss, or
    `LETTER PATTERN` for a letter of one's own), until the game is won or lost. `note`: told the
    lines of a search off the tree (HangmanTree.advise's `say`)."""

    prompt = PROMPT
    fatal = ()

    def __init__(self, tree: HangmanTree, note=None):
        self.tree, self.note = tree, note
        self.pattern, self.missed = "_" * tree.length, ""
        self.advice = tree.advise(self.pattern, self.missed, say=note)

    @property
    def guesses(self) -> int:
        return len(self.missed) + len(set(self.pattern) - {"_"})

    def proposal(self) -> list[str]:
        return [f"guess {self.guesses + 1}: {letter_line(self.advice)}"]

    def parse_reply(self, line: str) -> tuple[str, str]:
        parts = line.split()
        if len(parts) == 2:
            return parts[0], parts[1]
        if len(parts) == 1 and len(parts[0]) == 1 and parts[0].lower() in LETTERS:
            raise UserError(f"{parts[0]}: give what the game showed for it too, e.g. {parts[0]} -")
        if len(parts) <= 1:
            return self.advice.letter, parts[0] if parts else ""
        raise UserError(f"expected PATTERN, - or LETTER PATTERN, got {line.strip()!r}")

    def after(self, step: tuple[str, str]) -> HangmanPlay:
        position = after_guess(self.tree, self.pattern, self.missed, *step)
        advice = self.tree.advise(*position, say=self.note)  # both checked before the position moves
        (self.pattern, self.missed), self.advice = position, advice
        return self

    def tiles(self) -> list[tuple[str, str | None]]:
        """The word as revealed now: its letters green, a hidden one grey."""
        return [("_", "grey") if ch == "_" else (ch, "green") for ch in self.pattern]

    def finished(self) -> bool:
        return self.advice.status != "playing"

    def outcome_lines(self) -> list[str]:
        if self.finished():
            return [letter_line(self.advice)]
        n = len(self.advice.words)
        listing = ": " + " ".join(self.advice.words) if n <= 10 else ""
        return [f"{self.pattern}  missed: {' '.join(self.missed) or 'none'}; {n} word{'s' * (n != 1)} left{listing}"]

    def stopped(self) -> str:
        g = self.guesses
        return f"stopped after {g} guess{'es' * (g != 1)}: {self.pattern}"
