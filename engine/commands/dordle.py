"""`dordle`: Dordle solved exactly on small or reduced lists (engine dordle/).

    wordtree dordle build --answers A --guesses G [--max-guesses 7] [--first WORD] -o tree.json
    wordtree dordle verify tree.json --answers A --guesses G
"""

from __future__ import annotations

import sys

from ..errors import UsageError
from .common import game_options, summary


def add_dordle(sub) -> None:
    p = sub.add_parser("dordle", help=summary("dordle"))
    actions = p.add_subparsers(dest="dordle_action", metavar="ACTION")
    b = actions.add_parser("build", help="the optimal Dordle tree and its total over every ordered pair of answers")
    game_options(b)
    b.add_argument("--max-guesses", type=int, default=7, metavar="N", help="guess cap for both boards (default 7)")
    b.add_argument("--first", metavar="WORD", help="the opening guess (default: found exactly)")
    b.add_argument("-o", "--output", metavar="FILE", help="write the tree as wordtree-dordle/1 JSON")
    v = actions.add_parser("verify", help="replay every ordered pair through a Dordle tree and check its total")
    v.add_argument("tree", help="a wordtree-dordle/1 file")
    game_options(v, positional=False)
    v.add_argument("game", nargs="?", default=None, help="game preset (default: wordle)")


def run_dordle(args) -> int:
    import orjson

    from ..games import get_game
    from ..patterns import pattern_matrix

    if args.dordle_action is None:
        raise UsageError("dordle needs an action: build or verify")
    game = get_game(args.game, args.answers, args.guesses)
    for notice in game.notices:
        print(notice, file=sys.stderr)
    matrix = pattern_matrix(game, args.cache_dir).matrix
    if args.dordle_action == "build":
        from ..dordle.search import DordleSearch
        from ..dordle.tree import build_document
        from ..files import write_atomic

        search = DordleSearch(game, matrix, args.max_guesses)
        first = None if args.first is None else game.guess_index[game.parse_guess(args.first)]
        doc = build_document(search, first)
        result = doc["result"]
        print(f"total {result['total']} over {result['pairs']} ordered pairs, mean {result['mean']:.4f}, "
              f"first guess {result['first']}{'' if result['optimal'] else ' (fixed)'}, {result['seconds']} s, "
              f"{result['nodes']} nodes")
        if args.output:
            write_atomic(args.output, orjson.dumps(doc))
        return 0
    from ..dordle.tree import verify_document

    try:
        with open(args.tree, "rb") as f:
            doc = orjson.loads(f.read())
    except (OSError, orjson.JSONDecodeError) as exc:
        raise UsageError(f"{args.tree}: cannot read a Dordle tree ({exc})") from None
    report = verify_document(doc, game, matrix)
    print(f"ok: {report['pairs']} ordered pairs, total {report['total']}, mean {report['mean']:.4f}, "
          f"worst {report['worst']}, {report['remainders']} single-board remainders solved")
    return 0
