"""`trees`: the shipped trees of every family, with where they are installed."""

from __future__ import annotations

from .common import json_option, print_json, summary


def add_trees(sub) -> None:
    p = sub.add_parser("trees", help=summary("trees"),
                       description="The shipped trees of every game family: the name every command takes for "
                                   "it (verify, next, play, stats ...), its game, lists, total and whether it "
                                   "is proven optimal, and the file where it is installed.")
    p.add_argument("--family", choices=("wordle", "hangman", "dordle", "absurdle", "multiboard"), help="only this family's trees")
    json_option(p, "a list of objects: name, family, format, game, lists, answers, total, measure, mean, "
                   "optimal, path (and mode, max_guesses, opener, word_length, lives where the family has them)")


def run_trees(args) -> int:
    from ..data import trees_dir
    from ..families import describe, shipped_trees

    trees = [describe(tree) for tree in shipped_trees() if args.family in (None, tree.family.name)]
    if args.json:
        return print_json(trees)
    for tree in trees:
        mean = f"mean {tree['mean']:<8.4f}" if tree.get("mean") is not None else f"{'':13}"
        print(f"{tree['name']:<28} {_game(tree):<36} total {tree['total']:<8} {mean} "
              f"{'optimal' if tree['optimal'] else 'not proven optimal'}")
    print(f"{len(trees)} trees, installed in {trees_dir()}")
    return 0


def _game(tree: dict) -> str:
    """The game of a tree as a listing says it."""
    if tree["family"] == "hangman":
        return f"hangman, {tree['word_length']} letters, {tree['lives']} lives"
    if tree["family"] == "absurdle":
        return f"absurdle, {tree['answers']} answers, {tree['game'].split('(')[1].rstrip(')')}"
    if tree["family"] == "dordle":
        return f"dordle, {tree['answers']} answers, cap {tree['max_guesses']}"
    if tree["family"] == "multiboard":
        return f"{tree['game']}, {tree['boards']} boards, {tree['answers']} answers, cap {tree['max_guesses']}"
    mode = f", {tree['mode']}" if tree.get("mode") not in (None, "normal") else ""
    return f"{tree['game']}{mode}, {tree['answers']} answers"
