"""Hangman as data: the words of one length, their letter masks, feedback text and scoring.

A guess is a letter; the feedback is the set of positions where it stands, kept as a bit mask
(bit i = position i) and shown as text like `-pp--`. A word scores 20 when solved, minus one
per wrong guess; a word is lost at the `lives`-th wrong guess (score -lives). Pure Python plus
numpy: the search kernels see only the (words x 26) mask table and integer weights.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

from ..errors import UserError, WordLengthOutOfRange
from ..files import read_bounded
from ..words import canonical_sha256, load_words, resolve_path

WIN_POINTS = 20
DEFAULT_LIVES = 10
DEFAULT_WORDS = "enable1.txt"
MIN_LENGTH, MAX_LENGTH = 2, 15  # masks fit in 15 bits; the search's class table has 2**15 slots
LETTERS = string.ascii_lowercase


def letter_mask(letter: str, word: str) -> int:
    """Bit i is set where `word` has `letter` at position i."""
    return sum(1 << i for i, ch in enumerate(word) if ch == letter)


def mask_text(mask: int, letter: str, length: int) -> str:
    """The feedback as text: the letter where it stands, '-' elsewhere."""
    return "".join(letter if mask >> i & 1 else "-" for i in range(length))


def parse_mask_text(text: str, letter: str, length: int) -> int:
    """The mask of a feedback text such as `-pp--`; anything else is a UserError."""
    t = text.strip().lower()
    if len(t) != length or any(ch not in ("-", letter) for ch in t):
        raise UserError(f"bad feedback {text!r} for letter {letter!r}: expected {length} of '-' or {letter!r}")
    return letter_mask(letter, t)


def mask_table(words, length: int) -> np.ndarray:
    """(n_words, 26) uint16: entry [w, c] is the mask of letter c in word w."""
    flat = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).reshape(len(words), length)
    table = np.zeros((len(words), 26), dtype=np.uint16)
    rows = np.arange(len(words))
    for i in range(length):
        np.bitwise_or.at(table, (rows, flat[:, i] - ord("a")), np.uint16(1 << i))
    return table


def read_weights(name) -> tuple[dict[str, int], str, str]:
    """A `word<TAB>count` file: {word: count}, its file name and the sha256 of its bytes."""
    import hashlib

    path = resolve_path(name)
    from .. import words

    raw = read_bounded(path, words.LIST_MAX_BYTES, "weights file")
    counts: dict[str, int] = {}
    for lineno, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[1].strip().isdigit():
            raise UserError(f"{path}:{lineno}: expected 'word<TAB>count', got {line.strip()!r}")
        counts.setdefault(parts[0].strip().lower(), int(parts[1]))
    if not counts:
        raise UserError(f"{path}: the weights file is empty")
    return counts, path.name, hashlib.sha256(raw).hexdigest()


@dataclass
class HangmanWords:
    """The candidate words of one length, with their integer weights (1 each unless --weights)."""

    length: int
    words: tuple[str, ...]
    weights: np.ndarray  # int64
    masks: np.ndarray  # (n, 26) uint16
    identity: dict

    @property
    def total_weight(self) -> int:
        return int(self.weights.sum())

    @property
    def index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.words)}


def load_hangman_words(length: int, words_file: str | None = None, weights_file: str | None = None) -> HangmanWords:
    """The words of `length` letters from a list (default ENABLE), sorted, with weights.

    A word missing from the weights file counts 1, as if seen once: every listed word stays a
    possible answer, and frequent words dominate."""
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise WordLengthOutOfRange(length, MIN_LENGTH, MAX_LENGTH)
    lst = load_words(words_file or DEFAULT_WORDS)
    words = tuple(sorted(w for w in set(lst.words) if len(w) == length))
    if len(words) < 1:
        raise UserError(f"{lst.path}: no words of {length} letters")
    identity = {
        "name": "hangman",
        "word_length": length,
        "words": lst.name,
        "words_sha256": canonical_sha256(words),
        "words_count": len(words),
        "list_sha256": lst.sha256,
    }
    if weights_file:
        counts, wname, wsha = read_weights(weights_file)
        weights = np.array([max(1, counts.get(w, 1)) for w in words], dtype=np.int64)
        identity.update(weights=wname, weights_sha256=wsha)
    else:
        weights = np.ones(len(words), dtype=np.int64)
    return HangmanWords(length, words, weights, mask_table(words, length), identity)
