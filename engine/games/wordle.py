"""Wordle: any word length, any pair of lists.

Feedback as the game gives it: greens first; then, left to right, a letter is yellow while
unmatched copies of it remain in the answer, otherwise grey. A pattern's code is
sum(colour_i * 3**i) with grey 0, yellow 1, green 2, so the win is 3**L - 1.
"""

from __future__ import annotations

from collections import Counter

from ..errors import UserError
from ..words import LETTERS, current_folding, load_words, normal_word
from .base import Game, merge_answers_into_guesses

# answers, guesses, the proven best first guess in normal mode and in hard mode (None: not
# proven; each is a full rank of the openers kept in runs/, runs/README.md)
PRESET_LISTS = {
    "wordle": ("wordle-answers-2315.txt", "wordle-allowed-12972.txt", "salet", None),
    "wordle-nyt": ("nyt-answers-2309-20220215.txt", "nyt-allowed-14855-20220830.txt", None, None),
    "wordle-nyt2023": ("nyt-answers-3158-20230701.txt", "nyt-allowed-14855-20220830.txt", "tarse", "tarse"),
}
COLOURS = "BYG"
# What a user may type for each colour: letters, digits, or pasted squares (dark and light grey;
# the high-contrast squares too: orange for green, blue for yellow).
INPUT_COLOURS = {"b": 0, "0": 0, "\u2b1b": 0, "\u2b1c": 0, "y": 1, "1": 1, "\U0001f7e8": 1, "\U0001f7e6": 1,
                 "g": 2, "2": 2, "\U0001f7e9": 2, "\U0001f7e7": 2}
MAX_LENGTH = 10  # 3**10 codes still fit in uint16
A_TO_Z = "abcdefghijklmnopqrstuvwxyz"
MOST_LETTERS = 255  # letter numbers are bytes


def wordle_feedback(guess: str, answer: str) -> int:
    """The pattern code of `guess` against `answer`, in plain Python."""
    colours = [0] * len(guess)
    unmatched = Counter()
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            colours[i] = 2
        else:
            unmatched[a] += 1
    for i, g in enumerate(guess):
        if colours[i] == 0 and unmatched[g] > 0:
            colours[i] = 1
            unmatched[g] -= 1
    return sum(c * 3**i for i, c in enumerate(colours))


def game_alphabet(words) -> str:
    """The letters a game numbers: a-z (a is 0 ... z is 25) for words of a-z only, else every
    letter its words use, in code point order."""
    used = set("".join(words))
    if used <= set(A_TO_Z):
        return A_TO_Z
    if len(used) > MOST_LETTERS:
        raise UserError(f"the word lists use {len(used)} letters; wordtree numbers at most {MOST_LETTERS}")
    return "".join(sorted(used))


def letters_array(words, length: int, alphabet: str = A_TO_Z):
    """Words as a (n, length) uint8 array of letter numbers: each letter's place in `alphabet`."""
    import numpy as np

    if alphabet == A_TO_Z:
        flat = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
        return (flat.reshape(len(words), length) - ord("a")).astype(np.uint8)
    number = {ch: i for i, ch in enumerate(alphabet)}
    flat = np.fromiter((number[ch] for word in words for ch in word), dtype=np.uint8, count=len(words) * length)
    return flat.reshape(len(words), length)


class Wordle(Game):
    kind = "wordle"

    def __init__(self, name, answers_list, guesses_list, default_first=None, hard_first=None):
        self.name = name
        self.answers_list = answers_list
        self.guesses_list = guesses_list
        self.length = len(answers_list.words[0])
        self.answers = answers_list.words
        self.guesses, self.notices = merge_answers_into_guesses(self.answers, guesses_list.words)
        self.n_codes = 3**self.length
        self.win_code = self.n_codes - 1
        self.default_first = default_first
        self.hard_first = hard_first  # the proven best first guess in hard mode, if known
        self.folding = current_folding()  # how its lists were read (words.letter_folding)
        self.alphabet = game_alphabet(self.guesses)

    def proven_first(self, mode: str) -> str | None:
        """The proven best first guess in normal mode (`default_first`) or in hard mode
        (`hard_first`), if known; none in ultra mode."""
        return {"normal": self.default_first, "hard": self.hard_first}.get(mode)

    def default_opener(self, mode: str) -> str | None:
        """Ranking the openers in hard or ultra mode takes hours, so a build there opens with
        that mode's proven best where it is known, else with the normal mode's, and its tree
        then says it is the best given that opener."""
        return self.proven_first(mode) or self.default_first

    def feedback(self, guess: str, answer: str) -> int:
        return wordle_feedback(guess, answer)

    def normal_word(self, word: str) -> str:
        """A typed word as the game's lists hold it: NFC, lowercase, folded as they were."""
        return normal_word(word, self.folding)

    def pattern_text(self, code: int) -> str:
        out = []
        for _ in range(self.length):
            out.append(COLOURS[code % 3])
            code //= 3
        return "".join(out)

    def parse_pattern(self, text: str) -> int:
        # Squares may come with a variation selector; drop it and any blanks.
        cleaned = [ch for ch in text.strip().lower() if ch not in " \ufe0f"]
        if len(cleaned) != self.length or any(ch not in INPUT_COLOURS for ch in cleaned):
            raise UserError(
                f"bad pattern {text!r}: expected {self.length} colours, each B/Y/G, 0/1/2 or a coloured square"
            )
        return sum(INPUT_COLOURS[ch] * 3**i for i, ch in enumerate(cleaned))

    def identity(self) -> dict:
        return {
            "name": self.name,
            "word_length": self.length,
            "answers": self.answers_list.name,
            "answers_sha256": self.answers_list.sha256,
            "answers_count": len(self.answers),
            "guesses": self.guesses_list.name,
            "guesses_sha256": self.guesses_list.sha256,
            "guesses_count": len(self.guesses),
            **self.folding.record(),
        }

    def _compute_matrix(self):
        from .wordle_kernels import wordle_pattern_matrix

        return wordle_pattern_matrix(
            letters_array(self.guesses, self.length, self.alphabet),
            letters_array(self.answers, self.length, self.alphabet), self.code_dtype,
        )


def wordle_preset(name: str, answers: str | None, guesses: str | None) -> Wordle:
    if name not in PRESET_LISTS:
        raise UserError(f"unknown game {name!r}; known: {', '.join(PRESET_LISTS)}")
    default_answers, default_guesses, first, hard_first = PRESET_LISTS[name]
    if answers is not None:
        first = hard_first = None  # a recorded best opener is only valid for the preset's own lists
    answers_list = load_words(answers or default_answers, length="first", alphabet=LETTERS)
    length = len(answers_list.words[0])
    if not 2 <= length <= MAX_LENGTH:
        raise UserError(f"{answers_list.path}: words of {length} letters; wordtree supports 2 to {MAX_LENGTH}")
    guesses_list = load_words(guesses or default_guesses, length=length, alphabet=LETTERS)
    return Wordle(name, answers_list, guesses_list, first, hard_first)
