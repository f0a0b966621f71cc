"""Small test trees: word lists sampled from the shipped ones and a tiny greedy tree builder,
in plain Python, so the tree-file tests need neither the exact search nor numba."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import reference

ROOT = Path(__file__).resolve().parent.parent
WORDLISTS = ROOT / "wordlists"


def write_lists(folder: Path, n_answers: int = 60, n_guesses: int = 200, seed: int = 1) -> tuple[Path, Path]:
    """An answer list sampled from the Wordle answers and a guess list holding half of them plus
    other allowed words (the engine adds the missing answers to the guesses)."""
    answers = (WORDLISTS / "wordle-answers-2315.txt").read_text().split()
    allowed = (WORDLISTS / "wordle-allowed-12972.txt").read_text().split()
    rng = random.Random(seed)
    picked = sorted(rng.sample(answers, n_answers))
    guesses = sorted(set(rng.sample(allowed, n_guesses)) | set(picked[: n_answers // 2]))
    folder.mkdir(parents=True, exist_ok=True)
    a, g = folder / "answers.txt", folder / "guesses.txt"
    a.write_text("".join(w + "\n" for w in picked))
    g.write_text("".join(w + "\n" for w in guesses))
    return a, g


def greedy_tree(answers, guesses, hard: bool = False, history=()) -> dict:
    """At each node the guess with the smallest sum of squared bucket sizes (a candidate on
    ties); with `hard`, only candidates, which obey the hard-mode rule by construction."""
    answers = list(answers)
    if len(answers) == 1:
        return {"guess": answers[0]}
    options = answers if hard else list(guesses) + [a for a in answers if a not in set(guesses)]
    best = None
    for word in options:
        buckets: dict[str, list[str]] = {}
        for a in answers:
            buckets.setdefault(reference.wordle_feedback(word, a), []).append(a)
        if len(buckets) == 1 and word not in answers:
            continue  # learns nothing
        key = (sum(len(v) ** 2 for v in buckets.values()), word not in answers, word)
        if best is None or key < best[0]:
            best = (key, word, buckets)
    _, word, buckets = best
    node = {"guess": word}
    win = "G" * len(word)
    branches = {p: greedy_tree(v, guesses, hard) for p, v in sorted(buckets.items()) if p != win}
    if branches:
        node["next"] = branches
    return node


def depths(root: dict, answers) -> dict[str, int]:
    """Guesses each answer takes in `root`, by the reference feedback."""
    out = {}
    for a in answers:
        node, d = root, 1
        while (p := reference.wordle_feedback(node["guess"], a)) != "G" * len(a):
            node, d = node["next"][p], d + 1
        out[a] = d
    return out


def run_cli(*args, stdin: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), *map(str, args)],
        input=stdin, capture_output=True, text=True, cwd=cwd or ROOT, timeout=120,
    )


def assert_one_line_error(result, *needles) -> None:
    assert result.returncode != 0, result
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("notice: ")]
    assert len(lines) == 1 and lines[0].startswith("wordtree: error: "), result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def assert_kept_rank(name: str, game: str, cap: int, lists: tuple[str, str], count: int, best: tuple[str, int],
                     mode: str = "normal"):
    """A rank table kept in runs/ (runs/README.md): its header names this game, mode, cap and
    the shipped lists by checksum, every one of the `count` openers is there once, and none is
    valued or bounded below the best opener's exact value (an opener may be impossible: no tree
    within the cap)."""
    import hashlib

    from wordtree.data import wordlists_dir

    lines = (ROOT / "runs" / name).read_text().splitlines()
    header = [line for line in lines if line.startswith("#")]
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    assert header[0] == f"# wordtree rank: {game}, {mode} mode, cap {cap}, top 1"
    assert f"{count} of {count}" in header[3]
    for list_name, line in zip(lists, header[1:3]):
        assert hashlib.sha256((wordlists_dir() / list_name).read_bytes()).hexdigest() in line
    assert len(rows) == count and len({r[0] for r in rows}) == count
    assert all(r[2] in ("exact", "lower-bound") and int(r[1]) >= best[1] or r[1:] == ["inf", "impossible"]
               for r in rows)
    assert [best[0], str(best[1]), "exact"] in rows
