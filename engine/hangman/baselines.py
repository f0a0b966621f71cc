"""Hangman trees without a proof: the greedy baseline rules, and the letter chooser of a
best-found tree (what a build writes when its exact search does not finish).

Each function takes the Searcher whose game, scratch and memo it uses.
"""

from __future__ import annotations

import numpy as np

from . import kernels as K
from .search import INF_COST, Searcher, Totals, split

RULES = {"frequency": K.RULE_FREQUENCY, "entropy": K.RULE_ENTROPY}


def rule_letter(s: Searcher, members, rule: str) -> int:
    """The letter the baseline `rule` guesses in the set, or -1 for fewer than two words."""
    size = s.load(members)
    if size < 2:
        return -1
    return int(K._rule_letter(s.words, s.scratch, 0, 0, size, RULES[rule]))


def rule_totals(s: Searcher, rule: str, members=None, strikes: int | None = None) -> Totals:
    """The figures of a baseline rule over the set (default: every word, all lives)."""
    members = np.arange(len(s.hw.words)) if members is None else members
    size = s.load(members)
    strikes = s.strikes if strikes is None else strikes
    misses, lost = K._rule_totals(s.words, s.scratch, 0, 0, size, strikes, RULES[rule])
    weight = int(s.weights[np.unique(np.asarray(members))].sum())
    return Totals(int(misses), int(lost), weight)


def small_search(s: Searcher, members, strikes: int, exact_below: int, subtree_nodes: int) -> tuple[int, int] | None:
    """(least cost, first letter) of a set of at most `exact_below` words whose search finishes
    within `subtree_nodes` nodes, else None: how a best-found tree plays a set, and so how
    rollout_letter costs one."""
    if len(members) > exact_below:
        return None
    cost, ok, letter = s.solve(members, strikes, max_nodes=subtree_nodes)
    return (cost, letter) if ok else None


def rollout_letter(s: Searcher, members, strikes: int, exact_below: int, subtree_nodes: int) -> int:
    """A letter for a set too large to search: the useful letter whose classes cost least, each
    class costed as it would then be played: by its exact value where the memo holds one (a class
    the search solved, however large), by the tree a search of `subtree_nodes` nodes proves best
    for it (classes of at most `exact_below` words), else by the frequency rule. One guess of
    lookahead over a base strategy (the "rollout" of dynamic programming): a heuristic, with no
    claim of optimality, which gives better trees than the frequency rule alone, close to the
    optimum where that is proven (docs/log/hangman.md). Ties: alphabetical."""
    members = np.unique(np.asarray(members))
    best_cost, best_letter = INF_COST, -1
    for letter in s.useful_letters(members):
        cost = s.opening_cost(members, strikes, letter,
                              lambda part, r: played_cost(s, part, r, exact_below, subtree_nodes), best_cost)
        if cost < best_cost:
            best_cost, best_letter = cost, letter
    return best_letter


def played_cost(s: Searcher, members, strikes: int, exact_below: int, subtree_nodes: int) -> int:
    """The cost of a set under rollout_letter's base strategy (see there)."""
    if strikes == 0:
        return int(s.weights[members].sum()) * s.lost_cost
    if members.size == 1:
        return 0
    value, proven = s.known(members, strikes)  # a class the search solved, however large
    if proven:
        return value
    searched = small_search(s, members, strikes, exact_below, subtree_nodes)
    return searched[0] if searched else s.totals_cost(rule_totals(s, "frequency", members, strikes))


class NodeBudget:
    """The Searcher `s` with its searches held to `nodes` nodes in all: each search gets at most
    what is left, and once nothing is left a search reads the memo only (one node: a set the
    search proved is still played by its optimum, any other by the heuristic). `spent`: the nodes
    the searches took; `lookups`: the searches made with nothing left. Everything else is `s`'s."""

    def __init__(self, s: Searcher, nodes: int):
        self._s, self.left, self.spent, self.lookups = s, max(0, int(nodes)), 0, 0

    def __getattr__(self, name):
        return getattr(self._s, name)

    def solve(self, members, strikes: int, max_nodes: int = 2**62, limit: int | None = None):
        if self.left == 0:
            self.lookups += 1
        found = self._s.solve(members, strikes, max_nodes=max(1, min(max_nodes, self.left)), limit=limit)
        used = self._s.nodes
        self.spent += used
        self.left = max(0, self.left - used)
        return found


def best_found_chooser(s: Searcher, exact_below: int, subtree_nodes: int):
    """`choose(members, strikes) -> letter` of a best-found tree (the whole search did not
    finish). A set is played by its optimum where that is proven: the memo holds its exact value
    (what the unfinished search did prove, from a checkpoint too), or a search of `subtree_nodes`
    nodes finishes on it (at most `exact_below` words); so are, all the way down, the classes of
    the letter it is played with, solved again without a budget where the memo dropped them (each
    was solved once, so its search ends): the tree then scores what the memo proved of it.
    Elsewhere rollout_letter's letter."""
    optimal: set[tuple[bytes, int]] = set()  # the classes of sets played by their optimum

    def choose(members, strikes: int) -> int:
        members = np.asarray(members)
        budget = 2**62 if (members.tobytes(), strikes) in optimal else 1  # 1 node: the memo's answer
        _, proven, letter = s.solve(members, strikes, max_nodes=budget)
        if not proven:
            searched = small_search(s, members, strikes, exact_below, subtree_nodes)
            if searched is None:
                return rollout_letter(s, members, strikes, exact_below, subtree_nodes)
            letter = searched[1]
        optimal.update((part.tobytes(), strikes - (mask == 0)) for mask, part in split(s.hw, members, letter))
        return letter

    return choose
