"""The shared percentage: never all (or none) where it is not, as every family's summary says it."""

import pytest

from wordtree.commands.multiboard import summary_lines
from wordtree.text import percent


@pytest.mark.parametrize("part, whole, places, text", [
    (99_999, 100_000, 2, "99.999 %"), (100_000, 100_000, 2, "100.00 %"), (1, 100_000, 2, "0.001 %"),
    (0, 7, 2, "0.00 %"), (1, 3, 2, "33.33 %"), (2, 3, 1, "66.7 %"), (999_999_999, 10**9, 1, "99.9999999 %"),
    (0.5, 1.0, 0, "50 %"), (7.9999, 8, 2, "99.999 %")])
def test_percent(part, whole, places, text):
    assert percent(part, whole, places) == text


def test_a_percentage_of_nothing_is_refused():
    with pytest.raises(ValueError):
        percent(0, 0)


def test_a_sample_with_one_game_lost_does_not_say_100_percent():
    doc = {"game": {"preset": "octordle", "boards": 8, "max_guesses": 13, "answers": "a.txt", "answers_count": 2315},
           "results": {"games": 100_000, "won": 99_999, "win_rate": 0.99999, "mean": 10.8397, "exact": False,
                       "ci95": [10.8354, 10.8439], "worst": 14},
           "sample": {"seed": 2}, "opener": "roate", "lower_bound": {"mean": 9.480069}}
    line = summary_lines(doc)[1]
    assert "99999 of 100000 (99.999 %)" in line and "100.00" not in line
