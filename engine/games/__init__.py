"""Games as data: guesses, answers, and a feedback rule mapping (guess, answer) to a small integer.

The search never looks inside a game: it sees only the pattern matrix (guesses x answers codes),
the winning code, and which guesses are also answers. A new game is a subclass of `Game` and an
entry in `PRESETS`; nothing in the search changes. Games are plain Python and import numpy only
when a matrix is asked for, so the lookup player can use their feedback rules cheaply.
"""

from __future__ import annotations

from ..errors import ListPairError, OptionNotForGame, UnknownGame
from .base import Game, merge_answers_into_guesses  # noqa: F401 - the games' base, re-exported


PRESETS = {
    "wordle": "the original Wordle: 2315 answers, 12972 allowed guesses",
    "wordle-nyt": "the NYT Wordle from 2022: 2309 answers, 14855 allowed guesses",
    "wordle-nyt2023": "the NYT WordleBot list of 2023: 3158 answers, 14855 allowed guesses",
    "mastermind": "Mastermind, P pegs (4) and C colours (6), repeats allowed: C**P codes like 1122",
    "bulls-cows": "Bulls and Cows, D (4) distinct digits 0-9, or any with repeats: codes like 0123",
}
GAME_OPTIONS = {"mastermind": ("pegs", "colours"), "bulls-cows": ("digits", "repeats")}
DEFAULT_GAME = "wordle"


def get_game(name: str | None = None, answers: str | None = None, guesses: str | None = None, **options) -> Game:
    """A game by preset name, optionally with custom answer/guess lists (both or neither)."""
    name = name or DEFAULT_GAME
    if (answers is None) != (guesses is None):
        raise ListPairError()
    allowed = GAME_OPTIONS.get(name, ())
    stray = [key for key, value in options.items() if value not in (None, False) and key not in allowed]
    if stray:
        raise OptionNotForGame(stray[0], name)
    options = {key: value for key, value in options.items() if key in allowed}
    if name == "mastermind":
        from .mastermind import mastermind_game

        return mastermind_game(answers, guesses, **options)
    if name == "bulls-cows":
        from .bulls_cows import bulls_cows_game

        return bulls_cows_game(answers, guesses, **options)
    if name.startswith("wordle"):
        from .wordle import wordle_preset

        return wordle_preset(name, answers, guesses)
    if name == "hangman":
        raise UnknownGame(name, PRESETS, "hangman has commands of its own: build hangman (its trees), hangman-server, "
                          "hangman-bot")
    raise UnknownGame(name, [*PRESETS, "and hangman (build hangman)"])
