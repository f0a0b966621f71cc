"""Options and helpers shared by several commands."""

from __future__ import annotations

import argparse
import sys

from ..errors import UsageError


def game_options(p: argparse.ArgumentParser, positional: bool = True) -> None:
    if positional:
        p.add_argument("game", nargs="?", default=None, help="game preset (default: wordle)")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="custom guess list (with --answers)")
    p.add_argument("--cache-dir", metavar="DIR", help="pattern-matrix cache folder (default: $WORDTREE_CACHE_DIR or ~/.cache/wordtree)")
    p.add_argument("--pegs", type=int, help="mastermind: code length (default 4)")
    p.add_argument("--colours", type=int, help="mastermind: number of colours (default 6)")
    p.add_argument("--digits", type=int, help="bulls-cows: code length (default 4)")
    p.add_argument("--repeats", action="store_true", help="bulls-cows: allow repeated digits")


GAME_CAP = 0  # --max-guesses not given: the game's own cap (a user's value is at least 1)


def game_options_given(args) -> dict:
    """The game options of `game_options` given on the command line (pegs, colours, digits, repeats)."""
    options = {key: getattr(args, key, None) for key in ("pegs", "colours", "digits", "repeats")}
    return {key: value for key, value in options.items() if value not in (None, False)}


def load_game(args):
    from ..games import get_game

    game = get_game(getattr(args, "game", None), args.answers, args.guesses, **game_options_given(args))
    for notice in game.notices:
        print(notice, file=sys.stderr)
    if getattr(args, "max_guesses", None) == GAME_CAP:
        args.max_guesses = game.default_cap
    return game


def max_guesses(text: str) -> int | None:
    if text.lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or 'none', got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def search_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-guesses", type=max_guesses, default=GAME_CAP, metavar="N|none",
                   help="guess cap per answer (default: the game's, 6 for Wordle and Mastermind, 7 for Bulls and "
                        "Cows; 'none' for no cap)")
    p.add_argument("--mode", default="normal", choices=["normal", "hard", "ultra"],
                   help="game rules: normal (default), hard (NYT: greens stay, revealed letters reused) or "
                        "ultra (every guess consistent with all the feedback so far)")
    p.add_argument("--threads", type=int, default=None, metavar="N", help="worker threads (default: the cores, at most 2)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")



def list_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--answers", metavar="FILE", help="the answer list, if not where the tree says")
    p.add_argument("--guesses", metavar="FILE", help="the guess list, if not where the tree says")



def positive_int(text: str, option: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"{option} must be a positive integer or 'none', not {text!r}")
    return int(text)


def summary(command: str) -> str:
    """The command's one-line help, as the registry lists it."""
    from . import COMMANDS

    return COMMANDS[command][1]
