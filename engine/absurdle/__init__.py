"""Absurdle: Wordle against an adversary that keeps the largest bucket of answers after each
guess (rule.py); the proof of the fewest guesses that always win and the openers that achieve it
(search.py, build.py, kernels.py); its documents (document.py) and positions (position.py)."""
