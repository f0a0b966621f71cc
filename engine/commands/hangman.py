"""Hangman: the options of `build hangman`, `hangman-server`, `hangman-bot`."""

from __future__ import annotations

import argparse

from ..errors import UsageError, UserError
from .common import int_option, summary


def hangman_build_options(p: argparse.ArgumentParser) -> None:
    """The options of `wordtree build hangman`; build calls engine.hangman.cli_build(args)."""
    g = p.add_argument_group("hangman")
    g.add_argument("--length", type=int, metavar="N", help="hangman: word length (2 to 15)")
    g.add_argument("--all-lengths", action="store_true", help="hangman: every length from 2 to 15 (-o is a folder)")
    g.add_argument("--words", metavar="FILE", help="hangman: word list (default enable1.txt)")
    g.add_argument("--weights", metavar="FILE", help="hangman: word<TAB>count weights (e.g. word-frequency.tsv)")
    g.add_argument("--lives", type=int, default=10, metavar="N", help="hangman: wrong guesses allowed per word (default 10)")
    g.add_argument("--max-nodes", type=int, metavar="N", help="hangman: exact-search node budget before settling for the best tree found")
    g.add_argument("--memory", type=float, metavar="GB",
                   help="hangman: most memory the exact search's memo may take (default half of this machine's); "
                        "a smaller memo is compacted when full: slower, same result")
    g.add_argument("--checkpoint-mb", type=float, metavar="MB",
                   help="hangman: write --checkpoint in at most MB megabytes, keeping what is proven of the first "
                        "letters' classes and of the largest sets (small enough to keep in git and resume on another "
                        "machine; a resume redoes the rest)")
    g.add_argument("--refute", metavar="LETTERS",
                   help="hangman: search only openings with these first letters (e.g. aos), each until it is shown "
                        "no better than the tree of --against or found better, into --checkpoint (for another core or "
                        "machine while the whole search runs; then --merge)")
    g.add_argument("--against", metavar="TREE",
                   help="hangman: with --refute, the tree of this game to beat (default the shipped one)")
    g.add_argument("--by-parts", action="store_true",
                   help="hangman: with --refute, bound each class of more than half of the words by the parts of "
                        "the proven bound (solved once for all the letters, --threads at a time, within --memory) "
                        "instead of searching it: for the rarest letters, whose miss class is nearly the whole game")
    g.add_argument("--merge", metavar="FILE",
                   help="hangman: add what the search of checkpoint FILE proved (e.g. a --refute run's) to --checkpoint")
    g.add_argument("--bound-only", action="store_true",
                   help="hangman: prove again the bound of the best-found tree already at -o (default the shipped "
                        "one) with this version's parts, and write it there; the tree stays")


def add_hangman_server(sub) -> None:
    p = sub.add_parser("hangman-server", help=summary("hangman-server"))
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int_option("--port", 0, 65535), default=8080, help="port (0: any free port; default 8080)")
    p.add_argument("--words", default="enable1.txt", metavar="FILE", help="the words to draw (default enable1.txt)")
    p.add_argument("--db", default="hangman.sqlite3", metavar="FILE", help="the SQLite session store (default ./hangman.sqlite3)")
    p.add_argument("--words-per-game", type=int, default=80, metavar="N")
    p.add_argument("--lives", type=int, default=10, metavar="N", help="wrong guesses allowed per word (default 10)")
    p.add_argument("--seed", type=int, help="seed for drawing words, for reproducible games (default: a cryptographic "
                                            "source, so the next word cannot be predicted)")
    p.add_argument("--workers", type=int, default=8, metavar="N",
                   help="threads answering requests (default 8); connections are not limited by it")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                   help="time a client has to send a whole request, else 408 (default 10)")


def run_hangman_server(args) -> int:
    import sqlite3

    from ..hangman.server import Game, make_server
    from ..words import load_words

    if args.words_per_game < 1 or args.lives < 0:
        raise UsageError("--words-per-game must be 1 or more and --lives 0 or more")
    if args.workers < 1 or not args.timeout > 0:
        raise UsageError("--workers must be 1 or more and --timeout above 0")
    words = load_words(args.words).words
    try:
        game = Game(args.db, words, args.words_per_game, args.lives, args.seed)
    except sqlite3.Error as exc:
        raise UserError(f"{args.db}: cannot open the session store ({exc})") from None
    try:
        server = make_server(game, args.host, args.port, workers=args.workers, request_timeout=args.timeout)
    except OSError as exc:
        raise UserError(f"cannot serve on {args.host}:{args.port} ({exc.strerror or exc})") from None
    host, port = server.server_address[:2]
    print(f"hangman server on http://{host}:{port}/game/on ({len(words)} words, sessions in {args.db})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def add_hangman_bot(sub) -> None:
    p = sub.add_parser("hangman-bot", help=summary("hangman-bot"))
    p.add_argument("--url", required=True, help="the server's endpoint, e.g. http://127.0.0.1:8080/game/on")
    p.add_argument("--player", required=True, metavar="NAME")
    p.add_argument("--resume", metavar="SESSION", help="continue this session after a disconnect")
    p.add_argument("--words", metavar="FILE", help="the bot's dictionary (default enable1.txt)")


def run_hangman_bot(args) -> int:
    from ..hangman.bot import run_bot

    run_bot(args.url, args.player, args.resume, args.words, say=lambda line: print(line, flush=True))
    return 0
