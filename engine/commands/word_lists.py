"""--strict-words: the option of every command that reads a word list, and the policy it sets
for the lists the command reads (words.word_list_policy). Apart from common.py, which imports the
command registry: __init__ adds it to the parsers it builds."""

from __future__ import annotations

import argparse
from contextlib import contextmanager


WORD_LIST_OPTIONS = {"answers", "guesses", "words"}  # the dests of the options naming a word list
STRICT_WORDS_HINT = " (--strict-words refuses a list with any bad line)"


def strict_words_option(parser: argparse.ArgumentParser) -> None:
    """--strict-words on every parser (a command's, a game's, an action's) with an option naming
    a word list: such a list is then refused for any bad line, where by default a few are
    skipped with a notice (words.skip_or_refuse)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                strict_words_option(sub)
    dests = {action.dest for action in parser._actions}
    if dests & WORD_LIST_OPTIONS and "strict_words" not in dests:
        parser.add_argument("--strict-words", action="store_true",
                            help="refuse a word list with any bad line (by default up to 1 %% of its lines, at "
                                 "most 100, are skipped with a notice)")


@contextmanager
def word_list_policy(args):
    """The word lists the command reads, strict with --strict-words, else skipping a few bad
    lines with a notice that names the flag."""
    from ..words import word_list_policy as policy

    with policy(bool(getattr(args, "strict_words", False)), STRICT_WORDS_HINT):
        yield
