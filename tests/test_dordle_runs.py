"""The Dordle job-split proofs carried in runs/ (runs/README.md): each is read by this engine's
journal reader with the header its lists, cap and rules make (so a resume takes it), every line's
check holds, and what docs/results.md says of it is what the lines say."""

from pathlib import Path

import pytest
from wordtree.dordle import jobs
from wordtree.dordle.search import ALL_RULES
from wordtree.games import get_game

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = str(ROOT / "wordlists" / "wordle-allowed-12972.txt")
PROOFS = {"dordle-every20.jobs": "wordle-answers-every20-116.txt",  # finished
          "dordle-every10.jobs": "wordle-answers-every10-232.txt"}  # running: committed as it grows (issue #55)


def journal(name):
    game = get_game("wordle", str(ROOT / "runs" / PROOFS[name]), ALLOWED)
    return game, jobs.read_journal(ROOT / "runs" / name, jobs.jobs_header(game, 7, ALL_RULES, None))


@pytest.mark.parametrize("name", sorted(PROOFS))
def test_a_carried_root_proof_is_read_with_this_engines_header(name):
    game, found = journal(name)
    assert found is not None and found.opener is None and found.lines
    keys = [line.key for line in found.lines]
    assert len(keys) == len(set(keys)) and set(keys) <= set(game.guesses)  # one line an opener, each a guess
    assert all(line.nodes >= 0 and line.seconds >= 0 for line in found.lines)


def test_every_20th_proof_holds_the_optimum_the_results_state():
    """docs/results.md: 47464 from TORSE, the least exact total, and no opener's proven bound below
    it (a refuted opener's line is a bound at or above the best exact total known when it ran)."""
    _, found = journal("dordle-every20.jobs")
    exact = {line.key: line.value for line in found.lines if line.exact}
    best = min(exact.values())
    assert best == 47464 and min(exact, key=exact.get) == "torse"
    assert all(line.value >= best for line in found.lines if not line.exact)
    assert "47464" in (ROOT / "docs" / "results.md").read_text()
