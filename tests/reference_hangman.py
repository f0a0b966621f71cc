"""Hangman oracles, written as literally as possible: the real game with every letter allowed.

No shortcut of the engine is used here: guessed letters are tracked, useless letters may be
guessed, and a word is solved when all of its letters have been guessed.
"""

from __future__ import annotations

import math
from functools import lru_cache


def feedback(letter: str, word: str) -> str:
    return "".join(ch if ch == letter else "-" for ch in word)


def optimal(words, lives: int, weights=None, alphabet=None) -> tuple[int, int]:
    """(total score, total wrong guesses) of the best strategy: largest score, then fewest wrong
    guesses, over every letter of `alphabet` (default: the words' letters plus one they lack).
    A word is lost at wrong guess lives + 1, which counts."""
    weights = weights or {w: 1 for w in words}
    if alphabet is None:
        present = sorted(set("".join(words)))
        absent = next(ch for ch in "zyxwvutsrq" if ch not in present)
        alphabet = "".join(present) + absent

    @lru_cache(maxsize=None)
    def best(candidates: frozenset, guessed: frozenset, misses: int) -> tuple[int, int]:
        if misses > lives:
            return sum(-misses * weights[w] for w in candidates), sum(misses * weights[w] for w in candidates)
        solved = [w for w in candidates if set(w) <= guessed]
        if solved:
            assert len(candidates) == 1
            w = solved[0]
            return (20 - misses) * weights[w], misses * weights[w]
        result = None
        for letter in alphabet:
            if letter in guessed:
                continue
            groups: dict[str, list[str]] = {}
            for w in candidates:
                groups.setdefault(feedback(letter, w), []).append(w)
            score = wrong = 0
            for text, group in groups.items():
                hit = letter in text
                s, m = best(frozenset(group), guessed | {letter}, misses + (0 if hit else 1))
                score += s
                wrong += m
            if result is None or (score, -wrong) > (result[0], -result[1]):
                result = (score, wrong)
        return result

    return best(frozenset(words), frozenset(), 0)


def play_rule(words, answer: str, lives: int, rule: str, weights=None) -> tuple[bool, int]:
    """(won, wrong guesses) when the rule plays `answer`: candidates are the words matching every
    feedback so far; frequency picks the unguessed letter in the most candidates (weighted, once
    per word), entropy the one whose feedback has the largest entropy; ties alphabetical. Once a
    single candidate is left, its letters are played."""
    weights = weights or {w: 1 for w in words}
    guessed: set[str] = set()
    misses = 0
    candidates = list(words)
    while not set(answer) <= guessed:
        if misses > lives:
            return False, misses
        if len(candidates) == 1:  # the word is known: its remaining letters are all hits
            break
        best, best_value = None, None
        for letter in "abcdefghijklmnopqrstuvwxyz":
            if letter in guessed:
                continue
            if rule == "frequency":
                value = sum(weights[w] for w in candidates if letter in w)
            else:
                groups: dict[str, int] = {}
                for w in candidates:
                    groups[feedback(letter, w)] = groups.get(feedback(letter, w), 0) + weights[w]
                total = sum(groups.values())
                value = -sum(g / total * math.log(g / total) for g in groups.values())
            if best_value is None or value > best_value + 1e-12:
                best, best_value = letter, value
        guessed.add(best)
        seen = feedback(best, answer)
        if best not in answer:
            misses += 1
        candidates = [w for w in candidates if feedback(best, w) == seen]
    if misses > lives:
        return False, misses
    return True, misses


def family_bound(words, lives: int, weights=None, other_misses: bool = True) -> list[tuple[int, int]]:
    """(wrong guesses, lost weight) that the families at each position force, position by position.

    A family at position p: the words spelled alike everywhere but at p, whose letter at p is
    nowhere else in the word (a word whose letter at p is elsewhere in it too is a family alone).
    Only those letters tell the family's words apart, each names one word, so whatever the order
    they are guessed in, the word whose letter comes k-th (from 0) misses k times, and is lost (at
    miss lives + 1) when k > lives. Heaviest words first costs least.

    other_misses: add the misses at other letters along the path where every guess misses, of
    the words that can still be won, each family standing there for its lives + 1 lightest words:
    after guesses c1..cj, at least their weight less the j largest covers meets cj without a
    letter of the word or of its family at p, a letter covering the families it is in (in one
    word, or in common). Only where some family has two words or more: elsewhere that is the miss
    spine less its losses."""
    weights = weights or {w: 1 for w in words}
    useful = [ch for ch in map(chr, range(97, 123)) if len({feedback(ch, w) for w in words}) > 1]
    heaviest = max(weights[w] for w in words)
    found = []
    for p in range(len(words[0])):
        families: dict[str, list[str]] = {}
        for w in words:
            rest = w[:p] + w[p + 1:]
            families.setdefault(rest if w[p] not in rest else w, []).append(w)
        misses = lost = 0
        for family in families.values():
            for k, w in enumerate(sorted(family, key=lambda w: -weights[w])):
                if k > lives:
                    misses += (lives + 1) * weights[w]
                    lost += weights[w]
                else:
                    misses += k * weights[w]
        if other_misses and any(len(f) > 1 for f in families.values()):  # else the miss spine's count
            standing = {tuple(f): sum(sorted(weights[w] for w in f)[: lives + 1]) for f in families.values()}
            covers = sorted((sum(g for f, g in standing.items() if ch in "".join(f)) for ch in useful), reverse=True)
            left = sum(standing.values())
            for cover in covers[: lives + 1]:
                if left <= heaviest:
                    break
                left -= cover
                if left <= 0:
                    break
                misses += left
        found.append((misses, lost))
    return found
