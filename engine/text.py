"""Text shared by every family's summaries (below the families: it knows none of them)."""

from __future__ import annotations


def percent(part: float, whole: float, places: int = 2) -> str:
    """`part` of `whole` as a percentage with `places` decimals, and more where those would round
    a share that is not all (or not none) to 100 (or 0): 99999 of 100000 is "99.999 %", never
    "100.00 %"."""
    if whole <= 0:
        raise ValueError("a percentage of nothing")
    share = 100 * part / whole
    for digits in range(places, places + 10):
        text = f"{share:.{digits}f}"
        if (part >= whole or float(text) < 100) and (part <= 0 or float(text) > 0):
            return f"{text} %"
    return f"{share:.{places + 10}g} %"
