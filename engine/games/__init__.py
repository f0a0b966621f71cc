"""Games as data: guesses, answers, and a feedback rule mapping (guess, answer) to a small integer.

The search never looks inside a game: it sees only the pattern matrix (guesses x answers codes),
the winning code, and which guesses are also answers. A new game is a subclass of `Game` and an
entry in `_PRESETS` (its name, what it is, its factory, its options); nothing in the search
changes, and the commands take its options from the entry. Games are plain Python and import numpy only
when a matrix is asked for, so the lookup player can use their feedback rules cheaply.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass

from ..errors import ListPairError, OptionNotForGame, UnknownGame
from .base import Game, merge_answers_into_guesses  # noqa: F401 - the games' base, re-exported


@dataclass(frozen=True)
class Option:
    """A parameter a game takes (Mastermind's pegs): its name, whole number or switch, the range
    the game accepts (the game checks it again, with its own limits), and what it is."""

    name: str
    kind: type  # int or bool
    summary: str
    least: int | None = None
    most: int | None = None


@dataclass(frozen=True)
class Preset:
    """A game of the Wordle family by name: what it is, the function that makes it
    (`module:function` in this package, imported when the game is asked for; a function whose
    first parameter is `name` gets the preset's name) and the options it takes."""

    name: str
    summary: str
    factory: str
    options: tuple[Option, ...] = ()

    def make(self, answers, guesses, **options) -> Game:
        module, _, function = self.factory.partition(":")
        make = getattr(importlib.import_module(f"{__package__}.{module}"), function)
        named = next(iter(inspect.signature(make).parameters)) == "name"
        return make(self.name, answers, guesses, **options) if named else make(answers, guesses, **options)


# Every game of the family: adding one is an entry here and its module (and the verifier's own
# rule for it, wordle/rules.py, written apart so that the verifier shares no code with the game)
_PRESETS = (
    Preset("wordle", "the original Wordle: 2315 answers, 12972 allowed guesses", "wordle:wordle_preset"),
    Preset("wordle-nyt", "the NYT Wordle from 2022: 2309 answers, 14855 allowed guesses", "wordle:wordle_preset"),
    Preset("wordle-nyt2023", "the NYT WordleBot list of 2023: 3158 answers, 14855 allowed guesses",
           "wordle:wordle_preset"),
    Preset("mastermind", "Mastermind, P pegs (4) and C colours (6), repeats allowed: C**P codes like 1122",
           "mastermind:mastermind_game",
           (Option("pegs", int, "code length (default 4)", 1, 9),
            Option("colours", int, "number of colours (default 6)", 2, 9))),
    Preset("bulls-cows", "Bulls and Cows, D (4) distinct digits 0-9, or any with repeats: codes like 0123",
           "bulls_cows:bulls_cows_game",
           (Option("digits", int, "code length (default 4)", 1, 4), Option("repeats", bool, "allow repeated digits"))),
)
PRESETS: dict[str, Preset] = {preset.name: preset for preset in _PRESETS}
OPTIONS: dict[str, Option] = {option.name: option for preset in _PRESETS for option in preset.options}  # by name
DEFAULT_GAME = "wordle"


def get_game(name: str | None = None, answers: str | None = None, guesses: str | None = None, **options) -> Game:
    """A game by preset name, optionally with custom answer/guess lists (both or neither)."""
    name = name or DEFAULT_GAME
    if (answers is None) != (guesses is None):
        raise ListPairError()
    allowed = [option.name for option in PRESETS[name].options] if name in PRESETS else []
    stray = [key for key, value in options.items() if value not in (None, False) and key not in allowed]
    if stray:
        raise OptionNotForGame(stray[0], name)
    if name not in PRESETS:
        if name in ("hangman", "dordle"):
            raise UnknownGame(name, PRESETS, f"{name} is a family of its own: build {name}, and its trees in "
                                             "every command")
        raise UnknownGame(name, [*PRESETS, "and hangman, dordle"])
    return PRESETS[name].make(answers, guesses, **{key: value for key, value in options.items() if key in allowed})
