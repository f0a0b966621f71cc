"""`dordle`: Dordle solved exactly on small or reduced lists (engine dordle/).

    wordtree dordle build --answers A --guesses G [--max-guesses 7] [--first WORD] -o tree.json
    wordtree dordle verify tree.json --answers A --guesses G
    wordtree dordle bound [--first WORD ...]                      (proven lower bounds, full lists too)
    wordtree dordle heuristic --first salet [--checkpoint F]     (a heuristic strategy's exact total)
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
    lb = actions.add_parser("bound", help="proven lower bounds on the optimum: over every opener (depth 1), and "
                                          "for given openers (depth 2)")
    game_options(lb)
    lb.add_argument("--max-guesses", type=int, default=7, metavar="N", help="guess cap for both boards (default 7)")
    lb.add_argument("--first", nargs="*", default=[], metavar="WORD", help="openers to bound at depth 2")
    h = actions.add_parser("heuristic", help="a heuristic strategy (not optimal) from an opener, its exact total "
                                             "over every ordered pair, and the opener's depth-2 bound")
    game_options(h)
    h.add_argument("--max-guesses", type=int, default=7, metavar="N", help="guess cap for both boards (default 7)")
    h.add_argument("--first", default="salet", metavar="WORD", help="the opener (default salet)")
    h.add_argument("--checkpoint", metavar="FILE", help="save the progress here every minute")
    h.add_argument("--resume", action="store_true", help="go on from --checkpoint")
    h.add_argument("-o", "--output", metavar="FILE", help="write the strategy as a wordtree-dordle/1 tree "
                                                          "(small games only)")


def run_dordle(args) -> int:
    import orjson

    from ..games import get_game
    from ..patterns import pattern_matrix

    if args.dordle_action is None:
        raise UsageError("dordle needs an action: build, verify, bound or heuristic")
    game = get_game(args.game, args.answers, args.guesses)
    for notice in game.notices:
        print(notice, file=sys.stderr)
    matrix = pattern_matrix(game, args.cache_dir).matrix
    if args.dordle_action == "bound":
        return run_bound(args, game, matrix)
    if args.dordle_action == "heuristic":
        return run_heuristic(args, game, matrix)
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


def run_bound(args, game, matrix) -> int:
    from ..dordle.heuristic import root_parts
    from ..dordle.lower import opener_bound, root_bounds
    from ..dordle.search import DordleSearch
    from ..progress import progress_bar

    search = DordleSearch(game, matrix, args.max_guesses)
    n = len(game.answers)
    pairs = n * (n - 1)
    lbs = root_bounds(search)
    g = int(lbs.argmin())
    print(f"proven lower bound (depth 1, every opener): {int(lbs.min())} over {pairs} ordered pairs, "
          f"mean {int(lbs.min()) / pairs:.4f} (least at {game.guesses[g]})")
    for word in args.first:
        first = game.guess_index[game.parse_guess(word)]
        bar = progress_bar(len(root_parts(search, first)[1]), desc=f"bound {word}", unit="child states")
        value = opener_bound(search, first, bar)
        bar.close()
        print(f"{word}: proven lower bound (depth 2) {value}, mean {value / pairs:.4f}")
    return 0


def run_heuristic(args, game, matrix) -> int:
    import orjson

    from ..dordle.heuristic import HeuristicStrategy, evaluate_opener, root_parts, strategy_document
    from ..dordle.search import DordleSearch
    from ..files import ThrottledSave, open_checkpoint, read_checkpoint, write_atomic
    from ..progress import progress_bar

    search = DordleSearch(game, matrix, args.max_guesses)
    strategy = HeuristicStrategy(search)
    first = game.guess_index[game.parse_guess(args.first)]
    header = {"format": "wordtree-dordle-heuristic/1", "answers_sha256": game.identity().get("answers_sha256"),
              "guesses_sha256": game.identity().get("guesses_sha256"), "first": game.guesses[first],
              "max_guesses": search.cap, "alpha": strategy.alpha}
    if args.resume and not args.checkpoint:
        raise UsageError("--resume needs --checkpoint")
    with open_checkpoint(args.checkpoint, resume=args.resume, overwrite=False):
        saved = read_checkpoint(args.checkpoint, header, "Dordle heuristic") if args.checkpoint else None
        state = dict(saved["state"]) if saved else None
        box: dict = {"state": state}
        saver = ThrottledSave(args.checkpoint, lambda: orjson.dumps({**header, "state": box["state"]})) \
            if args.checkpoint else None

        def save(current):
            box["state"] = current
            saver(every=60.0)

        children = len(root_parts(search, first)[1])
        bar = progress_bar(children, desc=f"heuristic {args.first}", unit="child states",
                           initial=(state or {}).get("done", 0))
        result = evaluate_opener(strategy, first, progress=bar, state=state, save=save if saver else None)
        bar.close()
        if saver and box["state"] is not None:
            saver(last=True)
    status = "" if not result["failed"] else f", FAILS {result['failed']} pairs within the cap (no valid total)"
    print(f"heuristic strategy (not proven optimal) opening with {result['first']}: total {result['total']} over "
          f"{result['pairs']} ordered pairs, mean {result['mean']:.4f}{status}; proven lower bound for this opener "
          f"(depth 2) {result['lower_bound']}; {result['states']} states, {result['seconds']} s")
    if args.output:
        write_atomic(args.output, orjson.dumps(strategy_document(strategy, first)))
    return 0
