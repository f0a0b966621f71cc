"""The base of every game (`Game`) and what the games share, apart from the package's registry
(`PRESETS`, `get_game` in __init__.py), so that a game's module and the registry that imports it
lazily do not import each other."""

from __future__ import annotations

import hashlib
from functools import cached_property

import orjson

from ..errors import UserError


class Game:
    """Base class. Subclasses set `kind`, `guesses`, `answers`, `n_codes`, `win_code` and implement
    `feedback`, `pattern_text`, `parse_pattern` and `_compute_matrix`."""

    kind: str = ""
    name: str = ""
    guesses: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    n_codes: int = 0
    win_code: int = 0
    default_first: str | None = None  # proven best first guess for this preset, if known
    default_cap: int | None = 6  # guesses per answer when no cap is given
    symbols: str = ""  # code-breaking games: the symbols their codes are made of
    symmetric_levels = 1  # symmetric games: guesses after the opener tried one per orbit, then the kernel
    notices: tuple[str, ...] = ()

    @property
    def symmetric(self) -> bool:
        """Codes closed under position permutations and symbol renaming (symmetry.py): a game
        made of `symbols`, while every code is both a guess and an answer."""
        return bool(self.symbols) and self.guesses == self.codes and self.answers == self.codes

    # --- feedback, in plain Python (the kernels in kernels.py are tested against this) ---
    def feedback(self, guess: str, answer: str) -> int:
        raise NotImplementedError

    def pattern_text(self, code: int) -> str:
        raise NotImplementedError

    def parse_pattern(self, text: str) -> int:
        raise NotImplementedError

    def proven_first(self, mode: str) -> str | None:
        """The proven best first guess in `mode` (normal, hard, ultra), if known: a build with no
        opener given takes it instead of ranking the openers. `default_first` was proven in
        normal mode only."""
        return self.default_first if mode == "normal" else None

    def default_opener(self, mode: str) -> str | None:
        """The opener a build takes when none is given: the proven best one, else None (the
        build ranks the openers). A tree built from an opener that is not `proven_first` is
        labelled the best given that opener."""
        return self.proven_first(mode)

    def normal_word(self, word: str) -> str:
        """A word typed by a user as the game's lists hold it."""
        return word.strip().lower()

    def parse_guess(self, word: str) -> str:
        """Normalize a guess typed by a user; an unknown guess is a UserError."""
        w = self.normal_word(word)
        if w not in self.guess_index:
            raise UserError(f"{word!r} is not an allowed guess in {self.name}")
        return w

    # --- identity, for file headers and caches ---
    def identity(self) -> dict:
        """What a tree file records about the game (list names, fingerprints, sizes, parameters)."""
        raise NotImplementedError

    @cached_property
    def cache_key(self) -> str:
        blob = orjson.dumps({"kind": self.kind, **self.identity()}, option=orjson.OPT_SORT_KEYS)
        return hashlib.sha256(blob).hexdigest()[:24]

    # --- indices ---
    @cached_property
    def guess_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.guesses)}

    @cached_property
    def answer_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.answers)}

    @cached_property
    def answer_guess_ids(self):
        """For each answer, its index in the guess list (every answer is a legal guess)."""
        import numpy as np

        return np.array([self.guess_index[a] for a in self.answers], dtype=np.int32)

    @property
    def code_dtype(self):
        import numpy as np

        return np.uint8 if self.n_codes <= 256 else np.uint16

    def _compute_matrix(self):
        raise NotImplementedError


def merge_answers_into_guesses(answers, guesses) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every answer must be a legal guess: add the missing ones (after the others) and say so."""
    known = set(guesses)
    missing = [a for a in answers if a not in known]
    notices = ()
    if missing:
        shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
        notices = (f"notice: {len(missing)} answer(s) missing from the guess list were added to it: {shown}",)
    return tuple(guesses) + tuple(missing), notices
