"""The multi-board games: the named presets (boards, guess cap) and a game's parameters.

Every board is a Wordle board on the same lists (a Wordle preset's, or lists given); the answers
of the K boards are K different words of the answer list, and the game allows `cap` guesses.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..errors import UserError

PRESETS = {"quordle": (4, 9), "octordle": (8, 13), "sedecordle": (16, 21), "duotrigordle": (32, 37)}
GAMES = (*PRESETS, "multiboard")  # multiboard: any number of boards, given
MAX_BOARDS = 64
WORDLE_PRESETS = ("wordle", "wordle-nyt", "wordle-nyt2023")
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"  # a game's length, one character


@dataclass(frozen=True)
class MultiSpec:
    name: str  # the preset's name, or multiboard-K
    boards: int
    cap: int

    def as_json(self) -> dict:
        return {"name": self.name, "boards": self.boards, "max_guesses": self.cap}


def spec_for(name: str, boards: int | None = None, cap: int | None = None) -> MultiSpec:
    """The parameters of game `name` (a preset, or multiboard with `boards` given); `boards` given
    with a preset must be the preset's; `cap` overrides the preset's (default: boards + 5)."""
    if name in PRESETS:
        k, preset_cap = PRESETS[name]
        if boards is not None and boards != k:
            raise UserError(f"{name} is played on {k} boards, not {boards}")
        if cap is not None and cap != preset_cap:
            name = f"{name}-cap{cap}"
        cap = preset_cap if cap is None else cap
    elif name == "multiboard":
        if boards is None:
            raise UserError("multiboard needs the number of boards")
        k = boards
        cap = k + 5 if cap is None else cap
        named = {b: preset for preset, (b, _) in PRESETS.items()}
        name = named.get(k, f"multiboard-{k}") if cap == k + 5 else f"multiboard-{k}"
    else:
        raise UserError(f"unknown multi-board game {name!r}: {', '.join(GAMES)}")
    if not 2 <= k <= MAX_BOARDS:
        raise UserError(f"the number of boards must be from 2 to {MAX_BOARDS}, not {k}")
    if cap < k:
        raise UserError(f"{k} boards need at least {k} guesses (one guess solves one board at most), not {cap}")
    return MultiSpec(name, k, cap)


def load(preset: str | None, answers=None, guesses=None, cache_dir=None):
    """The Wordle game whose lists every board uses, and its pattern matrix."""
    from ..games import get_game
    from ..wordle.patterns import pattern_matrix

    if preset is not None and preset not in WORDLE_PRESETS:
        raise UserError(f"the boards are Wordle boards: {', '.join(WORDLE_PRESETS)}, not {preset!r}")
    game = get_game(preset or "wordle", answers, guesses)
    if getattr(game, "kind", None) != "wordle":
        raise UserError("the boards are Wordle boards")
    for notice in game.notices:
        print(notice, file=sys.stderr)
    return game, pattern_matrix(game, cache_dir).matrix
